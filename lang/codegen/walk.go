package codegen

import "github.com/morrow-lang/morrow/lang/ast"

// containsDefer reports whether a function body registers a defer. Bodies
// of lambdas (and of defers themselves) belong to other functions and are
// not searched.
func containsDefer(body ast.Expr) bool {
	found := false
	var stmt func(s ast.Stmt)
	var expr func(e ast.Expr)
	stmt = func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.DeferStmt:
			found = true
		case *ast.LetStmt:
			expr(s.Value)
			expr(s.Else)
		case *ast.ExprStmt:
			expr(s.X)
			expr(s.Cond)
		}
	}
	expr = func(e ast.Expr) {
		if found || e == nil {
			return
		}
		switch e := e.(type) {
		case *ast.Block:
			for _, s := range e.Stmts {
				stmt(s)
			}
		case *ast.InterpString:
			for _, p := range e.Parts {
				expr(p.X)
			}
		case *ast.FieldAccess:
			expr(e.X)
		case *ast.TupleIndex:
			expr(e.X)
		case *ast.Index:
			expr(e.X)
			expr(e.I)
		case *ast.Call:
			expr(e.Fn)
			for _, a := range e.Args {
				expr(a.Value)
			}
		case *ast.Unary:
			expr(e.X)
		case *ast.Binary:
			expr(e.L)
			expr(e.R)
		case *ast.Range:
			expr(e.Lo)
			expr(e.Hi)
		case *ast.Try:
			expr(e.X)
		case *ast.If:
			expr(e.Cond)
			expr(e.Then)
			expr(e.Else)
		case *ast.Match:
			expr(e.Subject)
			for _, a := range e.Arms {
				expr(a.Cond)
				expr(a.Guard)
				expr(a.Body)
			}
		case *ast.Receive:
			for _, a := range e.Arms {
				expr(a.Guard)
				expr(a.Body)
			}
			if e.After != nil {
				expr(e.After.Timeout)
				expr(e.After.Body)
			}
		case *ast.For:
			expr(e.Iter)
			expr(e.Body)
		case *ast.Return:
			expr(e.X)
		case *ast.Tuple:
			for _, x := range e.Elems {
				expr(x)
			}
		case *ast.ListLit:
			for _, x := range e.Elems {
				expr(x)
			}
		case *ast.RecordUpdate:
			expr(e.X)
			for _, a := range e.Fields {
				expr(a.Value)
			}
		case *ast.With:
			for _, s := range e.Steps {
				expr(s.X)
			}
			expr(e.Body)
			for _, a := range e.ElseArms {
				expr(a.Guard)
				expr(a.Body)
			}
		case *ast.Paren:
			expr(e.X)
		}
	}
	expr(body)
	return found
}
