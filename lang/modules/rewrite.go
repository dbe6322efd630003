package modules

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// rewriter renames the top-level names one module's tree refers to into
// global names, following the module's scope; local bindings (lowercase
// names bound by parameters, let, patterns, for and with) shadow it.
//
// The local bindings in scope are one stack of names (locals), each
// scope the names above its mark (scopes): the two slices are reused
// from scope to scope, where a map per scope cost an allocation for
// every function, block and arm of the program.
type rewriter struct {
	p      *Program
	m      *Module
	locals []string
	scopes []int
}

func (r *rewriter) push() { r.scopes = append(r.scopes, len(r.locals)) }
func (r *rewriter) pop() {
	r.locals = r.locals[:r.scopes[len(r.scopes)-1]]
	r.scopes = r.scopes[:len(r.scopes)-1]
}
func (r *rewriter) bind(n string) {
	if len(r.scopes) > 0 {
		r.locals = append(r.locals, n)
	}
}

func (r *rewriter) bound(n string) bool {
	for i := len(r.locals) - 1; i >= 0; i-- {
		if r.locals[i] == n {
			return true
		}
	}
	return false
}

// useValue looks up a value name in the module's scope, marking the
// import that brought it as used.
func (r *rewriter) useValue(n string) *entity { return use(r.m.sc.values[n]) }

// useType looks up a type name in the module's scope, marking the
// import that brought it as used.
func (r *rewriter) useType(n string) *entity { return use(r.m.sc.types[n]) }

// use returns the declaration a binding (nil: none) stands for and
// marks the import that brought it, if any, as used.
func use(b *binding) *entity {
	if b == nil {
		return nil
	}
	if b.imp != nil {
		b.imp.used = true
	}
	return b.e
}

// private reports a name that is not in scope but is a private
// declaration of a module imported with `.{*}` (E7008), and returns that
// declaration so that no "unknown name" follows.
func (r *rewriter) private(name string, isType bool, span source.Span) *entity {
	key := name
	if isType {
		key = "type:" + name
	}
	for _, g := range r.m.sc.globs {
		if e := g.sc.own[key]; e != nil && !e.pub {
			r.p.missing(r.m, g, name, span)
			return e
		}
	}
	return nil
}

// qualifier finds the longest prefix of segs (leaving at least one
// segment) that names an imported module; it returns the module and the
// prefix length.
func (r *rewriter) qualifier(segs []string) (*Module, int) {
	if len(segs) < 2 || r.bound(segs[0]) {
		return nil, 0
	}
	for k := len(segs) - 1; k >= 1; k-- {
		if q := r.m.sc.quals[strings.Join(segs[:k], ".")]; q != nil {
			q.imp.used = true
			return q.mod, k
		}
	}
	return nil, 0
}

// member looks up a public name of dep, reporting a private or missing
// one; it still returns the declaration when there is one, to keep
// follow-on errors away.
func (r *rewriter) member(dep *Module, name string, isType bool, span source.Span) *entity {
	tab := dep.exports.values
	if isType {
		tab = dep.exports.types
	}
	if b := tab[name]; b != nil {
		return b.e
	}
	r.p.missing(r.m, dep, name, span)
	key := name
	if isType {
		key = "type:" + name
	}
	return dep.sc.own[key]
}

