package gen

import (
	"fmt"
	"strings"
)

// inner is the context of a nested block.
func (c *ctx) inner() *ctx {
	return c.with(func(d *ctx) { d.ind = c.ind + 4; d.nest = c.nest + 1 })
}

// block writes a block of type t (statements, then its value) at c.ind.
func (c *ctx) block(s *scope, t *Type, n int) []string {
	s = s.child()
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, c.stmt(s)...)
	}
	return append(lines, c.final(s, t)...)
}

func (c *ctx) line(s string) string { return indent(c.ind) + s }

// exprLine writes an expression statement.
func (c *ctx) exprLine(v val) string {
	return c.line(v.s)
}

// stmts writes n statements that do not end the block.
func (c *ctx) stmts(s *scope, n int) []string {
	var lines []string
	for i := 0; i < n; i++ {
		lines = append(lines, c.stmt(s)...)
	}
	return lines
}

// diverge writes a statement of type Never if one is allowed here.
func (c *ctx) diverge(s *scope) (string, bool) {
	g := c.g
	var opts []func() string
	if c.ret != nil && !c.inDefer && !c.noExit {
		opts = append(opts, func() string {
			g.use("return")
			if c.ret.K == tResult {
				return "return " + c.resultExpr(s, c.ret, eopt{depth: 2, anch: true}).s
			}
			return "return " + c.expr(s, c.ret, eopt{depth: 2, anch: true}).s
		})
	}
	if c.loop && !c.inDefer && !c.noExit {
		opts = append(opts, func() string {
			if g.chance(2) {
				g.use("break")
				return "break"
			}
			g.use("continue")
			return "continue"
		})
	}
	if c.mailbox != nil && !c.pure && !c.inDefer && !c.noExit {
		opts = append(opts, func() string {
			g.use("process-exit")
			return "Process.exit(" + c.exitReason(s) + ")"
		})
	}
	if len(opts) == 0 {
		return "", false
	}
	return pick(g, opts)(), true
}

// final writes the last statement of a block, whose value is the
// block's.
func (c *ctx) final(s *scope, t *Type) []string {
	g := c.g
	if c.nest > 0 && !c.noDiv && g.chance(8) {
		if d, ok := c.diverge(s); ok {
			if !strings.HasPrefix(d, "break") && !strings.HasPrefix(d, "continue") && g.chance(3) {
				// A Never expression as an operand (docs/reference/syntax.md#operators).
				g.use("never-operand")
				switch g.r.Intn(4) {
				case 0:
					d = "println(" + d + ")"
				case 1:
					d = "[" + d + "]"
				case 2:
					d = "Some(" + d + ")"
				default:
					d = "(" + c.expr(s, intT, eopt{depth: 1}).s + ", " + d + ")"
				}
			}
			return []string{c.line(d)}
		}
	}
	if c.nest < maxBlockNest && g.chance(5) {
		fc := c.with(func(d *ctx) { d.fall = c.noDiv })
		switch g.r.Intn(3) {
		case 0:
			return fc.ifStmt(s, t, true)
		default:
			return fc.matchStmt(s, t)
		}
	}
	if t.K == tUnit {
		if g.chance(2) {
			return c.stmtNoBind(s)
		}
		return []string{c.exprLine(c.expr(s, unitT, eopt{depth: 2, anch: true}))}
	}
	if t.K == tResult {
		return []string{c.exprLine(c.resultExpr(s, t, eopt{depth: maxDepth - 1, anch: true}))}
	}
	return []string{c.exprLine(c.expr(s, t, eopt{depth: maxDepth - 1, anch: !c.unanch}))}
}

// stmtNoBind writes a Unit statement that binds nothing.
func (c *ctx) stmtNoBind(s *scope) []string {
	for i := 0; i < 10; i++ {
		if l, ok := c.stmtOnce(s, true); ok {
			return l
		}
	}
	return []string{c.line("println(" + c.expr(s, intT, eopt{depth: 1}).s + ")")}
}

// stmt writes one non-final statement; bindings go into s.
func (c *ctx) stmt(s *scope) []string {
	for i := 0; i < 10; i++ {
		if l, ok := c.stmtOnce(s, false); ok {
			return l
		}
	}
	return []string{c.line("println(" + c.expr(s, stringT, eopt{depth: 1}).s + ")")}
}

