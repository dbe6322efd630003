package types

import (
	"fmt"
	"sort"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// Result obligations, the path rule of LANGUAGE.md §5.2.
//
// Every local that holds a Result-bearing value (a let binding, a pattern
// binding, a parameter) is an obligation from its binding on. The body of
// each function is interpreted abstractly in evaluation order; the state is
// the set of obligations still pending on the current path. An obligation is
// discharged when its value reaches a position that inspects or hands on the
// tag: a match with a refutable arm, let-else, `?`, `return`, the value of a
// function that returns a Result, `==`/`!=`, printing (print, println, show,
// interpolation), the Result combinators, a parameter that the callee's
// summary discharges, or a constructor, tuple, list or let that moves it into
// a value that is itself tracked. Metadata reads (List.len) and parameters the
// callee does not discharge leave it pending. Branches join by union (a
// Result is handled only if every completing branch handles it); a loop body
// may not run; code after an exit is not visited, so handling there does
// not count.
//
// Exits are the normal end of the body, `return`, the error path of `?`, a
// call that never returns (Process.exit, a Never-typed or always-exiting
// helper) and a call to a helper that may exit. A pending obligation at an
// exit is reported as `Result obligation remains unhandled on this exit`.
//
// Each function gets a summary: which parameters it discharges on every
// path, whether it always exits and whether it may exit. A strongly
// connected group is iterated to a fixed point before diagnostics are
// reported. The work (for every node visited, one unit plus one per pending
// obligation; for every state copied or joined, its size) is bounded per function by oblBudget; when the bound is reached
// the analysis reports it and grants no credit.

// oblBudget is the work budget of one function's analysis (§5.2).
const oblBudget = 400000

// oblSummary is what callers learn about a function.
type oblSummary struct {
	discharges  []bool // parameter i is discharged on every exit path
	alwaysExits bool   // no path returns to the caller
	mayExit     bool   // some path reaches a terminal exit
}

type oblState map[*Object]bool

func (s oblState) clone(a *oblFn) oblState {
	if s == nil {
		return nil
	}
	a.work += len(s) + 1
	out := make(oblState, len(s))
	for k := range s {
		out[k] = true
	}
	return out
}

// join merges the pending sets of two paths; nil is a path that exited.
func (a *oblFn) join(x, y oblState) oblState {
	if x == nil {
		return y
	}
	if y == nil {
		return x
	}
	a.work += len(y) + 1
	for k := range y {
		x[k] = true
	}
	return x
}

type oblLoop struct {
	out oblState // states leaving the loop through break or continue
}

// oblFn analyses one function or lambda body.
type oblFn struct {
	c         *Checker
	report    bool
	work      int
	overBudge bool
	reported  map[*Object]bool
	leaked    map[*Object]bool // obligations pending at some exit
	sawReturn bool
	mayExit   bool
	inDefer   int
	loops     []*oblLoop
	lambdas   []*ast.Lambda
}

func (c *Checker) tracked(o *Object) bool {
	return o != nil && o.Kind == ObjLocal && containsResult(o.Type)
}

// checkObligations runs the analysis over a finished group: summaries to a
// fixed point, then a reporting pass.
func (c *Checker) checkObligations(group []*FuncSig) {
	if c.oblSums == nil {
		c.oblSums = map[*FuncSig]*oblSummary{}
	}
	// Discharged parameters and always-exiting are greatest fixed points
	// (a recursive call is assumed to keep its promise, and the assumption is
	// checked on the paths that end); may-exit is a least fixed point.
	for _, sig := range group {
		d := make([]bool, len(sig.Params))
		for i := range d {
			d[i] = true
		}
		c.oblSums[sig] = &oblSummary{discharges: d, alwaysExits: true}
	}
	converged := false
	for iter := 0; iter < 16 && !converged; iter++ {
		changed := false
		for _, sig := range group {
			s, _ := c.analyseFunc(sig, false)
			old := c.oblSums[sig]
			if !sameSummary(old, s) {
				c.oblSums[sig] = s
				changed = true
			}
		}
		converged = !changed
	}
	if !converged {
		// No credit for what the iteration could not settle.
		for _, sig := range group {
			c.oblSums[sig] = &oblSummary{discharges: make([]bool, len(sig.Params)), mayExit: true}
		}
	}
	for _, sig := range group {
		_, a := c.analyseFunc(sig, true)
		// Lambdas are analysed on their own: their exits are the lambda's.
		for i := 0; i < len(a.lambdas); i++ {
			c.analyseLambda(a.lambdas[i], a)
		}
	}
}

func sameSummary(a, b *oblSummary) bool {
	if a.alwaysExits != b.alwaysExits || a.mayExit != b.mayExit || len(a.discharges) != len(b.discharges) {
		return false
	}
	for i := range a.discharges {
		if a.discharges[i] != b.discharges[i] {
			return false
		}
	}
	return true
}

func (c *Checker) analyseFunc(sig *FuncSig, report bool) (*oblSummary, *oblFn) {
	a := &oblFn{c: c, report: report, reported: map[*Object]bool{}, leaked: map[*Object]bool{}}
	fd := sig.Decl
	sum := &oblSummary{discharges: make([]bool, len(sig.Params))}
	if fd == nil || fd.Body == nil || isNilExpr(fd.Body) {
		return sum, a
	}
	st := oblState{}
	params := make([]*Object, len(fd.Params))
	for i, p := range fd.Params {
		if o := c.info.Defs[p]; c.tracked(o) {
			st[o] = true
			params[i] = o
		} else if p.Pattern != nil {
			a.bind(p.Pattern, st)
		}
	}
	retResult := containsResult(sig.Ret)
	end := a.eval(fd.Body, st, retResult)
	if end != nil {
		a.exit(lastSpan(fd.Body), end, true)
	}
	if a.overBudge {
		// No credit: nothing is discharged, and the function may exit.
		sum.mayExit = true
		return sum, a
	}
	for i, o := range params {
		sum.discharges[i] = o != nil && !a.leaked[o]
	}
	sum.alwaysExits = end == nil && !a.sawReturn
	sum.mayExit = a.mayExit
	return sum, a
}

func (c *Checker) analyseLambda(l *ast.Lambda, parent *oblFn) {
	a := &oblFn{c: c, report: true, reported: map[*Object]bool{}, leaked: map[*Object]bool{}}
	st := oblState{}
	for _, p := range l.Params {
		if p.Pattern != nil {
			a.bind(p.Pattern, st)
		}
	}
	retResult := false
	if f, ok := Resolve(c.info.Types[l]).(*Func); ok {
		retResult = containsResult(f.Ret)
	}
	end := a.eval(l.Body, st, retResult)
	if end != nil {
		a.exit(lastSpan(l.Body), end, true)
	}
	parent.lambdas = append(parent.lambdas, a.lambdas...)
}

// exit records the obligations pending at an exit and reports them.
func (a *oblFn) exit(sp source.Span, st oblState, atEnd bool) {
	if st == nil || a.inDefer > 0 {
		return
	}
	var pending []*Object
	for o := range st {
		a.leaked[o] = true
		if o.uses == 0 || a.reported[o] || o.poisoned {
			continue // never used: the unused-binding rule reports it
		}
		pending = append(pending, o)
	}
	if !a.report || len(pending) == 0 || a.overBudge {
		return
	}
	sort.Slice(pending, func(i, j int) bool {
		return pending[i].Decl.Span().Start < pending[j].Decl.Span().Start
	})
	o := pending[0]
	for _, p := range pending {
		a.reported[p] = true
	}
	d := a.c.errorf(ErrResultExit, sp, "Result obligation remains unhandled on this exit")
	if atEnd {
		d.Notes = []string{"'" + o.Name + "' holds a Result that is not handled on every path that reaches the end of the function"}
	} else {
		d.Notes = []string{"'" + o.Name + "' holds a Result that has not been matched, returned or passed on yet on this path"}
	}
	d.Hint = "handle it first, or register a handler with `defer`"
	if n, ok := Resolve(o.Type).(*Named); ok && n.Def != ResultDef {
		d.Hint = "'" + o.Name + "' is a " + n.Def.Name + " that carries Results inside; destructure it " +
			"(`let " + n.Def.Name + "(...) = ...`) or match it so each Result gets its own binding " +
			"(reading one field at a time is tracked only when it is the value's single Result)"
	}
}

// bind adds the Result-bearing names a pattern binds to st.
func (a *oblFn) bind(p ast.Pattern, st oblState) {
	if st == nil || p == nil {
		return
	}
	switch x := p.(type) {
	case *ast.BindPat, *ast.TypedPat:
		if o := a.c.info.Defs[x]; a.c.tracked(o) {
			st[o] = true
		}
	case *ast.TuplePat:
		for _, e := range x.Elems {
			a.bind(e, st)
		}
		a.bind(x.Rest, st)
	case *ast.ListPat:
		for _, e := range x.Elems {
			a.bind(e, st)
		}
		a.bind(x.Rest, st)
	case *ast.CtorPat:
		for _, e := range x.Args {
			a.bind(e, st)
		}
	}
}

// testsTag reports whether a pattern is refutable at some level, so a
// match with such an arm inspects its subject.
func testsTag(p ast.Pattern) bool {
	switch x := p.(type) {
	case *ast.WildcardPat, *ast.BindPat, nil:
		return false
	case *ast.TuplePat:
		for _, e := range x.Elems {
			if testsTag(e) {
				return true
			}
		}
		return false
	}
	return true
}

// dischargingBuiltins inspect or print their arguments (§5.2).
var dischargingBuiltins = map[string]bool{
	"print": true, "println": true, "show": true, "eq": true, "compare": true,
	"Result.is_ok": true, "Result.is_err": true, "Result.unwrap_or": true,
	"Result.unwrap_or_else": true, "Result.map": true, "Result.and_then": true,
}

func (a *oblFn) summary(sig *FuncSig) *oblSummary {
	if s := a.c.oblSums[sig]; s != nil {
		return s
	}
	return &oblSummary{discharges: make([]bool, len(sig.Params))}
}

// eval interprets n on the path state st and returns the state after it,
// or nil when no path completes n. consume says whether n's value is
// moved, inspected or handed on by its context.
func (a *oblFn) eval(n ast.Node, st oblState, consume bool) oblState {
	if st == nil || n == nil {
		return st
	}
	if e, ok := n.(ast.Expr); ok && isNilExpr(e) {
		return st
	}
	// Interpreting a node costs one unit per pending obligation it
	// carries along, plus one.
	a.work += 1 + len(st)
	if a.work > oblBudget {
		if !a.overBudge {
			a.overBudge = true
			if a.report {
				a.c.errorf(ErrResultBudget, n.Span(), "Result obligation analysis exceeded its work budget of 400000 units; no credit is granted").Hint =
					"split the function, or handle Results closer to where they are produced"
			}
		}
		return nil
	}
	c := a.c
	switch x := n.(type) {
	case *ast.Ident:
		if o := c.info.Uses[x]; consume && c.tracked(o) {
			delete(st, o)
		}
		return st
	case *ast.Paren:
		return a.eval(x.X, st, consume)
	case *ast.InterpString:
		for _, p := range x.Parts {
			st = a.eval(p.X, st, true)
		}
		return st
	case *ast.Tuple:
		for _, e := range x.Elems {
			st = a.eval(e, st, consume)
		}
		return st
	case *ast.ListLit:
		for _, e := range x.Elems {
			st = a.eval(e, st, consume)
		}
		return st
	case *ast.RecordUpdate:
		st = a.eval(x.X, st, consume)
		for _, f := range x.Fields {
			st = a.eval(f.Value, st, consume)
		}
		return st
	case *ast.FieldAccess:
		return a.eval(x.X, st, consume && a.onlyResultPart(x.X, x))
	case *ast.TupleIndex:
		return a.eval(x.X, st, consume && a.onlyResultPart(x.X, x))
	case *ast.Index:
		st = a.eval(x.X, st, false)
		return a.eval(x.I, st, false)
	case *ast.Unary:
		return a.eval(x.X, st, false)
	case *ast.Range:
		st = a.eval(x.Lo, st, false)
		return a.eval(x.Hi, st, false)
	case *ast.Binary:
		cmp := x.Op == "==" || x.Op == "!="
		st = a.eval(x.L, st, cmp)
		if x.Op == "and" || x.Op == "or" {
			r := a.eval(x.R, st.clone(a), false)
			return a.join(st, r)
		}
		return a.eval(x.R, st, cmp)
	case *ast.Try:
		st = a.eval(x.X, st, true)
		a.exit(x.Span(), st, false)
		return st
	case *ast.Return:
		st = a.eval(x.X, st, true)
		a.exit(x.Span(), st, false)
		a.sawReturn = true
		return nil
	case *ast.Break, *ast.Continue:
		if k := len(a.loops); k > 0 {
			a.loops[k-1].out = a.join(a.loops[k-1].out, st)
		}
		return nil
	case *ast.Lambda:
		a.lambdas = append(a.lambdas, x)
		a.captures(x, st)
		return st
	case *ast.Block:
		for i, s := range x.Stmts {
			st = a.stmt(s, st, consume && i == len(x.Stmts)-1)
			if st == nil {
				return nil
			}
		}
		return st
	case *ast.If:
		st = a.eval(x.Cond, st, false)
		if st == nil {
			return nil
		}
		t := a.eval(x.Then, st.clone(a), consume)
		e := st
		if x.Else != nil && !isNilExpr(x.Else) {
			e = a.eval(x.Else, st, consume)
		}
		return a.join(t, e)
	case *ast.Match:
		return a.match(x, st, consume)
	case *ast.Receive:
		var out oblState
		for _, arm := range x.Arms {
			s := st.clone(a)
			a.bind(arm.Pattern, s)
			s = a.eval(arm.Guard, s, false)
			out = a.join(out, a.eval(arm.Body, s, consume))
		}
		if x.After != nil {
			s := a.eval(x.After.Timeout, st.clone(a), false)
			out = a.join(out, a.eval(x.After.Body, s, consume))
		}
		return out
	case *ast.For:
		st = a.eval(x.Iter, st, true)
		if st == nil {
			return nil
		}
		body := st.clone(a)
		a.bind(x.Pattern, body)
		a.loops = append(a.loops, &oblLoop{})
		end := a.eval(x.Body, body, false)
		lp := a.loops[len(a.loops)-1]
		a.loops = a.loops[:len(a.loops)-1]
		return a.join(a.join(st, end), lp.out)
	case *ast.Call:
		return a.call(x, st, consume)
	case *ast.With:
		return st // unsupported; reported elsewhere
	}
	return st
}

func (a *oblFn) match(x *ast.Match, st oblState, consume bool) oblState {
	if x.Subject == nil || isNilExpr(x.Subject) {
		// Condition match: each condition runs after the previous failed.
		var out oblState
		for _, arm := range x.Arms {
			if st == nil {
				break
			}
			st = a.eval(arm.Cond, st, false)
			if st == nil {
				break
			}
			s := a.eval(arm.Guard, st.clone(a), false)
			out = a.join(out, a.eval(arm.Body, s, consume))
		}
		return out
	}
	inspects := false
	for _, arm := range x.Arms {
		if testsTag(arm.Pattern) {
			inspects = true
		}
	}
	// A match whose arms are all `_` or bindings on a Result is reported as
	// such (E5005); the obligation it leaves pending is not reported again
	// at the exits (§9: follow-on).
	wildOnly := wildcardOnlyResultMatch(a.c.info.Types[x.Subject], x.Arms)
	if wildOnly {
		if id, ok := unparen(x.Subject).(*ast.Ident); ok {
			if o := a.c.info.Uses[id]; a.c.tracked(o) {
				a.reported[o] = true
			}
		}
	}
	st = a.eval(x.Subject, st, inspects)
	if st == nil {
		return nil
	}
	var out oblState
	for _, arm := range x.Arms {
		s := st.clone(a)
		if wildOnly {
			patBinds(arm.Pattern, func(p ast.Pattern) {
				if o := a.c.info.Defs[p]; a.c.tracked(o) {
					a.reported[o] = true
				}
			})
		}
		a.bind(arm.Pattern, s)
		s = a.eval(arm.Guard, s, false)
		out = a.join(out, a.eval(arm.Body, s, consume))
	}
	return out
}

func (a *oblFn) stmt(s ast.Stmt, st oblState, consume bool) oblState {
	switch x := s.(type) {
	case *ast.LetStmt:
		_, wild := x.Pattern.(*ast.WildcardPat)
		st = a.eval(x.Value, st, !wild)
		if st == nil {
			return nil
		}
		if x.Else != nil && !isNilExpr(x.Else) {
			a.eval(x.Else, st.clone(a), false)
		}
		a.bind(x.Pattern, st)
		return st
	case *ast.DeferStmt:
		// The handler runs at every later exit, so what it handles is
		// handled on every path from here on.
		a.inDefer++
		after := a.eval(x.X, st.clone(a), false)
		a.inDefer--
		if after != nil {
			return after
		}
		return st
	case *ast.ExprStmt:
		if x.Cond != nil && !isNilExpr(x.Cond) {
			st = a.eval(x.Cond, st, false)
			if st == nil {
				return nil
			}
			return a.join(a.eval(x.X, st.clone(a), false), st)
		}
		return a.eval(x.X, st, consume)
	}
	if e, ok := s.(ast.Expr); ok {
		return a.eval(e, st, consume)
	}
	return st
}

func (a *oblFn) call(x *ast.Call, st oblState, consume bool) oblState {
	c := a.c
	var o *Object
	switch f := x.Fn.(type) {
	case *ast.Ident:
		o = c.info.Uses[f]
	case *ast.Path:
		o = c.info.Uses[f]
	default:
		st = a.eval(x.Fn, st, false)
	}
	resBearing := containsResult(c.info.Types[x])
	idx := c.info.CallArgs[x]
	for i, arg := range x.Args {
		if arg == nil || arg.Value == nil {
			continue
		}
		pi := i
		if idx != nil && i < len(idx) {
			pi = idx[i]
		}
		if pi < 0 {
			pi = len(x.Args) + 1<<20 // an argument with an unknown label
		}
		take := resBearing
		var sig *FuncSig
		switch {
		case o == nil:
		case o.Kind == ObjCtor:
			take = consume
		case o.Kind == ObjBuiltin:
			switch {
			case dischargingBuiltins[o.Builtin]:
				take = true
			case o.Builtin == "List.len" || o.Builtin == "List.is_empty":
				take = false
			}
		case o.Kind == ObjFunc && o.Func != nil:
			sig = o.Func
			sum := a.summary(sig)
			take = false
			if pi < len(sum.discharges) && sum.discharges[pi] {
				take = true
			} else if pi < len(sig.Params) && resBearing && isGenericParam(sig.Params[pi].Type) {
				take = true
			}
		}
		st = a.eval(arg.Value, st, take)
		if st == nil {
			return nil
		}
		// A Result passed to a generic parameter the callee drops is lost
		// here; a Result-typed parameter it drops is reported in the callee.
		dropped := sig != nil && pi < len(sig.Params) && isGenericParam(sig.Params[pi].Type)
		metadata := o != nil && o.Kind == ObjBuiltin && (o.Builtin == "List.len" || o.Builtin == "List.is_empty")
		if !take && (dropped || metadata) && a.report && a.inDefer == 0 && producesResult(c, arg.Value) {
			d := c.errorf(ErrResultDiscarded, arg.Value.Span(), "Result value must be handled; bind, return, or match it")
			if dropped {
				d.Notes = []string{"'" + sig.Name + "' does not handle its parameter '" + sig.Params[pi].Name + "' on every path"}
			} else {
				d.Notes = []string{o.Builtin + " reads metadata only; it does not handle the Results inside"}
			}
		}
	}
	if o != nil && o.Kind == ObjFunc && o.Func != nil {
		// A helper that may reach a terminal exit is an exit of this
		// function too; one that never returns ends the path.
		sum := a.summary(o.Func)
		if sum.mayExit {
			a.exit(x.Span(), st, false)
			if a.inDefer == 0 {
				a.mayExit = true
			}
		}
		if sum.alwaysExits || isNever(c.info.Types[x]) {
			return nil
		}
		return st
	}
	if isNever(c.info.Types[x]) {
		a.exit(x.Span(), st, false)
		if a.inDefer == 0 {
			a.mayExit = true
		}
		return nil
	}
	return st
}

func isGenericParam(t Type) bool {
	switch Resolve(t).(type) {
	case *TParam, *TVar:
		return true
	}
	return false
}

// producesResult reports whether e is a call or constructor whose value is
// a fresh Result-bearing value.
func producesResult(c *Checker, e ast.Expr) bool {
	for {
		p, ok := e.(*ast.Paren)
		if !ok {
			break
		}
		e = p.X
	}
	switch x := e.(type) {
	case *ast.Call:
		return containsResult(c.info.Types[e])
	case *ast.ListLit:
		for _, el := range x.Elems {
			if producesResult(c, el) {
				return true
			}
		}
	case *ast.Tuple:
		for _, el := range x.Elems {
			if producesResult(c, el) {
				return true
			}
		}
	}
	return false
}

// captures rejects a closure that captures a Result whose duty is still
// pending (§3.5, §5.2); a Result handled before the closure is created may
// be captured.
func (a *oblFn) captures(l *ast.Lambda, st oblState) {
	seen := map[*Object]bool{}
	walk(l.Body, func(n ast.Node) {
		id, ok := n.(*ast.Ident)
		if !ok {
			return
		}
		o := a.c.info.Uses[id]
		if !a.c.tracked(o) || !st[o] || seen[o] || o.poisoned {
			return
		}
		seen[o] = true
		if a.report && !a.overBudge {
			a.c.errorf(ErrResultCapture, id.Span(), "capturing Result-bearing values in closures is currently unsupported; handle the Result before capturing").Notes =
				[]string{fmt.Sprintf("'%s' has type %s and is not handled yet", o.Name, Zonk(o.Type))}
		}
		a.reported[o] = true
		a.leaked[o] = true
		delete(st, o)
	})
}

// onlyResultPart reports whether part (a field or element read of base)
// is the only Result-bearing component of base's type, so that handling
// the part handles everything base carries.
func (a *oblFn) onlyResultPart(base ast.Expr, part ast.Expr) bool {
	c := a.c
	if !containsResult(c.info.Types[part]) {
		return false
	}
	n := 0
	switch t := Resolve(c.info.Types[base]).(type) {
	case *Tuple:
		for _, e := range t.Elems {
			if containsResult(e) {
				n++
			}
		}
	case *Named:
		if len(t.Def.Ctors) != 1 || t.Def == ResultDef {
			return false
		}
		for i := range t.Def.Ctors[0].Fields {
			if containsResult(c.fieldType(t, i)) {
				n++
			}
		}
	default:
		return false
	}
	return n == 1
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}
