package codegen

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// End-to-end tests: source -> parser -> codegen -> verifier -> engine.
// They bypass the type checker on purpose (codegen must not depend on
// it), so every program here is one the checker accepts.

// compileSource parses and compiles src, failing the test on any error.
func compileSource(t *testing.T, src string) *bytecode.Program {
	t.Helper()
	return compileNamed(t, "e2e.mr", src, false)
}

// compileChecked parses, type-checks and compiles src, as the driver does.
func compileChecked(t *testing.T, src string) *bytecode.Program {
	t.Helper()
	return compileNamed(t, "tail.mr", strings.TrimLeft(src, "\n"), true)
}

// compileNamed parses src as the file name and compiles it, with the
// checker's info when check is set (failing the test on its errors too),
// or bypassing the checker.
func compileNamed(t *testing.T, name, src string, check bool) *bytecode.Program {
	t.Helper()
	f, diags := parser.Parse(source.NewFile(name, []byte(src)))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags.Err())
	}
	var info *types.Info
	if check {
		if info, diags = types.Check(f); diags.HasErrors() {
			t.Fatalf("check: %v", diags.Err())
		}
	}
	return compileFile(t, f, info)
}

// runSource compiles and runs src and returns stdout, stderr and the exit
// status.
func runSource(t *testing.T, src string) (string, string, int) {
	t.Helper()
	p := compileSource(t, src)
	var out, errb bytes.Buffer
	status := engine.Run(context.Background(), p, engine.Options{Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), status
}

type e2eCase struct {
	name   string
	src    string
	out    string
	status int
	stderr string // substring of stderr, if set
}

func runCases(t *testing.T, cases []e2eCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, status := runSource(t, strings.TrimLeft(c.src, "\n"))
			if out != c.out {
				t.Errorf("stdout:\n%s\nwant:\n%s\nstderr: %s", out, c.out, errOut)
			}
			if status != c.status {
				t.Errorf("status %d, want %d (stderr %q)", status, c.status, errOut)
			}
			if c.stderr != "" && !strings.Contains(errOut, c.stderr) {
				t.Errorf("stderr %q does not contain %q", errOut, c.stderr)
			}
		})
	}
}

func TestE2EBasics(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "arith", src: `
fn main():
    let x = 6
    println(x * 7)
    println("sum {x + 1} {x > 2} {1.5}")
    println(7 / 2)
    println(-7 % 3)
`, out: "42\nsum 7 true 1.5\n3\n-1\n"},
		{name: "short-circuit", src: `
fn loud(tag: String, v: Bool) -> Bool:
    println(tag)
    v

fn main():
    println(loud("a", false) and loud("b", true))
    println(loud("c", true) or loud("d", true))
    println(loud("e", true) and loud("f", false))
`, out: "a\nfalse\nc\ntrue\ne\nf\nfalse\n"},
		{name: "operators-and-statements", src: `
fn main():
    println(6 &&& 3)
    println(6 ||| 3)
    println(6 ^^^ 3)
    println(1 <<< 4)
    println(-16 >>> 2)
    println(~~~0)
    println(not true)
    println(-(2 ** 10))
    println(2.5 * 2.0)
    println("a" + "b")
    println("plain {"text"} only")
    println("x") if 1 > 2
    println("y") if 2 > 1
    let nothing = if false: 1
    let flag = match 3:
        3 -> true
        _ -> false
    println(flag)
    if flag:
        return ()
    println("not reached")
`, out: "2\n7\n5\n16\n-4\n-1\nfalse\n-1024\n5\nab\nplain text only\ny\ntrue\n"},
		{name: "int-main", src: `
fn main() -> Int:
    println("x")
    3
`, out: "x\n", status: 3},
		{name: "unit-main-discards", src: `
fn seven() -> Int: 7

fn main():
    seven()
`, out: "", status: 0},
	})
}

