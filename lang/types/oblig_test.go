package types_test

import (
	"fmt"
	"strings"
	"testing"
)

const riskySrc = `
fn risky(n: Int) -> Result(Int, String):
    if n > 0: Ok(n) else: Err("no")
fn handle(r: Result(Int, String)):
    match r:
        Ok(_) -> ()
        Err(_) -> ()
`

// mayExitSrc is a helper that may end the process: a call of it is an
// exit of its caller.
const mayExitSrc = `
fn check(n: Int):
    let own: Pid(Int) = Process.self()
    if n > 3: Process.exit(Process.Normal)
`

func TestObligationPaths(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"handled on both branches", `
fn run(n: Int):
    let r = risky(n)
    if n > 1: handle(r) else: println(Result.is_ok(r))
`, nil},
		{"handled on one branch", `
fn run(n: Int):
    let r = risky(n)
    if n > 1: handle(r)
`, []string{"E5007 Result obligation remains unhandled on this exit"}},
		{"loop body may not run", `
fn run(n: Int):
    let r = risky(n)
    for i in 0..n:
        handle(r)
`, []string{"E5007 Result obligation remains unhandled"}},
		{"break leaves a path", `
fn run(n: Int):
    for i in 0..n:
        let r = risky(i)
        if i > 2: break
        handle(r)
`, []string{"E5007 Result obligation remains unhandled"}},
		{"return before handling", `
fn run(n: Int) -> Int:
    let r = risky(n)
    if n > 1: return 0
    handle(r)
    1
`, []string{"E5007 Result obligation remains unhandled"}},
		{"recursive helper summary", `
fn pass(n: Int, r: Result(Int, String)):
    if n == 0: handle(r) else: pass(n - 1, r)
fn run(n: Int):
    pass(n, risky(n))
`, nil},
		{"recursive helper that drops on one path", `
fn pass(n: Int, r: Result(Int, String)):
    if n == 0: println("dropped") else: pass(n - 1, r)
fn run(n: Int):
    let r = risky(n)
    pass(n, r)
`, []string{"E5007 Result obligation", "E5007 Result obligation"}},
		{"mutual recursion group summary", `
fn even_h(n: Int, r: Result(Int, String)):
    if n == 0: handle(r) else: odd_h(n - 1, r)
fn odd_h(n: Int, r: Result(Int, String)):
    if n == 0: println(Result.is_err(r)) else: even_h(n - 1, r)
fn run(n: Int):
    even_h(n, risky(n))
`, nil},
		{"generic parameter that drops", `
fn drop(x: a):
    println("x")
fn run(n: Int):
    drop(risky(n))
`, []string{"E5001 Result value must be handled"}},
		{"capture while pending", `
fn run(n: Int):
    let r = risky(n)
    let f = () -> handle(r)
    f()
`, []string{"E5004 capturing Result-bearing values in closures is currently unsupported; handle the Result before capturing"}},
		{"capture after handling", `
fn run(n: Int):
    let r = risky(n)
    handle(r)
    let f = () -> println(Result.is_ok(r))
    f()
`, nil},
		{"equality inspects the tag", `
fn run(n: Int):
    let r = risky(n)
    if r == Ok(1): println("one")
`, nil},
		{"let-else discharges, else path exits before binding", `
fn run(n: Int) -> Int:
    let r = risky(n)
    let Ok(v) = r else: return 0
    v
`, nil},
		{"lambda body has its own exits", `
fn run(n: Int):
    let f = (x) ->
        let r = risky(x)
        if x > 1: println("early")
        x
    println(f(n))
`, []string{"E5002 Result value must be handled; this Result binding is never used"}},
		{"may-exit helper is an exit", mayExitSrc + `fn run(n: Int):
    let own: Pid(Int) = Process.self()
    let r = risky(n)
    check(n)
    handle(r)
`, []string{"E5007 Result obligation remains unhandled on this exit"}},
		{"defer handler covers the exit", mayExitSrc + `fn run(n: Int):
    let own: Pid(Int) = Process.self()
    let r = risky(n)
    defer handle(r)
    check(n)
`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := riskySrc + tc.body + "fn main():\n    println(1)\n"
			expectDiags(t, src, tc.want...)
		})
	}
}

// TestObligationBudget checks that a function beyond the work budget is
// reported, and that it gets no credit: its callers are not told that it
// discharges its parameters.
func TestObligationBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString(riskySrc)
	b.WriteString("fn big(r: Result(Int, String)):\n")
	var names []string
	for i := 0; i < 60; i++ {
		names = append(names, fmt.Sprintf("a%d", i))
	}
	b.WriteString("    let (" + strings.Join(names, ", ") + ") = (")
	for i := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "risky(%d)", i)
	}
	b.WriteString(")\n")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, "    println(%d + %d + %d + %d + %d + %d + %d + %d + %d + %d)\n", i, i, i, i, i, i, i, i, i, i)
	}
	for _, n := range names {
		b.WriteString("    handle(" + n + ")\n")
	}
	b.WriteString("    handle(r)\n")
	b.WriteString("fn main():\n    let r = risky(1)\n    big(r)\n")
	_, _, d := check(t, b.String())
	var got []string
	for _, x := range d {
		got = append(got, string(x.Code)+" "+x.Message)
	}
	if len(d) != 2 || d[0].Code != "E5008" || !strings.Contains(d[0].Message, "Result obligation analysis") || d[1].Code != "E5007" {
		t.Fatalf("want E5008 in big and E5007 in main (no credit), got:\n%s", strings.Join(got, "\n"))
	}
}

func TestActorContextRules(t *testing.T) {
	// A helper whose mailbox stays generic serves actors of different M.
	expectDiags(t, `
fn trap():
    println(Process.trap_exit(true))
fn a():
    let own: Pid(Int) = Process.self()
    trap()
fn b():
    let own: Pid(String) = Process.self()
    trap()
fn main():
    let x: Pid(Int) = spawn(a)
    let y: Pid(String) = spawn(b)
`)
	expectDiags(t, `
fn child():
    println("c")
fn main():
    match Process.spawn_link(child):
        Ok(_) -> ()
        Err(_) -> ()
`, "E6002 process operation requires an actor context", "E6006 cannot infer actor mailbox")
	expectDiags(t, `
pub fn start(port: Pid(String)) -> ():
    receive:
        s -> println(s)
`, "E6001 receive requires an actor context")
}
