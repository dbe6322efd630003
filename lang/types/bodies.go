package types

import (
	"fmt"
	"slices"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/graph"
	"github.com/morrow-lang/morrow/lang/source"
)

// funcDecls returns the function declarations that have a signature, in
// declaration order.
func (c *Checker) funcDecls() []*ast.FnDecl {
	var decls []*ast.FnDecl
	for _, d := range c.file.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && c.info.Funcs[fd] != nil {
			decls = append(decls, fd)
		}
	}
	return decls
}

// checkBodies checks function bodies callees-first, by strongly connected
// component of the call graph.
func (c *Checker) checkBodies() {
	decls := c.funcDecls()
	index := map[*ast.FnDecl]int{}
	for i, fd := range decls {
		index[fd] = i
	}
	edges := make([][]int, len(decls))
	exprs, names := 0, 0 // the expressions and the names in them, to size Info's tables
	for i, fd := range decls {
		seen := map[int]bool{}
		walk(fd.Body, func(n ast.Node) {
			if _, ok := n.(ast.Expr); ok {
				exprs++
			}
			switch n := n.(type) {
			case *ast.Ident:
				names++
				if sig := c.funcs[n.Name]; sig != nil {
					j := index[sig.Decl]
					if !seen[j] {
						seen[j] = true
						edges[i] = append(edges[i], j)
					}
				}
			case *ast.Path:
				names++
			}
		})
	}
	// Every checked expression gets an entry in Info.Types and every name
	// one in Info.Uses: made that big at once, the tables never grow
	// (rehashing them was ~8% of a check).
	c.info.Types = grown(c.info.Types, exprs)
	c.info.Uses = grown(c.info.Uses, names)
	for _, comp := range tarjan(len(decls), edges) {
		var group []*FuncSig
		for _, i := range comp {
			group = append(group, c.info.Funcs[decls[i]])
		}
		c.recursive = len(comp) > 1 || slices.Contains(edges[comp[0]], comp[0])
		c.checkGroup(group)
	}
	if len(c.carried) > 0 {
		// Shapes no caller settled (the function is never called, or
		// only at a type that is still open).
		c.settleShapes(true)
	}
}

// grown returns m, or a copy of it with room for n more entries when it
// has fewer than that.
func grown[K comparable, V any](m map[K]V, n int) map[K]V {
	if len(m) >= n {
		return m
	}
	g := make(map[K]V, len(m)+n)
	for k, v := range m {
		g[k] = v
	}
	return g
}

// tarjan returns the strongly connected components of a graph in reverse
// topological order (a component comes after every component it reaches),
// each in source order.
func tarjan(n int, edges [][]int) [][]int {
	out := graph.SCC(n, func(v int) []int { return edges[v] })
	for _, comp := range out {
		slices.Sort(comp)
	}
	return out
}

