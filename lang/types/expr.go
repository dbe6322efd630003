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
	if e == nil || isNilExpr(e) {
		return Invalid
	}
	t := c.expr1(e, hint)
	c.info.Types[e] = t
	return t
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
			c.whenResolved(pt, func(rt Type) {
				switch r := rt.(type) {
				case *Basic:
					switch r.Kind {
					case KInt, KFloat, KBool, KString, KInvalid, KNever, KProcessID, KMonitorRef:
						return
					}
				case *Named:
					if r.Def == PidDef {
						return
					}
				case *TVar:
					return
				}
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
		if c.fn.loops == 0 {
			c.errorf(ErrLoopControl, x.Span(), "break outside of a for loop")
		}
		return NeverT
	case *ast.Continue:
		if c.fn.loops == 0 {
			c.errorf(ErrLoopControl, x.Span(), "continue outside of a for loop")
		}
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
		return subst(sig.FuncType(), c.instantiate(sig.Generics))
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

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func containsResult(t Type) bool {
	return containsResultIn(t, nil)
}

// containsResultIn is containsResult with the nominal types already being
// looked into, so recursive types terminate. A nominal type carries a
// Result when a type argument does or when one of its constructors'
// declared fields does (a record with a Result field carries that
// Result's duty, LANGUAGE.md §5.2).
func containsResultIn(t Type, seen map[*TypeDef]bool) bool {
	switch r := Resolve(t).(type) {
	case *Named:
		if r.Def == ResultDef {
			return true
		}
		if r.Def == PidDef {
			return false // a Pid carries no message value
		}
		for _, a := range r.Args {
			if containsResultIn(a, seen) {
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
				if containsResultIn(f, seen) {
					return true
				}
			}
		}
	case *Tuple:
		for _, e := range r.Elems {
			if containsResultIn(e, seen) {
				return true
			}
		}
	}
	return false
}

func (c *Checker) builtinValue(name string, span source.Span) Type {
	if callOnly[name] {
		c.errorf(ErrActorHelper, span, "%s cannot be used as a function value; call it directly", name).Hint =
			"wrap the call in a lambda, e.g. `" + callOnlyLambda(name) + "`"
		return Invalid
	}
	bs := builtinSigs[name]
	m := c.instantiate(bs.Generics)
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
	rt := Resolve(xt)
	if v, ok := rt.(*TVar); ok {
		// Infer the record from the field name when exactly one record has it.
		var found *TypeDef
		n := 0
		for _, d := range c.file.Decls {
			td, ok := d.(*ast.TypeDecl)
			if !ok || td.Kind != ast.RecordType {
				continue
			}
			def := c.info.TypeDefs[td.Name]
			if def == nil {
				continue
			}
			for _, f := range def.Fields {
				if f == x.Name {
					found = def
					n++
				}
			}
		}
		if n != 1 {
			c.errorf(ErrFieldInfer, x.Span(), "cannot infer the record type for field '.%s'; add a type annotation", x.Name)
			return Invalid
		}
		_, res := c.ctorType(found.Ctors[0])
		unify(v, res)
		rt = Resolve(xt)
	}
	switch r := rt.(type) {
	case *Named:
		if r.Def.Kind == RecordDef {
			ct := r.Def.Ctors[0]
			for i, f := range ct.FieldNames {
				if f == x.Name {
					return c.fieldType(r, i)
				}
			}
		}
		c.noFieldHelp(c.errorf(ErrNoField, x.Span(), "type %s has no field '%s'", Zonk(rt), x.Name), r.Def, x.Name)
		return Invalid
	case *Basic:
		if r.Kind == KInvalid {
			return Invalid
		}
	}
	c.errorf(ErrNoField, x.Span(), "type %s has no field '%s'", Zonk(rt), x.Name)
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
	switch r := Resolve(xt).(type) {
	case *Tuple:
		if x.Index < len(r.Elems) {
			return r.Elems[x.Index]
		}
		c.errorf(ErrTupleIndex, x.Span(), "tuple index %d is out of range for %s", x.Index, Zonk(xt))
		return Invalid
	case *Named:
		if (r.Def.Kind == NewtypeDef || r.Def.Kind == RecordDef) && x.Index < len(r.Def.Ctors[0].Fields) {
			return c.fieldType(r, x.Index)
		}
	case *TVar:
		c.errorf(ErrFieldInfer, x.Span(), "cannot infer the tuple type for '.%d'; add a type annotation", x.Index)
		return Invalid
	case *Basic:
		if r.Kind == KInvalid {
			return Invalid
		}
	}
	c.errorf(ErrTupleIndex, x.Span(), "type %s has no element .%d", Zonk(xt), x.Index)
	return Invalid
}

func (c *Checker) recordUpdate(x *ast.RecordUpdate) Type {
	xt := c.expr(x.X, nil)
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
	ct := r.Def.Ctors[0]
	for _, f := range x.Fields {
		idx := -1
		for i, n := range ct.FieldNames {
			if n == f.Label {
				idx = i
			}
		}
		if idx < 0 {
			c.expr(f.Value, nil)
			c.noFieldHelp(c.errorf(ErrNoField, f.Span(), "type %s has no field '%s'", r.Def.Name, f.Label), r.Def, f.Label)
			continue
		}
		ft := c.fieldType(r, idx)
		vt := c.expr(f.Value, ft)
		c.expect(spanOf(f.Value), vt, ft, "record update field '"+f.Label+"': expression type")
	}
	return xt
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
		c.expect(spanOf(x.X), t, IntT, "operand of '~~~': expression type")
		return IntT
	default:
		sp := x.Span()
		c.whenResolved(t, func(rt Type) {
			if v, ok := rt.(*TVar); ok {
				unify(v, IntT)
				return
			}
			if !isBasic(rt, KInt) && !isBasic(rt, KFloat) && !hasInvalid(rt) && !isNever(rt) {
				c.errorf(ErrBinaryOperands, sp, "unary '-' requires Int or Float, found %s", Zonk(rt))
			}
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
		c.requireScalar(l, x.Span(), "`in`")
		return BoolT
	}
	l := c.expr(x.L, nil)
	r := c.expr(x.R, l)
	if isNever(l) || isNever(r) {
		if isNever(l) {
			l = r
		}
	} else if !unify(l, r) {
		c.operandError(x, l, r)
		switch x.Op {
		case "==", "!=", "<", "<=", ">", ">=":
			return BoolT
		}
		return Invalid
	}
	var ok func(Type) bool
	result := l
	switch x.Op {
	case "+":
		ok = func(t Type) bool { return isBasic(t, KInt) || isBasic(t, KFloat) || isBasic(t, KString) }
	case "-", "*", "/", "**":
		ok = func(t Type) bool { return isBasic(t, KInt) || isBasic(t, KFloat) }
	case "%", "&&&", "|||", "^^^", "<<<", ">>>":
		ok = func(t Type) bool { return isBasic(t, KInt) }
	case "<", "<=", ">", ">=":
		ok = func(t Type) bool { return isBasic(t, KInt) || isBasic(t, KFloat) }
		result = BoolT
	case "==", "!=":
		ok = c.eqable
		result = BoolT
	default:
		c.errorf(ErrBinaryOperands, x.Span(), "unknown operator '%s'", x.Op)
		return Invalid
	}
	c.whenResolved(l, func(rt Type) {
		if v, isV := rt.(*TVar); isV {
			if x.Op == "==" || x.Op == "!=" {
				return
			}
			unify(v, IntT)
			rt = IntT
		}
		if hasInvalid(rt) || isNever(rt) {
			return
		}
		if !ok(rt) {
			c.operandError(x, rt, rt)
			if n, isN := rt.(*Named); isN && !n.Def.Builtin && (x.Op == "==" || x.Op == "!=") {
				c.diags[len(c.diags)-1].Hint = "add Eq to the derive list of " + n.Def.Name
			}
		}
	})
	return result
}

// eqable reports whether == and != accept values of type t (§3.7). This
// implementation also accepts Unit and structural types (tuples, lists,
// Option, Result) whose components are comparable.
func (c *Checker) eqable(t Type) bool {
	switch r := Resolve(t).(type) {
	case *Basic:
		return r.Kind != KRange
	case *TVar, *TParam:
		return true
	case *Func, *Union:
		return false
	case *Tuple:
		for _, e := range r.Elems {
			if !c.eqable(e) {
				return false
			}
		}
		return true
	case *Named:
		if r.Def == PidDef {
			return true
		}
		if !r.Def.Builtin {
			if r.Def.Derives["Eq"] {
				return true
			}
			if r.Def.Kind == NewtypeDef {
				return isScalar(c.fieldType(r, 0))
			}
			return false
		}
		for _, a := range r.Args {
			if !c.eqable(a) {
				return false
			}
		}
		return true
	}
	return false
}

func isScalar(t Type) bool {
	b, ok := Resolve(t).(*Basic)
	return ok && (b.Kind == KInt || b.Kind == KFloat || b.Kind == KBool || b.Kind == KString)
}

func (c *Checker) requireScalar(t Type, span source.Span, what string) {
	c.whenResolved(t, func(rt Type) {
		switch r := rt.(type) {
		case *TVar, *TParam:
			return
		case *Basic:
			if isScalar(r) || r.Kind == KInvalid || r.Kind == KNever {
				return
			}
		case *Named:
			if r.Def.Kind == NewtypeDef && isScalar(c.fieldType(r, 0)) {
				return
			}
		}
		c.errorf(ErrContainsScalar, span, "List.contains requires scalar Int, Float, Bool, or String elements").Notes =
			[]string{fmt.Sprintf("%s was used with elements of type %s", what, Zonk(rt))}
	})
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
	c.expect(sp, t, c.fn.ret, "function return: expression type")
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
			unify(ctx.ret, bt)
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
	if x.Else == nil || isNilExpr(x.Else) {
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
	if x.Subject == nil || isNilExpr(x.Subject) {
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
	switch r := Resolve(it).(type) {
	case *Basic:
		if r.Kind == KRange {
			el = IntT
		} else if r.Kind == KInvalid {
			el = Invalid
		}
	case *Named:
		if r.Def == ListDef {
			el = r.Args[0]
		}
	case *TVar:
		v := c.fresh()
		unify(r, &Named{Def: ListDef, Args: []Type{v}})
		el = v
	}
	if el == nil {
		c.errorf(ErrNotIterable, spanOf(x.Iter), "for requires a List or Range, found %s", Zonk(it))
		el = Invalid
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
// never tests the tag of a Result: every arm is `_` or a plain binding
// (E5005, §5.2).
func wildcardOnlyResultMatch(st Type, arms []*ast.Arm) bool {
	if !isResult(st) || hasInvalid(st) {
		return false
	}
	for _, a := range arms {
		switch a.Pattern.(type) {
		case *ast.WildcardPat, *ast.BindPat, nil:
		default:
			return false
		}
	}
	return true
}
