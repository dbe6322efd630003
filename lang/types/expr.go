package types

import (
	"fmt"
	"strings"

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
		// §3.7: a Never operand stops evaluation; the expression takes
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
	switch x := e.(type) {
	case *ast.Call:
		if never(x.Fn) {
			return true
		}
		for _, a := range x.Args {
			if never(a.Value) {
				return true
			}
		}
	case *ast.Tuple:
		for _, el := range x.Elems {
			if never(el) {
				return true
			}
		}
	case *ast.ListLit:
		for _, el := range x.Elems {
			if never(el) {
				return true
			}
		}
	case *ast.RecordUpdate:
		if never(x.X) {
			return true
		}
		for _, f := range x.Fields {
			if never(f.Value) {
				return true
			}
		}
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
	d := c.errorf(ErrMismatch, span, "%s: expected %s, found %s", ctx, Zonk(want), Zonk(got))
	d.Label = "this has type " + Zonk(got).String()
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
// and `?`s (§4.2: every exit must agree).
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
		c.expect(spanOf(x.I), it, IntT, "list index: expression type")
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
		c.expect(spanOf(x.Lo), lo, IntT, "range bound: expression type")
		hi := c.expr(x.Hi, IntT)
		c.expect(spanOf(x.Hi), hi, IntT, "range bound: expression type")
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
			c.expect(e.Span(), t, el, "list element: expression type")
		}
		return &Named{Def: ListDef, Args: []Type{el}}
	case *ast.RecordUpdate:
		return c.recordUpdate(x)
	case *ast.MapLit:
		c.errorf(ErrUnsupportedExpr, x.Span(), "maps are not supported")
		return Invalid
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

func (c *Checker) lookupLocal(name string) *Object {
	return c.fn.scope.lookup(name)
}

func (c *Checker) ident(x *ast.Ident) Type {
	if o := c.lookupLocal(x.Name); o != nil {
		if !c.dead {
			o.uses++
		}
		c.info.Uses[x] = o
		if o.owner != nil && o.owner != c.fn {
			// Captures of pending Results are checked by the obligation
			// analysis (oblig.go), which knows which duties are pending.
		}
		return o.Type
	}
	if sig := c.funcs[x.Name]; sig != nil {
		c.info.Uses[x] = sig.obj
		c.funcValues = append(c.funcValues, x)
		m := c.instantiate(sig.Generics)
		c.inherit(sig.Generics, m, x.Span(), c.inGroup[sig], nil)
		return subst(sig.FuncType(), m)
	}
	if ct := c.bareCtor(x.Name); ct != nil {
		c.info.Uses[x] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
		return c.ctorValue(ct)
	}
	if bs := builtinSigs[x.Name]; bs != nil {
		c.info.Uses[x] = &Object{Kind: ObjBuiltin, Name: x.Name, Builtin: x.Name}
		return c.builtinValue(x.Name, x.Span())
	}
	if x.Name == "_" {
		c.errorf(ErrUnknownName, x.Span(), "'_' is only a placeholder in patterns and pipes")
		return Invalid
	}
	c.unknownNameHelp(c.errorf(ErrUnknownName, x.Span(), "unknown name '%s'", x.Name), x.Name)
	return Invalid
}

func containsResult(t Type) bool {
	var v visited
	return containsResultIn(t, nil, &v)
}

// containsResultIn is containsResult with the nominal types already being
// looked into, so recursive types terminate, and the nodes already
// visited, so shared types are walked once. A nominal type carries a
// Result when a type argument does or when one of its constructors'
// declared fields does (a record with a Result field carries that
// Result's duty, LANGUAGE.md §5.2).
func containsResultIn(t Type, seen map[*TypeDef]bool, v *visited) bool {
	t = Resolve(t)
	if composite(t) && !v.first(t) {
		return false
	}
	switch r := t.(type) {
	case *Named:
		if r.Def == ResultDef {
			return true
		}
		if r.Def == PidDef {
			return false // a Pid carries no message value
		}
		for _, a := range r.Args {
			if containsResultIn(a, seen, v) {
				return true
			}
		}
		if seen[r.Def] {
			return false
		}
		if seen == nil {
			seen = map[*TypeDef]bool{}
		}
		seen[r.Def] = true
		for _, ct := range r.Def.Ctors {
			for _, f := range ct.Fields {
				if containsResultIn(f, seen, v) {
					return true
				}
			}
		}
	case *Tuple:
		for _, e := range r.Elems {
			if containsResultIn(e, seen, v) {
				return true
			}
		}
	case *Union:
		// A union value may be the Result member (type V = Int | Result(…)).
		for _, e := range r.Alts {
			if containsResultIn(e, seen, v) {
				return true
			}
		}
	}
	return false
}

func (c *Checker) builtinValue(name string, span source.Span) Type {
	if callOnly[name] {
		c.errorf(ErrBuiltinValue, span, "%s cannot be used as a function value; call it directly", name).Hint =
			"call it where it is needed, or wrap the call in a lambda"
		return Invalid
	}
	bs := builtinSigs[name]
	m := c.instantiate(bs.Generics)
	c.inherit(bs.Generics, m, span, false, nil)
	if c.fn.inDefer {
		c.deferRestriction(name, span)
	}
	return subst(&Func{Params: bs.Params, Ret: bs.Ret}, m)
}

func (c *Checker) bareCtor(name string) *Ctor {
	if ct := c.ctors[name]; ct != nil {
		return ct
	}
	return builtinCtor(name)
}

// ctorType instantiates a constructor: its field types and result type.
func (c *Checker) ctorType(ct *Ctor) ([]Type, *Named) {
	m := c.instantiate(ct.Def.Params)
	args := make([]Type, len(ct.Def.Params))
	for i, p := range ct.Def.Params {
		args[i] = m[p]
	}
	fs := make([]Type, len(ct.Fields))
	for i, f := range ct.Fields {
		fs[i] = subst(f, m)
	}
	return fs, &Named{Def: ct.Def, Args: args}
}

func (c *Checker) ctorValue(ct *Ctor) Type {
	fs, res := c.ctorType(ct)
	if len(fs) == 0 {
		return res
	}
	return &Func{Params: fs, Ret: res}
}

// lookupQualified resolves a dotted name to a builtin function name or a
// constructor. It reports nothing; errCode/errMsg describe the failure.
func (c *Checker) lookupQualified(parts []string) (builtin string, ct *Ctor, errMsg string, proc bool) {
	name := strings.Join(parts, ".")
	if _, ok := builtinSigs[name]; ok {
		return name, nil, "", false
	}
	if len(parts) < 2 {
		return "", nil, fmt.Sprintf("unknown name '%s'", name), false
	}
	head := parts[0]
	if head == "Process" {
		if len(parts) == 2 {
			if ct := processCtor(parts[1]); ct != nil {
				return "", ct, "", true
			}
		}
		if len(parts) == 3 {
			if d := builtinTypeDefs["Process."+parts[1]]; d != nil {
				for _, k := range d.Ctors {
					if k.Name == parts[2] {
						return "", k, "", true
					}
				}
			}
		}
		return "", nil, fmt.Sprintf("unknown process operation '%s'", name), true
	}
	if len(parts) == 2 {
		if d := builtinTypeDefs[head]; d != nil {
			for _, k := range d.Ctors {
				if k.Name == parts[1] {
					return "", k, "", false
				}
			}
		}
		if e := c.types[head]; e != nil && e.def != nil {
			for _, k := range e.def.Ctors {
				if k.Name == parts[1] {
					return "", k, "", false
				}
			}
			return "", nil, fmt.Sprintf("type %s has no constructor '%s'", head, parts[1]), false
		}
	}
	if builtinModules[head] {
		return "", nil, fmt.Sprintf("unknown function '%s'", name), false
	}
	return "", nil, fmt.Sprintf("unknown name '%s'", name), false
}

func (c *Checker) pathError(p *ast.Path, msg string, proc bool) {
	code := ErrUnknownName
	switch {
	case proc:
		code = ErrUnknownProcessOp
	case strings.HasPrefix(msg, "type "):
		code = ErrUnknownCtor
	case strings.HasPrefix(msg, "unknown function"):
		code = ErrUnknownMember
	}
	c.qualifiedNameHelp(c.errorf(code, p.Span(), "%s", msg), p.Parts)
}

func (c *Checker) path(x *ast.Path) Type {
	b, ct, msg, proc := c.lookupQualified(x.Parts)
	switch {
	case b != "":
		c.info.Uses[x] = &Object{Kind: ObjBuiltin, Name: b, Builtin: b}
		return c.builtinValue(b, x.Span())
	case ct != nil:
		c.info.Uses[x] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
		return c.ctorValue(ct)
	}
	c.pathError(x, msg, proc)
	return Invalid
}

// ---------------------------------------------------------------- field access

func (c *Checker) fieldAccess(x *ast.FieldAccess) Type {
	xt := c.expr(x.X, nil)
	if _, open := Resolve(xt).(*TVar); open {
		res := c.fresh()
		c.deferShape(&pendingShape{kind: shField, subj: xt, subjE: x.X, res: res, name: x.Name, span: x.Span()})
		return res
	}
	return c.fieldOf(Resolve(xt), x.Name, x.Span())
}

// fieldOf is the type of field name of a value of known type rt.
func (c *Checker) fieldOf(rt Type, name string, span source.Span) Type {
	switch r := rt.(type) {
	case *Named:
		if r.Def.Kind == RecordDef {
			ct := r.Def.Ctors[0]
			for i, f := range ct.FieldNames {
				if f == name {
					return c.fieldType(r, i)
				}
			}
		}
	case *Basic:
		if r.Kind == KInvalid {
			return Invalid
		}
	}
	d := c.errorf(ErrNoField, span, "type %s has no field '%s'", Zonk(rt), name)
	if r, ok := rt.(*Named); ok {
		c.noFieldHelp(d, r.Def, name)
	}
	return Invalid
}

// fieldType returns field i of a record/newtype/variant-less instance.
func (c *Checker) fieldType(n *Named, i int) Type {
	ct := n.Def.Ctors[0]
	m := map[*TParam]Type{}
	for j, p := range n.Def.Params {
		if j < len(n.Args) {
			m[p] = n.Args[j]
		}
	}
	return subst(ct.Fields[i], m)
}

func (c *Checker) tupleIndex(x *ast.TupleIndex) Type {
	xt := c.expr(x.X, nil)
	if _, open := Resolve(xt).(*TVar); open {
		res := c.fresh()
		c.deferShape(&pendingShape{kind: shTuple, subj: xt, subjE: x.X, res: res, index: x.Index, span: x.Span()})
		return res
	}
	return c.elemOf(Resolve(xt), x.Index, x.Span())
}

// elemOf is the type of `.index` on a value of known type rt.
func (c *Checker) elemOf(rt Type, index int, span source.Span) Type {
	switch r := rt.(type) {
	case *Tuple:
		if index < len(r.Elems) {
			return r.Elems[index]
		}
		c.errorf(ErrTupleIndex, span, "tuple index %d is out of range for %s", index, Zonk(rt))
		return Invalid
	case *Named:
		if (r.Def.Kind == NewtypeDef || r.Def.Kind == RecordDef) && index < len(r.Def.Ctors[0].Fields) {
			return c.fieldType(r, index)
		}
	case *Basic:
		if r.Kind == KInvalid {
			return Invalid
		}
	}
	c.errorf(ErrTupleIndex, span, "type %s has no element .%d", Zonk(rt), index)
	return Invalid
}

func (c *Checker) recordUpdate(x *ast.RecordUpdate) Type {
	xt := c.expr(x.X, nil)
	if _, open := Resolve(xt).(*TVar); open {
		s := &pendingShape{kind: shUpdate, subj: xt, subjE: x.X, res: c.fresh(), fields: x.Fields, span: x.Span()}
		for _, f := range x.Fields {
			s.vals = append(s.vals, c.expr(f.Value, nil))
		}
		c.deferShape(s)
		return xt
	}
	r, ok := Resolve(xt).(*Named)
	if !ok || r.Def.Kind != RecordDef {
		for _, f := range x.Fields {
			c.expr(f.Value, nil)
		}
		if !hasInvalid(xt) {
			c.errorf(ErrNoField, spanOf(x.X), "record update requires a record, found %s", Zonk(xt))
		}
		return Invalid
	}
	for _, f := range x.Fields {
		ft := c.updateField(r, f)
		if ft == nil {
			c.expr(f.Value, nil)
			c.noFieldHelp(c.errorf(ErrNoField, f.Span(), "type %s has no field '%s'", r.Def.Name, f.Label), r.Def, f.Label)
			continue
		}
		vt := c.expr(f.Value, ft)
		c.expect(spanOf(f.Value), vt, ft, "record update field '"+f.Label+"': expression type")
	}
	return xt
}

// updateField is the type of the field a record update writes, or nil
// (reported) when the record has no such field.
func (c *Checker) updateField(r *Named, f *ast.Arg) Type {
	for i, n := range r.Def.Ctors[0].FieldNames {
		if n == f.Label {
			return c.fieldType(r, i)
		}
	}
	c.errorf(ErrNoField, f.Span(), "type %s has no field '%s'", r.Def.Name, f.Label)
	return nil
}

// ---------------------------------------------------------------- operators

func (c *Checker) unary(x *ast.Unary) Type {
	t := c.expr(x.X, nil)
	switch x.Op {
	case "not":
		if !c.expect(spanOf(x.X), t, BoolT, "operand of 'not': expression type") {
			// Already reported: the result is unknown, so that an enclosing
			// operator does not report a follow-on error (§9).
			return Invalid
		}
		return BoolT
	case "~~~":
		sp := spanOf(x.X)
		c.require(t, reqInt, "~~~", sp, func(_ requirement, rt Type, _ *failure) {
			c.errorf(ErrMismatch, sp, "operand of '~~~': expression type: expected Int, found %s", Zonk(rt)).Label = "this has type " + Zonk(rt).String()
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
		c.expect(x.L.Span(), l, BoolT, "operand of '"+x.Op+"': expression type")
		r := c.expr(x.R, BoolT)
		c.expect(x.R.Span(), r, BoolT, "operand of '"+x.Op+"': expression type")
		return BoolT
	case "in":
		l := c.expr(x.L, nil)
		r := c.expr(x.R, nil)
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
	})
	return result
}

// ---------------------------------------------------------------- ? and return

func (c *Checker) try(x *ast.Try) Type {
	t := c.expr(x.X, nil)
	if c.fn.inDefer {
		c.errorf(ErrDeferExit, x.Span(), "defer cannot use ?")
		return Invalid
	}
	ret := Resolve(c.fn.ret)
	if v, ok := ret.(*TVar); ok && !c.fn.retKnown {
		unify(v, &Named{Def: ResultDef, Args: []Type{c.fresh(), c.fresh()}})
		ret = Resolve(v)
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
		c.errorf(ErrTryErrType, x.Span(), "? error type: expected %s, found %s", Zonk(rn.Args[1]), Zonk(on.Args[1]))
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
		c.expect(sp, t, c.fn.ret, "function return: expression type")
	} else if !c.expectRet(sp, t, c.fn.ret, "function return: expression type") {
		c.fn.retBroken = true
	}
	return NeverT
}

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
		scope:    &scope{parent: c.fn.scope, names: map[string]*Object{}},
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
			c.expect(lastSpan(x.Body), bt, ctx.ret, "lambda return: expression type")
		} else {
			c.expectRet(lastSpan(x.Body), bt, ctx.ret, "lambda return: expression type")
		}
	}
	return &Func{Params: params, Ret: ctx.ret}
}

