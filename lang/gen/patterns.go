package gen

import (
	"fmt"
	"strings"
)

// pat is one pattern of an exhaustive split.
type pat struct {
	s         string
	binds     []*local
	refutable bool
	// essential: removing this arm leaves the match non-exhaustive.
	essential bool
}

func (p pat) scope(s *scope) *scope {
	in := s.child()
	for _, l := range p.binds {
		in.add(l)
	}
	return in
}

func (c *ctx) bindPat(t *Type) pat {
	g := c.g
	if g.chance(4) {
		return pat{s: "_", essential: true}
	}
	n := g.fresh("m")
	return pat{s: n, binds: []*local{{name: n, t: t, hi: listCap}}, essential: true}
}

// irrefutable is a pattern that matches every value of t: a binding, a
// wildcard, or a destructuring of a tuple/record/newtype.
func (c *ctx) irrefutable(t *Type, depth int) pat {
	g := c.g
	if depth > 0 && g.chance(2) {
		switch {
		case t.K == tTuple && g.chance(3):
			// (p, ..rest): rest is the tuple of the other elements.
			head := c.irrefutable(t.Args[0], depth-1)
			rest := g.fresh("rest")
			var rt *Type
			if len(t.Args) == 1 {
				rt = unitT
			} else {
				rt = tupleOf(t.Args[1:]...)
			}
			g.use("tuple-rest-pattern")
			return pat{s: "(" + head.s + ", .." + rest + ")", binds: append(head.binds, &local{name: rest, t: rt, hi: listCap}), essential: true}
		case t.K == tTuple:
			var parts []string
			var binds []*local
			for _, a := range t.Args {
				p := c.irrefutable(a, depth-1)
				parts = append(parts, p.s)
				binds = append(binds, p.binds...)
			}
			g.use("tuple-pattern")
			s := "(" + strings.Join(parts, ", ") + ")"
			if len(parts) == 1 {
				s = "(" + parts[0] + ",)"
			}
			return pat{s: s, binds: binds, essential: true}
		case t.K == tUser && (t.D.kind == declRecord || t.D.kind == declNewtype):
			var parts []string
			var binds []*local
			for _, ft := range t.D.fieldTypes(t.Args) {
				p := c.irrefutable(ft, depth-1)
				parts = append(parts, p.s)
				binds = append(binds, p.binds...)
			}
			g.use("ctor-pattern")
			return pat{s: t.D.name + "(" + strings.Join(parts, ", ") + ")", binds: binds, essential: true}
		case t.K == tUnit:
			return pat{s: "()", essential: true}
		case t.K == tList && g.chance(3):
			n := g.fresh("all")
			g.use("list-pattern")
			return pat{s: "[.." + n + "]", binds: []*local{{name: n, t: t, hi: listCap}}, essential: true}
		}
	}
	return c.bindPat(t)
}

