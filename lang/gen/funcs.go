package gen

import (
	"fmt"
	"strings"
)

var labelWords = []string{"from", "to", "by", "amount", "times", "into", "using", "start", "stop", "extra"}

// genFunction adds one function of a random role.
func (g *gen) genFunction() {
	switch r := g.r.Intn(22); {
	case r < 8:
		g.genPlain(false)
	case r < 11:
		g.genPlain(true)
	case r < 13:
		g.genRecursive()
	case r < 14:
		if g.chance(2) {
			g.genMutualGeneric()
		} else {
			g.genMutual()
		}
	case r < 17:
		g.genGeneric()
	case r < 18:
		g.genStructural()
	case r < 19:
		g.genTreeWalk()
	case r < 20:
		if !g.genResultWalk() {
			g.genPlain(false)
		}
	default:
		g.genPlain(false)
	}
}

// newParams invents n parameters and applies the label rule (docs/reference/syntax.md#calls).
func (g *gen) newParams(types []*Type, allowUnannotated bool) []*param {
	var ps []*param
	labels := map[string]bool{}
	for _, t := range types {
		p := &param{name: g.fresh("a"), t: t, annotated: true}
		if allowUnannotated && g.chance(6) && t.K != tFunc {
			p.annotated = false
		}
		if g.chance(6) {
			for _, w := range labelWords {
				if !labels[w] {
					p.label = w
					labels[w] = true
					g.use("external-label")
					break
				}
			}
		}
		ps = append(ps, p)
	}
	relabel(ps)
	// A pattern parameter in front, when it needs no label.
	if len(ps) > 0 && ps[0].annotated && !ps[0].needLabel && ps[0].label == "" && g.chance(4) {
		t := ps[0].t
		if t.K == tTuple || (t.K == tUser && (t.D.kind == declNewtype || t.D.kind == declRecord)) {
			c := &ctx{g: g}
			pp := c.irrefutable(t, 1)
			if pp.s != "_" && !(len(pp.binds) == 1 && pp.binds[0].t == t) && strings.ContainsAny(pp.s, "(") {
				ps[0].pat = pp.s
				ps[0].name = ""
				ps[0].patBinds = pp.binds
				g.use("pattern-param")
			}
		}
	}
	return ps
}

func (p *param) text() string {
	if p.pat != "" {
		return p.pat + ": " + p.t.String()
	}
	s := p.name
	if p.label != "" {
		s = p.label + " " + s
	}
	if p.annotated {
		s += ": " + p.t.String()
	}
	return s
}

// bodyCtx is the context of a top-level function body.
func (g *gen) bodyCtx(f *fnInfo, budget int) (*ctx, *scope) {
	cost := 0
	c := &ctx{g: g, fn: f, ret: f.ret, mult: 1, cost: &cost, budget: budget, ind: 4}
	if f.ret.K == tResult {
		c.errT = f.ret.Args[1]
	}
	c.mailbox = f.mailbox
	s := &scope{}
	for _, p := range f.params {
		if p.pat != "" {
			for _, l := range p.patBinds {
				s.add(l)
			}
			continue
		}
		s.add(&local{name: p.name, t: p.t, hi: listCap})
	}
	return c, s
}

// header writes `fn name(params) -> Ret:`.
func (g *gen) header(f *fnInfo) string {
	var ps []string
	for _, p := range f.params {
		ps = append(ps, p.text())
	}
	h := "fn " + f.name + "(" + strings.Join(ps, ", ") + ")"
	pub := f.annRet && f.role != "main" && g.chance(6)
	for _, p := range f.params {
		pub = pub && p.annotated
	}
	if f.annRet && (f.role != "main" || f.ret.K != tUnit || g.chance(3)) {
		h += " -> " + f.ret.String()
	}
	if pub {
		g.use("pub-fn")
		h = "pub " + h
	}
	if g.chance(15) {
		g.use("doc-attribute")
		h = "@doc \"\"\"Generated function " + f.name + ".\"\"\"\n" + h
	}
	return h + ":"
}

// finish writes the function text from its body lines; a one-line body
// sometimes goes on the header line, or after `->` when unannotated.
func (g *gen) finish(f *fnInfo, body []string, inlineOK bool) {
	h := g.header(f)
	if inlineOK && len(body) == 1 && !strings.Contains(body[0], "\n") && g.chance(3) {
		b := strings.TrimLeft(body[0], " ")
		if !f.annRet && !strings.HasPrefix(h, "pub") && !strings.HasPrefix(h, "@doc") && !strings.HasPrefix(b, "return") && g.chance(2) {
			g.use("arrow-body")
			f.lines = []string{strings.TrimSuffix(h, ":") + " -> " + b}
			return
		}
		g.use("inline-body")
		f.lines = []string{h + " " + b}
		return
	}
	f.lines = append([]string{h}, body...)
}