func ctorOf(t *entity, name string) *entity {
	for _, c := range t.ctors {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (r *rewriter) file() {
	for _, d := range r.m.AST.Decls {
		switch d := d.(type) {
		case *ast.FnDecl:
			d.Name = mangle(r.m, d.Name)
			d.Body = r.function(d.Params, d.Ret, d.Body)
		case *ast.TypeDecl:
			d.Name = mangle(r.m, d.Name)
			for _, v := range d.Variants {
				v.Name = mangle(r.m, v.Name)
				for _, f := range v.Fields {
					r.typ(f.Type)
				}
			}
			for _, f := range d.Fields {
				r.typ(f.Type)
			}
			r.typ(d.Alias)
		case *ast.NewtypeDecl:
			d.Name = mangle(r.m, d.Name)
			d.Ctor = mangle(r.m, d.Ctor)
			r.typ(d.Type)
		}
	}
}

// function rewrites the signature and body of a function or lambda, in
// a scope of its own for its parameters; it returns the body.
func (r *rewriter) function(ps []*ast.Param, ret ast.TypeExpr, body ast.Expr) ast.Expr {
	r.push()
	defer r.pop()
	r.params(ps)
	r.typ(ret)
	return r.expr(body)
}

// params rewrites parameter types and binds parameter names.
func (r *rewriter) params(ps []*ast.Param) {
	for _, p := range ps {
		r.typ(p.Type)
		if p.Pattern != nil {
			r.pat(p.Pattern)
		} else {
			r.bind(p.Name)
		}
	}
}

// typ rewrites the type names of a type expression.
func (r *rewriter) typ(t ast.TypeExpr) {
	switch t := t.(type) {
	case *ast.NamedType:
		r.namedType(t)
	case *ast.TupleType:
		r.typs(t.Elems)
	case *ast.FuncType:
		r.typs(t.Params)
		r.typ(t.Ret)
	case *ast.UnionType:
		r.typs(t.Alts)
	}
}

// typs rewrites a list of type expressions.
func (r *rewriter) typs(ts []ast.TypeExpr) {
	for _, t := range ts {
		r.typ(t)
	}
}

// namedType rewrites a named type (`Shape`, `geo.Shape`) and its
// arguments.
func (r *rewriter) namedType(t *ast.NamedType) {
	r.typs(t.Args)
	if !strings.Contains(t.Name, ".") {
		if e := r.useType(t.Name); e != nil {
			t.Name = e.global
		} else if e := r.private(t.Name, true, t.Span()); e != nil {
			t.Name = e.global
		}
		return
	}
	segs := strings.Split(t.Name, ".")
	if dep, k := r.qualifier(segs); dep != nil && k == len(segs)-1 {
		if e := r.member(dep, segs[k], true, t.Span()); e != nil {
			t.Name = e.global
		}
	}
}

// ctorName rewrites a constructor name as written in a pattern or path:
// `Circle`, `Shape.Circle`, `geo.shapes.Circle`, `s.Shape.Circle`.
func (r *rewriter) ctorName(name string, span source.Span) string {
	if !strings.Contains(name, ".") {
		if e := r.useValue(name); e != nil {
			return e.global
		}
		if e := r.private(name, false, span); e != nil {
			return e.global
		}
		return name
	}
	segs := strings.Split(name, ".")
	if len(segs) == 2 {
		if t := r.useType(segs[0]); t != nil {
			if c := ctorOf(t, segs[1]); c != nil {
				return t.global + "." + c.global
			}
			return name
		}
	}
	if g := r.qualifiedCtor(segs, span); g != "" {
		return g
	}
	return name
}

// qualifiedCtor resolves a constructor name behind a module qualifier
// (`geo.shapes.Circle`, `s.Shape.Circle`) to its global name, or "".
func (r *rewriter) qualifiedCtor(segs []string, span source.Span) string {
	dep, k := r.qualifier(segs)
	if dep == nil {
		return ""
	}
	switch len(segs) - k {
	case 1:
		if e := r.member(dep, segs[k], false, span); e != nil {
			return e.global
		}
	case 2:
		if t := r.member(dep, segs[k], true, span); t != nil {
			if c := ctorOf(t, segs[k+1]); c != nil {
				return t.global + "." + c.global
			}
		}
	}
	return ""
}

// pat rewrites constructor names in a pattern and binds its names.
func (r *rewriter) pat(p ast.Pattern) {
	switch p := p.(type) {
	case *ast.BindPat:
		r.bind(p.Name)
	case *ast.TypedPat:
		r.typ(p.Type)
		r.bind(p.Name)
	case *ast.TuplePat:
		r.pats(p.Elems, p.Rest)
	case *ast.ListPat:
		r.pats(p.Elems, p.Rest)
	case *ast.CtorPat:
		p.Name = r.ctorName(p.Name, p.Span())
		r.pats(p.Args, nil)
	}
}

// pats rewrites the element patterns of a tuple, list or constructor
// pattern and its rest pattern, if any.
func (r *rewriter) pats(elems []ast.Pattern, rest ast.Pattern) {
	for _, e := range elems {
		r.pat(e)
	}
	if rest != nil {
		r.pat(rest)
	}
}

// chain flattens `a.b.c` into its segments when it is a field chain on a
// name; ok is false for anything else.
func chain(e ast.Expr) (segs []string, nodes []ast.Expr, ok bool) {
	for {
		switch x := e.(type) {
		case *ast.FieldAccess:
			segs = append(segs, x.Name)
			nodes = append(nodes, x)
			e = x.X
			continue
		case *ast.Ident:
			segs = append(segs, x.Name)
			nodes = append(nodes, x)
			for i, j := 0, len(segs)-1; i < j; i, j = i+1, j-1 {
				segs[i], segs[j] = segs[j], segs[i]
				nodes[i], nodes[j] = nodes[j], nodes[i]
			}
			return segs, nodes, true
		}
		return nil, nil, false
	}
}

// qualified rewrites a field chain that starts with a module qualifier
// (`geo.shapes.area`, `s.Circle`, `s.Shape.Circle`); ok is false when
// the chain is ordinary field access.
func (r *rewriter) qualified(fa *ast.FieldAccess) (ast.Expr, bool) {
	segs, nodes, ok := chain(fa)
	if !ok {
		return nil, false
	}
	dep, k := r.qualifier(segs)
	if dep == nil {
		return nil, false
	}
	var repl ast.Expr
	used := k + 1
	sp := nodes[k].Span()
	if k+1 < len(segs) && dep.exports.types[segs[k]] != nil && isUpperName(segs[k+1]) {
		t := dep.exports.types[segs[k]].e
		if c := ctorOf(t, segs[k+1]); c != nil {
			repl = &ast.Path{Pos: ast.Pos{S: nodes[k+1].Span()}, Parts: []string{t.global, c.global}}
			used = k + 2
		}
	}
	if repl == nil {
		e := r.member(dep, segs[k], false, sp)
		if e == nil {
			return nil, false
		}
		repl = &ast.Ident{Pos: ast.Pos{S: sp}, Name: e.global}
	}
	// Rebuild the field accesses after the replaced prefix on top of it.
	for i := used; i < len(nodes); i++ {
		f := nodes[i].(*ast.FieldAccess)
		f.X = repl
		repl = f
	}
	return repl, true
}

func isUpperName(s string) bool { return s != "" && s[0] >= 'A' && s[0] <= 'Z' }

func (r *rewriter) block(b *ast.Block) {
	r.push()
	for _, s := range b.Stmts {
		r.stmt(s)
	}
	r.pop()
}

func (r *rewriter) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.LetStmt:
		r.typ(s.Type)
		s.Value = r.expr(s.Value)
		s.Else = r.expr(s.Else)
		r.pat(s.Pattern)
	case *ast.DeferStmt:
		s.X = r.expr(s.X)
	case *ast.ExprStmt:
		s.X = r.expr(s.X)
		s.Cond = r.expr(s.Cond)
	}
}

