package types

import (
	"fmt"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// Control flow: `?`, return, if, match, for and with, and the joining
// of branch types.

func (c *Checker) try(x *ast.Try) Type {
	t := c.expr(x.X, nil)
	if c.fn.inDefer {
		c.errorf(ErrDeferExit, x.Span(), "defer cannot use ?")
		return Invalid
	}
	if isNever(t) {
		// §3.7: `(return x)?` stops at the return; nothing is inspected.
		return NeverT
	}
	ret := Resolve(c.fn.ret)
	if v, ok := ret.(*TVar); ok && !c.fn.retKnown {
		unify(v, &Named{Def: ResultDef, Args: []Type{c.fresh(), c.fresh()}})
		ret = Resolve(v)
		if s := c.fn.sig; s != nil && !s.hasResultFrom {
			s.resultFrom, s.hasResultFrom = x.Span(), true
		}
	}
	rn, ok := ret.(*Named)
	if !ok || rn.Def != ResultDef {
		if !hasInvalid(ret) {
			c.errorf(ErrTryContext, x.Span(), "? requires a function returning Result").Notes =
				[]string{fmt.Sprintf("the enclosing function returns %s", Zonk(ret))}
		}
		return Invalid
	}
	ot := Resolve(t)
	if v, ok := ot.(*TVar); ok {
		unify(v, &Named{Def: ResultDef, Args: []Type{c.fresh(), c.fresh()}})
		ot = Resolve(v)
	}
	on, ok := ot.(*Named)
	if !ok || on.Def != ResultDef {
		if !hasInvalid(ot) {
			c.errorf(ErrTryOperand, spanOf(x.X), "? operand must be Result: found %s", Zonk(ot))
		}
		return Invalid
	}
	if !unify(on.Args[1], rn.Args[1]) {
		c.errorf(ErrTryErrType, x.Span(), "? error type: expected %s, found %s", typeStrings(rn.Args[1], on.Args[1])[0], typeStrings(rn.Args[1], on.Args[1])[1])
	}
	return on.Args[0]
}

func (c *Checker) returnExpr(x *ast.Return) Type {
	if c.fn.inDefer {
		c.errorf(ErrDeferExit, x.Span(), "defer cannot return")
		c.expr(x.X, nil)
		return NeverT
	}
	var hint Type
	if c.fn.retKnown {
		hint = c.fn.ret
	}
	t := c.expr(x.X, hint)
	if x.X == nil {
		t = UnitT
	}
	sp := x.Span()
	if x.X != nil {
		sp = spanOf(x.X)
	}
	if isNever(t) {
		return NeverT
	}
	if c.fn.retKnown {
		c.expect(sp, t, c.fn.ret, "function return")
	} else if !c.expectRet(sp, t, c.fn.ret, "function return") {
		c.fn.retBroken = true
	} else {
		c.noteResultFrom(sp, t)
	}
	return NeverT
}

// noteResultFrom records that the exit at sp, of type t, may have made the
// inferred return type of the current function carry a Result.
func (c *Checker) noteResultFrom(sp source.Span, t Type) {
	if s := c.fn.sig; s != nil && !c.fn.retKnown && !s.hasResultFrom && containsResult(t) {
		s.resultFrom, s.hasResultFrom = sp, true
	}
}

// branch checks an if/else or arm body in its own scope.
func (c *Checker) branch(e ast.Expr, hint Type, discard bool) Type {
	var t Type
	c.inScope(func() { t = c.bodyExpr(e, hint, discard) })
	return t
}

// join combines the types of two branches.
func (c *Checker) join(acc, t Type, span source.Span, ctx string) Type {
	if acc == nil {
		return t
	}
	if isNever(acc) {
		return t
	}
	if isNever(t) {
		return acc
	}
	if !c.accepts(t, acc) {
		if !hasInvalid(t) && !hasInvalid(acc) {
			c.errorf(ErrMismatch, span, "%s: expected %s, found %s", ctx, typeStrings(acc, t)[0], typeStrings(acc, t)[1])
		}
		return Invalid
	}
	return acc
}

func (c *Checker) ifExpr(x *ast.If, hint Type) Type {
	ct := c.expr(x.Cond, BoolT)
	c.expect(spanOf(x.Cond), ct, BoolT, "if condition")
	if ast.IsNil(x.Else) {
		c.branch(x.Then, nil, true)
		return UnitT
	}
	tt := c.branch(x.Then, hint, false)
	h := hint
	if h == nil && !isNever(tt) {
		h = tt
	}
	et := c.branch(x.Else, h, false)
	if isNever(tt) && isNever(et) {
		return NeverT
	}
	if _, ok := resolveHint(hint).(*Union); ok {
		// Branches may be different members of the expected union.
		tt = c.join(hint, tt, lastSpan(x.Then), "if branches")
	}
	return c.join(tt, et, lastSpan(x.Else), "if branches")
}

func (c *Checker) match(x *ast.Match, hint Type) Type {
	arms := newArmJoin(hint, "match arms")
	if ast.IsNil(x.Subject) {
		for i, a := range x.Arms {
			last := i == len(x.Arms)-1
			if a.Pattern != nil {
				if _, ok := a.Pattern.(*ast.WildcardPat); !ok {
					c.errorf(ErrCondMatchLast, spanOf(a.Pattern), "condition match arms are Bool expressions; only the last arm may be '_'")
				} else if !last {
					c.errorf(ErrUnreachableArm, a.Span(), "unreachable match arm: previous unguarded patterns already cover it")
				}
			} else if a.Cond != nil {
				t := c.expr(a.Cond, BoolT)
				c.expect(spanOf(a.Cond), t, BoolT, "match condition")
				if last {
					c.errorf(ErrCondMatchLast, spanOf(a.Cond), "a condition match must end with a '_ ->' arm")
				}
			}
			arms.add(c, c.branch(a.Body, hint, false), a.Body)
			hint = arms.hint(hint)
		}
		if len(x.Arms) == 0 {
			c.errorf(ErrCondMatchLast, x.Span(), "a condition match must end with a '_ ->' arm")
		}
		return arms.result()
	}
	st := c.expr(x.Subject, nil)
	for _, a := range x.Arms {
		c.inScope(func() {
			c.armHead(a.Pattern, a.Guard, st, "match guard")
			arms.add(c, c.bodyExpr(a.Body, hint, false), a.Body)
			hint = arms.hint(hint)
		})
	}
	xarms := x.Arms
	subj := x.Subject.Span()
	c.deferred = append(c.deferred, func() { c.checkArms(xarms, st, true, subj) })
	c.deferred = append(c.deferred, func() { c.checkResultMatch(st, xarms, subj) })
	c.deferred = append(c.deferred, func() {
		for _, a := range xarms {
			c.checkNestedWildcards(a.Pattern, 0)
		}
	})
	return arms.result()
}

// armHead binds the pattern of a match or receive arm to the subject
// type t and checks its guard, if any, as a Bool (ctx names it).
func (c *Checker) armHead(pat ast.Pattern, guard ast.Expr, t Type, ctx string) {
	c.pattern(pat, t, map[string]bool{})
	if guard != nil {
		gt := c.expr(guard, BoolT)
		c.expect(spanOf(guard), gt, BoolT, ctx)
	}
}

// armJoin gathers the type of a match or receive from its arms' types.
type armJoin struct {
	acc      Type   // the join so far; starts as the hint when that is a union
	allNever bool   // no arm so far has a type other than Never
	ctx      string // what a mismatch message names
}

func newArmJoin(hint Type, ctx string) armJoin {
	j := armJoin{allNever: true, ctx: ctx}
	if _, ok := resolveHint(hint).(*Union); ok {
		j.acc = hint
	}
	return j
}

// add joins bt, the type of the arm whose body is body.
func (j *armJoin) add(c *Checker, bt Type, body ast.Expr) {
	if !isNever(bt) {
		j.allNever = false
	}
	j.acc = c.join(j.acc, bt, lastSpan(body), j.ctx)
}

// hint is the hint for a match's next arm: hint itself, or the join so
// far when there was no hint and the join is not Never.
func (j *armJoin) hint(hint Type) Type {
	if hint == nil && j.acc != nil && !isNever(j.acc) {
		return j.acc
	}
	return hint
}

// result is the joined type, Never when no arm has another type.
func (j *armJoin) result() Type {
	if j.allNever || j.acc == nil {
		return NeverT
	}
	return j.acc
}

func (c *Checker) forExpr(x *ast.For) Type {
	it := c.expr(x.Iter, nil)
	var el Type
	if isNever(it) {
		// §3.7: the iterable never arrives; the body is unreachable and
		// its pattern binds nothing that could be checked.
		el = Invalid
	} else if _, open := Resolve(it).(*TVar); open {
		el = c.fresh()
		c.deferShape(&pendingShape{kind: shFor, subj: it, subjE: x.Iter, res: el, span: spanOf(x.Iter)})
	} else {
		el = c.itemOf(Resolve(it), x.Iter)
	}
	c.inScope(func() {
		binds := map[string]bool{}
		before := len(c.diags)
		c.pattern(x.Pattern, el, binds)
		if len(c.diags) == before {
			c.requireIrrefutable(x.Pattern, el, false)
		}
		c.fn.loops++
		c.bodyExpr(x.Body, nil, true)
		c.fn.loops--
	})
	return UnitT
}

// itemOf is the item type of iterating a value of known type rt.
func (c *Checker) itemOf(rt Type, iter ast.Expr) Type {
	switch r := rt.(type) {
	case *Basic:
		if r.Kind == KRange {
			return IntT
		} else if r.Kind == KInvalid {
			return Invalid
		}
	case *Named:
		switch r.Def {
		case ListDef, SetDef:
			return r.Args[0]
		case MapDef:
			return &Tuple{Elems: []Type{r.Args[0], r.Args[1]}}
		}
	}
	c.errorf(ErrNotIterable, spanOf(iter), "for requires a List, Range, Map or Set, found %s", Zonk(rt))
	return Invalid
}

// with checks a `with` chain (docs/reference/syntax.md#result-propagation): every step's value is a Result with
// one shared error type E, its pattern binds the Ok payload, and the
// chain's value is the body's (a Result with error type E) or, on the
// first Err, that Err (or the value of the else arm that matches it).
func (c *Checker) with(x *ast.With, hint Type) Type {
	errT := c.fresh()
	var bt Type
	c.inScope(func() {
		for _, st := range x.Steps {
			vt := c.expr(st.X, nil)
			okT := c.fresh()
			want := &Named{Def: ResultDef, Args: []Type{okT, errT}}
			if !unify(vt, want) && !hasInvalid(vt) {
				c.errorf(ErrMismatch, spanOf(st.X), "with step: expected %s, found %s", typeStrings(want, vt)[0], typeStrings(want, vt)[1])
			}
			c.pattern(st.Pattern, okT, map[string]bool{})
		}
		bt = c.bodyExpr(x.Body, hint, false)
	})
	if len(x.ElseArms) == 0 {
		want := &Named{Def: ResultDef, Args: []Type{c.fresh(), errT}}
		if !isNever(bt) && !c.accepts(bt, want) && !hasInvalid(bt) {
			c.errorf(ErrMismatch, lastSpan(x.Body), "with body: expected %s, found %s", typeStrings(want, bt)[0], typeStrings(want, bt)[1])
		}
		if isNever(bt) {
			return want
		}
		return bt
	}
	failT := &Named{Def: ResultDef, Args: []Type{c.fresh(), errT}}
	acc := bt
	for _, a := range x.ElseArms {
		c.inScope(func() {
			c.pattern(a.Pattern, failT, map[string]bool{})
			if a.Guard != nil {
				gt := c.expr(a.Guard, BoolT)
				c.expect(spanOf(a.Guard), gt, BoolT, "match guard")
			}
			at := c.bodyExpr(a.Body, hint, false)
			acc = c.join(acc, at, lastSpan(a.Body), "with arms")
		})
	}
	return acc
}
