package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// The general path
//
// step executes the one instruction at the top frame's pc, as the
// program has it (the program's own code, not the fast loop's internal
// code: fuse.go), with every case handled: the operand kinds the fast
// loop does not take, calls that grow the stack or the frame table,
// natives, allocation, the actor instructions, faults. It works on the State's
// fields (the fast loop saved its registers before handing over) and
// saves them again, so the fast loop can resume after it.

// spend charges one step for an instruction that is charged (a call, a
// backward jump, an actor instruction), or reports false when the budget
// is spent: the instruction is then not executed, and the State yields
// with its pc on it.
func (st *State) spend() bool {
	if st.steps >= st.limit {
		return false
	}
	st.steps++
	return true
}

// addWork adds the work of an instruction whose cost grows with its
// operands.
func (st *State) addWork(work int) { st.steps += int64(work) }

// parkOnNative parks the State on the native call it just made, which
// answered fault.Park (a supervisor request that waits for its answer):
// the pc stays on the call, so the next Run calls the native again with
// the same arguments.
func (st *State) parkOnNative(fr *frame, pc, sp int) (Outcome, bool) {
	fr.pc = pc - 1
	st.sp = sp
	return Outcome{Status: StatusPark}, true
}

// nativeFailed handles the fault a native answered: fault.Park parks
// the State on the call, any other fault is raised.
func (st *State) nativeFailed(fr *frame, pc, sp int, nf *fault.Fault) (Outcome, bool) {
	if nf.IsPark() {
		return st.parkOnNative(fr, pc, sp)
	}
	return st.fail(fr, pc, sp, nf)
}

// nativeCallee resolves fv, the callee of CALL_VALUE or TAIL_CALL_VALUE
// when it is not a closure, to the native it names.
func (st *State) nativeCallee(fv value.Value) (*native.Native, *fault.Fault) {
	c, ok := fv.NativeFunc()
	if !ok {
		return nil, internalFault("call of a %s value", fv.Kind())
	}
	if c.ID < 0 || c.ID >= len(st.img.natives) {
		return nil, internalFault("call of an unknown native %d", c.ID)
	}
	return st.img.natives[c.ID], nil
}

// callNative calls nat on args and charges the work it reports.
func (st *State) callNative(host Host, nat *native.Native, args []value.Value) (value.Value, *fault.Fault) {
	res, nf, work := nat.CallWork(host, args)
	st.addWork(int(min(work, maxCharge)))
	return res, nf
}

