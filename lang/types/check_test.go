package types_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// check parses and checks src; it fails the test on syntax errors.
func check(t *testing.T, src string) (*ast.File, *types.Info, diag.List) {
	t.Helper()
	f := source.NewFile("test.mr", []byte(src))
	af, pd := parser.Parse(f)
	if pd.HasErrors() {
		t.Fatalf("syntax errors in test source: %v\n%s", pd.Err(), src)
	}
	info, d := types.Check(af)
	return af, info, d
}

func codes(d diag.List) []string {
	var out []string
	for _, x := range d {
		out = append(out, string(x.Code)+" "+x.Message)
	}
	return out
}

// expectDiags checks that the diagnostics are exactly the given codes
// (in position order) and that each message contains the paired text.
func expectDiags(t *testing.T, src string, want ...string) {
	t.Helper()
	_, _, d := check(t, src)
	if len(d) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s\nsource:\n%s", len(d), len(want), strings.Join(codes(d), "\n"), src)
	}
	for i, w := range want {
		code, text, _ := strings.Cut(w, " ")
		if string(d[i].Code) != code || !strings.Contains(d[i].Message, text) {
			t.Errorf("diagnostic %d: got %s %q, want %s containing %q", i, d[i].Code, d[i].Message, code, text)
		}
	}
}

// risky is a function whose Result the obligation tests leave unhandled
// or handle; riskyHandled adds handle, which handles one.
const (
	risky        = "fn risky() -> Result(Int, String): Ok(1)\n"
	riskyHandled = risky + "fn handle(r: Result(Int, String)) -> Int:\n    match r:\n        Ok(n) -> n\n        Err(_) -> 0\n"
)

func TestCleanPrograms(t *testing.T) {
	progs := map[string]string{
		"inferred private": `
fn double(x) -> x * 2
fn id(x) -> x
fn main():
    println(double(21))
    println(id("s"))
    println(id(3))
`,
		"mutual recursion": `
fn even(n) -> if n == 0: true else: odd(n - 1)
fn odd(n) -> if n == 0: false else: even(n - 1)
fn main():
    println(even(10))
`,
		"generic annotated": `
fn first(xs: List(a), fallback: a) -> a:
    match xs:
        [x, .._] -> x
        [] -> fallback
fn main():
    println(first([1, 2], fallback: 0))
    println(first(["a"], fallback: "z"))
`,
		"higher order": `
fn main():
    let xs = [1, 2, 3]
    let ys = List.map(xs, (x) -> x * 10)
    let total = List.fold(ys, 0, (acc, x) -> acc + x)
    println(total)
    let names = List.map(xs, (n) -> "n{n}")
    println(String.join(names, ","))
    println(List.filter(xs, (x) -> x > 1))
`,
		"records and unions": `
type User derive(Show, Eq):
    name: String
    age: Int
type V = Int | String
fn describe(v: V) -> String:
    match v:
        n: Int -> "int {n}"
        s: String -> s
fn main():
    let u = User("Ada", 36)
    let v: V = 3
    println(describe(v))
    println(describe("x"))
    println(%{ u | age: 37 })
    println(u.name)
`,
		"results": `
fn parse(s: String) -> Result(Int, String):
    match Int.parse(s):
        Some(n) -> Ok(n)
        None -> Err("bad: " + s)
fn twice(s: String) -> Result(Int, String):
    let n = parse(s)?
    Ok(n * 2)
fn handle(r: Result(Int, String)) -> ():
    match r:
        Ok(n) -> println(n)
        Err(e) -> println(e)
fn main():
    handle(twice("21"))
    let r = parse("x")
    match r:
        Ok(_) -> println("ok")
        Err(e) -> println(e)
    let Ok(v) = parse("5") else: return ()
    println(v)
`,
		"main returns result": `
fn main() -> Result((), String):
    println("hi")
    Ok(())
`,
		"loops and defer": `
fn main():
    defer println("bye")
    for i in 0..3:
        if i == 1: continue
        println(i)
    for (i, s) in List.enumerate(["a", "b"]):
        println("{i}{s}")
`,
		"library": `
pub fn start(port: Pid(String)) -> ():
    let r = send(port, "hello")
    match r:
        Ok(_) -> ()
        Err(_) -> ()
`,
		"eq compare": `
fn main():
    println(eq(left: 1, right: 1))
    println(compare(left: "a", right: "b") == Less)
`,
		"condition match": `
fn sign(n: Int) -> Int:
    match:
        n > 0 -> 1
        n < 0 -> -1
        _ -> 0
fn main():
    println(sign(-4))
`,
	}
	for name, src := range progs {
		t.Run(name, func(t *testing.T) {
			_, _, d := check(t, src)
			if len(d) > 0 {
				t.Fatalf("unexpected diagnostics:\n%s", strings.Join(codes(d), "\n"))
			}
		})
	}
}

