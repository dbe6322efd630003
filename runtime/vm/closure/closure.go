// Package closure is a measured prototype of a second execution tier for
// compute-heavy code: it compiles a function's bytecode into a tree of Go
// closures instead of interpreting it one instruction at a time. It is
// not wired into the runtime; docs/performance.md ("Beyond the
// interpreter") records what it measured and the decision taken from it.
//
// # The algorithm
//
// Compile runs the operand stack symbolically over a function's code: a
// LOAD, an INT or the result of an operation is not executed but pushed
// as a Go closure (an expr) that computes it, so LOAD a; INT 1; SUB; CALL
// f 1 becomes one closure calling f with l[a]-1, built from smaller ones.
// A conditional jump (forward only) splits the compilation into its two
// successors, each with its own copy of the symbolic stack, and a
// forward JUMP continues at its target (a join is compiled once per path
// that reaches it: tail duplication, bounded by maxNodes). RETURN ends a
// path with the expr on top. The result is one closure per function that
// evaluates the body directly with Go's own calls and branches: the
// dispatch, the operand-stack traffic and the pc bookkeeping of the
// interpreter disappear; what remains is one indirect call per
// expression node.
//
// Locals live in a value stack of the Machine (a call takes Locals slots
// above its caller's), not on the Go stack; the calls themselves recurse
// on the Go stack, so a compiled call cannot be suspended in the middle.
// That is the prototype's essential limitation against RUNTIME.md §1 (a
// process's state lives in a heap object; preemption by reductions): it
// counts the calls it makes (Machine.Calls, the interpreter's reductions
// for the same code) but cannot yield. A production tier would have to
// return to the interpreter at a reduction check with its frames
// rebuilt on the heap, or run only calls whose reductions are bounded.
//
// # The subset
//
// Compile accepts functions made of INT, TRUE, FALSE, LOAD, POP, the Int
// arithmetic ADD, SUB, MUL, the comparisons, NOT, forward JUMP,
// JUMP_IF_FALSE and JUMP_IF_TRUE, RETURN, and CALL of functions in the
// subset; anything else (stores, loops, natives, allocation, actors,
// closures) is refused with ErrUnsupported. At run time an operand that
// is not an Int (or a Bool where a condition is expected), integer
// overflow semantics aside, stops the evaluation with ErrKind, and a call
// depth beyond Machine.MaxDepth with ErrDepth: the interpreter's general
// path would handle or fault on them.
package closure

import (
	"errors"
	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Errors of Compile and Machine.Call.
var (
	ErrUnsupported = errors.New("closure: instruction outside the compiled subset")
	ErrKind        = errors.New("closure: operand of an unexpected kind")
	ErrDepth       = errors.New("closure: call depth limit")
)

// maxNodes bounds the closures built for one function (tail duplication
// at joins can multiply them).
const maxNodes = 10_000

// expr computes one value of a function body: l are the function's
// locals in the Machine's stack.
type expr func(m *Machine, l []value.Value) value.Value

// node is an entry of the symbolic operand stack: the closure that
// computes it and, for an INT, the constant.
type node struct {
	e     expr
	k     int64
	konst bool
	// slot >= 0: the node is LOAD slot; ltSlot >= 0: it is
	// LOAD ltSlot < k (the shapes the specialised closures fuse).
	slot, ltSlot int
}

func plain(e expr) node { return node{e: e, slot: -1, ltSlot: -1} }

// Program is a compiled program: one body per function of the source
// program that is in the subset (nil for the others).
type Program struct {
	bodies []expr
	fns    []*bytecode.Function
}

// Machine evaluates compiled functions. It is not safe for concurrent
// use; each goroutine needs its own.
type Machine struct {
	prog     *Program
	stack    []value.Value
	sp       int
	depth    int
	MaxDepth int   // call depth limit (default 100,000)
	Calls    int64 // calls made (the interpreter's reductions for them)
}

// bail is the panic that stops an evaluation (ErrKind, ErrDepth).
type bail struct{ err error }

// NewMachine returns a Machine for p.
func NewMachine(p *Program) *Machine {
	return &Machine{prog: p, stack: make([]value.Value, 1024), MaxDepth: 100_000}
}

// Compile compiles every function of p that the subset covers. It
// reports ErrUnsupported (wrapped, naming the function) only for fn, the
// function the caller means to run, or a function it calls.
func Compile(p *bytecode.Program, fn int) (*Program, error) {
	c := &compiler{p: p, out: &Program{bodies: make([]expr, len(p.Functions)), fns: p.Functions}, state: make([]int, len(p.Functions))}
	if err := c.function(fn); err != nil {
		return nil, err
	}
	return c.out, nil
}

// Call runs function fn of the compiled program with args.
func (m *Machine) Call(fn int, args ...value.Value) (v value.Value, err error) {
	f := m.prog.fns[fn]
	body := m.prog.bodies[fn]
	if body == nil || len(args) != f.Params {
		return value.Unit, fmt.Errorf("closure: %s is not compiled for %d arguments", f.Name, len(args))
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bail)
			if !ok {
				panic(r)
			}
			v, err = value.Unit, b.err
			m.sp, m.depth = 0, 0
		}
	}()
	l := m.frame(f.Locals)
	copy(l, args)
	v = body(m, l)
	m.sp -= f.Locals
	return v, nil
}

