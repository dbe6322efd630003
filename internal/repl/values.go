package repl

import (
	"fmt"
	"github.com/morrow-lang/morrow/lang/ast"
	"regexp"
	"strings"
	"sync"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// typeSource writes t in Morrow's type syntax, naming the unresolved
// variables a, b, c, … (in a parameter annotation they make the entry
// generic in them). ok is false for a type that the syntax cannot name.
// weak is true when t has unresolved variables.
func typeSource(t types.Type) (text string, ok, weak bool) {
	p := typeWriter{vars: map[*types.TVar]string{}, ok: true}
	p.write(t)
	return p.b.String(), p.ok, len(p.vars) > 0
}

// typeDisplay writes t as the REPL shows it after a value: unresolved
// variables are `_`, as in the checker's messages.
func typeDisplay(t types.Type) string {
	// Types of imported modules show module-qualified (geo.shapes.Shape).
	return ast.Qualified(types.Zonk(t).String())
}

type typeWriter struct {
	b    strings.Builder
	vars map[*types.TVar]string
	ok   bool
}

func (w *typeWriter) list(ts []types.Type) {
	for i, t := range ts {
		if i > 0 {
			w.b.WriteString(", ")
		}
		w.write(t)
	}
}

func (w *typeWriter) write(t types.Type) {
	switch x := types.Resolve(t).(type) {
	case *types.Basic:
		switch x {
		case types.UnitT:
			w.b.WriteString("()")
		case types.Invalid, types.NeverT:
			w.ok = false
		default:
			w.b.WriteString(x.String())
		}
	case *types.Named:
		w.b.WriteString(x.Def.Name)
		if len(x.Args) > 0 {
			w.b.WriteString("(")
			w.list(x.Args)
			w.b.WriteString(")")
		}
	case *types.Tuple:
		w.b.WriteString("(")
		w.list(x.Elems)
		if len(x.Elems) == 1 {
			w.b.WriteString(",")
		}
		w.b.WriteString(")")
	case *types.Func:
		w.b.WriteString("(")
		w.list(x.Params)
		w.b.WriteString(") -> ")
		w.write(x.Ret)
	case *types.TVar:
		w.b.WriteString(w.varName(x))
	case *types.TParam:
		// A generic parameter of another function (the mailbox of a
		// generic actor): as open as a variable here.
		key := &types.TVar{ID: -1 - x.ID}
		for v := range w.vars {
			if v.ID == key.ID {
				key = v
			}
		}
		w.b.WriteString(w.varName(key))
	case *types.Union:
		w.b.WriteString(x.Name)
	default:
		w.ok = false
	}
}

// varName is the name of type variable v in this text: a, b, c, ... in
// the order the variables first appear.
func (w *typeWriter) varName(v *types.TVar) string {
	name, ok := w.vars[v]
	if !ok {
		name = varName(len(w.vars))
		w.vars[v] = name
	}
	return name
}

func varName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return fmt.Sprintf("t%d", i)
}

// mentions reports whether the type text names the type name.
func mentions(typeText, name string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(typeText)
}

// hasFunc reports whether v holds a function value anywhere.
func hasFunc(v value.Value) bool {
	return anyValue(v, func(v value.Value) bool { return v.Kind() == value.KFunc })
}

// anyValue reports whether found holds for v or for a value inside it:
// the elements of its tuples and lists and the fields of its data values,
// at any depth (not the captured values of closures).
func anyValue(v value.Value, found func(value.Value) bool) bool {
	if found(v) {
		return true
	}
	var inside []value.Value
	switch v.Kind() {
	case value.KTuple:
		inside = v.AsTuple().Elems
	case value.KList:
		inside = v.AsList().Items
	case value.KData:
		inside = v.AsData().Fields
	}
	for _, e := range inside {
		if anyValue(e, found) {
			return true
		}
	}
	return false
}

// fnKey names a function of a program independently of where its code
// is: its name without the line suffix of lambdas and defer bodies
// ("f.lambda@12" is "f.lambda"), and how many functions of the same
// name come before it. The same source compiled again in another
// program gives its functions the same keys; owner is the top-level
// function the code belongs to.
type fnKey struct {
	name  string
	nth   int
	owner string
}

var lineSuffix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`@\d+$`) })

// imageKeys is the function keys of one loaded program, both ways.
type imageKeys struct {
	keys  []fnKey
	index map[fnKey]int
	// natives by name
	natives map[string]int
}

func keysOf(img *vm.Image) *imageKeys {
	p := img.Prog
	k := &imageKeys{index: map[fnKey]int{}, natives: map[string]int{}}
	seen := map[string]int{}
	for i, f := range p.Functions {
		name := lineSuffix().ReplaceAllString(f.Name, "")
		owner := ""
		if f.Flags&bytecode.FlagPrelude == 0 {
			owner, _, _ = strings.Cut(name, ".")
		}
		key := fnKey{name: name, nth: seen[name], owner: owner}
		seen[name]++
		k.keys = append(k.keys, key)
		k.index[key] = i
	}
	for i, n := range p.Natives {
		k.natives[n] = i
	}
	return k
}

// remapper moves values from the program of one entry to the program of
// another: a closure's function index and a native function's index are
// looked up by key. same reports whether the owner of a key has the same
// source in both programs.
type remapper struct {
	from, to *imageKeys
	same     func(owner string) bool
}

func (m *remapper) value(v value.Value) (value.Value, bool) {
	switch v.Kind() {
	case value.KFunc:
		if c, ok := v.Closure(); ok {
			if c.Fn < 0 || c.Fn >= len(m.from.keys) {
				return v, false
			}
			key := m.from.keys[c.Fn]
			if !m.same(key.owner) {
				return v, false
			}
			idx, ok := m.to.index[key]
			if !ok {
				return v, false
			}
			free, ok := m.values(c.Free)
			if !ok {
				return v, false
			}
			return value.NewClosure(idx, free), true
		}
		if c, ok := v.NativeFunc(); ok {
			idx, ok := m.to.natives[c.Name]
			if !ok {
				return v, false
			}
			return value.NewNative(idx, c.Name), true
		}
		return v, false
	case value.KTuple:
		if !hasFunc(v) {
			return v, true
		}
		es, ok := m.values(v.AsTuple().Elems)
		return value.NewTuple(es...), ok
	case value.KList:
		if !hasFunc(v) {
			return v, true
		}
		es, ok := m.values(v.AsList().Items)
		return value.NewList(es), ok
	case value.KData:
		if !hasFunc(v) {
			return v, true
		}
		d := v.AsData()
		fs, ok := m.values(d.Fields)
		return value.NewData(d.Type, d.Tag, fs...), ok
	}
	return v, true
}

func (m *remapper) values(vs []value.Value) ([]value.Value, bool) {
	if len(vs) == 0 {
		return vs, true
	}
	out := make([]value.Value, len(vs))
	for i, v := range vs {
		nv, ok := m.value(v)
		if !ok {
			return nil, false
		}
		out[i] = nv
	}
	return out, true
}
