package gen

import (
	"fmt"
	"strings"
)

// Function templates with a fixed shape and random contents: structural
// recursion over lists and recursive sums, generic mutual recursion, a
// recursive walk over records that hold Results, with-chains.

// genStructural: recursion on the tail of a list, which ends because the
// list gets shorter.
func (g *gen) genStructural() {
	et := g.dataType(1)
	extra := g.dataType(1)
	f := &fnInfo{name: g.fresh("walk"), annRet: true, role: "structural", ret: g.dataType(1)}
	f.params = []*param{{name: "xs", t: listOf(et), annotated: true}, {name: "extra", t: extra, annotated: true}}
	relabel(f.params)
	c, s := g.bodyCtx(f, fnBudget/(listCap+1))
	g.use("structural-recursion")
	in := c.inner()
	h, t := g.fresh("h"), g.fresh("t")
	lines := []string{c.line("match xs:")}
	lines = append(lines, in.line("[] -> "+in.expr(s, f.ret, eopt{depth: 2, anch: true}).s))
	lines = append(lines, in.line("["+h+", .."+t+"] ->"))
	body := in.inner()
	s2 := s.child()
	s2.add(&local{name: h, t: et, hi: listCap})
	s2.add(&local{name: t, t: listOf(et), hi: listCap})
	r := g.fresh("r")
	call := body.renderCall(f, []val{atom(t), body.expr(s2, extra, eopt{depth: 1, anch: true})})
	lines = append(lines, body.line("let "+r+" = "+call.s))
	s2.add(&local{name: r, t: f.ret, hi: listCap})
	lines = append(lines, body.block(s2, f.ret, g.r.Intn(2))...)
	f.cost = (*c.cost + 2) * (listCap + 1)
	f.lines = append([]string{g.header(f)}, lines...)
	g.funcs = append(g.funcs, f)
}

// genTreeWalk: recursion over a recursive sum type, one arm per variant.
func (g *gen) genTreeWalk() {
	var d *decl
	for _, x := range g.decls {
		if x.recursive {
			d = x
		}
	}
	if d == nil {
		g.genStructural()
		return
	}
	t := &Type{K: tUser, D: d}
	f := &fnInfo{name: g.fresh("visit"), annRet: true, role: "structural", ret: intT}
	f.params = []*param{{name: "tree", t: t, annotated: true}}
	relabel(f.params)
	c, s := g.bodyCtx(f, fnBudget/64)
	g.use("tree-recursion")
	in := c.inner()
	lines := []string{c.line("match tree:")}
	for _, v := range d.variants {
		var parts []string
		s2 := s.child()
		var recs []string
		for _, fl := range v.fields {
			n := g.fresh("f")
			parts = append(parts, n)
			s2.add(&local{name: n, t: fl.t, hi: listCap})
			if fl.t.K == tUser && fl.t.D == d {
				recs = append(recs, f.name+"("+n+")")
			}
		}
		head := v.name
		if len(parts) > 0 {
			head += "(" + strings.Join(parts, ", ") + ")"
		}
		e := in.expr(s2, intT, eopt{depth: 1, anch: true}).s
		for _, r := range recs {
			e += " + " + r
		}
		lines = append(lines, in.line(head+" -> "+e))
	}
	f.cost = (*c.cost + 2) * 64
	f.lines = append([]string{g.header(f)}, lines...)
	g.funcs = append(g.funcs, f)
}

// genMutualGeneric: `fn ping(n, acc) -> if n <= 0: acc else: pong(n - 1,
// acc)` and its partner, unannotated, so the group is generic in acc.
func (g *gen) genMutualGeneric() {
	a := &fnInfo{name: g.fresh("ping"), role: "mutual", counter: true, ret: varT("a"), tvars: []string{"a"}}
	b := &fnInfo{name: g.fresh("pong"), role: "mutual", counter: true, ret: varT("a"), tvars: []string{"a"}}
	for _, f := range []*fnInfo{a, b} {
		f.params = []*param{{name: "n", t: intT}, {name: "acc", t: varT("a")}}
		f.cost = 3 * (recDepth + 1)
	}
	g.use("generic-mutual-recursion")
	a.lines = []string{fmt.Sprintf("fn %s(n, acc) -> if n <= 0: acc else: %s(n - 1, acc)", a.name, b.name)}
	b.lines = []string{fmt.Sprintf("fn %s(n, acc) -> if n <= 0: acc else: %s(n - 1, acc)", b.name, a.name)}
	switch g.r.Intn(3) {
	case 0:
		// Both annotated, each with its own type variable.
		g.use("generic-mutual-recursion-annotated")
		a.tvars, a.ret = []string{"t"}, varT("t")
		a.params[1].t, a.params[1].annotated, a.params[0].annotated = varT("t"), true, true
		b.tvars, b.ret = []string{"u"}, varT("u")
		b.params[1].t, b.params[1].annotated, b.params[0].annotated = varT("u"), true, true
		a.annRet, b.annRet = true, true
		a.lines = []string{fmt.Sprintf("fn %s(n: Int, acc: t) -> t:", a.name), fmt.Sprintf("    if n <= 0: acc else: %s(n - 1, acc)", b.name)}
		b.lines = []string{fmt.Sprintf("fn %s(n: Int, acc: u) -> u:", b.name), fmt.Sprintf("    if n <= 0: acc else: %s(n - 1, acc)", a.name)}
	case 1:
		// One annotated, its partner not: each is generic in its own
		// variable once the group is checked.
		g.use("generic-mutual-recursion-partial")
		a.tvars, a.ret = []string{"t"}, varT("t")
		a.params[1].t, a.params[1].annotated, a.params[0].annotated = varT("t"), true, true
		a.annRet = true
		a.lines = []string{fmt.Sprintf("fn %s(n: Int, acc: t) -> t:", a.name), fmt.Sprintf("    if n <= 0: acc else: %s(n - 1, acc)", b.name)}
	}
	g.funcs = append(g.funcs, a, b)
}

