package types

import (
	"strconv"
	"strings"
)

// Type is a Morrow type. The concrete types are *Basic, *Named, *Tuple,
// *Func, *Union, *TVar (an inference variable) and *TParam (a generic
// parameter of a signature or type declaration).
type Type interface {
	String() string
	isType()
}

// BasicKind enumerates the primitive types.
type BasicKind int

// The primitive kinds. Invalid is the type of an expression that already
// produced a diagnostic; it unifies with everything so that follow-on
// errors are suppressed. Never is the bottom type of diverging expressions.
const (
	KInvalid BasicKind = iota
	KInt
	KFloat
	KBool
	KString
	KUnit
	KNever
	KRange
	KProcessID
	KMonitorRef
)

var basicNames = [...]string{"<invalid>", "Int", "Float", "Bool", "String", "()", "Never", "Range", "ProcessId", "MonitorRef"}

// Basic is a primitive type.
type Basic struct{ Kind BasicKind }

func (b *Basic) String() string { return basicNames[b.Kind] }
func (*Basic) isType()          {}

// The primitive type singletons.
var (
	Invalid    = &Basic{KInvalid}
	IntT       = &Basic{KInt}
	FloatT     = &Basic{KFloat}
	BoolT      = &Basic{KBool}
	StringT    = &Basic{KString}
	UnitT      = &Basic{KUnit}
	NeverT     = &Basic{KNever}
	RangeT     = &Basic{KRange}
	ProcessIDT = &Basic{KProcessID}
	MonitorRef = &Basic{KMonitorRef}
)

// Named is an instance of a nominal type: a user sum, record or newtype,
// or a built-in one (List, Option, Result, Pid, Ordering and the Process
// types).
type Named struct {
	Def  *TypeDef
	Args []Type
}

func (n *Named) String() string {
	if len(n.Args) == 0 {
		return n.Def.Name
	}
	parts := make([]string, len(n.Args))
	for i, a := range n.Args {
		parts[i] = a.String()
	}
	return n.Def.Name + "(" + strings.Join(parts, ", ") + ")"
}
func (*Named) isType() {}

// Tuple is a tuple type.
type Tuple struct{ Elems []Type }

