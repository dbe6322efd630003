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
// pc on that instruction; run calls step and then exec again. SEND,
// RECV_START and RECV_TAKE, which every message executes, are the
// exception: the loop saves its state, runs them through the Run's host
// (actor.go) and reloads, as it does around a closure call. The two
// paths charge steps identically (Run describes the charges), so which
// one executed an instruction is invisible.

// exec runs the fast loop until an instruction needs the general path
// (false) or the budget is spent at a charged instruction (true: the
// State yields with its pc on that instruction).
//
// The loop keeps pc, sp, the top frame, its base and code and the stack
// in locals, and indexes the code, the stack and the frame table without
// bounds checks (unchecked.go says why that is sound and how to build a
// checked loop); the step count stays in st (it changes only at charged
// instructions). The calls of known functions and the return check
// their conditions (handing over to step, with the state saved, if one
// fails) and switch the locals to the new frame. The closure calls save
// the state first and reload it afterwards, so that their
// register-hungry work does not push the loop's variables out of
// registers. pc is advanced by each case, never before the switch, so
// that an exit needs no copy of the instruction's pc.
func (st *State) exec() (yield bool) {
	var (
		fr     *frame
		code   codeRef // fr.fn.code
		bp     int
		stk    stackRef // st.stack
		pc, sp int
		rv     value.Value // the value being returned, at ret
	)
reload:
	fr = &st.frames[len(st.frames)-1]
	code = codeOf(fr.fn.code)
	bp = fr.base
	stk = stackOf(st.stack)
	pc, sp = fr.pc, st.sp
	for {
		in := instrAt(code, pc)
		switch in.op & opMask {
		case bytecode.NOP:
			pc++
		case bytecode.POP:
			sp--
			pc++
		case bytecode.DUP:
			*slot(stk, sp) = *slot(stk, sp-1)
			sp++
			pc++
		case bytecode.SWAP:
			*slot(stk, sp-1), *slot(stk, sp-2) = *slot(stk, sp-2), *slot(stk, sp-1)
			pc++
		case bytecode.UNIT:
			*slot(stk, sp) = value.Value{} // Unit
			sp++
			pc++
		case bytecode.TRUE:
			*slot(stk, sp) = value.Bool(true)
			sp++
			pc++
		case bytecode.FALSE:
			*slot(stk, sp) = value.Bool(false)
			sp++
			pc++
		case bytecode.INT:
			*slot(stk, sp) = value.Int(int64(in.a))
			sp++
			pc++
		case bytecode.CONST:
			*slot(stk, sp) = st.img.Prog.Consts[in.a]
			sp++
			pc++
		case bytecode.LOAD:
			*slot(stk, sp) = *slot(stk, bp+int(in.a))
			sp++
			pc++
		case bytecode.STORE:
			sp--
			*slot(stk, bp+int(in.a)) = *slot(stk, sp)
			pc++
		case bytecode.FREE:
			*slot(stk, sp) = fr.free[in.a]
			sp++
			pc++
		case bytecode.FUNC:
			*slot(stk, sp) = st.img.funcVals[in.a]
			sp++
			pc++
		case bytecode.NATIVE:
			*slot(stk, sp) = st.img.nativeVals[in.a]
			sp++
			pc++

		case bytecode.CALL:
			goto call
		case loadCall: // LOAD a; CALL
			*slot(stk, sp) = *slot(stk, bp+int(in.a))
			sp++
			pc++ // the CALL; in carries its callee and argument count
			goto call
		case loadIntCall, loadIntCall + 1: // LOAD a; INT k; ADD|SUB; CALL
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
				continue
			}
			if in.op == loadIntCall {
				*slot(stk, sp) = value.Int(x.AsInt() + int64(in.b))
			} else {
				*slot(stk, sp) = value.Int(x.AsInt() - int64(in.b))
			}
			sp++
			pc += 3 // the CALL; in carries its callee and argument count
			goto call
		case bytecode.CALL_VALUE:
			if st.steps >= st.limit {
				goto yield
			}
			fr.pc, st.sp = pc, sp
			if !st.callClosure(int(in.a)) {
				return false
			}
			goto reload
		case bytecode.TAIL_CALL:
			goto tailCall
		case loadTailCall: // LOAD a; TAIL_CALL
			*slot(stk, sp) = *slot(stk, bp+int(in.a))
			sp++
			pc++ // the TAIL_CALL; in carries its callee and argument count
			goto tailCall
		case loadIntTailCall, loadIntTailCall + 1: // LOAD a; INT k; ADD|SUB; TAIL_CALL
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
				continue
			}
			if in.op == loadIntTailCall {
				*slot(stk, sp) = value.Int(x.AsInt() + int64(in.b))
			} else {
				*slot(stk, sp) = value.Int(x.AsInt() - int64(in.b))
			}
			sp++
			pc += 3 // the TAIL_CALL; in carries its callee and argument count
			goto tailCall
		case bytecode.TAIL_CALL_VALUE:
			if st.steps >= st.limit {
				goto yield
			}
			fr.pc, st.sp = pc, sp
			if !st.tailCallClosure(int(in.a)) {
				return false
			}
			goto reload
		case bytecode.RETURN:
			sp--
			rv = *slot(stk, sp)
			goto ret
		case loadReturn: // LOAD a; RETURN
			rv = *slot(stk, bp+int(in.a))
			pc++
			goto ret
		case opReturn, opReturn + 1: // ADD|SUB; RETURN
			x, y := *slot(stk, sp-2), *slot(stk, sp-1)
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp -= 2
			if in.op == opReturn {
				rv = value.Int(x.AsInt() + y.AsInt())
			} else {
				rv = value.Int(x.AsInt() - y.AsInt())
			}
			pc++
			goto ret
		case bytecode.JUMP:
			if t := int(in.a); t > pc {
				pc = t
			} else {
				if st.steps >= st.limit {
					goto yield
				}
				st.steps++
				pc = t
			}
		case bytecode.JUMP_IF_FALSE:
			if slot(stk, sp-1).AsBool() {
				sp--
				pc++
			} else if t := int(in.a); t > pc {
				sp--
				pc = t
			} else {
				goto slow
			}
		case bytecode.JUMP_IF_TRUE:
			if !slot(stk, sp-1).AsBool() {
				sp--
				pc++
			} else if t := int(in.a); t > pc {
				sp--
				pc = t
			} else {
				goto slow
			}

		case bytecode.ADD:
			x, y := *slot(stk, sp-2), *slot(stk, sp-1)
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			*slot(stk, sp-1) = value.Int(x.AsInt() + y.AsInt())
			pc++
		case bytecode.SUB:
			x, y := *slot(stk, sp-2), *slot(stk, sp-1)
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			*slot(stk, sp-1) = value.Int(x.AsInt() - y.AsInt())
			pc++
		case bytecode.MUL:
			x, y := slot(stk, sp-2), slot(stk, sp-1)
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp--
			*x = value.Int(x.AsInt() * y.AsInt())
			pc++
		case bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE:
			// Out of line (compareTop), as the closure calls: inline, its
			// register use made the compiler spill two of the loop's
			// variables at every dispatch. The common comparisons are
			// fused with their operands or their jump anyway.
			fr.pc, st.sp = pc, sp
			if !st.compareTop(in.c) {
				return false
			}
			goto reload
		case bytecode.EQ_CONST: // of an Int constant (c = 1), its value in b
			x := slot(stk, sp-1)
			if in.c == 0 || !x.IsInt() {
				goto slow
			}
			*x = value.Bool(x.AsInt() == int64(in.b))
			pc++
		case bytecode.NOT:
			x := *slot(stk, sp-1)
			if x.Kind() != value.KBool {
				goto slow
			}
			*slot(stk, sp-1) = value.Bool(!x.AsBool())
			pc++

		case bytecode.TEST_TAG:
			d, ok := slot(stk, sp-1).Data()
			*slot(stk, sp-1) = value.Bool(ok && d.Tag == int(in.a))
			pc++
		case bytecode.TEST_KIND:
			*slot(stk, sp-1) = value.Bool(slot(stk, sp-1).Kind() == value.Kind(in.a))
			pc++
		case bytecode.ELEM:
			x := *slot(stk, sp-1)
			i := int(in.a)
			if d, ok := x.Data(); ok && i < len(d.Fields) {
				*slot(stk, sp-1) = d.Fields[i]
			} else if t, ok := x.Tuple(); ok && i < len(t.Elems) {
				*slot(stk, sp-1) = t.Elems[i]
			} else {
				goto slow
			}
			pc++
		case bytecode.LIST_LEN:
			l, ok := slot(stk, sp-1).List()
			if !ok {
				goto slow
			}
			*slot(stk, sp-1) = value.Int(int64(len(l.Items)))
			pc++
		case bytecode.LIST_ELEM:
			l, ok := slot(stk, sp-1).List()
			if !ok || int(in.a) >= len(l.Items) {
				goto slow
			}
			*slot(stk, sp-1) = l.Items[in.a]
			pc++
		case bytecode.DATA:
			if in.c != 0 {
				// A variant with fields: an allocation, made out of line
				// with the state saved, as the closure calls.
				fr.pc, st.sp = pc, sp
				st.newData(in)
				goto reload
			}
			vs := st.img.nullary[in.a]
			if int(in.b) >= len(vs) || vs[in.b].Kind() != value.KData {
				goto slow
			}
			*slot(stk, sp) = vs[in.b]
			sp++
			pc++

		case loadIntOp: // LOAD; INT; ADD
			x := *slot(stk, bp+int(in.a))
			if x.IsInt() {
				x = value.Int(x.AsInt() + int64(in.b))
				pc += 2
			}
			*slot(stk, sp) = x // or just the LOAD
			sp++
			pc++
		case loadIntOp + 1: // LOAD; INT; SUB
			x := *slot(stk, bp+int(in.a))
			if x.IsInt() {
				x = value.Int(x.AsInt() - int64(in.b))
				pc += 2
			}
			*slot(stk, sp) = x // or just the LOAD
			sp++
			pc++
		case loadIntOp + 2, loadIntOp + 3, loadIntOp + 4, loadIntOp + 5, loadIntOp + 6, loadIntOp + 7:
			x := *slot(stk, bp+int(in.a))
			if x.IsInt() {
				x = value.Bool(cmpHolds(in.c, x.AsInt(), int64(in.b)))
				pc += 2
			}
			*slot(stk, sp) = x // or just the LOAD
			sp++
			pc++
		case loadIntCmpJump + 2: // LOAD a; INT k; LT; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() < int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadIntCmpJump + 3: // LOAD a; INT k; LE; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() <= int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadIntCmpJump + 4: // LOAD a; INT k; GT; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() > int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadIntCmpJump + 5: // LOAD a; INT k; GE; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() >= int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadIntCmpJump + 6: // LOAD a; INT k; EQ; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() == int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadIntCmpJump + 7: // LOAD a; INT k; NE; JUMP_IF_FALSE
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() != int64(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case guardReturn + 2: // LOAD a; INT k; LT; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() < int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case guardReturn + 3: // LOAD a; INT k; LE; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() <= int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case guardReturn + 4: // LOAD a; INT k; GT; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() > int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case guardReturn + 5: // LOAD a; INT k; GE; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() >= int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case guardReturn + 6: // LOAD a; INT k; EQ; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() == int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case guardReturn + 7: // LOAD a; INT k; NE; JUMP_IF_FALSE t; LOAD r; RETURN
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() != int64(in.b) {
				rv = *slot(stk, bp+int(instrAt(code, pc+4).a))
				pc += 5
				goto ret
			} else {
				pc = int(in.c)
			}
		case loadLoadOp: // LOAD; LOAD; ADD
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if x.IsInt() && y.IsInt() {
				x = value.Int(x.AsInt() + y.AsInt())
				pc += 2
			}
			*slot(stk, sp) = x // or just the first LOAD
			sp++
			pc++
		case loadLoadOp + 1: // LOAD; LOAD; SUB
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if x.IsInt() && y.IsInt() {
				x = value.Int(x.AsInt() - y.AsInt())
				pc += 2
			}
			*slot(stk, sp) = x // or just the first LOAD
			sp++
			pc++
		case loadLoadOp + 2, loadLoadOp + 3, loadLoadOp + 4, loadLoadOp + 5, loadLoadOp + 6, loadLoadOp + 7:
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if x.IsInt() && y.IsInt() {
				x = value.Bool(cmpHolds(in.c, x.AsInt(), y.AsInt()))
				pc += 2
			}
			*slot(stk, sp) = x // or just the first LOAD
			sp++
			pc++
		case loadLoadCmpJump + 2: // LOAD a; LOAD b; LT; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() < y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadLoadCmpJump + 3: // LOAD a; LOAD b; LE; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() <= y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadLoadCmpJump + 4: // LOAD a; LOAD b; GT; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() > y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadLoadCmpJump + 5: // LOAD a; LOAD b; GE; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() >= y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadLoadCmpJump + 6: // LOAD a; LOAD b; EQ; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() == y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case loadLoadCmpJump + 7: // LOAD a; LOAD b; NE; JUMP_IF_FALSE
			x, y := *slot(stk, bp+int(in.a)), *slot(stk, bp+int(in.b))
			if !x.IsInt() || !y.IsInt() {
				*slot(stk, sp) = x // just the first LOAD
				sp++
				pc++
			} else if x.AsInt() != y.AsInt() {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case cmpJump + 2, cmpJump + 3, cmpJump + 4, cmpJump + 5, cmpJump + 6, cmpJump + 7:
			x, y := slot(stk, sp-2), slot(stk, sp-1)
			if !x.IsInt() || !y.IsInt() {
				goto slow
			}
			sp -= 2
			if cmpHolds(in.c, x.AsInt(), y.AsInt()) {
				pc += 2
			} else {
				pc = int(in.a)
			}

		case loadTestTagJump: // LOAD a; TEST_TAG t; JUMP_IF_FALSE
			if d, ok := slot(stk, bp+int(in.a)).Data(); ok && d.Tag == int(in.b) {
				pc += 3
			} else {
				pc = int(in.c)
			}
		case loadElemStore: // LOAD a; ELEM i; STORE b
			x := *slot(stk, bp+int(in.a))
			i := int(in.b)
			if d, ok := x.Data(); ok && i < len(d.Fields) {
				*slot(stk, bp+int(in.c)) = d.Fields[i]
			} else if t, ok := x.Tuple(); ok && i < len(t.Elems) {
				*slot(stk, bp+int(in.c)) = t.Elems[i]
			} else {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
				continue
			}
			pc += 3
		case storeLoad: // STORE a; LOAD b
			*slot(stk, bp+int(in.a)) = *slot(stk, sp-1)
			*slot(stk, sp-1) = *slot(stk, bp+int(in.b))
			pc += 2
		case loadEqConstJump: // LOAD a; EQ_CONST (the Int b); JUMP_IF_FALSE c
			x := *slot(stk, bp+int(in.a))
			if !x.IsInt() {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
			} else if x.AsInt() == int64(in.b) {
				pc += 3
			} else {
				pc = int(in.c)
			}
		case boolReturn: // TRUE|FALSE; RETURN
			rv = value.Bool(in.b != 0)
			pc++
			goto ret
		case unitReturn: // UNIT; RETURN
			rv = value.Value{} // Unit
			pc++
			goto ret
		case storeTestTag: // STORE a; LOAD a; TEST_TAG b; JUMP_IF_FALSE c
			x := slot(stk, bp+int(in.a))
			sp--
			*x = *slot(stk, sp)
			if d, ok := x.Data(); ok && d.Tag == int(in.b) {
				pc += 4
			} else {
				pc = int(in.c)
			}
		case jumpElseJump: // JUMP_IF_FALSE a; JUMP b
			sp--
			if !slot(stk, sp).AsBool() {
				pc = int(in.a)
			} else if t := int(in.b); t > pc+1 {
				pc = t
			} else {
				pc++ // on the JUMP, which is charged
				if st.steps >= st.limit {
					goto yield
				}
				st.steps++
				pc = t
			}
		case loadLoad: // LOAD a; LOAD b
			*slot(stk, sp) = *slot(stk, bp+int(in.a))
			*slot(stk, sp+1) = *slot(stk, bp+int(in.b))
			sp += 2
			pc += 2
		case loadElems2Store: // LOAD a; ELEM 0; STORE b; LOAD a; ELEM 1; STORE c
			x := *slot(stk, bp+int(in.a))
			if d, ok := x.Data(); ok && len(d.Fields) >= 2 {
				*slot(stk, bp+int(in.b)) = d.Fields[0]
				*slot(stk, bp+int(in.c)) = d.Fields[1]
			} else if t, ok := x.Tuple(); ok && len(t.Elems) >= 2 {
				*slot(stk, bp+int(in.b)) = t.Elems[0]
				*slot(stk, bp+int(in.c)) = t.Elems[1]
			} else {
				*slot(stk, sp) = x // just the LOAD
				sp++
				pc++
				continue
			}
			pc += 6
		case opMask: // no such opcode: makes the jump table cover 0..opMask
			goto slow

		// The actor instructions of every message run from here, through
		// the Run's host (actor.go, "from the loop"), and the loop goes on
		// after them (they read their operands themselves: using in
		// here would cost every dispatch a register).
		case bytecode.SEND:
			if st.steps >= st.limit {
				goto yield
			}
			fr.pc, st.sp = pc, sp
			if !st.sendFromLoop(fr) {
				return true
			}
			goto reload
		case bytecode.RECV_START:
			if st.steps >= st.limit {
				goto yield
			}
			fr.pc, st.sp = pc, sp
			if !st.recvFromLoop(fr) {
				return true
			}
			goto reload
		case bytecode.RECV_TAKE:
			if st.steps >= st.limit {
				goto yield
			}
			fr.pc, st.sp = pc, sp
			if !st.recvTakeFromLoop(fr) {
				return true
			}
			goto reload

		default:
			goto slow
		}
		continue
		// The calls and the return, shared by their instruction and
		// the fused instructions that end with them: pc is the position
		// of the CALL, TAIL_CALL or RETURN, in.fn and in.c the callee and
		// the argument count; a return has taken its operand off the
		// stack into rv.
	call:
		{
			if st.steps >= st.limit {
				goto yield
			}
			callee := in.fn
			base := sp - int(in.c)
			top := base + callee.locals
			n := len(st.frames)
			// The frame table's capacity never exceeds the depth limit.
			if n >= cap(st.frames) || base+callee.need > len(st.stack) {
				goto slow
			}
			st.steps++
			for i := sp; i < top; i++ {
				*slot(stk, i) = value.Value{} // Unit, without loading the global
			}
			fr.pc = pc + 1
			setDepth(st, n+1)
			// A frame slot above the top has no defers, no captured
			// values and mode normal (every pop leaves it so).
			fr = pushed(st, fr, n)
			fr.fn, fr.base, fr.retSP = callee, base, base // fr.pc is written when the loop leaves the frame
			code, pc, bp, sp = codeOf(callee.code), 0, base, top
			continue
		}
	tailCall:
		{
			if st.steps >= st.limit {
				goto yield
			}
			callee := in.fn
			n := int(in.c)
			top := bp + callee.locals
			if bp+callee.need > len(st.stack) {
				goto slow
			}
			st.steps++
			for i := 0; i < n; i++ {
				*slot(stk, bp+i) = *slot(stk, sp-n+i)
			}
			for i := bp + n; i < top; i++ {
				*slot(stk, i) = value.Value{} // Unit, without loading the global
			}
			fr.fn, fr.pc, fr.free = callee, 0, nil
			code, pc, sp = codeOf(callee.code), 0, top
			continue
		}
	ret:
		{
			if fr.slowRet { // a frame with defers has slowRet too
				*slot(stk, sp) = rv // the RETURN's operand
				sp++
				goto slow
			}
			n := len(st.frames)
			retSP := fr.retSP
			*slot(stk, retSP) = rv
			if fr.free != nil {
				fr.free = nil
			}
			setDepth(st, n-1)
			// The bottom frame returns on the general path (slowRet),
			// so fr has a caller.
			fr = popped(st, fr, n-1)
			code, pc, bp, sp = codeOf(fr.fn.code), fr.pc, fr.base, retSP+1
			continue
		}
	}
slow:
	fr.pc = pc
	st.sp = sp
	return false
yield:
	fr.pc = pc
	st.sp = sp
	return true
}

