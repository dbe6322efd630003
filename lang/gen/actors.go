package gen

import (
	"fmt"
	"strings"
)

// Actor code. Every actor scenario is a set of functions plus the lines
// main writes to start it. The rules that keep it well typed and finite:
//
//   - each actor function has one mailbox type M, fixed by its receive
//     patterns, by `let own: Pid(M) = Process.self()` and by the
//     annotation at the spawn site;
//   - every receive and receive_event has an `after` arm with a short
//     timeout, and every loop is counted, so every process ends;
//   - main only spawns and sends; everything else (self, monitors,
//     links, trap_exit, exit, receive) happens inside processes.

type scenario struct {
	start func(c *ctx, s *scope) []string // main's lines
}

func (g *gen) timeout() string {
	if g.chance(4) {
		return "0"
	}
	return fmt.Sprint(1 + g.r.Intn(15))
}

func (g *gen) genActorScenarios() {
	// Actor functions have no return annotation.
	g.inUnannotated = true
	defer func() { g.inUnannotated = false }()
	n := 1 + g.r.Intn(2)
	for i := 0; i < n; i++ {
		switch g.r.Intn(6) {
		case 5:
			g.scenarios = append(g.scenarios, g.annotatedMailbox())
		case 0, 1:
			g.scenarios = append(g.scenarios, g.legacyWorker())
		case 2:
			g.scenarios = append(g.scenarios, g.observer("monitor"))
		case 3:
			g.scenarios = append(g.scenarios, g.observer("link"))
		default:
			g.scenarios = append(g.scenarios, g.observer("spawn"))
		}
	}
}

// spawnLines are main's lines that start every scenario.
func (g *gen) spawnLines(c *ctx, s *scope) []string {
	var lines []string
	for _, sc := range g.scenarios {
		lines = append(lines, sc.start(c, s)...)
	}
	return lines
}

// guardExpr writes a receive guard (docs/reference/checks.md#receive-guards): locals, literals, comparisons,
// and/or/not, field access; no calls, no failing operators.
func (c *ctx) guardExpr(s *scope) string {
	g := c.g
	var atoms []string
	for _, l := range s.visible() {
		switch l.t.K {
		case tInt:
			atoms = append(atoms, fmt.Sprintf("%s %s %d", l.name, pick(g, []string{">", "<", "==", "!=", ">="}), g.r.Intn(7)-2))
		case tBool:
			atoms = append(atoms, l.name, "not "+l.name)
		case tString:
			atoms = append(atoms, fmt.Sprintf("%s != %q", l.name, pick(g, plainStrings)))
		case tFloat:
			atoms = append(atoms, l.name+" < 2.5")
		case tTuple:
			for i, a := range l.t.Args {
				if a.K == tInt {
					atoms = append(atoms, fmt.Sprintf("%s.%d > %d", l.name, i, g.r.Intn(5)))
				}
			}
		}
	}
	if len(atoms) == 0 {
		return pick(g, []string{"true", "1 < 2", "-1 < 0"})
	}
	e := pick(g, atoms)
	if len(atoms) > 1 && g.chance(3) {
		e += " " + pick(g, []string{"and", "or"}) + " " + pick(g, atoms)
	}
	return e
}

// receiveLines writes `receive:` over mailbox m with bodies of type t
// built by body, ending with an `after` arm whose value comes from
// timeoutBody.
func (c *ctx) receiveLines(s *scope, m *Type, head string, body func(c *ctx, s *scope) []string, timeoutBody func(c *ctx, s *scope) []string) []string {
	g := c.g
	g.use("receive")
	lines := []string{c.line(head)}
	in := c.inner().with(func(d *ctx) { d.noDiv = false })
	arms := c.split(m, 2)
	if g.chance(2) {
		gp := pick(g, c.split(m, 2))
		arms = append([]pat{{s: gp.s, binds: gp.binds, refutable: true}}, arms...)
		arms[0].essential = false
		arms[0].s += " if " + c.guardExpr(gp.scope(s))
		g.use("receive-guard")
	}
	for i, a := range arms {
		as := a.scope(s)
		text := a.s
		if i == 0 && strings.Contains(text, " if ") {
			head, guard, _ := strings.Cut(text, " if ")
			text = head + " if " + g.mark(mutGuardCall, guard, "("+guard+") and String.is_empty(\"\")", "calls a function in a receive guard")
		}
		armLines := []string{in.line(text + " ->")}
		armLines = append(armLines, body(in.inner(), as)...)
		lines = append(lines, armLines...)
	}
	after := in.line("_ after " + g.timeout() + " ->")
	if om := otherMailbox(m); om.scalar() {
		// One more arm whose pattern has another type than the mailbox.
		wrong := in.line(c.litPattern(om)+" -> ()") + "\n" + after
		after = g.mark(mutReceivePattern, after, wrong, "adds a receive arm whose pattern does not have the mailbox type "+m.String())
	}
	lines = append(lines, after)
	lines = append(lines, timeoutBody(in.inner().with(func(d *ctx) { d.noDiv = true }), s)...)
	return lines
}

