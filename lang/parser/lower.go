package parser

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// lowerer turns the grammar structs into lang/ast, applying operator
// precedence, desugaring pipes and reinterpreting parenthesised groups.
// It reports problems the grammar cannot express (integer range, chained
// ranges, misplaced `_`, …) and never panics on a partial tree.
type lowerer struct {
	f     *source.File
	diags *diag.List
	strs  map[int]*strLit
	// a holds the grammar structs of the declaration being parsed and
	// lowered (arena.go); fileParser.chunk resets it after each one.
	a *arena
	// nodes allocates the most frequent AST nodes in blocks.
	nodes nodeSlabs
}

func (lw *lowerer) errorf(code diag.Code, sp source.Span, format string, args ...any) {
	lw.diags.Add(lw.f, code, sp, format, args...)
}

func synthetic(t lexer.TokenType) bool {
	return t == tNewline || t == tIndent || t == tDedent || t == tEOF
}

// span covers the real (non-layout) tokens of a grammar node.
func span(ts []lexer.Token) source.Span {
	i, j := 0, len(ts)-1
	for i <= j && synthetic(ts[i].Type) {
		i++
	}
	for j >= i && synthetic(ts[j].Type) {
		j--
	}
	if i > j {
		if len(ts) > 0 {
			return source.Span{Start: ts[0].Pos.Offset, End: ts[0].Pos.Offset}
		}
		return source.Span{}
	}
	return source.Span{Start: ts[i].Pos.Offset, End: ts[j].Pos.Offset + len(ts[j].Value)}
}

func pos(ts []lexer.Token) ast.Pos { return ast.Pos{S: span(ts)} }

// isUpper reports whether a name starts with an uppercase letter (any
// script), which makes it a constructor in patterns and a path head.
func isUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// ---------------------------------------------------------------- declarations

func (lw *lowerer) decl(g *gDecl) ast.Decl {
	switch {
	case g == nil:
		return nil
	case g.Fn != nil: // fn and typeDecl never return nil
		d := lw.fn(g.Fn)
		d.Pub, d.S = g.Pub, span(g.Tokens)
		return d
	case g.Type != nil:
		d := lw.typeDecl(g.Type)
		d.Pub, d.S = g.Pub, span(g.Tokens)
		return d
	case g.Newtype != nil:
		n := g.Newtype
		d := &ast.NewtypeDecl{Pos: pos(g.Tokens), Pub: g.Pub, Params: n.Params, Ctor: n.Ctor, Type: lw.typ(n.Type)}
		if n.Name != nil {
			d.Name, d.NameSpan = n.Name.Name, span(n.Name.Tokens)
		}
		d.Derives = lw.names(n.Derive)
		return d
	}
	return nil
}

func (lw *lowerer) names(gs []*gName) []ast.Ident {
	var out []ast.Ident
	for _, n := range gs {
		if n != nil {
			out = append(out, ast.Ident{Pos: pos(n.Tokens), Name: n.Name})
		}
	}
	return out
}

func (lw *lowerer) fn(g *gFn) *ast.FnDecl {
	d := &ast.FnDecl{Pos: pos(g.Tokens)}
	if g.Name != nil {
		d.Name, d.NameSpan = g.Name.Name, span(g.Name.Tokens)
	}
	for _, p := range g.Params {
		if q := p.Pat; q != nil && (q.Int != nil || q.Float != nil || q.Str != nil || q.True || q.False || q.Neg != nil) {
			lw.errorf(ErrClauseForm, span(q.Tokens), "literal parameter patterns (multi-clause functions) are not supported; take a parameter and match on it in the body")
		}
		d.Params = append(d.Params, lw.param(p))
	}
	switch {
	case g.Arrow != nil && g.Colon:
		if t, ok := lw.exprToType(g.Arrow); ok {
			d.Ret = t
		} else {
			lw.errorf(ErrNotAType, span(g.Arrow.Tokens), "expected a return type after '->'")
		}
		d.Body = lw.body(g.Body)
	case g.Arrow != nil:
		d.Arrow = true
		d.Body = lw.expr(g.Arrow)
	case g.Colon:
		d.Body = lw.body(g.Body)
	default:
		lw.errorf(ErrFnBody, d.NameSpan, "expected ':' or '->' after the parameters of '%s'", d.Name)
		d.Body = &ast.Block{Pos: d.Pos}
	}
	if d.Body == nil {
		d.Body = &ast.Block{Pos: d.Pos}
	}
	return d
}

func (lw *lowerer) param(g *gParam) *ast.Param {
	p := &ast.Param{Pos: pos(g.Tokens)}
	if g.Label != nil {
		p.Label = g.Label.Name
	}
	lw.paramRest(p, lw.pattern(g.Pat), g.Type)
	return p
}

// paramRest sets what follows a parameter's label: a plain name becomes
// its name, another pattern its pattern, and t (may be nil) its type.
func (lw *lowerer) paramRest(p *ast.Param, pat ast.Pattern, t *gType) {
	if b, ok := pat.(*ast.BindPat); ok {
		p.Name = b.Name
	} else {
		p.Pattern = pat
	}
	if t != nil {
		p.Type = lw.typ(t)
	}
}

