package gen

import (
	"fmt"
	"strings"
)

// Results (docs/reference/checks.md#result-obligations). A Result is only ever written where something handles
// it: a match on Ok/Err, `?`, a return of the enclosing Result function,
// a combinator (is_ok, is_err, unwrap_or, unwrap_or_else, map, and_then),
// printing, a handler helper whose body matches it, or a `let` whose very
// next statement does one of these (or registers a deferred handler).
// Results are never stored in ordinary locals, so no closure captures
// one and no path can drop one.

// resultSources lists the functions callable here that produce a Result
// of a type they fix themselves.
func (c *ctx) resultSources(want func(*Type) bool) []*fnInfo {
	var out []*fnInfo
	for _, f := range c.g.funcs {
		if f.ret.K == tResult && len(f.tvars) == 0 && c.mayCall(f) && (want == nil || want(f.ret)) {
			out = append(out, f)
		}
	}
	return out
}

// canSelfResult reports whether a Result of type t can be written without
// the context fixing its type.
func (c *ctx) canSelfResult(s *scope, t *Type) bool {
	if len(c.resultSources(func(r *Type) bool { return r.equal(t) })) > 0 {
		return true
	}
	return c.canSend(s, t)
}

// canSend: a `send` of the Result((), Int) type is possible here.
func (c *ctx) canSend(s *scope, t *Type) bool {
	if c.pure || c.inDefer || !t.equal(resultOf(unitT, intT)) {
		return false
	}
	for _, p := range pids(s, nil) {
		if c.canMake(s, p.t.Args[0]) {
			return true
		}
	}
	return false
}

// pids lists visible Pid locals (with mailbox type m, or any when nil).
func pids(s *scope, m *Type) []*local {
	var out []*local
	for _, l := range s.visible() {
		if l.t.K == tPid && (m == nil || l.t.Args[0].equal(m)) {
			out = append(out, l)
		}
	}
	return out
}

// resultExpr writes an expression of Result type t. Unanchored requests
// must only be made when canSelfResult(t) (or o.errAnch with an Ok type
// that fixes itself).
func (c *ctx) resultExpr(s *scope, t *Type, o eopt) val {
	for try := 0; try < 8; try++ {
		if v, ok := c.resultForm(s, t, o); ok {
			return v
		}
	}
	// Always possible for anchored requests.
	if o.anch || o.errAnch {
		return atom("Ok(" + c.expr(s, t.Args[0], o.down()).s + ")")
	}
	if fs := c.resultSources(func(r *Type) bool { return r.equal(t) }); len(fs) > 0 {
		return c.call(s, pick(c.g, fs), map[string]*Type{}, o)
	}
	if c.canSend(s, t) {
		return c.sendExpr(s, o)
	}
	// Over budget: call a source anyway (the cost estimate is only a
	// guide).
	saved := c.budget
	c.budget = 1 << 30
	fs := c.resultSources(func(r *Type) bool { return r.equal(t) })
	c.budget = saved
	if len(fs) > 0 {
		return c.call(s, pick(c.g, fs), map[string]*Type{}, o)
	}
	panic("gen: no self-typed Result of type " + t.String())
}