func (c *ctx) stmtOnce(s *scope, noBind bool) ([]string, bool) {
	g := c.g
	deep := c.nest < maxBlockNest
	c = c.with(func(d *ctx) { d.fall = true })
	switch g.r.Intn(24) {
	case 0, 1, 2, 3:
		if noBind {
			return nil, false
		}
		return c.letStmt(s), true
	case 4:
		if noBind {
			return nil, false
		}
		if g.chance(3) {
			return c.blockLambdaStmt(s)
		}
		return c.letDestructure(s)
	case 5:
		if noBind || !deep || c.noExit {
			return nil, false
		}
		return c.letElse(s)
	case 6, 7, 8:
		g.use("println")
		t := pick(g, printableTypes(c, s))
		fn := "println"
		if g.chance(6) {
			g.use("print")
			fn = "print"
		}
		line := c.line(fn + "(" + c.expr(s, t, eopt{depth: 3}).s + ")")
		switch {
		case !c.loop && !c.inDefer && g.chance(6):
			line = g.mark(mutBreakOutside, line, c.line("break"), "writes break outside a loop")
		case c.root && g.chance(6):
			line = g.mark(mutActorInMain, line, c.line("println(Process.trap_exit(true))"), "calls an actor-only Process operation in main")
		}
		return []string{line}, true
	case 9:
		if !deep {
			return nil, false
		}
		return c.ifStmt(s, unitT, g.chance(2)), true
	case 10:
		if !deep {
			return nil, false
		}
		return c.matchStmt(s, unitT), true
	case 11, 12:
		if !deep {
			return nil, false
		}
		return c.forStmt(s)
	case 13:
		return c.deferStmt(s)
	case 14, 15:
		return c.resultStmt(s, noBind)
	case 16:
		switch {
		case noBind:
			return c.resultStmt(s, noBind)
		case g.chance(2):
			return c.resultFlow(s)
		default:
			return c.containerStmt(s)
		}
	case 17:
		v, ok := c.callSome(s, unitT, eopt{depth: 2, anch: true})
		if !ok {
			return nil, false
		}
		return []string{c.exprLine(v)}, true
	case 18:
		g.use("postfix-if")
		return []string{c.line(fmt.Sprintf("println(%s) if %s", c.expr(s, stringT, eopt{depth: 2}).s, c.expr(s, boolT, eopt{depth: 2}).s))}, true
	case 19:
		if !deep {
			return nil, false
		}
		d, ok := c.diverge(s)
		if !ok {
			return nil, false
		}
		g.use("early-exit")
		return []string{c.line("if " + c.expr(s, boolT, eopt{depth: 2}).s + ": " + d)}, true
	case 20:
		if c.errT == nil || noBind || c.noExit {
			return nil, false
		}
		return c.tryStmt(s)
	case 21:
		if c.mailbox == nil || c.pure || c.inDefer || c.noExit {
			return nil, false
		}
		return c.actorStmt(s)
	case 22:
		if noBind {
			return nil, false
		}
		if g.chance(3) {
			if g.union != nil && g.chance(2) {
				return c.unionStmt(s)
			}
			return c.closureList(s)
		}
		// A statement-level call whose value is discarded.
		t := c.someType(s)
		v, ok := c.callSome(s, t, eopt{depth: 2, anch: true})
		if !ok {
			return nil, false
		}
		g.use("discarded-value")
		if g.chance(2) {
			return []string{c.line("let _ = " + v.s)}, true
		}
		return []string{c.exprLine(v)}, true
	default:
		if noBind {
			return nil, false
		}
		return []string{c.line(g.comment())}, true
	}
}

// annotationFor renders t for an annotation, sometimes through an alias.
func (g *gen) annotationFor(t *Type) string {
	for _, a := range g.aliases {
		if a.t.equal(t) && g.chance(2) {
			g.use("type-alias")
			return a.name
		}
	}
	return t.String()
}

