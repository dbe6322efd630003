package closure

import (
	"errors"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
	"github.com/morrow-lang/morrow/stdlib"
)

// interpret runs function fn of p with args in the interpreter and
// returns its value and the steps (reductions) it took.
func interpret(t testing.TB, p *bytecode.Program, fn int, args ...value.Value) (value.Value, int64) {
	t.Helper()
	v, err := bytecode.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := vm.Load(v, stdlib.Natives())
	if err != nil {
		t.Fatal(err)
	}
	st, err := vm.NewState(img, fn, args)
	if err != nil {
		t.Fatal(err)
	}
	for {
		o := vm.Run(st, &vm.Detached{}, 1<<20)
		switch o.Status {
		case vm.StatusYield:
			continue
		case vm.StatusDone:
			return o.Value, st.Steps()
		}
		t.Fatalf("interpreter: status %v", o.Status)
	}
}

// subset exercises every instruction of the subset: comparisons, both
// conditional jumps, NOT, MUL, POP, a forward JUMP to a join with a value
// on the stack, and calls of two functions.
const subset = `
func main
    INT 10
    CALL f 1
    RETURN
func f params=1
    LOAD 0
    INT 0
    LE
    JUMP_IF_TRUE base
    LOAD 0
    INT 2
    GE
    NOT
    JUMP_IF_FALSE big
    INT 7
    JUMP join
big:
    LOAD 0
    LOAD 0
    MUL
join:
    LOAD 0
    INT 1
    SUB
    CALL f 1
    ADD
    INT 99
    POP
    LOAD 0
    CALL g 1
    ADD
    RETURN
base:
    INT 1
    RETURN
func g params=1
    LOAD 0
    INT 3
    GT
    JUMP_IF_FALSE no
    TRUE
    JUMP out
no:
    FALSE
out:
    JUMP_IF_FALSE zero
    LOAD 0
    LOAD 0
    EQ
    JUMP_IF_FALSE zero
    LOAD 0
    INT 1
    NE
    JUMP_IF_FALSE zero
    LOAD 0
    INT 100
    LT
    JUMP_IF_FALSE zero
    INT 1
    LOAD 0
    GT
    JUMP_IF_TRUE zero
    INT 5
    INT 3
    SUB
    RETURN
zero:
    INT 0
    RETURN
`

func TestAgreesWithTheInterpreter(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
	}{
		{"fib", vmtest.Fib(20)},
		{"subset", subset},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := vmtest.MustAssemble(c.src)
			want, steps := interpret(t, p, p.Entry)
			cp, err := Compile(p, p.Entry)
			if err != nil {
				t.Fatal(err)
			}
			m := NewMachine(cp)
			got, err := m.Call(p.Entry)
			if err != nil {
				t.Fatal(err)
			}
			if !value.Same(got, want) {
				t.Fatalf("compiled: %v, interpreter: %v", got, want)
			}
			// The interpreter charges one reduction per call (the
			// entry's own frame is not a call).
			if m.Calls != steps {
				t.Errorf("compiled code made %d calls, the interpreter took %d steps", m.Calls, steps)
			}
			if m.sp != 0 || m.depth != 0 {
				t.Errorf("stack left at sp %d, depth %d", m.sp, m.depth)
			}
		})
	}
	if fib := interpretFib(t, 20); fib != 6765 {
		t.Fatalf("fib(20) = %d", fib)
	}
}

func interpretFib(t *testing.T, n int) int64 {
	p := vmtest.MustAssemble(vmtest.Fib(n))
	cp, err := Compile(p, p.Entry)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewMachine(cp).Call(p.Entry)
	if err != nil {
		t.Fatal(err)
	}
	return v.AsInt()
}

func TestRefusesWhatItDoesNotCover(t *testing.T) {
	for name, src := range map[string]string{
		"loop":   "func main\ntop:\n TRUE\n JUMP_IF_FALSE end\n JUMP top\nend:\n UNIT\n RETURN\n",
		"store":  "func main locals=1\n INT 1\n STORE 0\n LOAD 0\n RETURN\n",
		"native": "func main\n CONST \"x\"\n CALL_NATIVE println 1\n RETURN\n",
		"callee": "func main\n CALL g 0\n RETURN\nfunc g\n INT 1\n INT 2\n LIST 2\n RETURN\n",
	} {
		p, err := vmtest.Assemble(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := Compile(p, p.Entry); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: got %v, want ErrUnsupported", name, err)
		}
	}
}

func TestRunTimeChecks(t *testing.T) {
	// f adds 1 to its argument: given a Bool it stops with ErrKind.
	p := vmtest.MustAssemble("func main\n TRUE\n CALL f 1\n RETURN\nfunc f params=1\n LOAD 0\n INT 1\n ADD\n RETURN\n")
	cp, err := Compile(p, p.Entry)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(cp)
	if _, err := m.Call(p.Entry); !errors.Is(err, ErrKind) {
		t.Errorf("Bool + 1: got %v, want ErrKind", err)
	}
	// Unbounded recursion stops at the depth limit, and the Machine is
	// usable afterwards.
	p = vmtest.MustAssemble("func main\n INT 0\n CALL f 1\n RETURN\nfunc f params=1\n LOAD 0\n INT 1\n ADD\n CALL f 1\n RETURN\n")
	cp, err = Compile(p, p.Entry)
	if err != nil {
		t.Fatal(err)
	}
	m = NewMachine(cp)
	m.MaxDepth = 1000
	if _, err := m.Call(p.Entry); !errors.Is(err, ErrDepth) {
		t.Errorf("runaway recursion: got %v, want ErrDepth", err)
	}
	if m.sp != 0 || m.depth != 0 {
		t.Errorf("after a bail-out: sp %d, depth %d", m.sp, m.depth)
	}
}

// BenchmarkFib25 is fib(25) (242,785 calls) compiled to closures; the
// interpreter's figure is runtime/vm's BenchmarkFib25, same program.
func BenchmarkFib25(b *testing.B) {
	p := vmtest.MustAssemble(vmtest.Fib(25))
	cp, err := Compile(p, p.Entry)
	if err != nil {
		b.Fatal(err)
	}
	m := NewMachine(cp)
	for i := 0; i < b.N; i++ {
		v, err := m.Call(p.Entry)
		if err != nil || v.AsInt() != 75025 {
			b.Fatal(v, err)
		}
	}
}

// goFib is the Go a per-function code generator would emit for fib at
// best, written by hand: the same 16-byte values, the kind checks, one
// reduction counted per call and the depth limit, calls on the Go stack
// (no yield points). BenchmarkFib25GoCeiling bounds what generating Go
// code could gain over the closures and the interpreter.
func goFib(m *Machine, n value.Value) value.Value {
	if m.depth >= m.MaxDepth {
		panic(bail{ErrDepth})
	}
	x := asInt(n)
	if x < 2 {
		return n
	}
	m.depth++
	m.Calls += 2
	a := asInt(goFib(m, value.Int(x-1)))
	b := asInt(goFib(m, value.Int(x-2)))
	m.depth--
	return value.Int(a + b)
}

func TestGoFibAgrees(t *testing.T) {
	m := NewMachine(nil)
	if v := goFib(m, value.Int(20)); v.AsInt() != 6765 || m.Calls != 21890 {
		t.Fatalf("goFib(20) = %v in %d calls", v, m.Calls)
	}
}

func BenchmarkFib25GoCeiling(b *testing.B) {
	m := NewMachine(nil)
	for i := 0; i < b.N; i++ {
		if v := goFib(m, value.Int(25)); v.AsInt() != 75025 {
			b.Fatal(v)
		}
	}
}
