package types

import (
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Exhaustiveness and reachability use the usefulness algorithm on a
// pattern matrix (Maranget, "Warnings for pattern matching"). Patterns
// are first simplified to spat: a wildcard, or a constructor key with
// sub-patterns. Lists become Nil / Cons(head, tail) chains, so `[a, ..r]`
// and `[a, b]` are exact. Literals of Int, Float and String are
// constructors of an infinite space, which only a wildcard completes.
// A witness search lists the missing cases; a work budget keeps
// pathological matches from blowing up (when it runs out, the match is
// accepted rather than reported).

type spat struct {
	wild bool
	key  string
	name string // display name for constructors
	kind int
	args []*spat
}

const (
	skCtor = iota
	skTuple
	skUnit
	skBool
	skLit
	skNil
	skCons
	skUnion
)

var wildPat = &spat{wild: true}

// ckey is one constructor of a column's type.
type ckey struct {
	key      string
	name     string
	kind     int
	argTypes []Type
}

type exh struct {
	c      *Checker
	budget int
}

func (c *Checker) simplify(p ast.Pattern) *spat {
	switch p := p.(type) {
	case nil, *ast.WildcardPat, *ast.BindPat:
		return wildPat
	case *ast.LitPat:
		switch v := p.Value.(type) {
		case *ast.IntLit:
			return &spat{key: "i:" + strconv.FormatInt(v.Value, 10), name: strconv.FormatInt(v.Value, 10), kind: skLit}
		case *ast.FloatLit:
			return &spat{key: "f:" + strconv.FormatFloat(v.Value, 'g', -1, 64), name: v.Text, kind: skLit}
		case *ast.StringLit:
			return &spat{key: "s:" + v.Value, name: strconv.Quote(v.Value), kind: skLit}
		case *ast.BoolLit:
			return &spat{key: "b:" + strconv.FormatBool(v.Value), name: strconv.FormatBool(v.Value), kind: skBool}
		}
		return wildPat
	case *ast.UnitPat:
		return &spat{key: "unit", name: "()", kind: skUnit}
	case *ast.TuplePat:
		n := len(p.Elems)
		if p.HasRest && n == 0 {
			return wildPat // `(..all)` matches any tuple (and Unit)
		}
		if p.HasRest {
			// The rest covers the remaining elements. While the arity is
			// unknown (a let on a value of pending type), the named
			// elements alone decide refutability.
			if tt, ok := Resolve(c.info.PatTypes[p]).(*Tuple); ok && len(tt.Elems) >= n {
				n = len(tt.Elems)
			}
		}
		s := &spat{key: "tuple" + strconv.Itoa(n), kind: skTuple}
		for _, e := range p.Elems {
			s.args = append(s.args, c.simplify(e))
		}
		for len(s.args) < n {
			s.args = append(s.args, wildPat)
		}
		return s
	case *ast.ListPat:
		var tail *spat
		if p.HasRest {
			tail = wildPat
		} else {
			tail = &spat{key: "nil", name: "[]", kind: skNil}
		}
		for i := len(p.Elems) - 1; i >= 0; i-- {
			tail = &spat{key: "cons", kind: skCons, args: []*spat{c.simplify(p.Elems[i]), tail}}
		}
		return tail
	case *ast.CtorPat:
		o := c.info.Uses[p]
		if o == nil || o.Ctor == nil || len(p.Args) != len(o.Ctor.Fields) {
			c.patBroken = true
			return wildPat
		}
		s := &spat{key: ctorKey(o.Ctor), name: ctorDisplay(o.Ctor), kind: skCtor}
		for _, a := range p.Args {
			s.args = append(s.args, c.simplify(a))
		}
		return s
	case *ast.TypedPat:
		t := Zonk(c.info.PatTypes[p])
		if _, ok := Resolve(t).(*Union); !ok {
			return wildPat
		}
		nt := c.resolveTypeQuiet(p.Type)
		return &spat{key: "u:" + nt.String(), name: "_: " + nt.String(), kind: skUnion}
	}
	return wildPat
}

// resolveTypeQuiet resolves a type already resolved once (no new diagnostics).
func (c *Checker) resolveTypeQuiet(te ast.TypeExpr) Type {
	n := len(c.diags)
	t := c.resolveType(te, func(string) Type { return Invalid })
	c.diags = c.diags[:n]
	return Zonk(t)
}

func ctorKey(ct *Ctor) string { return "c:" + ct.Def.Name + "." + ct.Name }

func ctorDisplay(ct *Ctor) string {
	if q := ct.Def.Qualifier; q != "" {
		return q + "." + ct.Name
	}
	return ct.Name
}

// signature lists every constructor of type t, or nil for an infinite or
// unknown space. heads are the constructors seen in the column (used when
// t is not resolved).
func (x *exh) signature(t Type, heads []*spat) []ckey {
	t = Resolve(t)
	switch r := t.(type) {
	case *Basic:
		switch r.Kind {
		case KBool:
			return []ckey{{key: "b:true", name: "true", kind: skBool}, {key: "b:false", name: "false", kind: skBool}}
		case KUnit:
			return []ckey{{key: "unit", name: "()", kind: skUnit}}
		}
		return nil
	case *Tuple:
		return []ckey{{key: "tuple" + strconv.Itoa(len(r.Elems)), kind: skTuple, argTypes: r.Elems}}
	case *Union:
		var out []ckey
		for _, a := range r.Alts {
			s := Zonk(a).String()
			out = append(out, ckey{key: "u:" + s, name: "_: " + s, kind: skUnion})
		}
		return out
	case *Named:
		if r.Def == ListDef {
			el := r.Args[0]
			return []ckey{{key: "nil", name: "[]", kind: skNil}, {key: "cons", kind: skCons, argTypes: []Type{el, r}}}
		}
		if r.Def.Kind == OpaqueDef {
			return nil
		}
		m := map[*TParam]Type{}
		for i, p := range r.Def.Params {
			if i < len(r.Args) {
				m[p] = r.Args[i]
			}
		}
		var out []ckey
		for _, ct := range r.Def.Ctors {
			fs := make([]Type, len(ct.Fields))
			for i, f := range ct.Fields {
				fs[i] = subst(f, m)
			}
			out = append(out, ckey{key: ctorKey(ct), name: ctorDisplay(ct), kind: skCtor, argTypes: fs})
		}
		return out
	}
	// Unresolved: infer from the heads.
	for _, h := range heads {
		switch h.kind {
		case skBool:
			return x.signature(BoolT, nil)
		case skUnit:
			return x.signature(UnitT, nil)
		case skTuple:
			ts := make([]Type, len(h.args))
			for i := range ts {
				ts[i] = Invalid
			}
			return x.signature(&Tuple{Elems: ts}, nil)
		case skNil, skCons:
			return x.signature(&Named{Def: ListDef, Args: []Type{Invalid}}, nil)
		}
	}
	return nil
}

// keyFor finds the ckey of a head pattern within the column type.
func (x *exh) keyFor(h *spat, t Type, sig []ckey) ckey {
	for _, k := range sig {
		if k.key == h.key {
			return k
		}
	}
	ts := make([]Type, len(h.args))
	for i := range ts {
		ts[i] = Invalid
	}
	return ckey{key: h.key, name: h.name, kind: h.kind, argTypes: ts}
}

func specialize(rows [][]*spat, k ckey) [][]*spat {
	var out [][]*spat
	n := len(k.argTypes)
	for _, r := range rows {
		h := r[0]
		if h.wild {
			nr := make([]*spat, 0, n+len(r)-1)
			for i := 0; i < n; i++ {
				nr = append(nr, wildPat)
			}
			out = append(out, append(nr, r[1:]...))
		} else if h.key == k.key {
			args := h.args
			for len(args) < n {
				args = append(args, wildPat)
			}
			nr := append([]*spat{}, args[:n]...)
			out = append(out, append(nr, r[1:]...))
		}
	}
	return out
}

func defaultRows(rows [][]*spat) [][]*spat {
	var out [][]*spat
	for _, r := range rows {
		if r[0].wild {
			out = append(out, r[1:])
		}
	}
	return out
}

func headsOf(rows [][]*spat) []*spat {
	var out []*spat
	seen := map[string]bool{}
	for _, r := range rows {
		if h := r[0]; !h.wild && !seen[h.key] {
			seen[h.key] = true
			out = append(out, h)
		}
	}
	return out
}

func complete(sig []ckey, heads []*spat) bool {
	if sig == nil {
		return false
	}
	have := map[string]bool{}
	for _, h := range heads {
		have[h.key] = true
	}
	for _, k := range sig {
		if !have[k.key] {
			return false
		}
	}
	return true
}

// useful reports whether vec matches some value no row matches.
func (x *exh) useful(rows [][]*spat, vec []*spat, types []Type) bool {
	x.budget--
	if x.budget < 0 {
		return true
	}
	if len(vec) == 0 {
		return len(rows) == 0
	}
	h := vec[0]
	heads := headsOf(rows)
	if !h.wild {
		heads = append(heads, h)
	}
	sig := x.signature(types[0], heads)
	if !h.wild {
		k := x.keyFor(h, types[0], sig)
		args := h.args
		for len(args) < len(k.argTypes) {
			args = append(args, wildPat)
		}
		nv := append(append([]*spat{}, args[:len(k.argTypes)]...), vec[1:]...)
		return x.useful(specialize(rows, k), nv, append(append([]Type{}, k.argTypes...), types[1:]...))
	}
	if complete(sig, headsOf(rows)) {
		for _, k := range sig {
			nv := make([]*spat, 0, len(k.argTypes)+len(vec)-1)
			for range k.argTypes {
				nv = append(nv, wildPat)
			}
			nv = append(nv, vec[1:]...)
			if x.useful(specialize(rows, k), nv, append(append([]Type{}, k.argTypes...), types[1:]...)) {
				return true
			}
		}
		return false
	}
	return x.useful(defaultRows(rows), vec[1:], types[1:])
}

const maxWitnesses = 16

// witnesses returns pattern vectors matched by no row (empty: exhaustive).
func (x *exh) witnesses(rows [][]*spat, types []Type, top bool) [][]*spat {
	x.budget--
	if x.budget < 0 {
		return nil
	}
	if len(types) == 0 {
		if len(rows) == 0 {
			return [][]*spat{{}}
		}
		return nil
	}
	heads := headsOf(rows)
	sig := x.signature(types[0], heads)
	build := func(k ckey, w []*spat) []*spat {
		n := len(k.argTypes)
		p := &spat{key: k.key, name: k.name, kind: k.kind, args: append([]*spat{}, w[:n]...)}
		return append([]*spat{p}, w[n:]...)
	}
	var out [][]*spat
	if complete(sig, heads) {
		for _, k := range sig {
			for _, w := range x.witnesses(specialize(rows, k), append(append([]Type{}, k.argTypes...), types[1:]...), false) {
				out = append(out, build(k, w))
				if len(out) >= maxWitnesses {
					return out
				}
			}
		}
		return out
	}
	ws := x.witnesses(defaultRows(rows), types[1:], false)
	if len(ws) == 0 {
		return nil
	}
	if sig != nil && (len(heads) > 0 || (top && len(rows) == 0)) {
		have := map[string]bool{}
		for _, h := range heads {
			have[h.key] = true
		}
		w := ws[0]
		for _, k := range sig {
			if have[k.key] {
				continue
			}
			args := make([]*spat, len(k.argTypes))
			for i := range args {
				args[i] = wildPat
			}
			out = append(out, append([]*spat{{key: k.key, name: k.name, kind: k.kind, args: args}}, w...))
			if len(out) >= maxWitnesses {
				break
			}
		}
		return out
	}
	for _, w := range ws {
		out = append(out, append([]*spat{wildPat}, w...))
	}
	return out
}

func (s *spat) String() string {
	if s.wild {
		return "_"
	}
	parts := func() string {
		ps := make([]string, len(s.args))
		for i, a := range s.args {
			ps[i] = a.String()
		}
		return strings.Join(ps, ", ")
	}
	switch s.kind {
	case skTuple:
		if len(s.args) == 1 {
			return "(" + parts() + ",)"
		}
		return "(" + parts() + ")"
	case skNil:
		return "[]"
	case skCons:
		// Render a Cons chain as a list pattern.
		var el []string
		cur := s
		for !cur.wild && cur.kind == skCons {
			el = append(el, cur.args[0].String())
			cur = cur.args[1]
		}
		if cur.wild {
			return "[" + strings.Join(el, ", ") + ", .._]"
		}
		return "[" + strings.Join(el, ", ") + "]"
	case skCtor:
		if len(s.args) == 0 {
			return s.name
		}
		return s.name + "(" + parts() + ")"
	}
	return s.name
}

// checkArms reports unreachable arms and, when exhaustive is set, missing
// cases of a match on subject type t.
func (c *Checker) checkArms(arms []*ast.Arm, t Type, exhaustive bool, span source.Span) {
	x := &exh{c: c, budget: 100000}
	types := []Type{Zonk(t)}
	if hasInvalid(types[0]) {
		return
	}
	var rows [][]*spat
	broken := false
	for _, a := range arms {
		if a.Pattern == nil {
			continue
		}
		c.patBroken = false
		sp := c.simplify(a.Pattern)
		if c.patBroken {
			// The pattern already has an error; leave it out of the matrix.
			broken = true
			continue
		}
		if !x.useful(rows, []*spat{sp}, types) {
			kind := "match"
			if !exhaustive {
				kind = "receive"
			}
			c.errorf(ErrUnreachableArm, spanOf(a.Pattern), "unreachable %s arm: previous unguarded patterns already cover it", kind)
		}
		if a.Guard == nil {
			rows = append(rows, []*spat{sp})
		}
	}
	if !exhaustive || x.budget < 0 || broken {
		return
	}
	ws := x.witnesses(rows, types, true)
	if x.budget < 0 || len(ws) == 0 {
		return
	}
	var missing string
	var names []string
	if len(ws) == 1 && ws[0][0].wild {
		missing = "a wildcard arm such as '_'"
	} else {
		for _, w := range ws {
			names = append(names, w[0].String())
		}
		missing = strings.Join(names, ", ")
	}
	guarded := false
	for _, a := range arms {
		guarded = guarded || a.Guard != nil
	}
	var d *diag.Diagnostic
	if guarded {
		d = c.errorf(ErrNonExhaustive, span, "match must be exhaustive; guards do not guarantee coverage; missing: %s", missing)
	} else {
		// Without guards the spec's middle clause would mislead.
		d = c.errorf(ErrNonExhaustive, span, "match must be exhaustive; missing: %s", missing)
	}
	nonExhaustiveHelp(d, arms, names)
	c.missingArmsFix(d, arms, names)
}

// irrefutable reports whether p matches every value of type t.
// requireIrrefutable reports a let, for or parameter pattern that can
// fail to match. The check waits until the group's bodies are checked
// (like match exhaustiveness): the pattern's type may still depend on a
// deferred shape (`let (W(m), ..rest) = x` with x's type fixed later,
// docs/reference/types.md#inference), and a type that stays unknown becomes Invalid, which passes.
// literal selects the message for literal patterns (E4006).
func (c *Checker) requireIrrefutable(p ast.Pattern, t Type, literal bool) {
	c.deferred = append(c.deferred, func() {
		if c.irrefutable(p, t) {
			return
		}
		if literal {
			c.errorf(ErrLiteralLet, spanOf(p), "literal let patterns require an else branch")
			return
		}
		c.errorf(ErrRefutableLet, spanOf(p), "let patterns must be irrefutable; use match for literals or constructors")
	})
}

func (c *Checker) irrefutable(p ast.Pattern, t Type) bool {
	x := &exh{c: c, budget: 10000}
	zt := Zonk(t)
	if hasInvalid(zt) {
		return true
	}
	c.patBroken = false
	sp := c.simplify(p)
	if c.patBroken {
		return true
	}
	ws := x.witnesses([][]*spat{{sp}}, []Type{zt}, false)
	return len(ws) == 0
}
