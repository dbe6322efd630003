package codegen

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// TestTailCallShapes checks the emitted opcodes for every shape of tail
// position of docs/reference/syntax.md#calls: in function f, each call of f itself must
// become the self-tail-call loop (a JUMP to pc 0), each call of g a
// TAIL_CALL, each call of a function value a TAIL_CALL_VALUE, and no call
// of f or g may stay a plain CALL.
func TestTailCallShapes(t *testing.T) {
	const g = `
fn g(n: Int):
    if n > 0: f(n - 1)
`
	cases := []struct {
		name      string
		src       string
		loops     int // JUMP 0 in f (self tail calls)
		tailCalls int // TAIL_CALL g in f
		tailValue int // TAIL_CALL_VALUE in f
	}{
		{name: "else-less if around a match", src: `
fn f(n: Int):
    if n > 0:
        match n % 3:
            0 -> f(n - 1)
            1 -> g(n - 1)
            _ -> f(n - 2)
`, loops: 2, tailCalls: 1},
		{name: "else-less if nested in else-less if", src: `
fn f(n: Int):
    if n > 0:
        if n % 2 == 0:
            g(n - 1)
`, tailCalls: 1},
		{name: "if/else inside an else-less if", src: `
fn f(n: Int):
    if n > 0:
        if n % 2 == 0: g(n - 1) else: f(n - 1)
`, loops: 1, tailCalls: 1},
		{name: "lets then a call in an else-less if", src: `
fn f(n: Int):
    let m = n - 1
    if n > 0:
        let k = m
        let (a, _) = (k, 0)
        g(a)
`, tailCalls: 1},
		{name: "match arm block ending in an else-less if around a match", src: `
fn f(n: Int):
    match n % 5:
        0 ->
            let done = n == 0
            if not done:
                match n % 2:
                    0 -> f(n - 1)
                    _ -> g(n - 1)
        _ -> g(n - 1)
`, loops: 1, tailCalls: 2},
		{name: "with chain in an else-less if", src: `
fn step(n: Int) -> Result(Int, String):
    if n % 7 == 0: Err("seven") else: Ok(n - 1)

fn f(n: Int):
    if n > 0:
        with
            m <- step(n)
        do
            g(m)
        else
            Err(_) -> f(n - 1)
`, loops: 1, tailCalls: 1},
		{name: "postfix if as the last statement", src: `
fn f(n: Int):
    println("zero") if n == 0
    g(n - 1) if n > 0
`, tailCalls: 1},
		{name: "parenthesised call", src: `
fn f(n: Int):
    if n > 0:
        (g(n - 1))
`, tailCalls: 1},
		{name: "function value", src: `
fn f(n: Int):
    let k: (Int) -> () = g
    if n > 0:
        match n % 2:
            0 -> k(n - 1)
            _ -> g(n - 1)
`, tailCalls: 1, tailValue: 1},
		{name: "return inside an else-less if", src: `
fn f(n: Int):
    if n > 0:
        match n % 2:
            0 -> return g(n - 1)
            _ -> ()
        f(n - 1)
`, loops: 1, tailCalls: 1},
		{name: "receive arm around an else-less if and a match", src: `
fn f(n: Int):
    receive:
        m ->
            if m > 0:
                match m % 2:
                    0 -> f(m)
                    _ -> g(m)
`, loops: 1, tailCalls: 1},
		{name: "receive inside an else-less if, with after arm", src: `
fn f(n: Int):
    if n > 0:
        let x = n
        receive:
            m -> g(m + x)
            _ after 0 -> f(n - 1)
`, loops: 1, tailCalls: 1},
		{name: "function declared Unit", src: `
fn f(n: Int) -> ():
    match n:
        0 -> ()
        _ -> g(n - 1)
`, tailCalls: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileChecked(t, c.src+g+"\nfn main():\n    let p: Pid(Int) = spawn(() -> f(3))\n")
			fi, f := fnNamed(t, p, "f")
			gi, _ := fnNamed(t, p, "g")
			if n := count(f, bytecode.CALL, fi) + count(f, bytecode.CALL, gi) + count(f, bytecode.CALL_VALUE, -1); n != 0 {
				t.Errorf("%d plain calls of f, g or a value:\n%s", n, listing(p))
			}
			if n := count(f, bytecode.JUMP, 0); n != c.loops {
				t.Errorf("%d self-tail-call loops, want %d:\n%s", n, c.loops, listing(p))
			}
			if n := count(f, bytecode.TAIL_CALL, gi); n != c.tailCalls {
				t.Errorf("%d TAIL_CALL g, want %d:\n%s", n, c.tailCalls, listing(p))
			}
			if n := count(f, bytecode.TAIL_CALL_VALUE, -1); n != c.tailValue {
				t.Errorf("%d TAIL_CALL_VALUE, want %d:\n%s", n, c.tailValue, listing(p))
			}
		})
	}
}

// TestTailCallShapesKeepValues checks the calls that must not become tail
// calls in unit position: a call of non-Unit type there has its value
// replaced by (), and a function with defer keeps plain calls in every
// shape.
func TestTailCallShapesKeepValues(t *testing.T) {
	p := compileChecked(t, `
fn compute(n: Int) -> Int: n

fn f(n: Int):
    if n > 0:
        match n % 2:
            0 -> compute(n)
            _ -> compute(n + 1)

fn declared(n: Int) -> ():
    compute(n)

fn deferred(n: Int):
    defer println("bye")
    if n > 0:
        match n % 2:
            0 -> deferred(n - 1)
            _ -> deferred(n - 2)

fn main():
    f(3)
    declared(1)
    deferred(3)
`)
	ci, _ := fnNamed(t, p, "compute")
	for _, name := range []string{"f", "declared"} {
		_, f := fnNamed(t, p, name)
		if count(f, bytecode.TAIL_CALL, -1) != 0 || count(f, bytecode.CALL, ci) == 0 {
			t.Errorf("%s: an Int call in unit position must stay a plain call:\n%s", name, listing(p))
		}
		// every RETURN returns (): the instruction before it is UNIT
		for pc, in := range f.Code {
			if in.Op == bytecode.RETURN && (pc == 0 || f.Code[pc-1].Op != bytecode.UNIT) {
				t.Errorf("%s: RETURN at pc %d does not return ():\n%s", name, pc, listing(p))
			}
		}
	}
	di, d := fnNamed(t, p, "deferred")
	if count(d, bytecode.CALL, di) != 2 || count(d, bytecode.TAIL_CALL, -1) != 0 || count(d, bytecode.JUMP, 0) != 0 {
		t.Errorf("a function with defer must keep plain calls:\n%s", listing(p))
	}
}