// letStmt: `let x = e`, `let x: T = e`, sometimes shadowing, sometimes a
// multi-line match or if on the right.
func (c *ctx) letStmt(s *scope) []string {
	g := c.g
	t := c.someType(s)
	if g.chance(8) {
		t = funcOf([]*Type{c.someType(s)}, c.someType(s))
	}
	name := g.fresh("x")
	var lets []*local
	for _, l := range s.visible() {
		if strings.HasPrefix(l.name, "x") {
			lets = append(lets, l)
		}
	}
	if len(lets) > 0 && g.chance(8) {
		name = pick(g, lets).name
		g.use("shadowing")
	}
	annotated := g.chance(3) || !t.concrete()
	head := "let " + name
	// anchored: the right-hand side may take its type from the
	// annotation (`let x: Int = List.head([])`); a let whose annotation
	// a mutant makes wrong must carry its own type, or the mutant is a
	// valid program.
	anchored := annotated
	if annotated {
		ann := g.annotationFor(t)
		text := head + ": " + ann
		if t.scalar() && g.chance(4) {
			text = head + ": " + g.mark(mutWrongLet, ann, wrongAnnotation(t), "annotates a let with the wrong type")
			anchored = false
		}
		head = text
		g.use("let-annotated")
	}
	g.use("let")
	var lines []string
	l := &local{name: name, t: t}
	if c.nest < maxBlockNest && g.chance(6) && t.K != tFunc {
		// let x = match …: / if …:
		body := c.with(func(d *ctx) { d.ind = c.ind; d.nest = c.nest; d.fall = true; d.unanch = !anchored })
		var rhs []string
		if g.chance(2) {
			rhs = body.matchStmt(s, t)
		} else {
			rhs = body.ifStmt(s, t, true)
		}
		rhs[0] = c.line(head + " = " + strings.TrimLeft(rhs[0], " "))
		lines = rhs
		g.use("let-block-rhs")
		l.hi = listCap
	} else {
		v := c.expr(s, t, eopt{depth: maxDepth, anch: anchored})
		l.lo, l.hi = v.lo, v.hi
		if t.K != tList {
			l.lo, l.hi = 0, listCap
		}
		lines = []string{c.line(head + " = " + v.s)}
	}
	s.add(l)
	return lines
}

func wrongAnnotation(t *Type) string {
	switch t.K {
	case tInt:
		return "String"
	case tString:
		return "Int"
	case tBool:
		return "Int"
	default:
		return "Bool"
	}
}

// letDestructure: `let (a, b) = tuple` or `let R(a, b) = record`.
func (c *ctx) letDestructure(s *scope) ([]string, bool) {
	g := c.g
	var t *Type
	for i := 0; i < 6; i++ {
		u := c.someType(s)
		if u.K == tTuple || (u.K == tUser && (u.D.kind == declRecord || u.D.kind == declNewtype)) {
			t = u
			break
		}
	}
	if t == nil {
		t = tupleOf(intT, c.someType(s))
	}
	p := c.irrefutable(t, 2)
	if p.s == "_" || len(p.binds) == 1 && p.binds[0].t == t {
		return nil, false
	}
	g.use("let-destructure")
	v := c.expr(s, t, eopt{depth: 3})
	for _, l := range p.binds {
		s.add(l)
	}
	return []string{c.line("let " + p.s + " = " + v.s)}, true
}

// letElse: `let PAT = e else: <diverge>`.
func (c *ctx) letElse(s *scope) ([]string, bool) {
	g := c.g
	d, ok := c.diverge(s)
	if !ok {
		return nil, false
	}
	var t *Type
	for i := 0; i < 8; i++ {
		u := c.someType(s)
		if u.K == tOption || u.K == tList || u.K == tBool || (u.K == tUser && u.D.kind == declSum) {
			t = u
			break
		}
	}
	var v val
	isResult := false
	if t == nil || g.chance(4) {
		// let Ok(v) = r else: … handles the Result.
		r, rt, ok := c.selfResult(s, func(r *Type) bool { return true }, eopt{depth: 2})
		if !ok {
			return nil, false
		}
		t, v, isResult = rt, r, true
	} else {
		v = c.expr(s, t, eopt{depth: 3})
	}
	var p pat
	for _, q := range c.split(t, 2) {
		if q.refutable && (!isResult || strings.HasPrefix(q.s, "Ok(")) {
			p = q
			break
		}
	}
	if p.s == "" {
		return nil, false
	}
	if isResult {
		g.use("result-let-else")
	}
	g.use("let-else")
	var lines []string
	if g.chance(3) {
		lines = []string{c.line("let " + p.s + " = " + v.s + " else:")}
		in := c.inner()
		lines = append(lines, in.line("println("+in.expr(s, stringT, eopt{depth: 1}).s+")"))
		lines = append(lines, in.line(d))
	} else {
		lines = []string{c.line("let " + p.s + " = " + v.s + " else: " + d)}
	}
	for _, l := range p.binds {
		s.add(l)
	}
	return lines, true
}

