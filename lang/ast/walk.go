package ast

import (
	"fmt"
	"reflect"
)

// Inspect traverses the tree rooted at n in depth-first order. It calls
// f(n); if f returns true, Inspect visits each child of n in turn, in the
// order of the fields of n's struct (which is source order, except that a
// pipe's piped argument is already in its argument slot), and so on down.
//
// Every node kind is listed in this file, with all the fields that hold nodes
// (declarations, statements, expressions, patterns, types and the helper
// nodes Param, Field, Variant, Arg, Arm, AfterArm, WithStep and the derive
// names); the interpolated expressions of an InterpString are visited
// directly. Missing children — a nil interface or a typed nil pointer the
// parser may leave in a partial tree — are skipped: f is never called with
// nil. walk_test.go fails when a node kind or a node-holding field is
// added to this package without being visited here.
//
// Inspect is the one generic traversal of the tree: analyses that only
// need "every sub-node" (name uses, calls, receives, defers) filter with f
// instead of writing their own recursion. Analyses whose order or meaning
// depends on the node (type inference, the Result obligation
// interpretation, code generation) are written per node kind instead.
func Inspect(n Node, f func(Node) bool) {
	if IsNil(n) || !f(n) {
		return
	}
	switch n := n.(type) {
	case Expr:
		inspectExpr(n, f)
	case Pattern:
		inspectPattern(n, f)
	case Stmt:
		inspectStmt(n, f)
	case TypeExpr:
		inspectType(n, f)
	default:
		inspectPart(n, f)
	}
}

// inspectPart visits the children of a declaration or of a helper node
// (Param, Variant, Field, ImportName, Arg, Arm, AfterArm, WithStep).
func inspectPart(n Node, f func(Node) bool) {
	switch n := n.(type) {
	case *File:
		inspectAll(n.Decls, f)
	case *FnDecl:
		inspectAll(n.Params, f)
		Inspect(n.Ret, f)
		Inspect(n.Body, f)
	case *Param:
		Inspect(n.Pattern, f)
		Inspect(n.Type, f)
	case *TypeDecl:
		inspectDerives(n.Derives, f)
		inspectAll(n.Variants, f)
		inspectAll(n.Fields, f)
		Inspect(n.Alias, f)
	case *Variant:
		inspectAll(n.Fields, f)
	case *Field:
		Inspect(n.Type, f)
	case *NewtypeDecl:
		inspectDerives(n.Derives, f)
		Inspect(n.Type, f)
	case *UnsupportedDecl, *ModuleDecl, *ImportName:
	case *ImportDecl:
		inspectAll(n.Names, f)
	case *Arg:
		Inspect(n.Value, f)
	case *Arm:
		Inspect(n.Pattern, f)
		Inspect(n.Cond, f)
		Inspect(n.Guard, f)
		Inspect(n.Body, f)
	case *AfterArm:
		Inspect(n.Timeout, f)
		Inspect(n.Body, f)
	case *WithStep:
		Inspect(n.Pattern, f)
		Inspect(n.X, f)
	default:
		panic(fmt.Sprintf("ast.Inspect: unexpected node type %T", n))
	}
}

// inspectType visits the children of a type expression.
func inspectType(n TypeExpr, f func(Node) bool) {
	switch n := n.(type) {
	case *NamedType:
		inspectAll(n.Args, f)
	case *TupleType:
		inspectAll(n.Elems, f)
	case *UnitType:
	case *FuncType:
		inspectAll(n.Params, f)
		Inspect(n.Ret, f)
	case *UnionType:
		inspectAll(n.Alts, f)
	default:
		panic(fmt.Sprintf("ast.Inspect: unexpected type node %T", n))
	}
}

// inspectStmt visits the children of a statement.
func inspectStmt(n Stmt, f func(Node) bool) {
	switch n := n.(type) {
	case *LetStmt:
		Inspect(n.Pattern, f)
		Inspect(n.Type, f)
		Inspect(n.Value, f)
		Inspect(n.Else, f)
	case *DeferStmt:
		Inspect(n.X, f)
	case *ExprStmt:
		Inspect(n.X, f)
		Inspect(n.Cond, f)
	default:
		panic(fmt.Sprintf("ast.Inspect: unexpected statement %T", n))
	}
}

