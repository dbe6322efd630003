package types

import (
	"github.com/morrow-lang/morrow/lang/ast"
)

// block checks a block in a new scope. When discard is set the block's
// value is thrown away, so a final Result is reported. A block containing
// a statement of type Never has type Never; statements after it are
// reported as unreachable.
func (c *Checker) block(b *ast.Block, hint Type, discard bool) Type {
	saved := c.fn.scope
	c.fn.scope = &scope{parent: saved}
	defer func() { c.fn.scope = saved }()
	var t Type = UnitT
	diverged, reported := false, false
	for i, s := range b.Stmts {
		last := i == len(b.Stmts)-1
		if diverged && !reported {
			c.errorf(ErrUnreachable, s.Span(), "unreachable statement after control flow exits")
			reported = true
			// Uses in dead code do not handle anything (docs/reference/checks.md#result-obligations).
			savedDead := c.dead
			c.dead = true
			defer func() { c.dead = savedDead }()
		}
		var st Type = UnitT
		switch s := s.(type) {
		case *ast.LetStmt:
			st = c.let(s)
		case *ast.DeferStmt:
			c.deferStmt(s)
		case *ast.ExprStmt:
			var h Type
			if last && !discard {
				h = hint
			}
			et := c.expr(s.X, h)
			if s.Cond != nil {
				ct := c.expr(s.Cond, BoolT)
				c.expect(spanOf(s.Cond), ct, BoolT, "if condition")
				c.checkDiscard(s.X, et)
				st = UnitT
			} else {
				if !last || discard {
					c.checkDiscard(s.X, et)
				}
				st = et
			}
		}
		if isNever(st) {
			diverged = true
		}
		if last {
			t = st
		}
	}
	if diverged {
		return NeverT
	}
	return t
}

// let checks a let statement and binds its names in the current scope.
// It returns Never for a let whose value diverges, Unit otherwise.
func (c *Checker) let(s *ast.LetStmt) Type {
	var ann Type
	if s.Type != nil {
		ann = c.resolveType(s.Type, c.bodyTV)
	}
	vt := c.expr(s.Value, ann)
	diverges := isNever(vt)
	if ann != nil {
		c.expect(spanOf(s.Value), vt, ann, "let annotation")
		vt = ann
	} else if diverges {
		vt = c.fresh()
	}
	if _, wild := s.Pattern.(*ast.WildcardPat); wild {
		c.checkDiscardLet(s.Value, vt, true)
	}
	if !ast.IsNil(s.Else) {
		et := c.branch(s.Else, nil, false)
		if !isNever(et) && !hasInvalid(et) {
			c.errorf(ErrLetElseDiverge, lastSpan(s.Else), "let-else failure branch must diverge with return").Hint =
				"end the else branch with `return …` or `Process.exit(…)`"
		}
		c.pattern(s.Pattern, vt, map[string]bool{})
	} else {
		before := len(c.diags)
		c.pattern(s.Pattern, vt, map[string]bool{})
		if len(c.diags) == before {
			c.requireIrrefutable(s.Pattern, vt, hasLiteral(s.Pattern))
		}
	}
	pat := s.Pattern
	c.deferred = append(c.deferred, func() { c.checkNestedWildcards(pat, 0) })
	if !ast.IsNil(s.Value) {
		init := spanOf(s.Value)
		patBinds(s.Pattern, func(n ast.Pattern) {
			if o := c.info.Defs[n]; o != nil && o.Kind == ObjLocal {
				o.init, o.hasInit, o.initX = init, true, s.Value
			}
		})
	}
	if bp, ok := s.Pattern.(*ast.BindPat); ok {
		if o := c.info.Defs[bp]; o != nil {
			o.result = s.Else == nil
			if !diverges {
				// A binding that is never made has no type to infer.
				c.lets = append(c.lets, &letRecord{obj: o, span: s.Span(), fn: c.fn})
			}
		}
	}
	if diverges {
		return NeverT
	}
	return UnitT
}

func hasLiteral(p ast.Pattern) bool {
	found := false
	ast.Inspect(p, func(n ast.Node) bool {
		if _, ok := n.(*ast.LitPat); ok {
			found = true
		}
		return !found
	})
	return found
}

func (c *Checker) deferStmt(s *ast.DeferStmt) {
	c.deferExprs = append(c.deferExprs, s.X)
	saved, savedFlag, savedLoops := c.fn.inDefer, c.fn.deferFlagged, c.fn.loops
	// A deferred expression runs when the function exits, outside any
	// loop: break and continue cannot leave a loop from there.
	c.fn.inDefer, c.fn.deferFlagged, c.fn.loops = true, false, 0
	t := c.expr(s.X, UnitT)
	flagged := c.fn.deferFlagged
	c.fn.inDefer, c.fn.deferFlagged, c.fn.loops = saved, savedFlag, savedLoops
	switch r := Resolve(t).(type) {
	case *TVar:
		unify(r, UnitT)
	default:
		// A body already rejected for its actor/process operation gets
		// no second error for its type (docs/diagnostics.md: follow-on).
		if !flagged && !isBasic(r, KUnit) && !isNever(r) && !hasInvalid(r) {
			c.errorf(ErrDeferType, spanOf(s.X), "defer requires Unit cleanup: expected (), found %s", Zonk(t))
		}
	}
}

// patBinds calls f for every binding site (BindPat, TypedPat) in p.
func patBinds(p ast.Pattern, f func(ast.Pattern)) {
	ast.Inspect(p, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BindPat:
			f(x)
		case *ast.TypedPat:
			f(x)
			return false
		case ast.Pattern:
			return true
		}
		return false
	})
}