func TestLibraryMode(t *testing.T) {
	_, info, d := check(t, "pub fn start(port: Pid(String)) -> ():\n    println(\"x\")\n")
	if len(d) != 0 || !info.Library {
		t.Fatalf("library = %v, diags %v", info.Library, codes(d))
	}
	_, info, _ = check(t, "fn main():\n    println(1)\n")
	if info.Library {
		t.Fatal("a program with main is not a library")
	}
}

func TestMismatchContexts(t *testing.T) {
	expectDiags(t, "fn main():\n    let x: Int = \"s\"\n", "E3001 let annotation: expected Int, found String")
	expectDiags(t, "fn f() -> Int:\n    \"s\"\nfn main():\n    println(f())\n", "E3001 function return: expected Int, found String")
	expectDiags(t, "fn main():\n    println(if true: 1 else: \"a\")\n", "E3001 if branches")
	expectDiags(t, "fn main():\n    println([1, \"a\"])\n", "E3001 list element: expected Int, found String")
}

func TestEveryErrorIsReported(t *testing.T) {
	// Two independent errors, and no follow-on error for the invalid x.
	expectDiags(t, `
fn main():
    let x: Int = "s"
    let y = nope
    println(y + 1)
    println(x)
`, "E3001 expected Int", "E2001 unknown name 'nope'")
}

func TestCalls(t *testing.T) {
	pre := "fn rect(width: Int, height: Int) -> Int: width * height\nfn main():\n    println("
	expectDiags(t, pre+"rect(1, 2))\n", "E3012 argument requires label 'width:'", "E3012 argument requires label 'height:'")
	expectDiags(t, pre+"rect(width: 1, height: 2, 3))\n", "E3006 positional arguments must precede labeled arguments")
	expectDiags(t, pre+"rect(width: 1, depth: 2))\n", "E3007 unknown argument label depth")
	expectDiags(t, pre+"rect(width: 1, width: 2, height: 3))\n", "E3008 duplicate argument label")
	expectDiags(t, pre+"rect(width: 1))\n", "E3010 missing argument")
	expectDiags(t, pre+"Some(1, 2))\n", "E3015 constructor 'Some' expects 1 arguments")
	expectDiags(t, pre+"List.len(xs: [1]))\n", "E3014 this callable uses positional arguments")
	// Distinct generic variables and a pid plus an int need no labels.
	expectDiags(t, "fn pair(a: x, b: y) -> (x, y): (a, b)\nfn main():\n    println(pair(1, 2))\n")
}

func TestCallArgsOrder(t *testing.T) {
	af, info, d := check(t, "fn sub(a: Int, b: Int) -> Int: a - b\nfn main():\n    println(sub(b: 1, a: 5))\n")
	if len(d) > 0 {
		t.Fatal(codes(d))
	}
	var call *ast.Call
	for _, decl := range af.Decls {
		if fd, ok := decl.(*ast.FnDecl); ok && fd.Name == "main" {
			b := fd.Body.(*ast.Block)
			outer := b.Stmts[0].(*ast.ExprStmt).X.(*ast.Call)
			call = outer.Args[0].Value.(*ast.Call)
		}
	}
	got := info.CallArgs[call]
	if len(got) != 2 || got[0] != 1 || got[1] != 0 {
		t.Fatalf("CallArgs = %v, want [1 0]", got)
	}
	if o := info.Uses[call.Fn]; o == nil || o.Kind != types.ObjFunc {
		t.Fatalf("callee resolution = %+v", o)
	}
}