// ifStmt writes `if c: … [else: …]` with blocks of type t (Unit when
// there is no else).
func (c *ctx) ifStmt(s *scope, t *Type, withElse bool) []string {
	g := c.g
	if t.K != tUnit {
		withElse = true
	}
	in := c.inner().with(func(d *ctx) { d.noDiv = false })
	last := in.with(func(d *ctx) { d.noDiv = c.fall })
	g.use("if")
	if withElse && g.chance(5) {
		// Single-expression branches: on one line, or `else:` on the next.
		cond := c.expr(s, boolT, eopt{depth: 2}).s
		a := c.expr(s, t, eopt{depth: 2, anch: !c.unanch}).s
		b := c.expr(s, t, eopt{depth: 2, anch: true}).s
		if g.chance(2) {
			g.use("else-next-line")
			return []string{c.line("if " + cond + ": " + a), c.line("else: " + b)}
		}
		g.use("inline-if")
		return []string{c.line("if " + cond + ": " + a + " else: " + b)}
	}
	lines := []string{c.line("if " + c.expr(s, boolT, eopt{depth: 3}).s + ":")}
	lines = append(lines, in.block(s, t, g.r.Intn(3))...)
	for withElse && g.chance(4) {
		g.use("else-if")
		lines = append(lines, c.line("else: if "+c.expr(s, boolT, eopt{depth: 2}).s+":"))
		lines = append(lines, in.block(s, t, g.r.Intn(2))...)
	}
	if withElse {
		lines = append(lines, c.line("else:"))
		lines = append(lines, last.block(s, t, g.r.Intn(3))...)
	}
	return lines
}

// matchStmt writes `match e:` with exhaustive arms whose bodies have
// type t.
func (c *ctx) matchStmt(s *scope, t *Type) []string {
	g := c.g
	var st *Type
	var scrut val
	if g.chance(4) {
		if r, rt, ok := c.selfResult(s, nil, eopt{depth: 2}); ok {
			st, scrut = rt, r
			g.use("result-match")
		}
	}
	if st == nil && g.chance(8) {
		return c.condMatch(s, t)
	}
	if st == nil {
		st = c.someType(s)
		if g.chance(6) && g.union != nil {
			st = &Type{K: tUnion, D: g.union}
			if ls := s.ofType(st); len(ls) == 0 {
				st = c.someType(s)
			}
		}
		if st.K == tUnion {
			scrut = atom(pick(g, s.ofType(st)).name)
		} else {
			scrut = c.expr(s, st, eopt{depth: 3})
		}
	}
	g.use("match")
	arms := c.matchArms(s, st, 3)
	lines := []string{c.line("match " + scrut.s + ":")}
	in := c.inner()
	unguarded := 0
	for _, a := range arms {
		if a.guard == "" {
			unguarded++
		}
	}
	for i, a := range arms {
		head := a.p.s
		if a.guard != "" {
			head += " if " + a.guard
		}
		as := a.p.scope(s)
		in := in.with(func(d *ctx) { d.noDiv = i == len(arms)-1 && c.fall })
		var armLines []string
		if g.chance(2) {
			v := in.expr(as, t, eopt{depth: 2, anch: !c.unanch})
			if t.K == tResult {
				v = in.resultExpr(as, t, eopt{depth: 2, anch: true})
			}
			armLines = []string{in.line(head + " -> " + v.s)}
		} else {
			armLines = []string{in.line(head + " ->")}
			armLines = append(armLines, in.inner().block(as, t, g.r.Intn(3))...)
		}
		text := strings.Join(armLines, "\n")
		if a.guard == "" && a.p.essential && unguarded >= 2 {
			text = g.mark(mutMissingArm, text, "", "removes the arm "+a.p.s+" of a match on "+st.String())
		}
		lines = append(lines, text)
	}
	return lines
}