func (lw *lowerer) typeDecl(g *gTypeDecl) *ast.TypeDecl {
	d := &ast.TypeDecl{Pos: pos(g.Tokens), Params: g.Params, Derives: lw.names(g.Derive)}
	if g.Name != nil {
		d.Name, d.NameSpan = g.Name.Name, span(g.Name.Tokens)
	}
	if g.Alias != nil {
		d.Kind = ast.AliasType
		d.Alias = lw.typ(g.Alias)
		return d
	}
	if len(g.Lines) == 0 {
		return d // the checker reports the empty body
	}
	record := g.Lines[0].FieldType != nil
	if record {
		d.Kind = ast.RecordType
	} else {
		d.Kind = ast.SumType
	}
	for _, ln := range g.Lines {
		name := ""
		if ln.Name != nil {
			name = ln.Name.Name
		}
		sp := span(ln.Tokens)
		if record {
			if ln.FieldType == nil || ln.Paren {
				lw.errorf(ErrBadTypeLine, sp, "expected a record field 'name: Type'; a type's body is either all fields or all variants")
				continue
			}
			d.Fields = append(d.Fields, &ast.Field{Pos: ast.Pos{S: sp}, Name: name, Type: lw.typ(ln.FieldType)})
			continue
		}
		if ln.FieldType != nil {
			lw.errorf(ErrBadTypeLine, sp, "expected a variant such as 'Name' or 'Name(Type)'; a type's body is either all fields or all variants")
			continue
		}
		if !isUpper(name) {
			lw.errorf(ErrBadTypeLine, sp, "variant name '%s' must start with an uppercase letter", name)
		}
		v := &ast.Variant{Pos: ast.Pos{S: sp}, Name: name}
		for _, f := range ln.Fields {
			v.Fields = append(v.Fields, &ast.Field{Pos: pos(f.Tokens), Name: f.Name, Type: lw.typ(f.Type)})
		}
		d.Variants = append(d.Variants, v)
	}
	return d
}

// ---------------------------------------------------------------- types

func (lw *lowerer) typ(g *gType) ast.TypeExpr {
	if g == nil || len(g.Alts) == 0 {
		return &ast.NamedType{Name: "?"}
	}
	if len(g.Alts) == 1 {
		return lw.typeAtom(g.Alts[0])
	}
	u := &ast.UnionType{Pos: pos(g.Tokens)}
	for _, a := range g.Alts {
		u.Alts = append(u.Alts, lw.typeAtom(a))
	}
	return u
}

func (lw *lowerer) typeAtom(g *gTypeAtom) ast.TypeExpr {
	switch {
	case g == nil:
		return &ast.NamedType{Name: "?"}
	case g.Fn != nil:
		ft := &ast.FuncType{Pos: pos(g.Tokens)}
		for _, p := range g.Fn.Params {
			ft.Params = append(ft.Params, lw.typ(p))
		}
		ft.Ret = lw.typeAtom(g.Fn.Ret)
		return ft
	case g.Paren != nil:
		p := g.Paren
		var elems []ast.TypeExpr
		for _, e := range p.Elems {
			elems = append(elems, lw.typ(e))
		}
		if p.Ret != nil {
			return &ast.FuncType{Pos: pos(g.Tokens), Params: elems, Ret: lw.typeAtom(p.Ret)}
		}
		switch {
		case len(elems) == 0:
			return &ast.UnitType{Pos: pos(g.Tokens)}
		case len(elems) == 1 && !p.Trail:
			return elems[0]
		}
		return &ast.TupleType{Pos: pos(g.Tokens), Elems: elems}
	case g.Named != nil:
		n := &ast.NamedType{Pos: pos(g.Tokens), Name: strings.Join(g.Named.Parts, ".")}
		for _, a := range g.Named.Args {
			n.Args = append(n.Args, lw.typ(a))
		}
		return n
	}
	return &ast.NamedType{Pos: pos(g.Tokens), Name: "?"}
}

// exprToType reinterprets an expression parsed after `fn f(…) ->` as the
// return type, once a following `:` shows it was one.
func (lw *lowerer) exprToType(g *gExpr) (ast.TypeExpr, bool) {
	if g == nil || len(g.Rest) != 0 || g.First == nil || len(g.First.Ops) != 0 || g.First.X == nil || g.First.X.X == nil {
		return nil, false
	}
	pf := g.First.X
	pr := pf.X
	switch {
	case pr.Name != nil:
		parts := []string{*pr.Name}
		i := 0
		for ; i < len(pf.Suf) && pf.Suf[i].Field != ""; i++ {
			parts = append(parts, pf.Suf[i].Field)
		}
		n := &ast.NamedType{Pos: pos(g.Tokens), Name: strings.Join(parts, ".")}
		if i < len(pf.Suf) && pf.Suf[i].Call != nil {
			args, ok := convertAll(pf.Suf[i].Call.Args, func(a *gArg) (ast.TypeExpr, bool) {
				return unlabeled(a, lw.exprToType)
			})
			if !ok {
				return nil, false
			}
			n.Args = args
			i++
		}
		return n, i == len(pf.Suf)
	case len(pf.Suf) != 0:
		return nil, false
	case pr.Paren != nil:
		p := pr.Paren
		elems, ok := convertAll(p.Elems, func(e *gParenElem) (ast.TypeExpr, bool) {
			return untyped(e, lw.exprToType)
		})
		if !ok {
			return nil, false
		}
		if p.Arrow {
			if p.Body == nil || p.Body.Expr == nil {
				return nil, false
			}
			r, ok := lw.exprToType(p.Body.Expr)
			return &ast.FuncType{Pos: pos(g.Tokens), Params: elems, Ret: r}, ok
		}
		return tupleType(pos(g.Tokens), elems, p.Trail), true
	case pr.FnLam != nil:
		params, ok := convertAll(pr.FnLam.Params, func(p *gParam) (ast.TypeExpr, bool) {
			if p.Label != nil || p.Type != nil {
				return nil, false
			}
			return lw.patToType(p.Pat)
		})
		if !ok {
			return nil, false
		}
		ft := &ast.FuncType{Pos: pos(g.Tokens), Params: params}
		if pr.FnLam.Body == nil || pr.FnLam.Body.Expr == nil {
			return nil, false
		}
		r, ok := lw.exprToType(pr.FnLam.Body.Expr)
		ft.Ret = r
		return ft, ok
	}
	return nil, false
}

