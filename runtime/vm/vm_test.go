package vm

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
	"github.com/morrow-lang/morrow/stdlib"
)

// testHost runs a State outside any process runtime, collecting output.
type testHost struct {
	Detached
	out bytes.Buffer
}

func (h *testHost) Stdout() io.Writer { return &h.out }

// load verifies p and loads it with the standard natives.
func load(p *bytecode.Program) (*Image, error) {
	v, err := bytecode.Check(p)
	if err != nil {
		return nil, err
	}
	return Load(v, stdlib.Natives())
}

// mustLoad is load for a program that must load: it fails tb otherwise.
func mustLoad(tb testing.TB, p *bytecode.Program) *Image {
	tb.Helper()
	img, err := load(p)
	if err != nil {
		tb.Fatal(err)
	}
	return img
}

// mustState loads p and makes a state at its entry, failing tb on any
// error.
func mustState(tb testing.TB, p *bytecode.Program) *State {
	tb.Helper()
	st, err := NewState(mustLoad(tb, p), p.Entry, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// run assembles src, runs its entry to completion in slices of budget
// steps and returns the final outcome and stdout. It runs the program
// twice, with the fast loop and with the general path alone (the State's
// generalOnly switch), and fails unless both give the same outcome,
// output and step count: the fast loop must be invisible.
func run(t *testing.T, src string, budget int) (Outcome, string) {
	t.Helper()
	p, err := vmtest.Assemble(src)
	if err != nil {
		t.Fatalf("assemble: %v", err)
	}
	img, err := load(p)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	o, out, steps := runImage(t, img, p.Entry, budget, false)
	og, outg, stepsg := runImage(t, img, p.Entry, budget, true)
	if describe(o) != describe(og) || out != outg || steps != stepsg {
		t.Fatalf("fast loop and general path differ:\n fast: %s, %d steps, output %q\n general: %s, %d steps, output %q",
			describe(o), steps, out, describe(og), stepsg, outg)
	}
	return o, out
}

// runImage runs function fn of img to completion in slices of budget
// steps, with or without the fast loop.
func runImage(t *testing.T, img *Image, fn, budget int, generalOnly bool) (Outcome, string, int64) {
	t.Helper()
	st, err := NewState(img, fn, nil)
	if err != nil {
		t.Fatalf("state: %v", err)
	}
	st.generalOnly = generalOnly
	h := &testHost{}
	for i := 0; ; i++ {
		o := Run(st, h, budget)
		if o.Status != StatusYield {
			return o, h.out.String(), st.Steps()
		}
		if i > 10_000_000 {
			t.Fatalf("program does not finish")
		}
	}
}

// describe renders an outcome for comparisons.
func describe(o Outcome) string {
	s := o.Status.String() + " " + o.Value.String()
	if o.Fault != nil {
		s += " " + o.Fault.Report()
	}
	return s
}

func wantInt(t *testing.T, o Outcome, n int64) {
	t.Helper()
	if o.Status != StatusDone {
		if o.Fault != nil {
			t.Fatalf("status %s: %s", o.Status, o.Fault.Report())
		}
		t.Fatalf("status %s, want done", o.Status)
	}
	if o.Value.Kind() != value.KInt || o.Value.AsInt() != n {
		t.Fatalf("result %v, want Int %d", o.Value, n)
	}
}

const sumLoop = `
func main locals=2
    @1
    INT 0
    STORE 0      # sum
    INT 1
    STORE 1      # i
loop:
    @2
    LOAD 1
    INT 1000
    GT
    JUMP_IF_TRUE end
    LOAD 0
    LOAD 1
    ADD
    STORE 0
    LOAD 1
    INT 1
    ADD
    STORE 1
    JUMP loop
end:
    @3
    LOAD 0
    RETURN
`

func TestSumLoop(t *testing.T) {
	o, _ := run(t, sumLoop, 1<<30)
	wantInt(t, o, 500500)
}

func TestYieldAndResume(t *testing.T) {
	p := vmtest.MustAssemble(sumLoop)
	st := mustState(t, p)
	h := &testHost{}
	yields, total := 0, 0
	for {
		o := Run(st, h, 7)
		total += o.Steps
		if o.Steps > 7 {
			t.Fatalf("slice ran %d steps, budget 7", o.Steps)
		}
		if o.Status == StatusYield {
			yields++
			continue
		}
		wantInt(t, o, 500500)
		break
	}
	// The loop's one charged instruction is its backward jump: 1,000
	// steps in slices of 7.
	if yields != 1000/7 || st.Steps() != 1000 {
		t.Fatalf("%d yields, %d steps; want %d yields, 1000 steps", yields, st.Steps(), 1000/7)
	}
	if int64(total) != st.Steps() {
		t.Fatalf("steps: sum of slices %d, state %d", total, st.Steps())
	}
	// A finished state keeps its outcome.
	o := Run(st, h, 10)
	if o.Status != StatusDone || o.Steps != 0 {
		t.Fatalf("rerun: %+v", o)
	}
}

func TestRecursiveFib(t *testing.T) {
	src := vmtest.Fib(20)
	o, _ := run(t, src, 1000)
	wantInt(t, o, 6765)
}

func TestFaultBacktrace(t *testing.T) {
	src := `
source prog.mr
func main
    @7
    INT 10
    INT 0
    CALL div 2
    RETURN
func div params=2
    @3
    LOAD 0
    LOAD 1
    DIV
    RETURN
`
	o, _ := run(t, src, 100)
	if o.Status != StatusFault {
		t.Fatalf("status %s", o.Status)
	}
	f := o.Fault
	if f.Code != 1 || f.Msg != "integer division by zero" {
		t.Fatalf("fault %d %q", f.Code, f.Msg)
	}
	if f.File != "prog.mr" || f.Line != 3 {
		t.Fatalf("location %s", f.Location())
	}
	if len(f.Trace) != 2 || f.Trace[0].Func != "div" || f.Trace[1].Func != "main" || f.Trace[1].Line != 7 {
		t.Fatalf("trace %+v", f.Trace)
	}
	want := "morrow: runtime error: integer division by zero\n  at prog.mr:3\n  in div (prog.mr:3)\n  in main (prog.mr:7)\n"
	if got := f.Report(); got != want {
		t.Fatalf("report:\n%s\nwant:\n%s", got, want)
	}
}

// deferProg: main calls work, which registers two defers printing "first"
// and "second" and then either returns 42 or divides by zero.
func deferProg(body string) string {
	return `
func main
    @1
    CALL work 0
    RETURN
func work locals=0 flags=hasdefer
    @2
    CONST "first"
    CLOSURE say 1
    DEFER
    CONST "second"
    CLOSURE say 1
    DEFER
    @3
` + body + `
func say captures=1 flags=defer
    FREE 0
    CALL_NATIVE println 1
    RETURN
func boom flags=defer
    @9
    INT 1
    INT 0
    MOD
    RETURN
`
}

func TestDefersRunLIFOOnReturn(t *testing.T) {
	o, out := run(t, deferProg("    INT 42\n    RETURN"), 3)
	wantInt(t, o, 42)
	if out != "second\nfirst\n" {
		t.Fatalf("output %q", out)
	}
}

func TestDefersRunOnFault(t *testing.T) {
	o, out := run(t, deferProg("    INT 1\n    INT 0\n    DIV\n    RETURN"), 5)
	if o.Status != StatusFault || o.Fault.Code != 1 {
		t.Fatalf("outcome %+v", o)
	}
	if out != "second\nfirst\n" {
		t.Fatalf("output %q", out)
	}
	if o.Fault.Line != 3 || o.Fault.Trace[0].Func != "work" {
		t.Fatalf("fault location %s trace %+v", o.Fault.Location(), o.Fault.Trace)
	}
}

func TestCleanupFaultAfterReturnStillRunsOthers(t *testing.T) {
	// The last-registered defer (boom) faults while returning normally:
	// that fault wins, and the earlier defers still run.
	body := "    FUNC boom\n    DEFER\n    INT 42\n    RETURN"
	o, out := run(t, deferProg(body), 4)
	if o.Status != StatusFault || o.Fault.Code != 1 || o.Fault.Line != 9 {
		t.Fatalf("outcome %+v", o)
	}
	if out != "second\nfirst\n" {
		t.Fatalf("output %q", out)
	}
}

func TestFirstFaultWins(t *testing.T) {
	// The body faults with index out of bounds (3); the cleanup then
	// faults with division by zero (1). The body's fault is reported.
	body := "    FUNC boom\n    DEFER\n    LIST 0\n    INT 5\n    INDEX\n    RETURN"
	o, out := run(t, deferProg(body), 1000)
	if o.Status != StatusFault || o.Fault.Code != 3 || o.Fault.Msg != "list index out of bounds" {
		t.Fatalf("outcome %+v", o.Fault)
	}
	if out != "second\nfirst\n" {
		t.Fatalf("output %q", out)
	}
}

// cmpCase is a comparison of x with 2 by op and the result wanted.
type cmpCase struct {
	op   string
	x    int
	want int64
}

// countFn is count(n, acc): acc plus n, counted by n tail calls.
const countFn = `func count params=2
    LOAD 0
    INT 0
    LE
    JUMP_IF_FALSE more
    LOAD 1
    RETURN
more:
    LOAD 0
    INT 1
    SUB
    LOAD 1
    INT 1
    ADD
    TAIL_CALL count 2
`

func TestTailCallsDoNotGrowTheStack(t *testing.T) {
	src := `
func main
    INT 1000000
    INT 0
    TAIL_CALL count 2
` + countFn
	p := vmtest.MustAssemble(src)
	st := mustState(t, p)
	st.SetMaxDepth(2)
	o := Run(st, &testHost{}, 1<<30)
	wantInt(t, o, 1000000)
}

func TestCallDepthLimitIsFault9(t *testing.T) {
	src := `
func main
    @3
    CALL loop 0
    RETURN
func loop
    @7
    CALL loop 0
    RETURN
`
	p := vmtest.MustAssemble(src)
	img, _ := load(p)
	st, _ := NewState(img, p.Entry, nil)
	st.SetMaxDepth(1000)
	o := Run(st, &testHost{}, 1<<30)
	if o.Status != StatusFault || o.Fault.Code != 9 || o.Fault.Msg != "actor resource limit exceeded" {
		t.Fatalf("outcome %+v", o)
	}
	f := o.Fault
	if len(f.Trace) != fault.TraceInner+fault.TraceOuter || f.Elided != 1000-fault.TraceInner-fault.TraceOuter {
		t.Fatalf("trace of %d frames, %d elided", len(f.Trace), f.Elided)
	}
	if f.Trace[0].Func != "loop" || f.Trace[len(f.Trace)-1].Func != "main" || f.Line != 7 {
		t.Fatalf("trace %+v at line %d", f.Trace, f.Line)
	}
	want := "morrow: runtime error: actor resource limit exceeded\n  at test.mr:7\n" +
		"  in loop (test.mr:7) [32 times]\n  ... 960 more frames\n  in loop (test.mr:7) [7 times]\n  in main (test.mr:3)\n"
	if r := f.Report(); r != want {
		t.Fatalf("report:\n%s", r)
	}
}

func TestClosuresAndFunctionValues(t *testing.T) {
	// adder(n) returns a closure capturing n; main applies it and also
	// calls the native List.len through a function value and a tail call
	// through a value.
	src := `
func main locals=1
    INT 5
    CALL adder 1
    STORE 0
    LOAD 0
    INT 37
    CALL_VALUE 1        # 42
    NATIVE List.len
    INT 1
    INT 2
    LIST 2
    CALL_VALUE 1        # 2
    ADD                 # 44
    FUNC twice
    SWAP
    TAIL_CALL_VALUE 1   # 88
func adder params=1
    LOAD 0
    CLOSURE add 1
    RETURN
func add params=1 captures=1 flags=lambda
    LOAD 0
    FREE 0
    ADD
    RETURN
func twice params=1
    LOAD 0
    INT 2
    MUL
    RETURN
`
	o, _ := run(t, src, 1<<20)
	wantInt(t, o, 88)
}

// eval runs a single expression program: the instructions leave one value.
func eval(t *testing.T, code string) Outcome {
	t.Helper()
	o, _ := run(t, "func main locals=4\n"+code+"\n    RETURN\n", 1<<20)
	return o
}

func TestIntSemantics(t *testing.T) {
	cases := []struct {
		code string
		want int64
	}{
		{"CONST 9223372036854775807\n INT 1\n ADD", math.MinInt64},
		{"CONST -9223372036854775808\n INT 1\n SUB", math.MaxInt64},
		{"CONST 4611686018427387904\n INT 4\n MUL", 0},
		{"INT -7\n INT 2\n DIV", -3},
		{"INT 7\n INT -2\n DIV", -3},
		{"INT -7\n INT 2\n MOD", -1},
		{"INT 7\n INT -2\n MOD", 1},
		{"CONST -9223372036854775808\n INT -1\n DIV", math.MinInt64},
		{"CONST -9223372036854775808\n INT -1\n MOD", 0},
		{"INT 2\n INT 10\n POW", 1024},
		{"INT 3\n INT 0\n POW", 1},
		{"INT 2\n INT 64\n POW", 0},
		{"INT 1\n INT 65\n SHL", 2},
		{"INT -16\n INT 2\n SHR", -4},
		{"INT 1\n INT -1\n SHL", math.MinInt64},
		{"INT 12\n INT 10\n BITAND", 8},
		{"INT 12\n INT 10\n BITOR", 14},
		{"INT 12\n INT 10\n BITXOR", 6},
		{"INT 0\n BITNOT", -1},
		{"CONST -9223372036854775808\n NEG", math.MinInt64},
	}
	for _, c := range cases {
		o := eval(t, c.code)
		if o.Status != StatusDone || o.Value.Kind() != value.KInt || o.Value.AsInt() != c.want {
			t.Errorf("%q: got %+v, want %d", c.code, o.Value, c.want)
		}
	}
}

func TestArithmeticFaults(t *testing.T) {
	cases := []struct {
		code string
		want fault.Code
		msg  string
	}{
		{"INT 1\n INT 0\n DIV", 1, "integer division by zero"},
		{"INT 1\n INT 0\n MOD", 1, "integer division by zero"},
		{"INT 2\n INT -1\n POW", 2, "negative integer exponent"},
		{"INT 1\n LIST 1\n INT 1\n INDEX", 3, "list index out of bounds"},
		{"INT 1\n LIST 1\n INT -1\n INDEX", 3, "list index out of bounds"},
		{"LIST 0\n CALL_NATIVE List.head 1", 4, "head of empty list"},
	}
	for _, c := range cases {
		o := eval(t, c.code)
		if o.Status != StatusFault || o.Fault.Code != c.want || o.Fault.Msg != c.msg {
			t.Errorf("%q: got %+v, want fault %d", c.code, o.Fault, c.want)
		}
	}
}

func TestFloatSemantics(t *testing.T) {
	o := eval(t, "CONST 0.1\n CONST 0.2\n ADD")
	a, b := 0.1, 0.2
	if o.Value.Kind() != value.KFloat || o.Value.AsFloat() != a+b || a+b == 0.3 {
		t.Fatalf("0.1+0.2 = %v", o.Value)
	}
	o = eval(t, "CONST 1.0\n CONST 0.0\n DIV")
	if !math.IsInf(o.Value.AsFloat(), 1) {
		t.Fatalf("1/0 = %v", o.Value.AsFloat())
	}
	o = eval(t, "CONST 0.0\n CONST 0.0\n DIV\n DUP\n EQ")
	if o.Value.Kind() != value.KBool || o.Value.AsBool() {
		t.Fatalf("NaN == NaN must be false")
	}
	o = eval(t, "CONST 2.0\n CONST 0.5\n POW")
	if o.Value.AsFloat() != math.Sqrt2 {
		t.Fatalf("2**0.5 = %v", o.Value.AsFloat())
	}
	o = eval(t, `CONST "ab"
 CONST "abc"
 LT`)
	if !o.Value.AsBool() {
		t.Fatalf(`"ab" < "abc" must be true`)
	}
}

func TestStructuralEquality(t *testing.T) {
	yes := []string{
		"INT 1\n CONST \"a\"\n TUPLE 2\n INT 1\n CONST \"a\"\n TUPLE 2\n EQ",
		"INT 1\n INT 2\n LIST 2\n INT 1\n INT 2\n LIST 2\n EQ",
		"INT 3\n DATA Option 1\n INT 3\n DATA Option 1\n EQ",
		"DATA Option 0\n DATA Option 0\n EQ",
		"INT 1\n LIST 1\n LIST 0\n NE",
		"INT 2\n INT 1\n INT 2\n INT 3\n LIST 3\n IN",
		"INT 3\n INT 1\n INT 3\n RANGE 1\n IN",
		"CONST \"x\"\n EQ_CONST \"x\"",
	}
	for _, c := range yes {
		o := eval(t, c)
		if o.Status != StatusDone || o.Value.Kind() != value.KBool || !o.Value.AsBool() {
			t.Errorf("%q: got %+v %v", c, o.Value, o.Fault)
		}
	}
	no := []string{
		"INT 1\n INT 2\n LIST 2\n INT 2\n INT 1\n LIST 2\n EQ",
		"INT 3\n DATA Option 1\n DATA Option 0\n EQ",
		"INT 3\n INT 1\n INT 3\n RANGE 0\n IN",
	}
	for _, c := range no {
		o := eval(t, c)
		if o.Status != StatusDone || o.Value.Kind() != value.KBool || o.Value.AsBool() {
			t.Errorf("%q: got %+v %v", c, o.Value, o.Fault)
		}
	}
}

func TestIterationAndData(t *testing.T) {
	// Sum a list and an inclusive range with for loops, build a record,
	// read and update a field, print an interpolated string.
	src := `
type Point record show eq Point(x,y)
func main locals=4
    INT 0
    STORE 0
    INT 1
    INT 2
    INT 3
    LIST 3
    ITER
    STORE 1
l1:
    ITER_NEXT 1 e1
    LOAD 0
    ADD
    STORE 0
    JUMP l1
e1:
    INT 1
    INT 4
    RANGE 1
    ITER
    STORE 1
l2:
    ITER_NEXT 1 e2
    LOAD 0
    ADD
    STORE 0
    JUMP l2
e2:
    INT 5
    INT 5
    RANGE 0
    ITER
    STORE 1
l3:
    ITER_NEXT 1 e3
    STORE 0          # never runs: the range is empty
    JUMP l3
e3:
    INT 1
    INT 2
    DATA Point 0
    STORE 2
    LOAD 2
    LOAD 0
    UPDATE "x"
    STORE 3
    CONST "sum="
    LOAD 0
    CONST " p="
    LOAD 3
    CONST " y="
    LOAD 3
    FIELD "y"
    INTERP 6
    CALL_NATIVE println 1
    POP
    LOAD 3
    ELEM 0
    RETURN
`
	o, out := run(t, src, 1<<20)
	wantInt(t, o, 16)
	if out != "sum=16 p=Point(x: 16, y: 2) y=2\n" {
		t.Fatalf("output %q", out)
	}
}

func TestListPatternOps(t *testing.T) {
	o := eval(t, `INT 1
 INT 2
 INT 3
 LIST 3
 STORE 0
 LOAD 0
 LIST_LEN
 LOAD 0
 LIST_ELEM 2
 ADD
 LOAD 0
 LIST_SLICE 1
 LIST_ELEM 0
 ADD
 INT 7
 DATA Option 1
 TEST_TAG 1
 JUMP_IF_FALSE bad
 INT 100
 ADD
 INT 5
 TEST_KIND 1
 JUMP_IF_FALSE bad
 INT 1000
 ADD
 RETURN
bad:
 INT -1`)
	wantInt(t, o, 3+3+2+100+1000)
}

func TestLoadRefusesUnknownNative(t *testing.T) {
	p := vmtest.MustAssemble("func main\n INT 1\n CALL_NATIVE No.such 1\n RETURN\n")
	if _, err := load(p); err == nil || !strings.Contains(err.Error(), "No.such") {
		t.Fatalf("err = %v", err)
	}
	p = vmtest.MustAssemble("func main\n INT 1\n INT 2\n CALL_NATIVE List.len 2\n RETURN\n")
	if _, err := load(p); err == nil || !strings.Contains(err.Error(), "List.len") {
		t.Fatalf("err = %v", err)
	}
}

func TestWrongKindsAreInternalFaults(t *testing.T) {
	for _, code := range []string{
		"INT 1\n CONST \"a\"\n ADD",
		"TRUE\n NEG",
		"INT 1\n CALL_VALUE 0",
		"INT 1\n ELEM 3",
		"INT 1\n FIELD \"x\"",
		"INT 1\n ITER\n STORE 3\n UNIT",
		"UNIT\n INT 1\n INDEX",
	} {
		o := eval(t, code)
		if o.Status != StatusFault || !o.Fault.Internal || !strings.HasPrefix(o.Fault.Msg, "internal error") {
			t.Errorf("%q: outcome %+v", code, o)
		}
	}
}

func TestGoPanicBecomesInternalFault(t *testing.T) {
	// Build an image by hand, bypassing the verifier, with an
	// out-of-range captured value (the function captures nothing): the
	// interpreter panics and must recover. (Not an out-of-range local:
	// the fast loop indexes the stack without bounds checks, relying on
	// the verifier, unless built with -tags vmcheck; see unchecked.go.)
	p := vmtest.MustAssemble("func main flags=hasdefer\n FUNC c\n DEFER\n LOAD 0\n RETURN\nfunc c\n CONST \"cleanup\"\n CALL_NATIVE println 1\n RETURN\n")
	p.Functions[0].Code[2] = bytecode.Instr{Op: bytecode.FREE, A: 3}
	img := &Image{Prog: p}
	if _, err := load(p); err == nil {
		t.Fatalf("verifier accepted an out-of-range captured value")
	}
	good, _ := load(vmtest.MustAssemble("func main\n UNIT\n RETURN\nfunc c\n CONST \"cleanup\"\n CALL_NATIVE println 1\n RETURN\n"))
	img.natives, img.funcVals, img.nativeVals, img.nullary = good.natives, good.funcVals, good.nativeVals, good.nullary
	p.Natives = good.Prog.Natives
	img.fns = functions(p)
	st, err := NewState(img, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := &testHost{}
	o := Run(st, h, 1000)
	if o.Status != StatusFault || !o.Fault.Internal {
		t.Fatalf("outcome %+v", o)
	}
	if h.out.String() != "cleanup\n" {
		t.Fatalf("cleanup did not run after the panic: %q", h.out.String())
	}
}

func TestAbortRunsCleanup(t *testing.T) {
	src := `
func main flags=hasdefer
    FUNC c
    DEFER
loop:
    JUMP loop
func c
    CONST "bye"
    CALL_NATIVE println 1
    RETURN
`
	p := vmtest.MustAssemble(src)
	img, _ := load(p)
	st, _ := NewState(img, p.Entry, nil)
	h := &testHost{}
	if o := Run(st, h, 1000); o.Status != StatusYield {
		t.Fatalf("status %s", o.Status)
	}
	st.Abort(&fault.Fault{Msg: "interrupted", Aborted: true})
	o := Run(st, h, 1000)
	if o.Status != StatusFault || !o.Fault.Aborted || h.out.String() != "bye\n" {
		t.Fatalf("outcome %+v, output %q", o, h.out.String())
	}
}

func TestActorOpcodesFaultForNow(t *testing.T) {
	o := eval(t, "SELF")
	if o.Status != StatusFault || !o.Fault.Internal {
		t.Fatalf("outcome %+v", o)
	}
}

func TestFailOpcode(t *testing.T) {
	o := eval(t, `FAIL "no match arm matched"`)
	if o.Status != StatusFault || o.Fault.Msg != "internal error: no match arm matched [at FAIL 0 in main, pc 0]" {
		t.Fatalf("outcome %+v", o.Fault)
	}
}

// TestFrameSlotReuse calls functions at the same depth from different
// stack heights, so a reused frame slot must not keep its old base.
func TestFrameSlotReuse(t *testing.T) {
	src := `
func main locals=2
    INT 1
    CALL id 1       # 1, callee base 2
    INT 10
    INT 20
    INT 30
    CALL pick 2     # 1 10 30, callee base 4
    ADD             # 1 40
    ADD             # 41
    INT 100
    FUNC id
    SWAP
    CALL_VALUE 1    # 41 100
    ADD
    RETURN
func id params=1
    LOAD 0
    RETURN
func pick params=2 locals=3
    INT 7
    STORE 2
    LOAD 1
    RETURN
`
	o, _ := run(t, src, 1000)
	wantInt(t, o, 141)
}

// TestFusionKeepsStepCountsExact runs programs whose hot paths fuse with
// budgets that leave room for fused steps and budgets that never do: the
// results and the total step counts must agree.
func TestFusionKeepsStepCountsExact(t *testing.T) {
	for _, src := range []string{sumLoop, fibProgram(15)} {
		p := vmtest.MustAssemble(src)
		img := mustLoad(t, p)
		fused := 0
		for _, f := range img.fns {
			for _, in := range f.code {
				if in.op >= fusedBase {
					fused++
				}
			}
		}
		if fused == 0 {
			t.Fatalf("nothing fused")
		}
		var want Outcome
		var wantSteps int64
		for i, budget := range []int{1, 2, 3, 5, 1 << 30} {
			st, _ := NewState(img, p.Entry, nil)
			var o Outcome
			for {
				o = Run(st, &testHost{}, budget)
				if o.Status != StatusYield {
					break
				}
				if o.Steps != budget {
					t.Fatalf("budget %d: a yielding slice ran %d steps", budget, o.Steps)
				}
			}
			if i == 0 {
				want, wantSteps = o, st.Steps()
				continue
			}
			if o.Value != want.Value || st.Steps() != wantSteps {
				t.Fatalf("budget %d: %v in %d steps, budget 1: %v in %d steps", budget, o.Value, st.Steps(), want.Value, wantSteps)
			}
		}
	}
}

func fibProgram(n int) string {
	return strings.Replace(fibSrc, "INT 25", "INT "+strconv.Itoa(n), 1)
}

func TestFusionEdges(t *testing.T) {
	// A jump into the middle of a fused LOAD; INT; ADD sequence.
	o := eval(t, `INT 1
 STORE 0
 INT 100
 JUMP mid
 LOAD 0
mid:
 INT 5
 ADD`)
	wantInt(t, o, 105)
	// Fused sequences over non-Int values fall back to the plain
	// instructions: Strings compare equal, Floats compare and branch.
	o = eval(t, `CONST "a"
 STORE 0
 LOAD 0
 INT 1
 EQ`)
	if o.Status != StatusDone || o.Value != value.Bool(false) {
		t.Fatalf("String == Int: %+v", o)
	}
	o = eval(t, `CONST 1.5
 CONST 2.5
 LT
 JUMP_IF_FALSE no
 INT 1
 RETURN
no:
 INT 0`)
	wantInt(t, o, 1)
	// Every fused comparison, taken and not taken.
	for _, c := range []cmpCase{{"LT", 1, 1}, {"LT", 2, 0}, {"LE", 2, 1}, {"LE", 3, 0}, {"GT", 3, 1}, {"GT", 2, 0},
		{"GE", 2, 1}, {"GE", 1, 0}, {"EQ", 2, 1}, {"EQ", 1, 0}, {"NE", 1, 1}, {"NE", 2, 0}} {
		code := "INT " + strconv.Itoa(c.x) + "\n STORE 0\n LOAD 0\n INT 2\n " + c.op + "\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0"
		if o := eval(t, code); o.Value.AsInt() != c.want {
			t.Errorf("%d %s 2 (load/int/cmp/jump): got %d", c.x, c.op, o.Value.AsInt())
		}
		code = "INT " + strconv.Itoa(c.x) + "\n INT 2\n " + c.op + "\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0"
		if o := eval(t, code); o.Value.AsInt() != c.want {
			t.Errorf("%d %s 2 (cmp/jump): got %d", c.x, c.op, o.Value.AsInt())
		}
		code = "INT " + strconv.Itoa(c.x) + "\n STORE 0\n LOAD 0\n INT 2\n " + c.op
		if o := eval(t, code); o.Value != value.Bool(c.want == 1) {
			t.Errorf("%d %s 2 (load/int/cmp): got %v", c.x, c.op, o.Value)
		}
	}
	for _, c := range []cmpCase{{"LT", 1, 1}, {"LT", 2, 0}, {"LE", 2, 1}, {"LE", 3, 0}, {"GT", 3, 1}, {"GT", 2, 0},
		{"GE", 2, 1}, {"GE", 1, 0}, {"EQ", 2, 1}, {"EQ", 1, 0}, {"NE", 1, 1}, {"NE", 2, 0}} {
		pre := "INT " + strconv.Itoa(c.x) + "\n STORE 0\n INT 2\n STORE 1\n LOAD 0\n LOAD 1\n " + c.op
		if o := eval(t, pre+"\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0"); o.Value.AsInt() != c.want {
			t.Errorf("%d %s 2 (load/load/cmp/jump): got %d", c.x, c.op, o.Value.AsInt())
		}
		if o := eval(t, pre); o.Value != value.Bool(c.want == 1) {
			t.Errorf("%d %s 2 (load/load/cmp): got %v", c.x, c.op, o.Value)
		}
	}
	// The plain comparisons (not fused: their operands are not loads)
	// run out of line (compareTop) and test their outcome set; every
	// operation against every outcome, and the extremes of Int.
	ops := map[string]func(x, y int64) bool{
		"LT": func(x, y int64) bool { return x < y }, "LE": func(x, y int64) bool { return x <= y },
		"GT": func(x, y int64) bool { return x > y }, "GE": func(x, y int64) bool { return x >= y },
		"EQ": func(x, y int64) bool { return x == y }, "NE": func(x, y int64) bool { return x != y }}
	ints := []int64{math.MinInt64, -1, 0, 1, 2, math.MaxInt64}
	for name, op := range ops {
		for _, x := range ints {
			for _, y := range ints {
				code := "CONST " + strconv.FormatInt(x, 10) + "\n CONST " + strconv.FormatInt(y, 10) + "\n " + name
				if o := eval(t, code); o.Value != value.Bool(op(x, y)) {
					t.Errorf("%d %s %d (plain): got %v", x, name, y, o.Value)
				}
			}
		}
	}
	o = eval(t, "INT 40\n STORE 0\n INT 2\n STORE 1\n LOAD 0\n LOAD 1\n SUB")
	wantInt(t, o, 38)
	o = eval(t, "CONST \"ab\"\n STORE 0\n CONST \"cd\"\n STORE 1\n LOAD 0\n LOAD 1\n ADD")
	if o.Status != StatusDone || o.Value.AsString() != "abcd" {
		t.Fatalf("String + String through a fused sequence: %+v", o)
	}
	o = eval(t, `INT 1
 STORE 0
 INT 2
 STORE 1
 INT 100
 JUMP mid
 LOAD 0
mid:
 LOAD 1
 ADD`)
	wantInt(t, o, 102)
	o = eval(t, "CONST 9223372036854775807\n STORE 0\n LOAD 0\n INT 1\n ADD")
	wantInt(t, o, math.MinInt64)
	o = eval(t, "INT 5\n STORE 0\n LOAD 0\n INT 7\n SUB")
	wantInt(t, o, -2)
}

func TestHugeFramesHitTheStackLimit(t *testing.T) {
	// Each frame of big has 65,536 locals: recursion runs out of value
	// stack long before the depth limit.
	src := `
func main
    CALL big 0
    RETURN
func big locals=65536
    CALL big 0
    RETURN
`
	p := vmtest.MustAssemble(src)
	st := mustState(t, p)
	st.SetMaxStackSlots(1 << 18)
	o := Run(st, &testHost{}, 1<<20)
	if o.Status != StatusFault || o.Fault.Code != fault.Resource || o.Steps > 10 {
		t.Fatalf("outcome %+v", o)
	}
}

// TestSuperinstructions: each fused sequence is fused where it occurs
// and computes what the plain instructions compute, on its fast path
// (Int operands, a spare frame) and on its fallback (other kinds); run
// also compares every program with the general path alone.
func TestSuperinstructions(t *testing.T) {
	const helpers = `
func id params=1
    LOAD 0
    RETURN
func dec params=1
    LOAD 0
    INT 1
    SUB
    RETURN
` + countFn + `func down params=1
    LOAD 0
    INT 0
    EQ
    JUMP_IF_FALSE more
    INT 7
    RETURN
more:
    LOAD 0
    INT 1
    SUB
    TAIL_CALL down 1
func fwd params=1
    LOAD 0
    TAIL_CALL id 1
func yes params=1
    LOAD 0
    INT 0
    EQ
    JUMP_IF_FALSE one
    FALSE
    RETURN
one:
    TRUE
    RETURN
func unit
    UNIT
    RETURN
type Pair sum P(_,_) One(_)
`
	cases := []struct {
		name  string
		body  string
		fused bytecode.Opcode
		want  string
	}{
		{"loadIntCall", "INT 5\n STORE 0\n LOAD 0\n INT 2\n SUB\n CALL id 1", loadIntCall + 1, "3"},
		{"loadIntCall add", "INT 5\n STORE 0\n LOAD 0\n INT 2\n ADD\n CALL id 1", loadIntCall, "7"},
		{"loadIntCall float", "CONST 5.5\n STORE 0\n LOAD 0\n CONST 2.5\n SUB\n CALL id 1", 0, "3"},
		{"loadIntCall string", "CONST \"a\"\n STORE 0\n LOAD 0\n CONST \"b\"\n ADD\n CALL id 1", 0, `"ab"`},
		{"loadIntTailCall", "INT 1000\n CALL down 1", loadIntTailCall + 1, "7"},
		{"loadCall", "INT 9\n STORE 0\n LOAD 0\n CALL dec 1", loadCall, "8"},
		{"loadCall string", "CONST \"s\"\n STORE 0\n LOAD 0\n CALL id 1", loadCall, `"s"`},
		{"loadTailCall", "INT 4\n CALL fwd 1", loadTailCall, "4"},
		{"loadReturn", "INT 6\n STORE 1\n LOAD 1", loadReturn, "6"},
		{"opReturn", "INT 30\n CALL dec 1", opReturn + 1, "29"},
		{"opReturn add", "INT 30\n INT 12\n ADD", opReturn, "42"},
		{"opReturn strings", "CONST \"x\"\n CONST \"y\"\n ADD", opReturn, `"xy"`},
		{"opReturn floats", "CONST 1.5\n CONST 0.25\n SUB", opReturn + 1, "1.25"},
		{"tail loop", "INT 100\n INT 0\n CALL count 2", loadIntTailCall, "100"},
		{"loadTestTagJump some", "INT 3\n DATA Option 1\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0", loadTestTagJump, "1"},
		{"loadTestTagJump none", "DATA Option 0\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0", loadTestTagJump, "0"},
		{"loadTestTagJump int", "INT 1\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0", loadTestTagJump, "0"},
		{"loadElemStore data", "INT 3\n DATA Option 1\n STORE 0\n LOAD 0\n ELEM 0\n STORE 1\n LOAD 1", loadElemStore, "3"},
		{"loadElemStore tuple", "INT 1\n INT 2\n TUPLE 2\n STORE 0\n LOAD 0\n ELEM 1\n STORE 2\n LOAD 2", loadElemStore, "2"},
		{"storeLoad", "INT 5\n STORE 0\n LOAD 0\n DUP\n MUL", storeLoad, "25"},
		{"storeLoad same slot", "INT 4\n STORE 2\n INT 8\n STORE 2\n LOAD 2\n DUP\n MUL", storeLoad, "64"},
		{"loadEqConstJump equal", "INT 0\n STORE 0\n LOAD 0\n EQ_CONST 0\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 2", loadEqConstJump, "1"},
		{"loadEqConstJump other", "INT 5\n STORE 0\n LOAD 0\n EQ_CONST -5\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 2", loadEqConstJump, "2"},
		{"loadEqConstJump string", "CONST \"x\"\n STORE 0\n LOAD 0\n EQ_CONST 3\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 2", loadEqConstJump, "2"},
		{"loadEqConstJump string constant", "CONST \"x\"\n STORE 0\n LOAD 0\n EQ_CONST \"x\"\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 2", 0, "1"},
		{"EQ_CONST in the loop", "INT 7\n EQ_CONST 7\n STORE 0\n INT 7\n EQ_CONST 8\n LOAD 0\n NE", 0, "true"},
		{"boolReturn true", "INT 1\n CALL yes 1", boolReturn, "true"},
		{"boolReturn false", "INT 0\n CALL yes 1", boolReturn, "false"},
		{"unitReturn", "CALL unit 0", unitReturn, "()"},
		{"storeTestTag some", "INT 3\n DATA Option 1\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n LOAD 0\n ELEM 0\n RETURN\nno:\n INT 0", storeTestTag, "3"},
		{"storeTestTag none", "DATA Option 0\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n LOAD 0", storeTestTag, "None[]"},
		{"storeTestTag int", "INT 1\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n LOAD 0", storeTestTag, "1"},
		{"jumpElseJump loop", "INT 5\n STORE 0\n INT 0\n STORE 1\ntop:\n LOAD 1\n INT 1\n ADD\n STORE 1\n LOAD 0\n INT 1\n SUB\n STORE 0\n LOAD 0\n INT 0\n GT\n JUMP_IF_FALSE out\n JUMP top\nout:\n LOAD 1", jumpElseJump, "5"},
		{"jumpElseJump forward", "TRUE\n JUMP_IF_FALSE no\n JUMP yes\nno:\n INT 1\n RETURN\nyes:\n INT 2", jumpElseJump, "2"},
		{"loadLoad", "INT 3\n STORE 0\n INT 4\n STORE 1\n LOAD 0\n LOAD 1\n TUPLE 2", loadLoad, "Tuple[3 4]"},
		{"loadElems2Store data", "INT 7\n INT 2\n DATA Pair 0\n STORE 0\n LOAD 0\n ELEM 0\n STORE 1\n LOAD 0\n ELEM 1\n STORE 2\n LOAD 1\n LOAD 2\n SUB", loadElems2Store, "5"},
		{"loadElems2Store tuple", "INT 1\n INT 2\n INT 9\n TUPLE 3\n STORE 0\n LOAD 0\n ELEM 0\n STORE 1\n LOAD 0\n ELEM 1\n STORE 2\n LOAD 2\n LOAD 1\n SUB", loadElems2Store, "1"},
		{"loadElems2Store one slot", "INT 7\n INT 2\n DATA Pair 0\n STORE 0\n LOAD 0\n ELEM 0\n STORE 1\n LOAD 0\n ELEM 1\n STORE 1\n LOAD 1", loadElems2Store, "2"},
		{"jumpElseJump false", "FALSE\n JUMP_IF_FALSE no\n JUMP yes\nno:\n INT 1\n RETURN\nyes:\n INT 2", jumpElseJump, "1"},
	}
	for _, c := range cases {
		src := "func main locals=4\n " + c.body + "\n RETURN\n" + helpers
		p, err := vmtest.Assemble(src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		img, err := load(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.fused != 0 && !hasOp(img, c.fused) {
			t.Errorf("%s: not fused (%s)", c.name, disasmFused(img))
		}
		o, _ := run(t, src, 1<<20)
		if o.Status != StatusDone || o.Value.String() != c.want {
			t.Errorf("%s: %s, want %s", c.name, describe(o), c.want)
		}
		// Budget 1 yields at every charged instruction, also those
		// reached through a fused one.
		if o, _ := run(t, src, 1); o.Value.String() != c.want {
			t.Errorf("%s at budget 1: %s", c.name, describe(o))
		}
	}
}

// TestFusionChoosesFewestDispatches: STORE a; LOAD b; TEST_TAG;
// JUMP_IF_FALSE fuses as STORE and a load-test-jump (two dispatches), not
// as a store-load followed by the test and the jump (three); with b = a
// it is one store-test-jump.
func TestFusionChoosesFewestDispatches(t *testing.T) {
	img := mustLoad(t, vmtest.MustAssemble("func main locals=2\n DATA Option 0\n STORE 0\n LOAD 1\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0\n RETURN\n"))
	code := img.fns[img.Prog.Entry].code
	if code[1].op != bytecode.STORE || code[2].op != loadTestTagJump {
		t.Errorf("fused as %s", disasmFused(img))
	}
	img = mustLoad(t, vmtest.MustAssemble("func main locals=2\n DATA Option 0\n STORE 0\n LOAD 0\n TEST_TAG 1\n JUMP_IF_FALSE no\n INT 1\n RETURN\nno:\n INT 0\n RETURN\n"))
	code = img.fns[img.Prog.Entry].code
	if code[1].op != storeTestTag || code[2].op != loadTestTagJump {
		t.Errorf("fused as %s", disasmFused(img))
	}
}

// TestLoadElems2StoreFallback: the two-field projection on a variant
// with one field executes its first LOAD and leaves the rest (here the
// second ELEM's fault) to the plain instructions; a projection whose
// first STORE overwrites the source is not fused.
func TestLoadElems2StoreFallback(t *testing.T) {
	src := "func main locals=3\n INT 3\n DATA Option 1\n STORE 0\n LOAD 0\n ELEM 0\n STORE 1\n LOAD 0\n ELEM 1\n STORE 2\n LOAD 1\n RETURN\n"
	if img := mustLoad(t, vmtest.MustAssemble(src)); !hasOp(img, loadElems2Store) {
		t.Errorf("not fused: %s", disasmFused(img))
	}
	if o, _ := run(t, src, 1<<20); o.Status != StatusFault || !o.Fault.Internal {
		t.Errorf("outcome %s, want the ELEM's internal fault", describe(o))
	}
	src = "func main locals=3\n INT 3\n INT 4\n TUPLE 2\n STORE 0\n LOAD 0\n ELEM 0\n STORE 0\n LOAD 0\n ELEM 1\n STORE 2\n LOAD 1\n RETURN\n"
	if img := mustLoad(t, vmtest.MustAssemble(src)); hasOp(img, loadElems2Store) {
		t.Errorf("fused over an overwritten source: %s", disasmFused(img))
	}
}

func hasOp(img *Image, op bytecode.Opcode) bool {
	for _, f := range img.fns {
		for _, in := range f.code {
			if in.op == op {
				return true
			}
		}
	}
	return false
}

func disasmFused(img *Image) string {
	var b strings.Builder
	for _, f := range img.fns {
		b.WriteString(f.Name + ":")
		for _, in := range f.code {
			b.WriteString(" " + strconv.Itoa(int(in.op)))
		}
		b.WriteString("; ")
	}
	return b.String()
}

// preemptHost asks for preemption whenever the program prints.
type preemptHost struct {
	testHost
	st *State
}

func (h *preemptHost) Stdout() io.Writer { return preemptWriter{h} }

type preemptWriter struct{ h *preemptHost }

func (w preemptWriter) Write(b []byte) (int, error) {
	w.h.st.Preempt()
	return w.h.out.Write(b)
}

// TestPreemptEndsTheRunAfterTheOperation checks State.Preempt: a native
// call that asks for it (CALL_NATIVE, CALL_VALUE and TAIL_CALL_VALUE of
// a native) makes Run yield right after the call, with a large budget
// left, and the State resumes after it.
func TestPreemptEndsTheRunAfterTheOperation(t *testing.T) {
	src := `
func main
    CONST "a"
    CALL_NATIVE println 1
    POP
    NATIVE println
    CONST "b"
    CALL_VALUE 1
    POP
    CALL last 0
    RETURN
func last
    NATIVE println
    CONST "c"
    TAIL_CALL_VALUE 1
`
	img := mustLoad(t, vmtest.MustAssemble(src))
	for _, general := range []bool{false, true} {
		st, err := NewState(img, img.Prog.Entry, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.generalOnly = general
		h := &preemptHost{st: st}
		for i, want := range []string{"a\n", "a\nb\n", "a\nb\nc\n"} {
			o := Run(st, h, 1<<20)
			if o.Status != StatusYield || h.out.String() != want {
				t.Fatalf("general=%v: run %d: %s, output %q; want a yield after %q", general, i, describe(o), h.out.String(), want)
			}
		}
		if o := Run(st, h, 1<<20); o.Status != StatusDone || h.out.String() != "a\nb\nc\n" {
			t.Fatalf("general=%v: last run: %s, output %q", general, describe(o), h.out.String())
		}
	}
}

// TestFusedCallsAndGuards covers the argument-and-call superinstructions
// at the edges of Int and int32 arithmetic, and the guard-and-return superinstruction for
// every comparison, taken and not taken; it checks that the sequences
// really fused.
func TestFusedCallsAndGuards(t *testing.T) {
	fusedAt := func(src, fn string, op bytecode.Opcode) {
		t.Helper()
		img, err := load(vmtest.MustAssemble(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range img.fns {
			if f.Name == fn && f.code[0].op != op {
				t.Fatalf("%s starts with opcode %d, want %d", fn, f.code[0].op, op)
			}
		}
	}
	for _, c := range []struct {
		x, op, k, call string
		want           int64
	}{
		{"INT 5", "SUB", "-2147483648", "CALL", 5 + 2147483648},
		{"INT 5", "SUB", "-2147483648", "TAIL_CALL", 5 + 2147483648},
		{"INT 5", "SUB", "2147483647", "CALL", 5 - 2147483647},
		{"INT 5", "ADD", "-2147483648", "TAIL_CALL", 5 - 2147483648},
		{"CONST -9223372036854775808", "SUB", "1", "CALL", math.MaxInt64},
		{"CONST -9223372036854775808", "SUB", "1", "TAIL_CALL", math.MaxInt64},
		{"CONST 9223372036854775807", "ADD", "1", "CALL", math.MinInt64},
		{"CONST 9223372036854775807", "ADD", "1", "TAIL_CALL", math.MinInt64},
	} {
		src := "func main\n " + c.x + "\n CALL f 1\n RETURN\nfunc f params=1\n LOAD 0\n INT " + c.k + "\n " + c.op + "\n " + c.call + " id 1\n RETURN\nfunc id params=1\n LOAD 0\n RETURN\n"
		op := bytecode.Opcode(loadIntCall)
		if c.call == "TAIL_CALL" {
			op = loadIntTailCall
		}
		if c.op == "SUB" {
			op++
		}
		fusedAt(src, "f", op)
		o, _ := run(t, src, 1000)
		if o.Status != StatusDone || o.Value.AsInt() != c.want {
			t.Errorf("%s %s %s then %s: %+v, want %d", c.x, c.op, c.k, c.call, o, c.want)
		}
	}
	for _, c := range []cmpCase{{"LT", 1, 1}, {"LT", 2, 100}, {"LE", 2, 2}, {"LE", 3, 100}, {"GT", 3, 3}, {"GT", 2, 100},
		{"GE", 2, 2}, {"GE", 1, 100}, {"EQ", 2, 2}, {"EQ", 1, 100}, {"NE", 1, 1}, {"NE", 2, 100}} {
		src := "func main\n INT " + strconv.Itoa(c.x) + "\n CALL g 1\n RETURN\nfunc g params=1\n LOAD 0\n INT 2\n " + c.op + "\n JUMP_IF_FALSE no\n LOAD 0\n RETURN\nno:\n INT 100\n RETURN\n"
		k, _ := fusedIndex(map[string]bytecode.Opcode{"LT": bytecode.LT, "LE": bytecode.LE, "GT": bytecode.GT, "GE": bytecode.GE, "EQ": bytecode.EQ, "NE": bytecode.NE}[c.op])
		fusedAt(src, "g", guardReturn+bytecode.Opcode(k))
		if o, _ := run(t, src, 1000); o.Status != StatusDone || o.Value.AsInt() != c.want {
			t.Errorf("guard %d %s 2: %+v, want %d", c.x, c.op, o, c.want)
		}
	}
}