func unitBody(c *ctx, s *scope) []string {
	return c.block(s, unitT, c.g.r.Intn(2))
}

// actorFn makes an actor function with mailbox m.
func (g *gen) actorFn(prefix string, m *Type, params []*param) (*fnInfo, *ctx, *scope) {
	f := &fnInfo{name: g.fresh(prefix), ret: unitT, annRet: false, role: "actor", mailbox: m, effect: true, counter: true}
	f.params = params
	relabel(f.params)
	c, s := g.bodyCtx(f, fnBudget)
	return f, c, s
}

// legacyWorker: a `spawn`ed worker that handles up to n messages; main
// sends it messages of its mailbox type.
func (g *gen) legacyWorker() scenario {
	m := g.msgType()
	f, c, s := g.actorFn("worker", m, []*param{{name: "n", t: intT, annotated: true}})
	g.use("legacy-spawn")
	// The receive arms read the messages' fields, so the mailbox type
	// must be known in the body: pin it (docs/reference/types.md#mailbox-types rule 3).
	lines := []string{g.markSelf(c, m)}
	s.add(&local{name: "own", t: pidOf(m)})
	g.use("process-self")
	lines = append(lines, c.line("if n > 0:"))
	in := c.inner()
	lines = append(lines, in.receiveLines(s, m, "receive:", func(c *ctx, s *scope) []string {
		body := c.stmts(s, c.g.r.Intn(3))
		return append(body, c.line(f.name+"(n - 1)"))
	}, unitBody)...)
	f.cost = (*c.cost + 2) * 4
	f.lines = append([]string{g.header(f)}, lines...)
	g.funcs = append(g.funcs, f)
	supervised := g.chance(4)
	return scenario{start: func(c *ctx, s *scope) []string {
		name := g.fresh("w")
		var l []string
		if supervised {
			// Legacy supervision: restarts after a fault, up to a budget.
			g.use("supervise")
			l = []string{c.line(fmt.Sprintf("let %s: Pid(%s) = supervise(() -> %s(%d), %d)", name, m, f.name, 1+g.r.Intn(4), g.r.Intn(3)))}
		} else {
			n := 1 + g.r.Intn(4)
			l = []string{c.line(fmt.Sprintf("let %s: Pid(%s) = spawn(() -> %s(%d))", name, g.mark(mutSpawnAnnotation, m.String(), otherMailbox(m).String(), "annotates a spawn with a mailbox type its entry does not receive"), f.name, n))}
		}
		s.add(&local{name: name, t: pidOf(m)})
		c.fn.effect = true
		for i := 0; i < 1+g.r.Intn(4); i++ {
			l = append(l, c.sendStmt(s, name, m)...)
		}
		if supervised {
			q := g.fresh("q")
			qs := s.child()
			qs.add(&local{name: q, t: pidOf(m)})
			in := c.inner()
			l = append(l, c.line("match supervised_current("+name+"):"))
			l = append(l, in.line("Ok("+q+") ->"))
			l = append(l, in.inner().sendStmt(qs, q, m)...)
			l = append(l, in.line(`Err(code) -> println("no current worker {code}")`))
		}
		return l
	}}
}

