package gen

import (
	"strings"
)

// kind is the shape of a generator type.
type kind uint8

const (
	tInt kind = iota
	tFloat
	tBool
	tString
	tUnit
	tTuple  // Args: the elements
	tList   // Args[0]: the element
	tOption // Args[0]: the payload
	tResult // Args[0]: Ok payload, Args[1]: Err payload
	tFunc   // Args[:n-1]: parameters, Args[n-1]: result
	tUser   // D: record, sum or newtype; Args: its type arguments
	tUnion  // D: a union alias (`type U = Int | String`)
	tVar    // Name: a type parameter of the enclosing generic function or declaration
	tPid    // Args[0]: the mailbox type
	tProcessID
	tMonitorRef
	tExitReason
	tProcError
	tOrdering
	tMap // Args[0]: the key (Int or String), Args[1]: the value
)

// Type is a Morrow type as the generator knows it. Types are immutable once
// built and shared freely.
type Type struct {
	K    kind
	Args []*Type
	D    *decl
	Name string
}

var (
	intT        = &Type{K: tInt}
	floatT      = &Type{K: tFloat}
	boolT       = &Type{K: tBool}
	stringT     = &Type{K: tString}
	unitT       = &Type{K: tUnit}
	processIDT  = &Type{K: tProcessID}
	monitorRefT = &Type{K: tMonitorRef}
	exitReasonT = &Type{K: tExitReason}
	procErrorT  = &Type{K: tProcError}
	orderingT   = &Type{K: tOrdering}
	scalarTypes = []*Type{intT, floatT, boolT, stringT}
)

func listOf(t *Type) *Type         { return &Type{K: tList, Args: []*Type{t}} }
func optionOf(t *Type) *Type       { return &Type{K: tOption, Args: []*Type{t}} }
func resultOf(ok, err *Type) *Type { return &Type{K: tResult, Args: []*Type{ok, err}} }
func tupleOf(ts ...*Type) *Type    { return &Type{K: tTuple, Args: ts} }
func pidOf(m *Type) *Type          { return &Type{K: tPid, Args: []*Type{m}} }
func mapOf(k, v *Type) *Type       { return &Type{K: tMap, Args: []*Type{k, v}} }
func funcOf(ps []*Type, r *Type) *Type {
	a := append(append([]*Type{}, ps...), r)
	return &Type{K: tFunc, Args: a}
}
func varT(name string) *Type { return &Type{K: tVar, Name: name} }

func (t *Type) params() []*Type { return t.Args[:len(t.Args)-1] }
func (t *Type) result() *Type   { return t.Args[len(t.Args)-1] }

// String renders the type in Morrow syntax.
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

// writeTypes writes ts separated by commas.
func writeTypes(b *strings.Builder, ts []*Type) {
	for i, a := range ts {
		if i > 0 {
			b.WriteString(", ")
		}
		a.write(b)
	}
}

func (t *Type) write(b *strings.Builder) {
	switch t.K {
	case tInt:
		b.WriteString("Int")
	case tFloat:
		b.WriteString("Float")
	case tBool:
		b.WriteString("Bool")
	case tString:
		b.WriteString("String")
	case tUnit:
		b.WriteString("()")
	case tTuple:
		b.WriteByte('(')
		writeTypes(b, t.Args)
		if len(t.Args) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case tList, tOption, tResult, tPid, tMap:
		b.WriteString(map[kind]string{tList: "List", tOption: "Option", tResult: "Result", tPid: "Pid", tMap: "Map"}[t.K])
		b.WriteByte('(')
		writeTypes(b, t.Args)
		b.WriteByte(')')
	case tFunc:
		b.WriteByte('(')
		writeTypes(b, t.params())
		b.WriteString(") -> ")
		r := t.result()
		if r.K == tFunc {
			b.WriteByte('(')
			r.write(b)
			b.WriteByte(')')
		} else {
			r.write(b)
		}
	case tUser, tUnion:
		b.WriteString(t.D.name)
		if len(t.Args) > 0 {
			b.WriteByte('(')
			writeTypes(b, t.Args)
			b.WriteByte(')')
		}
	case tVar:
		b.WriteString(t.Name)
	case tProcessID:
		b.WriteString("ProcessId")
	case tMonitorRef:
		b.WriteString("MonitorRef")
	case tExitReason:
		b.WriteString("Process.ExitReason")
	case tProcError:
		b.WriteString("Process.Error")
	case tOrdering:
		b.WriteString("Ordering")
	}
}

