package vm

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Actor operations
//
// The actor opcodes (RECV_*, SPAWN, SEND, SELF, CALL_REPLY, CALL_WAIT,
// SEND_WAIT) are executed by the Host
// the State runs under; the VM only moves values between the operand
// stack and the host and decides control flow.
//
// The receive protocol (see bytecode/opcodes.go): RECV_START opens a wait
// (epoch, cursor at the oldest cell, timeout); RECV_PEEK pushes the cell
// at the cursor or jumps to the wait label; RECV_TAKE removes the cell at
// the cursor and ends the wait; RECV_SKIP moves the cursor past it;
// RECV_WAIT asks the host: Retry (cells arrived past the cursor: jump back
// to the scan label), Timeout (fall through into the timeout arm) or Park
// (the State returns StatusPark with its pc still on RECV_WAIT, so that
// when the scheduler resumes it the same question is asked again).

// Reduction costs of the actor operations beyond their one step, charged
// against the same budget as instructions (docs/reference/runtime.md#pitfalls-the-design-avoids).
const (
	SendCost  = 8
	SpawnCost = 64
)

// MaxTimeout is the largest receive timeout in milliseconds; a timeout
// outside 0..MaxTimeout is fault 8 (fault.Timeout).
const MaxTimeout = 600000

// SetTimeoutLimit makes ms the largest timeout of the image's receives
// and calls instead of MaxTimeout. morrow repl raises it: its virtual
// clock jumps to the next deadline, so a long timeout never really
// sleeps (issue 14: `after 1000000` answers at once there).
func (img *Image) SetTimeoutLimit(ms int64) { img.timeoutLimit = ms }

// maxTimeout is the image's largest timeout.
func (img *Image) maxTimeout() int64 {
	if img.timeoutLimit > 0 {
		return img.timeoutLimit
	}
	return MaxTimeout
}

// timeoutFault is fault 8 for a timeout outside 0..maxTimeout; its text
// names the image's own limit when SetTimeoutLimit changed it.
func (img *Image) timeoutFault() *fault.Fault {
	f := fault.New(fault.Timeout)
	if img.timeoutLimit > 0 {
		f.Msg = fmt.Sprintf("actor timeout must be between 0 and %d milliseconds", img.timeoutLimit)
	}
	return f
}

// What actorStep reports: go on, or stop the Run with StatusYield or
// StatusPark (an actor instruction's fault is raised and unwinds: go
// on). A code, not an Outcome: an Outcome returned by value is written
// and read back through memory in pieces, and the read stalls on the
// narrower writes (store forwarding fails) on every actor instruction.
const (
	actGoOn = iota
	actYield
	actPark
	actNext // recvBegin: RECV_START ran, the next instruction is not RECV_PEEK
)

// actOutcome is the Outcome of an actorStep code other than actGoOn.
func actOutcome(code uint8) Outcome {
	if code == actPark {
		return Outcome{Status: StatusPark}
	}
	return Outcome{Status: StatusYield}
}

// actorStep executes the actor instruction at the pc of fr (the top
// frame, normal), charging it as step does, and goes on with the next
// one while that is an actor instruction too (RECV_START is always
// followed by RECV_PEEK): the charges and the budget checks are those of
// executing them one at a time. It returns actYield or actPark when the
// State yields or parks.
func (st *State) actorStep(host Host, fr *frame) uint8 {
	for {
		pc := fr.pc
		in := fr.fn.Code[pc]
		if !st.spend() {
			return actYield
		}
		pc++
		sp := st.sp
		fr.pc = pc
		if in.Op == bytecode.RECV_START {
			peek := fr.fn.Code[pc]
			switch st.recvBegin(host, fr, int(in.A), int(in.B), peek.Op, int(peek.A)) {
			case actYield:
				return actYield
			case actNext:
				// Not the shape codegen emits: the next instruction runs
				// on its own.
				if !peek.Op.IsActor() {
					return actGoOn
				}
				continue
			}
			if fr.mode != modeNormal || !fr.fn.Code[fr.pc].Op.IsActor() {
				return actGoOn
			}
			continue
		}
		npc, nsp, cost, park, f := st.actorOp(host, in, pc, sp)
		if f != nil {
			st.fail(fr, pc, sp, f)
			return actGoOn
		}
		fr.pc, st.sp = npc, nsp
		st.addWork(cost)
		if park {
			st.preempt = false
			return actPark
		}
		if st.preempt {
			st.preempt = false
			return actYield
		}
		if !fr.fn.Code[npc].Op.IsActor() || fr.mode != modeNormal || fr != &st.frames[len(st.frames)-1] {
			return actGoOn
		}
	}
}

// Why exec returned true (State.exit).
const (
	exitYield = iota // the budget is spent (or an actor instruction yielded)
	exitPark         // an actor instruction parked the State
	exitAgain        // an actor instruction faulted: run goes on with the unwinding
)