// annotatedMailbox: a worker whose body never fixes its mailbox type (it
// receives two messages and adds them); the annotation at the spawn site
// does (§4.3).
func (g *gen) annotatedMailbox() scenario {
	m := pick(g, []*Type{intT, stringT, floatT})
	f := &fnInfo{name: g.fresh("joiner"), ret: unitT, role: "actor", mailbox: m, effect: true, cost: 8}
	x, y := g.fresh("x"), g.fresh("y")
	g.use("mailbox-from-annotation")
	if g.chance(2) {
		f.lines = []string{
			"fn " + f.name + "():",
			"    receive:",
			"        " + x + " -> receive:",
			"            " + y + " -> println(" + x + " + " + y + ")",
			"            _ after " + g.timeout() + " -> println(\"one message\")",
			"        _ after " + g.timeout() + " -> println(\"no message\")",
		}
	} else {
		f.lines = []string{
			"fn " + f.name + "():",
			"    let " + x + " = receive:",
			"        msg -> msg",
			"        _ after " + g.timeout() + " -> Process.exit(Process.Normal)",
			"    let " + y + " = receive:",
			"        msg -> msg",
			"        _ after " + g.timeout() + " -> Process.exit(Process.Normal)",
			"    println(" + x + " + " + y + ")",
		}
		g.use("process-exit")
	}
	g.funcs = append(g.funcs, f)
	return scenario{start: func(c *ctx, s *scope) []string {
		name := g.fresh("j")
		l := []string{c.line(fmt.Sprintf("let %s: Pid(%s) = spawn(%s)", name, g.mark(mutSpawnAnnotation, m.String(), otherMailbox(m).String(), "annotates a spawn with a mailbox type the messages sent do not have"), f.name))}
		s.add(&local{name: name, t: pidOf(m)})
		c.fn.effect = true
		for i := 0; i < 2; i++ {
			l = append(l, c.sendStmt(s, name, m)...)
		}
		return l
	}}
}

// sendStmt sends one message to the local pid and handles the Result.
func (c *ctx) sendStmt(s *scope, pid string, m *Type) []string {
	g := c.g
	msg := c.expr(s, m, eopt{depth: 2, anch: true})
	text := g.mark(mutWrongMailbox, msg.s, wrongScalar(m), "sends a message of the wrong type to "+pid+" (mailbox "+m.String()+")")
	send := "send(" + pid + ", " + text + ")"
	g.use("send")
	switch g.r.Intn(3) {
	case 0:
		h := g.sentHelper()
		return []string{g.mark(mutDropResult, c.line(h.name+"("+send+")"), c.line(send), "discards the Result of send")}
	case 1:
		lines := []string{
			c.line("match " + send + ":"),
			indent(c.ind+4) + "Ok(()) -> ()",
			indent(c.ind+4) + `Err(code) -> println("send failed {code}")`,
		}
		return []string{g.mark(mutDropResult, strings.Join(lines, "\n"), c.line(send), "discards the Result of send")}
	default:
		return []string{c.line("println(Result.is_ok(" + send + "))")}
	}
}

// sentHelper is `fn sent(r: Result((), Int))`, which matches the Result.
func (g *gen) sentHelper() *fnInfo {
	if g.sentFn != nil {
		return g.sentFn
	}
	f := &fnInfo{name: g.fresh("sent"), ret: unitT, annRet: true, cost: 2, role: "handler"}
	f.params = []*param{{name: "r", t: resultOf(unitT, intT), annotated: true}}
	f.lines = []string{
		fmt.Sprintf("fn %s(r: Result((), Int)):", f.name),
		"    match r:",
		"        Ok(()) -> ()",
		`        Err(code) -> println("send failed: {code}")`,
	}
	g.sentFn = f
	g.funcs = append(g.funcs, f)
	g.use("send-helper")
	return f
}

