package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Helpers that build syntax trees by hand, so codegen can be tested
// without the parser.

func id(n string) *ast.Ident      { return &ast.Ident{Name: n} }
func num(n int64) *ast.IntLit     { return &ast.IntLit{Value: n} }
func str(s string) *ast.StringLit { return &ast.StringLit{Value: s} }
func path(p ...string) *ast.Path  { return &ast.Path{Parts: p} }
func bin(op string, l, r ast.Expr) *ast.Binary {
	return &ast.Binary{Op: op, L: l, R: r}
}
func call(fn ast.Expr, args ...ast.Expr) *ast.Call {
	c := &ast.Call{Fn: fn, Piped: -1}
	for _, a := range args {
		c.Args = append(c.Args, &ast.Arg{Value: a})
	}
	return c
}
func labeled(fn ast.Expr, pairs ...any) *ast.Call {
	c := &ast.Call{Fn: fn, Piped: -1}
	for i := 0; i < len(pairs); i += 2 {
		c.Args = append(c.Args, &ast.Arg{Label: pairs[i].(string), Value: pairs[i+1].(ast.Expr)})
	}
	return c
}
func block(stmts ...ast.Stmt) *ast.Block { return &ast.Block{Stmts: stmts} }
func es(x ast.Expr) *ast.ExprStmt        { return &ast.ExprStmt{X: x} }
func let(name string, v ast.Expr) *ast.LetStmt {
	return &ast.LetStmt{Pattern: &ast.BindPat{Name: name}, Value: v}
}
func ifx(c, t, e ast.Expr) *ast.If { return &ast.If{Cond: c, Then: t, Else: e} }
func params(names ...string) []*ast.Param {
	var ps []*ast.Param
	for _, n := range names {
		ps = append(ps, &ast.Param{Name: n})
	}
	return ps
}
func fn(name string, ps []*ast.Param, body ast.Expr) *ast.FnDecl {
	return &ast.FnDecl{Name: name, Params: ps, Body: body}
}
func file(decls ...ast.Decl) *ast.File {
	return &ast.File{Src: source.NewFile("test.mr", []byte("\n")), Decls: decls}
}

func mustCompile(t *testing.T, f *ast.File) *bytecode.Program {
	t.Helper()
	return compileFile(t, f, nil)
}

// compileFile compiles f (with the checker's info, or nil to bypass the
// checker), then checks the program's invariants and verifies it, failing
// the test on any error.
func compileFile(t *testing.T, f *ast.File, info *types.Info) *bytecode.Program {
	t.Helper()
	p, err := Compile(f, info)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if err := checkProgram(p); err != nil {
		t.Fatalf("%v\n%s", err, listing(p))
	}
	if err := bytecode.Verify(p); err != nil {
		t.Fatalf("Verify: %v\n%s", err, listing(p))
	}
	return p
}

// listing is a plain dump of a program for test failure messages.
func listing(p *bytecode.Program) string {
	var b strings.Builder
	for i, f := range p.Functions {
		fmt.Fprintf(&b, "fn %d %s params=%d locals=%d captures=%d maxstack=%d flags=%b\n", i, f.Name, f.Params, f.Locals, f.Captures, f.MaxStack, f.Flags)
		for pc, in := range f.Code {
			fmt.Fprintf(&b, "  %3d %v\n", pc, in)
		}
	}
	return b.String()
}

// checkProgram is an independent structural check of generated code: it
// follows every reachable path of every function, checking operand ranges,
// that the static stack depth agrees wherever paths meet, never goes
// negative, stays within MaxStack, and that control never runs off the end
// of the code.
func checkProgram(p *bytecode.Program) error {
	if p.Entry < 0 || p.Entry >= len(p.Functions) {
		return fmt.Errorf("entry %d out of range", p.Entry)
	}
	for fi, f := range p.Functions {
		if err := checkFunc(p, f); err != nil {
			return fmt.Errorf("function %d (%s): %v", fi, f.Name, err)
		}
	}
	return nil
}