// patToType reinterprets a parameter pattern of `fn(A, B) -> C` as a type.
func (lw *lowerer) patToType(g *gPattern) (ast.TypeExpr, bool) {
	switch {
	case g == nil:
		return nil, false
	case g.Ctor != nil:
		args, ok := convertAll(g.Ctor.Args, lw.patToType)
		return &ast.NamedType{Pos: pos(g.Tokens), Name: strings.Join(g.Ctor.Parts, "."), Args: args}, ok
	case g.Tuple != nil:
		elems, ok := convertAll(g.Tuple.Elems, lw.patToType)
		return tupleType(pos(g.Tokens), elems, g.Tuple.Trail), ok
	}
	return nil, false
}

// lowerAll lowers every element of gs with f, in order (nil when gs is
// empty).
func lowerAll[G, T any](gs []G, f func(G) T) []T {
	var out []T
	for _, g := range gs {
		out = append(out, f(g))
	}
	return out
}

// convertAll reinterprets every element of gs with conv; false when one
// does not convert.
func convertAll[G, T any](gs []G, conv func(G) (T, bool)) ([]T, bool) {
	var out []T
	for _, g := range gs {
		t, ok := conv(g)
		if !ok {
			return nil, false
		}
		out = append(out, t)
	}
	return out, true
}

// unlabeled converts the value of a call argument that has no label.
func unlabeled[T any](a *gArg, conv func(*gExpr) (T, bool)) (T, bool) {
	if a.Label != "" {
		var zero T
		return zero, false
	}
	return conv(a.Value)
}

// untyped converts a parenthesised element without a type annotation.
func untyped[T any](e *gParenElem, conv func(*gExpr) (T, bool)) (T, bool) {
	if e.Type != nil {
		var zero T
		return zero, false
	}
	return conv(e.X)
}

// tupleType is the type written as a parenthesised list: () is Unit, (A)
// without a trailing comma is A itself.
func tupleType(p ast.Pos, elems []ast.TypeExpr, trail bool) ast.TypeExpr {
	switch {
	case len(elems) == 0:
		return &ast.UnitType{Pos: p}
	case len(elems) == 1 && !trail:
		return elems[0]
	}
	return &ast.TupleType{Pos: p, Elems: elems}
}

// ---------------------------------------------------------------- statements

func (lw *lowerer) body(g *gBody) ast.Expr {
	switch {
	case g == nil:
		return &ast.Block{}
	case g.Block != nil:
		return lw.block(g.Block)
	case g.Defer != nil:
		// An inline defer body is a block of that one statement.
		return &ast.Block{Pos: pos(g.Tokens), Stmts: []ast.Stmt{&ast.DeferStmt{Pos: pos(g.Tokens), X: lw.expr(g.Defer)}}}
	case g.Expr != nil:
		return lw.expr(g.Expr)
	}
	return &ast.Block{Pos: pos(g.Tokens)}
}

func (lw *lowerer) block(g *gBlock) *ast.Block {
	b := &ast.Block{Pos: pos(g.Tokens)}
	for _, s := range g.Stmts {
		if st := lw.stmt(s); st != nil {
			b.Stmts = append(b.Stmts, st)
		}
	}
	return b
}

func (lw *lowerer) stmt(g *gStmt) ast.Stmt {
	if g == nil {
		return nil
	}
	switch {
	case g.Let != nil:
		if g.Cond != nil {
			lw.errorf(ErrPostfixIf, span(g.Cond.Tokens), "a postfix 'if' cannot follow a let statement")
		}
		l := g.Let
		s := &ast.LetStmt{Pos: pos(l.Tokens), Pattern: lw.pattern(l.Pat), Value: lw.expr(l.Value)}
		if l.Type != nil {
			s.Type = lw.typ(l.Type)
		}
		if l.Else != nil {
			s.Else = lw.body(l.Else)
		}
		return s
	case g.Defer != nil:
		if g.Cond != nil {
			lw.errorf(ErrPostfixIf, span(g.Cond.Tokens), "a postfix 'if' cannot follow a defer statement")
		}
		return &ast.DeferStmt{Pos: pos(g.Tokens), X: lw.expr(g.Defer)}
	case g.Expr != nil:
		s := &ast.ExprStmt{Pos: pos(g.Tokens), X: lw.expr(g.Expr)}
		if g.Cond != nil {
			s.Cond = lw.expr(g.Cond)
		}
		return s
	}
	return nil
}