// observer: an isolated process started with Process.spawn from main,
// which starts a child (spawn_monitor, spawn + monitor, or spawn_link
// with trap_exit), sends it requests, receives replies with guards and
// timeouts, and waits for the child's Down or Exit with receive_event.
func (g *gen) observer(kind string) scenario {
	m := g.msgType()
	r := g.msgType()
	withReplyInMsg := g.chance(3)
	childM := m
	if withReplyInMsg {
		childM = tupleOf(m, pidOf(r))
	}
	// The child.
	childParams := []*param{{name: "n", t: intT, annotated: true}}
	if !withReplyInMsg {
		childParams = append(childParams, &param{name: "reply", t: pidOf(r), annotated: true})
	}
	child, cc, cs := g.actorFn("child", childM, childParams)
	cl := []string{g.markSelf(cc, childM)}
	cs.add(&local{name: "own", t: pidOf(childM)})
	cl = append(cl, cc.line("if n > 0:"))
	in := cc.inner()
	cl = append(cl, in.receiveLines(cs, childM, "receive:", func(c *ctx, s *scope) []string {
		var body []string
		reply := "reply"
		if withReplyInMsg {
			// the pattern bound the reply pid as a component; find it.
			for _, l := range s.visible() {
				if l.t.equal(pidOf(r)) {
					reply = l.name
				}
			}
		}
		if reply != "" && len(s.ofType(pidOf(r))) > 0 {
			body = append(body, c.sendStmt(s, reply, r)...)
		}
		body = append(body, c.stmts(s, c.g.r.Intn(2))...)
		args := "n - 1"
		if !withReplyInMsg {
			args = "n - 1, reply"
		}
		return append(body, c.line(child.name+"("+args+")"))
	}, func(c *ctx, s *scope) []string {
		if c.g.chance(3) {
			c.g.use("process-exit")
			return []string{c.line("Process.exit(" + c.exitReason(s) + ")")}
		}
		return unitBody(c, s)
	})...)
	if g.faulty && g.chance(2) {
		g.use("fault-in-process")
		cl = append(cl, cc.line("println(100 / (n - n))"))
	}
	child.cost = (*cc.cost + 2) * 4
	child.lines = append([]string{g.header(child)}, cl...)
	g.funcs = append(g.funcs, child)

	// The observer, with mailbox r.
	obs, oc, os := g.actorFn("observer", r, nil)
	obs.counter = false
	var ol []string
	ol = append(ol, g.markSelf(oc, r))
	os.add(&local{name: "own", t: pidOf(r)})
	g.use("process-self")
	count := 1 + g.r.Intn(3)
	entry := fmt.Sprintf("() -> %s(%d, own)", child.name, count)
	if withReplyInMsg {
		entry = fmt.Sprintf("() -> %s(%d)", child.name, count)
	}
	if g.chance(4) {
		g.use("spawn-named-entry")
	}
	cpid := g.fresh("c")
	ref := g.fresh("ref")
	os2 := os.child()
	os2.add(&local{name: cpid, t: pidOf(childM)})
	var startLines []string
	ok := oc.inner()
	hasRef := false
	switch kind {
	case "monitor":
		g.use("spawn-monitor")
		ol = append(ol, oc.line(fmt.Sprintf("let started: Result((Pid(%s), MonitorRef), Process.Error) = Process.spawn_monitor(%s)", childM, entry)))
		ol = append(ol, oc.line("match started:"))
		ol = append(ol, ok.line(fmt.Sprintf("Ok((%s, %s)) ->", cpid, ref)))
		os2.add(&local{name: ref, t: monitorRefT})
		hasRef = true
	case "link":
		g.use("spawn-link")
		g.use("trap-exit")
		ol = append(ol, oc.line("println(\"trap was {Process.trap_exit(true)}\")"))
		ol = append(ol, oc.line(fmt.Sprintf("let started: Result(Pid(%s), Process.Error) = Process.spawn_link(%s)", childM, entry)))
		ol = append(ol, oc.line("match started:"))
		ol = append(ol, ok.line(fmt.Sprintf("Ok(%s) ->", cpid)))
	default:
		g.use("process-spawn")
		ol = append(ol, oc.line(fmt.Sprintf("let started: Result(Pid(%s), Process.Error) = Process.spawn(%s)", childM, entry)))
		if g.chance(2) {
			// let-else with Process.exit in the failure branch.
			g.use("let-else")
			ol = append(ol, oc.line(fmt.Sprintf("let Ok(%s) = started else: Process.exit(Process.Failure(\"spawn failed\"))", cpid)))
			ok = oc
		} else {
			ol = append(ol, oc.line("match started:"))
			ol = append(ol, ok.line(fmt.Sprintf("Ok(%s) ->", cpid)))
		}
	}
	body := ok
	if body != oc {
		body = ok.inner()
	}
	if kind == "spawn" && g.chance(2) {
		g.use("monitor")
		startLines = append(startLines, body.line(fmt.Sprintf("let mon = Process.monitor(Process.id(%s))", cpid)))
		startLines = append(startLines, body.line("let Ok("+ref+") = mon else: Process.exit(Process.Failure(\"monitor failed\"))"))
		os2.add(&local{name: ref, t: monitorRefT})
		hasRef = true
	}
	// Requests.
	for i := 0; i < count; i++ {
		msg := m
		if withReplyInMsg {
			v := body.expr(os2, m, eopt{depth: 2, anch: true}).s
			startLines = append(startLines, body.sendLiteral(os2, cpid, childM, "("+v+", own)")...)
			_ = msg
			continue
		}
		startLines = append(startLines, body.sendStmt(os2, cpid, childM)...)
	}
	// Random statements in actor context.
	for i := 0; i < g.r.Intn(3); i++ {
		startLines = append(startLines, body.stmt(os2)...)
	}
	// Replies.
	for i := 0; i < 1+g.r.Intn(2); i++ {
		startLines = append(startLines, body.receiveLines(os2, r, "receive:", unitBody, func(c *ctx, s *scope) []string {
			return []string{c.line(`println("no reply")`)}
		})...)
	}
	if g.chance(4) {
		// Links and exit signals to the child.
		id := "Process.id(" + cpid + ")"
		handle := func(call, okPat string) {
			startLines = append(startLines, body.line("match "+call+":"))
			startLines = append(startLines, body.inner().line(okPat+` -> println("`+strings.SplitN(call, "(", 2)[0]+` ok")`))
			startLines = append(startLines, body.inner().line(`Err(e) -> println("failed: {show(e)}")`))
		}
		switch g.r.Intn(3) {
		case 0:
			g.use("link")
			handle("Process.link("+id+")", "Ok(())")
			handle("Process.unlink("+id+")", "Ok(())")
		case 1:
			g.use("signal-exit")
			handle("Process.signal_exit("+id+", "+pick(g, []string{"Process.Shutdown", "Process.Kill", `Process.Failure("stop")`, "Process.Normal"})+")", "Ok(())")
		default:
			g.use("monitor")
			mref := g.fresh("m")
			startLines = append(startLines, body.line("match Process.monitor("+id+"):"))
			startLines = append(startLines, body.inner().line("Ok("+mref+") ->"))
			startLines = append(startLines, body.inner().inner().line(fmt.Sprintf("match Process.demonitor(%s, Process.DemonitorOptions(true, true)):", mref)))
			startLines = append(startLines, body.inner().inner().inner().line(`Ok(b) -> println("demonitor {b}")`))
			startLines = append(startLines, body.inner().inner().inner().line(`Err(e) -> println("demonitor failed {show(e)}")`))
			startLines = append(startLines, body.inner().line(`Err(e) -> println("monitor failed {show(e)}")`))
			g.use("demonitor")
		}
	}
	if hasRef && g.chance(5) {
		g.use("demonitor")
		startLines = append(startLines, body.line(fmt.Sprintf("match Process.demonitor(%s, Process.DemonitorOptions(%s, %s)):", ref, pick(g, []string{"true", "false"}), pick(g, []string{"true", "false"}))))
		startLines = append(startLines, body.inner().line(`Ok(b) -> println("demonitor {b}")`))
		startLines = append(startLines, body.inner().line(`Err(e) -> println("demonitor failed {show(e)}")`))
	}
	// Lifecycle events.
	startLines = append(startLines, body.eventLines(os2, r, ref, hasRef, kind == "link")...)
	ol = append(ol, startLines...)
	if ok != oc {
		ol = append(ol, ok.line("Err(e) ->"))
		ol = append(ol, ok.inner().line(`println("spawn failed {show(e)}")`))
	}
	obs.cost = *oc.cost + 2
	obs.lines = append([]string{g.header(obs)}, ol...)
	g.funcs = append(g.funcs, obs)
	return scenario{start: func(c *ctx, s *scope) []string {
		g.use("process-spawn")
		c.fn.effect = true
		name := g.fresh("o")
		entry := obs.name
		if g.chance(2) {
			entry = "() -> " + obs.name + "()"
		}
		return []string{
			c.line(fmt.Sprintf("let %s: Result(Pid(%s), Process.Error) = Process.spawn(%s)", name, r, entry)),
			c.line("match " + name + ":"),
			indent(c.ind+4) + "Ok(_) -> ()",
			indent(c.ind+4) + `Err(e) -> println("could not start: {show(e)}")`,
		}
	}}
}