// condMatch: `match:` with Bool arms and a final `_`.
func (c *ctx) condMatch(s *scope, t *Type) []string {
	g := c.g
	g.use("condition-match")
	lines := []string{c.line("match:")}
	in := c.inner()
	for i := 0; i < 1+g.r.Intn(3); i++ {
		lines = append(lines, in.line(in.expr(s, boolT, eopt{depth: 2}).paren()+" -> "+in.expr(s, t, eopt{depth: 2, anch: !c.unanch}).s))
	}
	lines = append(lines, in.line("_ -> "+in.expr(s, t, eopt{depth: 2, anch: !c.unanch}).s))
	return lines
}

// forStmt: `for PAT in ITER:` over a list, a range, enumerate or zip.
func (c *ctx) forStmt(s *scope) ([]string, bool) {
	g := c.g
	var iter string
	var et *Type
	n := 1
	var pre []string
	switch g.r.Intn(5) {
	case 0:
		a := g.r.Intn(6) - 2
		b := a + g.r.Intn(5)
		if g.chance(2) {
			iter = fmt.Sprintf("%d..%d", a, b)
			n = b - a
		} else {
			iter = fmt.Sprintf("%d..=%d", a, b)
			n = b - a + 1
		}
		et = intT
		g.use("range-loop")
		if g.chance(3) {
			// A Range value bound first.
			r := g.fresh("range")
			pre = []string{c.line("let " + r + " = " + iter)}
			iter = r
			g.use("range-value")
		}
	case 1:
		at := c.someType(s)
		xs := c.expr(s, listOf(at), eopt{depth: 2})
		iter = "List.enumerate(" + xs.s + ")"
		et = tupleOf(intT, at)
		n = xs.hi
		g.use("enumerate")
	default:
		et = c.someType(s)
		xs := c.expr(s, listOf(et), eopt{depth: 3})
		iter = xs.s
		n = xs.hi
	}
	n = max(n, 1)
	p := c.irrefutable(et, 2)
	g.use("for")
	lines := append(pre, c.line("for "+p.s+" in "+iter+":"))
	body := c.inner().with(func(d *ctx) {
		d.loop = true
		d.mult = c.mult * n
	})
	if !body.afford(1) {
		return nil, false
	}
	lines = append(lines, body.block(p.scope(s), unitT, g.r.Intn(3))...)
	return lines, true
}

// deferStmt: `defer EXPR` with a pure Unit expression.
func (c *ctx) deferStmt(s *scope) ([]string, bool) {
	g := c.g
	if c.inDefer || c.pure {
		return nil, false
	}
	dc := c.with(func(d *ctx) {
		d.inDefer, d.pure, d.ret, d.errT, d.loop = true, true, nil, nil, false
	})
	g.use("defer")
	if g.chance(3) {
		if v, ok := dc.callSome(s, unitT, eopt{depth: 2, anch: true}); ok {
			return []string{c.line("defer " + v.s)}, true
		}
	}
	t := pick(g, printableTypes(c, s))
	return []string{c.line("defer println(" + dc.expr(s, t, eopt{depth: 2}).s + ")")}, true
}

// tryStmt: `let x = r?` or `r?` in a function returning Result(_, E).
func (c *ctx) tryStmt(s *scope) ([]string, bool) {
	g := c.g
	var v val
	var okT *Type
	if g.chance(3) {
		okT = c.someType(s)
		v = c.resultExpr(s, resultOf(okT, c.errT), eopt{depth: 2, errAnch: true})
	} else {
		fs := c.resultSources(func(r *Type) bool { return r.Args[1].equal(c.errT) })
		if len(fs) == 0 {
			return nil, false
		}
		f := pick(g, fs)
		v = c.call(s, f, map[string]*Type{}, eopt{depth: 2})
		okT = f.ret.Args[0]
	}
	g.use("try")
	if g.chance(4) {
		return []string{c.line(v.paren() + "?")}, true
	}
	name := g.fresh("t")
	s.add(&local{name: name, t: okT, hi: listCap})
	return []string{c.line("let " + name + " = " + v.paren() + "?")}, true
}