// ---------------------------------------------------------------- expressions

// precedence of binary operators (docs/reference/syntax.md#operators); higher binds tighter.
var precedence = map[string]int{
	"|>": 0, "or": 0, "and": 1, "..": 2, "..=": 2, "|||": 3, "^^^": 4, "&&&": 5,
	"==": 6, "!=": 6, "<": 7, "<=": 7, ">": 7, ">=": 7, "in": 7,
	"<<<": 8, ">>>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10, "**": 11,
}

// climber applies precedence climbing to one flat operand/operator list.
type climber struct {
	lw     *lowerer
	xs     []*gUnary
	ops    []*gBinOp
	k      int // next operand
	ranges map[ast.Expr]bool
}

func (lw *lowerer) expr(g *gExpr) ast.Expr {
	if g == nil || g.First == nil {
		sp := source.Span{}
		if g != nil {
			sp = span(g.Tokens)
		}
		return &ast.Ident{Pos: ast.Pos{S: sp}, Name: "_"}
	}
	if len(g.Rest) == 0 {
		return lw.unary(g.First)
	}
	c := &climber{lw: lw, xs: make([]*gUnary, 0, len(g.Rest)+1), ops: g.Rest}
	c.xs = append(c.xs, g.First)
	for _, r := range g.Rest {
		c.xs = append(c.xs, r.X)
	}
	return c.parse(0)
}

func (c *climber) parse(min int) ast.Expr {
	lhs := c.lw.unary(c.xs[c.k])
	c.k++
	for c.k-1 < len(c.ops) {
		op := c.ops[c.k-1].Op
		p := precedence[op]
		if p < min {
			break
		}
		if op == "|>" {
			if c.k < len(c.ops) && precedence[c.ops[c.k].Op] > p {
				rhs := c.parse(p + 1)
				c.lw.errorf(ErrPipeTarget, rhs.Span(), "pipe target must be a function name or a call")
				continue
			}
			target := c.xs[c.k]
			c.k++
			lhs = c.lw.pipe(lhs, target)
			continue
		}
		next := p + 1
		if op == "**" {
			next = p
		}
		rhs := c.parse(next)
		sp := source.Join(lhs.Span(), rhs.Span())
		switch op {
		case "..", "..=":
			if c.ranges[lhs] || c.ranges[rhs] {
				c.lw.errorf(ErrRangeChain, sp, "ranges cannot be chained; add parentheses")
			}
			r := &ast.Range{Pos: ast.Pos{S: sp}, Lo: lhs, Hi: rhs, Inclusive: op == "..="}
			if c.ranges == nil {
				c.ranges = map[ast.Expr]bool{}
			}
			c.ranges[r] = true
			lhs = r
		default:
			b := c.lw.nodes.binaries.new()
			*b = ast.Binary{Pos: ast.Pos{S: sp}, Op: op, L: lhs, R: rhs}
			lhs = b
		}
	}
	return lhs
}

// isHole reports whether g is exactly `_`.
func isHole(g *gExpr) bool {
	return g != nil && len(g.Rest) == 0 && g.First != nil && len(g.First.Ops) == 0 &&
		g.First.X != nil && len(g.First.X.Suf) == 0 && g.First.X.X != nil &&
		g.First.X.X.Name != nil && *g.First.X.X.Name == "_"
}

// pipe desugars `x |> target` (docs/reference/syntax.md#calls, lang/ast conventions).
func (lw *lowerer) pipe(x ast.Expr, t *gUnary) ast.Expr {
	sp := source.Join(x.Span(), span(t.Tokens))
	if len(t.Ops) != 0 || t.X == nil {
		lw.errorf(ErrPipeTarget, span(t.Tokens), "pipe target must be a function name or a call")
		return x
	}
	pf := t.X
	n := len(pf.Suf)
	if n > 0 && pf.Suf[n-1].Call != nil {
		fn := lw.postfix(pf.X, pf.Suf[:n-1])
		call := &ast.Call{Pos: ast.Pos{S: sp}, Fn: fn, Piped: -1}
		holes := 0
		for i, a := range pf.Suf[n-1].Call.Args {
			if isHole(a.Value) {
				holes++
				if holes > 1 {
					lw.errorf(ErrPipeTarget, span(a.Tokens), "a pipe target may contain only one '_' placeholder")
					continue
				}
				call.Piped = i
				call.Args = append(call.Args, &ast.Arg{Pos: ast.Pos{S: span(a.Tokens)}, Label: a.Label, Value: x})
				continue
			}
			call.Args = append(call.Args, lw.arg(a))
		}
		if call.Piped < 0 {
			call.Args = append([]*ast.Arg{{Pos: ast.Pos{S: x.Span()}, Value: x}}, call.Args...)
			call.Piped = 0
		}
		return call
	}
	fn := lw.postfix(pf.X, pf.Suf)
	switch fn.(type) {
	case *ast.Ident, *ast.Path, *ast.FieldAccess:
	default:
		lw.errorf(ErrPipeTarget, span(t.Tokens), "pipe target must be a function name or a call")
		return x
	}
	return &ast.Call{Pos: ast.Pos{S: sp}, Fn: fn, Args: []*ast.Arg{{Pos: ast.Pos{S: x.Span()}, Value: x}}, Piped: 0}
}