func TestExhaustiveness(t *testing.T) {
	decl := "type Color:\n    Red\n    Green\n    Blue\n"
	expectDiags(t, decl+"fn f(c: Color) -> Int:\n    match c:\n        Red -> 1\nfn main():\n    println(f(Red))\n",
		"E4001 missing: Green, Blue")
	expectDiags(t, "fn f(o: Option(Int)) -> Int:\n    match o:\n        Some(n) if n > 0 -> n\n        Some(_) -> 0\nfn main():\n    println(f(None))\n",
		"E4001 missing: None")
	expectDiags(t, "fn f(xs: List(Int)) -> Int:\n    match xs:\n        [] -> 0\n        [x] -> x\nfn main():\n    println(f([]))\n",
		"E4001 missing: [_, _, .._]")
	expectDiags(t, "fn f(p: (Bool, Bool)) -> Int:\n    match p:\n        (true, _) -> 1\n        (_, true) -> 2\nfn main():\n    println(f((true, true)))\n",
		"E4001 missing: (false, false)")
	expectDiags(t, "fn f(o: Option(Int)) -> Int:\n    match o:\n        Some(n) -> n\n        None -> 0\n        Some(1) -> 1\nfn main():\n    println(f(None))\n",
		"E4002 unreachable match arm")
	// Exhaustive lists via rest patterns; nested options.
	expectDiags(t, "fn f(xs: List(Int)) -> Int:\n    match xs:\n        [] -> 0\n        [x, ..rest] -> x\nfn main():\n    println(f([]))\n")
	expectDiags(t, "fn f(o: Option(Option(Int))) -> Int:\n    match o:\n        Some(Some(n)) -> n\n        Some(None) -> 0\n        None -> 1\nfn main():\n    println(f(None))\n")
}

func TestResultObligations(t *testing.T) {
	expectDiags(t, risky+"fn main():\n    risky()\n    println(1)\n", "E5001 Result value must be handled; bind, return, or match it")
	expectDiags(t, risky+"fn main():\n    let r = risky()\n    println(1)\n", "E5002 this Result binding is never used")
	expectDiags(t, risky+"fn main():\n    let _ = risky()\n", "E5001 Result value must be handled")
	expectDiags(t, risky+"fn use(r: Result(Int, String)) -> Int: 0\nfn main():\n    println(use(risky()))\n", "E5003 Result binding parameter is never used")
	// Passing to a function and returning discharge.
	expectDiags(t, risky+"fn pass() -> Result(Int, String):\n    let r = risky()\n    r\nfn main():\n    println(Result.is_ok(pass()))\n")
}

// TestRules checks short programs against the diagnostics each must get,
// in order (see expectDiags), by the rule they exercise; a program with
// none listed must check cleanly.
func TestRules(t *testing.T) {
	const p = "fn p() -> Result(Int, String): Ok(1)\n"
	for _, tc := range []struct {
		rule, src string
		want      []string
	}{
		{"statements", "fn f() -> Int:\n    return 1\n    2\nfn main():\n    println(f())\n", []string{"E3025 unreachable statement"}},
		{"statements", "fn main():\n    continue\n", []string{"E3026 continue outside of a for loop"}},
		{"statements", "fn main():\n    defer 1\n", []string{"E3023 defer requires Unit cleanup: expected (), found Int"}},
		{"statements", "fn main():\n    let o = Some(1)\n    let Some(x) = o else: println(0)\n    println(x)\n", []string{"E3027 let-else failure branch must diverge with return"}},
		{"statements", "fn main():\n    let (a, a) = (1, 2)\n", []string{"E4003 duplicate pattern binding 'a'"}},
		{"try", p + "fn f() -> Int:\n    p()?\nfn main():\n    println(f())\n", []string{"E3020 ? requires a function returning Result"}},
		{"try", p + "fn f() -> Result(Int, Int):\n    Ok(p()?)\nfn main():\n    println(Result.is_ok(f()))\n", []string{"E3022 ? error type: expected Int, found String"}},
		{"try", "fn f() -> Result(Int, Int):\n    Ok(1?)\nfn main():\n    println(Result.is_ok(f()))\n", []string{"E3021 ? operand must be Result"}},
		{"print", "type S:\n    a: Int\nfn main():\n    println([S(1)])\n", []string{"E3019 type test.S has no implementation of Show; add derive(Show) to its declaration or write an impl"}},
		{"print", "fn main():\n    print(())\n", []string{"E3018 print argument must be"}},
		{rule: "print", src: "fn main():\n    println(show(()))\n"},
		{"print", "fn main():\n    let x = [1]\n    println(\"{x}\")\n", []string{"E3017 string interpolation"}},
		{"operators", "fn main():\n    println(1 + 1.5)\n", []string{"E3016 binary operator does not support these operand types"}},
		{"operators", "fn main():\n    println(\"a\" % \"b\")\n", []string{"E3016 binary operator does not support these operand types"}},
		{"operators", "fn main():\n    let f = (x: Int) -> x\n    println(f == f)\n", []string{"E3016 binary operator does not support these operand types"}},
		{rule: "operators", src: "fn main():\n    println(\"a\" + \"b\")\n    println(2 ** 3)\n    println(3 in [1, 2])\n"},
		{"main", "fn helper() -> Int: 1\n", []string{"E2009 program requires a main function"}},
		{"main", "fn main() -> Bool: true\n", []string{"E3003 main must return Int, Unit, or Result(Unit, concrete error type)"}},
		{rule: "main", src: "fn main() -> Int: 3\n"},
		{"main", "fn main():\n    receive:\n        n -> println(n)\n", []string{"E6001 main cannot receive"}},
	} {
		t.Run(tc.rule, func(t *testing.T) { expectDiags(t, tc.src, tc.want...) })
	}
}

