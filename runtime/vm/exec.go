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
// The inner loop keeps pc, sp, the frame base, the code and the stack in
// locals; the instructions that change frames (calls and returns) write
// the new state to st and continue the outer loop, which loads it again,
// so that their register-hungry work does not force the inner loop's
// variables out of registers. pc is advanced by each case, never before
// the switch, so that an exit needs no copy of the instruction's pc.
func (st *State) exec() (yield bool) {
	// left counts the steps still in the budget: one variable instead of
	// the step count and its limit.
	var pc, sp int
	var left int64
outer:
	for {
		left = st.limit - st.steps
		fr := &st.frames[len(st.frames)-1]
		code := fr.fn.Code
		bp := fr.base
		stack := st.stack
		pc, sp = fr.pc, st.sp
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
				if left <= 0 {
					goto yield
				}
				// Save the state first: the call's work needs registers,
				// and from here on the loop's variables are dead (the
				// outer loop reloads them).
				fr.pc, st.sp, st.steps = pc, sp, st.limit-left
				callee := st.img.fns[in.A]
				base := sp - int(in.B)
				top := base + callee.Locals
				n := len(st.frames)
				if n >= cap(st.frames) || n >= st.maxDepth || top+callee.MaxStack > len(stack) {
					return false
				}
				st.steps++
				for i := sp; i < top; i++ {
					stack[i] = value.Unit
				}
				fr.pc = pc + 1
				frames := st.frames[:n+1]
				st.frames = frames
				nf := &frames[n]
				nf.fn, nf.pc, nf.base, nf.retSP, nf.free, nf.cl, nf.mode = callee, 0, base, base, nil, nil, modeNormal
				st.sp = top
				continue outer
			case bytecode.CALL_VALUE:
				if left <= 0 {
					goto yield
				}
				fr.pc, st.sp, st.steps = pc, sp, st.limit-left
				n := int(in.A)
				c, ok := stack[sp-n-1].Closure()
				fns := st.img.fns
				if !ok || c.Fn < 0 || c.Fn >= len(fns) {
					return false
				}
				callee := fns[c.Fn]
				base := sp - n
				top := base + callee.Locals
				nfr := len(st.frames)
				if callee.Params != n || len(c.Free) != callee.Captures ||
					nfr >= cap(st.frames) || nfr >= st.maxDepth || top+callee.MaxStack > len(stack) {
					return false
				}
				st.steps++
				for i := sp; i < top; i++ {
					stack[i] = value.Unit
				}
				fr.pc = pc + 1
				frames := st.frames[:nfr+1]
				st.frames = frames
				nf := &frames[nfr]
				nf.fn, nf.pc, nf.base, nf.retSP, nf.free, nf.cl, nf.mode = callee, 0, base, base-1, c.Free, nil, modeNormal
				st.sp = top
				continue outer
			case bytecode.TAIL_CALL:
				if left <= 0 {
					goto yield
				}
				fr.pc, st.sp, st.steps = pc, sp, st.limit-left
				callee := st.img.fns[in.A]
				n := int(in.B)
				top := bp + callee.Locals
				if top+callee.MaxStack > len(stack) {
					return false
				}
				st.steps++
				for i := 0; i < n; i++ {
					stack[bp+i] = stack[sp-n+i]
				}
				for i := bp + n; i < top; i++ {
					stack[i] = value.Unit
				}
				fr.fn, fr.pc, fr.free = callee, 0, nil
				st.sp = top
				continue outer
			case bytecode.TAIL_CALL_VALUE:
				if left <= 0 {
					goto yield
				}
				fr.pc, st.sp, st.steps = pc, sp, st.limit-left
				n := int(in.A)
				c, ok := stack[sp-n-1].Closure()
				fns := st.img.fns
				if !ok || c.Fn < 0 || c.Fn >= len(fns) {
					return false
				}
				callee := fns[c.Fn]
				top := bp + callee.Locals
				if callee.Params != n || len(c.Free) != callee.Captures || top+callee.MaxStack > len(stack) {
					return false
				}
				st.steps++
				for i := 0; i < n; i++ {
					stack[bp+i] = stack[sp-n+i]
				}
				for i := bp + n; i < top; i++ {
					stack[i] = value.Unit
				}
				fr.fn, fr.pc, fr.free = callee, 0, c.Free
				st.sp = top
				continue outer
			case bytecode.RETURN:
				fr.pc, st.sp, st.steps = pc, sp, st.limit-left
				frames := st.frames
				n := len(frames)
				if n < 2 || fr.cl != nil || frames[n-2].mode != modeNormal {
					return false
				}
				retSP := fr.retSP
				stack[retSP] = stack[sp-1]
				fr.free = nil
				st.frames = frames[:n-1]
				st.sp = retSP + 1
				continue outer

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

			default:
				goto slow
			}
		}
	}
slow:
	st.frames[len(st.frames)-1].pc = pc
	st.sp = sp
	st.steps = st.limit - left
	return false
yield:
	st.frames[len(st.frames)-1].pc = pc
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
