package types

import (
	"sort"
	"strings"
	"sync"

	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Built-in nominal types of the language. They are shared by every
// check; their constructors are found by name like user constructors.
// The library types (Process.ExitReason, ...) are built from the builtin
// registry (stdlib/builtins) with the rest of lib, on first use.
var (
	ListDef     = &TypeDef{Name: "List", Kind: OpaqueDef, Builtin: true}
	OptionDef   = &TypeDef{Name: "Option", Kind: SumDef, Builtin: true}
	ResultDef   = &TypeDef{Name: "Result", Kind: SumDef, Builtin: true}
	PidDef      = &TypeDef{Name: "Pid", Kind: OpaqueDef, Builtin: true}
	OrderingDef = &TypeDef{Name: "Ordering", Kind: SumDef, Builtin: true}
	// MapDef and SetDef are Map(k, v) and Set(a) (docs/maps.md): opaque,
	// with Show and Eq when their arguments have them, never Ord.
	MapDef = &TypeDef{Name: "Map", Kind: OpaqueDef, Builtin: true}
	SetDef = &TypeDef{Name: "Set", Kind: OpaqueDef, Builtin: true}
)

// coreDefs are the built-in nominal types above, which init completes.
var coreDefs = []*TypeDef{ListDef, OptionDef, ResultDef, PidDef, OrderingDef, MapDef, SetDef}

// libTables is what the checker knows of the builtin registry
// (stdlib/builtins): the library types' defs, the builtin functions'
// signatures and the rules and names derived from them. It is built once,
// on first use (lib), not when the package is initialised: a program run
// from bytecode links the checker but never checks anything, and building
// these tables was a large part of its start-up.
type libTables struct {
	// typeDefs maps the names usable in type positions to their defs:
	// the core types and the library types.
	typeDefs map[string]*TypeDef
	// event is Process.Event, the type receive_event matches on.
	event *TypeDef
	sigs  map[string]*BuiltinSig
	// labeled holds the builtins called with labels (eq, compare).
	labeled map[string]*FuncSig
	// modules are the namespaces whose members are builtin functions,
	// and the module names the registry reserves.
	modules map[string]bool
	// reserved are names a user function, type or constructor may not
	// take: the top-level builtins.
	reserved map[string]bool
	// reqs are the requirements of builtin signatures' parameters, from
	// the registry's Req.
	reqs map[*TParam][]requirement
	// top lists the unqualified builtin functions, members the members
	// of each builtin module (List -> len, map, ...), and moduleNames the
	// modules a program can call into, sorted: for did-you-mean (help.go).
	top         []string
	members     map[string][]string
	moduleNames []string

	slabs libSlabs // where the signatures' nodes come from
}

// lib returns the checker's tables of the builtin registry, building them
// on the first call. They are shared and never modified afterwards.
var lib = sync.OnceValue(newLibTables)

func newLibTables() *libTables {
	all := builtins.All()
	l := &libTables{
		typeDefs: make(map[string]*TypeDef, len(coreDefs)+len(builtins.Types())),
		sigs:     make(map[string]*BuiltinSig, len(all)),
		labeled:  map[string]*FuncSig{},
		modules:  map[string]bool{},
		reserved: map[string]bool{},
		reqs:     map[*TParam][]requirement{},
		members:  map[string][]string{},
	}
	for _, d := range coreDefs {
		l.typeDefs[d.Name] = d
	}
	l.addLibraryTypes()
	l.event = l.typeDefs["Process.Event"]
	l.addBuiltinFuncs()
	return l
}

var tparamSeq = 0

func newTParam(name string) *TParam {
	tparamSeq++
	return &TParam{Name: name, ID: -tparamSeq}
}

func defineCtors(d *TypeDef, ctors ...*Ctor) {
	for i, c := range ctors {
		c.Def = d
		c.Tag = i
	}
	d.Ctors = ctors
}

func init() {
	all := map[string]bool{"Show": true, "Eq": true, "Ord": true, "Clone": true}
	a := newTParam("a")
	ListDef.Params = []*TParam{a}
	oa := newTParam("a")
	OptionDef.Params = []*TParam{oa}
	defineCtors(OptionDef, &Ctor{Name: "Some", Fields: []Type{oa}}, &Ctor{Name: "None"})
	ra, re := newTParam("a"), newTParam("e")
	ResultDef.Params = []*TParam{ra, re}
	defineCtors(ResultDef, &Ctor{Name: "Ok", Fields: []Type{ra}}, &Ctor{Name: "Err", Fields: []Type{re}})
	PidDef.Params = []*TParam{newTParam("m")}
	defineCtors(OrderingDef, &Ctor{Name: "Less"}, &Ctor{Name: "Equal"}, &Ctor{Name: "Greater"})
	for _, d := range []*TypeDef{ListDef, OptionDef, ResultDef} {
		d.Derives = all
	}
	// docs/stdlib.md lists Ordering among the types without Show.
	OrderingDef.Derives = map[string]bool{"Eq": true, "Clone": true}
	PidDef.Derives = map[string]bool{"Eq": true}
	MapDef.Params = []*TParam{newTParam("k"), newTParam("v")}
	SetDef.Params = []*TParam{newTParam("a")}
	MapDef.Derives = map[string]bool{"Show": true, "Eq": true, "Clone": true}
	SetDef.Derives = map[string]bool{"Show": true, "Eq": true, "Clone": true}
}

// addLibraryTypes builds a TypeDef for each library type of the
// registry: first every def with its parameters, so that field types may
// name any of them, then the constructors.
func (l *libTables) addLibraryTypes() {
	decls := builtins.Types()
	defs := make([]*TypeDef, len(decls))
	for i, t := range decls {
		d := &TypeDef{Name: t.Name, Builtin: true, Qualifier: t.Module(), Derives: map[string]bool{}}
		switch t.Kind {
		case builtins.Sum:
			d.Kind = SumDef
		case builtins.Record:
			d.Kind = RecordDef
		default:
			d.Kind = OpaqueDef
		}
		for _, p := range t.Params {
			d.Params = append(d.Params, newTParam(p))
		}
		for _, c := range t.Derives {
			d.Derives[c] = true
		}
		defs[i] = d
		l.typeDefs[t.Name] = d
	}
	for i, t := range decls {
		d := defs[i]
		vars := map[string]*TParam{}
		for _, p := range d.Params {
			vars[p.Name] = p
		}
		var ctors []*Ctor
		for _, v := range t.Variants {
			c := &Ctor{Name: v.Name}
			for _, f := range v.Fields {
				ft, err := builtins.ParseType(f.Type)
				if err != nil {
					panic("types: " + err.Error()) // the registry validated it
				}
				c.Fields = append(c.Fields, (&sigConv{vars: vars, defs: l.typeDefs, slabs: &l.slabs}).typ(ft))
				if t.Kind == builtins.Record {
					c.FieldNames = append(c.FieldNames, f.Name)
					d.Fields = append(d.Fields, f.Name)
				}
			}
			ctors = append(ctors, c)
		}
		defineCtors(d, ctors...)
	}
}

// addBuiltinFuncs builds the signature of every builtin function of the
// registry, the FuncSig of those called with labels (eq, compare), the
// names and modules no declaration may take, and the lists did-you-mean
// suggests from.
func (l *libTables) addBuiltinFuncs() {
	conv := &sigConv{fresh: true, defs: l.typeDefs, slabs: &l.slabs}
	for _, e := range builtins.All() {
		clear(conv.vars)
		conv.order = nil // each signature keeps its own (BuiltinSig.Generics)
		f := conv.typ(e.Type()).(*Func)
		bs := &BuiltinSig{Generics: conv.order, Params: f.Params, Ret: f.Ret}
		l.sigs[e.Name] = bs
		if e.Labels != nil {
			sig := &FuncSig{Name: e.Name, Ret: bs.Ret, Generics: bs.Generics}
			for i, l := range e.Labels {
				sig.Params = append(sig.Params, &ParamSig{Label: l, Name: l, Type: bs.Params[i], Declared: true})
				sig.NeedsLabel = append(sig.NeedsLabel, true)
			}
			sig.obj = &Object{Kind: ObjBuiltin, Name: e.Name, Builtin: e.Name}
			l.labeled[e.Name] = sig
		}
		if e.Module() == "" {
			l.reserved[e.Name] = true
			l.top = append(l.top, e.Name)
		} else {
			l.members[e.Module()] = append(l.members[e.Module()], e.Member())
		}
		if req, ok := reqOf[e.Req]; ok {
			l.reqs[bs.Generics[0]] = []requirement{{kind: req, op: e.Name}}
		}
		if e.Req == builtins.EqualShow {
			l.reqs[bs.Generics[0]] = []requirement{{kind: reqEq, op: e.Name}, {kind: reqShow, op: e.Name}}
		}
	}
	l.moduleNames = builtins.Modules()
	for _, m := range builtins.Modules() {
		l.modules[m] = true
	}
	for _, m := range builtins.ReservedModules {
		l.modules[m] = true
	}
}

// reqOf maps the registry's requirements to the checker's.
var reqOf = map[builtins.Req]reqKind{
	builtins.Printable: reqPrint, builtins.Showable: reqShow, builtins.Equatable: reqEq,
	builtins.Ordered: reqSort, builtins.Scalar: reqScalar, builtins.MapKey: reqKey,
}

// libraryCtor finds the constructor of a library type written
// Module.Variant or Module.Type.Variant (Process.Normal,
// Process.ExitReason.Normal).
func libraryCtor(parts []string) *Ctor {
	t, tag, ok := builtins.FindCtor(strings.Join(parts, "."))
	if !ok {
		return nil
	}
	return lib().typeDefs[t.Name].Ctors[tag]
}

// builtinCtor finds Some/None/Ok/Err/Less/Equal/Greater by bare name.
func builtinCtor(name string) *Ctor {
	for _, d := range []*TypeDef{OptionDef, ResultDef, OrderingDef} {
		for _, c := range d.Ctors {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

// BuiltinSig is a builtin function's generic signature.
type BuiltinSig struct {
	Generics []*TParam
	Params   []Type
	Ret      Type
}

// BuiltinNames returns the qualified names of every builtin function the
// checker knows, sorted: the registry's (stdlib/builtins). A test in
// stdlib compares it with every other consumer of the registry.
func BuiltinNames() []string {
	sigs := lib().sigs
	out := make([]string, 0, len(sigs))
	for n := range sigs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupBuiltin returns the signature of a builtin function by qualified
// name, or nil.
func LookupBuiltin(name string) *BuiltinSig { return lib().sigs[name] }

// sigConv converts a type of the registry's signature language into a
// checker type. With fresh set, each generic parameter gets a new TParam
// on first sight (in order of first appearance: Generics); otherwise
// generic parameters must be in vars (a library type's own parameters).
type sigConv struct {
	vars  map[string]*TParam
	order []*TParam
	fresh bool
	defs  map[string]*TypeDef // the type defs by name (libTables.typeDefs)
	slabs *libSlabs
}

// libSlabs hands out the nodes of the builtin signatures from blocks, so
// that building the tables allocates a block now and then instead of
// every node and list.
type libSlabs struct {
	named []Named
	funcs []Func
	lists []Type
}

// slabNew puts v in the current block of *block, starting a new block
// when it is full, and returns its address.
func slabNew[T any](block *[]T, v T) *T {
	if len(*block) == cap(*block) {
		*block = make([]T, 0, 64)
	}
	*block = append(*block, v)
	return &(*block)[len(*block)-1]
}

// slabList returns n zeroed elements of the current block of *block
// (a new block when too few are left), without spare capacity.
func slabList[T any](block *[]T, n int) []T {
	if cap(*block)-len(*block) < n {
		*block = make([]T, 0, max(n, 256))
	}
	start := len(*block)
	*block = (*block)[:start+n]
	return (*block)[start : start+n : start+n]
}

func (c *sigConv) typ(t *builtins.Type) Type {
	conv := func(ts []*builtins.Type) []Type {
		if len(ts) == 0 {
			return nil
		}
		out := slabList(&c.slabs.lists, len(ts))
		for i, a := range ts {
			out[i] = c.typ(a)
		}
		return out
	}
	switch {
	case t.Ret != nil:
		ps := conv(t.Args)
		return slabNew(&c.slabs.funcs, Func{Params: ps, Ret: c.typ(t.Ret)})
	case t.Name == "":
		return &Tuple{Elems: conv(t.Args)}
	case t.IsVar():
		if tp, ok := c.vars[t.Name]; ok {
			return tp
		}
		if !c.fresh {
			panic("types: generic parameter " + t.Name + " outside its type")
		}
		tp := newTParam(t.Name)
		if c.vars == nil {
			c.vars = map[string]*TParam{}
		}
		c.vars[t.Name] = tp
		c.order = append(c.order, tp)
		return tp
	}
	switch t.Name {
	case "Int":
		return IntT
	case "Float":
		return FloatT
	case "Bool":
		return BoolT
	case "String":
		return StringT
	case "Unit":
		return UnitT
	case "Never":
		return NeverT
	case "Range":
		return RangeT
	case "ProcessId":
		return ProcessIDT
	case "MonitorRef":
		return MonitorRef
	}
	if d, ok := c.defs[t.Name]; ok {
		return slabNew(&c.slabs.named, Named{Def: d, Args: conv(t.Args)})
	}
	panic("types: unknown type in the builtin registry: " + t.Name)
}

// coreCtor reports the constructor names no user declaration may take:
// those of Option and Result. The prelude's Ordering constructors (Less,
// Equal, Greater) may be shadowed by a user type's.
func coreCtor(name string) bool {
	switch name {
	case "Some", "None", "Ok", "Err":
		return true
	}
	return false
}