// checkGroup checks one strongly connected group of functions, runs the
// queued checks, and generalises the group's remaining free variables.
func (c *Checker) checkGroup(group []*FuncSig) {
	// The group's work lists reuse the previous group's storage.
	c.deferred = c.deferred[:0]
	c.locals = c.locals[:0]
	c.lets = c.lets[:0]
	if c.inGroup == nil {
		c.inGroup = map[*FuncSig]bool{}
	}
	clear(c.inGroup)
	for _, sig := range group {
		c.inGroup[sig] = true
	}
	if len(group) > 1 {
		c.flexGenerics(group)
	}
	for _, sig := range group {
		c.checkFunc(sig)
	}
	c.resolveShapes()
	for i := 0; i < len(c.deferred); i++ {
		c.deferred[i]()
	}
	c.deferred = c.deferred[:0]
	c.solveReqs(group)
	for _, ms := range c.mailboxSites {
		c.checkMailbox(ms)
	}
	c.mailboxSites = nil
	c.poisonErroneousInits()
	c.checkObligations(group)
	c.checkUnusedResults()
	c.rigidGenerics(group)
	// Generalise: free variables left in the signatures become generic.
	var sigVars []*TVar
	for _, sig := range group {
		for _, p := range sig.Params {
			sigVars = freeVars(p.Type, sigVars)
		}
		sigVars = freeVars(sig.Ret, sigVars)
		// A mailbox that stays generic is fixed at each spawn site (an
		// annotation such as `let p: Pid(String) = spawn(worker)`, §4.3):
		// a local holding a message is typed there, not here.
		if mt, ok := c.info.Mailboxes[sig.Decl]; ok {
			sigVars = freeVars(mt, sigVars)
		}
	}
	sigVars = append(sigVars, c.carriedVars()...)
	// Let bindings whose type is still open and not part of a signature.
	reported := map[*fnCtx]bool{}
	for _, l := range c.lets {
		fv := freeVarsOutsidePid(l.obj.Type, nil)
		open := false
		for _, v := range fv {
			inSig := false
			for _, s := range sigVars {
				if s == v {
					inSig = true
				}
			}
			if !inSig {
				open = true
			}
		}
		if open && !reported[l.fn] {
			reported[l.fn] = true
			d := c.errorf(ErrCannotInfer, l.span, "cannot infer compound payload type; add a concrete type annotation")
			d.Notes = []string{"the type of '" + l.obj.Name + "' is " + Zonk(l.obj.Type).String()}
			if n, ok := Resolve(l.obj.Type).(*Named); ok && n.Def == MapDef {
				d.Hint = "annotate the binding, for example `let " + l.obj.Name + ": Map(String, Int) = %{}`"
			} else if ok && n.Def == SetDef {
				d.Hint = "annotate the binding, for example `let " + l.obj.Name + ": Set(Int) = Set.new()`"
			}
		}
	}
	c.generalize(group)
}

// generalize turns the free variables left in the group's signatures into
// generic parameters. Members of a recursive group share variables, so a
// parameter made for one member is a generic of every member whose type
// mentions it (each can then be used at any type, docs/reference/types.md#inference).
func (c *Checker) generalize(group []*FuncSig) {
	if len(group) > 1 {
		c.ownRigids(group)
	}
	fvs := make([][]*TVar, len(group))
	for i, sig := range group {
		for _, p := range sig.Params {
			fvs[i] = freeVars(p.Type, fvs[i])
		}
		fvs[i] = freeVars(sig.Ret, fvs[i])
	}
	made := map[*TVar]*TParam{}
	kept := c.carriedVars()
	for i, sig := range group {
		for _, v := range fvs[i] {
			if slices.Contains(kept, v) {
				continue
			}
			p := made[v]
			if p == nil {
				p = c.newTParam(freshParamName(sig.Generics))
				c.transferReqs(v, p)
				v.Ref = p
				made[v] = p
			}
			sig.Generics = append(sig.Generics, p)
		}
	}
}

// partlyAnnotated reports whether sig has type variables in its
// annotations and also parameters or a return left to inference.
func partlyAnnotated(sig *FuncSig) bool {
	if len(sig.gen) == 0 {
		return false
	}
	if sig.Decl.Ret == nil {
		return true
	}
	for _, p := range sig.Params {
		if !p.Declared {
			return true
		}
	}
	return false
}

// flexGenerics: while a recursive group is checked, the annotated type
// variables of a partly annotated member are inference variables shared
// by the group, like its unannotated parts (`fn read(x: a, n)` calling
// and called by `fn make(x, n: Int) -> Box(a)`): a rigid `a` would meet
// the other member's rigid variable through the shared parts and be
// reported as `expected a, found a'` although each function is generic.
// A fully annotated member keeps rigid variables and is instantiated at
// each call, so it may be used at several types inside the group.
// rigidGenerics checks afterwards that the variables stayed generic.
func (c *Checker) flexGenerics(group []*FuncSig) {
	for _, sig := range group {
		if !partlyAnnotated(sig) {
			continue
		}
		sig.flex = map[*TParam]*TVar{}
		m := map[*TParam]Type{}
		for _, g := range sig.Generics {
			v := c.fresh()
			sig.flex[g] = v
			m[g] = v
		}
		for _, p := range sig.Params {
			p.Type = subst(p.Type, m)
		}
		sig.Ret = subst(sig.Ret, m)
		sig.Generics = nil
	}
}