func TestInfoTables(t *testing.T) {
	af, info, d := check(t, "fn main():\n    let x = 40\n    println(x + 2)\n")
	if len(d) > 0 {
		t.Fatal(codes(d))
	}
	var sawLocal, sawBuiltin bool
	for n, o := range info.Uses {
		if id, ok := n.(*ast.Ident); ok && id.Name == "x" && o.Kind == types.ObjLocal {
			sawLocal = true
			if !types.Identical(o.Type, types.IntT) {
				t.Errorf("x has type %s", o.Type)
			}
		}
		if o.Kind == types.ObjBuiltin && o.Builtin == "println" {
			sawBuiltin = true
		}
	}
	if !sawLocal || !sawBuiltin {
		t.Fatalf("uses: local %v builtin %v", sawLocal, sawBuiltin)
	}
	// Every expression of main has a recorded, resolved type.
	for _, decl := range af.Decls {
		fd := decl.(*ast.FnDecl)
		for _, s := range fd.Body.(*ast.Block).Stmts {
			if es, ok := s.(*ast.ExprStmt); ok {
				if ty := info.TypeOf(es.X); ty == nil || ty.String() != "()" {
					t.Errorf("println call type = %v", ty)
				}
			}
		}
	}
}

// TestBuiltinsMatchRegistry: the checker knows exactly the registry's
// builtins (stdlib/builtins), each with the registry's number of
// parameters and generic parameters.
func TestBuiltinsMatchRegistry(t *testing.T) {
	if got, want := strings.Join(types.BuiltinNames(), " "), strings.Join(builtins.Names(), " "); got != want {
		t.Errorf("builtin tables differ:\nchecker:  %v\nregistry: %v", got, want)
	}
	for _, e := range builtins.All() {
		sig := types.LookupBuiltin(e.Name)
		if sig == nil {
			t.Errorf("no signature for %s", e.Name)
			continue
		}
		if len(sig.Params) != e.Arity() {
			t.Errorf("%s: %d parameters, the registry says %d", e.Name, len(sig.Params), e.Arity())
		}
		vars := map[string]bool{}
		var walk func(*builtins.Type)
		walk = func(ty *builtins.Type) {
			if ty.IsVar() {
				vars[ty.Name] = true
			}
			for _, a := range ty.Args {
				walk(a)
			}
			if ty.Ret != nil {
				walk(ty.Ret)
			}
		}
		walk(e.Type())
		if len(sig.Generics) != len(vars) {
			t.Errorf("%s: %d generic parameters, the registry's signature has %d", e.Name, len(sig.Generics), len(vars))
		}
	}
}

