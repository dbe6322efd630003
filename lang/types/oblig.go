package types

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Result obligations, the path rule of docs/reference/checks.md#result-obligations.
//
// Every local that holds a Result-bearing value (a let binding, a pattern
// binding, a function or lambda parameter) is an obligation from its
// binding on. The body of each function and lambda is interpreted
// abstractly in evaluation order; the state is the set of obligations
// still pending on the current path. A pending obligation is a local or a
// part of one: handling one Result-bearing field of a record or element
// of a tuple (`job.result`, `pair.1`, `batch.first.retry`) splits the
// local into its other Result-bearing parts, which stay pending on their
// own.
//
// An obligation is discharged when its value reaches a position that
// inspects or hands on the tag: a match with a refutable arm, or whose
// arms all bind the whole value (the bindings take the duty over),
// let-else, `?`, `return`, the value of a function that returns a Result,
// `==`/`!=`, printing (print, println, show, interpolation), the Result
// combinators (is_ok/is_err only when the payloads carry no Result), a
// parameter that the callee's summary discharges, a callback of List.map,
// List.filter, List.fold or Option.map that handles what it is given, a
// for loop whose body can go on to the next element (each element moves
// into the loop pattern), or a constructor, tuple, list or let that moves
// it into a value that is itself tracked. Metadata reads (List.len),
// builtins that keep only part of a list (List.head, List.find, ...) and
// parameters the callee does not discharge leave it pending. Branches join
// by union (a Result is handled only if every completing branch handles
// it); a loop body may not run; code after an exit is not visited, so
// handling there does not count.
//
// Exits are the normal end of the body, `return`, the error path of `?`, a
// call that never returns (Process.exit, a Never-typed or always-exiting
// helper) and a call to a helper that may exit. A pending obligation at an
// exit is reported as `Result obligation remains unhandled on this exit`
// (E5007), or, for a pattern binding never used at all, as E5009 at the
// binding. A for loop over Results whose body never goes on to the next
// element handles only the first one (E5010).
//
// Each function gets a summary: which parameters it discharges on every
// path, whether it always exits and whether it may exit. A strongly
// connected group is iterated to a fixed point before diagnostics are
// reported. The work (for every node visited, one unit plus one per
// pending obligation; for every state copied, joined or split, its size)
// is bounded per function by oblBudget; when the bound is reached the
// analysis reports it and grants no credit.

// oblBudget is the work budget of one function's analysis (docs/reference/checks.md#result-obligations).
const oblBudget = 400000

// oblSummary is what callers learn about a function.
type oblSummary struct {
	discharges  []bool // parameter i is discharged on every exit path
	alwaysExits bool   // no path returns to the caller
	mayExit     bool   // some path reaches a terminal exit
}

// oblKey is one pending duty: a local, or a part of it. path is "" for
// the whole value, else the dotted field or element indexes of a part
// ("1", "0.2"): reading and handling one Result-bearing field of a record
// or tuple splits the local into its other Result-bearing parts.
type oblKey struct {
	o    *Object
	path string
}

type oblState map[oblKey]bool

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

// add makes the whole of o pending.
func (s oblState) add(o *Object) { s[oblKey{o, ""}] = true }

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
	brk  oblState // states leaving the loop through break
	cont oblState // states going on to the next iteration through continue
	// temp marks a loop over a temporary list of Results; leaves are the
	// exits (return, ?, terminal calls) reached inside its body.
	temp   bool
	leaves []source.Span
}

// oblLoopList is a tracked list that a for loop iterates: while the body
// runs the list stays pending (later elements are not handled yet), so an
// exit inside the body, or after a break that nothing handles later,
// reports the loop (E5010).
type oblLoopList struct {
	span   source.Span // the loop head
	always bool        // every path through the body leaves the loop
	name   string
	// inBody is set while the loop's body is analysed; an exit there is
	// reported once the body is done (always is known then).
	inBody bool
	exit   source.Span
	hit    bool
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
	// why explains, in the exit diagnostic, a use that looked like
	// handling but was not (List.head(xs), Result.is_ok on a nested Result).
	why map[*Object]string
	// split holds the locals that have been split into parts on some
	// path; only their keys need a scan of the state.
	split map[*Object]bool
	// loopLists are the tracked lists iterated by the loops seen so far.
	loopLists map[oblKey]*oblLoopList
}

