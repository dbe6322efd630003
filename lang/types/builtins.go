package types

import (
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Built-in nominal types of the language. They are shared by every
// check; their constructors are found by name like user constructors.
// The library types (Process.ExitReason, ...) are built from the builtin
// registry (stdlib/builtins) by initLibraryTypes.
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
	// EventDef is Process.Event, the type receive_event matches on.
	EventDef *TypeDef
)

// builtinTypeDefs maps the names usable in type positions to their defs.
var builtinTypeDefs = map[string]*TypeDef{}

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
	for _, d := range []*TypeDef{ListDef, OptionDef, ResultDef, PidDef, OrderingDef, MapDef, SetDef} {
		builtinTypeDefs[d.Name] = d
	}
	initLibraryTypes()
	EventDef = builtinTypeDefs["Process.Event"]
	initBuiltinFuncs()
}

// initLibraryTypes builds a TypeDef for each library type of the
// registry: first every def with its parameters, so that field types may
// name any of them, then the constructors.
func initLibraryTypes() {
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
		builtinTypeDefs[t.Name] = d
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
				c.Fields = append(c.Fields, (&sigConv{vars: vars}).typ(ft))
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

// initBuiltinFuncs builds the signature of every builtin function of the
// registry, the FuncSig of those called with labels (eq, compare), and
// the names and modules no declaration may take.
func initBuiltinFuncs() {
	for _, e := range builtins.All() {
		conv := &sigConv{vars: map[string]*TParam{}, fresh: true}
		f := conv.typ(e.Type()).(*Func)
		bs := &BuiltinSig{Generics: conv.order, Params: f.Params, Ret: f.Ret}
		builtinSigs[e.Name] = bs
		if e.Labels != nil {
			sig := &FuncSig{Name: e.Name, Ret: bs.Ret, Generics: bs.Generics}
			for i, l := range e.Labels {
				sig.Params = append(sig.Params, &ParamSig{Label: l, Name: l, Type: bs.Params[i], Declared: true})
				sig.NeedsLabel = append(sig.NeedsLabel, true)
			}
			sig.obj = &Object{Kind: ObjBuiltin, Name: e.Name, Builtin: e.Name}
			labeledSigs[e.Name] = sig
		}
		if e.Module() == "" {
			reservedNames[e.Name] = true
		}
		if req, ok := reqOf[e.Req]; ok {
			builtinReqs[bs.Generics[0]] = []requirement{{kind: req, op: e.Name}}
		}
		if e.Req == builtins.EqualShow {
			builtinReqs[bs.Generics[0]] = []requirement{{kind: reqEq, op: e.Name}, {kind: reqShow, op: e.Name}}
		}
	}
	for _, m := range builtins.Modules() {
		builtinModules[m] = true
	}
	for _, m := range builtins.ReservedModules {
		builtinModules[m] = true
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
	return builtinTypeDefs[t.Name].Ctors[tag]
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

var builtinSigs = map[string]*BuiltinSig{}

// labeledSigs holds the builtins called with labels (eq, compare).
var labeledSigs = map[string]*FuncSig{}

// BuiltinNames returns the qualified names of every builtin function the
// checker knows, sorted: the registry's (stdlib/builtins). A test in
// stdlib compares it with every other consumer of the registry.
func BuiltinNames() []string {
	out := make([]string, 0, len(builtinSigs))
	for n := range builtinSigs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupBuiltin returns the signature of a builtin function by qualified
// name, or nil.
func LookupBuiltin(name string) *BuiltinSig { return builtinSigs[name] }

// builtinModules are the namespaces whose members are builtin functions,
// and the module names the registry reserves.
var builtinModules = map[string]bool{}

// reservedNames are names a user function, type or constructor may not
// take: the top-level builtins.
var reservedNames = map[string]bool{}

// sigConv converts a type of the registry's signature language into a
// checker type. With fresh set, each generic parameter gets a new TParam
// on first sight (in order of first appearance: Generics); otherwise
// generic parameters must be in vars (a library type's own parameters).
type sigConv struct {
	vars  map[string]*TParam
	order []*TParam
	fresh bool
}

func (c *sigConv) typ(t *builtins.Type) Type {
	conv := func(ts []*builtins.Type) []Type {
		if len(ts) == 0 {
			return nil
		}
		out := make([]Type, len(ts))
		for i, a := range ts {
			out[i] = c.typ(a)
		}
		return out
	}
	switch {
	case t.Ret != nil:
		ps := conv(t.Args)
		return &Func{Params: ps, Ret: c.typ(t.Ret)}
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
	if d, ok := builtinTypeDefs[t.Name]; ok {
		return &Named{Def: d, Args: conv(t.Args)}
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