// rigidGenerics turns the inference variables of flexGenerics back into
// the member's type parameters, after checking that each is still
// unknown and distinct from the member's other annotated variables:
// `fn f(x: a, n)` whose group makes x an Int is `type variable 'a' of f
// is not generic`.
func (c *Checker) rigidGenerics(group []*FuncSig) {
	owner := genericOwners(group)
	for _, sig := range group {
		if sig.flex == nil {
			continue
		}
		seen := map[Type]*TParam{}
		var gens []*TParam
		for _, g := range sortedParams(sig.flex) {
			v := sig.flex[g]
			r := Resolve(v)
			rv, ok := r.(*TVar)
			// Another member's type parameter, reached through the
			// group's shared parts, stands for this member's own
			// variable; ownRigids gives it a copy.
			foreign := false
			if p, isP := r.(*TParam); isP && owner[p] != nil && owner[p] != sig {
				foreign = true
			}
			if !(ok || foreign) || seen[r] != nil {
				if !hasInvalid(r) {
					what := Zonk(r).String()
					if seen[r] != nil {
						what = "the same type as '" + seen[r].Name + "'"
					}
					c.errorf(ErrMismatch, sig.Decl.NameSpan, "type variable '%s' of %s is not generic: the group of functions it calls makes it %s", g.Name, sig.Name, what).Hint =
						"annotate the parameter with the type it has, or give the functions that call each other full annotations"
				}
				continue
			}
			seen[r] = g
			if foreign {
				continue
			}
			c.transferReqs(rv, g)
			rv.Ref = g
			gens = append(gens, g)
		}
		sig.Generics = append(gens, sig.Generics...)
		sig.flex = nil
	}
}

// genericOwners maps each annotated type parameter of a group's members
// to the member that declares it.
func genericOwners(group []*FuncSig) map[*TParam]*FuncSig {
	owner := map[*TParam]*FuncSig{}
	for _, sig := range group {
		for _, g := range sig.gen {
			owner[g] = sig
		}
	}
	return owner
}

// sortedParams lists the keys of m by ID (declaration order).
func sortedParams(m map[*TParam]*TVar) []*TParam {
	var ps []*TParam
	for p := range m {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b *TParam) int { return a.ID - b.ID })
	return ps
}

// ownRigids gives every member of a recursive group its own copy of the
// annotated type parameters of other members that reached its signature.
// While the group is checked, `fn a(x: t, n: Int)` calling an
// unannotated `b(x, n - 1)` binds b's parameter to a's rigid t; afterwards
// b is generic in a variable of its own, instantiated at each call like
// any other generic (§4.2), instead of keeping a's t, which no caller could
// ever supply.
func (c *Checker) ownRigids(group []*FuncSig) {
	owner := genericOwners(group)
	for _, sig := range group {
		m := map[*TParam]Type{}
		visit := func(t Type) {
			anyPart(t, func(t Type) bool {
				p, ok := t.(*TParam)
				if !ok {
					return false
				}
				if o := owner[p]; o != nil && o != sig && m[p] == nil {
					var taken []*TParam
					taken = append(taken, sig.Generics...)
					for _, q := range m {
						taken = append(taken, q.(*TParam))
					}
					name := p.Name
					for _, g := range taken {
						if g.Name == name {
							name = freshParamName(taken)
							break
						}
					}
					np := c.newTParam(name)
					if rs, ok := c.reqs[p]; ok {
						c.reqs[np] = slices.Clone(rs)
					}
					m[p] = np
				}
				return false
			})
		}
		for _, p := range sig.Params {
			visit(p.Type)
		}
		visit(sig.Ret)
		if len(m) == 0 {
			continue
		}
		for _, p := range sig.Params {
			p.Type = subst(p.Type, m)
		}
		sig.Ret = subst(sig.Ret, m)
		for _, np := range m {
			sig.Generics = append(sig.Generics, np.(*TParam))
		}
	}
}