// cmpHolds reports whether a comparison whose outcomes (cmpOutcomes)
// are set holds for x and y, without branches and with constant shifts
// only (a variable shift would tie up CX).
func cmpHolds(set int, x, y int64) bool {
	var lt, eq, gt int
	if x < y {
		lt = 1
	}
	if x == y {
		eq = 1
	}
	if x > y {
		gt = 1
	}
	return (lt&set|eq&(set>>1)|gt&(set>>2))&1 != 0
}

// compareTop is the fast path of a comparison (LT..NE) whose outcomes
// (cmpOutcomes) are set, with the top frame's pc and st.sp saved: if the
// two operands on top of the stack are Ints it replaces them by the
// result, moves the pc on and reports true; otherwise it reports false
// and changes nothing.
//
//go:noinline
func (st *State) compareTop(set int) bool {
	sp := st.sp
	x, y := st.stack[sp-2], st.stack[sp-1]
	if !x.IsInt() || !y.IsInt() {
		return false
	}
	st.stack[sp-2] = value.Bool(cmpHolds(set, x.AsInt(), y.AsInt()))
	st.sp = sp - 1
	st.frames[len(st.frames)-1].pc++
	return true
}

// newData executes DATA with in.c > 0 fields (type in.a, tag in.b),
// with the top frame's pc and st.sp saved: it replaces the fields on top
// of the stack by the variant and moves the pc on. DATA is not charged.
//
//go:noinline
func (st *State) newData(in *instr) {
	n, sp := in.c, st.sp
	fields := st.stack[sp-n : sp]
	fields[0] = value.NewDataCopy(st.img.types[in.a], in.b, fields)
	st.sp = sp - n + 1
	st.frames[len(st.frames)-1].pc++
}

