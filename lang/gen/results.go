package gen

import (
	"fmt"
)

// Results (§5.2). A Result is only ever written where something handles
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
		if o.interp || c.inDefer && g.avoid(avoidDeferLocals) {
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
	text := g.mark(mutWrongMailbox, msg.s, wrongFor(m), fmt.Sprintf("sends a message of the wrong type to %s (mailbox %s)", p.name, m))
	g.use("send")
	if c.fn != nil {
		c.fn.effect = true
	}
	c.spend(3)
	return atom("send(" + p.name + ", " + text + ")")
}

// wrongFor is a literal whose type differs from t.
func wrongFor(t *Type) string {
	switch t.K {
	case tInt:
		return `"not an int"`
	case tString:
		return "404"
	case tFloat:
		return `"not a float"`
	default:
		return "1.5"
	}
}