func (r *rewriter) arm(a *ast.Arm) {
	r.push()
	if a.Pattern != nil {
		r.pat(a.Pattern)
	}
	a.Cond = r.expr(a.Cond)
	a.Guard = r.expr(a.Guard)
	a.Body = r.expr(a.Body)
	r.pop()
}

// expr rewrites an expression and returns it (or its replacement).
func (r *rewriter) expr(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.Ident:
		r.ident(x)
	case *ast.Path:
		return r.path(x)
	case *ast.FieldAccess:
		if repl, ok := r.qualified(x); ok {
			return repl
		}
		x.X = r.expr(x.X)
	default:
		if !r.scoped(e) {
			r.operands(e)
		}
	}
	return e
}

// ident rewrites a plain name that no local binding shadows.
func (r *rewriter) ident(x *ast.Ident) {
	if r.bound(x.Name) {
		return
	}
	if ent := r.useValue(x.Name); ent != nil {
		x.Name = ent.global
	} else if ent := r.private(x.Name, false, x.Span()); ent != nil {
		x.Name = ent.global
	}
}

// path rewrites `Type.Ctor` and, for an uppercase module name
// (`import Geo`), `Geo.f` and `Geo.Type.Ctor`.
func (r *rewriter) path(x *ast.Path) ast.Expr {
	if dep, k := r.qualifier(x.Parts); dep != nil {
		rest := x.Parts[k:]
		if len(rest) == 2 && dep.exports.types[rest[0]] != nil {
			if c := ctorOf(dep.exports.types[rest[0]].e, rest[1]); c != nil {
				return &ast.Path{Pos: x.Pos, Parts: []string{dep.exports.types[rest[0]].e.global, c.global}}
			}
		}
		if len(rest) == 1 {
			if e := r.member(dep, rest[0], false, x.Span()); e != nil {
				return &ast.Ident{Pos: x.Pos, Name: e.global}
			}
		}
		return x
	}
	if len(x.Parts) == 2 {
		if t := r.useType(x.Parts[0]); t != nil {
			if c := ctorOf(t, x.Parts[1]); c != nil {
				x.Parts = []string{t.global, c.global}
			}
		}
	}
	return x
}