// genPlain: random parameters, random result (Result when isResult).
func (g *gen) genPlain(isResult bool) {
	var types []*Type
	for i := 0; i < g.r.Intn(4); i++ {
		t := g.dataType(2)
		if g.chance(10) {
			t = funcOf([]*Type{g.dataType(1)}, g.dataType(1))
			g.use("higher-order-param")
		}
		types = append(types, t)
	}
	f := &fnInfo{name: g.fresh("f"), annRet: true, role: "plain"}
	unannotatedRet := g.chance(6) && !isResult
	switch {
	case isResult:
		errT := pick(g, []*Type{stringT, stringT, intT, g.dataType(1)})
		f.ret = resultOf(g.dataType(1), errT)
		f.role = "result"
		if g.chance(2) && g.r.Intn(2) == 0 {
			f.ret = resultOf(unitT, errT)
		}
	case g.chance(6):
		f.ret = unitT
		// `fn f(…):` without `-> ()` is a Unit function whose return type
		// is inferred.
		unannotatedRet = g.r.Intn(3) > 0
	case g.chance(12):
		f.ret = funcOf([]*Type{g.dataType(1)}, g.dataType(1))
		g.use("closure-maker")
	default:
		f.ret = g.dataType(2)
	}
	f.params = g.newParams(types, true)
	unionMark := g.unionUses
	c, s := g.bodyCtx(f, fnBudget)
	var body []string
	exprOnly := false
	s2 := s.child()
	if isResult && g.chance(4) {
		// Unannotated Result function: every exit fixes the type.
		f.annRet = false
		g.inUnannotated = true
		g.use("unannotated-result-fn")
		body = c.stmts(s2, g.r.Intn(3))
		body = g.pinParams(f, c, body, unionMark)
		cond := c.expr(s2, boolT, eopt{depth: 2})
		errLit, _ := c.lit(s2, f.ret.Args[1], eopt{depth: 1})
		body = append(body, c.line("if "+cond.s+": return Err("+errLit.s+")"))
		okV := c.expr(s2, f.ret.Args[0], eopt{depth: 2})
		body = append(body, c.line("Ok("+okV.s+")"))
	} else {
		if unannotatedRet && f.ret.concrete() && f.ret.K != tFunc {
			f.annRet = false
			g.use("unannotated-return")
			g.inUnannotated = true
		}
		body = c.stmts(s2, g.r.Intn(5))
		if !f.annRet && f.ret.scalar() && g.chance(3) {
			// An early return of the same type as the final expression.
			ret := c.line("if " + c.expr(s2, boolT, eopt{depth: 1}).s + ": return " + c.expr(s2, f.ret, eopt{depth: 1}).s)
			body = append(body, g.mark(mutUnannotatedRet, ret, c.line("if true: return "+wrongScalar(f.ret)), "returns a value of another type than the final expression of "+f.name))
		}
		body = g.pinParams(f, c, body, unionMark)
		exprOnly = len(body) == 0
		switch {
		case !f.annRet && f.ret.K == tUnit:
			body = append(body, c.line("println("+c.expr(s2, intT, eopt{depth: 2}).s+")"))
		case !f.annRet:
			// The final expression alone fixes the return type.
			body = append(body, c.exprLine(c.expr(s2, f.ret, eopt{depth: 3})))
		case f.ret.K == tResult && f.annRet && g.chance(4):
			exprOnly = false
			body = append(body, c.withChain(s2, f.ret)...)
		case f.ret.scalar() && g.chance(2):
			last := c.exprLine(c.expr(s2, f.ret, eopt{depth: 3, anch: true}))
			body = append(body, g.mark(mutWrongReturn, last, indent(4)+wrongScalar(f.ret), "ends "+f.name+" with a value of the wrong type"))
		default:
			exprOnly = false
			body = append(body, c.final(s2, f.ret)...)
		}
	}
	g.inUnannotated = false
	f.cost = *c.cost + 1
	g.finish(f, body, exprOnly)
	g.funcs = append(g.funcs, f)
}

