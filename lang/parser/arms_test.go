package parser

import (
	"testing"
)

// TestArmArrowEndsGuard: the arm's `->` after a guard (match, receive,
// with-else), a condition-match condition or a receive `after` ends it; a
// parenthesised operand right before it is not a lambda.
func TestArmArrowEndsGuard(t *testing.T) {
	tests := []struct{ src, want string }{
		{"match x:\n    y if not (a > b) -> 1\n    _ -> 2",
			`Guard=(Unary Op="not" X=(Binary Op=">" L=(Ident Name="a") R=(Ident Name="b"))) Body=(IntLit Value=1)`},
		{"match x:\n    y if (a > b) -> 1\n    _ -> 2",
			`Guard=(Binary Op=">" L=(Ident Name="a") R=(Ident Name="b")) Body=(IntLit Value=1)`},
		{"match x:\n    y if f(a) and (b) -> 1\n    _ -> 2",
			`Guard=(Binary Op="and" L=(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="a"))]) R=(Ident Name="b")) Body=(IntLit Value=1)`},
		{"match x: y if (a) -> 1, _ -> 2",
			`Guard=(Ident Name="a") Body=(IntLit Value=1)`},
		{"match:\n    (a > b) -> 1\n    _ -> 2",
			`Cond=(Binary Op=">" L=(Ident Name="a") R=(Ident Name="b")) Body=(IntLit Value=1)`},
		{"match: (a) and (b) -> 1, _ -> 2",
			`Cond=(Binary Op="and" L=(Ident Name="a") R=(Ident Name="b")) Body=(IntLit Value=1)`},
		{"receive:\n    y if (a > b) -> 1\n    _ after (t) -> 2",
			`Guard=(Binary Op=">" L=(Ident Name="a") R=(Ident Name="b")) Body=(IntLit Value=1)`},
		{"receive:\n    y if (a > b) -> 1\n    _ after (t) -> 2",
			`Timeout=(Ident Name="t") Body=(IntLit Value=2)`},
		{"receive: y if not (a) -> 1, _ -> 2",
			`Guard=(Unary Op="not" X=(Ident Name="a")) Body=(IntLit Value=1)`},
		// a lambda nested inside the guard's brackets stays a lambda
		{"match x:\n    y if f((a) -> a) -> 1\n    _ -> 2",
			`Guard=(Call Fn=(Ident Name="f") Args=[(Arg Value=(Lambda`},
		// arm bodies may still be lambdas
		{"match x:\n    _ -> (a) -> a",
			`Body=(Lambda`},
	}
	for _, tc := range tests {
		wantBodyHas(t, tc.src, tc.want)
	}
}

// TestArmTupleType: in an arm annotation, `(A, B)` followed by the arm arrow
// is a tuple type; a function type needs its own arrow before the arm's.
func TestArmTupleType(t *testing.T) {
	tests := []struct{ src, want string }{
		{"match v:\n    t: (Int, Int) -> t.0",
			`Type=(TupleType Elems=[(NamedType Name="Int") (NamedType Name="Int")])) Body=(TupleIndex`},
		{"match v: t: (Int, String) if t.0 > 0 -> 1, _ -> 2",
			`Type=(TupleType Elems=[(NamedType Name="Int") (NamedType Name="String")])) Guard=`},
		{"match v:\n    f: (Int) -> Int -> f(1)",
			`Type=(FuncType Params=[(NamedType Name="Int")] Ret=(NamedType Name="Int"))) Body=(Call`},
		{"match v:\n    f: fn(Int) -> Int -> f(1)",
			`Type=(FuncType Params=[(NamedType Name="Int")] Ret=(NamedType Name="Int"))) Body=(Call`},
		{"receive:\n    t: (Int, Int) -> t.1",
			`Type=(TupleType Elems=[(NamedType Name="Int") (NamedType Name="Int")])) Body=(TupleIndex`},
	}
	for _, tc := range tests {
		wantBodyHas(t, tc.src, tc.want)
	}
	// Outside arms `(A) -> B` is still a function type.
	wantDeclHas(t, "fn f(g: (Int, Int) -> Int) -> Int:\n    g(1, 2)\n", `(FuncType Params=[(NamedType Name="Int") (NamedType Name="Int")] Ret=(NamedType Name="Int"))`, "parameter type")
}