// split returns patterns that together cover t; every pattern is needed
// unless marked not essential.
func (c *ctx) split(t *Type, depth int) []pat {
	g := c.g
	if t.K != tResult && (depth <= 0 || g.chance(5)) {
		return []pat{c.irrefutable(t, depth)}
	}
	switch t.K {
	case tBool:
		if g.chance(2) {
			return []pat{{s: "true", refutable: true, essential: true}, {s: "false", refutable: true, essential: true}}
		}
		l := pick(g, []string{"true", "false"})
		return []pat{{s: l, refutable: true}, c.bindPat(t)}
	case tInt, tString:
		var out []pat
		seen := map[string]bool{}
		for i := 0; i < 1+g.r.Intn(3); i++ {
			l := c.litPattern(t)
			if t.K == tInt && g.chance(5) {
				l = fmt.Sprint(-1 - g.r.Intn(5))
			}
			if seen[l] {
				continue
			}
			seen[l] = true
			out = append(out, pat{s: l, refutable: true})
		}
		g.use("literal-pattern")
		return append(out, c.bindPat(t))
	case tOption:
		g.use("option-pattern")
		var out []pat
		for _, p := range c.split(t.Args[0], depth-1) {
			out = append(out, pat{s: "Some(" + p.s + ")", binds: p.binds, refutable: true, essential: p.essential})
		}
		none := pat{s: "None", refutable: true, essential: true}
		if g.chance(2) {
			return append([]pat{none}, out...)
		}
		return append(out, none)
	case tResult:
		var out []pat
		for _, p := range c.split(t.Args[0], depth-1) {
			out = append(out, pat{s: "Ok(" + p.s + ")", binds: p.binds, refutable: true, essential: p.essential})
		}
		for _, p := range c.split(t.Args[1], depth-1) {
			out = append(out, pat{s: "Err(" + p.s + ")", binds: p.binds, refutable: true, essential: p.essential})
		}
		return out
	case tTuple:
		// Split one component; the others are irrefutable.
		i := g.r.Intn(len(t.Args))
		var out []pat
		for _, p := range c.split(t.Args[i], depth-1) {
			var parts []string
			binds := append([]*local{}, p.binds...)
			for j, a := range t.Args {
				if j == i {
					parts = append(parts, p.s)
					continue
				}
				q := c.irrefutable(a, 0)
				parts = append(parts, q.s)
				binds = append(binds, q.binds...)
			}
			s := "(" + strings.Join(parts, ", ") + ")"
			if len(parts) == 1 {
				s = "(" + parts[0] + ",)"
			}
			out = append(out, pat{s: s, binds: binds, refutable: p.refutable, essential: p.essential})
		}
		g.use("tuple-pattern")
		return out
	case tList:
		g.use("list-pattern")
		et := t.Args[0]
		switch g.r.Intn(4) {
		case 0:
			h := c.irrefutable(et, depth-1)
			rest := g.fresh("rest")
			return []pat{
				{s: "[]", refutable: true, essential: true},
				{s: "[" + h.s + ", .." + rest + "]", binds: append(h.binds, &local{name: rest, t: t, hi: listCap}), refutable: true, essential: true},
			}
		case 1:
			a := c.irrefutable(et, depth-1)
			b := c.irrefutable(et, depth-1)
			x := c.irrefutable(et, depth-1)
			return []pat{
				{s: "[" + x.s + "]", binds: x.binds, refutable: true, essential: true},
				{s: "[]", refutable: true, essential: true},
				{s: "[" + a.s + ", " + b.s + ", ..]", binds: append(a.binds, b.binds...), refutable: true, essential: true},
			}
		case 2:
			a := c.irrefutable(et, depth-1)
			b := c.irrefutable(et, depth-1)
			return []pat{
				{s: "[" + a.s + ", " + b.s + "]", binds: append(a.binds, b.binds...), refutable: true},
				c.bindPat(t),
			}
		default:
			h := c.irrefutable(et, depth-1)
			return []pat{
				{s: "[" + h.s + ", ..]", binds: h.binds, refutable: true, essential: true},
				{s: "[]", refutable: true, essential: true},
			}
		}
	case tUser:
		d := t.D
		m := d.instMap(t.Args)
		switch d.kind {
		case declSum:
			g.use("ctor-pattern")
			var groups [][]pat
			for _, v := range d.variants {
				var out []pat
				name := v.name
				if g.chance(10) {
					name = d.name + "." + name
				}
				if len(v.fields) == 0 {
					groups = append(groups, []pat{{s: name, refutable: true, essential: true}})
					continue
				}
				// One field may be split further; the others are irrefutable.
				si := -1
				if g.chance(3) {
					si = g.r.Intn(len(v.fields))
				}
				subs := [][]pat{}
				for j, f := range v.fields {
					ft := f.t.subst(m)
					if j == si && !(ft.K == tUser && ft.D == d) {
						subs = append(subs, c.split(ft, depth-1))
					} else {
						subs = append(subs, []pat{c.irrefutable(ft, depth-1)})
					}
				}
				for _, combo := range product(subs) {
					var parts []string
					var binds []*local
					ess := true
					for _, p := range combo {
						parts = append(parts, p.s)
						binds = append(binds, p.binds...)
						ess = ess && p.essential
					}
					out = append(out, pat{s: name + "(" + strings.Join(parts, ", ") + ")", binds: binds, refutable: true, essential: ess})
				}
				groups = append(groups, out)
			}
			// Variants in any order; the arms of one variant keep theirs
			// (a catch-all after its literals).
			g.r.Shuffle(len(groups), func(i, j int) { groups[i], groups[j] = groups[j], groups[i] })
			var out []pat
			for _, gr := range groups {
				out = append(out, gr...)
			}
			return out
		case declNewtype:
			var out []pat
			for _, p := range c.split(d.fields[0].t.subst(m), depth-1) {
				out = append(out, pat{s: d.name + "(" + p.s + ")", binds: p.binds, refutable: p.refutable, essential: p.essential})
			}
			g.use("ctor-pattern")
			return out
		}
	case tOrdering:
		return []pat{{s: "Less", refutable: true, essential: true}, {s: "Equal", refutable: true, essential: true}, {s: "Greater", refutable: true, essential: true}}
	case tUnion:
		g.use("typed-pattern")
		var out []pat
		for _, m := range t.D.members {
			n := g.fresh("n")
			out = append(out, pat{s: n + ": " + m.String(), binds: []*local{{name: n, t: m}}, refutable: true, essential: true})
		}
		return out
	}
	return []pat{c.irrefutable(t, depth)}
}

// product is the cartesian product of pattern lists.
func product(lists [][]pat) [][]pat {
	out := [][]pat{{}}
	for _, l := range lists {
		var next [][]pat
		for _, prefix := range out {
			for _, p := range l {
				row := append(append([]pat{}, prefix...), p)
				next = append(next, row)
			}
		}
		out = next
	}
	return out
}

// arms turns a split into match arms: some guarded arms first (they never
// count for coverage), sometimes trailing arms merged into a catch-all.
type arm struct {
	p     pat
	guard string
}

func (c *ctx) matchArms(s *scope, t *Type, depth int) []arm {
	g := c.g
	ps := c.split(t, depth)
	if len(ps) > 2 && g.chance(4) && t.K != tResult {
		// Merge the tail into `_`.
		k := 1 + g.r.Intn(len(ps)-1)
		ps = ps[:k]
		for i := range ps {
			ps[i].essential = false
		}
		ps = append(ps, pat{s: "_", essential: true})
		g.use("wildcard-arm")
	}
	var arms []arm
	if g.chance(3) {
		// A guarded arm before the others.
		gp := pick(g, c.split(t, depth))
		in := gp.scope(s)
		guard := c.expr(in, boolT, eopt{depth: 2})
		arms = append(arms, arm{p: pat{s: gp.s, binds: gp.binds}, guard: guard.s})
		g.use("match-guard")
	}
	for _, p := range ps {
		arms = append(arms, arm{p: p})
	}
	return arms
}