// TestRunFixturesCheckClean checks every run fixture of the corpus: valid
// programs must produce no diagnostics.
func TestRunFixturesCheckClean(t *testing.T) {
	var files []string
	// Three conformance/supervisor scenarios also use the registry and
	// typed call of issue 11 (Process.register, whereis, call), built
	// separately; conformance/supervisor_test.go skips them while they do
	// not check (awaitingRegistry), and so does this test.
	pending := map[string]bool{}
	for _, n := range []string{"call_down", "registry", "nested"} {
		pending[filepath.Join("..", "..", "conformance", "supervisor", n+".mr")] = true
	}
	for _, root := range []string{filepath.Join("..", "..", "fixtures"), filepath.Join("..", "..", "examples"), filepath.Join("..", "..", "conformance")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && pending[p] {
				return nil
			}
			if err == nil && d.IsDir() && strings.HasSuffix(p, ".proj") {
				return filepath.SkipDir // a many-file program: lang/modules tests it
			}
			if _, e := os.Stat(filepath.Join(p, "main.mr")); err == nil && d.IsDir() && p != root && e == nil {
				return filepath.SkipDir // a many-file example (examples/geometry)
			}
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".mr") {
				files = append(files, p)
			}
			return nil
		})
	}
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "# ERROR") {
			continue
		}
		f := source.NewFile(filepath.Base(p), src)
		af, pd := parser.Parse(f)
		if pd.HasErrors() {
			continue // the parser's concern
		}
		_, d := types.Check(af)
		for _, x := range d {
			t.Errorf("%s: %v", p, x)
		}
	}
}

func FuzzCheck(f *testing.F) {
	seeds := []string{
		"fn main():\n    println(1)\n",
		"type T:\n    A(Int)\n    B\nfn main():\n    match A(1):\n        A(n) -> println(n)\n        B -> ()\n",
		"fn f(x) -> f(x)\nfn main():\n    println(f(1))\n",
		"type L = List(L)\nfn main() -> Result((), String): Ok(())\n",
		"fn main():\n    let [a, ..b] = [1] else: return ()\n    defer println(a)\n",
		"fn r(n) -> if n > 0: Ok(n) else: Err(\"e\")\nfn h(x, n: Int):\n    if n == 0: println(Result.is_ok(x)) else: h(x, n - 1)\nfn main():\n    let a = r(1)\n    for i in 0..3:\n        if i > 1: break\n    h(a, 2)\n",
		"fn sq(x: a) -> a: x * x\nfn tw(x) -> sq(x) + sq(x)\nfn p(n, x) -> if n == 0: x else: q(n - 1, -x)\nfn q(n, x) -> p(n, x)\nfn main():\n    println(List.map([1.5], tw))\n    println(q(1, 2) == 2)\n",
		"type B:\n    v: Int\nfn f(x, t):\n    let (a, ..r) = t\n    let y = %{x | v: a}\n    for z in x.w: println(z)\n    y.v\nfn main():\n    println(f(B(1), (2, [return 3])))\n",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		sf := source.NewFile("fuzz.mr", []byte(src))
		start := time.Now()
		af, _ := parser.Parse(sf)
		if af == nil {
			return
		}
		// A watchdog turns a hang into a crash the fuzzer records.
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("Check hangs on %q", src)) })
		types.Check(af)
		watchdog.Stop()
		if d := time.Since(start); d > 2*time.Second {
			t.Logf("slow input (%v): %q", d, src)
		}
	})
}

func TestTerminalExitPaths(t *testing.T) {
	expectDiags(t, `
fn handle(r: Result((), Process.Error)) -> ():
    match r:
        Ok(_) -> ()
        Err(_) -> ()
fn stop_here():
    Process.exit(Process.Normal)
fn worker(id: ProcessId):
    let pending = Process.link(id)
    stop_here()
    handle(pending)
fn main():
    println(1)
`, "E5002 Result", "E3025 unreachable statement")
}