// ensure grows the stack to at least n slots. Slices of the old stack
// that callers hold stay valid (they keep the old array): compiled code
// never writes a caller's locals.
func (m *Machine) ensure(n int) {
	if n > len(m.stack) {
		m.stack = append(m.stack, make([]value.Value, n+len(m.stack))...)
	}
}

// frame takes n local slots (cleared) above the stack top.
func (m *Machine) frame(n int) []value.Value {
	m.ensure(m.sp + n)
	l := m.stack[m.sp : m.sp+n : m.sp+n]
	clear(l)
	m.sp += n
	return l
}

type compiler struct {
	p     *bytecode.Program
	out   *Program
	state []int // 0 not seen, 1 compiling, 2 done
	nodes int
}

// function compiles function i (and the functions it calls).
func (c *compiler) function(i int) error {
	if c.state[i] != 0 {
		return nil // done, or compiling (a recursive call: bodies[i] is read at run time)
	}
	c.state[i] = 1
	f := c.p.Functions[i]
	c.nodes = 0
	body, err := c.path(f, 0, nil)
	if err != nil {
		return fmt.Errorf("%w: %s", err, f.Name)
	}
	c.out.bodies[i] = body
	c.state[i] = 2
	return nil
}

// path compiles the code of f from pc with the symbolic stack st.
func (c *compiler) path(f *bytecode.Function, pc int, st []node) (expr, error) {
	for ; pc < len(f.Code); pc++ {
		c.nodes++
		if c.nodes > maxNodes {
			return nil, ErrUnsupported
		}
		in := f.Code[pc]
		switch in.Op {
		case bytecode.INT:
			st = append(st, node{e: constant(value.Int(int64(in.A))), k: int64(in.A), konst: true, slot: -1, ltSlot: -1})
		case bytecode.TRUE, bytecode.FALSE:
			st = append(st, plain(constant(value.Bool(in.Op == bytecode.TRUE))))
		case bytecode.LOAD:
			st = append(st, node{e: load(int(in.A)), slot: int(in.A), ltSlot: -1})
		case bytecode.POP:
			st = st[:len(st)-1]
		case bytecode.ADD, bytecode.SUB, bytecode.MUL,
			bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE:
			n := len(st)
			st = append(st[:n-2], binary(in.Op, st[n-2], st[n-1]))
		case bytecode.NOT:
			x := st[len(st)-1].e
			st[len(st)-1] = plain(func(m *Machine, l []value.Value) value.Value {
				return value.Bool(!asBool(x(m, l)))
			})
		case bytecode.CALL:
			callee := int(in.A)
			if err := c.function(callee); err != nil {
				return nil, err
			}
			n := int(in.B)
			args := make([]expr, n)
			for i, a := range st[len(st)-n:] {
				args[i] = a.e
			}
			st = append(st[:len(st)-n], plain(call(c.out, callee, args)))
		case bytecode.JUMP:
			if int(in.A) <= pc {
				return nil, ErrUnsupported // a loop
			}
			pc = int(in.A) - 1
		case bytecode.JUMP_IF_FALSE, bytecode.JUMP_IF_TRUE:
			t := int(in.A)
			if t <= pc {
				return nil, ErrUnsupported
			}
			cond := st[len(st)-1]
			rest := st[:len(st)-1]
			next, err := c.path(f, pc+1, append([]node(nil), rest...))
			if err != nil {
				return nil, err
			}
			jump, err := c.path(f, t, append([]node(nil), rest...))
			if err != nil {
				return nil, err
			}
			yes, no := next, jump // JUMP_IF_FALSE: true falls through
			if in.Op == bytecode.JUMP_IF_TRUE {
				yes, no = jump, next
			}
			return branch(cond, yes, no), nil
		case bytecode.RETURN:
			return st[len(st)-1].e, nil
		default:
			return nil, ErrUnsupported
		}
	}
	return nil, ErrUnsupported
}

func constant(v value.Value) expr {
	return func(*Machine, []value.Value) value.Value { return v }
}

func load(a int) expr {
	return func(_ *Machine, l []value.Value) value.Value { return l[a] }
}

func asInt(v value.Value) int64 {
	if !v.IsInt() {
		panic(bail{ErrKind})
	}
	return v.AsInt()
}