// equal is structural type equality.
func (t *Type) equal(u *Type) bool {
	if t == u {
		return true
	}
	if t.K != u.K || len(t.Args) != len(u.Args) || t.D != u.D || t.Name != u.Name {
		return false
	}
	for i := range t.Args {
		if !t.Args[i].equal(u.Args[i]) {
			return false
		}
	}
	return true
}

// subst replaces type variables by the types in m.
func (t *Type) subst(m map[string]*Type) *Type {
	if len(m) == 0 {
		return t
	}
	if t.K == tVar {
		if r, ok := m[t.Name]; ok {
			return r
		}
		return t
	}
	if len(t.Args) == 0 {
		return t
	}
	args := make([]*Type, len(t.Args))
	changed := false
	for i, a := range t.Args {
		args[i] = a.subst(m)
		changed = changed || args[i] != a
	}
	if !changed {
		return t
	}
	return &Type{K: t.K, Args: args, D: t.D, Name: t.Name}
}

// any reports whether pred holds for t or any type inside it (user type
// fields included, instantiated).
func (t *Type) any(pred func(*Type) bool) bool {
	return t.anyDepth(pred, 0)
}

func (t *Type) anyDepth(pred func(*Type) bool, depth int) bool {
	if pred(t) {
		return true
	}
	if depth > 6 {
		return false
	}
	for _, a := range t.Args {
		if a.anyDepth(pred, depth+1) {
			return true
		}
	}
	if t.K == tUser && !t.D.recursive {
		for _, ft := range t.D.fieldTypes(t.Args) {
			if ft.anyDepth(pred, depth+1) {
				return true
			}
		}
	}
	if t.K == tUser && t.D.recursive {
		for _, ft := range t.D.fieldTypes(t.Args) {
			if ft.K == tUser && ft.D == t.D {
				continue
			}
			if ft.anyDepth(pred, depth+1) {
				return true
			}
		}
	}
	return false
}

func (t *Type) hasVar() bool { return t.any(func(u *Type) bool { return u.K == tVar }) }

func (t *Type) hasResult() bool { return t.any(func(u *Type) bool { return u.K == tResult }) }

// scalar: Int, Float, Bool or String.
func (t *Type) scalar() bool {
	return t.K == tInt || t.K == tFloat || t.K == tBool || t.K == tString
}

// interpolable: may appear in `{…}` of a string.
func (t *Type) interpolable() bool { return t.scalar() }

// scalarLike: scalars and newtypes over them (List.contains, `in`).
func (t *Type) scalarLike() bool {
	if t.scalar() {
		return true
	}
	return t.K == tUser && t.D.kind == declNewtype && len(t.D.params) == 0 && t.D.fields[0].t.scalar()
}

// hasShow: printable with println/show.
func (t *Type) hasShow() bool {
	switch t.K {
	case tInt, tFloat, tBool, tString, tExitReason, tProcError:
		return true
	case tUnit:
		return true
	case tTuple, tList, tOption, tResult, tMap:
		return t.argsAll((*Type).hasShow)
	case tUser:
		return t.D.show && t.argsAll((*Type).hasShow)
	}
	return false
}

// printable: println accepts it (Show, but not Unit at the top).
func (t *Type) printable() bool { return t.K != tUnit && t.hasShow() }