// carriedVars are the free variables of the shapes that wait for a
// caller: they stay monomorphic until the caller fixes them.
func (c *Checker) carriedVars() []*TVar {
	var out []*TVar
	for _, s := range c.carried {
		out = freeVars(s.subj, out)
		out = freeVars(s.res, out)
		for _, e := range s.elems {
			out = freeVars(e, out)
		}
	}
	return out
}

// freshParamName names a generalised variable a, b, c, … avoiding the
// names of the signature's other generics.
func freshParamName(gen []*TParam) string {
	for i := 0; ; i++ {
		n := paramName(i)
		taken := false
		for _, g := range gen {
			if g.Name == n {
				taken = true
			}
		}
		if !taken {
			return n
		}
	}
}

func isNever(t Type) bool { return isBasic(t, KNever) }

func (c *Checker) checkFunc(sig *FuncSig) {
	fd := sig.Decl
	ctx := &fnCtx{
		sig:      sig,
		ret:      sig.Ret,
		retKnown: fd.Ret != nil || fd.Name == "main",
		isMain:   fd.Name == "main",
		isRoot:   fd.Name == "start" && fd.Pub && c.funcs["main"] == nil,
		node:     fd,
		scope:    &scope{},
		generics: map[string]Type{},
	}
	for n, p := range sig.gen {
		ctx.generics[n] = p
		if v := sig.flex[p]; v != nil {
			ctx.generics[n] = v
		}
	}
	old := c.fn
	c.fn = ctx
	defer func() { c.fn = old }()
	for i, p := range fd.Params {
		c.bindParam(p, sig.Params[i].Type)
	}
	if fd.Body == nil {
		return
	}
	unitRet := ctx.retKnown && isBasic(sig.Ret, KUnit)
	var hint Type
	if ctx.retKnown && !unitRet {
		hint = sig.Ret
	}
	t := c.bodyExpr(fd.Body, hint, unitRet)
	switch {
	case unitRet:
		// Value discarded; a Result here is reported by bodyExpr.
	case !ctx.retKnown:
		if !isNever(t) {
			// Every exit must agree (docs/reference/types.md#inference): returns and `?` may already
			// have fixed the return type.
			if !c.expectRet(lastSpan(fd.Body), t, sig.Ret, "function return") {
				ctx.retBroken = true
			} else {
				c.noteResultFrom(lastSpan(fd.Body), t)
			}
		} else if v, ok := Resolve(sig.Ret).(*TVar); ok {
			// A body that always diverges makes the function diverge.
			v.Ref = NeverT
		}
	default:
		before := len(c.diags)
		c.expect(lastSpan(fd.Body), t, sig.Ret, "function return")
		if len(c.diags) > before && fd.Ret != nil {
			c.diags[len(c.diags)-1].Related = append(c.diags[len(c.diags)-1].Related,
				diag.Related{Span: fd.Ret.Span(), Message: fmt.Sprintf("%s returns %s, declared here", fd.Name, Zonk(sig.Ret))})
		}
	}
	if ctx.retBroken {
		// Callers in later groups get no follow-on errors (docs/diagnostics.md).
		sig.Ret = Invalid
	}
}

// bindParam declares a parameter (or destructures a pattern parameter).
func (c *Checker) bindParam(p *ast.Param, t Type) {
	if p.Pattern != nil {
		binds := map[string]bool{}
		before := len(c.diags)
		c.pattern(p.Pattern, t, binds)
		if len(c.diags) == before {
			c.requireIrrefutable(p.Pattern, t, false)
		}
		return
	}
	o := &Object{Kind: ObjLocal, Name: p.Name, Type: t, Decl: p, isParam: true, owner: c.fn}
	o.result = true
	c.info.Defs[p] = o
	if p.Name != "_" && p.Name != "" {
		c.fn.scope.define(p.Name, o)
		c.locals = append(c.locals, o)
	}
}

