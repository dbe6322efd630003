package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

func parseString(src string) (*ast.File, diag.List) {
	return Parse(source.NewFile("t.mr", []byte(src)))
}

// bodyOf parses `fn main():` around the given body lines and returns the
// S-expression of the single statement's expression (or the statement).
func bodyOf(t *testing.T, body string) string {
	t.Helper()
	src := "fn main():\n"
	for _, ln := range strings.Split(body, "\n") {
		src += "    " + ln + "\n"
	}
	f, dl := parseString(src)
	if len(dl) > 0 {
		t.Fatalf("unexpected diagnostics for %q: %v", body, dl)
	}
	if len(f.Decls) != 1 {
		t.Fatalf("want 1 decl, got %d", len(f.Decls))
	}
	b := f.Decls[0].(*ast.FnDecl).Body.(*ast.Block)
	if len(b.Stmts) != 1 {
		t.Fatalf("want 1 statement in %q, got %d", body, len(b.Stmts))
	}
	if es, ok := b.Stmts[0].(*ast.ExprStmt); ok && es.Cond == nil {
		return sexpr(es.X)
	}
	return sexpr(b.Stmts[0])
}

// parseDecls parses src and fails the test unless it gives no
// diagnostics and n declarations.
func parseDecls(t *testing.T, src string, n int) *ast.File {
	t.Helper()
	f, dl := parseString(src)
	if len(dl) != 0 || len(f.Decls) != n {
		t.Fatalf("diags %v decls %d", dl, len(f.Decls))
	}
	return f
}

// wantBodyHas fails the test unless the s-expression of body, parsed as
// bodyOf does, contains want.
func wantBodyHas(t *testing.T, body, want string) {
	t.Helper()
	if got := bodyOf(t, body); !strings.Contains(got, want) {
		t.Errorf("%q:\n got %s\nwant substring %s", body, got, want)
	}
}

// wantOneDiag fails the test unless parsing src gives exactly one
// diagnostic, and it contains want.
func wantOneDiag(t *testing.T, src, want string) {
	t.Helper()
	if _, dl := parseString(src); len(dl) != 1 || !strings.Contains(fmt.Sprint(dl), want) {
		t.Errorf("%q: got %v, want one diagnostic containing %q", src, dl, want)
	}
}

// wantDeclHas parses src, which must parse without diagnostics, and fails
// the test unless the s-expression of its first declaration contains
// want; what names the declaration in the message.
func wantDeclHas(t *testing.T, src, want, what string) {
	t.Helper()
	f, dl := parseString(src)
	if len(dl) > 0 {
		t.Fatal(dl)
	}
	if got := sexpr(f.Decls[0]); !strings.Contains(got, want) {
		t.Errorf("%s: %s", what, got)
	}
}

func TestExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		// precedence (docs/reference/syntax.md#operators)
		{"1 + 2 * 3", `(Binary Op="+" L=(IntLit Value=1) R=(Binary Op="*" L=(IntLit Value=2) R=(IntLit Value=3)))`},
		{"a - b - c", `(Binary Op="-" L=(Binary Op="-" L=(Ident Name="a") R=(Ident Name="b")) R=(Ident Name="c"))`},
		{"a ** b ** c", `(Binary Op="**" L=(Ident Name="a") R=(Binary Op="**" L=(Ident Name="b") R=(Ident Name="c")))`},
		{"not a == b", `(Binary Op="==" L=(Unary Op="not" X=(Ident Name="a")) R=(Ident Name="b"))`},
		{"-n ** 2", `(Binary Op="**" L=(Unary Op="-" X=(Ident Name="n")) R=(IntLit Value=2))`},
		{"a or b and c", `(Binary Op="or" L=(Ident Name="a") R=(Binary Op="and" L=(Ident Name="b") R=(Ident Name="c")))`},
		{"a == b and c < d", `(Binary Op="and" L=(Binary Op="==" L=(Ident Name="a") R=(Ident Name="b")) R=(Binary Op="<" L=(Ident Name="c") R=(Ident Name="d")))`},
		{"a ||| b ^^^ c &&& d", `(Binary Op="|||" L=(Ident Name="a") R=(Binary Op="^^^" L=(Ident Name="b") R=(Binary Op="&&&" L=(Ident Name="c") R=(Ident Name="d"))))`},
		{"a <<< 1 + 2", `(Binary Op="<<<" L=(Ident Name="a") R=(Binary Op="+" L=(IntLit Value=1) R=(IntLit Value=2)))`},
		{"x in xs == true", `(Binary Op="==" L=(Binary Op="in" L=(Ident Name="x") R=(Ident Name="xs")) R=(BoolLit Value=true))`},
		{"0..n + 1", `(Range Lo=(IntLit) Hi=(Binary Op="+" L=(Ident Name="n") R=(IntLit Value=1)))`},
		{"a..=b", `(Range Lo=(Ident Name="a") Hi=(Ident Name="b") Inclusive=true)`},
		{"~~~x &&& 3", `(Binary Op="&&&" L=(Unary Op="~~~" X=(Ident Name="x")) R=(IntLit Value=3))`},
		// literals
		{"-9223372036854775808", `(IntLit Value=-9223372036854775808)`},
		{"0xff + 0o17 + 0b101 + 1_000", `(Binary Op="+" L=(Binary Op="+" L=(Binary Op="+" L=(IntLit Value=255) R=(IntLit Value=15)) R=(IntLit Value=5)) R=(IntLit Value=1000))`},
		{"-1.5e3", `(FloatLit Value=-1500)`},
		{"- 2", `(IntLit Value=-2)`},
		{`"a\tb\{c\}"`, `(StringLit Value="a\tb{c}")`},
		{`"x={x + 1}!"`, `(InterpString Parts=[(InterpPart Text="x=") (InterpPart X=(Binary Op="+" L=(Ident Name="x") R=(IntLit Value=1))) (InterpPart Text="!")])`},
		{`"{f("a")}"`, `(InterpString Parts=[(InterpPart X=(Call Fn=(Ident Name="f") Args=[(Arg Value=(StringLit Value="a"))]))])`},
		{"\"\"\"a\\n{b}\"\"\"", `(InterpString Parts=[(InterpPart Text="a\\n") (InterpPart X=(Ident Name="b"))] Triple=true)`},
		{"()", `(UnitLit)`},
		{"(1,)", `(Tuple Elems=[(IntLit Value=1)])`},
		{"(1, \"a\")", `(Tuple Elems=[(IntLit Value=1) (StringLit Value="a")])`},
		{"(1)", `(IntLit Value=1)`},
		{"[1, 2,]", `(ListLit Elems=[(IntLit Value=1) (IntLit Value=2)])`},
		{"[]", `(ListLit)`},
		{"%{ u | age: 3, name: n }", `(RecordUpdate X=(Ident Name="u") Fields=[(Arg Label="age" Value=(IntLit Value=3)) (Arg Label="name" Value=(Ident Name="n"))])`},
		{`%{"a": 1, "b": 2}`, `(MapLit Keys=[(StringLit Value="a") (StringLit Value="b")] Values=[(IntLit Value=1) (IntLit Value=2)])`},
		{"%{}", `(MapLit)`},
		// names, paths, postfix
		{"List.map", `(Path Parts=["List" "map"])`},
		{"Process.ExitReason.Normal", `(Path Parts=["Process" "ExitReason" "Normal"])`},
		{"Process.spawn(f)", `(Call Fn=(Path Parts=["Process" "spawn"]) Args=[(Arg Value=(Ident Name="f"))])`},
		{"user.name", `(FieldAccess X=(Ident Name="user") Name="name")`},
		{"t.0.1", `(TupleIndex X=(TupleIndex X=(Ident Name="t")) Index=1)`},
		{"xs[i + 1]", `(Index X=(Ident Name="xs") I=(Binary Op="+" L=(Ident Name="i") R=(IntLit Value=1)))`},
		{"f(x)?", `(Try X=(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="x"))]))`},
		{"spawn(w)", `(Call Fn=(Ident Name="spawn") Args=[(Arg Value=(Ident Name="w"))])`},
		{"f(1, b: 2, c: x)", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(IntLit Value=1)) (Arg Label="b" Value=(IntLit Value=2)) (Arg Label="c" Value=(Ident Name="x"))])`},
		{"Shape.Circle(1.0).r", `(FieldAccess X=(Call Fn=(Path Parts=["Shape" "Circle"]) Args=[(Arg Value=(FloatLit Value=1))]) Name="r")`},
		// pipes
		{"x |> f", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="x"))])`},
		{"x |> f(a)", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="x")) (Arg Value=(Ident Name="a"))])`},
		{"x |> f(a, _)", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="a")) (Arg Value=(Ident Name="x"))] Piped=1)`},
		{"x |> List.map(g) |> List.sum", `(Call Fn=(Path Parts=["List" "sum"]) Args=[(Arg Value=(Call Fn=(Path Parts=["List" "map"]) Args=[(Arg Value=(Ident Name="x")) (Arg Value=(Ident Name="g"))]))])`},
		{"a + b |> f", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(Binary Op="+" L=(Ident Name="a") R=(Ident Name="b")))])`},
		// lambdas
		{"(x) -> x + 1", `(Lambda Params=[(Param Name="x")] Body=(Binary Op="+" L=(Ident Name="x") R=(IntLit Value=1)))`},
		{"(x: Int, y) -> x", `(Lambda Params=[(Param Name="x" Type=(NamedType Name="Int")) (Param Name="y")] Body=(Ident Name="x"))`},
		{"() -> ()", `(Lambda Body=(UnitLit))`},
		{"fn(x) -> x", `(Lambda Params=[(Param Name="x")] Body=(Ident Name="x"))`},
		{"((a, b), _) -> a", `(Lambda Params=[(Param Pattern=(TuplePat Elems=[(BindPat Name="a") (BindPat Name="b")])) (Param Pattern=(WildcardPat))] Body=(Ident Name="a"))`},
		{"f((x) ->\n    let y = x\n    y\n)", `(Call Fn=(Ident Name="f") Args=[(Arg Value=(Lambda Params=[(Param Name="x")] Body=(Block Stmts=[(LetStmt Pattern=(BindPat Name="y") Value=(Ident Name="x")) (ExprStmt X=(Ident Name="y"))])))])`},
		// control flow
		{"if a: 1 else: 2", `(If Cond=(Ident Name="a") Then=(IntLit Value=1) Else=(IntLit Value=2))`},
		{"if a: 1\nelse: if b: 2 else: 3", `(If Cond=(Ident Name="a") Then=(IntLit Value=1) Else=(If Cond=(Ident Name="b") Then=(IntLit Value=2) Else=(IntLit Value=3)))`},
		{"if a:\n    1\nelse:\n    2", `(If Cond=(Ident Name="a") Then=(Block Stmts=[(ExprStmt X=(IntLit Value=1))]) Else=(Block Stmts=[(ExprStmt X=(IntLit Value=2))]))`},
		{"match x: 1 -> a, _ -> b", `(Match Subject=(Ident Name="x") Arms=[(Arm Pattern=(LitPat Value=(IntLit Value=1)) Body=(Ident Name="a")) (Arm Pattern=(WildcardPat) Body=(Ident Name="b"))])`},
		{"match:\n    x < 0 -> a\n    _ -> b", `(Match Arms=[(Arm Cond=(Binary Op="<" L=(Ident Name="x") R=(IntLit)) Body=(Ident Name="a")) (Arm Pattern=(WildcardPat) Body=(Ident Name="b"))])`},
		{"match r:\n    Ok(v) if v > 0 ->\n        v\n    n: Int -> n\n    Err(_) -> 0", `(Match Subject=(Ident Name="r") Arms=[(Arm Pattern=(CtorPat Name="Ok" Args=[(BindPat Name="v")] Parens=true) Guard=(Binary Op=">" L=(Ident Name="v") R=(IntLit)) Body=(Block Stmts=[(ExprStmt X=(Ident Name="v"))])) (Arm Pattern=(TypedPat Name="n" Type=(NamedType Name="Int")) Body=(Ident Name="n")) (Arm Pattern=(CtorPat Name="Err" Args=[(WildcardPat)] Parens=true) Body=(IntLit))])`},
		{"receive:\n    Some(x) -> x\n    _ after 100 -> 0", `(Receive Arms=[(Arm Pattern=(CtorPat Name="Some" Args=[(BindPat Name="x")] Parens=true) Body=(Ident Name="x"))] After=(AfterArm Timeout=(IntLit Value=100) Body=(IntLit) Wildcard=true))`},
		{"receive_event:\n    Process.Down(r, id, Process.Fault(_)) -> 1\n    after 0 -> 2", `(Receive Event=true Arms=[(Arm Pattern=(CtorPat Name="Process.Down" Args=[(BindPat Name="r") (BindPat Name="id") (CtorPat Name="Process.Fault" Args=[(WildcardPat)] Parens=true)] Parens=true) Body=(IntLit Value=1))] After=(AfterArm Timeout=(IntLit) Body=(IntLit Value=2)))`},
		{"for (i, x) in xs: f(x)", `(For Pattern=(TuplePat Elems=[(BindPat Name="i") (BindPat Name="x")]) Iter=(Ident Name="xs") Body=(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="x"))]))`},
		{"for x in 0..3:\n    break", `(For Pattern=(BindPat Name="x") Iter=(Range Lo=(IntLit) Hi=(IntLit Value=3)) Body=(Block Stmts=[(ExprStmt X=(Break))]))`},
		{"return x", `(Return X=(Ident Name="x"))`},
		{"with\n    a <- f(),\n    b <- g(a)\ndo\n    Ok(b)\nelse\n    Err(e) -> Err(e)", `(With Steps=[(WithStep Pattern=(BindPat Name="a") X=(Call Fn=(Ident Name="f"))) (WithStep Pattern=(BindPat Name="b") X=(Call Fn=(Ident Name="g") Args=[(Arg Value=(Ident Name="a"))]))] Body=(Block Stmts=[(ExprStmt X=(Call Fn=(Ident Name="Ok") Args=[(Arg Value=(Ident Name="b"))]))]) ElseArms=[(Arm Pattern=(CtorPat Name="Err" Args=[(BindPat Name="e")] Parens=true) Body=(Call Fn=(Ident Name="Err") Args=[(Arg Value=(Ident Name="e"))]))])`},
		// statements
		{"let (a, b): (Int, String) = p", `(LetStmt Pattern=(TuplePat Elems=[(BindPat Name="a") (BindPat Name="b")]) Type=(TupleType Elems=[(NamedType Name="Int") (NamedType Name="String")]) Value=(Ident Name="p"))`},
		{"let Some(x) = o else: return 1", `(LetStmt Pattern=(CtorPat Name="Some" Args=[(BindPat Name="x")] Parens=true) Value=(Ident Name="o") Else=(Return X=(IntLit Value=1)))`},
		{"let [h, ..t] = xs else:\n    return 0", `(LetStmt Pattern=(ListPat Elems=[(BindPat Name="h")] HasRest=true Rest=(BindPat Name="t")) Value=(Ident Name="xs") Else=(Block Stmts=[(ExprStmt X=(Return X=(IntLit)))]))`},
		{"let (h, ..t) = p", `(LetStmt Pattern=(TuplePat Elems=[(BindPat Name="h")] HasRest=true Rest=(BindPat Name="t")) Value=(Ident Name="p"))`},
		{"match p: (_, .._,) -> 1, (..) -> 2", `(Match Subject=(Ident Name="p") Arms=[(Arm Pattern=(TuplePat Elems=[(WildcardPat)] HasRest=true Rest=(WildcardPat)) Body=(IntLit Value=1)) (Arm Pattern=(TuplePat HasRest=true) Body=(IntLit Value=2))])`},
		{"let -1 = n else: return 0", `(LetStmt Pattern=(LitPat Value=(IntLit Value=-1)) Value=(Ident Name="n") Else=(Return X=(IntLit)))`},
		{"defer println(1)", `(DeferStmt X=(Call Fn=(Ident Name="println") Args=[(Arg Value=(IntLit Value=1))]))`},
		{"f(x) if x > 0", `(ExprStmt X=(Call Fn=(Ident Name="f") Args=[(Arg Value=(Ident Name="x"))]) Cond=(Binary Op=">" L=(Ident Name="x") R=(IntLit)))`},
		{"let f: (Int, Int) -> Int = g", `(LetStmt Pattern=(BindPat Name="f") Type=(FuncType Params=[(NamedType Name="Int") (NamedType Name="Int")] Ret=(NamedType Name="Int")) Value=(Ident Name="g"))`},
		{"let p: Pid(Process.Event(Int)) = x", `(LetStmt Pattern=(BindPat Name="p") Type=(NamedType Name="Pid" Args=[(NamedType Name="Process.Event" Args=[(NamedType Name="Int")])]) Value=(Ident Name="x"))`},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			if got := bodyOf(t, tc.src); got != tc.want {
				t.Errorf("%q\n got: %s\nwant: %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestDeclarations(t *testing.T) {
	tests := []struct{ src, want string }{
		{"fn f(x) -> x * 2", `(FnDecl Name="f" Params=[(Param Name="x")] Body=(Binary Op="*" L=(Ident Name="x") R=(IntLit Value=2)) Arrow=true)`},
		{"fn f() -> Int: 1", `(FnDecl Name="f" Ret=(NamedType Name="Int") Body=(IntLit Value=1))`},
		{"pub fn f(a: Int) -> Result((), String):\n    Ok(())", `(FnDecl Pub=true Name="f" Params=[(Param Name="a" Type=(NamedType Name="Int"))] Ret=(NamedType Name="Result" Args=[(UnitType) (NamedType Name="String")]) Body=(Block Stmts=[(ExprStmt X=(Call Fn=(Ident Name="Ok") Args=[(Arg Value=(UnitLit))]))]))`},
		{"fn f(g: fn(Int) -> Int) -> (Int) -> Int: g", `(FnDecl Name="f" Params=[(Param Name="g" Type=(FuncType Params=[(NamedType Name="Int")] Ret=(NamedType Name="Int")))] Ret=(FuncType Params=[(NamedType Name="Int")] Ret=(NamedType Name="Int")) Body=(Ident Name="g"))`},
		{"fn f() -> fn(Int) -> Int: g", `(FnDecl Name="f" Ret=(FuncType Params=[(NamedType Name="Int")] Ret=(NamedType Name="Int")) Body=(Ident Name="g"))`},
		{"fn f(label name: String, UserId(v): UserId): v", `(FnDecl Name="f" Params=[(Param Label="label" Name="name" Type=(NamedType Name="String")) (Param Pattern=(CtorPat Name="UserId" Args=[(BindPat Name="v")] Parens=true) Type=(NamedType Name="UserId"))] Body=(Ident Name="v"))`},
		{"type Shape derive(Show, Eq):\n    Circle(Float)\n    Rect(w: Float, h: Float)\n    Empty", `(TypeDecl Name="Shape" Derives=[(Ident Name="Show") (Ident Name="Eq")] Variants=[(Variant Name="Circle" Fields=[(Field Type=(NamedType Name="Float"))]) (Variant Name="Rect" Fields=[(Field Name="w" Type=(NamedType Name="Float")) (Field Name="h" Type=(NamedType Name="Float"))]) (Variant Name="Empty")])`},
		{"type Pair(a, b):\n    first: a\n    second: b", `(TypeDecl Name="Pair" Params=["a" "b"] Kind=1 Fields=[(Field Name="first" Type=(NamedType Name="a")) (Field Name="second" Type=(NamedType Name="b"))])`},
		{"type V = Int | String", `(TypeDecl Name="V" Kind=2 Alias=(UnionType Alts=[(NamedType Name="Int") (NamedType Name="String")]))`},
		{"type P = (Int, String,)", `(TypeDecl Name="P" Kind=2 Alias=(TupleType Elems=[(NamedType Name="Int") (NamedType Name="String")]))`},
		{"newtype Id derive(Eq) = Id(Int)", `(NewtypeDecl Name="Id" Derives=[(Ident Name="Eq")] Ctor="Id" Type=(NamedType Name="Int"))`},
		{"import foo.bar", `(ImportDecl Path=["foo" "bar"] PathSpan=)`},
		{"pub trait Show:\n    fn show(x) -> String", `(UnsupportedDecl Feature="trait")`},
		{"foreign fn c_call()", `(UnsupportedDecl Feature="foreign")`},
		{"@doc \"\"\"Adds.\"\"\"\nfn f(): 1", `(FnDecl Name="f" Body=(IntLit Value=1))`},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			f, dl := parseString(tc.src + "\n")
			if len(dl) > 0 {
				t.Fatalf("unexpected diagnostics: %v", dl)
			}
			if len(f.Decls) != 1 {
				t.Fatalf("want 1 decl, got %d", len(f.Decls))
			}
			if got := sexpr(f.Decls[0]); got != tc.want {
				t.Errorf("%q\n got: %s\nwant: %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestDocAttached(t *testing.T) {
	f := parseDecls(t, "@moduledoc \"m\"\n@doc \"\"\"Adds one.\"\"\"\nfn f(x) -> x + 1\nfn g(): 2\n", 2)
	if d := f.Decls[0].(*ast.FnDecl).Docs; d != "Adds one." {
		t.Errorf("docs of f = %q", d)
	}
	if d := f.Decls[1].(*ast.FnDecl).Docs; d != "" {
		t.Errorf("docs of g = %q", d)
	}
}

// TestSpans checks that spans cover exactly the source text of nodes.
func TestSpans(t *testing.T) {
	src := "fn main():\n    let total = List.map(xs, (x) -> x + 1)\n    -5\n"
	f, dl := parseString(src)
	if len(dl) != 0 {
		t.Fatal(dl)
	}
	fn := f.Decls[0].(*ast.FnDecl)
	text := func(n ast.Node) string { s := n.Span(); return src[s.Start:s.End] }
	if got := text(fn.Body); got != "let total = List.map(xs, (x) -> x + 1)\n    -5" {
		t.Errorf("body span %q", got)
	}
	let := fn.Body.(*ast.Block).Stmts[0].(*ast.LetStmt)
	if got := text(let.Value); got != "List.map(xs, (x) -> x + 1)" {
		t.Errorf("call span %q", got)
	}
	call := let.Value.(*ast.Call)
	if got := text(call.Fn); got != "List.map" {
		t.Errorf("path span %q", got)
	}
	if got := text(call.Args[1].Value); got != "(x) -> x + 1" {
		t.Errorf("lambda span %q", got)
	}
	lit := fn.Body.(*ast.Block).Stmts[1].(*ast.ExprStmt).X
	if got := text(lit); got != "-5" {
		t.Errorf("literal span %q", got)
	}
	if got := src[fn.NameSpan.Start:fn.NameSpan.End]; got != "main" {
		t.Errorf("name span %q", got)
	}
}

// TestErrors checks that each error is reported once, with its code, on
// the right line, and that independent declarations each report theirs.
func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "line:code:substring"
	}{
		{"keyword binding", "fn main():\n    let match = 5\n", []string{"2:E1002:expected an identifier but found keyword 'match'"}},
		{"keyword param", "fn f(fn: Int): 1\n", []string{"1:E1002:found keyword 'fn'"}},
		{"missing block", "fn f():\nfn g(): 1\n", []string{"1:E1003:expected an indented block after ':'"}},
		{"missing close in call", "fn f(): g(1 2)\n", []string{"1:E1004:expected ')' to close the call"}},
		{"top level statement", "let x = 1\nfn f(): 1\n", []string{"1:E1005:expected a declaration"}},
		{"no body", "fn f(x)\n", []string{"1:E1006:expected ':' or '->'"}},
		{"chained range", "fn f(): 1..2..3\n", []string{"1:E1007:ranges cannot be chained"}},
		{"pipe into literal", "fn f(): x |> 3\n", []string{"1:E1008:pipe target"}},
		{"two placeholders", "fn f(): x |> g(_, _)\n", []string{"1:E1008:only one '_'"}},
		{"hole as value", "fn f(): _\n", []string{"1:E1009:'_' is not a value"}},
		{"bare return", "fn f():\n    return\n", []string{"2:E1010:return requires an expression"}},
		{"bad return type", "fn f() -> 1 + 2: 3\n", []string{"1:E1011:expected a return type"}},
		{"bad lambda param", "fn f(): (1 + 2) -> 3\n", []string{"1:E1012:expected a parameter"}},
		{"annotation in tuple", "fn f(): (a: Int, b)\n", []string{"1:E1013:only allowed on parameters"}},
		{"mixed type body", "type T:\n    a: Int\n    B\n", []string{"3:E1014:expected a record field"}},
		{"postfix if on let", "fn f():\n    let x = 1 if c\n", []string{"2:E1015:postfix 'if'"}},
		{"interpolated pattern", "fn f():\n    match s:\n        \"{x}\" -> 1\n", []string{"3:E1016:cannot contain interpolation"}},
		{"timeout not last", "fn f():\n    receive:\n        _ after 1 -> 0\n        x -> x\n", []string{"4:E1017:receive timeout must be the final arm"}},
		{"timeout pattern", "fn f():\n    receive:\n        x -> x\n        y after 1 -> 0\n", []string{"4:E1017:receive timeout requires '_'"}},
		{"int range", "fn f(): 9223372036854775808\n", []string{"1:E0003:integer is outside Int range"}},
		{"errors in every decl", "fn f(): 1 +\nfn g():\n    let if = 2\nfn h(): \"abc\n", []string{
			"1:E1001:expected an expression", "3:E1002:keyword 'if'", "4:E0009:unterminated string literal"}},
		{"lexical errors all reported", "fn f():\n    let a = 1 $ 2\n    let b = 3px\n    let c = \"\\q\"\n", []string{
			"2:E0001:unsupported character '$' in source", "3:E0004:unsupported numeric literal suffix", "4:E0008:invalid or unsupported string escape"}},
		{"errors in every statement", "fn f():\n    let a = 1 +\n    if x\n        g()\n    h(1 2)\n    let c = 99999999999999999999\n    if a:\n        b(\n            1 2)\n    else:\n        c\n    let ok = 1\n", []string{
			"2:E1001:expected an expression", "3:E1001:expected ':'", "5:E1004:expected ')' to close the call", "6:E0003:integer is outside Int range", "9:E1004:expected ')'"}},
		{"no assignment", "fn f():\n    x = 1\n", []string{"2:E1001:there is no assignment"}},
		{"bad UTF-8 in a string", "fn f():\n    println(\"caf\xe9 \xff\")\n", []string{"2:E0021:invalid UTF-8 in string literal"}},
		{"bad UTF-8 in a triple-quoted string", "fn f():\n    println(\"\"\"a\n\xc3(\"\"\")\n", []string{"3:E0021:invalid UTF-8 in string literal"}},
		{"bad UTF-8 in a line comment", "# caf\xe9\nfn f(): 1\n", []string{"1:E0021:invalid UTF-8 in comment"}},
		{"bad UTF-8 in a block comment", "/* ok\n \xed\xa0\x80 */\nfn f(): 1\n", []string{"2:E0021:invalid UTF-8 in comment"}},
		{"valid UTF-8 in strings and comments", "# café ☕\n/* ñandú */\nfn f(): \"π = {1}\" + \"\"\"ü\"\"\"\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, dl := parseString(tc.src)
			var got []string
			for _, d := range dl {
				got = append(got, d.Error())
			}
			if len(dl) != len(tc.want) {
				t.Fatalf("want %d diagnostics %v, got %d:\n%s", len(tc.want), tc.want, len(dl), strings.Join(got, "\n"))
			}
			for i, w := range tc.want {
				parts := strings.SplitN(w, ":", 3)
				d := dl[i]
				line := d.File.Line(d.Span.Start)
				if parts[0] != itoa(line) || string(d.Code) != parts[1] || !strings.Contains(d.Message, parts[2]) {
					t.Errorf("diagnostic %d: want %s, got %s", i, w, d.Error())
				}
			}
		})
	}
}

func itoa(n int) string {
	b := []byte{}
	if n == 0 {
		return "0"
	}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestBadUTF8Offset checks that the error points at the first bad byte.
func TestBadUTF8Offset(t *testing.T) {
	src := "fn f(): \"ab\xffc\xfe\"\n"
	_, dl := parseString(src)
	if len(dl) != 1 || dl[0].Span.Start != strings.IndexByte(src, 0xff) {
		t.Fatalf("want one E0021 at offset %d, got %v", strings.IndexByte(src, 0xff), dl)
	}
}

// TestTokenLimitCountsInterpolations checks that the tokens inside string
// interpolations, of ordinary strings and of @doc strings, count toward the
// 65,536-token limit (docs/reference/syntax.md#source-files), and that a file just under it is accepted.
func TestTokenLimitCountsInterpolations(t *testing.T) {
	// "fn main(): s" is 4 tokens plus the string; each "a+" adds 2.
	interp := func(n int) string { return strings.Repeat("a+", n) + "a" }
	cases := []struct {
		name string
		src  string
		over bool
	}{
		{"string under", "fn main(): \"{" + interp(32000) + "}\"\n", false},
		{"string over", "fn main(): \"{" + interp(33000) + "}\"\n", true},
		{"doc over", "@doc \"{" + interp(33000) + "}\"\nfn main(): 1\n", true},
	}
	for _, tc := range cases {
		_, dl := parseString(tc.src)
		over := false
		for _, d := range dl {
			if d.Code == ErrTooManyTokens {
				over = true
			}
		}
		if over != tc.over {
			t.Errorf("%s: token limit reported %v, want %v (%v)", tc.name, over, tc.over, dl)
		}
	}
}

func TestDocNotStolen(t *testing.T) {
	f := parseDecls(t, "@doc \"type doc\"\ntype T:\n    A\nfn f(): 1\n", 2)
	if d := f.Decls[1].(*ast.FnDecl).Docs; d != "" {
		t.Errorf("a type's doc was attached to the next function: %q", d)
	}
}

func TestUnicodeAndBOM(t *testing.T) {
	f, dl := parseString("\uFEFFfn main():\n    let π = 3.14\n    match x:\n        Ñandú(v) -> v\n        ñ -> ñ\n")
	if len(dl) != 0 {
		t.Fatal(dl)
	}
	got := sexpr(f.Decls[0])
	want := `(FnDecl Name="main" Body=(Block Stmts=[(LetStmt Pattern=(BindPat Name="π") Value=(FloatLit Value=3.14)) (ExprStmt X=(Match Subject=(Ident Name="x") Arms=[(Arm Pattern=(CtorPat Name="Ñandú" Args=[(BindPat Name="v")] Parens=true) Body=(Ident Name="v")) (Arm Pattern=(BindPat Name="ñ") Body=(Ident Name="ñ"))]))]))`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestConcurrentParse checks that Parse can run on many goroutines at once
// (the editor server and parallel tests do this); run with -race.
func TestConcurrentParse(t *testing.T) {
	src := "fn main():\n    let xs = [1, 2]\n    match xs:\n        [a, ..rest] -> println(\"{a}\")\n        _ -> ()\n"
	done := make(chan string, 8)
	for i := 0; i < 8; i++ {
		go func() {
			f, dl := parseString(src)
			if len(dl) != 0 || len(f.Decls) != 1 {
				done <- "bad parse"
				return
			}
			done <- sexpr(f.Decls[0])
		}()
	}
	first := <-done
	for i := 1; i < 8; i++ {
		if got := <-done; got != first {
			t.Fatalf("concurrent parses differ:\n%s\n%s", first, got)
		}
	}
}