// callClosure is the fast path of CALL_VALUE with n arguments (a step
// is left; the top frame's pc and st.sp are saved): it pushes the frame
// of a closure call that needs no growth and reports true, or reports
// false and changes nothing.
func (st *State) callClosure(n int) bool {
	stack, sp := st.stack, st.sp
	c, ok := stack[sp-n-1].Closure()
	fns := st.img.fns
	if !ok || c.Fn < 0 || c.Fn >= len(fns) {
		return false
	}
	callee := fns[c.Fn]
	base := sp - n
	nfr := len(st.frames)
	if callee.Params != n || len(c.Free) != callee.Captures ||
		nfr >= cap(st.frames) || base+callee.need > len(stack) {
		return false
	}
	st.steps++
	top := base + callee.locals
	for i := sp; i < top; i++ {
		stack[i] = value.Unit
	}
	frames := st.frames[:nfr+1]
	st.frames = frames
	frames[nfr-1].pc++
	fr := &frames[nfr] // no defers, mode normal (see vm.go)
	fr.fn, fr.pc, fr.base, fr.retSP, fr.free = callee, 0, base, base-1, c.Free
	st.sp = top
	return true
}

// tailCallClosure is the fast path of TAIL_CALL_VALUE with n arguments,
// as callClosure.
func (st *State) tailCallClosure(n int) bool {
	stack, sp := st.stack, st.sp
	c, ok := stack[sp-n-1].Closure()
	fns := st.img.fns
	if !ok || c.Fn < 0 || c.Fn >= len(fns) {
		return false
	}
	callee := fns[c.Fn]
	fr := &st.frames[len(st.frames)-1]
	bp := fr.base
	if callee.Params != n || len(c.Free) != callee.Captures || bp+callee.need > len(stack) {
		return false
	}
	st.steps++
	for i := 0; i < n; i++ {
		stack[bp+i] = stack[sp-n+i]
	}
	top := bp + callee.locals
	for i := bp + n; i < top; i++ {
		stack[i] = value.Unit
	}
	fr.fn, fr.pc, fr.free = callee, 0, c.Free
	st.sp = top
	return true
}