// scoped rewrites the expressions that open a scope for the names they
// bind (blocks, lambdas, for, with, match and receive arms); it reports
// false for any other expression.
func (r *rewriter) scoped(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Block:
		r.block(x)
	case *ast.Lambda:
		x.Body = r.function(x.Params, x.Ret, x.Body)
	case *ast.For:
		x.Iter = r.expr(x.Iter)
		r.push()
		r.pat(x.Pattern)
		x.Body = r.expr(x.Body)
		r.pop()
	case *ast.With:
		r.with(x)
	case *ast.Match:
		x.Subject = r.expr(x.Subject)
		r.arms(x.Arms)
	case *ast.Receive:
		r.arms(x.Arms)
		if x.After != nil {
			x.After.Timeout = r.expr(x.After.Timeout)
			x.After.Body = r.expr(x.After.Body)
		}
	default:
		return false
	}
	return true
}

// with rewrites a with expression: its steps bind names for the later
// steps and the body, not for the else arms.
func (r *rewriter) with(x *ast.With) {
	r.push()
	for _, s := range x.Steps {
		s.X = r.expr(s.X)
		r.pat(s.Pattern)
	}
	x.Body = r.expr(x.Body)
	r.pop()
	r.arms(x.ElseArms)
}

// arms rewrites match, receive or else arms, each in its own scope.
func (r *rewriter) arms(as []*ast.Arm) {
	for _, a := range as {
		r.arm(a)
	}
}

// operands rewrites the operands of operator and control expressions
// that bind nothing; literals go to literal.
func (r *rewriter) operands(e ast.Expr) {
	switch x := e.(type) {
	case *ast.TupleIndex:
		x.X = r.expr(x.X)
	case *ast.Index:
		x.X = r.expr(x.X)
		x.I = r.expr(x.I)
	case *ast.Call:
		x.Fn = r.expr(x.Fn)
		r.args(x.Args)
	case *ast.Unary:
		x.X = r.expr(x.X)
	case *ast.Binary:
		x.L = r.expr(x.L)
		x.R = r.expr(x.R)
	case *ast.Range:
		x.Lo = r.expr(x.Lo)
		x.Hi = r.expr(x.Hi)
	case *ast.Try:
		x.X = r.expr(x.X)
	case *ast.If:
		x.Cond = r.expr(x.Cond)
		x.Then = r.expr(x.Then)
		x.Else = r.expr(x.Else)
	case *ast.Return:
		x.X = r.expr(x.X)
	case *ast.Paren:
		x.X = r.expr(x.X)
	default:
		r.literal(e)
	}
}

// literal rewrites the elements of string, tuple, list, map and record
// update literals.
func (r *rewriter) literal(e ast.Expr) {
	switch x := e.(type) {
	case *ast.InterpString:
		for i := range x.Parts {
			x.Parts[i].X = r.expr(x.Parts[i].X)
		}
	case *ast.Tuple:
		r.exprs(x.Elems)
	case *ast.ListLit:
		r.exprs(x.Elems)
	case *ast.RecordUpdate:
		x.X = r.expr(x.X)
		r.args(x.Fields)
	case *ast.MapLit:
		r.exprs(x.Keys)
		r.exprs(x.Values)
	}
}

// exprs rewrites a list of expressions in place.
func (r *rewriter) exprs(es []ast.Expr) {
	for i := range es {
		es[i] = r.expr(es[i])
	}
}

// args rewrites the values of call arguments or record update fields.
func (r *rewriter) args(as []*ast.Arg) {
	for _, a := range as {
		a.Value = r.expr(a.Value)
	}
}
