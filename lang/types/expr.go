package types

import (
	"slices"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// expr infers the type of e and records it. hint, when non-nil, is the
// type the context expects; it guides lambdas and empty collections but
// callers still check the result against it.
func (c *Checker) expr(e ast.Expr, hint Type) Type {
	if ast.IsNil(e) {
		return Invalid
	}
	t := c.expr1(e, hint)
	if !isNever(t) && c.divergingOperand(e) {
		// docs/reference/syntax.md#operators: a Never operand stops evaluation; the expression takes
		// the type its context needs.
		t = NeverT
	}
	c.info.Types[e] = t
	return t
}

// divergingOperand reports whether an operand that e always evaluates
// (before doing anything else with it) has type Never: a call argument,
// a tuple or list element, a record update field, an operator operand (the
// left one of `and`/`or`), a subject, an index, a range bound, an
// interpolated value.
func (c *Checker) divergingOperand(e ast.Expr) bool {
	never := func(x ast.Expr) bool {
		if ast.IsNil(x) {
			return false
		}
		t, ok := c.info.Types[x]
		return ok && isNever(t)
	}
	neverArg := func(a *ast.Arg) bool { return never(a.Value) }
	switch x := e.(type) {
	case *ast.Call:
		return never(x.Fn) || slices.ContainsFunc(x.Args, neverArg)
	case *ast.Tuple:
		return slices.ContainsFunc(x.Elems, never)
	case *ast.ListLit:
		return slices.ContainsFunc(x.Elems, never)
	case *ast.RecordUpdate:
		return never(x.X) || slices.ContainsFunc(x.Fields, neverArg)
	case *ast.Binary:
		if x.Op == "and" || x.Op == "or" {
			return never(x.L)
		}
		return never(x.L) || never(x.R)
	case *ast.Unary:
		return never(x.X)
	case *ast.FieldAccess:
		return never(x.X)
	case *ast.TupleIndex:
		return never(x.X)
	case *ast.Index:
		return never(x.X) || never(x.I)
	case *ast.Range:
		return never(x.Lo) || never(x.Hi)
	case *ast.Try:
		return never(x.X)
	case *ast.InterpString:
		for _, p := range x.Parts {
			if never(p.X) {
				return true
			}
		}
	case *ast.If:
		return never(x.Cond)
	case *ast.Match:
		return never(x.Subject)
	case *ast.For:
		return never(x.Iter)
	}
	return false
}

// expect checks that got is acceptable where want is expected (unifying
// them, or accepting a member of a union alias) and reports a mismatch
// with the given context otherwise.
func (c *Checker) expect(span source.Span, got, want Type, ctx string) bool {
	if c.accepts(got, want) {
		return true
	}
	if hasInvalid(got) || hasInvalid(want) {
		return false
	}
	ts := typeStrings(want, got)
	d := c.errorf(ErrMismatch, span, "%s: expected %s, found %s", ctx, ts[0], ts[1])
	d.Label = "this has type " + ts[1]
	if gn, ok := Resolve(got).(*Named); ok && gn.Def == OptionDef && c.src != nil && span.End <= len(c.src.Src) && string(c.src.Src[span.Start:span.End]) == "None" {
		d.Hint = "`None` is the empty case of an Option; it fits only where an Option is expected (`Option(" + ts[0] + ")`, with `Some(v)` for a value). Morrow has no null"
	}
	return false
}

// accepts unifies got with want, allowing a union member where the union
// is expected.
func (c *Checker) accepts(got, want Type) bool {
	if u, ok := Resolve(want).(*Union); ok {
		g := Resolve(got)
		if _, isU := g.(*Union); !isU {
			if _, isV := g.(*TVar); !isV {
				for _, alt := range u.Alts {
					if Identical(alt, g) {
						return true
					}
				}
				for _, alt := range u.Alts {
					if an, ok := Resolve(alt).(*Named); ok {
						if gn, ok := g.(*Named); ok && gn.Def == an.Def {
							return unify(alt, g)
						}
					}
				}
			}
		}
	}
	return unify(got, want)
}

// expectRet checks the final value of a body without a return
// annotation against the return type inferred so far from its `return`s
// and `?`s (docs/reference/types.md#inference: every exit must agree).
func (c *Checker) expectRet(span source.Span, got, ret Type, ctx string) bool {
	if _, open := Resolve(ret).(*TVar); open {
		unify(ret, got)
		return true
	}
	before := len(c.diags)
	if !c.expect(span, got, ret, ctx) {
		if len(c.diags) > before {
			c.diags[len(c.diags)-1].Notes = append(c.diags[len(c.diags)-1].Notes,
				"the return type is not annotated; it is inferred from every exit (the final expression, each `return` and `?`), and they must agree")
		}
		return false
	}
	return true
}

func (c *Checker) bodyTV(name string) Type {
	if t, ok := c.fn.generics[name]; ok {
		return t
	}
	v := c.fresh()
	c.fn.generics[name] = v
	return v
}

// whenResolved runs f with the resolved type now, or at the end of the
// group if t is still an unbound variable.
func (c *Checker) whenResolved(t Type, f func(Type)) {
	if _, ok := Resolve(t).(*TVar); ok {
		c.deferred = append(c.deferred, func() { f(Resolve(t)) })
		return
	}
	f(Resolve(t))
}

func (c *Checker) expr1(e ast.Expr, hint Type) Type {
	switch x := e.(type) {
	case *ast.Block:
		return c.block(x, hint, false)
	case *ast.Paren:
		return c.expr(x.X, hint)
	case *ast.IntLit:
		return IntT
	case *ast.FloatLit:
		return FloatT
	case *ast.BoolLit:
		return BoolT
	case *ast.StringLit:
		return StringT
	case *ast.UnitLit:
		return UnitT
	case *ast.InterpString:
		for _, p := range x.Parts {
			if p.X == nil {
				continue
			}
			pt := c.expr(p.X, nil)
			sp := spanOf(p.X)
			c.require(pt, reqInterp, "interpolation", sp, func(_ requirement, rt Type, _ *failure) {
				c.interpHelp(c.errorf(ErrInterpType, sp, "string interpolation requires Int, Float, Bool or String, found %s", Zonk(rt)), rt)
			})
		}
		return StringT
	case *ast.Ident:
		return c.ident(x)
	case *ast.Path:
		return c.path(x)
	case *ast.FieldAccess:
		return c.fieldAccess(x)
	case *ast.TupleIndex:
		return c.tupleIndex(x)
	case *ast.Index:
		xt := c.expr(x.X, nil)
		it := c.expr(x.I, IntT)
		c.expect(spanOf(x.I), it, IntT, "list index")
		el := c.fresh()
		switch r := Resolve(xt).(type) {
		case *TVar:
			unify(r, &Named{Def: ListDef, Args: []Type{el}})
		case *Named:
			if r.Def == ListDef {
				return r.Args[0]
			}
			c.errorf(ErrNotIndexable, x.Span(), "cannot index a value of type %s; only Lists support [i]", Zonk(xt))
			return Invalid
		default:
			if isNever(xt) {
				return NeverT
			}
			if !hasInvalid(xt) {
				c.errorf(ErrNotIndexable, x.Span(), "cannot index a value of type %s; only Lists support [i]", Zonk(xt))
			}
			return Invalid
		}
		return el
	case *ast.Call:
		return c.call(x, hint)
	case *ast.Unary:
		return c.unary(x)
	case *ast.Binary:
		return c.binary(x)
	case *ast.Range:
		lo := c.expr(x.Lo, IntT)
		c.expect(spanOf(x.Lo), lo, IntT, "range bound")
		hi := c.expr(x.Hi, IntT)
		c.expect(spanOf(x.Hi), hi, IntT, "range bound")
		return RangeT
	case *ast.Try:
		return c.try(x)
	case *ast.Lambda:
		return c.lambda(x, hint)
	case *ast.If:
		return c.ifExpr(x, hint)
	case *ast.Match:
		return c.match(x, hint)
	case *ast.Receive:
		return c.receive(x, hint)
	case *ast.For:
		return c.forExpr(x)
	case *ast.Break:
		c.loopControl(x.Span(), "break")
		return NeverT
	case *ast.Continue:
		c.loopControl(x.Span(), "continue")
		return NeverT
	case *ast.Return:
		return c.returnExpr(x)
	case *ast.Tuple:
		var hs []Type
		if ht, ok := resolveHint(hint).(*Tuple); ok && len(ht.Elems) == len(x.Elems) {
			hs = ht.Elems
		}
		el := make([]Type, len(x.Elems))
		for i, e := range x.Elems {
			var h Type
			if hs != nil {
				h = hs[i]
			}
			el[i] = c.expr(e, h)
		}
		return &Tuple{Elems: el}
	case *ast.ListLit:
		var el Type = c.fresh()
		if hn, ok := resolveHint(hint).(*Named); ok && hn.Def == ListDef {
			el = hn.Args[0]
		}
		for _, e := range x.Elems {
			t := c.expr(e, el)
			c.expect(e.Span(), t, el, "list element")
		}
		return &Named{Def: ListDef, Args: []Type{el}}
	case *ast.RecordUpdate:
		return c.recordUpdate(x)
	case *ast.MapLit:
		return c.mapLit(x, hint)
	case *ast.With:
		return c.with(x, hint)
	}
	return Invalid
}

func resolveHint(h Type) Type {
	if h == nil {
		return nil
	}
	return Resolve(h)
}

// ---------------------------------------------------------------- names

// instantiate replaces generics with fresh variables.
func (c *Checker) instantiate(gen []*TParam) map[*TParam]Type {
	m := map[*TParam]Type{}
	for _, g := range gen {
		m[g] = c.fresh()
	}
	return m
}

// ---------------------------------------------------------------- field access

// ---------------------------------------------------------------- operators

// ---------------------------------------------------------------- ? and return

// ---------------------------------------------------------------- lambdas

func (c *Checker) lambda(x *ast.Lambda, hint Type) Type {
	var hf *Func
	if f, ok := resolveHint(hint).(*Func); ok && len(f.Params) == len(x.Params) {
		hf = f
	}
	ctx := &fnCtx{
		noActor:  c.rootLambdas[x],
		node:     x,
		parent:   c.fn,
		scope:    &scope{parent: c.fn.scope},
		generics: c.fn.generics,
	}
	params := make([]Type, len(x.Params))
	seen := map[string]bool{}
	if len(x.Params) > maxParams {
		c.errorf(ErrTooManyParams, x.Span(), "too many parameters: a lambda declares %d, the limit is %d", len(x.Params), maxParams)
	}
	old := c.fn
	for i, p := range x.Params {
		var pt Type
		if p.Type != nil {
			pt = c.resolveType(p.Type, c.bodyTV)
			if hf != nil {
				unify(hf.Params[i], pt)
			}
		} else if hf != nil {
			pt = hf.Params[i]
		} else {
			pt = c.fresh()
		}
		params[i] = pt
		if p.Name != "" && p.Name != "_" {
			if seen[p.Name] {
				c.errorf(ErrDuplicateParam, p.Span(), "duplicate parameter '%s'", p.Name)
			}
			seen[p.Name] = true
		}
	}
	if x.Ret != nil {
		ctx.ret = c.resolveType(x.Ret, c.bodyTV)
		ctx.retKnown = true
	} else {
		ctx.ret = c.fresh()
	}
	c.fn = ctx
	for i, p := range x.Params {
		c.bindParam(p, params[i])
	}
	var bodyHint Type
	if hf != nil {
		bodyHint = hf.Ret
	}
	if ctx.retKnown {
		bodyHint = ctx.ret
	}
	bt := c.bodyExpr(x.Body, bodyHint, false)
	c.fn = old
	if !isNever(bt) {
		if ctx.retKnown {
			c.expect(lastSpan(x.Body), bt, ctx.ret, "lambda return")
		} else {
			c.expectRet(lastSpan(x.Body), bt, ctx.ret, "lambda return")
		}
	}
	return &Func{Params: params, Ret: ctx.ret}
}

// ---------------------------------------------------------------- control flow

func (c *Checker) inScope(f func()) {
	saved := c.fn.scope
	c.fn.scope = &scope{parent: saved}
	f()
	c.fn.scope = saved
}

// mapLit checks `%{k: v, ...}` (docs/maps.md): every key has one type,
// which must meet the key rule, and every value one type; `%{}` takes
// both from the context.
func (c *Checker) mapLit(x *ast.MapLit, hint Type) Type {
	var kt, vt Type = c.fresh(), c.fresh()
	if hn, ok := resolveHint(hint).(*Named); ok && hn.Def == MapDef {
		kt, vt = hn.Args[0], hn.Args[1]
	}
	for i := range x.Keys {
		t := c.expr(x.Keys[i], kt)
		c.expect(x.Keys[i].Span(), t, kt, "map key")
		t = c.expr(x.Values[i], vt)
		c.expect(x.Values[i].Span(), t, vt, "map value")
	}
	c.require(kt, reqKey, "map literal", x.Span(), func(_ requirement, _ Type, f *failure) { c.keyError(x.Span(), f) })
	return &Named{Def: MapDef, Args: []Type{kt, vt}}
}