func asBool(v value.Value) bool {
	if v.Kind() != value.KBool {
		panic(bail{ErrKind})
	}
	return v.AsBool()
}

// binary builds an arithmetic or comparison node, specialised for the
// shapes compiled code has most: a local against a constant.
func binary(op bytecode.Opcode, xn, yn node) node {
	x, y := xn.e, yn.e
	if a, k := xn.slot, yn.k; a >= 0 && yn.konst {
		switch op {
		case bytecode.ADD:
			return plain(func(_ *Machine, l []value.Value) value.Value { return value.Int(asInt(l[a]) + k) })
		case bytecode.SUB:
			return plain(func(_ *Machine, l []value.Value) value.Value { return value.Int(asInt(l[a]) - k) })
		case bytecode.LT:
			n := plain(func(_ *Machine, l []value.Value) value.Value { return value.Bool(asInt(l[a]) < k) })
			n.ltSlot, n.k = a, k
			return n
		}
	}
	return plain(binaryExpr(op, x, y, yn))
}

func binaryExpr(op bytecode.Opcode, x, y expr, yn node) expr {
	if k := yn.k; yn.konst {
		switch op {
		case bytecode.ADD:
			return func(m *Machine, l []value.Value) value.Value { return value.Int(asInt(x(m, l)) + k) }
		case bytecode.SUB:
			return func(m *Machine, l []value.Value) value.Value { return value.Int(asInt(x(m, l)) - k) }
		case bytecode.LT:
			return func(m *Machine, l []value.Value) value.Value { return value.Bool(asInt(x(m, l)) < k) }
		}
	}
	f := arith(op)
	return func(m *Machine, l []value.Value) value.Value {
		a := asInt(x(m, l))
		return f(a, asInt(y(m, l)))
	}
}

func arith(op bytecode.Opcode) func(a, b int64) value.Value {
	switch op {
	case bytecode.ADD:
		return func(a, b int64) value.Value { return value.Int(a + b) }
	case bytecode.SUB:
		return func(a, b int64) value.Value { return value.Int(a - b) }
	case bytecode.MUL:
		return func(a, b int64) value.Value { return value.Int(a * b) }
	case bytecode.LT:
		return func(a, b int64) value.Value { return value.Bool(a < b) }
	case bytecode.LE:
		return func(a, b int64) value.Value { return value.Bool(a <= b) }
	case bytecode.GT:
		return func(a, b int64) value.Value { return value.Bool(a > b) }
	case bytecode.GE:
		return func(a, b int64) value.Value { return value.Bool(a >= b) }
	case bytecode.EQ:
		return func(a, b int64) value.Value { return value.Bool(a == b) }
	}
	return func(a, b int64) value.Value { return value.Bool(a != b) }
}

func branch(cn node, yes, no expr) expr {
	if a, k := cn.ltSlot, cn.k; a >= 0 {
		return func(m *Machine, l []value.Value) value.Value {
			if asInt(l[a]) < k {
				return yes(m, l)
			}
			return no(m, l)
		}
	}
	cond := cn.e
	return func(m *Machine, l []value.Value) value.Value {
		if asBool(cond(m, l)) {
			return yes(m, l)
		}
		return no(m, l)
	}
}

// call builds a call of function fn of p (its body may not be compiled
// yet: a recursive call reads it when it runs).
func call(p *Program, fn int, args []expr) expr {
	f := p.fns[fn]
	n, locals := len(args), f.Locals
	if n == 1 && locals == 1 {
		arg := args[0]
		return func(m *Machine, l []value.Value) value.Value {
			if m.depth >= m.MaxDepth {
				panic(bail{ErrDepth})
			}
			v := arg(m, l)
			base := m.sp
			m.ensure(base + 1)
			cl := m.stack[base : base+1 : base+1]
			cl[0] = v
			m.sp = base + 1
			m.depth++
			m.Calls++
			v = p.bodies[fn](m, cl)
			m.depth--
			m.sp = base
			return v
		}
	}
	return func(m *Machine, l []value.Value) value.Value {
		if m.depth >= m.MaxDepth {
			panic(bail{ErrDepth})
		}
		// Arguments are evaluated into the callee's slots, left to
		// right, the stack top above each, so that calls nested in
		// them use the stack above.
		base := m.sp
		for i := 0; i < n; i++ {
			v := args[i](m, l)
			m.ensure(base + i + 1)
			m.stack[base+i] = v
			m.sp = base + i + 1
		}
		m.ensure(base + locals)
		cl := m.stack[base : base+locals : base+locals]
		clear(cl[n:])
		m.sp = base + locals
		m.depth++
		m.Calls++
		v := p.bodies[fn](m, cl)
		m.depth--
		m.sp = base
		return v
	}
}