func (c *ctx) resultForm(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	okT, errT := t.Args[0], t.Args[1]
	switch g.r.Intn(9) {
	case 0, 1:
		if !o.anch && !o.errAnch {
			return val{}, false
		}
		g.use("result-ok")
		return atom("Ok(" + c.expr(s, okT, eopt{depth: d.depth, anch: o.anch}).s + ")"), true
	case 2:
		if !o.anch {
			return val{}, false
		}
		g.use("result-err")
		return atom("Err(" + c.expr(s, errT, d.anchored()).s + ")"), true
	case 3, 4:
		fs := c.resultSources(func(r *Type) bool { return r.equal(t) })
		if len(fs) == 0 {
			return val{}, false
		}
		return c.call(s, pick(g, fs), map[string]*Type{}, o), true
	case 5:
		// Result.map(r, f): r fixes its own type.
		fs := c.resultSources(func(r *Type) bool { return r.Args[1].equal(errT) })
		if len(fs) == 0 || o.depth <= 0 || okT.K == tFunc {
			return val{}, false
		}
		f := pick(g, fs)
		src := c.call(s, f, map[string]*Type{}, d)
		lam, k := c.lambda(s, funcOf([]*Type{f.ret.Args[0]}, okT), d.withHOF(true))
		c.spend(k)
		g.use("result-combinator")
		return atom(fmt.Sprintf("Result.map(%s, %s)", src.s, lam.s)), true
	case 6:
		fs := c.resultSources(func(r *Type) bool { return r.Args[1].equal(errT) })
		if len(fs) == 0 || o.depth <= 0 {
			return val{}, false
		}
		f := pick(g, fs)
		src := c.call(s, f, map[string]*Type{}, d)
		// The callback returns a Result of the final type; it is the
		// lambda's value, so it is handed back.
		lc := c.lambdaCtx()
		p := g.fresh("p")
		inner := s.child()
		inner.add(&local{name: p, t: f.ret.Args[0], hi: listCap})
		body := lc.resultExpr(inner, t, eopt{depth: min(d.depth, 2), anch: o.anch, errAnch: true})
		c.spend(*lc.cost + 1)
		g.use("result-combinator")
		return atom(fmt.Sprintf("Result.and_then(%s, (%s) -> %s)", src.s, p, body.s)), true
	case 7:
		if !o.anch {
			return val{}, false
		}
		g.use("if-expr")
		return atom(fmt.Sprintf("(if %s: %s else: %s)", c.expr(s, boolT, d).s, c.resultExpr(s, t, d).s, c.resultExpr(s, t, d).s)), true
	default:
		if c.canSend(s, t) {
			return c.sendExpr(s, o), true
		}
		return val{}, false
	}
}

// selfResult writes some Result whose type it fixes itself, preferring
// types matched by want. It returns false when none is available.
func (c *ctx) selfResult(s *scope, want func(*Type) bool, o eopt) (val, *Type, bool) {
	fs := c.resultSources(want)
	sendOK := c.canSend(s, resultOf(unitT, intT)) && (want == nil || want(resultOf(unitT, intT)))
	if len(fs) == 0 && !sendOK {
		return val{}, nil, false
	}
	if sendOK && (len(fs) == 0 || c.g.chance(3)) {
		return c.sendExpr(s, o), resultOf(unitT, intT), true
	}
	f := pick(c.g, fs)
	return c.call(s, f, map[string]*Type{}, o), f.ret, true
}