// bodyExpr checks a function or lambda body. When discard is set the
// value is thrown away, so a Result value is reported.
func (c *Checker) bodyExpr(e ast.Expr, hint Type, discard bool) Type {
	if b, ok := e.(*ast.Block); ok {
		t := c.block(b, hint, discard)
		c.info.Types[b] = t
		return t
	}
	t := c.expr(e, hint)
	if discard {
		c.checkDiscard(e, t)
	}
	return t
}

func lastSpan(e ast.Expr) source.Span {
	if b, ok := e.(*ast.Block); ok && len(b.Stmts) > 0 {
		return b.Stmts[len(b.Stmts)-1].Span()
	}
	return e.Span()
}

// checkEntry applies the main and library-mode rules (docs/reference/syntax.md#the-entry-point).
func (c *Checker) checkEntry() {
	sig := c.funcs["main"]
	if sig == nil {
		if st := c.funcs["start"]; st != nil && st.Decl.Pub && len(st.Params) == 1 {
			pt, ok := Resolve(st.Params[0].Type).(*Named)
			if ok && pt.Def == PidDef && isBasic(pt.Args[0], KString) && isBasic(st.Ret, KUnit) {
				c.info.Library = true
				return
			}
		}
		if c.hasTests() {
			// A file of tests needs no main: `morrow test` runs it
			// (docs/testing.md); building it as a program reports the
			// missing main (lang/compiler.Build).
			return
		}
		d := c.errorf(ErrNoMain, source.Span{}, "program requires a main function")
		d.Hint = "add `fn main():`, or `pub fn start(port: Pid(String)) -> ()` to run as a library"
		return
	}
	fd := sig.Decl
	if len(fd.Params) > 0 {
		c.errorf(ErrMainParams, fd.NameSpan, "main must take zero parameters")
	}
	ok := false
	switch r := Resolve(sig.Ret).(type) {
	case *Basic:
		ok = r.Kind == KInt || r.Kind == KUnit || r.Kind == KInvalid
	case *Named:
		if r.Def == ResultDef && isBasic(r.Args[0], KUnit) {
			ok = len(freeVars(r.Args[1], nil)) == 0 && !containsParam(r.Args[1])
		}
	}
	if !ok {
		sp := fd.NameSpan
		if fd.Ret != nil {
			sp = fd.Ret.Span()
		}
		c.errorf(ErrMainReturn, sp, "main must return Int, Unit, or Result(Unit, concrete error type)")
	}
}

// freeVarsOutsidePid is freeVars without the mailbox types of Pids, which
// the mailbox rules (checkMailbox, actors.go) resolve or report.
func freeVarsOutsidePid(t Type, out []*TVar) []*TVar {
	var v visited
	var walk func(t Type)
	walk = func(t Type) {
		t = Resolve(t)
		switch x := t.(type) {
		case *TVar:
			out = freeVars(x, out)
			return
		case *Named:
			if x.Def == PidDef {
				return
			}
		}
		if !composite(t) || !v.first(t) {
			return
		}
		switch x := t.(type) {
		case *Named:
			for _, a := range x.Args {
				walk(a)
			}
		case *Tuple:
			for _, a := range x.Elems {
				walk(a)
			}
		case *Func:
			for _, a := range x.Params {
				walk(a)
			}
			walk(x.Ret)
		}
	}
	walk(t)
	return out
}

// poisonErroneousInits marks the locals of the current group whose let
// initializer contains an error: their obligations are follow-ons of that
// error and are not reported (docs/diagnostics.md).
func (c *Checker) poisonErroneousInits() {
	for _, o := range c.locals {
		if !o.hasInit || o.poisoned {
			continue
		}
		for _, d := range c.diags {
			if d.Severity == diag.Error && d.Span.Start >= o.init.Start && d.Span.End <= o.init.End {
				o.poisoned = true
				break
			}
		}
	}
}