// ---------------------------------------------------------------- control flow

func (c *Checker) inScope(f func()) {
	saved := c.fn.scope
	c.fn.scope = &scope{parent: saved, names: map[string]*Object{}}
	f()
	c.fn.scope = saved
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
			c.errorf(ErrMismatch, span, "%s: expected %s, found %s", ctx, Zonk(acc), Zonk(t))
		}
		return Invalid
	}
	return acc
}

func (c *Checker) ifExpr(x *ast.If, hint Type) Type {
	ct := c.expr(x.Cond, BoolT)
	c.expect(spanOf(x.Cond), ct, BoolT, "if condition: expression type")
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
		tt = c.join(hint, tt, lastSpan(x.Then), "if branches: expression type")
	}
	return c.join(tt, et, lastSpan(x.Else), "if branches: expression type")
}

func (c *Checker) match(x *ast.Match, hint Type) Type {
	var acc Type
	if _, ok := resolveHint(hint).(*Union); ok {
		acc = hint
	}
	allNever := true
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
				c.expect(spanOf(a.Cond), t, BoolT, "match condition: expression type")
				if last {
					c.errorf(ErrCondMatchLast, spanOf(a.Cond), "a condition match must end with a '_ ->' arm")
				}
			}
			bt := c.branch(a.Body, hint, false)
			if !isNever(bt) {
				allNever = false
			}
			acc = c.join(acc, bt, lastSpan(a.Body), "match arms: expression type")
			if hint == nil && acc != nil && !isNever(acc) {
				hint = acc
			}
		}
		if len(x.Arms) == 0 {
			c.errorf(ErrCondMatchLast, x.Span(), "a condition match must end with a '_ ->' arm")
		}
		if allNever {
			return NeverT
		}
		return acc
	}
	st := c.expr(x.Subject, nil)
	for _, a := range x.Arms {
		c.inScope(func() {
			binds := map[string]bool{}
			c.pattern(a.Pattern, st, binds)
			if a.Guard != nil {
				gt := c.expr(a.Guard, BoolT)
				c.expect(spanOf(a.Guard), gt, BoolT, "match guard: expression type")
			}
			bt := c.bodyExpr(a.Body, hint, false)
			if !isNever(bt) {
				allNever = false
			}
			acc = c.join(acc, bt, lastSpan(a.Body), "match arms: expression type")
			if hint == nil && acc != nil && !isNever(acc) {
				hint = acc
			}
		})
	}
	arms := x.Arms
	subj := x.Subject.Span()
	c.deferred = append(c.deferred, func() { c.checkArms(arms, st, true, subj) })
	c.deferred = append(c.deferred, func() {
		if !wildcardOnlyResultMatch(st, arms) {
			return
		}
		c.errorf(ErrResultWildcard, subj, "Result value must be handled; a match whose only arm is '_' does not inspect it").Hint =
			"match on Ok(…) and Err(…)"
	})
	c.deferred = append(c.deferred, func() {
		for _, a := range arms {
			c.checkNestedWildcards(a.Pattern, 0)
		}
	})
	if allNever {
		return NeverT
	}
	if acc == nil {
		return NeverT
	}
	return acc
}

