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

// walkIf is walk where f decides whether to descend into a node.
func walkIf(n ast.Node, f func(ast.Node) bool) {
	if n == nil {
		return
	}
	switch x := n.(type) {
	case ast.Expr:
		if isNilExpr(x) {
			return
		}
	case ast.Stmt:
	default:
		return
	}
	if !f(n) {
		return
	}
	switch x := n.(type) {
	case *ast.Block:
		for _, s := range x.Stmts {
			walkIf(s, f)
		}
	case *ast.LetStmt:
		walkE(x.Value, f)
		walkE(x.Else, f)
	case *ast.DeferStmt:
		walkE(x.X, f)
	case *ast.ExprStmt:
		walkE(x.X, f)
		walkE(x.Cond, f)
	case *ast.InterpString:
		for _, p := range x.Parts {
			walkE(p.X, f)
		}
	case *ast.FieldAccess:
		walkE(x.X, f)
	case *ast.TupleIndex:
		walkE(x.X, f)
	case *ast.Index:
		walkE(x.X, f)
		walkE(x.I, f)
	case *ast.Call:
		walkE(x.Fn, f)
		for _, a := range x.Args {
			walkE(a.Value, f)
		}
	case *ast.Unary:
		walkE(x.X, f)
	case *ast.Binary:
		walkE(x.L, f)
		walkE(x.R, f)
	case *ast.Range:
		walkE(x.Lo, f)
		walkE(x.Hi, f)
	case *ast.Try:
		walkE(x.X, f)
	case *ast.Lambda:
		walkE(x.Body, f)
	case *ast.If:
		walkE(x.Cond, f)
		walkE(x.Then, f)
		walkE(x.Else, f)
	case *ast.Match:
		walkE(x.Subject, f)
		for _, a := range x.Arms {
			walkE(a.Cond, f)
			walkE(a.Guard, f)
			walkE(a.Body, f)
		}
	case *ast.Receive:
		for _, a := range x.Arms {
			walkE(a.Guard, f)
			walkE(a.Body, f)
		}
		if x.After != nil {
			walkE(x.After.Timeout, f)
			walkE(x.After.Body, f)
		}
	case *ast.For:
		walkE(x.Iter, f)
		walkE(x.Body, f)
	case *ast.Return:
		walkE(x.X, f)
	case *ast.Tuple:
		for _, e := range x.Elems {
			walkE(e, f)
		}
	case *ast.ListLit:
		for _, e := range x.Elems {
			walkE(e, f)
		}
	case *ast.RecordUpdate:
		walkE(x.X, f)
		for _, a := range x.Fields {
			walkE(a.Value, f)
		}
	case *ast.MapLit:
		for _, e := range x.Keys {
			walkE(e, f)
		}
		for _, e := range x.Values {
			walkE(e, f)
		}
	case *ast.With:
		for _, s := range x.Steps {
			walkE(s.X, f)
		}
		walkE(x.Body, f)
		for _, a := range x.ElseArms {
			walkE(a.Guard, f)
			walkE(a.Body, f)
		}
	case *ast.Paren:
		walkE(x.X, f)
	}
}

func walkE(e ast.Expr, f func(ast.Node) bool) {
	if e == nil || isNilExpr(e) {
		return
	}
	walkIf(e, f)
}

// isNilExpr catches typed nil pointers stored in an Expr interface.
func isNilExpr(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Block:
		return x == nil
	case *ast.Ident:
		return x == nil
	case *ast.Call:
		return x == nil
	case *ast.If:
		return x == nil
	}
	return e == nil
}

// spanOf returns n's span, or an empty span for a missing node (the
// parser may leave optional parts nil after a syntax error).
func spanOf(n ast.Node) source.Span {
	if n == nil {
		return source.Span{}
	}
	switch x := n.(type) {
	case ast.Expr:
		if isNilExpr(x) {
			return source.Span{}
		}
	}
	return n.Span()
}