func (t *Tuple) String() string {
	parts := make([]string, len(t.Elems))
	for i, a := range t.Elems {
		parts[i] = a.String()
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
func (*Tuple) isType() {}

// Func is a function type. Labels disappear once a function is a value,
// so a Func has none.
type Func struct {
	Params []Type
	Ret    Type
}

func (f *Func) String() string {
	parts := make([]string, len(f.Params))
	for i, a := range f.Params {
		parts[i] = a.String()
	}
	return "(" + strings.Join(parts, ", ") + ") -> " + f.Ret.String()
}
func (*Func) isType() {}

// Union is an untagged union alias such as `type V = Int | String`.
// Values of a member type are accepted where the union is expected; a
// typed pattern `n: Int` narrows it back.
type Union struct {
	Name string
	Alts []Type
}

func (u *Union) String() string { return u.Name }
func (*Union) isType()          {}

// TVar is a unification variable. Ref is nil while unbound.
type TVar struct {
	ID  int
	Ref Type
}

func (v *TVar) String() string {
	if v.Ref != nil {
		return v.Ref.String()
	}
	return "_"
}
func (*TVar) isType() {}

// TParam is a generic type parameter: a lowercase type name in a
// signature or a type declaration. Inside the body that declares it, it
// is rigid (equal only to itself); each use of a generic function
// instantiates its parameters with fresh variables.
type TParam struct {
	Name string
	ID   int
}

func (p *TParam) String() string { return p.Name }
func (*TParam) isType()          {}

// TypeKind classifies a TypeDef.
type TypeKind int

// Kinds of nominal types.
const (
	SumDef TypeKind = iota
	RecordDef
	NewtypeDef
	OpaqueDef // List, Pid: no constructors visible to patterns
)

// TypeDef is a nominal type declaration (user or built-in).
type TypeDef struct {
	Name    string // display name, e.g. "Shape", "Option", "Process.ExitReason"
	Kind    TypeKind
	Params  []*TParam
	Ctors   []*Ctor // sums: variants in tag order; records/newtypes: the single constructor
	Fields  []string
	Derives map[string]bool
	Builtin bool
	Module  string // module name used in Show diagnostics
}

// Ctor is a constructor of a nominal type. Field types mention the
// TypeDef's Params.
type Ctor struct {
	Name       string
	Def        *TypeDef
	Tag        int
	Fields     []Type
	FieldNames []string
}

// QualifiedName is the constructor name prefixed with its type, e.g.
// "Shape.Circle" or "Process.ExitReason.Normal".
func (c *Ctor) QualifiedName() string { return c.Def.Name + "." + c.Name }

// Resolve follows bound type variables at the top of t.
func Resolve(t Type) Type {
	for {
		v, ok := t.(*TVar)
		if !ok || v.Ref == nil {
			return t
		}
		t = v.Ref
	}
}

// Zonk returns t with every bound variable replaced by its binding, all
// the way down.
func Zonk(t Type) Type {
	t = Resolve(t)
	switch x := t.(type) {
	case *Named:
		if len(x.Args) == 0 {
			return x
		}
		args := make([]Type, len(x.Args))
		for i, a := range x.Args {
			args[i] = Zonk(a)
		}
		return &Named{Def: x.Def, Args: args}
	case *Tuple:
		el := make([]Type, len(x.Elems))
		for i, a := range x.Elems {
			el[i] = Zonk(a)
		}
		return &Tuple{Elems: el}
	case *Func:
		ps := make([]Type, len(x.Params))
		for i, a := range x.Params {
			ps[i] = Zonk(a)
		}
		return &Func{Params: ps, Ret: Zonk(x.Ret)}
	}
	return t
}

// subst replaces generic parameters according to m.
func subst(t Type, m map[*TParam]Type) Type {
	if len(m) == 0 {
		return t
	}
	t = Resolve(t)
	switch x := t.(type) {
	case *TParam:
		if r, ok := m[x]; ok {
			return r
		}
	case *Named:
		if len(x.Args) == 0 {
			return x
		}
		args := make([]Type, len(x.Args))
		for i, a := range x.Args {
			args[i] = subst(a, m)
		}
		return &Named{Def: x.Def, Args: args}
	case *Tuple:
		el := make([]Type, len(x.Elems))
		for i, a := range x.Elems {
			el[i] = subst(a, m)
		}
		return &Tuple{Elems: el}
	case *Func:
		ps := make([]Type, len(x.Params))
		for i, a := range x.Params {
			ps[i] = subst(a, m)
		}
		return &Func{Params: ps, Ret: subst(x.Ret, m)}
	case *Union:
		alts := make([]Type, len(x.Alts))
		for i, a := range x.Alts {
			alts[i] = subst(a, m)
		}
		return &Union{Name: x.Name, Alts: alts}
	}
	return t
}

// Identical reports whether two types are structurally the same, without
// binding any variable.
func Identical(a, b Type) bool {
	a, b = Resolve(a), Resolve(b)
	switch x := a.(type) {
	case *Basic:
		y, ok := b.(*Basic)
		return ok && x.Kind == y.Kind
	case *TVar:
		return a == b
	case *TParam:
		return a == b
	case *Named:
		y, ok := b.(*Named)
		if !ok || x.Def != y.Def || len(x.Args) != len(y.Args) {
			return false
		}
		for i := range x.Args {
			if !Identical(x.Args[i], y.Args[i]) {
				return false
			}
		}
		return true
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok || len(x.Elems) != len(y.Elems) {
			return false
		}
		for i := range x.Elems {
			if !Identical(x.Elems[i], y.Elems[i]) {
				return false
			}
		}
		return true
	case *Func:
		y, ok := b.(*Func)
		if !ok || len(x.Params) != len(y.Params) || !Identical(x.Ret, y.Ret) {
			return false
		}
		for i := range x.Params {
			if !Identical(x.Params[i], y.Params[i]) {
				return false
			}
		}
		return true
	case *Union:
		y, ok := b.(*Union)
		return ok && x.Name == y.Name
	}
	return false
}

// occurs reports whether v appears in t.
func occurs(v *TVar, t Type) bool {
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar:
		return x == v
	case *Named:
		for _, a := range x.Args {
			if occurs(v, a) {
				return true
			}
		}
	case *Tuple:
		for _, a := range x.Elems {
			if occurs(v, a) {
				return true
			}
		}
	case *Func:
		for _, a := range x.Params {
			if occurs(v, a) {
				return true
			}
		}
		return occurs(v, x.Ret)
	}
	return false
}

// unify makes a and b equal, binding variables as needed. It reports
// false on a mismatch (bindings made before the mismatch are kept, which
// is harmless because the caller reports an error). Invalid unifies with
// everything; Never unifies with everything without binding.
func unify(a, b Type) bool {
	a, b = Resolve(a), Resolve(b)
	if a == b {
		return true
	}
	if isBasic(a, KNever) || isBasic(b, KNever) {
		return true
	}
	// A variable unified with Invalid becomes Invalid, which keeps
	// suppressing follow-on errors wherever it flows.
	if v, ok := a.(*TVar); ok {
		if occurs(v, b) {
			return false
		}
		v.Ref = b
		return true
	}
	if v, ok := b.(*TVar); ok {
		if occurs(v, a) {
			return false
		}
		v.Ref = a
		return true
	}
	if isBasic(a, KInvalid) || isBasic(b, KInvalid) {
		return true
	}
	switch x := a.(type) {
	case *Basic:
		y, ok := b.(*Basic)
		return ok && x.Kind == y.Kind
	case *TParam:
		return false
	case *Named:
		y, ok := b.(*Named)
		if !ok || x.Def != y.Def || len(x.Args) != len(y.Args) {
			return false
		}
		okAll := true
		for i := range x.Args {
			if !unify(x.Args[i], y.Args[i]) {
				okAll = false
			}
		}
		return okAll
	case *Tuple:
		y, ok := b.(*Tuple)
		if !ok || len(x.Elems) != len(y.Elems) {
			return false
		}
		okAll := true
		for i := range x.Elems {
			if !unify(x.Elems[i], y.Elems[i]) {
				okAll = false
			}
		}
		return okAll
	case *Func:
		y, ok := b.(*Func)
		if !ok || len(x.Params) != len(y.Params) {
			return false
		}
		okAll := true
		for i := range x.Params {
			if !unify(x.Params[i], y.Params[i]) {
				okAll = false
			}
		}
		if !unify(x.Ret, y.Ret) {
			okAll = false
		}
		return okAll
	case *Union:
		y, ok := b.(*Union)
		return ok && x.Name == y.Name
	}
	return false
}

func isBasic(t Type, k BasicKind) bool {
	b, ok := Resolve(t).(*Basic)
	return ok && b.Kind == k
}

// hasInvalid reports whether t mentions the invalid type.
func hasInvalid(t Type) bool {
	t = Resolve(t)
	switch x := t.(type) {
	case *Basic:
		return x.Kind == KInvalid
	case *Named:
		for _, a := range x.Args {
			if hasInvalid(a) {
				return true
			}
		}
	case *Tuple:
		for _, a := range x.Elems {
			if hasInvalid(a) {
				return true
			}
		}
	case *Func:
		for _, a := range x.Params {
			if hasInvalid(a) {
				return true
			}
		}
		return hasInvalid(x.Ret)
	}
	return false
}

// freeVars appends the unbound variables of t.
func freeVars(t Type, out []*TVar) []*TVar {
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar:
		for _, v := range out {
			if v == x {
				return out
			}
		}
		return append(out, x)
	case *Named:
		for _, a := range x.Args {
			out = freeVars(a, out)
		}
	case *Tuple:
		for _, a := range x.Elems {
			out = freeVars(a, out)
		}
	case *Func:
		for _, a := range x.Params {
			out = freeVars(a, out)
		}
		out = freeVars(x.Ret, out)
	}
	return out
}

// paramName gives generalised variables readable names a, b, c, ...
func paramName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return "t" + strconv.Itoa(i)
}

// substVars replaces unbound variables according to m.
func substVars(t Type, m map[*TVar]Type) Type {
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar:
		if r, ok := m[x]; ok {
			return r
		}
	case *Named:
		args := make([]Type, len(x.Args))
		for i, a := range x.Args {
			args[i] = substVars(a, m)
		}
		return &Named{Def: x.Def, Args: args}
	case *Tuple:
		el := make([]Type, len(x.Elems))
		for i, a := range x.Elems {
			el[i] = substVars(a, m)
		}
		return &Tuple{Elems: el}
	case *Func:
		ps := make([]Type, len(x.Params))
		for i, a := range x.Params {
			ps[i] = substVars(a, m)
		}
		return &Func{Params: ps, Ret: substVars(x.Ret, m)}
	}
	return t
}