// pending reports whether any part of o is pending on st.
func (a *oblFn) pending(st oblState, o *Object) bool {
	if st[oblKey{o, ""}] {
		return true
	}
	if !a.split[o] {
		return false
	}
	a.work += len(st)
	for k := range st {
		if k.o == o {
			return true
		}
	}
	return false
}

// mark sets (*m)[o], making the map on first use: most functions have no
// Result obligations, and their analysis writes none of these maps.
func mark(m *map[*Object]bool, o *Object) {
	if *m == nil {
		*m = map[*Object]bool{}
	}
	(*m)[o] = true
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
	if !c.recursive && len(group) == 1 {
		// A function that does not call itself never reads its own
		// summary: one pass, which reports, gives the summary the fixed
		// point below would reach (the summary does not depend on
		// reporting).
		s, a := c.analyseFunc(group[0], true)
		c.oblSums[group[0]] = s
		for i := 0; i < len(a.lambdas); i++ {
			c.analyseLambda(a.lambdas[i], a)
		}
		return
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
	a := &oblFn{c: c, report: report}
	fd := sig.Decl
	sum := &oblSummary{discharges: make([]bool, len(sig.Params))}
	if fd == nil || ast.IsNil(fd.Body) {
		return sum, a
	}
	st := oblState{}
	params := make([]*Object, len(fd.Params))
	for i, p := range fd.Params {
		if o := c.info.Defs[p]; c.tracked(o) {
			st.add(o)
			params[i] = o
		} else if p.Pattern != nil {
			a.bind(p.Pattern, st)
			if report {
				c.checkNestedWildcards(p.Pattern, 0)
			}
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
	a := &oblFn{c: c, report: true}
	st := oblState{}
	for _, p := range l.Params {
		if p.Pattern != nil {
			a.bind(p.Pattern, st)
			c.checkNestedWildcards(p.Pattern, 0)
		} else if o := c.info.Defs[p]; c.tracked(o) && o.Name != "_" {
			// A callback's Result parameter is an obligation like any
			// other: a callback that only reads its metadata drops it.
			st.add(o)
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
	for _, lp := range a.loops {
		if lp.temp {
			lp.leaves = append(lp.leaves, sp)
		}
	}
	var pending []oblKey
	var loops []oblKey
	for k := range st {
		if ll := a.loopLists[k]; ll != nil && !a.reported[k.o] && !k.o.poisoned {
			loops = append(loops, k)
			continue
		}
		mark(&a.leaked, k.o)
		if a.reported[k.o] || k.o.poisoned {
			continue
		}
		if k.o.uses == 0 {
			if k.o.result {
				continue // an unused let or parameter: E5002/E5003 report it
			}
			// A pattern binding that is never used drops its Result.
			mark(&a.reported, k.o)
			if a.report && !a.overBudge {
				a.c.errorf(ErrResultUnusedPat, k.o.Decl.Span(), "Result value must be handled; the pattern binding '%s' is never used", k.o.Name).Hint =
					"match on it, return it or pass it on; a pattern cannot discard a Result"
			}
			continue
		}
		pending = append(pending, k)
	}
	if len(loops) > 0 {
		sort.Slice(loops, func(i, j int) bool { return a.loopLists[loops[i]].span.Start < a.loopLists[loops[j]].span.Start })
		for _, k := range loops {
			mark(&a.reported, k.o)
		}
		if ll := a.loopLists[loops[0]]; ll.inBody {
			if !ll.hit {
				ll.hit, ll.exit = true, sp
			}
		} else if a.report && !a.overBudge {
			a.loopError(ll, sp, atEnd)
		}
	}
	if !a.report || len(pending) == 0 || a.overBudge {
		return
	}
	sort.Slice(pending, func(i, j int) bool {
		si, sj := pending[i].o.Decl.Span().Start, pending[j].o.Decl.Span().Start
		return si < sj || si == sj && pending[i].path < pending[j].path
	})
	k := pending[0]
	for _, p := range pending {
		mark(&a.reported, p.o)
	}
	name := a.partName(k)
	d := a.c.errorf(ErrResultExit, sp, "Result obligation remains unhandled on this exit")
	if atEnd {
		d.Notes = []string{"'" + name + "' holds a Result that is not handled on every path that reaches the end of the function"}
	} else {
		d.Notes = []string{"'" + name + "' holds a Result that has not been matched, returned or passed on yet on this path"}
	}
	if why := a.why[k.o]; why != "" {
		d.Notes = append(d.Notes, why)
	}
	d.Hint = "handle it first, or register a handler with `defer`"
	if k.o.initX != nil && k.path == "" {
		a.c.resultOrigin(d, k.o.initX)
	}
}

// loopError reports a loop over a list of Results that a path leaves
// before every element is handled; the path ends at the exit sp.
func (a *oblFn) loopError(ll *oblLoopList, sp source.Span, atEnd bool) {
	c := a.c
	var d *diag.Diagnostic
	if ll.always {
		d = c.errorf(ErrResultLoopFirst, ll.span, "Result value must be handled; this loop handles only the first element of %s", ll.name)
		d.Notes = []string{"every path through the body leaves the loop (return, break or an exit), so the Results after the first are never handled"}
	} else {
		d = c.errorf(ErrResultLoopFirst, ll.span, "Result value must be handled; this loop can leave before handling every element of %s", ll.name)
		d.Notes = []string{"a path leaves the loop early (return, `?`, break or an exit), and the Results after that element are never handled"}
	}
	if atEnd {
		d.Notes = append(d.Notes, "after a break, nothing handles the rest of the list before the function ends")
	} else {
		d.Related = []diag.Related{{Span: sp, Message: "the function exits here with the rest of the list unhandled"}}
	}
	d.Hint = "let the body go on to the next element on every path (collect the errors instead of leaving), or hand the list on (return it, or pass it to a function that handles it)"
	if ll.always {
		d.Hint = "handle every element (let the body go on to the next one), or match the list with `[first, ..rest]` and handle `rest`"
	}
}

// partName renders a pending part for a diagnostic: `job`, `job.result`,
// `pair.1`.
func (a *oblFn) partName(k oblKey) string {
	name := k.o.Name
	if k.path == "" {
		return name
	}
	t := k.o.Type
	for _, comp := range strings.Split(k.path, ".") {
		i, _ := strconv.Atoi(comp)
		label := comp
		if n, ok := Resolve(t).(*Named); ok && len(n.Def.Ctors) == 1 && i < len(n.Def.Ctors[0].FieldNames) && n.Def.Ctors[0].FieldNames[i] != "" {
			label = n.Def.Ctors[0].FieldNames[i]
		}
		name += "." + label
		t = a.c.partType(t, i)
	}
	return name
}

// bind adds the Result-bearing names a pattern binds to st.
func (a *oblFn) bind(p ast.Pattern, st oblState) {
	if st == nil {
		return
	}
	patBinds(p, func(q ast.Pattern) {
		if o := a.c.info.Defs[q]; a.c.tracked(o) {
			st.add(o)
		}
	})
}

// bindsWhole reports whether an irrefutable pattern hands every part of
// its value to a binding: a name, or a tuple of such patterns (a `_`
// inside it that drops a Result is reported as E5006).
func bindsWhole(p ast.Pattern) bool {
	switch x := p.(type) {
	case *ast.BindPat:
		return true
	case *ast.TuplePat:
		for _, e := range x.Elems {
			if _, w := e.(*ast.WildcardPat); !w && !bindsWhole(e) {
				return false
			}
		}
		return true
	}
	return false
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

// dischargingBuiltins inspect or print their arguments (docs/reference/checks.md#result-obligations).
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
	if st == nil || ast.IsNil(n) {
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
			a.handle(st, o, "")
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
		a.replaced(x, st)
		st = a.eval(x.X, st, consume)
		for _, f := range x.Fields {
			st = a.eval(f.Value, st, consume)
		}
		return st
	case *ast.FieldAccess, *ast.TupleIndex:
		if consume && containsResult(c.info.Types[x.(ast.Expr)]) {
			if o, path, ok := a.pathOf(x.(ast.Expr)); ok {
				// Handling one part of a local handles that part only.
				a.handle(st, o, path)
				return st
			}
		}
		var base ast.Expr
		if f, ok := x.(*ast.FieldAccess); ok {
			base = f.X
		} else {
			base = x.(*ast.TupleIndex).X
		}
		return a.eval(base, st, consume && a.onlyResultPart(base, x.(ast.Expr)))
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
	case *ast.Break:
		if k := len(a.loops); k > 0 {
			a.loops[k-1].brk = a.join(a.loops[k-1].brk, st)
		}
		return nil
	case *ast.Continue:
		if k := len(a.loops); k > 0 {
			a.loops[k-1].cont = a.join(a.loops[k-1].cont, st)
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
		if !ast.IsNil(x.Else) {
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
		return a.forLoop(x, st)
	case *ast.Call:
		return a.call(x, st, consume)
	case *ast.With:
		return a.with(x, st, consume)
	}
	return st
}

func (a *oblFn) match(x *ast.Match, st oblState, consume bool) oblState {
	if ast.IsNil(x.Subject) {
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
	// The subject is handled when an arm tests it, or moved into the arms'
	// bindings when every arm binds all of it (`match r: result -> …`):
	// the bindings are then obligations of their own.
	inspects, moves := false, len(x.Arms) > 0
	for _, arm := range x.Arms {
		if testsTag(arm.Pattern) {
			inspects = true
		}
		if !bindsWhole(arm.Pattern) {
			moves = false
		}
	}
	inspects = inspects || moves
	// A match whose arms are all `_` or bindings on a Result is reported as
	// such (E5005); the obligation it leaves pending is not reported again
	// at the exits (docs/diagnostics.md: follow-on).
	wildOnly := wildcardOnlyResultMatch(a.c.info.Types[x.Subject], x.Arms)
	if wildOnly {
		if id, ok := unparen(x.Subject).(*ast.Ident); ok {
			if o := a.c.info.Uses[id]; a.c.tracked(o) {
				mark(&a.reported, o)
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
					mark(&a.reported, o)
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
		if !ast.IsNil(x.Else) {
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
		if !ast.IsNil(x.Cond) {
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
		why := "" // why a builtin does not handle this argument
		var sig *FuncSig
		switch {
		case o == nil:
		case o.Kind == ObjCtor:
			take = consume
		case o.Kind == ObjBuiltin:
			why = a.builtinUse(x, o.Builtin, pi, resBearing)
			take = why == ""
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
		if why != "" {
			a.explain(arg.Value, why)
		}
		st = a.eval(arg.Value, st, take)
		if st == nil {
			return nil
		}
		// A Result passed to a generic parameter the callee drops is lost
		// here; a Result-typed parameter it drops is reported in the callee.
		dropped := sig != nil && pi < len(sig.Params) && isGenericParam(sig.Params[pi].Type)
		if !take && (dropped || why != "") && a.report && a.inDefer == 0 && producesResult(c, arg.Value) {
			d := c.errorf(ErrResultDiscarded, arg.Value.Span(), "Result value must be handled; bind, return, or match it")
			d.Hint = "handle it before the call (bind it and match it), or pass it to a function that handles it"
			if dropped {
				d.Notes = []string{"'" + sig.Name + "' does not handle its parameter '" + sig.Params[pi].Name + "' on every path"}
			} else {
				d.Notes = []string{why}
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
// pending (docs/reference/syntax.md#lambdas-and-function-values, docs/reference/checks.md#result-obligations); a Result handled before the closure is created may
// be captured.
func (a *oblFn) captures(l *ast.Lambda, st oblState) {
	if len(st) == 0 {
		return // nothing pending to capture (and nested lambdas stay linear)
	}
	seen := map[*Object]bool{}
	walk(l.Body, func(n ast.Node) {
		id, ok := n.(*ast.Ident)
		if !ok {
			return
		}
		o := a.c.info.Uses[id]
		if !a.c.tracked(o) || seen[o] || o.poisoned || !a.pending(st, o) {
			return
		}
		seen[o] = true
		if a.report && !a.overBudge {
			a.c.errorf(ErrResultCapture, id.Span(), "capturing Result-bearing values in closures is currently unsupported; handle the Result before capturing").Notes =
				[]string{fmt.Sprintf("'%s' has type %s and is not handled yet", o.Name, Zonk(o.Type))}
		}
		mark(&a.reported, o)
		mark(&a.leaked, o)
		a.handle(st, o, "")
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

// with interprets a `with` chain (docs/reference/syntax.md#result-propagation): each step's Result is inspected,
// like `?`; its Ok payload is bound by the step's pattern. A failing step
// leaves the chain with the state of that point (the bindings of earlier
// steps included), through the else arms when there are some; otherwise
// the Err is the chain's value.
func (a *oblFn) with(x *ast.With, st oblState, consume bool) oblState {
	var fail oblState
	for _, step := range x.Steps {
		st = a.eval(step.X, st, true)
		if st == nil {
			break
		}
		fail = a.join(fail, st.clone(a))
		a.bind(step.Pattern, st)
	}
	end := a.eval(x.Body, st, consume)
	if len(x.ElseArms) == 0 {
		return a.join(end, fail)
	}
	var out oblState
	for _, arm := range x.ElseArms {
		if fail == nil {
			break
		}
		s := fail.clone(a)
		a.bind(arm.Pattern, s)
		s = a.eval(arm.Guard, s, false)
		out = a.join(out, a.eval(arm.Body, s, consume))
	}
	return a.join(end, out)
}

// replaced reports the Result-bearing fields that a record update
// overwrites while they are still pending: the old values are dropped.
func (a *oblFn) replaced(x *ast.RecordUpdate, st oblState) {
	c := a.c
	n, ok := Resolve(c.info.Types[x.X]).(*Named)
	if !ok || n.Def.Kind != RecordDef || len(n.Def.Ctors) != 1 {
		return
	}
	o, base, isPath := a.pathOf(x.X)
	for _, f := range x.Fields {
		if f == nil {
			continue
		}
		for i, name := range n.Def.Ctors[0].FieldNames {
			if name != f.Label || !containsResult(c.fieldType(n, i)) {
				continue
			}
			what := ""
			if isPath && a.partPending(st, o, joinPath(base, i)) {
				what = "'" + a.partName(oblKey{o, joinPath(base, i)}) + "'"
				a.handle(st, o, joinPath(base, i)) // reported here, not again at an exit
			} else if !isPath && producesResult(c, x.X) {
				what = "field '" + name + "' of the record"
			}
			if what != "" && a.report && !a.overBudge && a.inDefer == 0 {
				c.errorf(ErrResultDiscarded, f.Span(), "Result value must be handled; this update replaces %s, which is not handled yet", what).Hint =
					"handle the old value first (match on it, or pass it on), then update the record"
			}
		}
	}
}

// partPending reports whether part path of o, or some part of it, is
// pending on st.
func (a *oblFn) partPending(st oblState, o *Object, path string) bool {
	if !a.split[o] {
		return st[oblKey{o, ""}]
	}
	for k := range st {
		if k.o == o && (k.path == "" || k.path == path || strings.HasPrefix(path, k.path+".") || strings.HasPrefix(k.path, path+".")) {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- parts

// partType is the type of part i (a tuple element, or a record or newtype
// field) of t, or nil when t has no such part.
func (c *Checker) partType(t Type, i int) Type {
	switch x := Resolve(t).(type) {
	case *Tuple:
		if i >= 0 && i < len(x.Elems) {
			return x.Elems[i]
		}
	case *Named:
		if (x.Def.Kind == RecordDef || x.Def.Kind == NewtypeDef) && len(x.Def.Ctors) == 1 && i >= 0 && i < len(x.Def.Ctors[0].Fields) {
			return c.fieldType(x, i)
		}
	}
	return nil
}

// partCount is the number of parts of t (see partType).
func partCount(t Type) int {
	switch x := Resolve(t).(type) {
	case *Tuple:
		return len(x.Elems)
	case *Named:
		if (x.Def.Kind == RecordDef || x.Def.Kind == NewtypeDef) && len(x.Def.Ctors) == 1 {
			return len(x.Def.Ctors[0].Fields)
		}
	}
	return 0
}

func joinPath(path string, i int) string {
	if path == "" {
		return strconv.Itoa(i)
	}
	return path + "." + strconv.Itoa(i)
}

// pathOf resolves a read of a tracked local or of a part of one (`job`,
// `job.result`, `pair.1`, `node.meta.status`) to the local and the path of
// the part.
func (a *oblFn) pathOf(e ast.Expr) (*Object, string, bool) {
	c := a.c
	switch x := unparen(e).(type) {
	case *ast.Ident:
		if o := c.info.Uses[x]; c.tracked(o) {
			return o, "", true
		}
	case *ast.FieldAccess:
		o, p, ok := a.pathOf(x.X)
		if !ok {
			return nil, "", false
		}
		n, isNamed := Resolve(c.info.Types[x.X]).(*Named)
		if !isNamed || n.Def.Kind != RecordDef || len(n.Def.Ctors) != 1 {
			return nil, "", false
		}
		for i, f := range n.Def.Ctors[0].FieldNames {
			if f == x.Name {
				return o, joinPath(p, i), true
			}
		}
	case *ast.TupleIndex:
		o, p, ok := a.pathOf(x.X)
		if ok && c.partType(c.info.Types[x.X], x.Index) != nil {
			return o, joinPath(p, x.Index), true
		}
	}
	return nil, "", false
}

// handle discharges part path of o ("" for all of it) on st. When only a
// part of a pending value is handled, the value is split: its other
// Result-bearing parts on the way down stay pending on their own.
func (a *oblFn) handle(st oblState, o *Object, path string) {
	if st == nil {
		return
	}
	var whole []oblKey
	if !a.split[o] {
		// Never split: the only possible key is the whole value.
		k := oblKey{o, ""}
		if !st[k] {
			return
		}
		if path == "" {
			delete(st, k)
			return
		}
		whole = append(whole, k)
	} else {
		a.work += len(st)
		for k := range st {
			if k.o != o {
				continue
			}
			switch {
			case path == "" || k.path == path || strings.HasPrefix(k.path, path+"."):
				delete(st, k)
			case k.path == "" || strings.HasPrefix(path, k.path+"."):
				whole = append(whole, k) // at most one: pending parts are disjoint
			}
		}
	}
	if len(whole) > 0 {
		mark(&a.split, o)
	}
	for _, k := range whole {
		delete(st, k)
		t := o.Type
		if k.path != "" {
			for _, comp := range strings.Split(k.path, ".") {
				i, _ := strconv.Atoi(comp)
				t = a.c.partType(t, i)
			}
		}
		cur := k.path
		rest := strings.TrimPrefix(strings.TrimPrefix(path, k.path), ".")
		for _, comp := range strings.Split(rest, ".") {
			i, _ := strconv.Atoi(comp)
			for j := 0; j < partCount(t); j++ {
				if j != i && containsResult(a.c.partType(t, j)) {
					st[oblKey{o, joinPath(cur, j)}] = true
				}
			}
			t = a.c.partType(t, i)
			cur = joinPath(cur, i)
		}
	}
}

// ---------------------------------------------------------------- loops

// forLoop interprets a for loop. Over a list (or a map) whose elements carry Results,
// the loop hands each element to its pattern: the list is handled when
// the body can go on to the next element (its end, or continue), and the
// pattern's bindings are obligations in the body like any others. A body
// that always leaves the loop (return, break, an exit) sees only the
// first element, which is reported (E5010). Leaving early on some paths,
// after handling the current element, is accepted: it is how a loop stops
// at the first error.
func (a *oblFn) forLoop(x *ast.For, st oblState) oblState {
	c := a.c
	var el Type
	if n, ok := Resolve(c.info.Types[x.Iter]).(*Named); ok && n.Def == ListDef && len(n.Args) == 1 {
		el = n.Args[0]
	} else if ok && n.Def == MapDef && len(n.Args) == 2 {
		el = &Tuple{Elems: []Type{n.Args[0], n.Args[1]}} // a map's entries, as (k, v)
	}
	elems := el != nil && containsResult(el)
	var o *Object
	path, isPath := "", false
	if elems {
		if a.report {
			c.checkNestedWildcards(x.Pattern, 1)
		}
		o, path, isPath = a.pathOf(x.Iter)
	}
	st = a.eval(x.Iter, st, !isPath)
	if st == nil {
		return nil
	}
	head := source.Span{Start: x.Span().Start, End: spanOf(x.Iter).End}
	body := st.clone(a)
	var ll *oblLoopList
	if isPath && st[oblKey{o, path}] {
		// The list stays pending in the body: the elements after the
		// current one are handled only if the loop goes on to them.
		key := oblKey{o, path}
		ll = &oblLoopList{span: head, name: "'" + a.partName(key) + "'"}
		if a.loopLists == nil {
			a.loopLists = map[oblKey]*oblLoopList{}
		}
		if prev := a.loopLists[key]; prev == nil || prev.span != head {
			a.loopLists[key] = ll
		} else {
			ll = prev
		}
	} else if isPath {
		a.handle(body, o, path)
	}
	a.bind(x.Pattern, body)
	a.loops = append(a.loops, &oblLoop{temp: elems && !isPath})
	if ll != nil {
		ll.inBody, ll.hit = true, false
	}
	end := a.eval(x.Body, body, false)
	lp := a.loops[len(a.loops)-1]
	a.loops = a.loops[:len(a.loops)-1]
	next := a.join(end, lp.cont)
	if ll != nil {
		ll.always = next == nil
		ll.inBody = false
		if ll.hit && a.report && !a.overBudge {
			a.loopError(ll, ll.exit, false)
		}
	}
	if elems && !isPath && !a.overBudge && a.report {
		switch {
		case next == nil:
			d := c.errorf(ErrResultLoopFirst, head, "Result value must be handled; this loop handles only the first element of the list")
			d.Notes = []string{"every path through the body leaves the loop (return, break or an exit), so the Results after the first are never handled"}
			d.Hint = "handle every element (let the body go on to the next one), or match the list with `[first, ..rest]` and handle `rest`"
		case lp.brk != nil || len(lp.leaves) > 0:
			d := c.errorf(ErrResultLoopFirst, head, "Result value must be handled; this loop can leave before handling every element of the list")
			d.Notes = []string{"a path leaves the loop early (return, `?`, break or an exit), and the Results after that element are never handled"}
			if len(lp.leaves) > 0 {
				d.Related = []diag.Related{{Span: lp.leaves[0], Message: "leaves the loop here"}}
			}
			d.Hint = "let the body go on to the next element on every path (collect the errors instead of leaving), or bind the list and handle the rest after the loop"
		}
	}
	after := st
	if isPath {
		a.handle(after, o, path)
		if next != nil {
			a.handle(next, o, path)
		}
	}
	return a.join(a.join(after, next), lp.brk)
}

// ---------------------------------------------------------------- builtins

// explain records why the locals read by e (directly or as elements of a
// list or tuple literal) were not handled by the call they were passed to.
func (a *oblFn) explain(e ast.Expr, why string) {
	switch x := unparen(e).(type) {
	case *ast.ListLit:
		for _, el := range x.Elems {
			a.explain(el, why)
		}
	case *ast.Tuple:
		for _, el := range x.Elems {
			a.explain(el, why)
		}
	default:
		if o, _, ok := a.pathOf(e); ok && a.why[o] == "" && containsResult(a.c.info.Types[e]) {
			if a.why == nil {
				a.why = map[*Object]string{}
			}
			a.why[o] = why
		}
	}
}

// listPartial are the List builtins that read or keep only part of the
// list they are given (one element, a prefix or suffix, the elements up
// to a match): the Results of the other elements are not handled.
var listPartial = map[string]bool{
	"List.head": true, "List.get": true, "List.first": true, "List.last": true, "List.at": true,
	"List.tail": true, "List.take": true, "List.drop": true, "List.zip": true,
	"List.find": true, "List.any": true, "List.all": true,
}

// callbacks are the builtins that hand the elements (or payload) of
// their first argument to a callback: argument fn, parameter param.
// keeps says the builtin's result also keeps the elements it is given.
var callbacks = map[string]struct {
	fn, param int
	keeps     bool
}{
	"List.map": {1, 0, false}, "List.filter": {1, 0, true}, "List.fold": {2, 1, false},
	"Option.map": {1, 0, false}, "Result.map": {1, 0, false}, "Result.and_then": {1, 0, false},
	"Result.unwrap_or_else": {1, 0, false},
}

// builtinUse says whether the builtin name handles argument pi of x: ""
// when it does (it inspects, prints or moves the value into its result),
// else the reason it does not, for the diagnostic.
func (a *oblFn) builtinUse(x *ast.Call, name string, pi int, resBearing bool) string {
	c := a.c
	var argT Type
	if pi < len(x.Args) && x.Args[pi] != nil && x.Args[pi].Value != nil {
		argT = c.info.Types[x.Args[pi].Value]
	}
	var okT, errT Type
	if n, ok := Resolve(argT).(*Named); ok && n.Def == ResultDef && len(n.Args) == 2 {
		okT, errT = n.Args[0], n.Args[1]
	}
	callback := func() bool {
		cb := callbacks[name]
		if cb.fn >= len(x.Args) || x.Args[cb.fn] == nil {
			return false
		}
		var elT Type
		switch n := Resolve(argT).(type) {
		case *Named:
			if len(n.Args) > 0 {
				elT = n.Args[0]
			}
			if name == "Result.unwrap_or_else" {
				elT = errT
			}
		}
		return a.callbackHandles(x.Args[cb.fn].Value, cb.param, resBearing, elT)
	}
	switch {
	case pi != 0:
		if name == "List.zip" && pi == 1 {
			return "List.zip keeps only as many elements as the shorter list has; the Results of the others are not handled"
		}
		if dischargingBuiltins[name] || resBearing {
			return ""
		}
	case name == "Result.is_ok" || name == "Result.is_err":
		if containsResult(okT) || containsResult(errT) {
			return name + " inspects only the outer tag; the Result inside it is not handled"
		}
		return ""
	case name == "Result.unwrap_or":
		if containsResult(errT) {
			return "Result.unwrap_or drops the error value, which carries a Result"
		}
		return ""
	case name == "Result.map" || name == "Result.and_then":
		if containsResult(okT) && !callback() {
			return name + "'s callback does not handle the Result in the Ok value"
		}
		return ""
	case name == "Result.unwrap_or_else":
		if containsResult(errT) && !callback() {
			return "Result.unwrap_or_else's callback does not handle the Result in the error value"
		}
		return ""
	case dischargingBuiltins[name]:
		return ""
	case name == "List.len" || name == "List.is_empty":
		return name + " reads metadata only; it does not handle the Results inside"
	case listPartial[name]:
		return name + " reads only part of the list; the Results of the other elements are not handled"
	case callbacks[name].fn > 0:
		if callback() || callbacks[name].keeps && resBearing {
			return ""
		}
		return name + "'s callback does not handle the Results it is given"
	case resBearing:
		return ""
	}
	return name + " does not handle the Results it is given"
}

// callbackHandles reports whether the function value e handles the value
// it receives as parameter param (of type elT): a lambda whose parameter
// is a name or pattern (its body is checked like any function, so a
// callback that drops it is reported there), a function whose summary
// discharges the parameter or returns it generically, a printing or
// inspecting builtin, or a constructor whose result is kept.
func (a *oblFn) callbackHandles(e ast.Expr, param int, resBearing bool, elT Type) bool {
	c := a.c
	switch f := unparen(e).(type) {
	case *ast.Lambda:
		if param >= len(f.Params) {
			return false
		}
		p := f.Params[param]
		if p.Pattern != nil {
			_, wild := p.Pattern.(*ast.WildcardPat)
			return !wild
		}
		o := c.info.Defs[p]
		return o != nil && o.Name != "_" && c.tracked(o)
	case *ast.Ident, *ast.Path:
		o := c.info.Uses[f]
		if o == nil {
			return false
		}
		switch o.Kind {
		case ObjFunc:
			if o.Func == nil || param >= len(o.Func.Params) {
				return false
			}
			sum := a.summary(o.Func)
			if param < len(sum.discharges) && sum.discharges[param] {
				return true
			}
			return resBearing && isGenericParam(o.Func.Params[param].Type)
		case ObjBuiltin:
			switch o.Builtin {
			case "print", "println", "show":
				return true
			case "Result.is_ok", "Result.is_err":
				n, ok := Resolve(elT).(*Named)
				return ok && n.Def == ResultDef && !containsResult(n.Args[0]) && !containsResult(n.Args[1])
			}
		case ObjCtor:
			return resBearing
		}
	}
	return false
}