// step executes the instruction at the top frame's pc (a normal frame).
// It returns stop = true with the outcome Run reports when the State
// yields, parks or finishes.
func (st *State) step(host Host) (Outcome, bool) {
	fr := &st.frames[len(st.frames)-1]
	code := fr.fn.Code
	pc := fr.pc
	bp := fr.base
	sp := st.sp
	stack := st.stack
	consts := st.img.Prog.Consts
	types := st.img.types
	in := code[pc]
	pc++
	switch in.Op {
	case bytecode.NOP:
	case bytecode.POP:
		sp--
	case bytecode.DUP:
		stack[sp] = stack[sp-1]
		sp++
	case bytecode.SWAP:
		stack[sp-1], stack[sp-2] = stack[sp-2], stack[sp-1]
	case bytecode.UNIT:
		stack[sp] = value.Unit
		sp++
	case bytecode.TRUE:
		stack[sp] = value.Bool(true)
		sp++
	case bytecode.FALSE:
		stack[sp] = value.Bool(false)
		sp++
	case bytecode.INT:
		stack[sp] = value.Int(int64(in.A))
		sp++
	case bytecode.CONST:
		stack[sp] = consts[in.A]
		sp++

	case bytecode.LOAD:
		stack[sp] = stack[bp+int(in.A)]
		sp++
	case bytecode.STORE:
		sp--
		stack[bp+int(in.A)] = stack[sp]
	case bytecode.FREE:
		stack[sp] = fr.free[in.A]
		sp++
	case bytecode.FUNC:
		stack[sp] = st.img.funcVals[in.A]
		sp++
	case bytecode.CLOSURE:
		n := int(in.B)
		free := make([]value.Value, n)
		copy(free, stack[sp-n:sp])
		sp -= n
		stack[sp] = value.NewClosure(int(in.A), free)
		sp++
	case bytecode.NATIVE:
		stack[sp] = st.img.nativeVals[in.A]
		sp++

	case bytecode.CALL:
		if !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		fr.pc = pc
		base := sp - int(in.B)
		if f := st.pushFrame(st.img.fns[in.A], base, base, nil); f != nil {
			return st.fail(fr, pc, sp, f)
		}
		st.sp = base + st.img.fns[in.A].Locals
		return Outcome{}, false
	case bytecode.CALL_VALUE, bytecode.TAIL_CALL_VALUE:
		if !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		tail := in.Op == bytecode.TAIL_CALL_VALUE
		n := int(in.A)
		fv := stack[sp-n-1]
		if c, ok := fv.Closure(); ok {
			callee, f := st.closureCallee(c, n)
			switch {
			case f != nil:
			case tail:
				f = st.tailCall(callee, c.Free, n, sp)
			default:
				fr.pc = pc
				base := sp - n
				f = st.pushFrame(callee, base, base-1, c.Free)
			}
			if f != nil {
				return st.fail(fr, pc, sp, f)
			}
			if !tail {
				st.sp = st.frames[len(st.frames)-1].base + callee.Locals
			}
			return Outcome{}, false
		}
		nat, f := st.nativeCallee(fv)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		res, nf := st.callNative(host, nat, stack[sp-n:sp])
		if nf != nil {
			return st.nativeFailed(fr, pc, sp, nf)
		}
		if tail {
			fr.pc = pc
			st.sp = sp
			preempt := st.preempt
			if o, done := st.returnValue(res); done || !preempt {
				return o, done
			}
			st.preempt = false
			return Outcome{Status: StatusYield}, true
		}
		sp -= n + 1
		stack[sp] = res
		sp++
		if st.preempt {
			return st.preempted(fr, pc, sp)
		}
	case bytecode.CALL_NATIVE:
		if !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		n := int(in.B)
		res, nf := st.callNative(host, st.img.natives[in.A], stack[sp-n:sp])
		if nf != nil {
			return st.nativeFailed(fr, pc, sp, nf)
		}
		sp -= n
		stack[sp] = res
		sp++
		if st.preempt {
			return st.preempted(fr, pc, sp)
		}
	case bytecode.TAIL_CALL:
		if !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		callee := st.img.fns[in.A]
		if f := st.tailCall(callee, nil, int(in.B), sp); f != nil {
			return st.fail(fr, pc, sp, f)
		}
		return Outcome{}, false
	case bytecode.RETURN:
		fr.pc = pc
		st.sp = sp
		return st.returnValue(stack[sp-1])

	case bytecode.JUMP:
		if int(in.A) < pc && !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		pc = int(in.A)
	case bytecode.JUMP_IF_FALSE, bytecode.JUMP_IF_TRUE:
		taken := stack[sp-1].AsBool() == (in.Op == bytecode.JUMP_IF_TRUE)
		if taken && int(in.A) < pc && !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		sp--
		if taken {
			pc = int(in.A)
		}

	case bytecode.ADD, bytecode.SUB, bytecode.MUL, bytecode.DIV, bytecode.MOD, bytecode.POW,
		bytecode.BITAND, bytecode.BITOR, bytecode.BITXOR, bytecode.SHL, bytecode.SHR:
		x, y := stack[sp-2], stack[sp-1]
		sp--
		r, f := arith(in.Op, x, y)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = r
	case bytecode.EQ, bytecode.NE:
		x, y := stack[sp-2], stack[sp-1]
		sp--
		eq, cost := equal(x, y)
		st.addWork(cost)
		if in.Op == bytecode.NE {
			eq = !eq
		}
		stack[sp-1] = value.Bool(eq)
	case bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE:
		x, y := stack[sp-2], stack[sp-1]
		sp--
		r, f := order(in.Op, x, y)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = value.Bool(r)
	case bytecode.IN:
		x, xs := stack[sp-2], stack[sp-1]
		sp--
		r, cost, f := member(x, xs)
		st.addWork(cost)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = value.Bool(r)
	case bytecode.NEG:
		x := stack[sp-1]
		switch x.Kind() {
		case value.KInt:
			stack[sp-1] = value.Int(-x.AsInt())
		case value.KFloat:
			stack[sp-1] = value.Float(-x.AsFloat())
		default:
			return st.fail(fr, pc, sp, internalFault("NEG of a %s value", x.Kind()))
		}
	case bytecode.NOT:
		x := stack[sp-1]
		if x.Kind() != value.KBool {
			return st.fail(fr, pc, sp, internalFault("NOT of a %s value", x.Kind()))
		}
		stack[sp-1] = value.Bool(!x.AsBool())
	case bytecode.BITNOT:
		x := stack[sp-1]
		if x.Kind() != value.KInt {
			return st.fail(fr, pc, sp, internalFault("BITNOT of a %s value", x.Kind()))
		}
		stack[sp-1] = value.Int(^x.AsInt())

	case bytecode.TUPLE:
		n := int(in.A)
		elems := make([]value.Value, n)
		copy(elems, stack[sp-n:sp])
		sp -= n
		stack[sp] = value.NewTuple(elems...)
		sp++
	case bytecode.LIST:
		n := int(in.A)
		var items []value.Value
		if n > 0 {
			items = make([]value.Value, n)
			copy(items, stack[sp-n:sp])
		}
		sp -= n
		stack[sp] = value.NewList(items)
		sp++
	case bytecode.DATA:
		t := types[in.A]
		n := len(t.Variants[in.B].Fields)
		if n == 0 {
			stack[sp] = st.img.nullary[in.A][in.B]
			sp++
			break
		}
		stack[sp-n] = value.NewDataCopy(t, int(in.B), stack[sp-n:sp])
		sp -= n - 1
	case bytecode.RANGE:
		lo, hi := stack[sp-2], stack[sp-1]
		sp--
		if !lo.IsInt() || !hi.IsInt() {
			return st.fail(fr, pc, sp, internalFault("RANGE of %s and %s", lo.Kind(), hi.Kind()))
		}
		stack[sp-1] = value.NewRange(lo.AsInt(), hi.AsInt(), in.A == 1)

	case bytecode.TEST_TAG:
		d, ok := stack[sp-1].Data()
		stack[sp-1] = value.Bool(ok && d.Tag == int(in.A))
	case bytecode.TEST_KIND:
		stack[sp-1] = value.Bool(stack[sp-1].Kind() == value.Kind(in.A))
	case bytecode.TEST_TYPE:
		d, ok := stack[sp-1].Data()
		stack[sp-1] = value.Bool(ok && d.Type == types[in.A])
	case bytecode.EQ_CONST:
		eq, cost := equal(stack[sp-1], consts[in.A])
		st.addWork(cost)
		stack[sp-1] = value.Bool(eq)
	case bytecode.ELEM:
		r, f := elem(stack[sp-1], int(in.A))
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = r
	case bytecode.FIELD:
		r, f := field(stack[sp-1], consts[in.A].AsString())
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = r
	case bytecode.LIST_LEN:
		l, ok := stack[sp-1].List()
		if !ok {
			return st.fail(fr, pc, sp, internalFault("LIST_LEN of a %s value", stack[sp-1].Kind()))
		}
		stack[sp-1] = value.Int(int64(len(l.Items)))
	case bytecode.LIST_ELEM:
		l, ok := stack[sp-1].List()
		if !ok || int(in.A) >= len(l.Items) {
			return st.fail(fr, pc, sp, internalFault("LIST_ELEM %d of a %s value", in.A, stack[sp-1].Kind()))
		}
		stack[sp-1] = l.Items[in.A]
	case bytecode.LIST_SLICE:
		l, ok := stack[sp-1].List()
		if !ok || int(in.A) > len(l.Items) {
			return st.fail(fr, pc, sp, internalFault("LIST_SLICE %d of a %s value", in.A, stack[sp-1].Kind()))
		}
		stack[sp-1] = l.Drop(int(in.A))
	case bytecode.INDEX:
		xs, i := stack[sp-2], stack[sp-1]
		sp--
		l, ok := xs.List()
		if !ok || !i.IsInt() {
			return st.fail(fr, pc, sp, internalFault("INDEX of %s by %s", xs.Kind(), i.Kind()))
		}
		if i.AsInt() < 0 || i.AsInt() >= int64(len(l.Items)) {
			return st.fail(fr, pc, sp, fault.New(fault.Index))
		}
		stack[sp-1] = l.Items[i.AsInt()]
	case bytecode.UPDATE:
		r, v := stack[sp-2], stack[sp-1]
		sp--
		nr, f := update(r, consts[in.A].AsString(), v)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = nr

	case bytecode.ITER:
		it, f := newIter(stack[sp-1])
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		stack[sp-1] = it.value()
	case bytecode.ITER_NEXT:
		it, ok := stack[bp+int(in.A)].Ref().(*iter)
		if !ok {
			return st.fail(fr, pc, sp, internalFault("ITER_NEXT on a %s value", stack[bp+int(in.A)].Kind()))
		}
		if v, more := it.next(); more {
			stack[sp] = v
			sp++
		} else {
			if int(in.B) < pc && !st.spend() {
				return Outcome{Status: StatusYield}, true
			}
			pc = int(in.B)
		}
	case bytecode.INTERP:
		n := int(in.A)
		s, cost, f := interp(stack[sp-n : sp])
		st.addWork(cost)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		sp -= n
		stack[sp] = value.String(s)
		sp++
	case bytecode.DEFER:
		sp--
		if st.defers >= MaxDefers {
			return st.fail(fr, pc, sp, fault.New(fault.Resource))
		}
		if fr.cl == nil {
			fr.cl = &cleanup{}
			fr.slowRet = true // its return runs the defers
		}
		fr.cl.defers = append(fr.cl.defers, stack[sp])
		st.defers++
	case bytecode.FAIL:
		return st.fail(fr, pc, sp, internalFault("%s", consts[in.A].AsString()))

	default:
		// The actor opcodes (RECV_*, SPAWN, SEND, SELF): actor.go. run
		// sends them to actorStep directly; this is the same for a
		// caller of step.
		fr.pc = pc - 1
		st.sp = sp
		if code := st.actorStep(host, fr); code != actGoOn {
			return actOutcome(code), true
		}
		return Outcome{}, false
	}
	fr.pc = pc
	st.sp = sp
	return Outcome{}, false
}

// preempted saves the state after an operation during which the host
// asked for preemption (State.Preempt) and makes Run yield before the
// next instruction.
func (st *State) preempted(fr *frame, pc, sp int) (Outcome, bool) {
	fr.pc = pc
	st.sp = sp
	st.preempt = false
	return Outcome{Status: StatusYield}, true
}

// tailCall replaces the top frame by a call of callee (with captured
// values free) whose n arguments are the top n values below sp.
func (st *State) tailCall(callee *function, free []value.Value, n, sp int) *fault.Fault {
	fr := &st.frames[len(st.frames)-1]
	st.sp = sp
	stack, f := st.grow(fr.base + callee.Locals + callee.MaxStack)
	if f != nil {
		return f
	}
	copy(stack[fr.base:], stack[sp-n:sp])
	fr.fn, fr.free, fr.pc = callee, free, 0
	clear(stack[fr.base+n : fr.base+callee.Locals])
	st.sp = fr.base + callee.Locals
	return nil
}