// sendLiteral sends the given message text.
func (c *ctx) sendLiteral(s *scope, pid string, m *Type, msg string) []string {
	g := c.g
	h := g.sentHelper()
	g.use("send")
	send := "send(" + pid + ", " + g.mark(mutWrongMailbox, msg, wrongScalar(m), "sends a message of the wrong type to "+pid) + ")"
	return []string{c.line(h.name + "(" + send + ")")}
}

// eventLines waits for lifecycle events with receive_event.
func (c *ctx) eventLines(s *scope, r *Type, ref string, hasRef, link bool) []string {
	g := c.g
	g.use("receive-event")
	lines := []string{c.line("receive_event:")}
	in := c.inner()
	if hasRef {
		r1, id, reason := g.fresh("r"), g.fresh("id"), g.fresh("why")
		lines = append(lines, in.line(fmt.Sprintf("Process.Down(%s, %s, %s) if %s == %s ->", r1, id, reason, r1, ref)))
		lines = append(lines, in.inner().line(fmt.Sprintf(`println("down: {show(%s)}")`, reason)))
		if g.chance(2) {
			lines = append(lines, in.line("Process.Down(_, _, Process.Fault(code)) -> println(\"other fault {code}\")"))
		}
	}
	if link {
		id, reason := g.fresh("id"), g.fresh("why")
		lines = append(lines, in.line(fmt.Sprintf("Process.Exit(%s, %s) ->", id, reason)))
		lines = append(lines, in.inner().line(fmt.Sprintf(`println("exit: {show(%s)}")`, reason)))
	}
	v := g.fresh("msg")
	ms := s.child()
	ms.add(&local{name: v, t: r, hi: listCap})
	lines = append(lines, in.line(fmt.Sprintf("Process.Message(%s) ->", v)))
	lines = append(lines, in.inner().block(ms, unitT, 0)...)
	if g.chance(2) {
		lines = append(lines, in.line("after "+g.timeout()+" -> println(\"no event\")"))
	} else {
		lines = append(lines, in.line("_ after "+g.timeout()+" -> println(\"no event\")"))
	}
	return lines
}