// recvBegin runs RECV_START, whose step is charged and whose frame fr
// has its pc past it (a is its timeout slot or -1, b its receive_event
// flag), with one host call that also peeks (Host.RecvStart); when the
// next instruction (next, with jump target target) is RECV_PEEK it is
// charged and applied here too. It returns actYield when the State
// yields (the budget ending between the two drops the peek's answer:
// RECV_PEEK asks again when the State resumes, with the same result),
// actNext when the next instruction is not RECV_PEEK, and actGoOn
// otherwise, also after a fault (raised: fr unwinds).
func (st *State) recvBegin(host Host, fr *frame, a, b int, next bytecode.Opcode, target int) uint8 {
	pc, sp := fr.pc, st.sp
	var v value.Value
	var ok bool
	var f *fault.Fault
	if a < 0 {
		// No timeout to check: the host is asked directly.
		v, ok, f = host.RecvStart(-1, b != 0)
	} else {
		v, ok, f = st.recvStart(host, fr, a, b)
	}
	if f != nil {
		st.fail(fr, pc, sp, f)
		return actGoOn
	}
	if st.preempt {
		st.preempt = false
		return actYield
	}
	if next != bytecode.RECV_PEEK {
		return actNext
	}
	if !st.spend() {
		return actYield
	}
	pc++
	if !ok {
		pc = target
	} else {
		st.stack[sp] = v
		sp++
	}
	fr.pc, st.sp = pc, sp
	if st.preempt {
		st.preempt = false
		return actYield
	}
	return actGoOn
}

// recvStart checks the timeout of a RECV_START of frame fr (slot a, or
// -1 for none) and asks the host to begin the receive, returning the
// host's peek at the first cell.
func (st *State) recvStart(ah Host, fr *frame, a, b int) (value.Value, bool, *fault.Fault) {
	timeout := int64(-1)
	if a >= 0 {
		v := st.stack[fr.base+a]
		if v.Kind() != value.KInt {
			return value.Unit, false, internalFault("receive timeout is %s, not Int", v.Kind())
		}
		timeout = v.AsInt()
		if timeout < 0 || timeout > st.img.maxTimeout() {
			return value.Unit, false, st.img.timeoutFault()
		}
	}
	return ah.RecvStart(timeout, b != 0)
}

// The actor instructions the fast loop runs itself (exec.go), through
// the Run's host, instead of returning to run: the ones every message
// of a receive loop executes. Each is called with its step not yet
// charged but the budget checked (exec yields first otherwise) and the
// loop's pc and sp saved in the top frame fr, and charges, runs and
// stops exactly as actorStep would. It reports whether the loop goes on
// (the frame is still running normally); otherwise exec returns true
// and State.exit tells run what to do. Leaving and re-entering the loop
// around them cost a tenth of a counting loop's time
// (docs/performance.md).

// sendFromLoop runs SEND.
func (st *State) sendFromLoop(fr *frame) bool {
	st.steps++
	pc, sp := fr.pc+1, st.sp
	fr.pc = pc
	r, f := st.host.Send(st.stack[sp-2], st.stack[sp-1])
	if f != nil {
		st.fail(fr, pc, sp, f)
		st.exit = exitAgain
		return false
	}
	sp--
	st.stack[sp-1] = r
	st.stack[sp] = value.Unit
	st.sp = sp
	st.steps += SendCost
	return st.goOn()
}

// recvTakeFromLoop runs RECV_TAKE.
func (st *State) recvTakeFromLoop(fr *frame) bool {
	st.steps++
	fr.pc++
	st.host.RecvTake()
	return st.goOn()
}

// recvFromLoop runs RECV_START and the RECV_PEEK after it (recvBegin).
// RECV_START is never last (it is not terminal), so the instruction
// after it exists.
func (st *State) recvFromLoop(fr *frame) bool {
	code := fr.fn.code
	in, next := &code[fr.pc], &code[fr.pc+1]
	st.steps++
	fr.pc++
	switch st.recvBegin(st.host, fr, in.a, in.b, next.op, next.a) {
	case actYield:
		st.exit = exitYield
		return false
	}
	if fr.mode != modeNormal {
		st.exit = exitAgain
		return false
	}
	return true
}

// goOn ends an actor instruction run from the loop: a preemption the
// host asked for during it yields.
func (st *State) goOn() bool {
	if st.preempt {
		st.preempt = false
		st.exit = exitYield
		return false
	}
	return true
}

