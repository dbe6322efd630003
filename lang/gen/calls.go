package gen

import (
	"fmt"
	"strings"
)

// unify matches pattern (which may mention the type variables in vars)
// against t, extending bind.
func unify(pattern, t *Type, vars []string, bind map[string]*Type) bool {
	if pattern.K == tVar && contains(vars, pattern.Name) {
		if b, ok := bind[pattern.Name]; ok {
			return b.equal(t)
		}
		bind[pattern.Name] = t
		return true
	}
	if pattern.K != t.K || len(pattern.Args) != len(t.Args) || pattern.D != t.D || pattern.Name != t.Name {
		return false
	}
	for i := range pattern.Args {
		if !unify(pattern.Args[i], t.Args[i], vars, bind) {
			return false
		}
	}
	return true
}

// callSome calls a user function whose result has type t.
func (c *ctx) callSome(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	type cand struct {
		f    *fnInfo
		bind map[string]*Type
	}
	var cands []cand
	for _, f := range g.funcs {
		if !c.mayCall(f) || f.takesResultCallback() || f.noAuto {
			continue
		}
		bind := map[string]*Type{}
		if !unify(f.ret, t, f.tvars, bind) {
			continue
		}
		makeable := true
		for _, p := range f.params {
			pt := p.t.subst(bind)
			if pt.K != tResult && pt.K != tFunc && !pt.hasVar() && !c.canMake(s, pt) {
				makeable = false
			}
			if pt.hasVar() && len(f.tvars) > 0 {
				// unbound variables get a data type later
				for _, v := range f.tvars {
					if b, ok := bind[v]; ok && !c.canMake(s, b) && p.t.any(func(u *Type) bool { return u.K == tVar && u.Name == v }) && p.t.K != tVar {
						makeable = false
					}
				}
			}
		}
		if !makeable {
			continue
		}
		if f.req != nil {
			okReq := true
			for _, b := range bind {
				okReq = okReq && f.req(b)
			}
			if !okReq {
				continue
			}
		}
		cands = append(cands, cand{f, bind})
	}
	if len(cands) == 0 {
		return val{}, false
	}
	k := pick(g, cands)
	return c.call(s, k.f, k.bind, o), true
}

// call writes a call of f with the type variables bound by bind (the
// rest are chosen here).
func (c *ctx) call(s *scope, f *fnInfo, bind map[string]*Type, o eopt) val {
	g := c.g
	for _, v := range f.tvars {
		if _, ok := bind[v]; !ok {
			bind[v] = g.dataType(1)
			for i := 0; f.req != nil && !f.req(bind[v]) && i < 20; i++ {
				bind[v] = g.dataType(1)
			}
			if f.req != nil && !f.req(bind[v]) {
				bind[v] = intT
			}
		}
	}
	if len(f.tvars) > 0 {
		g.use("generic-call")
	}
	c.spend(f.cost)
	if f.effect && c.fn != nil {
		c.fn.effect = true
	}
	if f.mailbox != nil && c.fn != nil && c.fn.mailbox == nil {
		c.fn.mailbox = f.mailbox
	}
	args := make([]val, len(f.params))
	d := o.down()
	for i, p := range f.params {
		pt := p.t.subst(bind)
		switch {
		case i == 0 && f.counter:
			args[i] = atom(c.counterArg(s))
		case pt.K == tResult:
			args[i] = c.resultExpr(s, pt, d.anchored())
		case pt.K == tFunc:
			fo := d
			fo.anch = !p.t.hasVar()
			args[i], _ = c.funcArg(s, pt, fo)
		default:
			ao := d
			// An argument fixes a type variable of the callee only through
			// itself; a concrete parameter anchors it.
			ao.anch = !p.t.hasVar()
			args[i] = c.expr(s, pt, ao)
		}
		if p.annotated && !p.t.hasVar() && pt.scalar() && g.pct(30) {
			args[i].s = g.mark(mutWrongArg, args[i].s, wrongScalar(pt), fmt.Sprintf("argument %d of %s has type %s", i+1, f.name, pt))
		}
	}
	return c.renderCall(f, args)
}

// counterArg is the recursion counter a caller passes: always small.
func (c *ctx) counterArg(s *scope) string {
	g := c.g
	if g.chance(2) {
		return fmt.Sprint(g.r.Intn(recDepth))
	}
	return fmt.Sprintf("(%s %% %d)", c.expr(s, intT, eopt{depth: 1}).paren(), recDepth)
}

// wrongScalar is a scalar literal whose type differs from t.
func wrongScalar(t *Type) string {
	switch t.K {
	case tInt:
		return `"not an int"`
	case tString:
		return "404"
	case tBool:
		return `"yes"`
	case tFloat:
		return "true"
	}
	return "1.5"
}

