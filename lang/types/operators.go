package types

import (
	"fmt"

	"github.com/morrow-lang/morrow/lang/ast"
)

// Unary and binary operators (docs/reference/syntax.md#operators).

func (c *Checker) unary(x *ast.Unary) Type {
	t := c.expr(x.X, nil)
	switch x.Op {
	case "not":
		if !c.expect(spanOf(x.X), t, BoolT, "operand of 'not'") {
			// Already reported: the result is unknown, so that an enclosing
			// operator does not report a follow-on error (docs/diagnostics.md).
			return Invalid
		}
		return BoolT
	case "~~~":
		sp := spanOf(x.X)
		c.require(t, reqInt, "~~~", sp, func(_ requirement, rt Type, _ *failure) {
			c.errorf(ErrMismatch, sp, "operand of '~~~': expected Int, found %s", Zonk(rt)).Label = "this has type " + Zonk(rt).String()
		})
		return t
	default:
		sp := x.Span()
		c.require(t, reqArith, "-", sp, func(_ requirement, rt Type, _ *failure) {
			c.errorf(ErrBinaryOperands, sp, "unary '-' requires Int or Float, found %s", Zonk(rt))
		})
		return t
	}
}

func (c *Checker) operandError(x *ast.Binary, l, r Type) {
	if hasInvalid(l) || hasInvalid(r) {
		return
	}
	d := c.errorf(ErrBinaryOperands, x.Span(), "binary operator does not support these operand types")
	d.Notes = append(d.Notes, fmt.Sprintf("'%s' was applied to %s and %s", x.Op, Zonk(l), Zonk(r)))
}

// opKinds maps binary operators to the requirement on their operands.
var opKinds = map[string]reqKind{
	"+": reqAdd, "-": reqArith, "*": reqArith, "/": reqArith, "**": reqArith,
	"%": reqInt, "&&&": reqInt, "|||": reqInt, "^^^": reqInt, "<<<": reqInt, ">>>": reqInt,
	"<": reqOrd, "<=": reqOrd, ">": reqOrd, ">=": reqOrd,
	"==": reqEq, "!=": reqEq,
}

func (c *Checker) binary(x *ast.Binary) Type {
	switch x.Op {
	case "and", "or":
		l := c.expr(x.L, BoolT)
		c.expect(x.L.Span(), l, BoolT, "operand of '"+x.Op+"'")
		r := c.expr(x.R, BoolT)
		c.expect(x.R.Span(), r, BoolT, "operand of '"+x.Op+"'")
		return BoolT
	case "in":
		l := c.expr(x.L, nil)
		r := c.expr(x.R, nil)
		if n, ok := Resolve(r).(*Named); ok && n.Def == SetDef {
			// `x in s` is Set.contains (docs/maps.md).
			if !unify(n.Args[0], l) {
				c.operandError(x, l, r)
				return BoolT
			}
			sp := x.Span()
			c.require(l, reqKey, "in", sp, func(_ requirement, _ Type, f *failure) { c.keyError(sp, f) })
			return BoolT
		}
		if !unify(r, &Named{Def: ListDef, Args: []Type{l}}) {
			c.operandError(x, l, r)
			return BoolT
		}
		sp := x.Span()
		c.require(l, reqScalar, "in", sp, func(r requirement, rt Type, _ *failure) { c.containsError(sp, r.op, rt) })
		return BoolT
	}
	l := c.expr(x.L, nil)
	r := c.expr(x.R, l)
	kind, known := opKinds[x.Op]
	if !known {
		c.errorf(ErrBinaryOperands, x.Span(), "unknown operator '%s'", x.Op)
		return Invalid
	}
	result := l
	if kind == reqOrd || kind == reqEq {
		result = BoolT
	}
	if isNever(l) || isNever(r) {
		if isNever(l) {
			l = r
		}
	} else if !unify(l, r) {
		c.operandError(x, l, r)
		if result == Type(BoolT) {
			return BoolT
		}
		return Invalid
	}
	if result != Type(BoolT) {
		result = l
	}
	c.require(l, kind, x.Op, x.Span(), func(_ requirement, rt Type, _ *failure) {
		c.operandError(x, rt, rt)
		if n, isN := rt.(*Named); isN && !n.Def.Builtin && kind == reqEq {
			c.diags[len(c.diags)-1].Hint = "add Eq to the derive list of " + n.Def.Name
		}
		if kind == reqOrd && isMapOrSet(rt) {
			c.diags[len(c.diags)-1].Hint = noOrderHint
		}
	})
	return result
}