func TestE2ECallsAndClosures(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "labels-evaluate-in-written-order", src: `
fn trace(tag: String, v: Int) -> Int:
    println(tag)
    v

fn sub(a: Int, b: Int) -> Int: a - b

fn main():
    println(sub(b: trace("b", 1), a: trace("a", 10)))
`, out: "b\na\n9\n"},
		{name: "pipes", src: `
fn trace(tag: String, v: Int) -> Int:
    println(tag)
    v

fn subtract(from total: Int, amount n: Int) -> Int: total - n

fn inc(x: Int) -> Int: x + 1

fn main():
    println(5 |> inc)
    println(trace("piped", 1) |> subtract(from: trace("arg", 10), amount: _))
    println([3, 1, 2] |> List.sort() |> List.reverse())
`, out: "6\npiped\narg\n9\n[3, 2, 1]\n"},
		{name: "closures-capture-by-value", src: `
fn adder(n: Int) -> (Int) -> Int: (x) -> x + n

fn main():
    let k = 1
    let f = (x: Int) -> x + k
    let k = 100
    println(f(1))
    let add5 = adder(5)
    println(add5(10))
    let nested = () -> () -> k
    println(nested()())
    println(List.map([1, 2, 3], (x) -> x * k))
`, out: "2\n15\n100\n[100, 200, 300]\n"},
		{name: "functions-and-constructors-as-values", src: `
fn square(x: Int) -> Int: x * x

fn main():
    println(List.map([1, 2], square))
    println(List.map([1, 2], Some))
    println(List.map(["a", "bc"], String.len))
`, out: "[1, 4]\n[Some(1), Some(2)]\n[1, 2]\n"},
		{name: "labeled-natives", src: `
fn main():
    println(compare(right: 1, left: 2) == Greater)
    println(compare(left: "a", right: "b") == Less)
    println(eq(right: [1], left: [1]))
`, out: "true\ntrue\ntrue\n"},
		{name: "prelude", src: `
fn main():
    let xs = [5, 3, 8, 1]
    println(List.filter(xs, (x) -> x > 2))
    println(List.fold(xs, 0, (acc, x) -> acc + x))
    println(List.find(xs, (x) -> x > 6))
    println(List.any(xs, (x) -> x == 3))
    println(List.all(xs, (x) -> x > 0))
    println(List.sort_by(xs, (a, b) -> if a < b: Less else: if a == b: Equal else: Greater))
    println(Option.map(Some(2), (x) -> x + 1))
    println(Result.map(Ok(2), (x) -> x * 10))
`, out: "[5, 3, 8]\n17\nSome(8)\ntrue\ntrue\n[1, 3, 5, 8]\nSome(3)\nOk(20)\n"},
	})
}

func TestE2ETailCalls(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "deep-self-and-mutual", src: `
fn sum_to(n: Int, acc: Int) -> Int:
    if n == 0: acc else: sum_to(n: n - 1, acc: acc + n)

fn is_even(n: Int) -> Bool: if n == 0: true else: is_odd(n - 1)

fn is_odd(n: Int) -> Bool: if n == 0: false else: is_even(n - 1)

fn tick(n: Int):
    if n > 0: tick(n - 1)

fn drain(xs: List(Int), n: Int) -> Int:
    match xs:
        [] -> n
        [_, ..rest] -> drain(rest, n + 1)

fn main():
    println(sum_to(n: 1000000, acc: 0))
    println(is_even(1000001))
    tick(1000000)
    println(drain([1, 2, 3], 0))
`, out: "500000500000\nfalse\n3\n"},
	})
}

