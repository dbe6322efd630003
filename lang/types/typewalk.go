package types

import (
	"strconv"
	"strings"
	"sync/atomic"
)

// Types share structure: `let a1 = (a0, a0)` builds a tuple whose two
// elements are one node, so 26 such lets make a type whose tree has 2^26
// leaves but only 27 distinct nodes. Every walk over types below visits
// each distinct node once (a visited set, allocated only after the first
// few nodes so that the usual small types walk for free), every rebuild
// (Zonk, subst, substVars) returns the original node when nothing in it
// changed and maps a shared node to one shared copy, and printing is
// truncated. No operation on a type is exponential in its size as a DAG.

// visitFree is the number of composite nodes a walk visits before it
// starts recording them.
const visitFree = 32

// seenSet is the set of keys (composite type nodes, or pairs of them) a
// walk has seen.
type seenSet[K comparable] struct {
	n    int
	seen map[K]struct{}
}

// firstKey reports whether the walk reaches k for the first time (always
// true until the set is allocated).
func (v *seenSet[K]) firstKey(k K) bool {
	if v.seen == nil {
		v.n++
		if v.n <= visitFree {
			return true
		}
		v.seen = map[K]struct{}{}
	}
	if _, ok := v.seen[k]; ok {
		return false
	}
	v.seen[k] = struct{}{}
	return true
}

// visited is the set of composite type nodes a walk has seen.
type visited struct{ seenSet[Type] }

// first reports whether the walk reaches the composite node t for the
// first time.
func (v *visited) first(t Type) bool { return v.firstKey(t) }

// pairs is visited for walks over two types at once (unify, Identical).
type pairs struct{ seenSet[[2]Type] }

func (v *pairs) first(a, b Type) bool { return v.firstKey([2]Type{a, b}) }

// rebuilt memoizes a rebuild (Zonk, subst): a shared node is rebuilt once.
type rebuilt struct {
	n    int
	memo map[Type]Type
}

func (r *rebuilt) get(t Type) (Type, bool) {
	if r.memo == nil {
		return nil, false
	}
	x, ok := r.memo[t]
	return x, ok
}

func (r *rebuilt) put(t, x Type) Type {
	if r.memo == nil {
		r.n++
		if r.n <= visitFree {
			return x
		}
		r.memo = map[Type]Type{}
	}
	r.memo[t] = x
	return x
}

// components returns the component types of composite t (a Named's
// arguments, a Tuple's elements, a Func's parameters) and a Func's result
// (nil for the others).
func components(t Type) (ts []Type, ret Type) {
	switch x := t.(type) {
	case *Named:
		return x.Args, nil
	case *Tuple:
		return x.Elems, nil
	case *Func:
		return x.Params, x.Ret
	}
	return nil, nil
}

// sameHead reports whether a and b are composite types built the same
// way (same constructor and definition, as many components), so that
// their components can be compared pairwise.
func sameHead(a, b Type) bool {
	switch x := a.(type) {
	case *Named:
		y, ok := b.(*Named)
		return ok && x.Def == y.Def && len(x.Args) == len(y.Args)
	case *Tuple:
		y, ok := b.(*Tuple)
		return ok && len(x.Elems) == len(y.Elems)
	case *Func:
		y, ok := b.(*Func)
		return ok && len(x.Params) == len(y.Params)
	}
	return false
}

// composite reports whether t has component types.
func composite(t Type) bool {
	switch x := t.(type) {
	case *Named:
		return len(x.Args) > 0
	case *Tuple, *Func:
		return true
	}
	return false
}

// ---------------------------------------------------------------- rebuilding

// Zonk returns t with every bound variable replaced by its binding, all
// the way down. Nodes without bound variables are returned as they are.
func Zonk(t Type) Type {
	var r rebuilt
	return r.zonk(t)
}

// Zonker zonks many types with one memo, for a pass over a whole file
// whose types share nodes.
type Zonker struct{ r rebuilt }

// Zonk is the package function Zonk, sharing work with earlier calls.
func (z *Zonker) Zonk(t Type) Type { return z.r.zonk(t) }

func (r *rebuilt) zonk(t Type) Type {
	t = Resolve(t)
	if !composite(t) {
		return t
	}
	if x, ok := r.get(t); ok {
		return x
	}
	return r.put(t, r.mapKids(t, r.zonk))
}