func checkFunc(p *bytecode.Program, f *bytecode.Function) error {
	if len(f.Code) == 0 {
		return fmt.Errorf("no code")
	}
	if f.Locals < f.Params {
		return fmt.Errorf("locals %d < params %d", f.Locals, f.Params)
	}
	if len(f.Lines) == 0 || f.Lines[0].PC != 0 {
		return fmt.Errorf("line table does not start at pc 0")
	}
	depth := make([]int, len(f.Code))
	for i := range depth {
		depth[i] = -1
	}
	work := []int{0}
	depth[0] = 0
	flow := func(pc, d int) error {
		if pc < 0 || pc >= len(f.Code) {
			return fmt.Errorf("control reaches pc %d outside the code", pc)
		}
		if d < 0 {
			return fmt.Errorf("negative stack depth at pc %d", pc)
		}
		if d > f.MaxStack {
			return fmt.Errorf("depth %d exceeds MaxStack %d at pc %d", d, f.MaxStack, pc)
		}
		if depth[pc] == -1 {
			depth[pc] = d
			work = append(work, pc)
		} else if depth[pc] != d {
			return fmt.Errorf("inconsistent stack depth at pc %d: %d and %d", pc, depth[pc], d)
		}
		return nil
	}
	for len(work) > 0 {
		pc := work[len(work)-1]
		work = work[:len(work)-1]
		in := f.Code[pc]
		d := depth[pc]
		if err := checkOperands(p, f, in); err != nil {
			return fmt.Errorf("pc %d %v: %v", pc, in, err)
		}
		eff, ok := bytecode.StackEffect(in, p)
		if !ok {
			return fmt.Errorf("pc %d: malformed %v", pc, in)
		}
		if in.Op == bytecode.RETURN && d < 1 {
			return fmt.Errorf("pc %d: RETURN on an empty stack", pc)
		}
		if t, isJump := in.JumpTarget(); isJump {
			if err := flow(t, d+bytecode.BranchEffect(in)); err != nil {
				return err
			}
		}
		if !in.Op.IsTerminal() {
			if err := flow(pc+1, d+eff); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkOperands(p *bytecode.Program, f *bytecode.Function, in bytecode.Instr) error {
	ka, kb := in.Op.Operands()
	for i, k := range []bytecode.OperandKind{ka, kb} {
		v := int(in.A)
		if i == 1 {
			v = int(in.B)
		}
		bad := false
		switch k {
		case bytecode.OpNone:
			bad = v != 0
		case bytecode.OpCount:
			bad = v < 0
		case bytecode.OpConst:
			bad = v < 0 || v >= len(p.Consts)
		case bytecode.OpName:
			bad = v < 0 || v >= len(p.Consts) || p.Consts[v].Kind() != value.KString
		case bytecode.OpLocal:
			bad = v < 0 || v >= f.Locals
		case bytecode.OpFree:
			bad = v < 0 || v >= f.Captures
		case bytecode.OpFunc:
			bad = v < 0 || v >= len(p.Functions)
		case bytecode.OpNative:
			bad = v < 0 || v >= len(p.Natives)
		case bytecode.OpType:
			bad = v < 0 || v >= len(p.Types)
		case bytecode.OpJump:
			bad = v < 0 || v >= len(f.Code)
		}
		if bad {
			return fmt.Errorf("operand %d (%s) = %d out of range", i, k, v)
		}
	}
	switch in.Op {
	case bytecode.CALL, bytecode.TAIL_CALL:
		if callee := p.Functions[in.A]; callee.Params != int(in.B) {
			return fmt.Errorf("calls %s with %d arguments, it has %d parameters", callee.Name, in.B, callee.Params)
		}
	case bytecode.CLOSURE:
		if callee := p.Functions[in.A]; callee.Captures != int(in.B) {
			return fmt.Errorf("closure of %s with %d captures, it has %d", callee.Name, in.B, callee.Captures)
		}
	case bytecode.FUNC:
		if callee := p.Functions[in.A]; callee.Captures != 0 {
			return fmt.Errorf("FUNC of %s, which has captures", callee.Name)
		}
	}
	return nil
}

// count returns how many instructions of f have opcode op (and, when a >=
// 0, operand A == a).
func count(f *bytecode.Function, op bytecode.Opcode, a int) int {
	n := 0
	for _, in := range f.Code {
		if in.Op == op && (a < 0 || int(in.A) == a) {
			n++
		}
	}
	return n
}

func fnNamed(t *testing.T, p *bytecode.Program, name string) (int, *bytecode.Function) {
	t.Helper()
	i := p.FuncByName(name)
	if i < 0 {
		t.Fatalf("no function %s in\n%s", name, listing(p))
	}
	return i, p.Functions[i]
}

func TestSelfTailCallBecomesJump(t *testing.T) {
	// fn sum(n, acc): if n == 0: acc else: sum(n - 1, acc + n)
	sum := fn("sum", params("n", "acc"), ifx(bin("==", id("n"), num(0)), id("acc"),
		call(id("sum"), bin("-", id("n"), num(1)), bin("+", id("acc"), id("n")))))
	main := fn("main", nil, block(es(call(id("println"), call(id("sum"), num(10), num(0))))))
	p := mustCompile(t, file(main, sum))
	i, f := fnNamed(t, p, "sum")
	if count(f, bytecode.CALL, i) != 0 || count(f, bytecode.TAIL_CALL, i) != 0 {
		t.Errorf("self tail call still calls:\n%s", listing(p))
	}
	if count(f, bytecode.JUMP, 0) != 1 {
		t.Errorf("self tail call did not become JUMP 0:\n%s", listing(p))
	}
	_, m := fnNamed(t, p, "main")
	if count(m, bytecode.CALL, i) != 1 || count(m, bytecode.CALL_NATIVE, -1) != 1 {
		t.Errorf("main should call sum and the println native:\n%s", listing(p))
	}
	if p.Natives[0] != "println" || p.Entry != p.FuncByName("main") {
		t.Errorf("natives %v entry %d", p.Natives, p.Entry)
	}
}

func TestOtherTailCallsUseTailCall(t *testing.T) {
	// fn even(n): if n == 0: true else: odd(n - 1)   (and odd symmetric)
	even := fn("even", params("n"), ifx(bin("==", id("n"), num(0)), &ast.BoolLit{Value: true}, call(id("odd"), bin("-", id("n"), num(1)))))
	odd := fn("odd", params("n"), ifx(bin("==", id("n"), num(0)), &ast.BoolLit{Value: false}, call(id("even"), bin("-", id("n"), num(1)))))
	main := fn("main", nil, block(es(call(id("println"), call(id("even"), num(10))))))
	p := mustCompile(t, file(main, even, odd))
	oi, _ := fnNamed(t, p, "odd")
	_, e := fnNamed(t, p, "even")
	if count(e, bytecode.TAIL_CALL, oi) != 1 || count(e, bytecode.CALL, -1) != 0 {
		t.Errorf("mutual tail call is not TAIL_CALL:\n%s", listing(p))
	}
	// main discards its value: its call of println is not a tail call
	_, m := fnNamed(t, p, "main")
	if count(m, bytecode.TAIL_CALL, -1) != 0 {
		t.Errorf("Unit main must not tail call:\n%s", listing(p))
	}
}

func TestDeferDisablesTailCalls(t *testing.T) {
	// fn f(n): defer println("bye"); g(n)
	f := fn("f", params("n"), block(
		&ast.DeferStmt{X: call(id("println"), str("bye"))},
		es(call(id("f"), id("n")))))
	main := fn("main", nil, block(es(call(id("f"), num(1)))))
	p := mustCompile(t, file(main, f))
	fi, ff := fnNamed(t, p, "f")
	if !ff.Flags.Has(bytecode.FlagHasDefer) {
		t.Errorf("f has no FlagHasDefer")
	}
	if count(ff, bytecode.CALL, fi) != 1 || count(ff, bytecode.JUMP, -1) != 0 || count(ff, bytecode.TAIL_CALL, -1) != 0 {
		t.Errorf("a function with defer must use a plain call:\n%s", listing(p))
	}
	if count(ff, bytecode.DEFER, -1) != 1 {
		t.Errorf("no DEFER:\n%s", listing(p))
	}
	found := false
	for _, g := range p.Functions {
		if g.Flags.Has(bytecode.FlagDefer) && g.Params == 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no defer body function:\n%s", listing(p))
	}
}

func TestLambdaCapturesByValue(t *testing.T) {
	// fn main(): let k = 3; let f = (x) -> x + k; println(f(1))
	lam := &ast.Lambda{Params: params("x"), Body: bin("+", id("x"), id("k"))}
	main := fn("main", nil, block(let("k", num(3)), let("f", lam),
		es(call(id("println"), call(id("f"), num(1))))))
	p := mustCompile(t, file(main))
	var lf *bytecode.Function
	li := -1
	for i, f := range p.Functions {
		if f.Flags.Has(bytecode.FlagLambda) {
			lf, li = f, i
		}
	}
	if lf == nil || lf.Captures != 1 || count(lf, bytecode.FREE, 0) != 1 {
		t.Fatalf("lambda does not capture k:\n%s", listing(p))
	}
	_, m := fnNamed(t, p, "main")
	if count(m, bytecode.CLOSURE, li) != 1 || count(m, bytecode.CALL_VALUE, 1) != 1 {
		t.Errorf("main does not build and call the closure:\n%s", listing(p))
	}
}

func TestNestedLambdaCapturesThroughOuterLambda(t *testing.T) {
	// let k = 1; let f = () -> (() -> k); f()()
	inner := &ast.Lambda{Body: id("k")}
	outer := &ast.Lambda{Body: inner}
	main := fn("main", nil, block(let("k", num(1)), let("f", outer),
		es(call(id("println"), call(call(id("f")))))))
	p := mustCompile(t, file(main))
	for _, f := range p.Functions {
		if f.Flags.Has(bytecode.FlagLambda) && f.Captures != 1 {
			t.Errorf("%s captures %d values, want 1:\n%s", f.Name, f.Captures, listing(p))
		}
	}
}

func TestLabeledArgumentsEvaluateInWrittenOrder(t *testing.T) {
	// fn sub(a: Int, b: Int) -> a - b; main: sub(b: g(1), a: g(2))
	sub := fn("sub", params("a", "b"), bin("-", id("a"), id("b")))
	g := fn("g", params("x"), id("x"))
	main := fn("main", nil, block(es(call(id("println"), labeled(id("sub"), "b", call(id("g"), num(1)), "a", call(id("g"), num(2)))))))
	p := mustCompile(t, file(main, sub, g))
	_, m := fnNamed(t, p, "main")
	// The written order is g(1) then g(2): the INT 1 must come first.
	var ints []int32
	var stores, loads []int32
	for _, in := range m.Code {
		switch in.Op {
		case bytecode.INT:
			ints = append(ints, in.A)
		case bytecode.STORE:
			stores = append(stores, in.A)
		case bytecode.LOAD:
			loads = append(loads, in.A)
		}
	}
	if len(ints) != 2 || ints[0] != 1 || ints[1] != 2 {
		t.Errorf("arguments not evaluated in written order: %v\n%s", ints, listing(p))
	}
	// b's temp is stored first, a's second; they are loaded as a, b.
	if len(stores) != 2 || len(loads) != 2 || loads[0] != stores[1] || loads[1] != stores[0] {
		t.Errorf("arguments not placed in parameter order: stores %v loads %v\n%s", stores, loads, listing(p))
	}
}

func TestMatchAndPatterns(t *testing.T) {
	// type Shape: Circle(Int), Rect(Int, Int)
	shape := &ast.TypeDecl{Name: "Shape", Kind: ast.SumType, Variants: []*ast.Variant{
		{Name: "Circle", Fields: []*ast.Field{{}}},
		{Name: "Rect", Fields: []*ast.Field{{}, {}}},
	}}
	area := fn("area", params("s"), &ast.Match{Subject: id("s"), Arms: []*ast.Arm{
		{Pattern: &ast.CtorPat{Name: "Circle", Args: []ast.Pattern{&ast.BindPat{Name: "r"}}}, Body: bin("*", id("r"), id("r"))},
		{Pattern: &ast.CtorPat{Name: "Shape.Rect", Args: []ast.Pattern{&ast.BindPat{Name: "w"}, &ast.LitPat{Value: num(0)}}}, Body: num(0)},
		{Pattern: &ast.CtorPat{Name: "Rect", Args: []ast.Pattern{&ast.BindPat{Name: "w"}, &ast.BindPat{Name: "h"}}}, Guard: bin(">", id("w"), num(0)), Body: bin("*", id("w"), id("h"))},
		{Pattern: &ast.WildcardPat{}, Body: num(-1)},
	}})
	// fn first(xs): match xs: [] -> 0, [x, ..rest] -> x
	first := fn("first", params("xs"), &ast.Match{Subject: id("xs"), Arms: []*ast.Arm{
		{Pattern: &ast.ListPat{}, Body: num(0)},
		{Pattern: &ast.ListPat{Elems: []ast.Pattern{&ast.BindPat{Name: "x"}}, HasRest: true, Rest: &ast.BindPat{Name: "rest"}}, Body: id("x")},
	}})
	main := fn("main", nil, block(
		es(call(id("println"), call(id("area"), call(id("Circle"), num(2))))),
		es(call(id("println"), call(id("first"), &ast.ListLit{Elems: []ast.Expr{num(1)}})))))
	p := mustCompile(t, file(shape, main, area, first))
	_, a := fnNamed(t, p, "area")
	if count(a, bytecode.TEST_TAG, -1) != 3 || count(a, bytecode.EQ_CONST, -1) != 1 {
		t.Errorf("area tests:\n%s", listing(p))
	}
	if count(a, bytecode.FAIL, -1) != 0 {
		t.Errorf("a match ending in a wildcard needs no FAIL:\n%s", listing(p))
	}
	_, fi := fnNamed(t, p, "first")
	if count(fi, bytecode.LIST_LEN, -1) != 2 || count(fi, bytecode.LIST_SLICE, 1) != 1 || count(fi, bytecode.FAIL, -1) != 1 {
		t.Errorf("list pattern code:\n%s", listing(p))
	}
	if p.Types[bytecode.NumBuiltinTypes].Name != "Shape" || len(p.Types[bytecode.NumBuiltinTypes].Variants) != 2 {
		t.Errorf("type table: %+v", p.Types)
	}
}

func TestForLoopBreakContinueInsideExpressions(t *testing.T) {
	// for x in xs: println(x + (if x == 2: continue else: if x == 4: break else: 0))
	body := call(id("println"), bin("+", id("x"),
		ifx(bin("==", id("x"), num(2)), &ast.Continue{},
			ifx(bin("==", id("x"), num(4)), &ast.Break{}, num(0)))))
	loop := &ast.For{Pattern: &ast.BindPat{Name: "x"}, Iter: &ast.Range{Lo: num(0), Hi: num(10)}, Body: body}
	main := fn("main", nil, block(es(loop)))
	p := mustCompile(t, file(main))
	_, m := fnNamed(t, p, "main")
	if count(m, bytecode.ITER_NEXT, -1) != 1 || count(m, bytecode.ITER, -1) != 1 {
		t.Errorf("loop shape:\n%s", listing(p))
	}
}

func TestTryAndLetElse(t *testing.T) {
	// fn f(r): let x = r?; let Some(y) = g(x) else: return Err("none"); Ok(y)
	f := fn("f", params("r"), block(
		let("x", &ast.Try{X: id("r")}),
		&ast.LetStmt{Pattern: &ast.CtorPat{Name: "Some", Args: []ast.Pattern{&ast.BindPat{Name: "y"}}, Parens: true},
			Value: call(id("Some"), id("x")), Else: &ast.Return{X: call(id("Err"), str("none"))}},
		es(call(id("Ok"), id("y")))))
	main := fn("main", nil, block(es(call(id("println"), call(id("f"), call(id("Ok"), num(1)))))))
	p := mustCompile(t, file(main, f))
	_, ff := fnNamed(t, p, "f")
	if count(ff, bytecode.RETURN, -1) < 3 {
		t.Errorf("expected returns for ?, let-else and the body:\n%s", listing(p))
	}
}

func TestConstructorAsValueUsesWrapper(t *testing.T) {
	main := fn("main", nil, block(let("f", id("Some")), es(call(id("println"), call(id("f"), num(1))))))
	p := mustCompile(t, file(main))
	found := false
	for _, f := range p.Functions {
		if f.Name == "Some" && f.Params == 1 && count(f, bytecode.DATA, bytecode.TypeOption) == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("no wrapper for Some:\n%s", listing(p))
	}
}

func TestUnitMainDiscardsValue(t *testing.T) {
	main := fn("main", nil, num(7))
	p := mustCompile(t, file(main))
	m := p.Functions[p.Entry]
	if count(m, bytecode.POP, -1) != 1 || count(m, bytecode.UNIT, -1) != 1 {
		t.Errorf("Unit main must return ():\n%s", listing(p))
	}
	main.Ret = &ast.NamedType{Name: "Int"}
	p = mustCompile(t, file(main))
	if m := p.Functions[p.Entry]; count(m, bytecode.POP, -1) != 0 {
		t.Errorf("Int main must return its value:\n%s", listing(p))
	}
}

func TestLibraryEntry(t *testing.T) {
	start := fn("start", params("port"), block(es(call(id("println"), str("hi")))))
	p := mustCompile(t, file(start))
	if !p.Library || p.Functions[p.Entry].Name != "start" {
		t.Errorf("library entry: library=%v entry=%d", p.Library, p.Entry)
	}
	if _, err := Compile(file(fn("helper", nil, num(1))), nil); err == nil {
		t.Errorf("a file without main or start must not compile")
	}
}