// pinParams inserts, for each unannotated parameter, `let pin: T = p`
// somewhere among the statements: the evidence that fixes its type may
// come after the uses (docs/reference/types.md#inference deferred shape inference).
func (g *gen) pinParams(f *fnInfo, c *ctx, body []string, since int) []string {
	for _, p := range f.params {
		if p.annotated || p.pat != "" {
			continue
		}
		g.use("unannotated-param")
		pin := c.line("let " + g.fresh("pin") + ": " + p.t.String() + " = " + p.name)
		// Statement boundaries: lines at the body's indentation.
		var at []int
		for i, l := range body {
			if startsStatement(stripMarks(l)) {
				at = append(at, i)
			}
		}
		at = append(at, len(body))
		i := pick(g, at)
		if g.unionUses != since {
			// A value used where the union alias is expected (an Int
			// where `Int | String` is wanted) binds a type still unknown
			// to the union itself (docs/reference/types.md#inference: unification; only shapes are
			// deferred), so the evidence must come first.
			i = 0
		}
		if i > 0 {
			g.use("deferred-inference")
		}
		body = append(body[:i], append([]string{pin}, body[i:]...)...)
	}
	return body
}

// startsStatement reports whether a body line starts a statement at the
// body's indentation (not a continuation: `else`, `do`, `|>`, or the
// closing bracket of a call whose lambda argument spans lines).
func startsStatement(l string) bool {
	if !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ") {
		return false
	}
	rest := l[4:]
	for _, p := range []string{"|>", ")", "]", "}", ","} {
		if strings.HasPrefix(rest, p) {
			return false
		}
	}
	for _, kw := range []string{"else", "do"} {
		if r, ok := strings.CutPrefix(rest, kw); ok && (r == "" || r[0] == ' ' || r[0] == ':' || r[0] == '\n') {
			return false
		}
	}
	return true
}

// stripMarks drops the site markers at the start of a line.
func stripMarks(l string) string {
	for len(l) > 0 && l[0] == mOpen {
		j := strings.IndexByte(l, mMid)
		l = l[j+1:]
	}
	return l
}

// genRecursive: `fn r(n: Int, …) -> T` that recurses on n - 1 down to 0.
func (g *gen) genRecursive() {
	f := &fnInfo{name: g.fresh("rec"), annRet: true, role: "recursive", counter: true}
	types := []*Type{intT}
	for i := 0; i < g.r.Intn(3); i++ {
		types = append(types, g.dataType(1))
	}
	f.ret = g.dataType(1)
	f.params = g.newParams(types, false)
	f.params[0].name = "n"
	f.params[0].pat = ""
	f.params[0].label = ""
	for _, p := range f.params {
		p.annotated = true
	}
	// recompute labels after forcing annotations
	relabel(f.params)
	c, s := g.bodyCtx(f, fnBudget/recDepth)
	g.use("recursion")
	lines := []string{}
	if g.chance(3) {
		lines = append(lines, c.line("match:"))
		in := c.inner()
		lines = append(lines, in.line("n <= 0 -> "+c.expr(s, f.ret, eopt{depth: 2, anch: true}).s))
		lines = append(lines, in.line("_ ->"))
		lines = append(lines, g.recStep(f, in.inner(), s)...)
		g.use("condition-match")
	} else {
		lines = append(lines, c.line("if n <= 0:"))
		lines = append(lines, c.inner().block(s, f.ret, g.r.Intn(2))...)
		lines = append(lines, c.line("else:"))
		lines = append(lines, g.recStep(f, c.inner(), s)...)
	}
	f.cost = (*c.cost + 2) * (recDepth + 1)
	g.finish(f, lines, false)
	g.funcs = append(g.funcs, f)
}

// relabel applies the mandatory-label rule (docs/reference/syntax.md#calls) to declared types: a
// Bool parameter, or one whose declared type another parameter also
// declares. Unannotated parameters declare nothing.
func relabel(ps []*param) {
	for i, p := range ps {
		p.needLabel = p.annotated && p.t.K == tBool
		for j, q := range ps {
			if i != j && p.annotated && q.annotated && p.t.String() == q.t.String() {
				p.needLabel = true
			}
		}
		if p.needLabel && p.pat != "" {
			p.pat = ""
			p.name = "q" + fmt.Sprint(i)
		}
	}
}

// recStep is the recursive branch: a self call on n - 1 (tail or not).
func (g *gen) recStep(f *fnInfo, c *ctx, s *scope) []string {
	args := make([]val, len(f.params))
	args[0] = val{s: "n - 1"}
	for i, p := range f.params[1:] {
		args[i+1] = c.expr(s, p.t, eopt{depth: 2, anch: true})
	}
	call := c.renderCall(f, args).s
	if g.chance(2) {
		g.use("tail-call")
		var lines []string
		s2 := s.child()
		for i := 0; i < g.r.Intn(2); i++ {
			lines = append(lines, c.stmt(s2)...)
		}
		return append(lines, c.line(call))
	}
	r := g.fresh("r")
	s2 := s.child()
	s2.add(&local{name: r, t: f.ret, hi: listCap})
	lines := []string{c.line("let " + r + " = " + call)}
	return append(lines, c.block(s2, f.ret, g.r.Intn(2))...)
}