// resultStmt handles a Result at statement level.
func (c *ctx) resultStmt(s *scope, noBind bool) ([]string, bool) {
	g := c.g
	if c.inDefer {
		return nil, false
	}
	r, rt, ok := c.selfResult(s, nil, eopt{depth: 2})
	if !ok {
		return nil, false
	}
	switch g.r.Intn(6) {
	case 0, 1:
		// match r: Ok(…) -> … Err(…) -> …
		if c.nest >= maxBlockNest {
			return nil, false
		}
		g.use("result-match")
		arms := c.matchArms(s, rt, 2)
		lines := []string{c.line("match " + r.s + ":")}
		in := c.inner()
		for _, a := range arms {
			head := a.p.s
			if a.guard != "" {
				head += " if " + a.guard
			}
			lines = append(lines, in.line(head+" -> "+in.expr(a.p.scope(s), unitT, eopt{depth: 2, anch: true}).s))
		}
		// Dropping the match leaves the Result as a discarded statement.
		text := strings.Join(lines, "\n")
		switch {
		case g.chance(3):
			text = g.mark(mutLetUnderscore, text, c.line("let _ = "+r.s), "binds the Result of "+r.s+" to _")
		case c.errT == nil && !c.inDefer && g.chance(2):
			text = g.mark(mutTryOutside, text, c.line("let _ = "+r.paren()+"?"), "uses ? in a function that does not return a Result")
		default:
			text = g.mark(mutDropResult, text, c.line(r.s), "discards the Result of "+r.s)
		}
		return []string{text}, true
	case 2:
		if noBind {
			return nil, false
		}
		// let r = …; then handled by the next statement, or deferred.
		name := g.fresh("r")
		head := "let " + name
		if g.chance(2) {
			head += ": " + rt.String()
		}
		g.use("result-let")
		lines := []string{c.line(head + " = " + r.s)}
		var use string
		switch g.r.Intn(4) {
		case 0:
			h := g.handlerFor(rt, unitT)
			if h == nil {
				use = "println(Result.is_ok(" + name + "))"
				break
			}
			c.spend(h.cost)
			g.use("deferred-handler")
			use = "defer " + h.name + "(" + name + ")"
		case 1:
			if rt.hasShow() {
				use = "println(" + name + ")"
				g.use("result-print")
			} else {
				use = "println(Result.is_ok(" + name + "))"
			}
		case 2:
			use = fmt.Sprintf("println(%s(%s))", pick(g, []string{"Result.is_ok", "Result.is_err"}), name)
		default:
			use = fmt.Sprintf("match %s:\n%sOk(_) -> println(\"ok\")\n%sErr(_) -> println(\"err\")", name, indent(c.ind+4), indent(c.ind+4))
		}
		lines = append(lines, g.mark(mutUnusedResult, c.line(use), c.line(`println("dropped")`), "never uses the Result bound to "+name))
		return lines, true
	case 3:
		g.use("result-print")
		if !rt.hasShow() {
			return nil, false
		}
		return []string{c.line("println(" + r.s + ")")}, true
	default:
		h := g.handlerFor(rt, unitT)
		if h == nil {
			return nil, false
		}
		c.spend(h.cost)
		g.use("result-handler-helper")
		text := c.line(h.name + "(" + r.s + ")")
		return []string{g.mark(mutDropResult, text, c.line(r.s), "discards the Result of "+r.s)}, true
	}
}