// inspectExpr visits the children of an operator, access or value-building
// expression; control flow goes to inspectControl.
func inspectExpr(n Expr, f func(Node) bool) {
	switch n := n.(type) {
	case *IntLit, *FloatLit, *BoolLit, *StringLit, *UnitLit, *Ident, *Path:
	case *InterpString:
		for _, p := range n.Parts {
			Inspect(p.X, f)
		}
	case *FieldAccess:
		Inspect(n.X, f)
	case *TupleIndex:
		Inspect(n.X, f)
	case *Index:
		Inspect(n.X, f)
		Inspect(n.I, f)
	case *Call:
		Inspect(n.Fn, f)
		inspectAll(n.Args, f)
	case *Unary:
		Inspect(n.X, f)
	case *Binary:
		Inspect(n.L, f)
		Inspect(n.R, f)
	case *Range:
		Inspect(n.Lo, f)
		Inspect(n.Hi, f)
	case *Tuple:
		inspectAll(n.Elems, f)
	case *ListLit:
		inspectAll(n.Elems, f)
	case *RecordUpdate:
		Inspect(n.X, f)
		inspectAll(n.Fields, f)
	case *MapLit:
		inspectAll(n.Keys, f)
		inspectAll(n.Values, f)
	case *Paren:
		Inspect(n.X, f)
	default:
		inspectControl(n, f)
	}
}

// inspectControl visits the children of a control-flow expression:
// blocks, lambdas, branches, loops, receives, withs and jumps.
func inspectControl(n Expr, f func(Node) bool) {
	switch n := n.(type) {
	case *Block:
		inspectAll(n.Stmts, f)
	case *Break, *Continue:
	case *Try:
		Inspect(n.X, f)
	case *Lambda:
		inspectAll(n.Params, f)
		Inspect(n.Ret, f)
		Inspect(n.Body, f)
	case *If:
		Inspect(n.Cond, f)
		Inspect(n.Then, f)
		Inspect(n.Else, f)
	case *Match:
		Inspect(n.Subject, f)
		inspectAll(n.Arms, f)
	case *Receive:
		inspectAll(n.Arms, f)
		Inspect(n.After, f)
	case *For:
		Inspect(n.Pattern, f)
		Inspect(n.Iter, f)
		Inspect(n.Body, f)
	case *Return:
		Inspect(n.X, f)
	case *With:
		inspectAll(n.Steps, f)
		Inspect(n.Body, f)
		inspectAll(n.ElseArms, f)
	default:
		panic(fmt.Sprintf("ast.Inspect: unexpected expression %T", n))
	}
}

// inspectPattern visits the children of a pattern.
func inspectPattern(n Pattern, f func(Node) bool) {
	switch n := n.(type) {
	case *WildcardPat, *BindPat, *UnitPat:
	case *LitPat:
		Inspect(n.Value, f)
	case *TuplePat:
		inspectAll(n.Elems, f)
		Inspect(n.Rest, f)
	case *ListPat:
		inspectAll(n.Elems, f)
		Inspect(n.Rest, f)
	case *CtorPat:
		inspectAll(n.Args, f)
	case *TypedPat:
		Inspect(n.Type, f)
	default:
		panic(fmt.Sprintf("ast.Inspect: unexpected pattern %T", n))
	}
}

// IsNil reports whether n is missing: nil, or a typed nil pointer stored in
// a Node, Expr, Stmt, Pattern or TypeExpr interface (a partial tree may hold
// one after a syntax error).
func IsNil(n Node) bool {
	if n == nil {
		return true
	}
	v := reflect.ValueOf(n)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// inspectAll visits the nodes of a slice in order.
func inspectAll[T Node](xs []T, f func(Node) bool) {
	for _, x := range xs {
		Inspect(x, f)
	}
}

// inspectDerives visits derive names, which are stored by value.
func inspectDerives(ds []Ident, f func(Node) bool) {
	for i := range ds {
		Inspect(&ds[i], f)
	}
}