func (lw *lowerer) unary(g *gUnary) ast.Expr {
	if g == nil || g.X == nil {
		return &ast.Ident{Name: "_"}
	}
	ops := g.Ops
	var x ast.Expr
	if n := len(ops); n > 0 && ops[n-1] == "-" && len(g.X.Suf) == 0 && g.X.X != nil && (g.X.X.Int != nil || g.X.X.Float != nil) {
		// fold unary minus into the literal
		sp := span(g.Tokens)
		// the span starts at the minus that belongs to this literal
		sp.Start = g.Tokens[n-1].Pos.Offset
		x = lw.literal(g.X.X, true, sp)
		ops = ops[:n-1]
	} else {
		x = lw.postfix(g.X.X, g.X.Suf)
	}
	for i := len(ops) - 1; i >= 0; i-- {
		sp := source.Join(source.Span{Start: g.Tokens[i].Pos.Offset, End: g.Tokens[i].Pos.Offset + len(ops[i])}, x.Span())
		x = &ast.Unary{Pos: ast.Pos{S: sp}, Op: ops[i], X: x}
	}
	return x
}

// literal lowers an Int or Float primary, optionally negated.
func (lw *lowerer) literal(g *gPrimary, neg bool, sp source.Span) ast.Expr {
	if g.Int != nil {
		v, ok := parseInt(*g.Int, neg)
		if !ok {
			lw.errorf(ErrIntRange, sp, "integer is outside Int range")
		}
		text := *g.Int
		if neg {
			text = "-" + text
		}
		n := lw.nodes.intLits.new()
		*n = ast.IntLit{Pos: ast.Pos{S: sp}, Value: v, Text: text}
		return n
	}
	text := strings.ReplaceAll(*g.Float, "_", "")
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		lw.errorf(ErrFloatRange, sp, "float literal is out of range (not finite)")
		v = 0
	}
	if neg {
		v = -v
		text = "-" + text
	}
	return &ast.FloatLit{Pos: ast.Pos{S: sp}, Value: v, Text: text}
}