// renderCall writes the call with labels (docs/reference/syntax.md#calls): required labels are
// always written, optional ones sometimes; positional arguments first,
// labeled ones in any order; sometimes as a pipe, with the piped value
// in the first slot or in a `_` slot.
func (c *ctx) renderCall(f *fnInfo, vals []val) val {
	args := make([]string, len(vals))
	for i, v := range vals {
		args[i] = v.s
	}
	g := c.g
	n := len(f.params)
	maxPos := 0
	for maxPos < n && !f.params[maxPos].needLabel {
		maxPos++
	}
	minPos := 0
	for i, p := range f.params {
		if p.pat != "" {
			minPos = i + 1
		}
	}
	if maxPos < minPos {
		panic("gen: pattern parameter after a labeled one")
	}
	k := minPos + g.r.Intn(maxPos-minPos+1)
	multi := false
	for _, a := range args {
		multi = multi || strings.Contains(a, "\n")
	}
	pipeSlot := -1
	if n > 0 && !multi && g.chance(6) {
		pipeSlot = g.r.Intn(n)
	}
	// exempt: the piped value fills a first parameter that needs a label.
	exempt := pipeSlot == 0 && k == 0 && g.chance(2)
	if pipeSlot >= 0 {
		// The piped value sits in front of `|>`: a lambda or an operator
		// expression there needs parentheses.
		args[pipeSlot] = vals[pipeSlot].paren()
	}
	order := []int{}
	for i := k; i < n; i++ {
		if exempt && i == 0 {
			continue
		}
		order = append(order, i)
	}
	g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var parts []string
	piped := ""
	for i := 0; i < k; i++ {
		a := args[i]
		if i == pipeSlot {
			piped = a
			if i == 0 {
				continue // `x |> f(rest)`
			}
			a = "_"
		}
		parts = append(parts, a)
	}
	if exempt {
		piped = args[0]
		g.use("pipe-first-labeled")
	}
	for _, i := range order {
		p := f.params[i]
		a := args[i]
		if i == pipeSlot {
			piped, a = a, "_"
		}
		lab := p.callLabel() + ": "
		// The `_` slot of a pipe needs no label (the piped value is
		// exempt), so dropping it there breaks nothing.
		if p.needLabel && i != pipeSlot {
			g.use("mandatory-label")
			why := "a parameter whose type another parameter shares"
			if p.t.K == tBool {
				why = "a Bool parameter"
			}
			lab = g.mark(mutUnlabeled, lab, "", fmt.Sprintf("drops the required label %s of %s (%s)", p.callLabel(), f.name, why))
		} else {
			g.use("optional-label")
		}
		parts = append(parts, lab+a)
	}
	if len(order) > 0 {
		g.use("labeled-call")
	}
	call := f.name + "(" + strings.Join(parts, ", ") + ")"
	if pipeSlot >= 0 {
		g.use("pipe")
		if !(pipeSlot == 0 && (k > 0 || exempt)) {
			g.use("pipe-placeholder")
		}
		if len(parts) == 0 && g.chance(2) {
			call = f.name
		}
		return atom("(" + piped + " |> " + call + ")")
	}
	return atom(call)
}

// unionCall passes an Int or a String where the union alias is expected.
func (c *ctx) unionCall(s *scope, o eopt) (val, bool) {
	g := c.g
	f := g.unionShowFn()
	m := pick(g, g.union.members)
	g.use("union-alias")
	g.unionUses++
	c.spend(f.cost)
	// Where the union is expected, an if may mix its members, so no
	// mutation inside the argument is an error for sure.
	g.noSites++
	arg := c.expr(s, m, o.down())
	g.noSites--
	return atom(f.name + "(" + arg.s + ")"), true
}

// unionShowFn is `fn describe(u: U) -> String` with typed narrowing
// patterns.
func (g *gen) unionShowFn() *fnInfo {
	if g.unionShow != nil {
		return g.unionShow
	}
	name := g.fresh("describe")
	f := &fnInfo{name: name, ret: stringT, annRet: true, cost: 2, role: "union"}
	f.params = []*param{{name: "u", t: &Type{K: tUnion, D: g.union}, annotated: true}}
	f.lines = []string{
		fmt.Sprintf("fn %s(u: %s) -> String:", name, g.union.name),
		"    match u:",
		`        n: Int -> "int {n}"`,
		`        s: String -> "string " + s`,
	}
	g.unionShow = f
	g.use("typed-pattern")
	g.funcs = append(g.funcs, f)
	return f
}

// takesResultCallback: a parameter is a function that receives a Result;
// only the container forms call such a function, with a callback that
// handles it.
func (f *fnInfo) takesResultCallback() bool {
	for _, p := range f.params {
		if p.t.K == tFunc {
			for _, a := range p.t.params() {
				if a.hasResult() {
					return true
				}
			}
		}
	}
	return false
}