func TestE2EControl(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "for-break-continue", src: `
fn main():
    for i in 0..10:
        if i == 2: continue
        if i == 5: break
        println(i)
    for (a, b) in [(1, "one"), (2, "two")]:
        println("{a}={b}")
    for x in 1..=3:
        println(x * (if x == 2: continue else: 10))
`, out: "0\n1\n3\n4\n1=one\n2=two\n10\n30\n"},
		{name: "match", src: `
type Shape derive(Show):
    Circle(Int)
    Rect(w: Int, h: Int)

fn area(s: Shape) -> Int:
    match s:
        Circle(r) -> 3 * r * r
        Shape.Rect(w, 0) -> 0
        Rect(w, h) if w > 100 -> -1
        Rect(w, h) -> w * h

fn describe(xs: List(Int)) -> String:
    match xs:
        [] -> "empty"
        [x] -> "one {x}"
        [x, y, ..rest] -> "many {x} {y} {List.len(rest)}"

fn classify(n: Int) -> String:
    match:
        n < 0 -> "neg"
        n == 0 -> "zero"
        _ -> "pos"

fn main():
    println(area(Circle(2)))
    println(area(Rect(3, 0)))
    println(area(Rect(300, 2)))
    println(area(Rect(3, 4)))
    println(Rect(1, 2))
    println(describe([]))
    println(describe([7]))
    println(describe([1, 2, 3, 4]))
    println(classify(-3))
    println(classify(0))
    match (1, "x"):
        (1, "y") -> println("no")
        (1, s) -> println("yes {s}")
        _ -> println("other")
`, out: "12\n0\n-1\n12\nRect(1, 2)\nempty\none 7\nmany 1 2 2\nneg\nzero\nyes x\n"},
		{name: "let-else-and-try", src: `
fn half(n: Int) -> Result(Int, String):
    if n % 2 == 0: Ok(n / 2) else: Err("odd {n}")

fn quarter(n: Int) -> Result(Int, String):
    defer println("quarter {n} done")
    let h = half(n)?
    half(h)

fn first(xs: List(Int)) -> Int:
    let [x, .._] = xs else: return -1
    x

fn main():
    println(quarter(8))
    println(quarter(6))
    println(first([4, 5]))
    println(first([]))
`, out: "quarter 8 done\nOk(2)\nquarter 6 done\nErr(\"odd 3\")\n4\n-1\n"},
		{name: "with", src: `
fn parse(text: String) -> Result(Int, String):
    match Int.parse(text):
        Some(n) -> Ok(n)
        None -> Err("bad")

fn total(a: String, b: String) -> Result(Int, String):
    with
        x <- parse(a),
        y <- parse(b)
    do
        Ok(x + y)
    else
        Err(e) -> Err("input error: {e}")

fn both(a: String, b: String) -> String:
    let r = with
        x <- parse(a),
        y <- parse(b)
    do
        Ok(x * y)
    show(r)

fn main():
    println(total(a: "20", b: "22"))
    println(total(a: "x", b: "22"))
    println(both(a: "6", b: "7"))
    println(both(a: "6", b: "q"))
`, out: "Ok(42)\nErr(\"input error: bad\")\nOk(42)\nErr(\"bad\")\n"},
	})
}

func TestE2EDefer(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "lifo-capture-loop", src: `
fn work():
    let x = 1
    defer println("deferred x = {x}")
    let x = 2
    for i in 0..2:
        defer println("loop {i}")
    println("body x = {x}")

fn main():
    defer println("main cleanup")
    work()
    println("after")
`, out: "body x = 2\nloop 1\nloop 0\ndeferred x = 1\nafter\nmain cleanup\n"},
		{name: "defer-on-fault", src: `
fn boom(n: Int) -> Int:
    defer println("cleanup")
    10 / n

fn main():
    println(boom(0))
`, out: "cleanup\n", status: 1, stderr: "integer division by zero"},
	})
}

func TestE2EDataTypes(t *testing.T) {
	runCases(t, []e2eCase{
		{name: "records-newtypes-update", src: `
type User derive(Show):
    name: String
    age: Int

newtype UserId derive(Show, Eq) = UserId(Int)

fn unwrap(UserId(v): UserId) -> Int: v

fn main():
    let u = User("Ada", 36)
    println(u)
    println(u.name)
    let older = %{ u | age: u.age + 1 }
    println(older.age)
    println(u.age)
    let id = UserId(7)
    println(id)
    println(id.0 + unwrap(id))
    println(id == UserId(7))
    let t = (1, ("a", 2.5))
    println(t.1.0)
    println(3 in [1, 2, 3])
    println([10, 20, 30][1])
`, out: "User(name: \"Ada\", age: 36)\nAda\n37\n36\nUserId(7)\n14\ntrue\na\ntrue\n20\n"},
		{name: "union-narrowing", src: `
type V = Int | String

fn show_v(v: V) -> String:
    match v:
        n: Int -> "int {n}"
        s: String -> "str {s}"

fn main():
    println(show_v(3))
    println(show_v("x"))
`, out: "int 3\nstr x\n"},
		{name: "union-of-nominal-types", src: `
type Cat derive(Show):
    Cat(String)

newtype Dog derive(Show) = Dog(String)

type Pet = Cat | Dog | Bool

fn name(p: Pet) -> String:
    match p:
        c: Cat -> "cat {show(c)}"
        d: Dog -> "dog {show(d)}"
        b: Bool -> "bool {b}"

fn main():
    println(name(Cat("Tom")))
    println(name(Dog("Rex")))
    println(name(true))
`, out: "cat Cat(\"Tom\")\ndog Dog(\"Rex\")\nbool true\n"},
		{name: "index-fault", src: `
fn main():
    let xs = [1, 2]
    println(xs[5])
`, out: "", status: 1, stderr: "list index out of bounds"},
	})
}