func TestNames(t *testing.T) {
	expectDiags(t, "type A:\n    X\ntype B:\n    X\nfn main():\n    println(1)\n", "E2003 duplicate constructor 'X'")
	expectDiags(t, "type A:\n    Some(Int)\nfn main():\n    println(1)\n", "E2005 constructor name 'Some' is reserved")
	expectDiags(t, "type List:\n    X\nfn main():\n    println(1)\n", "E2005 type name 'List' is reserved")
	expectDiags(t, "type A = B\nfn main():\n    println(1)\n", "E2002 unknown type 'B'")
	expectDiags(t, "fn main():\n    let r = Process.ExitReason.Normal\n    let s = Process.Normal\n    println(r == s)\n")
	expectDiags(t, "fn main():\n    println(Process.ExitReason.Nope)\n", "E2007 unknown process operation")
	expectDiags(t, "fn main():\n    println(Shape.Circle)\n", "E2001 unknown name 'Shape.Circle'")
	expectDiags(t, "fn main():\n    let f = (a, a) -> 1\n    println(f(1, 2))\n", "E2004 duplicate parameter 'a'")
}

func TestUnions(t *testing.T) {
	decl := "type V = Int | String\n"
	expectDiags(t, decl+"fn f(v: V) -> Int:\n    match v:\n        n: Int -> n\nfn main():\n    println(f(1))\n", "E4001 missing: _: String")
	expectDiags(t, decl+"fn main():\n    let v: V = 1.5\n", "E3001 let annotation: expected V, found Float")
	expectDiags(t, decl+"fn main():\n    let v: V = 1\n    println(v)\n", "E3018 print argument must be")
}

func TestInference(t *testing.T) {
	// The inferred identity is generic; field access infers its record.
	expectDiags(t, `
type User derive(Show):
    name: String
fn id(x) -> x
fn name_of(u) -> u.name
fn main():
    println(id(1) + 1)
    println(id("a") + "b")
    println(name_of(User("Ada")))
`)
	expectDiags(t, "fn main():\n    let f = (x) -> x + 1\n    println(f(\"a\"))\n", "E3001 argument 1 of function value")
	// Deferred shapes (docs/reference/types.md#inference): a later call fixes the lambda's parameter.
	expectDiags(t, "fn main():\n    let f = (x) -> x.0\n    println(f((1, 2)))\n")
	expectDiags(t, "fn main():\n    let f = (x) -> x.0\n    println(1)\n", "E3041 cannot infer the type of x; add an annotation")
}

func TestWith(t *testing.T) {
	pre := "fn p(s: String) -> Result(Int, String): Ok(1)\nfn q(s: String) -> Result(Int, Int): Ok(1)\n"
	expectDiags(t, pre+"fn f() -> Result(Int, String):\n    with\n        a <- p(\"x\"),\n        b <- p(\"y\")\n    do\n        Ok(a + b)\nfn main():\n    println(Result.is_ok(f()))\n")
	expectDiags(t, pre+"fn f() -> Result(Int, String):\n    with\n        a <- p(\"x\"),\n        b <- q(\"y\")\n    do\n        Ok(a + b)\nfn main():\n    println(Result.is_ok(f()))\n",
		"E3001 with step: expected Result(")
}

func TestSpawnAndSend(t *testing.T) {
	expectDiags(t, "fn w(n: Int):\n    println(n)\nfn main():\n    let p: Pid(Int) = spawn(w)\n", "E3038 spawn requires a zero-argument Unit function")
	expectDiags(t, "fn w():\n    println(1)\nfn main():\n    let p: Pid(Int) = spawn(w)\n    let r = send(p, \"s\")\n    match r:\n        Ok(_) -> ()\n        Err(_) -> ()\n",
		"E3001 argument 2 of send: expected Int, found String")
	expectDiags(t, "fn w():\n    defer send(Process.self(), 1)\n    println(1)\nfn main():\n    println(1)\n",
		"E6004 actor operations are unsupported in deferred cleanup")
	// A defer body without actor operations still gets its type error.
	expectDiags(t, "fn r() -> Result(Int, String): Ok(1)\nfn w():\n    defer r()\n    println(1)\nfn main():\n    println(1)\n",
		"E3023 defer requires Unit cleanup")
	// One restriction error per defer: a second defer is reported on its own.
	expectDiags(t, "fn w():\n    defer Process.trap_exit(true)\n    defer Process.trap_exit(false)\n    println(1)\nfn main():\n    println(1)\n",
		"E6004 process operations are unsupported in deferred cleanup", "E6004 process operations are unsupported in deferred cleanup")
}