// consumeResult writes an expression of type t that handles a Result.
func (c *ctx) consumeResult(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	switch g.r.Intn(6) {
	case 0, 1:
		if t.K == tFunc {
			return val{}, false
		}
		r, rt, ok := c.selfResult(s, func(r *Type) bool { return r.Args[0].equal(t) }, d)
		if !ok {
			return val{}, false
		}
		g.use("result-combinator")
		if g.chance(2) {
			e := g.fresh("e")
			inner := s.child()
			inner.add(&local{name: e, t: rt.Args[1], hi: listCap})
			lc := c.lambdaCtx()
			body := lc.expr(inner, t, d.anchored())
			c.spend(*lc.cost + 1)
			return atom(fmt.Sprintf("Result.unwrap_or_else(%s, (%s) -> %s)", r.s, e, body.s)), true
		}
		return atom(fmt.Sprintf("Result.unwrap_or(%s, %s)", r.s, c.expr(s, t, d.anchored()).s)), true
	case 2:
		if t.K != tBool {
			return val{}, false
		}
		r, _, ok := c.selfResult(s, nil, d)
		if !ok {
			return val{}, false
		}
		g.use("result-combinator")
		if g.chance(3) {
			return c.callHandled(r), true
		}
		return atom(pick(g, []string{"Result.is_ok(", "Result.is_err("}) + r.s + ")"), true
	case 3:
		if t.K != tString {
			return val{}, false
		}
		r, rt, ok := c.selfResult(s, func(r *Type) bool { return r.hasShow() }, d)
		if !ok || !rt.hasShow() {
			return val{}, false
		}
		g.use("result-show")
		return atom("show(" + r.s + ")"), true
	case 4:
		// A handler helper whose body matches the Result.
		for _, rt := range c.resultTypes(s) {
			h := g.handlerFor(rt, t)
			if h == nil || !c.mayCall(h) {
				continue
			}
			g.use("result-handler-helper")
			c.spend(h.cost)
			return atom(h.name + "(" + c.resultExpr(s, rt, d.anchored()).s + ")"), true
		}
		return val{}, false
	default:
		if o.interp {
			return val{}, false
		}
		// An inline match on Ok/Err.
		r, rt, ok := c.selfResult(s, nil, d)
		if !ok {
			return val{}, false
		}
		g.use("result-match")
		g.use("inline-match")
		okS, errS := s.child(), s.child()
		v, e := g.fresh("v"), g.fresh("e")
		okS.add(&local{name: v, t: rt.Args[0], hi: listCap})
		errS.add(&local{name: e, t: rt.Args[1], hi: listCap})
		a := c.expr(okS, t, d)
		b := c.expr(errS, t, d.anchored())
		return atom(fmt.Sprintf("(match %s: Ok(%s) -> %s, Err(%s) -> %s)", r.s, v, a.s, e, b.s)), true
	}
}

