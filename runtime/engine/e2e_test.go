package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// e2eCase is a Morrow program with its expected behaviour.
type e2eCase struct {
	name   string
	src    string
	stdout string
	status int
	stderr []string // substrings expected on stderr (none: stderr empty)
}

var e2eCases = []e2eCase{
	{name: "hello", src: `
fn main():
    println("hello, world")
`, stdout: "hello, world\n"},
	{name: "int_semantics", src: `
fn main():
    let big = 9223372036854775807
    println(big + 1)
    println(-9223372036854775808 - 1)
    println(-7 / 2)
    println(7 / -2)
    println(-7 % 2)
    println(7 % -2)
    println(-9223372036854775808 / -1)
    println(2 ** 10)
    println(1 <<< 65)
    println(-16 >>> 2)
    println(12 &&& 10)
    println(12 ||| 10)
    println(12 ^^^ 10)
    println(~~~0)
`, stdout: "-9223372036854775808\n9223372036854775807\n-3\n-3\n-1\n1\n-9223372036854775808\n1024\n2\n-4\n8\n14\n6\n-1\n"},
	{name: "floats", src: `
fn main():
    println(0.1 + 0.2)
    println(2.0)
    println(3.14)
    println(1.5e3)
    println(7.0 / 2.0)
`, stdout: "0.30000000000000004\n2\n3.1400000000000001\n1500\n3.5\n"},
	{name: "structural_equality", src: `
type Shape derive(Show, Eq):
    Circle(Int)
    Rect(Int, Int)

fn main():
    println((1, "a") == (1, "a"))
    println([1, 2] == [1, 2])
    println([1, 2] != [2, 1])
    println(Rect(1, 2) == Rect(1, 2))
    println(Circle(1) == Rect(1, 1))
    println(Some(3) == Some(3))
    println("ab" == "ab")
    println(3 in [1, 2, 3])
`, stdout: "true\ntrue\ntrue\ntrue\nfalse\ntrue\ntrue\ntrue\n"},
	{name: "closures", src: `
fn adder(n: Int) -> (Int) -> Int:
    (x) -> x + n

fn apply(f: (Int) -> Int, x: Int) -> Int:
    f(x)

fn main():
    let add5 = adder(5)
    println(add5(37))
    println(apply(add5, 1))
    let k = 10
    println(List.map([1, 2, 3], (x) -> x * k))
    println(List.filter([1, 2, 3, 4], (x) -> x % 2 == 0))
    println(List.fold([1, 2, 3], 0, (acc, x) -> acc + x))
`, stdout: "42\n6\n[10, 20, 30]\n[2, 4]\n6\n"},
	{name: "deep_tail_recursion", src: `
fn count(n: Int, acc: Int) -> Int:
    if n == 0:
        acc
    else:
        count(n: n - 1, acc: acc + 1)

fn main():
    println(count(n: 1000000, acc: 0))
`, stdout: "1000000\n"},
	{name: "mutual_tail_recursion", src: `
fn even(n: Int) -> Bool:
    if n == 0: true else: odd(n - 1)

fn odd(n: Int) -> Bool:
    if n == 0: false else: even(n - 1)

fn main():
    println(even(1000001))
`, stdout: "false\n"},
	{name: "defers_lifo", src: `
fn work() -> Int:
    defer println("first registered")
    defer println("second registered")
    println("body")
    42

fn main():
    println(work())
`, stdout: "body\nsecond registered\nfirst registered\n42\n"},
	{name: "defer_on_fault", src: `
fn divide(a: Int, b: Int) -> Int:
    defer println("cleanup divide")
    a / b

fn main():
    defer println("cleanup main")
    println("start")
    println(divide(a: 1, b: 0))
`, stdout: "start\ncleanup divide\ncleanup main\n", status: 1,
		stderr: []string{"morrow: runtime error: integer division by zero\n", "  at e2e.mr:4\n", "in divide", "in main"}},
	{name: "defer_captures_value", src: `
fn main():
    let x = 1
    defer println("x was {x}")
    let x = 2
    println("x is {x}")
`, stdout: "x is 2\nx was 1\n"},
	{name: "loops", src: `
fn main():
    for i in 0..3:
        println(i)
    for i in 1..=2:
        println(i * 10)
    for s in ["a", "b"]:
        println(s)
    for (i, s) in List.enumerate(["x", "y"]):
        println("{i}:{s}")
`, stdout: "0\n1\n2\n10\n20\na\nb\n0:x\n1:y\n"},
	{name: "match_and_records", src: `
type User derive(Show):
    name: String
    age: Int

type Shape derive(Show):
    Circle(Int)
    Rect(Int, Int)
    Dot

fn area(s: Shape) -> Int:
    match s:
        Circle(r) -> 3 * r * r
        Rect(w, h) -> w * h
        Dot -> 0

fn describe(xs: List(Int)) -> String:
    match xs:
        [] -> "empty"
        [x] -> "one {x}"
        [x, ..rest] -> "first {x}, {List.len(rest)} more"

fn main():
    let u = User("Ada", 36)
    println(u)
    println(u.name)
    println(area(Rect(2, 3)) + area(Circle(1)) + area(Dot))
    println(describe([]))
    println(describe([7]))
    println(describe([1, 2, 3]))
    println(show("q"))
    println([Some(1), None])
    println((1, "one"))
`, stdout: "User(name: \"Ada\", age: 36)\nAda\n9\nempty\none 7\nfirst 1, 2 more\n\"q\"\n[Some(1), None]\n(1, \"one\")\n"},
	{name: "main_returns_int", src: `
fn main() -> Int:
    println("exiting")
    3
`, stdout: "exiting\n", status: 3},
	{name: "main_returns_err", src: `
fn step(n: Int) -> Result(Int, String):
    if n < 10: Ok(n * 4) else: Err("too big")

fn main() -> Result((), String):
    defer println("cleanup")
    let a = step(2)?
    println("a = {a}")
    let b = step(a * 2)?
    println("never {b}")
    Ok(())
`, stdout: "a = 8\ncleanup\n", status: 1, stderr: []string{"morrow: main returned Err(\"too big\")\n"}},
	{name: "main_returns_ok", src: `
fn main() -> Result((), String):
    println("fine")
    Ok(())
`, stdout: "fine\n"},
	{name: "index_fault", src: `
fn main():
    let xs = [1, 2, 3]
    println(xs[1])
    println(xs[5])
`, stdout: "2\n", status: 1, stderr: []string{"list index out of bounds", "at e2e.mr:5"}},
	{name: "head_fault_in_helper", src: `
fn first(xs: List(Int)) -> Int:
    List.head(xs)

fn main():
    println(first([]))
`, status: 1, stderr: []string{"morrow: runtime error: head of empty list\n", "at e2e.mr:3", "in first (e2e.mr:3)", "in main (e2e.mr:6)"}},
	{name: "negative_exponent", src: `
fn main():
    let e = 0 - 1
    println(2 ** e)
`, status: 1, stderr: []string{"negative integer exponent"}},
	{name: "sort_by_and_strings", src: `
fn main():
    let xs = List.sort_by([3, 1, 2], (a, b) -> if a < b: Less else: if a == b: Equal else: Greater)
    println(xs)
    println(String.join(["a", "b", "c"], "-"))
    println(String.len("Morrow 🌿"))
    println("{1 + 1} is two")
`, stdout: "[1, 2, 3]\na-b-c\n11\n2 is two\n"},
	{name: "defers_in_loop_belong_to_function", src: `
fn work():
    for i in 0..3:
        defer println("cleanup {i}")
        println("iteration {i}")
    println("end of body")

fn main():
    work()
    println("after")
`, stdout: "iteration 0\niteration 1\niteration 2\nend of body\ncleanup 2\ncleanup 1\ncleanup 0\nafter\n"},
	{name: "cleanup_fault_keeps_running_cleanup", src: `
fn risky(d: Int) -> Int:
    defer println("outer cleanup")
    defer println(10 / d)
    defer println("inner cleanup")
    5

fn main():
    defer println("main cleanup")
    println(risky(0))
`, stdout: "inner cleanup\nouter cleanup\nmain cleanup\n", status: 1,
		stderr: []string{"integer division by zero", "at e2e.mr:4"}},
	{name: "deep_non_tail_recursion", src: `
fn sum_to(n: Int) -> Int:
    if n == 0:
        0
    else:
        n + sum_to(n - 1)

fn main():
    println(sum_to(100000))
`, stdout: "5000050000\n"},
	{name: "nested_closures", src: `
fn compose(f: (Int) -> Int, g: (Int) -> Int) -> (Int) -> Int:
    (x) -> g(f(x))

fn main():
    let inc = (x) -> x + 1
    let dbl = (x) -> x * 2
    let h = compose(f: inc, g: dbl)
    println(h(5))
    let hs = List.map([1, 2, 3], (n) -> compose(f: inc, g: (x) -> x * n))
    println(List.map(hs, (f) -> f(10)))
`, stdout: "12\n[11, 22, 33]\n"},
	{name: "fault_in_callback_backtrace", src: `
fn main():
    let xs = [1, 0]
    println(List.map(xs, (x) -> 10 / x))
`, status: 1, stderr: []string{"integer division by zero", "  at e2e.mr:4\n", "in main.lambda@4", "(<prelude>:", "in main (e2e.mr:4)"}},
	{name: "library_mode_port", src: `
fn worker(port: Pid(String), n: Int):
    match send(port, "worker {n}"):
        Ok(()) -> ()
        Err(code) -> println("send failed {code}")

pub fn start(port: Pid(String)) -> ():
    match send(port, "started"):
        Ok(()) -> ()
        Err(code) -> println("send failed {code}")
    let w: Pid(()) = spawn(() -> worker(port, 1))
`, stdout: "started\nworker 1\n"},
	{name: "library_mode_port_is_not_a_target", src: `
fn report(port: Pid(String), what: String, r: Result((), Process.Error)):
    let line = match r:
        Ok(()) -> "{what}: Ok"
        Err(e) -> "{what}: Err({show(e)})"
    match send(port, line):
        Ok(()) -> ()
        Err(code) -> println("send failed {code}")

fn worker(port: Pid(String)):
    let own: Pid(()) = Process.self()
    let id = Process.id(port)
    let m = match Process.monitor(id):
        Ok(_) -> Ok(())
        Err(e) -> Err(e)
    report(port, "monitor", m)
    report(port, "link", Process.link(id))
    report(port, "signal_exit", Process.signal_exit(id, Process.Shutdown))

pub fn start(port: Pid(String)) -> ():
    let w: Result(Pid(()), Process.Error) = Process.spawn(() -> worker(port))
    match w:
        Ok(_) -> ()
        Err(e) -> println("spawn failed {show(e)}")
`, stdout: "monitor: Err(UnsupportedTarget)\nlink: Err(UnsupportedTarget)\nsignal_exit: Err(UnsupportedTarget)\n"},
	{name: "actor_receive_tail_loop", src: `
type Msg:
    Add(Int)
    Total(Pid(Int))

fn counter(sum: Int):
    receive:
        Add(n) -> counter(sum + n)
        Total(to) ->
            match send(to, sum):
                Ok(()) -> ()
                Err(_) -> ()

fn asker(c: Pid(Msg)):
    let own: Pid(Int) = Process.self()
    for i in 1..=100000:
        match send(c, Add(i)):
            Ok(()) -> ()
            Err(code) -> println("full {code}")
    match send(c, Total(own)):
        Ok(()) -> ()
        Err(_) -> ()
    receive:
        n -> println("total {n}")
        _ after 10000 -> println("timeout")

fn main():
    let c: Pid(Msg) = spawn(() -> counter(0))
    let a: Pid(Int) = spawn(() -> asker(c))
`, stdout: "total 5000050000\n"},
	{name: "main_status_after_actors", src: `
fn late():
    let own: Pid(()) = Process.self()
    receive:
        () -> ()
        _ after 20 -> println("actor finished")

fn main() -> Int:
    let p: Pid(()) = spawn(late)
    println("main returns")
    7
`, stdout: "main returns\nactor finished\n", status: 7},
}