// genResultWalk: a record with a Result field and a list of itself, and
// a recursive walk that reads the Result and visits the children. It
// needs a function returning a printable Result and reports whether it
// found one.
func (g *gen) genResultWalk() bool {
	var rt *Type
	for _, f := range g.funcs {
		if f.ret.K == tResult && len(f.tvars) == 0 && f.ret.hasShow() {
			rt = f.ret
		}
	}
	if rt == nil {
		return false
	}
	d := &decl{name: g.fresh("Node"), kind: declRecord, show: true}
	self := &Type{K: tUser, D: d}
	d.fields = []field{{name: "value", t: rt}, {name: "children", t: listOf(self)}}
	g.resultDecls = append(g.resultDecls, d)
	f := &fnInfo{name: g.fresh("walk"), ret: unitT, role: "result-walk", noAuto: true, cost: 40}
	f.params = []*param{{name: "node", t: self, annotated: true}}
	read := pick(g, []string{"Result.is_err(node.value)", "Result.is_ok(node.value)", "node.value"})
	f.lines = []string{
		fmt.Sprintf("fn %s(node: %s):", f.name, d.name),
		"    println(" + read + ")",
		"    for child in node.children:",
		"        " + f.name + "(child)",
	}
	g.use("result-walk")
	g.funcs = append(g.funcs, f)
	g.mainExtra = append(g.mainExtra, func(c *ctx, s *scope) []string {
		leaf := func() string {
			return d.name + "(" + c.resultExpr(s, rt, eopt{depth: 1, anch: true}).s + ", [])"
		}
		tree := fmt.Sprintf("%s(%s, [%s, %s])", d.name, c.resultExpr(s, rt, eopt{depth: 1, anch: true}).s, leaf(), leaf())
		return []string{c.line(f.name + "(" + tree + ")")}
	})
	return true
}

// withChain writes `with x <- r1, y <- r2 do … [else Err(e) -> …]` whose
// value has the Result type of the enclosing function.
func (c *ctx) withChain(s *scope, t *Type) []string {
	g := c.g
	errT := t.Args[1]
	in := c.inner()
	s2 := s.child()
	lines := []string{c.line("with")}
	n := 1 + g.r.Intn(3)
	fixed := false // a step is a call, which fixes the error type
	for i := 0; i < n; i++ {
		var v val
		var okT *Type
		fs := c.resultSources(func(r *Type) bool { return r.Args[1].equal(errT) })
		if len(fs) > 0 && (i == 0 || g.chance(2)) {
			fixed = true
			f := pick(g, fs)
			v = c.call(s2, f, map[string]*Type{}, eopt{depth: 2})
			okT = f.ret.Args[0]
		} else {
			okT = c.someType(s2)
			v = atom("Ok(" + c.expr(s2, okT, eopt{depth: 2}).s + ")")
		}
		name := g.fresh("w")
		sep := ","
		if i == n-1 {
			sep = ""
		}
		lines = append(lines, in.line(name+" <- "+v.s+sep))
		s2.add(&local{name: name, t: okT, hi: listCap})
	}
	lines = append(lines, c.line("do"))
	lines = append(lines, in.block(s2, t, g.r.Intn(2))...)
	if fixed && g.chance(2) {
		g.use("with-else")
		lines = append(lines, c.line("else"))
		e := g.fresh("e")
		es := s.child()
		es.add(&local{name: e, t: errT, hi: listCap})
		lines = append(lines, in.line("Err("+e+") -> Err("+in.expr(es, errT, eopt{depth: 2, anch: true}).s+")"))
	}
	g.use("with")
	return lines
}