// parseInt converts an Int literal's text; ok is false when the value does
// not fit in Int (after applying the sign).
func parseInt(text string, neg bool) (int64, bool) {
	t := strings.ReplaceAll(text, "_", "")
	base := 10
	if len(t) > 1 && t[0] == '0' {
		switch t[1] | 0x20 {
		case 'x':
			base, t = 16, t[2:]
		case 'o':
			base, t = 8, t[2:]
		case 'b':
			base, t = 2, t[2:]
		}
	}
	if t == "" {
		return 0, true // already reported by the lexer
	}
	u, err := strconv.ParseUint(t, base, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return int64(-u), true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func (lw *lowerer) arg(a *gArg) *ast.Arg {
	return &ast.Arg{Pos: pos(a.Tokens), Label: a.Label, Value: lw.expr(a.Value)}
}

// postfix lowers a primary followed by suffixes. An uppercase name followed
// by `.name` segments becomes one *ast.Path.
func (lw *lowerer) postfix(pr *gPrimary, suf []*gSuffix) ast.Expr {
	if pr == nil {
		return &ast.Ident{Name: "_"}
	}
	var x ast.Expr
	i := 0
	if pr.Name != nil && (isUpper(*pr.Name) || lowerModules[*pr.Name]) && len(suf) > 0 && suf[0].Field != "" && !isDigits(suf[0].Field) {
		parts := []string{*pr.Name}
		sp := span(pr.Tokens)
		for ; i < len(suf) && suf[i].Field != "" && !isDigits(suf[i].Field); i++ {
			parts = append(parts, suf[i].Field)
			sp = source.Join(sp, span(suf[i].Tokens))
		}
		x = &ast.Path{Pos: ast.Pos{S: sp}, Parts: parts}
	} else {
		x = lw.primary(pr)
	}
	for ; i < len(suf); i++ {
		s := suf[i]
		sp := source.Join(x.Span(), span(s.Tokens))
		switch {
		case s.Call != nil:
			c := &ast.Call{Pos: ast.Pos{S: sp}, Fn: x, Piped: -1}
			for _, a := range s.Call.Args {
				c.Args = append(c.Args, lw.arg(a))
			}
			x = c
		case s.Field != "" && isDigits(s.Field):
			n, err := strconv.Atoi(s.Field)
			if err != nil || n > math.MaxInt32 {
				lw.errorf(ErrIntRange, span(s.Tokens), "tuple index %s is too large", s.Field)
			}
			x = &ast.TupleIndex{Pos: ast.Pos{S: sp}, X: x, Index: n}
		case s.Field != "":
			x = &ast.FieldAccess{Pos: ast.Pos{S: sp}, X: x, Name: s.Field}
		case s.Index != nil:
			x = &ast.Index{Pos: ast.Pos{S: sp}, X: x, I: lw.expr(s.Index)}
		case s.Try:
			x = &ast.Try{Pos: ast.Pos{S: sp}, X: x}
		}
	}
	return x
}

// lowerModules are the library modules whose names are lowercase (the
// reference's fs and http, docs/io.md): `fs.read` is a path like
// `List.len`, not a field of a variable.
var lowerModules = map[string]bool{"fs": true, "http": true}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func (lw *lowerer) primary(g *gPrimary) ast.Expr {
	p := pos(g.Tokens)
	switch {
	case g.Int != nil || g.Float != nil:
		return lw.literal(g, false, p.S)
	case g.Str != nil:
		return lw.str(g.Tokens[0].Pos.Offset, p)
	case g.True:
		return &ast.BoolLit{Pos: p, Value: true}
	case g.False:
		return &ast.BoolLit{Pos: p, Value: false}
	case g.Name != nil:
		if *g.Name == "_" {
			lw.errorf(ErrPlaceholder, p.S, "'_' is not a value; it can only be a pattern or a pipe placeholder")
		}
		n := lw.nodes.idents.new()
		n.Pos, n.Name = p, *g.Name
		return n
	case g.Paren != nil:
		return lw.paren(g.Paren)
	case g.List != nil:
		return &ast.ListLit{Pos: p, Elems: lowerAll(g.List.Elems, lw.expr)}
	case g.Brace != nil:
		return lw.brace(g.Brace)
	case g.FnLam != nil:
		return &ast.Lambda{Pos: p, Params: lowerAll(g.FnLam.Params, lw.param), Body: lw.body(g.FnLam.Body)}
	case g.If != nil:
		n := &ast.If{Pos: p, Cond: lw.expr(g.If.Cond), Then: lw.body(g.If.Then)}
		if g.If.Else != nil {
			n.Else = lw.body(g.If.Else)
		}
		return n
	case g.Match != nil && g.Match.Cond == nil:
		m := &ast.Match{Pos: p, Subject: lw.expr(g.Match.Subject)}
		for _, a := range append(g.Match.Arms, g.Match.Inline...) {
			m.Arms = append(m.Arms, lw.arm(a))
		}
		return m
	case g.Match != nil:
		m := &ast.Match{Pos: p}
		for _, a := range append(g.Match.Cond.Arms, g.Match.Cond.Inline...) {
			arm := &ast.Arm{Pos: pos(a.Tokens), Body: lw.body(a.Body)}
			if isHole(a.Cond) {
				arm.Pattern = &ast.WildcardPat{Pos: pos(a.Cond.Tokens)}
			} else {
				arm.Cond = lw.expr(a.Cond)
			}
			m.Arms = append(m.Arms, arm)
		}
		return m
	case g.Recv != nil:
		return lw.receive(g.Recv, p)
	case g.For != nil:
		return &ast.For{Pos: p, Pattern: lw.pattern(g.For.Pat), Iter: lw.expr(g.For.Iter), Body: lw.body(g.For.Body)}
	case g.Return != nil:
		r := &ast.Return{Pos: p}
		if g.Return.X == nil {
			lw.errorf(ErrReturnValue, p.S, "return requires an expression")
			r.X = &ast.UnitLit{Pos: p}
		} else {
			r.X = lw.expr(g.Return.X)
		}
		return r
	case g.Break:
		return &ast.Break{Pos: p}
	case g.Continue:
		return &ast.Continue{Pos: p}
	case g.With != nil:
		w := &ast.With{Pos: p}
		for _, s := range append(g.With.Steps, g.With.Inline...) {
			w.Steps = append(w.Steps, &ast.WithStep{Pos: pos(s.Tokens), Pattern: lw.pattern(s.Pat), X: lw.expr(s.X)})
		}
		w.Body = lw.body(g.With.Body)
		for _, a := range g.With.Else {
			w.ElseArms = append(w.ElseArms, lw.arm(a))
		}
		return w
	}
	return &ast.Ident{Pos: p, Name: "_"}
}

func (lw *lowerer) arm(a *gArm) *ast.Arm {
	arm := &ast.Arm{Pos: pos(a.Tokens), Pattern: lw.armPat(a.Pat), Body: lw.body(a.Body)}
	if a.Guard != nil {
		arm.Guard = lw.expr(a.Guard)
	}
	return arm
}

// armPat lowers `PAT` or the union-narrowing form `name: Type`.
func (lw *lowerer) armPat(g *gArmPat) ast.Pattern {
	if g == nil {
		return &ast.WildcardPat{}
	}
	p := lw.pattern(g.Pat)
	if g.Type == nil {
		return p
	}
	tp := &ast.TypedPat{Pos: pos(g.Tokens), Type: lw.typ(g.Type)}
	switch b := p.(type) {
	case *ast.BindPat:
		tp.Name = b.Name
	case *ast.WildcardPat:
		tp.Name = "_"
	default:
		lw.errorf(ErrSyntax, p.Span(), "a type annotation in a pattern needs a name or '_' before ':'")
		return p
	}
	return tp
}

func (lw *lowerer) receive(g *gReceive, p ast.Pos) ast.Expr {
	r := &ast.Receive{Pos: p, Event: g.Kw == "receive_event"}
	for _, a := range append(g.Arms, g.Inline...) {
		if r.After != nil {
			lw.errorf(ErrRecvTimeout, span(a.Tokens), "receive timeout must be the final arm")
		}
		switch {
		case a.After != nil:
			if !r.Event {
				lw.errorf(ErrRecvTimeout, span(a.Tokens), "receive timeout requires '_'; write '_ after N ->'")
			}
			r.After = &ast.AfterArm{Pos: pos(a.Tokens), Timeout: lw.expr(a.After), Body: lw.body(a.Body)}
		case a.After2 != nil:
			pat := lw.armPat(a.Pat)
			if _, ok := pat.(*ast.WildcardPat); !ok {
				lw.errorf(ErrRecvTimeout, pat.Span(), "receive timeout requires '_'")
			}
			r.After = &ast.AfterArm{Pos: pos(a.Tokens), Timeout: lw.expr(a.After2), Body: lw.body(a.Body), Wildcard: true}
		default:
			arm := &ast.Arm{Pos: pos(a.Tokens), Pattern: lw.armPat(a.Pat), Body: lw.body(a.Body)}
			if a.Guard != nil {
				arm.Guard = lw.expr(a.Guard)
			}
			r.Arms = append(r.Arms, arm)
		}
	}
	return r
}

func (lw *lowerer) brace(g *gBrace) ast.Expr {
	p := pos(g.Tokens)
	if g.First == nil {
		return &ast.MapLit{Pos: p}
	}
	if g.MapV == nil {
		u := &ast.RecordUpdate{Pos: p, X: lw.expr(g.First)}
		for _, f := range g.Upd {
			u.Fields = append(u.Fields, &ast.Arg{Pos: pos(f.Tokens), Label: f.Name, Value: lw.expr(f.Value)})
		}
		return u
	}
	m := &ast.MapLit{Pos: p, Keys: []ast.Expr{lw.expr(g.First)}, Values: []ast.Expr{lw.expr(g.MapV)}}
	for _, kv := range g.More {
		m.Keys = append(m.Keys, lw.expr(kv.Key))
		m.Values = append(m.Values, lw.expr(kv.Value))
	}
	return m
}

// paren lowers `( … )`: unit, a parenthesised expression, a tuple, or a
// lambda when `->` follows.
func (lw *lowerer) paren(g *gParen) ast.Expr {
	p := pos(g.Tokens)
	if g.Arrow {
		l := &ast.Lambda{Pos: p}
		for _, e := range g.Elems {
			prm := &ast.Param{Pos: pos(e.Tokens)}
			pat, ok := lw.exprToPattern(e.X)
			if !ok {
				lw.errorf(ErrBadParam, span(e.X.Tokens), "expected a parameter name or pattern")
				pat = &ast.WildcardPat{Pos: pos(e.X.Tokens)}
			}
			lw.paramRest(prm, pat, e.Type)
			l.Params = append(l.Params, prm)
		}
		l.Body = lw.body(g.Body)
		return l
	}
	for _, e := range g.Elems {
		if e.Type != nil {
			lw.errorf(ErrMisplacedAnnot, span(e.Tokens), "a type annotation 'name: Type' is only allowed on parameters; did you forget '->' after the parameter list?")
		}
	}
	switch {
	case len(g.Elems) == 0:
		return &ast.UnitLit{Pos: p}
	case len(g.Elems) == 1 && !g.Trail:
		x := lw.expr(g.Elems[0].X)
		return x
	}
	t := &ast.Tuple{Pos: p}
	for _, e := range g.Elems {
		t.Elems = append(t.Elems, lw.expr(e.X))
	}
	return t
}

// exprToPattern reinterprets a lambda parameter (parsed as an expression
// inside parentheses) as a pattern.
func (lw *lowerer) exprToPattern(g *gExpr) (ast.Pattern, bool) {
	if g == nil || len(g.Rest) != 0 || g.First == nil || g.First.X == nil || g.First.X.X == nil {
		return nil, false
	}
	u := g.First
	pf := u.X
	pr := pf.X
	p := pos(g.Tokens)
	if len(u.Ops) != 0 {
		if len(u.Ops) == 1 && u.Ops[0] == "-" && len(pf.Suf) == 0 && (pr.Int != nil || pr.Float != nil) {
			return &ast.LitPat{Pos: p, Value: lw.literal(pr, true, p.S)}, true
		}
		return nil, false
	}
	switch {
	case pr.Name != nil:
		parts := []string{*pr.Name}
		i := 0
		for ; i < len(pf.Suf) && pf.Suf[i].Field != "" && !isDigits(pf.Suf[i].Field); i++ {
			parts = append(parts, pf.Suf[i].Field)
		}
		name := strings.Join(parts, ".")
		last := parts[len(parts)-1]
		if i == len(pf.Suf) {
			switch {
			case name == "_":
				return &ast.WildcardPat{Pos: p}, true
			case len(parts) == 1 && !isUpper(last):
				return &ast.BindPat{Pos: p, Name: name}, true
			}
			return &ast.CtorPat{Pos: p, Name: name}, true
		}
		if i == len(pf.Suf)-1 && pf.Suf[i].Call != nil {
			args, ok := convertAll(pf.Suf[i].Call.Args, func(a *gArg) (ast.Pattern, bool) {
				return unlabeled(a, lw.exprToPattern)
			})
			if !ok {
				return nil, false
			}
			return &ast.CtorPat{Pos: p, Name: name, Parens: true, Args: args}, true
		}
		return nil, false
	case len(pf.Suf) != 0:
		return nil, false
	case pr.Int != nil || pr.Float != nil:
		return &ast.LitPat{Pos: p, Value: lw.literal(pr, false, p.S)}, true
	case pr.Str != nil:
		return lw.strPattern(pr.Tokens[0].Pos.Offset, p), true
	case pr.True || pr.False:
		return &ast.LitPat{Pos: p, Value: &ast.BoolLit{Pos: p, Value: pr.True}}, true
	case pr.Paren != nil && !pr.Paren.Arrow:
		elems, ok := convertAll(pr.Paren.Elems, func(e *gParenElem) (ast.Pattern, bool) {
			return untyped(e, lw.exprToPattern)
		})
		if !ok {
			return nil, false
		}
		switch {
		case len(elems) == 0:
			return &ast.UnitPat{Pos: p}, true
		case len(elems) == 1 && !pr.Paren.Trail:
			return elems[0], true
		}
		return &ast.TuplePat{Pos: p, Elems: elems}, true
	case pr.List != nil:
		elems, ok := convertAll(pr.List.Elems, lw.exprToPattern)
		if !ok {
			return nil, false
		}
		return &ast.ListPat{Pos: p, Elems: elems}, true
	}
	return nil, false
}

// ---------------------------------------------------------------- strings

// str lowers the string token starting at off.
func (lw *lowerer) str(off int, p ast.Pos) ast.Expr {
	lit := lw.strs[off]
	if lit == nil {
		return &ast.StringLit{Pos: p}
	}
	if !lit.interp {
		text := ""
		for _, part := range lit.parts {
			text += part.text
		}
		return &ast.StringLit{Pos: p, Value: text, Triple: lit.triple}
	}
	is := &ast.InterpString{Pos: p, Triple: lit.triple}
	for _, part := range lit.parts {
		if !part.isExpr {
			if part.text != "" {
				is.Parts = append(is.Parts, ast.InterpPart{Text: part.text})
			}
			continue
		}
		if x := lw.interp(part); x != nil {
			is.Parts = append(is.Parts, ast.InterpPart{X: x})
		}
	}
	return is
}

func (lw *lowerer) strPattern(off int, p ast.Pos) ast.Pattern {
	x := lw.str(off, p)
	if _, ok := x.(*ast.InterpString); ok {
		lw.errorf(ErrStringPattern, p.S, "a string pattern cannot contain interpolation")
		x = &ast.StringLit{Pos: p}
	}
	return &ast.LitPat{Pos: p, Value: x}
}

// ---------------------------------------------------------------- patterns

func (lw *lowerer) pattern(g *gPattern) ast.Pattern {
	if g == nil {
		return &ast.WildcardPat{}
	}
	p := pos(g.Tokens)
	switch {
	case g.Neg != nil:
		pr := &gPrimary{Int: g.Neg.Int, Float: g.Neg.Float}
		return &ast.LitPat{Pos: p, Value: lw.literal(pr, true, p.S)}
	case g.Int != nil || g.Float != nil:
		pr := &gPrimary{Int: g.Int, Float: g.Float}
		return &ast.LitPat{Pos: p, Value: lw.literal(pr, false, p.S)}
	case g.Str != nil:
		return lw.strPattern(g.Tokens[0].Pos.Offset, p)
	case g.True || g.False:
		return &ast.LitPat{Pos: p, Value: &ast.BoolLit{Pos: p, Value: g.True}}
	case g.Tuple != nil:
		var elems []ast.Pattern
		for _, e := range g.Tuple.Elems {
			elems = append(elems, lw.pattern(e))
		}
		if r := g.Tuple.Rest; r != nil {
			t := &ast.TuplePat{Pos: p, Elems: elems, HasRest: true}
			switch {
			case r.Name == "_":
				t.Rest = &ast.WildcardPat{Pos: pos(r.Tokens)}
			case r.Name != "":
				t.Rest = &ast.BindPat{Pos: pos(r.Tokens), Name: r.Name}
			}
			return t
		}
		switch {
		case len(elems) == 0:
			return &ast.UnitPat{Pos: p}
		case len(elems) == 1 && !g.Tuple.Trail:
			return elems[0]
		}
		return &ast.TuplePat{Pos: p, Elems: elems}
	case g.List != nil:
		l := &ast.ListPat{Pos: p}
		for i, e := range g.List.Elems {
			if e.Rest {
				if l.HasRest || i != len(g.List.Elems)-1 {
					lw.errorf(ErrSyntax, span(e.Tokens), "'..' must be the last element of a list pattern")
				}
				l.HasRest = true
				switch {
				case e.Name == "_":
					l.Rest = &ast.WildcardPat{Pos: pos(e.Tokens)}
				case e.Name != "":
					l.Rest = &ast.BindPat{Pos: pos(e.Tokens), Name: e.Name}
				}
				continue
			}
			l.Elems = append(l.Elems, lw.pattern(e.Pat))
		}
		return l
	case g.Ctor != nil:
		c := g.Ctor
		name := strings.Join(c.Parts, ".")
		if !c.Parens {
			if name == "_" {
				return &ast.WildcardPat{Pos: p}
			}
			if len(c.Parts) == 1 && !isUpper(name) {
				n := lw.nodes.bindPats.new()
				n.Pos, n.Name = p, name
				return n
			}
		}
		cp := &ast.CtorPat{Pos: p, Name: name, Parens: c.Parens}
		for _, a := range c.Args {
			cp.Args = append(cp.Args, lw.pattern(a))
		}
		return cp
	}
	return &ast.WildcardPat{Pos: p}
}