// resultTypes lists Result types worth handling here.
func (c *ctx) resultTypes(s *scope) []*Type {
	var out []*Type
	for _, f := range c.resultSources(nil) {
		out = append(out, f.ret)
	}
	c.g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// callHandled passes a Result to the generic helper
// `fn handled(r: Result(a, e)) -> Bool`, which matches it.
func (c *ctx) callHandled(r val) val {
	g := c.g
	if g.handled == nil {
		f := &fnInfo{name: g.fresh("handled"), ret: boolT, annRet: true, cost: 2, tvars: []string{"a", "e"}, role: "handled"}
		f.params = []*param{{name: "r", t: resultOf(varT("a"), varT("e")), annotated: true}}
		f.lines = []string{
			fmt.Sprintf("fn %s(r: Result(a, e)) -> Bool:", f.name),
			"    match r:",
			"        Ok(_) -> true",
			"        Err(_) -> false",
		}
		g.handled = f
		g.funcs = append(g.funcs, f)
	}
	g.use("generic-result-helper")
	c.spend(2)
	return atom(g.handled.name + "(" + r.s + ")")
}

// handlerFor returns (creating it on first use) a helper that takes a
// Result of type rt and returns out by matching it.
func (g *gen) handlerFor(rt, out *Type) *fnInfo {
	key := rt.String() + "->" + out.String()
	if h, ok := g.handlers[key]; ok {
		return h
	}
	if out.K == tFunc || out.hasVar() || rt.hasVar() {
		return nil
	}
	f := &fnInfo{name: g.fresh("handle"), ret: out, annRet: true, role: "handler"}
	f.params = []*param{{name: "r", t: rt, annotated: true}}
	cost := 0
	c := &ctx{g: g, fn: f, mult: 1, cost: &cost, budget: 200, ind: 8, pure: true}
	s := &scope{}
	okS, errS := s.child(), s.child()
	okS.add(&local{name: "v", t: rt.Args[0], hi: listCap})
	errS.add(&local{name: "e", t: rt.Args[1], hi: listCap})
	g.noSites++
	a := c.expr(okS, out, eopt{depth: 2, anch: true})
	b := c.expr(errS, out, eopt{depth: 2, anch: true})
	g.noSites--
	ret := " -> " + out.String()
	if out.K == tUnit {
		ret = ""
	}
	f.lines = []string{
		fmt.Sprintf("fn %s(r: %s)%s:", f.name, rt, ret),
		"    match r:",
		"        Ok(v) -> " + a.s,
		"        Err(e) -> " + b.s,
	}
	f.cost = cost + 2
	g.handlers[key] = f
	g.funcs = append(g.funcs, f)
	return f
}

// sendExpr writes `send(pid, msg)` to a visible Pid.
func (c *ctx) sendExpr(s *scope, o eopt) val {
	g := c.g
	var ps []*local
	for _, p := range pids(s, nil) {
		if c.canMake(s, p.t.Args[0]) {
			ps = append(ps, p)
		}
	}
	p := pick(g, ps)
	m := p.t.Args[0]
	msg := c.expr(s, m, eopt{depth: min(o.depth, 2), anch: true})
	text := g.mark(mutWrongMailbox, msg.s, wrongScalar(m), fmt.Sprintf("sends a message of the wrong type to %s (mailbox %s)", p.name, m))
	g.use("send")
	if c.fn != nil {
		c.fn.effect = true
	}
	c.spend(3)
	return atom("send(" + p.name + ", " + text + ")")
}

// Results inside containers (docs/reference/checks.md#result-obligations "Results nested inside payloads, lists
// or records, each with its own duty"). Each form handles every Result
// it holds; each marks the mutation that drops some of them.
const (
	mutResultLoop     = "result-list-wildcard-loop"   // for _ in results
	mutResultHeadOnly = "result-list-head-only"       // [h, ..t] handling h only
	mutResultHeadMeta = "result-list-head-metadata"   // Result.is_ok(List.head(results))
	mutResultOption   = "result-option-dropped"       // Some(r) -> println("…")
	mutResultNested   = "result-nested-is-ok"         // Result.is_ok on Result(Result(…))
	mutResultCallback = "result-callback-metadata"    // run((r) -> List.len([r]))
	mutResultRecord   = "result-record-field-dropped" // a record whose Result field is never read
	mutResultLoopExit = "result-loop-leaves-early"    // a loop over Results left by break, return or ? with the rest unhandled
)

// resultLoopExit writes loops over a list of Results that leave early
// (break, or `?` in a function returning a Result) in the shapes that
// handle every element anyway: the first element handled, then a full
// loop; a loop that breaks at the first error, then a full loop; a full
// loop whose body handles each element. Each marks the mutation that
// leaves the rest of the list unhandled (E5010).
func (c *ctx) resultLoopExit(s *scope, rt *Type, name, elems string, handle func(*ctx, string) []string) []string {
	g := c.g
	in := c.inner()
	in2 := in.inner()
	r := g.fresh("r")
	lines := []string{c.line(fmt.Sprintf("let %s: List(%s) = %s", name, rt, elems))}
	full := append([]string{c.line("for " + r + " in " + name + ":")}, handle(in, r)...)
	fn := c.fn
	tryOK := fn != nil && fn.annRet && fn.ret != nil && fn.ret.K == tResult && fn.ret.Args[1].equal(rt.Args[1]) && !c.inDefer
	switch k := g.r.Intn(3); {
	case k == 0:
		// The first element, then all of them.
		g.use("result-loop-first-then-all")
		f := g.fresh("first")
		lines = append(lines, c.line("match List.first("+name+"):"))
		lines = append(lines, in.line("Some("+f+") ->"))
		lines = append(lines, handle(in2, f)...)
		lines = append(lines, in.line(`None -> println("empty")`))
		alt := c.line("for "+r+" in "+name+":") + "\n" + strings.Join(handle(in, r), "\n") + "\n" + in.line("break")
		return append(lines, g.mark(mutResultLoopExit, strings.Join(full, "\n"), alt, "handles only the first element in a loop that always breaks"))
	case k == 1:
		// Stop at the first error, then handle the whole list.
		g.use("result-loop-break-then-all")
		lines = append(lines, c.line("for "+r+" in "+name+":"))
		lines = append(lines, in.line("if Result.is_err("+r+"): break"))
		lines = append(lines, in.line(`println("ok so far")`))
		return append(lines, g.mark(mutResultLoopExit, strings.Join(full, "\n"), c.line(`println("rest dropped")`), "breaks out of a loop over Results and never handles the rest"))
	default:
		// A full loop; the mutant leaves it with `?` at the first error.
		g.use("result-loop-full")
		if tryOK {
			alt := c.line("for "+r+" in "+name+":") + "\n" + in.line("println(show("+r+"?))")
			return append(lines, g.mark(mutResultLoopExit, strings.Join(full, "\n"), alt, "leaves a loop over Results with ? and drops the rest"))
		}
		alt := strings.Join(full, "\n") + "\n" + in.line("if Result.is_err("+r+"): break")
		return append(lines, g.mark(mutResultLoopExit, strings.Join(full, "\n"), alt, "breaks out of a loop over Results at the first error and drops the rest"))
	}
}

// markContainer marks a container mutation unless its switch avoids it.
func (g *gen) markContainer(kind, text, alt, note string) string {
	return g.mark(kind, text, alt, note)
}

// containerStmt writes one of the container forms.
func (c *ctx) containerStmt(s *scope) ([]string, bool) {
	g := c.g
	if c.nest >= maxBlockNest || c.pure || c.inDefer {
		return nil, false
	}
	rts := c.resultTypes(s)
	if len(rts) == 0 {
		return nil, false
	}
	rt := rts[0]
	if !rt.hasShow() {
		return nil, false
	}
	in := c.inner()
	in2 := in.inner()
	d := eopt{depth: 2, anch: true}
	elems := func(n int) string {
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, c.resultExpr(s, rt, d).s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	handle := func(c *ctx, name string) []string {
		return []string{
			c.line("match " + name + ":"),
			c.inner().line(`Ok(v) -> println("ok {show(v)}")`),
			c.inner().line(`Err(e) -> println("err {show(e)}")`),
		}
	}
	name := g.fresh("rs")
	g.use("result-container")
	if g.chance(3) {
		return c.resultLoopExit(s, rt, name, elems(1+g.r.Intn(3)), handle), true
	}
	switch g.r.Intn(7) {
	case 0:
		// for r in rs: match r
		g.use("result-list")
		lines := []string{c.line(fmt.Sprintf("let %s: List(%s) = %s", name, rt, elems(1+g.r.Intn(3))))}
		r := g.fresh("r")
		loop := append([]string{c.line("for " + r + " in " + name + ":")}, handle(in, r)...)
		alt := c.line("for _ in "+name+":") + "\n" + in.line(`println("dropped")`)
		return append(lines, g.markContainer(mutResultLoop, strings.Join(loop, "\n"), alt, "iterates over a list of Results without using them")), true
	case 1:
		// [h, ..t]: handle h, print t
		g.use("result-list")
		lines := []string{c.line(fmt.Sprintf("let %s = List.map(%s, (%s) -> %s)", name, c.expr(s, listOf(intT), eopt{depth: 1}).s, g.fresh("x"), c.resultExpr(s, rt, eopt{depth: 1, anch: false, errAnch: false}).s))}
		h, t := g.fresh("h"), g.fresh("t")
		lines = append(lines, c.line("match "+name+":"))
		lines = append(lines, in.line(`[] -> println("none")`))
		lines = append(lines, in.line("["+h+", .."+t+"] ->"))
		lines = append(lines, handle(in2, h)...)
		lines = append(lines, g.markContainer(mutResultHeadOnly, in2.line("println("+t+")"), in2.line(`println("rest dropped")`), "handles the head of a list of Results but not its tail"))
		return lines, true
	case 2:
		g.use("result-list")
		lines := []string{c.line(fmt.Sprintf("let %s: List(%s) = %s", name, rt, elems(1+g.r.Intn(3))))}
		return append(lines, g.markContainer(mutResultHeadMeta, c.line("println("+name+")"), c.line("println(Result.is_ok(List.head("+name+")))"), "inspects only the first Result of a list")), true
	case 3:
		// Option(Result)
		g.use("result-option")
		lines := []string{c.line(fmt.Sprintf("let %s: Option(%s) = Some(%s)", name, rt, c.resultExpr(s, rt, d).s))}
		r := g.fresh("r")
		lines = append(lines, c.line("match "+name+":"))
		some := append([]string{in.line("Some(" + r + ") ->")}, handle(in2, r)...)
		lines = append(lines, g.markContainer(mutResultOption, strings.Join(some, "\n"), in.line("Some("+r+") -> println(\"dropped\")"), "binds the Result inside an Option and never uses it"))
		lines = append(lines, in.line(`None -> println("none")`))
		return lines, true
	case 4:
		// Result(Result(…), E)
		g.use("result-nested")
		nt := resultOf(rt, rt.Args[1])
		lines := []string{c.line(fmt.Sprintf("let %s: %s = Ok(%s)", name, nt, c.resultExpr(s, rt, d).s))}
		inner := g.fresh("inner")
		m := []string{c.line("match " + name + ":"), in.line("Ok(" + inner + ") ->")}
		m = append(m, handle(in2, inner)...)
		m = append(m, in.line(`Err(e) -> println("outer err {show(e)}")`))
		return append(lines, g.markContainer(mutResultNested, strings.Join(m, "\n"), c.line("println(Result.is_ok("+name+"))"), "checks only the outer tag of a nested Result")), true
	case 5:
		// A callback that receives a Result.
		g.use("result-callback")
		run := g.resultRunner(rt)
		c.spend(run.cost)
		r := g.fresh("r")
		body := fmt.Sprintf("(%s) -> match %s: Ok(_) -> 1, Err(_) -> 0", r, r)
		alt := fmt.Sprintf("(%s) -> List.len([%s])", r, r)
		return []string{c.line("println(" + run.name + "(" + g.markContainer(mutResultCallback, body, alt, "a callback that only reads metadata of its Result parameter") + "))")}, true
	default:
		// A record with a Result field.
		g.use("result-record")
		job := g.resultRecord(rt)
		lines := []string{c.line(fmt.Sprintf("let %s = %s(%s, %s)", name, job.name, c.expr(s, intT, eopt{depth: 1}).s, c.resultExpr(s, rt, d).s))}
		m := handle(c, name+".outcome")
		return append(lines, g.markContainer(mutResultRecord, strings.Join(m, "\n"), c.line("println("+name+".id)"), "never reads the Result field of a record")), true
	}
}

// resultRunner is `fn run(f: (Result(T, E)) -> Int) -> Int: f(Ok(…))`.
func (g *gen) resultRunner(rt *Type) *fnInfo {
	key := "runner " + rt.String()
	if f, ok := g.handlers[key]; ok {
		return f
	}
	f := &fnInfo{name: g.fresh("run"), ret: intT, annRet: true, cost: lambdaBudget + 2, role: "runner"}
	ft := funcOf([]*Type{rt}, intT)
	f.params = []*param{{name: "f", t: ft, annotated: true}}
	cost := 0
	c := &ctx{g: g, fn: f, mult: 1, cost: &cost, budget: 100, ind: 4, pure: true}
	g.noSites++
	v, _ := c.lit(&scope{}, rt.Args[0], eopt{depth: 1, anch: true})
	g.noSites--
	f.lines = []string{fmt.Sprintf("fn %s(f: %s) -> Int:", f.name, ft), "    f(Ok(" + v.s + "))"}
	g.handlers[key] = f
	g.funcs = append(g.funcs, f)
	return f
}

// resultRecord declares `type Job derive(Show): id: Int, outcome: R`.
func (g *gen) resultRecord(rt *Type) *decl {
	for _, d := range g.resultDecls {
		if d.fields[1].t.equal(rt) {
			return d
		}
	}
	d := &decl{name: g.fresh("Job"), kind: declRecord, show: true}
	d.fields = []field{{name: "id", t: intT}, {name: "outcome", t: rt}}
	g.resultDecls = append(g.resultDecls, d)
	return d
}

const (
	mutFlowBranch = "result-branch-unhandled" // one branch of an if forgets the Result
	mutFlowDefer  = "result-defer-removed"    // the deferred handler that covers an early exit is gone
)

// resultFlow binds a Result, runs statements that cannot leave the
// function, and then handles it on every path: in both branches of an
// if, or by a deferred handler registered before an early exit. After
// it is handled a closure may capture it.
func (c *ctx) resultFlow(s *scope) ([]string, bool) {
	g := c.g
	if c.nest >= maxBlockNest || c.inDefer || c.pure {
		return nil, false
	}
	r, rt, ok := c.selfResult(s, nil, eopt{depth: 2})
	if !ok {
		return nil, false
	}
	name := g.fresh("r")
	g.use("result-flow")
	lines := []string{c.line("let " + name + " = " + r.s)}
	calm := c.with(func(d *ctx) { d.noExit = true })
	lines = append(lines, calm.stmts(s, g.r.Intn(3))...)
	in := c.inner()
	handle := func(c *ctx) string {
		switch g.r.Intn(3) {
		case 0:
			return c.line(fmt.Sprintf("println(%s(%s))", pick(g, []string{"Result.is_ok", "Result.is_err"}), name))
		case 1:
			if h := g.handlerFor(rt, unitT); h != nil {
				return c.line(h.name + "(" + name + ")")
			}
			fallthrough
		default:
			return c.line("match " + name + ":\n" + c.inner().line(`Ok(_) -> println("ok")`) + "\n" + c.inner().line(`Err(_) -> println("err")`))
		}
	}
	switch {
	case g.chance(2):
		// Handled in both branches.
		lines = append(lines, c.line("if "+c.expr(s, boolT, eopt{depth: 2}).s+":"))
		lines = append(lines, calm.inner().stmts(s.child(), g.r.Intn(2))...)
		lines = append(lines, g.mark(mutFlowBranch, handle(in), in.line(`println("forgot")`), "handles "+name+" in one branch of an if but not the other"))
		lines = append(lines, c.line("else:"))
		lines = append(lines, handle(in))
	case c.ret != nil && c.fn != nil && c.fn.role != "runner":
		// A deferred handler covers every later exit, including an early
		// return.
		h := g.handlerFor(rt, unitT)
		if h == nil {
			return nil, false
		}
		c.spend(h.cost)
		g.use("deferred-handler")
		lines = append(lines, g.mark(mutFlowDefer, c.line("defer "+h.name+"("+name+")"), c.line(`println("no defer")`), "removes the deferred handler of "+name+" that covers an early return"))
		if d, ok := c.diverge(s); ok && strings.HasPrefix(d, "return") {
			lines = append(lines, c.line("if "+c.expr(s, boolT, eopt{depth: 2}).s+": "+d))
		}
		return lines, true
	default:
		lines = append(lines, handle(c))
	}
	if g.chance(3) {
		// Handled: a closure may capture it now.
		g.use("result-capture-after-handling")
		f := g.fresh("later")
		lines = append(lines, c.line(fmt.Sprintf("let %s = () -> Result.is_ok(%s)", f, name)))
		lines = append(lines, c.line(fmt.Sprintf("println(%s())", f)))
	}
	return lines, true
}