// actorOp executes one actor instruction other than RECV_START. It returns the new pc and sp,
// the extra steps to charge, whether the State parks, and a fault.
func (st *State) actorOp(ah Host, in bytecode.Instr, pc, sp int) (int, int, int, bool, *fault.Fault) {
	stack := st.stack
	switch in.Op {
	case bytecode.RECV_PEEK:
		v, ok := ah.RecvPeek()
		if !ok {
			return int(in.A), sp, 0, false, nil
		}
		stack[sp] = v
		sp++
	case bytecode.RECV_TAKE:
		ah.RecvTake()
	case bytecode.RECV_SKIP:
		ah.RecvSkip()
	case bytecode.RECV_WAIT:
		switch ah.RecvWait() {
		case WaitRetry:
			return int(in.A), sp, 0, false, nil
		case WaitTimeout:
		default:
			return pc - 1, sp, 0, true, nil
		}
	case bytecode.SPAWN:
		r, f := ah.Spawn(int(in.A), stack[sp-1])
		if f != nil {
			return pc, sp, 0, false, f
		}
		stack[sp-1] = r
		return pc, sp, SpawnCost, false, nil
	case bytecode.SEND:
		r, f := ah.Send(stack[sp-2], stack[sp-1])
		if f != nil {
			return pc, sp, 0, false, f
		}
		sp--
		stack[sp-1] = r
		stack[sp] = value.Unit
		return pc, sp, SendCost, false, nil
	case bytecode.SELF, bytecode.CALL_REPLY:
		var r value.Value
		var f *fault.Fault
		if in.Op == bytecode.SELF {
			r, f = ah.Self()
		} else {
			r, f = ah.CallReply()
		}
		if f != nil {
			return pc, sp, 0, false, f
		}
		stack[sp] = r
		sp++
	case bytecode.CALL_WAIT:
		t := stack[sp-2]
		if t.Kind() != value.KInt {
			return pc, sp, 0, false, internalFault("call timeout is %s, not Int", t.Kind())
		}
		if t.AsInt() > st.img.maxTimeout() {
			return pc, sp, 0, false, st.img.timeoutFault()
		}
		r, park, f := ah.CallWait(stack[sp-4], stack[sp-3], t.AsInt(), stack[sp-1])
		if f != nil {
			return pc, sp, 0, false, f
		}
		if park {
			return pc - 1, sp, 0, true, nil
		}
		sp -= 3
		stack[sp-1] = r
		clear(stack[sp : sp+3])
		return pc, sp, SendCost, false, nil
	case bytecode.SEND_WAIT:
		r, park, f := ah.SendWait(stack[sp-2], stack[sp-1])
		if f != nil {
			return pc, sp, 0, false, f
		}
		if park {
			return pc - 1, sp, 0, true, nil
		}
		sp--
		stack[sp-1] = r
		stack[sp] = value.Unit
		return pc, sp, SendCost, false, nil
	default:
		return pc, sp, 0, false, internalFault("unknown opcode %s", in.Op)
	}
	return pc, sp, 0, false, nil
}

// DropCleanup discards every registered cleanup that has not started
// (a direct Kill of the running process, docs/reference/actors.md#links-trapping-and-exit-signals): when the
// State next unwinds, its frames are popped without running defers. A
// host may call it from a native while the State is running.
func (st *State) DropCleanup() {
	for i := range st.frames {
		if cl := st.frames[i].cl; cl != nil {
			clear(cl.defers)
			cl.defers = cl.defers[:0]
		}
	}
	st.defers = 0
}

// InCleanup reports whether the computation is running cleanup: some
// frame is returning or unwinding (its defers, and the defer body above
// it, are executing).
func (st *State) InCleanup() bool {
	for i := len(st.frames) - 1; i >= 0; i-- {
		if st.frames[i].mode != modeNormal {
			return true
		}
	}
	return false
}

// Unwinding returns the fault being unwound, or nil.
func (st *State) Unwinding() *fault.Fault { return st.fault }

// AbortAfterCleanup terminates the computation with f (a terminal
// signal, docs/reference/actors.md#links-trapping-and-exit-signals) without cutting short cleanup that is
// already running: the frames from the outermost up to the innermost
// frame that is returning or unwinding switch to unwinding, while the
// defer body running above it (and whatever it calls) continues
// normally; when it returns, unwinding goes on. drop also discards every
// cleanup that has not begun (a direct Kill). Outside cleanup it is
// Abort (after the drop). The first fault is kept. The top frame's pc
// must be saved, as for Abort, unless a defer body is running above the
// frames it changes.
func (st *State) AbortAfterCleanup(f *fault.Fault, drop bool) {
	if drop {
		st.DropCleanup()
	}
	if st.finished || f == nil {
		return
	}
	k := -1
	for i := len(st.frames) - 1; i >= 0; i-- {
		if st.frames[i].mode != modeNormal {
			k = i
			break
		}
	}
	if k < 0 {
		st.raise(f)
		return
	}
	if st.fault == nil {
		st.locate(f)
		st.fault = f
	}
	for i := 0; i <= k; i++ {
		st.frames[i].mode = modeUnwinding
	}
}