// mapKids rebuilds composite t with f applied to its components; t itself
// when f changes none of them.
func (r *rebuilt) mapKids(t Type, f func(Type) Type) Type {
	each := func(ts []Type) ([]Type, bool) {
		var out []Type
		for i, a := range ts {
			b := f(a)
			if out == nil && b != a {
				out = make([]Type, len(ts))
				copy(out, ts[:i])
			}
			if out != nil {
				out[i] = b
			}
		}
		if out == nil {
			return ts, false
		}
		return out, true
	}
	switch x := t.(type) {
	case *Named:
		if args, ch := each(x.Args); ch {
			return &Named{Def: x.Def, Args: args}
		}
	case *Tuple:
		if el, ch := each(x.Elems); ch {
			return &Tuple{Elems: el}
		}
	case *Func:
		ps, ch := each(x.Params)
		ret := f(x.Ret)
		if ch || ret != x.Ret {
			return &Func{Params: ps, Ret: ret}
		}
	case *Union:
		if alts, ch := each(x.Alts); ch {
			return &Union{Name: x.Name, Alts: alts}
		}
	}
	return t
}

// subst replaces generic parameters according to m.
func subst(t Type, m map[*TParam]Type) Type {
	if len(m) == 0 {
		return t
	}
	return replace(t, m, true)
}

// substVars replaces unbound variables according to m.
func substVars(t Type, m map[*TVar]Type) Type {
	return replace(t, m, false)
}

// replace rebuilds t with every parameter or unbound variable k that m
// maps replaced by m[k]. unions says whether it looks inside union types
// (a parameter may stand in one, an unbound variable never does).
func replace[K interface {
	comparable
	Type
}](t Type, m map[K]Type, unions bool) Type {
	var r rebuilt
	var f func(Type) Type
	f = func(t Type) Type {
		t = Resolve(t)
		if k, ok := t.(K); ok {
			if x, ok := m[k]; ok {
				return x
			}
			return t
		}
		if _, u := t.(*Union); !(unions && u) && !composite(t) {
			return t
		}
		if x, ok := r.get(t); ok {
			return x
		}
		return r.put(t, r.mapKids(t, f))
	}
	return f(t)
}

// ---------------------------------------------------------------- comparing

// Identical reports whether two types are structurally the same, without
// binding any variable.
func Identical(a, b Type) bool {
	var v pairs
	return relate(a, b, &v, false)
}

// anyPart reports whether pred holds for some node of t (bound variables
// followed), visiting each shared node once.
func anyPart(t Type, pred func(Type) bool) bool {
	var v visited
	return anyPartV(t, pred, &v)
}

func anyPartV(t Type, pred func(Type) bool, v *visited) bool {
	t = Resolve(t)
	if pred(t) {
		return true
	}
	if !composite(t) || !v.first(t) {
		return false
	}
	ts, ret := components(t)
	for _, a := range ts {
		if anyPartV(a, pred, v) {
			return true
		}
	}
	return ret != nil && anyPartV(ret, pred, v)
}

// closed caches, on a composite type node, that no unbound variable is
// reachable from it. Nodes are never changed after they are built and a
// bound variable is never unbound, so a closed node stays closed. The
// occurs check, run at every variable binding, skips closed nodes: without
// it, checking n nested lambdas (each result is bound to the type of the
// lambda inside) walked the whole inner type n times. The flag is atomic
// because built-in signatures are shared by checks running in parallel.
//
// mark is the occurs check's visited set: the walk numbered e sets it to
// e on every open node it enters, so a node shared in the type graph is
// walked once per check without a map (the maps' allocation and hashing
// were most of the time of deep checks).
type closed struct {
	c    uint32
	mark uint64
}

// occursEpoch numbers the occurs check's walks.
var occursEpoch atomic.Uint64

func (c *closed) isClosed() bool { return atomic.LoadUint32(&c.c) != 0 }
func (c *closed) setClosed()     { atomic.StoreUint32(&c.c, 1) }

// closedOf returns the cache of a composite node (nil for other types).
func closedOf(t Type) *closed {
	switch x := t.(type) {
	case *Named:
		return &x.closed
	case *Tuple:
		return &x.closed
	case *Func:
		return &x.closed
	}
	return nil
}

// occursWalks counts the composite nodes the occurs check has entered
// (for the test that checking stays linear in the nesting depth).
var occursWalks atomic.Int64

// occurs reports whether v appears in t.
func occurs(v *TVar, t Type) bool {
	found, _ := occursIn(v, t, occursEpoch.Add(1))
	return found
}

// occursIn reports whether v appears in t and whether t is closed (no
// unbound variable reachable), marking closed nodes on the way out. A
// node met a second time in one walk counts as open unless marked: that
// is only conservative.
func occursIn(v *TVar, t Type, epoch uint64) (found, isClosed bool) {
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar:
		return x == v, false
	case *Basic, *TParam, *Union:
		return false, true
	}
	cl := closedOf(t)
	if cl == nil {
		return false, false
	}
	if cl.isClosed() {
		return false, true
	}
	if atomic.LoadUint64(&cl.mark) == epoch {
		return false, false
	}
	atomic.StoreUint64(&cl.mark, epoch)
	occursWalks.Add(1)
	all := true
	visit := func(ts ...Type) bool {
		for _, a := range ts {
			f, c := occursIn(v, a, epoch)
			if f {
				return true
			}
			all = all && c
		}
		return false
	}
	if ts, ret := components(t); visit(ts...) || ret != nil && visit(ret) {
		return true, false
	}
	if all {
		cl.setClosed()
	}
	return false, all
}

