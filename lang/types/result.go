package types

import (
	"fmt"
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// The Result rules of docs/reference/checks.md#result-obligations other than the path obligations
// (oblig.go): which types carry a Result, a Result value thrown away
// (E5001), Result bindings and parameters never used or only read for
// metadata (E5002, E5003), a match on a Result whose arms never test its
// tag (E5005) and a `_` inside a pattern that drops a nested Result
// (E5006).

// containsResult reports whether a value of type t carries a Result
// (see containsResultIn).
func containsResult(t Type) bool {
	var v visited
	return containsResultIn(t, nil, &v)
}

// containsResultIn is containsResult with the nominal types already being
// looked into, so recursive types terminate, and the nodes already
// visited, so shared types are walked once. A nominal type carries a
// Result when a type argument does or when one of its constructors'
// declared fields does (a record with a Result field carries that
// Result's duty, docs/reference/checks.md#result-obligations).
func containsResultIn(t Type, seen map[*TypeDef]bool, v *visited) bool {
	t = Resolve(t)
	if composite(t) && !v.first(t) {
		return false
	}
	in := func(t Type) bool { return containsResultIn(t, seen, v) }
	switch r := t.(type) {
	case *Named:
		if r.Def == ResultDef {
			return true
		}
		if r.Def == PidDef {
			return false // a Pid carries no message value
		}
		if slices.ContainsFunc(r.Args, in) {
			return true
		}
		if seen[r.Def] {
			return false
		}
		if seen == nil {
			seen = map[*TypeDef]bool{}
		}
		seen[r.Def] = true
		for _, ct := range r.Def.Ctors {
			if slices.ContainsFunc(ct.Fields, in) {
				return true
			}
		}
	case *Tuple:
		return slices.ContainsFunc(r.Elems, in)
	case *Union:
		// A union value may be the Result member (type V = Int | Result(…)).
		return slices.ContainsFunc(r.Alts, in)
	}
	return false
}

func isResult(t Type) bool {
	n, ok := Resolve(t).(*Named)
	return ok && n.Def == ResultDef
}

// checkDiscard reports a Result value whose value is thrown away.
func (c *Checker) checkDiscard(e ast.Expr, t Type) {
	c.checkDiscardLet(e, t, false)
}

// checkDiscardLet is checkDiscard; wild says the value is bound to `_`.
func (c *Checker) checkDiscardLet(e ast.Expr, t Type, wild bool) {
	if containsResult(t) && !hasInvalid(t) {
		d := c.errorf(ErrResultDiscarded, e.Span(), "Result value must be handled; bind, return, or match it")
		d.Hint = c.handleHint(c.exprText(e), t, e)
		if wild {
			d.Notes = append(d.Notes, "binding it to `_` does not handle it, and neither does a name that is never used")
		}
		c.resultOrigin(d, e)
	}
}

// resultOrigin adds to d, a Result obligation error about the value of e,
// where a called function without a return annotation got its Result
// from: the error lands at the caller, the cause is in the callee.
func (c *Checker) resultOrigin(d *diag.Diagnostic, e ast.Expr) {
	call, ok := unparen(e).(*ast.Call)
	if !ok {
		return
	}
	id, ok := call.Fn.(*ast.Ident)
	if !ok {
		return
	}
	o := c.info.Uses[id]
	if o == nil || o.Kind != ObjFunc || o.Func == nil || o.Func.Decl == nil || o.Func.Decl.Ret != nil || !o.Func.hasResultFrom {
		return
	}
	s := o.Func
	d.Related = append(d.Related, diag.Related{Span: s.resultFrom, Message: "this makes '" + s.Name + "' return a Result (its return type is inferred)"})
	d.Notes = append(d.Notes, "'"+s.Name+"' has no return annotation, so its last expression, `return`s and `?`s decide its type: it returns a Result, which each caller must handle (if it should not, annotate it `-> ()` and handle the Result inside it)")
}

// exprText is the source text of e when it is short and on one line, else
// "…".
func (c *Checker) exprText(e ast.Expr) string {
	if c.src != nil && !ast.IsNil(e) {
		sp := e.Span()
		if sp.Start >= 0 && sp.End <= len(c.src.Src) && sp.End-sp.Start <= 48 {
			if t := strings.TrimSpace(string(c.src.Src[sp.Start:sp.End])); t != "" && !strings.Contains(t, "\n") {
				return t
			}
		}
	}
	return "…"
}

// handleHint says what does handle a Result-bearing value of type t
// written text (§5.2), with the shortest example that works for it:
// `text?` where the function returns a Result with the same error type, a
// match of both arms, or Result.is_err; for a value that only contains
// Results, a loop or match that handles each.
func (c *Checker) handleHint(text string, t Type, e ast.Expr) string {
	n, ok := Resolve(t).(*Named)
	if !ok || n.Def != ResultDef || len(n.Args) != 2 {
		return "handle each Result inside it (match it, or loop over it and match every element), or return it or pass it to a function that handles it"
	}
	what := "it"
	if call, ok := unparen(e).(*ast.Call); ok {
		switch f := call.Fn.(type) {
		case *ast.Ident:
			what = f.Name
		case *ast.Path:
			what = f.String()
		}
	}
	okPat, errPat := "Ok(_)", "Err(_)"
	if containsResult(n.Args[0]) {
		okPat = "Ok(inner)"
	}
	if containsResult(n.Args[1]) {
		errPat = "Err(inner)"
	}
	if c.fn != nil && c.fn.retKnown && !c.fn.inDefer {
		if rn, ok := Resolve(c.fn.ret).(*Named); ok && rn.Def == ResultDef && Identical(rn.Args[1], n.Args[1]) {
			return fmt.Sprintf("pass an error on with `?`: `%s?`, or match both arms: `match %s: %s -> (), %s -> …`", text, text, okPat, errPat)
		}
	}
	if okPat == "Ok(_)" && errPat == "Err(_)" {
		return fmt.Sprintf("match both arms: `match %s: Ok(_) -> (), Err(_) -> println(\"%s failed\")`, or test it: `if Result.is_err(%s): println(\"%s failed\")`", text, what, text, what)
	}
	return fmt.Sprintf("match both arms and handle the Result inside: `match %s: %s -> …, %s -> …`", text, okPat, errPat)
}

// checkUnusedResults reports the Result bindings and parameters of the
// group that are never used, or only read for metadata (docs/reference/checks.md#result-obligations,
// conservative).
func (c *Checker) checkUnusedResults() {
	for _, o := range c.locals {
		if !o.result || o.poisoned || o.uses > 0 || o.uses < -1<<20 || !containsResult(o.Type) {
			continue
		}
		if o.isParam && len(o.metaReads) > 0 {
			c.errorf(ErrResultUnusedPar, o.Decl.Span(), "Result binding parameter is never used except for metadata (%s), which does not handle the Result", strings.Join(dedup(o.metaReads), ", ")).Hint = "match on it, return it or pass it on"
		} else if o.isParam {
			c.errorf(ErrResultUnusedPar, o.Decl.Span(), "Result binding parameter is never used").Hint = "match on it, return it or pass it on"
		} else if len(o.metaReads) > 0 {
			c.errorf(ErrResultUnusedLet, o.Decl.Span(), "Result value must be handled; this Result binding is only read for metadata (%s), which does not handle the Result", strings.Join(dedup(o.metaReads), ", ")).Hint =
				"match on it, use `let Ok(v) = … else:`, `?`, or return it"
		} else {
			d := c.errorf(ErrResultUnusedLet, o.Decl.Span(), "Result value must be handled; this Result binding is never used")
			if o.initX != nil {
				c.resultOrigin(d, o.initX)
			}
			d.Hint = "match on it, use `let Ok(v) = … else:`, `?`, or return it"
			if n, ok := Resolve(o.Type).(*Named); ok && n.Def == ResultDef && !containsResult(n.Args[0]) && !containsResult(n.Args[1]) {
				d.Hint = fmt.Sprintf("use it: `match %s: Ok(_) -> (), Err(_) -> …`, `if Result.is_err(%s): …`, `%s?` in a function returning Result, or return it", o.Name, o.Name, o.Name)
			}
		}
	}
}

// noteMetadataReads records the Result-bearing locals passed to a
// builtin that reads only a list's length (List.len, List.is_empty: the
// registry's MetadataRead): reading metadata does not handle the Results
// inside (docs/reference/checks.md#result-obligations), so such a read is not a use.
func (c *Checker) noteMetadataReads(x *ast.Call, name string) {
	for _, a := range x.Args {
		if id, ok := a.Value.(*ast.Ident); ok {
			if o := c.info.Uses[id]; o != nil && o.Kind == ObjLocal && !c.dead {
				c.whenResolved(o.Type, func(t Type) {
					if containsResult(t) {
						o.uses--
						o.metaReads = append(o.metaReads, name)
					}
				})
			}
		}
	}
}

// dedup returns xs without repeats, in first-seen order.
func dedup(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// checkResultMatch reports a match on a Result whose arms are all `_`
// (E5005).
func (c *Checker) checkResultMatch(st Type, arms []*ast.Arm, subj source.Span) {
	if !wildcardOnlyResultMatch(st, arms) {
		return
	}
	c.errorf(ErrResultWildcard, subj, "Result value must be handled; a match whose only arm is '_' does not inspect it").Hint =
		"match on Ok(…) and Err(…)"
}

// wildcardOnlyResultMatch reports whether a match on a subject of type st
// never tests the tag of a Result and throws it away: every arm is `_`
// (E5005, docs/reference/checks.md#result-obligations).
func wildcardOnlyResultMatch(st Type, arms []*ast.Arm) bool {
	if !isResult(st) || hasInvalid(st) {
		return false
	}
	for _, a := range arms {
		switch a.Pattern.(type) {
		case *ast.WildcardPat, nil:
		default:
			// A binding takes the Result over: it is then an obligation
			// of its own (`match r: result -> match result: …`).
			return false
		}
	}
	return true
}

// discardedResult reports a wildcard at sp that throws away a Result;
// hint says how to keep it.
func (c *Checker) discardedResult(sp source.Span, hint string) {
	c.errorf(ErrResultPayload, sp, "Result payload cannot be discarded by a wildcard pattern").Hint = hint
}

// checkNestedWildcards reports `_` sub-patterns that throw away a Result
// nested in a payload, tuple or list, or a value carrying one, and list
// rests `.._` and `..` that throw away elements carrying Results (docs/reference/checks.md#result-obligations).
// Run after inference, when the pattern types are resolved. depth is 1
// for the pattern of a for loop, whose value is an element of a list.
func (c *Checker) checkNestedWildcards(p ast.Pattern, depth int) {
	switch p := p.(type) {
	case *ast.WildcardPat:
		if depth > 0 && containsResult(c.info.PatTypes[p]) && !hasInvalid(c.info.PatTypes[p]) {
			c.discardedResult(p.Span(), "bind it and handle it, or match on Ok(…)/Err(…)")
		}
	case *ast.TuplePat:
		for _, e := range p.Elems {
			c.checkNestedWildcards(e, depth+1)
		}
		if _, named := p.Rest.(*ast.BindPat); p.HasRest && !named {
			// `.._` and `..` drop the remaining elements.
			if tt, ok := Resolve(c.info.PatTypes[p]).(*Tuple); ok && len(tt.Elems) > len(p.Elems) && containsResult(restTuple(tt.Elems[len(p.Elems):])) {
				sp := p.Span()
				if p.Rest != nil {
					sp = p.Rest.Span()
				}
				c.discardedResult(sp, "bind the rest with `..name` and handle it, or name each element")
			}
		}
	case *ast.ListPat:
		for _, e := range p.Elems {
			c.checkNestedWildcards(e, depth+1)
		}
		lt := c.info.PatTypes[p]
		if _, w := p.Rest.(*ast.WildcardPat); (w || p.HasRest && p.Rest == nil) && containsResult(lt) && !hasInvalid(lt) {
			sp := p.Span()
			if w {
				sp = p.Rest.Span()
			}
			c.discardedResult(sp, "bind the rest (`..rest`) and handle its Results")
		}
	case *ast.CtorPat:
		for _, e := range p.Args {
			c.checkNestedWildcards(e, depth+1)
		}
	}
}