// genMutual: two functions that call each other on n - 1.
func (g *gen) genMutual() {
	ret := g.dataType(1)
	extra := g.dataType(1)
	a := &fnInfo{name: g.fresh("ping"), annRet: true, role: "mutual", counter: true, ret: ret}
	b := &fnInfo{name: g.fresh("pong"), annRet: true, role: "mutual", counter: true, ret: ret}
	unann := g.chance(3)
	for _, f := range []*fnInfo{a, b} {
		f.params = []*param{{name: "n", t: intT, annotated: true}, {name: "acc", t: extra, annotated: true}}
		relabel(f.params)
		if unann && ret.concrete() {
			f.annRet = false
		}
	}
	g.use("mutual-recursion")
	if unann {
		g.use("unannotated-mutual-recursion")
	}
	total := 0
	for i, f := range []*fnInfo{a, b} {
		other := b
		if i == 1 {
			other = a
		}
		c, s := g.bodyCtx(f, fnBudget/(2*recDepth))
		lines := []string{c.line("if n <= 0:")}
		base := c.inner().expr(s, ret, eopt{depth: 2, anch: f.annRet})
		lines = append(lines, c.inner().exprLine(base))
		lines = append(lines, c.line("else:"))
		in := c.inner()
		args := []val{{s: "n - 1"}, in.expr(s, extra, eopt{depth: 2, anch: true})}
		lines = append(lines, in.line(in.renderCall(other, args).s))
		total += *c.cost + 2
		g.finish(f, lines, false)
	}
	a.cost = total * (recDepth + 1)
	b.cost = a.cost
	g.funcs = append(g.funcs, a, b)
}