func check(t *testing.T, c e2eCase, code int, stdout, stderr string) {
	t.Helper()
	if code != c.status {
		t.Errorf("exit status %d, want %d (stderr %q)", code, c.status, stderr)
	}
	if stdout != c.stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout, c.stdout)
	}
	if len(c.stderr) == 0 && stderr != "" {
		t.Errorf("unexpected stderr %q", stderr)
	}
	for _, s := range c.stderr {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr %q lacks %q", stderr, s)
		}
	}
}

// TestEndToEnd compiles each program from source and runs it, then runs
// it again after an .mrb round trip (encode, decode, verify).
func TestEndToEnd(t *testing.T) {
	for _, c := range e2eCases {
		t.Run(c.name, func(t *testing.T) {
			p := testrun.Compile(t, "e2e.mr", c.src)
			code, stdout, stderr := testrun.Run(context.Background(), p, engine.Options{})
			check(t, c, code, stdout, stderr)

			q, err := bytecode.Decode(bytecode.Encode(p))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if err := bytecode.Verify(q); err != nil {
				t.Fatalf("verify after round trip: %v", err)
			}
			code, stdout, stderr = testrun.Run(context.Background(), q, engine.Options{})
			check(t, c, code, stdout, stderr)
		})
	}
}

// TestWriteSeeds regenerates the FuzzDecode seed corpus of
// runtime/bytecode from the programs above when MORROW_WRITE_SEEDS=1.
func TestWriteSeeds(t *testing.T) {
	if os.Getenv("MORROW_WRITE_SEEDS") != "1" {
		t.Skip("set MORROW_WRITE_SEEDS=1 to regenerate runtime/bytecode/testdata/seeds")
	}
	dir := filepath.Join("..", "bytecode", "testdata", "seeds")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range e2eCases {
		p := testrun.Compile(t, "e2e.mr", c.src)
		if err := os.WriteFile(filepath.Join(dir, c.name+".mrb"), bytecode.Encode(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