// TestDisassemblyShape checks the shape of generated code through the
// disassembler: a self tail call is a backward jump to the start, a
// passed-along parameter is not reloaded, and dead jumps after a return
// are not emitted.
func TestDisassemblyShape(t *testing.T) {
	p := compileSource(t, `
fn count(n: Int, acc: List(Int)) -> Int:
    if n == 0: List.len(acc) else: count(n - 1, acc)

fn pick(c: Bool, x: Int) -> Int:
    let y = if c: return 1 else: x
    y + 1

fn main():
    println(count(3, []))
    println(pick(c: false, x: 3))
`)
	var b bytes.Buffer
	if err := bytecode.Disassemble(&b, p, nil); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	i, f := fnNamed(t, p, "count")
	if count(f, bytecode.CALL, i) != 0 || count(f, bytecode.JUMP, 0) != 1 {
		t.Errorf("count does not loop:\n%s", text)
	}
	// acc is passed along unchanged: only n is stored.
	if count(f, bytecode.STORE, 1) != 0 || count(f, bytecode.STORE, 0) != 1 {
		t.Errorf("count stores unchanged parameters:\n%s", text)
	}
	_, pk := fnNamed(t, p, "pick")
	for pc := 1; pc < len(pk.Code); pc++ {
		if pk.Code[pc-1].Op == bytecode.RETURN && pk.Code[pc].Op == bytecode.JUMP {
			t.Errorf("dead jump after RETURN at pc %d:\n%s", pc, text)
		}
	}
	if !strings.Contains(text, "count") || !strings.Contains(text, "pick") || !strings.Contains(text, "JUMP") {
		t.Errorf("disassembly lacks function names or jumps:\n%s", text)
	}
}

// TestE2EElseLessIfKeepsUnit runs a program through the type checker: the
// then-branch of an else-less if ends in an Int call in tail position, and
// the if's value must still be ().
func TestE2EElseLessIfKeepsUnit(t *testing.T) {
	src := `
fn compute() -> Int: 5

fn maybe(c: Bool):
    if c: compute()

fn tick(n: Int):
    if n > 0: tick(n - 1)

fn main():
    let r = maybe(c: true)
    println(show(r))
    println(show((maybe(c: false), 1)))
    tick(100000)
`
	p := compileChecked(t, src)
	_, m := fnNamed(t, p, "maybe")
	if count(m, bytecode.TAIL_CALL, -1) != 0 {
		t.Errorf("an Int call in an else-less if must not be a tail call:\n%s", listing(p))
	}
	ti, tk := fnNamed(t, p, "tick")
	if count(tk, bytecode.CALL, ti) != 0 {
		t.Errorf("a Unit self call in an else-less if must loop:\n%s", listing(p))
	}
	var out, errb bytes.Buffer
	status := engine.Run(context.Background(), p, engine.Options{Stdout: &out, Stderr: &errb})
	if out.String() != "()\n((), 1)\n" || status != 0 {
		t.Errorf("got %q status %d stderr %q", out.String(), status, errb.String())
	}
}

// TestCompileNeverPanics compiles every fixture that parses, including
// programs the checker rejects: codegen may refuse them with an error, but
// must never hit a Go panic (which Compile turns into an "internal error").
func TestCompileNeverPanics(t *testing.T) {
	var files []string
	err := filepath.WalkDir(filepath.Join("..", "..", "fixtures"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".mr") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures found")
	}
	compiled := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := parser.Parse(source.NewFile(name, src))
		if diags.HasErrors() {
			continue
		}
		p, err := Compile(f, nil)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		compiled++
		if err := checkProgram(p); err != nil {
			if _, diags := types.Check(f); !diags.HasErrors() {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	if compiled == 0 {
		t.Errorf("no fixture compiled")
	}
}