// unify makes a and b equal, binding variables as needed. It reports
// false on a mismatch (bindings made before the mismatch are kept, which
// is harmless because the caller reports an error). Invalid unifies with
// everything; Never unifies with everything without binding.
func unify(a, b Type) bool {
	var v pairs
	return relate(a, b, &v, true)
}

// relate is unify when bind is set, and Identical when it is not: then no
// variable is bound and Never and Invalid are only identical to
// themselves.
func relate(a, b Type, seen *pairs, bind bool) bool {
	a, b = Resolve(a), Resolve(b)
	if a == b {
		return true
	}
	if bind {
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
	}
	switch x := a.(type) {
	case *Basic:
		y, ok := b.(*Basic)
		return ok && x.Kind == y.Kind
	case *Named, *Tuple, *Func:
		if !sameHead(a, b) {
			return false
		}
		if !seen.first(a, b) {
			return true
		}
		// Unifying goes through every component, even after a mismatch.
		xs, xr := components(a)
		ys, yr := components(b)
		okAll := true
		for i := range xs {
			if !relate(xs[i], ys[i], seen, bind) {
				if !bind {
					return false
				}
				okAll = false
			}
		}
		if xr != nil && !relate(xr, yr, seen, bind) {
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
	return anyPart(t, func(t Type) bool { b, ok := t.(*Basic); return ok && b.Kind == KInvalid })
}

// containsParam reports whether t mentions a generic parameter.
func containsParam(t Type) bool {
	return anyPart(t, func(t Type) bool { _, ok := t.(*TParam); return ok })
}

// freeVars appends the unbound variables of t.
func freeVars(t Type, out []*TVar) []*TVar {
	anyPart(t, func(t Type) bool {
		if x, ok := t.(*TVar); ok {
			for _, v := range out {
				if v == x {
					return false
				}
			}
			out = append(out, x)
		}
		return false
	})
	return out
}

// paramName gives generalised variables readable names a, b, c, ...
func paramName(i int) string {
	if i < 26 {
		return string(rune('a' + i))
	}
	return "t" + strconv.Itoa(i)
}

// ---------------------------------------------------------------- printing

// maxTypeString bounds the text of one printed type; a longer type is cut
// with "…" (a diagnostic about a huge type stays readable and cheap).
const maxTypeString = 400

func typeString(t Type) string {
	p := typePrinter{}
	p.write(t)
	if p.cut {
		return p.b.String() + "…"
	}
	return p.b.String()
}

type typePrinter struct {
	b   strings.Builder
	cut bool
	// names, when set, gives distinct type parameters that share a name
	// distinct spellings across the types one message prints.
	names map[*TParam]string
	taken map[string]*TParam
}

// typeStrings prints the types of one message. Two different type
// parameters never print under one name: the second `a` a message meets
// is written `a'` (then `a”`), so `expected a, found a'` shows that the
// variables differ (one is another function's).
func typeStrings(ts ...Type) []string {
	out := make([]string, len(ts))
	names := map[*TParam]string{}
	taken := map[string]*TParam{}
	for i, t := range ts {
		p := typePrinter{names: names, taken: taken}
		p.write(t)
		out[i] = p.b.String()
		if p.cut {
			out[i] += "…"
		}
	}
	return out
}

func (p *typePrinter) param(x *TParam) string {
	if p.names == nil {
		p.names = map[*TParam]string{}
		p.taken = map[string]*TParam{}
	}
	if n, ok := p.names[x]; ok {
		return n
	}
	n := x.Name
	for p.taken[n] != nil {
		n += "'"
	}
	p.names[x] = n
	p.taken[n] = x
	return n
}

func (p *typePrinter) str(s string) {
	if p.cut {
		return
	}
	if p.b.Len()+len(s) > maxTypeString {
		p.cut = true
		return
	}
	p.b.WriteString(s)
}

func (p *typePrinter) list(ts []Type) {
	for i, a := range ts {
		if p.cut {
			return
		}
		if i > 0 {
			p.str(", ")
		}
		p.write(a)
	}
}

func (p *typePrinter) write(t Type) {
	if p.cut {
		return
	}
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar:
		p.str("_")
	case *Named:
		p.str(x.Def.Name)
		if len(x.Args) > 0 {
			p.str("(")
			p.list(x.Args)
			p.str(")")
		}
	case *Tuple:
		p.str("(")
		p.list(x.Elems)
		if len(x.Elems) == 1 {
			p.str(",")
		}
		p.str(")")
	case *Func:
		p.str("(")
		p.list(x.Params)
		p.str(") -> ")
		p.write(x.Ret)
	case *TParam:
		p.str(p.param(x))
	default:
		p.str(t.String())
	}
}