// Follow-on errors are suppressed (docs/diagnostics.md).
func TestFollowOnSuppressed(t *testing.T) {
	// `_`-only match on a bound Result: E5005 only, no E5007 at the exit.
	expectDiags(t, risky+"fn main():\n    let r = risky()\n    match r:\n        _ -> println(1)\n",
		"E5005 a match whose only arm is '_' does not inspect it")
	// A binding whose initializer has an error gets no E5002.
	expectDiags(t, risky+"fn main():\n    let r = risky(1)\n    println(1)\n", "E3011 too many arguments")
	// The bad operand of `not` is the error; `==` on its result is not.
	expectDiags(t, "fn main():\n    println(not 1 == 2)\n", "E3001 operand of 'not'")
	// A correct `not` still composes with `==`.
	expectDiags(t, "fn main():\n    println(not true == false)\n")
}

func TestOrderingHasNoShow(t *testing.T) {
	expectDiags(t, "fn main():\n    println(compare(left: 1, right: 2))\n", "E3018 print argument must be")
}

func TestMailboxes(t *testing.T) {
	af, info, d := check(t, "fn worker():\n    let me: Pid(Int) = Process.self()\n    receive:\n        n -> println(n + 1)\nfn main():\n    let p: Pid(Int) = spawn(worker)\n")
	if len(d) > 0 {
		t.Fatal(codes(d))
	}
	for _, decl := range af.Decls {
		fd := decl.(*ast.FnDecl)
		m := info.Mailboxes[fd]
		if fd.Name == "worker" && (m == nil || m.String() != "Int") {
			t.Errorf("worker mailbox = %v, want Int", m)
		}
		if fd.Name == "main" && m != nil {
			t.Errorf("main has a mailbox %v", m)
		}
	}
	// Two receives implying different mailbox types conflict.
	expectDiags(t, "fn worker():\n    receive:\n        1 -> ()\n    receive:\n        \"s\" -> ()\nfn main():\n    println(1)\n",
		"E3001 pattern: expected Int, found String")
}

// TestMailboxInference checks how mailbox types flow through actor calls,
// spawns, callbacks and generic helpers.
func TestMailboxInference(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{name: "actor call mailbox", src: `
fn take_int():
    receive:
        n -> println(n + 1)
fn worker():
    let own: Pid(String) = Process.self()
    take_int()
fn ok_worker():
    take_int()
    receive:
        m -> println(m * 2)
fn main():
    let p: Pid(Int) = spawn(ok_worker)
`, want: []string{"E3001 actor call mailbox: expected String, found Int"}},
		{name: "spawn mailbox", src: `
fn worker():
    receive:
        n -> println(n + 1)
fn main():
    let p: Pid(String) = spawn(worker)
    let q: Pid(Int) = spawn(worker)
    let r = spawn(() ->
        receive:
            "s" -> ()
    )
    let k = send(r, 5)
    match k:
        Ok(_) -> ()
        Err(_) -> ()
`, want: []string{"E3001 let annotation: expected Pid(String), found Pid(Int)", "E3001 argument 2 of send: expected String, found Int"}},
		{name: "callbacks have no actor context", src: "fn worker():\n    let own: Pid(Int) = Process.self()\n    let xs = List.filter([1], (x) -> Process.exit(Process.Normal))\n    println(List.len(xs))\nfn main():\n    let p: Pid(Int) = spawn(worker)\n",
			want: []string{"E6002 process operation requires an actor context"}},
		{name: "generic mailbox helper", src: `
fn drain():
    receive:
        _ -> ()
fn ints():
    drain()
    receive:
        n -> println(n + 1)
fn strings():
    drain()
    receive:
        s -> println(s + "!")
fn main():
    let a: Pid(Int) = spawn(ints)
    let b: Pid(String) = spawn(strings)
`},
		{name: "generic entry spawned twice", src: "fn drain():\n    receive:\n        _ -> ()\nfn main():\n    let a: Pid(Int) = spawn(drain)\n    let b: Pid(String) = spawn(drain)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) { expectDiags(t, tc.src, tc.want...) })
	}
}

