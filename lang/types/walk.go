package types

import (
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// walk calls f for every expression and statement node under n (n
// included), in source order. Patterns and types are not visited.
func walk(n ast.Node, f func(ast.Node)) {
	walkIf(n, func(n ast.Node) bool { f(n); return true })
}

// walkIf is walk where f decides whether to descend into a node. It is
// ast.Inspect restricted to code: the helper nodes that hold code (call
// arguments, arms, with steps, parameters) are passed through without
// calling f, and patterns and types are skipped.
func walkIf(n ast.Node, f func(ast.Node) bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case ast.Expr, ast.Stmt:
			return f(n)
		case ast.Pattern, ast.TypeExpr:
			return false
		}
		return true
	})
}

// spanOf returns n's span, or an empty span for a missing node (the
// parser may leave optional parts nil after a syntax error).
func spanOf(n ast.Node) source.Span {
	if ast.IsNil(n) {
		return source.Span{}
	}
	return n.Span()
}