// TestEdgeForms covers forms that used to give generic messages: keywords
// as lambda parameters, inline arms inside call arguments, and a union
// alias continued on an indented line.
func TestEdgeForms(t *testing.T) {
	errs := []struct{ src, want string }{
		{"fn main():\n    let f = (match) -> 1\n", "2:14: error[E1002]: expected an identifier but found keyword 'match'"},
		{"fn main():\n    let f = (x, receive: Int) -> x\n", "2:17: error[E1002]: expected an identifier but found keyword 'receive'"},
		{"fn main():\n    let f = fn(match) -> 1\n", "2:16: error[E1002]: expected an identifier but found keyword 'match'"},
		// without an enclosing bracket a comma still separates arms
		{"fn main():\n    let y = match x: 1 -> 2, 3, _ -> 4\n", "2:31: error[E1001]: expected '->', found ','"},
		{"fn main():\n    let y = match x: 1 -> 2, 3\n", "expected '->', found end of line"},
	}
	for _, tc := range errs {
		wantOneDiag(t, tc.src, tc.want)
	}
	exprs := []struct{ src, want string }{
		{`f(match x: 1 -> "a", _ -> "b", 7)`, `Args=[(Arg Value=(Match Subject=(Ident Name="x") Arms=[(Arm Pattern=(LitPat Value=(IntLit Value=1)) Body=(StringLit Value="a")) (Arm Pattern=(WildcardPat) Body=(StringLit Value="b"))])) (Arg Value=(IntLit Value=7))]`},
		{`[match: (a) -> 1, _ -> 2, 3]`, `(Arm Pattern=(WildcardPat) Body=(IntLit Value=2))]) (IntLit Value=3)]`},
		{`f(receive: x -> x, _ after 5 -> 0, 1)`, `(Arg Value=(IntLit Value=1))]`},
		{`f(match x: 1 -> (a) -> a, _ -> (b) -> b)`, `(Arm Pattern=(WildcardPat) Body=(Lambda`},
		// a condition match or a receive in parentheses is not a lambda
		// parameter list
		{`(match: c -> 1, _ -> 2)`, `(Match Arms=[(Arm Cond=(Ident Name="c")`},
		{`(receive: x -> x, _ after 5 -> 0)`, `(Receive`},
		{"(match:\n    c -> 1\n    _ -> 2\n)", `(Match Arms=[(Arm Cond=(Ident Name="c")`},
		// a multi-line lambda later in the brackets does not end the line
		// for the arm-or-argument decision
		{"f(match a: 1 -> x, _ -> y, [1], (z) ->\n        z\n    )", `(Arg Value=(ListLit Elems=[(IntLit Value=1)])) (Arg Value=(Lambda`},
	}
	for _, tc := range exprs {
		wantBodyHas(t, tc.src, tc.want)
	}
	wantDeclHas(t, "type V =\n    Int | String\n", `(UnionType Alts=[(NamedType Name="Int") (NamedType Name="String")])`, "multi-line alias")
}

// TestClauseForms: multi-clause function forms get a diagnostic naming the
// feature (adjacent clauses without these forms reach the checker, which
// reports E9003).
func TestClauseForms(t *testing.T) {
	tests := []struct{ src, want string }{
		{"fn f(0) -> Int: 1\n", "1:6: error[E1018]: literal parameter patterns (multi-clause functions)"},
		{"fn f(-1, x: Int) -> Int: 1\n", "1:6: error[E1018]: literal parameter patterns"},
		{"fn f(\"a\"): 1\n", "1:6: error[E1018]: literal parameter patterns"},
		{"fn f(x: Int) -> Int if x > 0: 1\n", "1:21: error[E1018]: function clause guards (multi-clause functions)"},
		{"pub fn f(x) if x > 0 -> x\n", "1:13: error[E1018]: function clause guards"},
	}
	for _, tc := range tests {
		wantOneDiag(t, tc.src, tc.want)
	}
	// adjacent clauses without literal patterns or guards parse as two
	// declarations for the checker to report
	f, dl := parseString("fn f(x: Int) -> Int: 1\nfn f(y: Int) -> Int: 2\n")
	if len(dl) != 0 || len(f.Decls) != 2 {
		t.Errorf("adjacent clauses: %v, %d decls", dl, len(f.Decls))
	}
	// lambdas may still take literal patterns (the checker rejects them as
	// refutable); only declarations are clauses
	if _, dl := parseString("fn main():\n    let g = (0) -> 1\n"); len(dl) != 0 {
		t.Errorf("lambda literal param: %v", dl)
	}
}