// mailbox returns the current function's mailbox type M: every receive
// of one function and its Process.self() share it (§4.3 steps 2-3). The
// propagation of mailbox effects through calls is a later stage.
func (c *Checker) mailbox(span source.Span) Type {
	if c.fn.mailbox == nil {
		c.fn.mailbox = c.fresh()
		if c.fn.node != nil {
			c.info.Mailboxes[c.fn.node] = c.fn.mailbox
			c.mailboxSites = append(c.mailboxSites, mailboxSite{t: c.fn.mailbox, span: span})
		}
	}
	return c.fn.mailbox
}

// maxReceiveArms is the arm limit of a receive (§6.2).
const maxReceiveArms = 128

func (c *Checker) receive(x *ast.Receive, hint Type) Type {
	if c.fn.isMain {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context; main cannot receive").Hint =
			"spawn a process that receives, e.g. with Process.spawn"
	} else if c.fn.isRoot {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context").Notes =
			[]string{"the library start function is called by the host in the root context"}
	} else if c.fn.noActor {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context").Notes =
			[]string{"callbacks of List, Option and Result functions run without a mailbox"}
	}
	if c.fn.inDefer && !c.fn.deferFlagged {
		c.errorf(ErrDeferProcess, x.Span(), "actor receive cannot occur in defer")
		c.fn.deferFlagged = true
	}
	total := len(x.Arms)
	if x.After != nil {
		total++
	}
	if len(x.Arms) == 0 || total > maxReceiveArms {
		c.errorf(ErrReceiveArms, x.Span(), "receive allows between 1 and %d arms, at least one of them a message arm; found %d arms", maxReceiveArms, total)
	}
	var pt Type = c.mailbox(x.Span())
	if x.Event {
		pt = &Named{Def: EventDef, Args: []Type{pt}}
	}
	var acc Type
	if _, ok := resolveHint(hint).(*Union); ok {
		acc = hint
	}
	allNever := true
	for _, a := range x.Arms {
		c.inScope(func() {
			binds := map[string]bool{}
			c.pattern(a.Pattern, pt, binds)
			if a.Guard != nil {
				gt := c.expr(a.Guard, BoolT)
				c.expect(spanOf(a.Guard), gt, BoolT, "receive guard: expression type")
				c.checkReceiveGuard(a.Guard)
			}
			bt := c.bodyExpr(a.Body, hint, false)
			if !isNever(bt) {
				allNever = false
			}
			acc = c.join(acc, bt, lastSpan(a.Body), "receive arms: expression type")
		})
	}
	if x.After != nil {
		tt := c.expr(x.After.Timeout, IntT)
		c.expect(spanOf(x.After.Timeout), tt, IntT, "receive timeout: expression type")
		bt := c.branch(x.After.Body, hint, false)
		if !isNever(bt) {
			allNever = false
		}
		acc = c.join(acc, bt, lastSpan(x.After.Body), "receive arms: expression type")
	}
	arms := x.Arms
	c.deferred = append(c.deferred, func() { c.checkArms(arms, pt, false, x.Span()) })
	if allNever || acc == nil {
		return NeverT
	}
	return acc
}