func TestNestedResultObligations(t *testing.T) {
	expectDiags(t, risky+"fn main():\n    let rs = [risky(), risky()]\n    println(1)\n", "E5002 this Result binding is never used")
	expectDiags(t, risky+"fn main():\n    (1, risky())\n    println(1)\n", "E5001 Result value must be handled")
	all := "fn all() -> List(Result(Int, String)):\n    let rs = [risky()]\n    rs\n"
	expectDiags(t, risky+all+"fn main():\n    for r in all():\n        println(Result.is_ok(r))\n")
	// List.len reads metadata only: the Results in the fresh list are lost.
	expectDiags(t, risky+all+"fn main():\n    println(List.len(all()))\n", "E5001 Result value must be handled")
}

func TestMetadataDoesNotHandle(t *testing.T) {
	expectDiags(t, risky+"fn main():\n    let rs = [risky()]\n    println(List.len(rs))\n",
		"E5002 Result value must be handled; this Result binding is only read for metadata (List.len), which does not handle the Result")
	expectDiags(t, risky+"fn main():\n    let xs = [1]\n    println(List.len(xs))\n")
	expectDiags(t, risky+"fn count(rs: List(Result(Int, String))) -> Int:\n    List.len(rs)\nfn main():\n    println(count([]))\n",
		"E5003 Result binding parameter is never used except for metadata (List.len), which does not handle the Result")
}

// TestObligationExitPaths: a Result obligation must be met on every exit
// of a function, whichever branch or loop leads there.
func TestObligationExitPaths(t *testing.T) {
	expectDiags(t, riskyHandled+"fn f(x: Int) -> Int:\n    let r = risky()\n    if x > 0: return 0\n    handle(r)\nfn main():\n    println(f(1))\n",
		"E5007 Result obligation remains unhandled on this exit")
	// A defer handler registered before the exit covers it.
	expectDiags(t, riskyHandled+"fn settle(r: Result(Int, String)):\n    println(handle(r))\nfn f(x: Int) -> Int:\n    let r = risky()\n    defer settle(r)\n    if x > 0: return 0\n    1\nfn main():\n    println(f(1))\n")
	// Handling before the exit is fine.
	expectDiags(t, riskyHandled+"fn f(x: Int) -> Int:\n    let r = risky()\n    let n = handle(r)\n    if x > 0: return 0\n    n\nfn main():\n    println(f(1))\n")
	expectDiags(t, riskyHandled+"fn f(x: Int) -> Int:\n    let r = risky()\n    if x > 0:\n        println(handle(r))\n    else:\n        return 0\n    1\nfn main():\n    println(f(1))\n",
		"E5007 Result obligation remains unhandled on this exit")
	expectDiags(t, riskyHandled+"fn f(x: Int) -> Int:\n    let r = risky()\n    if x > 0:\n        return handle(r)\n    handle(r)\nfn main():\n    println(f(1))\n")
	expectDiags(t, riskyHandled+"fn f(xs: List(Int)) -> Int:\n    let r = risky()\n    for x in xs:\n        if x > 0: break\n    handle(r)\nfn main():\n    println(f([1]))\n")
}

func TestUserOrderingShadowsPrelude(t *testing.T) {
	expectDiags(t, "type Cmp derive(Show):\n    Less\n    Equal\n    Greater\nfn main():\n    println(Less)\n")
}

func TestShowNeedsFieldShow(t *testing.T) {
	expectDiags(t, "type Inner:\n    n: Int\ntype Outer derive(Show):\n    inner: Inner\nfn main():\n    println(Outer(Inner(1)))\n", "E3019 type test.Inner has no implementation of Show; add derive(Show)")
	expectDiags(t, "type Tree derive(Show):\n    Leaf\n    Node(Tree, Int, Tree)\nfn main():\n    println(Node(Leaf, 1, Leaf))\n")
}

func TestDuplicateLabels(t *testing.T) {
	expectDiags(t, "fn span(at lo: Int, at hi: Int) -> Int: hi - lo\nfn main():\n    println(span(at: 1, at: 2))\n",
		"E2004 duplicate parameter label 'at'", "E3008 duplicate argument label")
}