// genGeneric adds one generic function from a set of templates.
func (g *gen) genGeneric() {
	n := g.fresh("")
	type tmpl struct {
		name   string
		tvars  []string
		params []*param
		ret    *Type
		body   string
		cost   int
		use    string
	}
	a, b, cT := varT("a"), varT("b"), varT("c")
	ts := []tmpl{
		{"ident", []string{"a"}, []*param{{name: "x", t: a}}, a, "x", 1, "generic"},
		{"pair", []string{"a", "b"}, []*param{{name: "x", t: a}, {name: "y", t: b}}, tupleOf(a, b), "(x, y)", 1, "generic"},
		{"swap", []string{"a", "b"}, []*param{{name: "p", t: tupleOf(a, b)}}, tupleOf(b, a), "(p.1, p.0)", 1, "generic"},
		{"first_or", []string{"a"}, []*param{{name: "xs", t: listOf(a)}, {name: "d", t: a}}, a, "match xs:\n        [] -> d\n        [h, ..] -> h", 2, "generic"},
		{"choose", []string{"a"}, []*param{{name: "c", t: boolT}, {name: "x", t: a}, {name: "y", t: a}}, a, "if c: x else: y", 1, "generic"},
		{"apply", []string{"a", "b"}, []*param{{name: "f", t: funcOf([]*Type{a}, b)}, {name: "x", t: a}}, b, "f(x)", lambdaBudget + 1, "generic-higher-order"},
		{"twice", []string{"a"}, []*param{{name: "f", t: funcOf([]*Type{a}, a)}, {name: "x", t: a}}, a, "f(f(x))", 2*lambdaBudget + 1, "generic-higher-order"},
		{"compose", []string{"a", "b", "c"}, []*param{{name: "f", t: funcOf([]*Type{a}, b)}, {name: "g", t: funcOf([]*Type{b}, cT)}}, funcOf([]*Type{a}, cT), "(x) -> g(f(x))", 1, "generic-higher-order"},
		{"map_opt", []string{"a", "b"}, []*param{{name: "o", t: optionOf(a)}, {name: "f", t: funcOf([]*Type{a}, b)}}, optionOf(b), "match o:\n        Some(v) -> Some(f(v))\n        None -> None", lambdaBudget + 2, "generic-higher-order"},
		{"count", []string{"a"}, []*param{{name: "xs", t: listOf(a)}}, intT, "List.len(xs)", 1, "generic"},
		{"keep", []string{"a"}, []*param{{name: "xs", t: listOf(a)}, {name: "f", t: funcOf([]*Type{a}, boolT)}}, listOf(a), "List.filter(xs, f)", listCap * lambdaBudget, "generic-higher-order"},
	}
	ts = append(ts,
		tmpl{"square", []string{"a"}, []*param{{name: "x", t: a}}, a, "x * x", 1, "type-param-requirement"},
		tmpl{"add", []string{"a"}, []*param{{name: "l", t: a}, {name: "r", t: a}}, a, "l + r", 1, "type-param-requirement"},
		tmpl{"describe", []string{"a"}, []*param{{name: "x", t: a}}, stringT, `"value={x}"`, 1, "type-param-requirement"},
	)
	for _, d := range g.decls {
		if d.kind == declNewtype && len(d.params) == 1 {
			w := &Type{K: tUser, D: d, Args: []*Type{a}}
			ts = append(ts, tmpl{"unwrap", []string{"a"}, []*param{{name: "w", t: w}}, a, "w.0", 1, "generic-newtype"})
			if d.eq {
				ts = append(ts, tmpl{"same", []string{"a"}, []*param{{name: "x", t: w}, {name: "y", t: w}}, boolT, "x == y", 1, "generic-equality"})
			}
		}
		if d.kind == declRecord && len(d.params) == 1 && len(d.fields) == 1 && d.fields[0].t.K == tVar {
			ts = append(ts, tmpl{"wrap", []string{"a"}, []*param{{name: "x", t: a}}, &Type{K: tUser, D: d, Args: []*Type{a}}, d.name + "(x)", 1, "generic-type"})
		}
	}
	t := pick(g, ts)
	f := &fnInfo{name: t.name + n, tvars: t.tvars, ret: t.ret, annRet: true, cost: t.cost, role: "generic"}
	for _, p := range t.params {
		q := *p
		q.annotated = true
		f.params = append(f.params, &q)
	}
	relabel(f.params)
	switch t.name {
	case "square":
		f.req = func(u *Type) bool { return u.K == tInt || u.K == tFloat }
	case "add":
		f.req = func(u *Type) bool { return u.K == tInt || u.K == tFloat || u.K == tString }
	case "describe":
		f.req = func(u *Type) bool { return u.interpolable() }
	case "same":
		f.req = func(u *Type) bool { return u.hasEq() }
	}
	g.use(t.use)
	if strings.Contains(t.body, "\n") {
		f.lines = []string{g.header(f), "    " + t.body}
	} else {
		g.finish(f, []string{"    " + t.body}, true)
	}
	g.funcs = append(g.funcs, f)
}

// genMain writes main: it calls most functions and prints what they
// return, then runs the actor scenarios.
func (g *gen) genMain() *fnInfo {
	f := &fnInfo{name: "main", ret: unitT, annRet: true, role: "main"}
	switch g.r.Intn(10) {
	case 0:
		f.ret = intT
		g.use("main-int")
	case 1:
		f.ret = resultOf(unitT, stringT)
		g.use("main-result")
	}
	c, s := g.bodyCtx(f, mainBudget)
	c.root = true
	var lines []string
	for _, fn := range g.funcs {
		if fn.role == "main" || fn.mailbox != nil || fn.role == "actor" || fn.takesResultCallback() || fn.noAuto || !c.afford(fn.cost) || g.chance(4) {
			continue
		}
		v := c.call(s, fn, map[string]*Type{}, eopt{depth: 2, anch: true})
		rt := fn.ret
		switch {
		case rt.K == tResult:
			if rt.hasShow() {
				lines = append(lines, c.line("println("+v.s+")"))
			} else {
				lines = append(lines, c.line("println(Result.is_ok("+v.s+"))"))
			}
		case rt.K == tUnit:
			lines = append(lines, c.line(v.s))
		case rt.printable() && rt.concrete():
			lines = append(lines, c.line("println("+v.s+")"))
		default:
			lines = append(lines, c.line("let _ = "+v.s))
		}
	}
	for i := 0; i < 2+g.r.Intn(5); i++ {
		lines = append(lines, c.stmt(s)...)
	}
	for _, extra := range g.mainExtra {
		lines = append(lines, extra(c, s)...)
	}
	lines = append(lines, g.spawnLines(c, s)...)
	switch f.ret.K {
	case tInt:
		lines = append(lines, c.line(fmt.Sprint(g.r.Intn(4))))
	case tResult:
		lines = append(lines, c.line(pick(g, []string{"Ok(())", "Ok(())", "Ok(())", `Err("main failed")`})))
	}
	f.lines = append([]string{g.header(f)}, lines...)
	return f
}