func (c *Checker) forExpr(x *ast.For) Type {
	it := c.expr(x.Iter, nil)
	var el Type
	if _, open := Resolve(it).(*TVar); open {
		el = c.fresh()
		c.deferShape(&pendingShape{kind: shFor, subj: it, subjE: x.Iter, res: el, span: spanOf(x.Iter)})
	} else {
		el = c.itemOf(Resolve(it), x.Iter)
	}
	c.inScope(func() {
		binds := map[string]bool{}
		before := len(c.diags)
		c.pattern(x.Pattern, el, binds)
		if len(c.diags) == before && !c.irrefutable(x.Pattern, el) {
			c.errorf(ErrRefutableLet, spanOf(x.Pattern), "let patterns must be irrefutable; use match for literals or constructors")
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
		if r.Def == ListDef {
			return r.Args[0]
		}
	}
	c.errorf(ErrNotIterable, spanOf(iter), "for requires a List or Range, found %s", Zonk(rt))
	return Invalid
}

// with checks a `with` chain (§3.8): every step's value is a Result with
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
				c.errorf(ErrMismatch, spanOf(st.X), "with step: expression type: expected %s, found %s", Zonk(want), Zonk(vt))
			}
			c.pattern(st.Pattern, okT, map[string]bool{})
		}
		bt = c.bodyExpr(x.Body, hint, false)
	})
	if len(x.ElseArms) == 0 {
		want := &Named{Def: ResultDef, Args: []Type{c.fresh(), errT}}
		if !isNever(bt) && !c.accepts(bt, want) && !hasInvalid(bt) {
			c.errorf(ErrMismatch, lastSpan(x.Body), "with body: expression type: expected %s, found %s", Zonk(want), Zonk(bt))
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
				c.expect(spanOf(a.Guard), gt, BoolT, "match guard: expression type")
			}
			at := c.bodyExpr(a.Body, hint, false)
			acc = c.join(acc, at, lastSpan(a.Body), "with arms: expression type")
		})
	}
	return acc
}

// wildcardOnlyResultMatch reports whether a match on a subject of type st
// never tests the tag of a Result and throws it away: every arm is `_`
// (E5005, §5.2).
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
