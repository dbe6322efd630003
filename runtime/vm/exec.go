package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// The fast loop
//
// exec executes instructions with the interpreter's state (pc, sp, the
// frame base, the code and the stack, the step count) in local variables,
// for as long as each instruction takes its common case: Int arithmetic
// and comparisons, loads and stores, jumps, calls and returns that need
// no growth, tests and projections. It calls no Go function on those
// paths (only value's inlined accessors), so the compiler keeps its
// variables in registers across iterations instead of spilling them
// around calls. Anything else — another operand kind, a call that must
// grow the stack, a native, an allocation, an actor instruction, a fault —
// is handed to step (step.go) by returning with the state saved and the
// pc on that instruction; run calls step and then exec again. The two
// paths charge steps identically (Run describes the charges), so which
// one executed an instruction is invisible.

// exec runs the fast loop until an instruction needs the general path
// (false) or the budget is spent at a charged instruction (true: the
// State yields with its pc on that instruction).
//
// The loop keeps pc, sp, the top frame, its base and code, the stack and
// the steps left in locals. The calls and the return save pc, sp and the
// step count to st before their own work (which needs many registers and
// may fail over to the general path, which then finds the state saved)
// and switch the locals to the new frame. pc is advanced by each case,
// never before the switch, so that an exit needs no copy of the
// instruction's pc.
func (st *State) exec() (yield bool) {
	// left counts the steps still in the budget: one variable instead of
	// the step count and its limit.
	left := st.limit - st.steps
	fr := &st.frames[len(st.frames)-1]
	code := fr.fn.Code
	bp := fr.base
	stack := st.stack
	pc, sp := fr.pc, st.sp
	for {
		in := code[pc]
		switch in.Op {
		case bytecode.NOP:
			pc++
		case bytecode.POP:
			sp--
			pc++
		case bytecode.DUP:
			stack[sp] = stack[sp-1]
			sp++
			pc++
		case bytecode.SWAP:
			stack[sp-1], stack[sp-2] = stack[sp-2], stack[sp-1]
			pc++
		case bytecode.UNIT:
			stack[sp] = value.Unit
			sp++
			pc++
		case bytecode.TRUE:
			stack[sp] = value.Bool(true)
			sp++
			pc++
		case bytecode.FALSE:
			stack[sp] = value.Bool(false)
			sp++
			pc++
		case bytecode.INT:
			stack[sp] = value.Int(int64(in.A))
			sp++
			pc++
		case bytecode.CONST:
			stack[sp] = st.img.Prog.Consts[in.A]
			sp++
			pc++
		case bytecode.LOAD:
			stack[sp] = stack[bp+int(in.A)]
			sp++
			pc++
		case bytecode.STORE:
			sp--
			stack[bp+int(in.A)] = stack[sp]
			pc++
		case bytecode.FREE:
			stack[sp] = fr.free[in.A]
			sp++
			pc++
		case bytecode.FUNC:
			stack[sp] = st.img.funcVals[in.A]
			sp++
			pc++
		case bytecode.NATIVE:
			stack[sp] = st.img.nativeVals[in.A]
			sp++
			pc++

		case bytecode.CALL:
			goto call
		case loadCall: // LOAD a; CALL
			stack[sp] = stack[bp+int(in.A)]
			sp++
			pc++
			in = code[pc]
			goto call
		case loadIntCall, loadIntCall + 1: // LOAD a; INT k; ADD|SUB; CALL
			x := stack[bp+int(in.A)]
			if !x.IsInt() {
				stack[sp] = x // just the LOAD
				sp++
				pc++
				continue
			}
			if in.Op == loadIntCall {
				stack[sp] = value.Int(x.AsInt() + int64(in.B))
			} else {
				stack[sp] = value.Int(x.AsInt() - int64(in.B))
			}
			sp++
			pc += 3
			in = code[pc]
			goto call
		case bytecode.CALL_VALUE:
			if left <= 0 {
				goto yield
			}
			n := int(in.A)
			c, ok := stack[sp-n-1].Closure()
			fns := st.img.fns
			if !ok || c.Fn < 0 || c.Fn >= len(fns) {
				goto slow
			}
			callee := fns[c.Fn]
			base := sp - n
			top := base + callee.Locals
			nfr := len(st.frames)
			if callee.Params != n || len(c.Free) != callee.Captures ||
				nfr >= cap(st.frames) || nfr >= st.maxDepth || top+callee.MaxStack > len(stack) {
				goto slow
			}
			left--
			for i := sp; i < top; i++ {
				stack[i] = value.Unit
			}
			fr.pc = pc + 1
			frames := st.frames[:nfr+1]
			st.frames = frames
			fr = &frames[nfr] // no defers, mode normal (see call)
			fr.fn, fr.pc, fr.base, fr.retSP, fr.free = callee, 0, base, base-1, c.Free
			code, pc, bp, sp = callee.Code, 0, base, top
			continue
		case bytecode.TAIL_CALL:
			goto tailCall
		case loadTailCall: // LOAD a; TAIL_CALL
			stack[sp] = stack[bp+int(in.A)]
			sp++
			pc++
			in = code[pc]
			goto tailCall
		case loadIntTailCall, loadIntTailCall + 1: // LOAD a; INT k; ADD|SUB; TAIL_CALL
			x := stack[bp+int(in.A)]
			if !x.IsInt() {
				stack[sp] = x // just the LOAD
				sp++
				pc++
				continue
			}
			if in.Op == loadIntTailCall {
				stack[sp] = value.Int(x.AsInt() + int64(in.B))
			} else {
				stack[sp] = value.Int(x.AsInt() - int64(in.B))
			}
			sp++
			pc += 3
			in = code[pc]
			goto tailCall
		case bytecode.TAIL_CALL_VALUE:
			if left <= 0 {
				goto yield
			}
			n := int(in.A)
			c, ok := stack[sp-n-1].Closure()
			fns := st.img.fns
			if !ok || c.Fn < 0 || c.Fn >= len(fns) {
				goto slow
			}
			callee := fns[c.Fn]
			top := bp + callee.Locals
			if callee.Params != n || len(c.Free) != callee.Captures || top+callee.MaxStack > len(stack) {
				goto slow
			}
			left--
			for i := 0; i < n; i++ {
				stack[bp+i] = stack[sp-n+i]
			}
			for i := bp + n; i < top; i++ {
				stack[i] = value.Unit
			}
			fr.fn, fr.pc, fr.free = callee, 0, c.Free
			code, pc, sp = callee.Code, 0, top
			continue
		case bytecode.RETURN:
			goto ret
		case loadReturn: // LOAD a; RETURN
			stack[sp] = stack[bp+int(in.A)]
			sp++
			pc++
			goto ret
		case opReturn, opReturn + 1: // ADD|SUB; RETURN
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			if in.Op == opReturn {
				stack[sp-1] = value.Int(x.AsInt() + y.AsInt())
			} else {
				stack[sp-1] = value.Int(x.AsInt() - y.AsInt())
			}
			pc++
			goto ret
		case bytecode.JUMP:
			if t := int(in.A); t > pc {
				pc = t
			} else {
				if left <= 0 {
					goto yield
				}
				left--
				pc = t
			}
		case bytecode.JUMP_IF_FALSE:
			if stack[sp-1].AsBool() {
				sp--
				pc++
			} else if t := int(in.A); t > pc {
				sp--
				pc = t
			} else {
				goto slow
			}
		case bytecode.JUMP_IF_TRUE:
			if !stack[sp-1].AsBool() {
				sp--
				pc++
			} else if t := int(in.A); t > pc {
				sp--
				pc = t
			} else {
				goto slow
			}

		case bytecode.ADD:
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			stack[sp-1] = value.Int(x.AsInt() + y.AsInt())
			pc++
		case bytecode.SUB:
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			stack[sp-1] = value.Int(x.AsInt() - y.AsInt())
			pc++
		case bytecode.MUL:
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			stack[sp-1] = value.Int(x.AsInt() * y.AsInt())
			pc++
		case bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE:
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			stack[sp-1] = value.Bool(compareInts(in.Op, x.AsInt(), y.AsInt()))
			pc++
		case bytecode.NOT:
			x := stack[sp-1]
			if x.Kind() != value.KBool {
				goto slow
			}
			stack[sp-1] = value.Bool(!x.AsBool())
			pc++

		case bytecode.TEST_TAG:
			d, ok := stack[sp-1].Data()
			stack[sp-1] = value.Bool(ok && d.Tag == int(in.A))
			pc++
		case bytecode.TEST_KIND:
			stack[sp-1] = value.Bool(stack[sp-1].Kind() == value.Kind(in.A))
			pc++
		case bytecode.ELEM:
			x := stack[sp-1]
			i := int(in.A)
			if d, ok := x.Data(); ok && i < len(d.Fields) {
				stack[sp-1] = d.Fields[i]
			} else if t, ok := x.Tuple(); ok && i < len(t.Elems) {
				stack[sp-1] = t.Elems[i]
			} else {
				goto slow
			}
			pc++
		case bytecode.LIST_LEN:
			l, ok := stack[sp-1].List()
			if !ok {
				goto slow
			}
			stack[sp-1] = value.Int(int64(len(l.Items)))
			pc++
		case bytecode.LIST_ELEM:
			l, ok := stack[sp-1].List()
			if !ok || int(in.A) >= len(l.Items) {
				goto slow
			}
			stack[sp-1] = l.Items[in.A]
			pc++
		case bytecode.DATA:
			vs := st.img.nullary[in.A]
			if int(in.B) >= len(vs) || vs[in.B].Kind() != value.KData {
				goto slow
			}
			stack[sp] = vs[in.B]
			sp++
			pc++

		case loadIntOp: // LOAD; INT; ADD
			x := stack[bp+int(in.A)]
			if x.IsInt() {
				x = value.Int(x.AsInt() + int64(in.B))
				pc += 2
			}
			stack[sp] = x // or just the LOAD
			sp++
			pc++
		case loadIntOp + 1: // LOAD; INT; SUB
			x := stack[bp+int(in.A)]
			if x.IsInt() {
				x = value.Int(x.AsInt() - int64(in.B))
				pc += 2
			}
			stack[sp] = x // or just the LOAD
			sp++
			pc++
		case loadIntOp + 2, loadIntOp + 3, loadIntOp + 4, loadIntOp + 5, loadIntOp + 6, loadIntOp + 7:
			x := stack[bp+int(in.A)]
			if x.IsInt() {
				x = value.Bool(compareInts(fusedOps[in.Op-loadIntOp], x.AsInt(), int64(in.B)))
				pc += 2
			}
			stack[sp] = x // or just the LOAD
			sp++
			pc++
		case loadIntCmpJump + 2, loadIntCmpJump + 3, loadIntCmpJump + 4,
			loadIntCmpJump + 5, loadIntCmpJump + 6, loadIntCmpJump + 7:
			x := stack[bp+int(in.A)]
			if !x.IsInt() {
				stack[sp] = x // just the LOAD
				sp++
				pc++
			} else if compareInts(fusedOps[in.Op-loadIntCmpJump], x.AsInt(), int64(in.B)) {
				pc += 4
			} else {
				pc = int(code[pc+3].A)
			}
		case loadLoadOp: // LOAD; LOAD; ADD
			x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
			if x.IsInt() && y.IsInt() {
				x = value.Int(x.AsInt() + y.AsInt())
				pc += 2
			}
			stack[sp] = x // or just the first LOAD
			sp++
			pc++
		case loadLoadOp + 1: // LOAD; LOAD; SUB
			x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
			if x.IsInt() && y.IsInt() {
				x = value.Int(x.AsInt() - y.AsInt())
				pc += 2
			}
			stack[sp] = x // or just the first LOAD
			sp++
			pc++
		case loadLoadOp + 2, loadLoadOp + 3, loadLoadOp + 4, loadLoadOp + 5, loadLoadOp + 6, loadLoadOp + 7:
			x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
			if x.IsInt() && y.IsInt() {
				x = value.Bool(compareInts(fusedOps[in.Op-loadLoadOp], x.AsInt(), y.AsInt()))
				pc += 2
			}
			stack[sp] = x // or just the first LOAD
			sp++
			pc++
		case loadLoadCmpJump + 2, loadLoadCmpJump + 3, loadLoadCmpJump + 4,
			loadLoadCmpJump + 5, loadLoadCmpJump + 6, loadLoadCmpJump + 7:
			x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
			if !x.IsInt() || !y.IsInt() {
				stack[sp] = x // just the first LOAD
				sp++
				pc++
			} else if compareInts(fusedOps[in.Op-loadLoadCmpJump], x.AsInt(), y.AsInt()) {
				pc += 4
			} else {
				pc = int(code[pc+3].A)
			}
		case cmpJump + 2, cmpJump + 3, cmpJump + 4, cmpJump + 5, cmpJump + 6, cmpJump + 7:
			x, y := stack[sp-2], stack[sp-1]
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp -= 2
			if compareInts(fusedOps[in.Op-cmpJump], x.AsInt(), y.AsInt()) {
				pc += 2
			} else {
				pc = int(in.A)
			}

		case loadTestTagJump: // LOAD a; TEST_TAG t; JUMP_IF_FALSE
			if d, ok := stack[bp+int(in.A)].Data(); ok && d.Tag == int(in.B) {
				pc += 3
			} else {
				pc = int(code[pc+2].A)
			}
		case loadElemStore: // LOAD a; ELEM i; STORE b
			x := stack[bp+int(in.A)]
			i := int(in.B)
			if d, ok := x.Data(); ok && i < len(d.Fields) {
				stack[bp+int(code[pc+2].A)] = d.Fields[i]
			} else if t, ok := x.Tuple(); ok && i < len(t.Elems) {
				stack[bp+int(code[pc+2].A)] = t.Elems[i]
			} else {
				stack[sp] = x // just the LOAD
				sp++
				pc++
				continue
			}
			pc += 3
		case storeLoad: // STORE a; LOAD b
			stack[bp+int(in.A)] = stack[sp-1]
			stack[sp-1] = stack[bp+int(in.B)]
			pc += 2

		default:
			goto slow
		}
		continue
		// The calls and the return, shared by their instruction and
		// the fused instructions that end with them; in is the call
		// instruction and pc its position.
	call:
		{
			if left <= 0 {
				goto yield
			}
			callee := st.img.fns[in.A]
			base := sp - int(in.B)
			top := base + callee.Locals
			n := len(st.frames)
			if n >= cap(st.frames) || n >= st.maxDepth || top+callee.MaxStack > len(stack) {
				goto slow
			}
			left--
			for i := sp; i < top; i++ {
				stack[i] = value.Unit
			}
			fr.pc = pc + 1
			frames := st.frames[:n+1]
			st.frames = frames
			// A frame slot above the top has no defers, no captured
			// values and mode normal (every pop leaves it so).
			fr = &frames[n]
			fr.fn, fr.pc, fr.base, fr.retSP = callee, 0, base, base
			code, pc, bp, sp = callee.Code, 0, base, top
			continue
		}
	tailCall:
		{
			if left <= 0 {
				goto yield
			}
			callee := st.img.fns[in.A]
			n := int(in.B)
			top := bp + callee.Locals
			if top+callee.MaxStack > len(stack) {
				goto slow
			}
			left--
			for i := 0; i < n; i++ {
				stack[bp+i] = stack[sp-n+i]
			}
			for i := bp + n; i < top; i++ {
				stack[i] = value.Unit
			}
			fr.fn, fr.pc, fr.free = callee, 0, nil
			code, pc, sp = callee.Code, 0, top
			continue
		}
	ret:
		{
			frames := st.frames
			n := len(frames)
			if n < 2 || fr.cl != nil || frames[n-2].mode != modeNormal {
				goto slow
			}
			retSP := fr.retSP
			stack[retSP] = stack[sp-1]
			fr.free = nil
			st.frames = frames[:n-1]
			fr = &frames[n-2]
			code, pc, bp, sp = fr.fn.Code, fr.pc, fr.base, retSP+1
			continue
		}
	}
slow:
	fr.pc = pc
	st.sp = sp
	st.steps = st.limit - left
	return false
yield:
	fr.pc = pc
	st.sp = sp
	st.steps = st.limit - left
	return true
}

// compareInts applies the comparison op to two Ints.
func compareInts(op bytecode.Opcode, x, y int64) bool {
	switch op {
	case bytecode.LT:
		return x < y
	case bytecode.LE:
		return x <= y
	case bytecode.GT:
		return x > y
	case bytecode.GE:
		return x >= y
	case bytecode.EQ:
		return x == y
	}
	return x != y
}