// hasEq: `==` accepts it (docs/checker.md "Calls and operators").
func (t *Type) hasEq() bool {
	switch t.K {
	case tInt, tFloat, tBool, tString, tUnit, tPid, tProcessID, tMonitorRef, tExitReason, tProcError:
		return true
	case tTuple, tList, tOption, tResult, tMap:
		return t.argsAll((*Type).hasEq)
	case tUser:
		if t.D.kind == declNewtype && len(t.D.params) == 0 && t.D.fields[0].t.scalar() {
			return true
		}
		return t.D.eq && t.argsAll((*Type).hasEq)
	}
	return false
}

// argsAll reports whether pred holds for every type argument of t.
func (t *Type) argsAll(pred func(*Type) bool) bool {
	for _, a := range t.Args {
		if !pred(a) {
			return false
		}
	}
	return true
}

// sortable: List.sort accepts a list of it.
func (t *Type) sortable(g *gen) bool {
	switch t.K {
	case tInt, tFloat, tBool, tString:
		return true
	case tOption, tResult, tTuple, tList:
		return t.argsAll(func(a *Type) bool { return a.sortable(g) })
	case tUser:
		if t.D.kind == declNewtype && len(t.D.params) == 0 && t.D.fields[0].t.scalar() {
			return true
		}
		if !t.D.ord {
			return false
		}
		for _, ft := range t.D.fieldTypes(t.Args) {
			if ft.K == tUser && ft.D == t.D {
				continue
			}
			if !ft.sortable(g) {
				return false
			}
		}
		return true
	}
	return false
}

// sendable: may be a mailbox type (no Result, no function anywhere).
func (t *Type) sendable() bool {
	return !t.any(func(u *Type) bool { return u.K == tResult || u.K == tFunc || u.K == tVar })
}

// dataLike: a type the generator can make values of anywhere (no
// function, type variable, Result, union or process handle inside).
func (t *Type) dataLike() bool {
	return !t.any(func(u *Type) bool {
		switch u.K {
		case tFunc, tVar, tResult, tUnion, tPid, tProcessID, tMonitorRef:
			return true
		}
		return false
	})
}

// ordered: `<` and friends.
func (t *Type) ordered() bool { return t.K == tInt || t.K == tFloat }

// concrete: no type variable inside.
func (t *Type) concrete() bool { return !t.hasVar() }

// declKind is the kind of a user type declaration.
type declKind uint8

const (
	declRecord declKind = iota
	declSum
	declNewtype
	declUnion
)

type field struct {
	name string
	t    *Type // may mention the declaration's parameters as tVar
}

type variant struct {
	name   string
	fields []field // names are documentation only
	named  bool
}

// decl is a user type declaration.
type decl struct {
	name      string
	kind      declKind
	params    []string // generic parameters
	fields    []field  // record fields; a newtype's single field
	variants  []variant
	members   []*Type // union alias members
	show, eq  bool
	ord       bool
	recursive bool // a sum with a variant that mentions itself
}

// fieldTypes lists the types of all fields (every variant's for a sum),
// instantiated with args.
func (d *decl) fieldTypes(args []*Type) []*Type {
	m := d.instMap(args)
	var out []*Type
	for _, f := range d.fields {
		out = append(out, f.t.subst(m))
	}
	for _, v := range d.variants {
		for _, f := range v.fields {
			out = append(out, f.t.subst(m))
		}
	}
	return out
}

func (d *decl) instMap(args []*Type) map[string]*Type {
	if len(d.params) == 0 {
		return nil
	}
	m := map[string]*Type{}
	for i, p := range d.params {
		if i < len(args) {
			m[p] = args[i]
		}
	}
	return m
}

// selfRef is the type of a recursive reference inside the declaration.
func (d *decl) self() *Type {
	var args []*Type
	for _, p := range d.params {
		args = append(args, varT(p))
	}
	return &Type{K: tUser, D: d, Args: args}
}
