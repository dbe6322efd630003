package vm

import (
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
// against the same budget as instructions (RUNTIME.md §6).
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

// isActorOp reports whether op is an actor opcode (RECV_START through
// SEND_WAIT, which bytecode numbers consecutively).
func isActorOp(op bytecode.Opcode) bool {
	return op >= bytecode.RECV_START && op <= bytecode.SEND_WAIT
}

// actorStep executes the actor instruction at the pc of fr (the top
// frame, normal), charging it as step does, and goes on with the next
// one while that is an actor instruction too (RECV_START is always
// followed by RECV_PEEK): the charges and the budget checks are those of
// executing them one at a time. It returns stop = true with the outcome
// Run reports when the State yields, parks or faults.
func (st *State) actorStep(host Host, fr *frame) (Outcome, bool) {
	for {
		pc := fr.pc
		in := fr.fn.Code[pc]
		if !st.spend() {
			return Outcome{Status: StatusYield}, true
		}
		pc++
		sp := st.sp
		fr.pc = pc
		if in.Op == bytecode.RECV_START {
			// One host call begins the receive and peeks (Host.RecvStart);
			// the RECV_PEEK after it is then charged and applied here.
			v, ok, f := st.recvStart(host, in)
			if f != nil {
				return st.fail(fr, pc, sp, f)
			}
			if st.preempt {
				st.preempt = false
				return Outcome{Status: StatusYield}, true
			}
			peek := fr.fn.Code[pc]
			if peek.Op != bytecode.RECV_PEEK {
				// Not the shape codegen emits: the answer is dropped and
				// the next instruction runs on its own.
				if !isActorOp(peek.Op) {
					return Outcome{}, false
				}
				continue
			}
			if !st.spend() {
				// The peek's answer is dropped: RECV_PEEK asks again when
				// the State resumes, with the same result.
				return Outcome{Status: StatusYield}, true
			}
			pc++
			if !ok {
				pc = int(peek.A)
			} else {
				st.stack[sp] = v
				sp++
			}
			fr.pc, st.sp = pc, sp
			if st.preempt {
				st.preempt = false
				return Outcome{Status: StatusYield}, true
			}
			if !isActorOp(fr.fn.Code[pc].Op) {
				return Outcome{}, false
			}
			continue
		}
		npc, nsp, cost, park, f := st.actorOp(host, in, pc, sp)
		if f != nil {
			return st.fail(fr, pc, sp, f)
		}
		fr.pc, st.sp = npc, nsp
		st.addWork(cost)
		if park {
			st.preempt = false
			return Outcome{Status: StatusPark}, true
		}
		if st.preempt {
			st.preempt = false
			return Outcome{Status: StatusYield}, true
		}
		if !isActorOp(fr.fn.Code[npc].Op) || fr.mode != modeNormal || fr != &st.frames[len(st.frames)-1] {
			return Outcome{}, false
		}
	}
}

// recvStart executes RECV_START in of the top frame: it checks the
// timeout and asks the host to begin the receive, returning the host's
// peek at the first cell.
func (st *State) recvStart(ah Host, in bytecode.Instr) (value.Value, bool, *fault.Fault) {
	timeout := int64(-1)
	if in.A >= 0 {
		v := st.stack[st.frames[len(st.frames)-1].base+int(in.A)]
		if v.Kind() != value.KInt {
			return value.Unit, false, internalFault("receive timeout is %s, not Int", v.Kind())
		}
		timeout = v.AsInt()
		if timeout < 0 || timeout > st.img.maxTimeout() {
			return value.Unit, false, fault.New(fault.Timeout)
		}
	}
	return ah.RecvStart(timeout, in.B != 0)
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
			return pc, sp, 0, false, fault.New(fault.Timeout)
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
// (a direct Kill of the running process, LANGUAGE.md §7.4): when the
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
// signal, LANGUAGE.md §7.4) without cutting short cleanup that is
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