// blockLambdaStmt binds the result of a stdlib call whose callback has
// an indented block body (an embedded suite inside the parentheses,
// docs/reference/syntax.md#layout), or a lambda with a block body.
func (c *ctx) blockLambdaStmt(s *scope) ([]string, bool) {
	g := c.g
	if c.nest >= maxBlockNest {
		return nil, false
	}
	lc := c.lambdaCtx()
	lc.nest = c.nest + 1
	lc.unanch = true
	name := g.fresh("x")
	at := c.someType(s)
	bt := c.someType(s)
	p := g.fresh("p")
	inner := s.child()
	inner.add(&local{name: p, t: at, hi: listCap})
	g.use("block-lambda")
	switch g.r.Intn(3) {
	case 0:
		xs := c.expr(s, listOf(at), eopt{depth: 2})
		lines := []string{c.line(fmt.Sprintf("let %s = List.map(%s, (%s) ->", name, xs.s, p))}
		lines = append(lines, lc.block(inner, bt, 1+g.r.Intn(2))...)
		lines = append(lines, c.line(")"))
		c.spend(max(1, xs.hi) * (*lc.cost + 1))
		s.add(&local{name: name, t: listOf(bt), lo: xs.lo, hi: xs.hi})
		return lines, true
	case 1:
		xs := c.expr(s, listOf(at), eopt{depth: 2})
		acc := g.fresh("acc")
		inner.add(&local{name: acc, t: bt, hi: listCap})
		init := c.expr(s, bt, eopt{depth: 2})
		lines := []string{c.line(fmt.Sprintf("let %s = List.fold(%s, %s, (%s, %s) ->", name, xs.s, init.s, acc, p))}
		lines = append(lines, lc.block(inner, bt, 1+g.r.Intn(2))...)
		lines = append(lines, c.line(")"))
		c.spend(max(1, xs.hi) * (*lc.cost + 1))
		s.add(&local{name: name, t: bt, hi: listCap})
		return lines, true
	default:
		lines := []string{c.line(fmt.Sprintf("let %s = (%s: %s) ->", name, p, at))}
		lines = append(lines, lc.block(inner, bt, 1+g.r.Intn(2))...)
		s.add(&local{name: name, t: funcOf([]*Type{at}, bt)})
		return lines, true
	}
}

// unionStmt builds values of the union alias (a list mixing its
// members, an if whose branches are different members) and matches them
// with typed patterns.
func (c *ctx) unionStmt(s *scope) ([]string, bool) {
	g := c.g
	if c.nest >= maxBlockNest {
		return nil, false
	}
	u := &Type{K: tUnion, D: g.union}
	g.use("union-values")
	g.unionUses++
	// Where the union is expected, an if may mix its members: no
	// mutation here is an error for sure.
	g.noSites++
	defer func() { g.noSites-- }()
	name := g.fresh("us")
	var parts []string
	for i := 0; i < 1+g.r.Intn(3); i++ {
		parts = append(parts, c.expr(s, pick(g, g.union.members), eopt{depth: 1}).s)
	}
	lines := []string{c.line(fmt.Sprintf("let %s: List(%s) = [%s]", name, g.union.name, strings.Join(parts, ", ")))}
	v := g.fresh("u")
	lines = append(lines, c.line("for "+v+" in "+name+":"))
	in := c.inner()
	lines = append(lines, in.line("match "+v+":"))
	for _, m := range g.union.members {
		n := g.fresh("n")
		lines = append(lines, in.inner().line(fmt.Sprintf("%s: %s -> println(%s)", n, m, n)))
	}
	one := g.fresh("u")
	lines = append(lines, c.line(fmt.Sprintf("let %s: %s = if %s: %s else: %s", one, g.union.name, c.expr(s, boolT, eopt{depth: 1}).s,
		c.expr(s, g.union.members[0], eopt{depth: 1}).s, c.expr(s, g.union.members[1], eopt{depth: 1}).s)))
	s.add(&local{name: one, t: u})
	return lines, true
}

// closureList puts lambdas (and named functions) in a list and calls
// each.
func (c *ctx) closureList(s *scope) ([]string, bool) {
	g := c.g
	if c.nest >= maxBlockNest {
		return nil, false
	}
	at, bt := c.someType(s), c.someType(s)
	if !bt.printable() {
		return nil, false
	}
	ft := funcOf([]*Type{at}, bt)
	g.use("closure-list")
	name := g.fresh("fs")
	var parts []string
	n := 1 + g.r.Intn(3)
	for i := 0; i < n; i++ {
		v, _ := c.funcArg(s, ft, eopt{depth: 2, anch: true})
		parts = append(parts, v.s)
	}
	lines := []string{c.line(fmt.Sprintf("let %s: List(%s) = [%s]", name, ft, strings.Join(parts, ", ")))}
	f := g.fresh("f")
	c.spend(n * lambdaBudget)
	lines = append(lines, c.line("for "+f+" in "+name+":"))
	lines = append(lines, c.inner().line("println("+f+"("+c.expr(s, at, eopt{depth: 1, anch: true}).s+"))"))
	s.add(&local{name: name, t: listOf(ft), lo: n, hi: n})
	return lines, true
}