// actorStmt writes a statement that only an actor may run.
func (c *ctx) actorStmt(s *scope) ([]string, bool) {
	g := c.g
	m := c.mailbox
	switch g.r.Intn(5) {
	case 0:
		// A non-blocking receive: after 0.
		if c.nest >= maxBlockNest {
			return nil, false
		}
		return c.receiveLines(s, m, "receive:", unitBody, unitBody), true
	case 1:
		// let v = receive: … as an expression.
		if c.nest >= maxBlockNest {
			return nil, false
		}
		t := c.someType(s)
		name := g.fresh("got")
		lines := c.receiveLines(s, m, "let "+name+": "+t.String()+" = receive:", func(c *ctx, s *scope) []string {
			return []string{c.exprLine(c.expr(s, t, eopt{depth: 2, anch: true}))}
		}, func(c *ctx, s *scope) []string {
			return []string{c.exprLine(c.expr(s, t, eopt{depth: 2, anch: true}))}
		})
		g.use("receive-expr")
		s.add(&local{name: name, t: t, hi: listCap})
		return lines, true
	case 2:
		name := g.fresh("me")
		s.add(&local{name: name, t: pidOf(m)})
		g.use("process-self")
		return []string{c.line("let " + name + ": Pid(" + m.String() + ") = Process.self()")}, true
	case 3:
		// A legacy child that only prints.
		name := g.fresh("kid")
		g.use("legacy-spawn")
		if c.fn != nil {
			c.fn.effect = true
		}
		body := c.lambdaCtx().expr(s, stringT, eopt{depth: 1})
		s.add(&local{name: name, t: pidOf(intT)})
		return []string{c.line(fmt.Sprintf("let %s: Pid(Int) = spawn(() -> println(%s))", name, body.s))}, true
	default:
		var ps []*local
		for _, l := range s.visible() {
			if l.t.K == tPid {
				ps = append(ps, l)
			}
		}
		if len(ps) < 1 {
			return nil, false
		}
		a, b := pick(g, ps), pick(g, ps)
		g.use("process-id")
		return []string{c.line(fmt.Sprintf("println(Process.id(%s) == Process.id(%s))", a.name, b.name))}, true
	}
}

// actorExpr: expressions only an actor may write.
func (c *ctx) actorExpr(s *scope, t *Type, o eopt) (val, bool) {
	if t.K == tBool && c.g.chance(4) {
		c.g.use("trap-exit")
		return atom("Process.trap_exit(" + pick(c.g, []string{"true", "false"}) + ")"), true
	}
	return val{}, false
}

// otherMailbox is a type that differs from m.
func otherMailbox(m *Type) *Type {
	if m.K == tInt {
		return stringT
	}
	return intT
}

// markSelf writes `let own: Pid(M) = Process.self()`, marked with the
// mutation that pins a different mailbox type.
func (g *gen) markSelf(c *ctx, m *Type) string {
	return c.line("let own: Pid(" + g.mark(mutSelfAnnotation, m.String(), otherMailbox(m).String(), "pins Process.self() to a mailbox type the receive patterns contradict") + ") = Process.self()")
}
