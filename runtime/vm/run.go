package vm

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// maxPanics bounds how many recovered Go panics one State survives; past
// it the computation ends at once with its fault, skipping further
// cleanup, so a broken cleanup path cannot loop forever.
const maxPanics = 64

// Run executes st for a budget of steps (at least one) and reports how it
// stopped. Steps are reductions, charged where control can come back to
// an instruction already executed, as the BEAM charges per call: one per
// call of any kind (CALL, CALL_VALUE, CALL_NATIVE and the tail calls),
// per backward jump (a loop iteration, a rescan of the mailbox) and per
// actor instruction, one per step of running cleanup while returning or
// unwinding, plus the work of instructions whose cost grows with their
// operands (a native's work, a long comparison, SEND, SPAWN:
// docs/reference/runtime.md#execution-model). The budget is checked before each charged instruction, so a Run
// executes at most budget of them, and the straight-line code between two
// of them is bounded by the function's length: preemption stays bounded
// without a check on every instruction. Only charges for work can take a
// Run past its budget. Calling Run on a finished State returns its
// terminal outcome again with Steps 0.
func Run(st *State, host Host, budget int) Outcome {
	if st.finished {
		o := st.final
		o.Steps = 0
		return o
	}
	if budget < 1 {
		budget = 1
	}
	st.preempt = false
	start := st.steps
	st.limit = start + int64(budget)
	st.host = host // kept until the next Run (finish drops it)
	panics := 0
	for {
		if st.steps >= st.limit {
			st.shrinkIfIdle()
			return Outcome{Status: StatusYield, Steps: int(st.steps - start)}
		}
		out, crashed := st.run(host)
		if !crashed {
			if !st.finished {
				st.shrinkIfIdle()
			}
			out.Steps = int(st.steps - start)
			return out
		}
		panics++
		if panics > maxPanics {
			st.frames = nil
			st.finish(Outcome{Status: StatusFault, Fault: st.fault})
			o := st.final
			o.Steps = int(st.steps - start)
			return o
		}
	}
}

// finish records the terminal outcome.
func (st *State) finish(o Outcome) {
	st.finished = true
	st.final = o
	st.stack = nil
	st.frames = nil
	st.host = nil
	st.Release()
}

// run alternates the fast loop (exec.go), which executes the common
// instructions with the interpreter's state in local variables, and the
// general path (step, step.go), which executes the one instruction the
// fast loop handed back, and runs cleanup steps. It returns crashed =
// true after recovering a Go panic (the State is then unwinding an
// internal-error fault and Run calls run again).
func (st *State) run(host Host) (out Outcome, crashed bool) {
	// The recovery reads only st. After a panic the location is the top
	// frame's last saved pc (the last call, exit from the fast loop or
	// fault), which is good enough for an internal error.
	defer func() {
		if r := recover(); r != nil {
			out, crashed = st.recovered(r)
		}
	}()
	for {
		if fr := &st.frames[len(st.frames)-1]; fr.mode != modeNormal {
			if st.steps >= st.limit {
				return Outcome{Status: StatusYield}, false
			}
			st.steps++
			if o, done := st.cleanupStep(host); done {
				return o, false
			}
			continue
		}
		if !st.generalOnly && st.exec() {
			switch st.exit {
			case exitYield:
				return Outcome{Status: StatusYield}, false
			case exitPark:
				st.exit = exitYield
				return Outcome{Status: StatusPark}, false
			}
			st.exit = exitYield // exitAgain: the top frame changed mode
			continue
		}
		if fr := &st.frames[len(st.frames)-1]; fr.fn.Code[fr.pc].Op.IsActor() {
			// A small function of its own, not step's big switch: a
			// receive executes several actor instructions per message.
			if code := st.actorStep(host, fr); code != actGoOn {
				return actOutcome(code), false
			}
			continue
		}
		if o, stop := st.step(host); stop {
			return o, false
		}
	}
}

// fail raises f at the instruction before pc of frame fr; step returns
// its result.
func (st *State) fail(fr *frame, pc, sp int, f *fault.Fault) (Outcome, bool) {
	fr.pc = pc
	st.sp = sp
	st.raise(f)
	return Outcome{}, false
}

// recovered turns a recovered Go panic into an internal-error fault.
func (st *State) recovered(r any) (Outcome, bool) {
	if len(st.frames) == 0 {
		st.finish(Outcome{Status: StatusFault, Fault: internalFault("interpreter failure: %v", r)})
		return st.final, false
	}
	st.steps++
	st.raise(internalFault("interpreter failure: %v", r))
	return Outcome{}, true
}

// pushFrame pushes a frame for f whose locals start at base (the arguments
// are already there). It returns fault 9 when the call depth limit, the
// slot limit or the stack budget is hit.
func (st *State) pushFrame(f *function, base, retSP int, free []value.Value) *fault.Fault {
	if len(st.frames) >= st.maxDepth {
		return fault.New(fault.Resource)
	}
	stack, fault := st.grow(base + f.Locals + f.MaxStack)
	if fault != nil {
		return fault
	}
	n := len(st.frames)
	if n == cap(st.frames) {
		if fault := st.growFrames(); fault != nil {
			return fault
		}
	}
	clear(stack[base+f.Params : base+f.Locals])
	st.frames = st.frames[:n+1]
	nf := &st.frames[n]
	nf.fn, nf.pc, nf.base, nf.retSP, nf.free, nf.mode, nf.slowRet = f, 0, base, retSP, free, modeNormal, false
	if nf.cl != nil {
		nf.cl = nil
	}
	return nil
}

// closureCallee checks a closure call of n arguments.
func (st *State) closureCallee(c *value.Closure, n int) (*function, *fault.Fault) {
	fns := st.img.fns
	if c.Fn < 0 || c.Fn >= len(fns) {
		return nil, internalFault("closure of an unknown function %d", c.Fn)
	}
	callee := fns[c.Fn]
	if callee.Params != n || len(c.Free) != callee.Captures {
		return nil, internalFault("%s called with %d arguments and %d captured values (want %d and %d)", callee.Name, n, len(c.Free), callee.Params, callee.Captures)
	}
	return callee, nil
}

// returnValue returns v from the top frame: if the frame has defers it
// starts running them (the frame becomes "returning"), otherwise the frame
// is popped. The top frame's pc and st.sp must be saved.
func (st *State) returnValue(v value.Value) (Outcome, bool) {
	fr := &st.frames[len(st.frames)-1]
	if fr.hasDefers() {
		fr.mode = modeReturning
		fr.cl.ret = v
		st.sp = fr.base + fr.fn.Locals
		return Outcome{}, false
	}
	return st.finishReturn(v)
}

// finishReturn pops the top frame and delivers v to its caller: pushed
// for a normal caller, discarded for a caller that is running cleanup.
// When the last frame returns, the computation is done.
func (st *State) finishReturn(v value.Value) (Outcome, bool) {
	n := len(st.frames)
	retSP := st.frames[n-1].retSP
	st.frames[n-1] = frame{}
	st.frames = st.frames[:n-1]
	if n == 1 {
		st.finish(Outcome{Status: StatusDone, Value: v})
		return st.final, true
	}
	if st.frames[n-2].mode == modeNormal {
		st.stack[retSP] = v
		st.sp = retSP + 1
	} else {
		st.sp = retSP
	}
	return Outcome{}, false
}

// cleanupStep performs one step for a top frame that is returning or
// unwinding: call its next defer, or complete the return, or pop it.
func (st *State) cleanupStep(host Host) (Outcome, bool) {
	fr := &st.frames[len(st.frames)-1]
	st.sp = fr.base + fr.fn.Locals
	if fr.hasDefers() {
		n := len(fr.cl.defers)
		d := fr.cl.defers[n-1]
		fr.cl.defers[n-1] = value.Value{}
		fr.cl.defers = fr.cl.defers[:n-1]
		st.defers--
		st.callDefer(host, d)
		return Outcome{}, false
	}
	if fr.mode == modeReturning {
		fr.mode = modeNormal
		return st.finishReturn(fr.cl.ret)
	}
	// Unwinding a fault: drop the frame.
	n := len(st.frames)
	st.frames[n-1] = frame{}
	st.frames = st.frames[:n-1]
	if n == 1 {
		f := st.fault
		if f == nil {
			f = internalFault("unwinding without a fault")
		}
		st.finish(Outcome{Status: StatusFault, Fault: f})
		return st.final, true
	}
	return Outcome{}, false
}

// callDefer starts the cleanup d (a zero-argument function value) on top
// of the current frame. A native cleanup runs at once.
func (st *State) callDefer(host Host, d value.Value) {
	if c, ok := d.Closure(); ok {
		callee, f := st.closureCallee(c, 0)
		if f == nil {
			base := st.sp
			if f = st.pushFrame(callee, base, base, c.Free); f == nil {
				// The operand stack starts above the callee's locals, as
				// for any call; otherwise a defer body with locals (a for
				// loop, a let) would overwrite them with its operands.
				st.sp = base + callee.Locals
				st.frames[len(st.frames)-1].slowRet = true // returns into cleanup
			}
		}
		if f != nil {
			st.raise(f)
		}
	} else if c, ok := d.NativeFunc(); ok {
		if c.ID < 0 || c.ID >= len(st.img.natives) {
			st.raise(internalFault("deferred call of an unknown native %d", c.ID))
			return
		}
		if _, nf := st.img.natives[c.ID].Call(host, nil); nf != nil {
			if nf.IsPark() {
				nf = internalFault("a native that waits cannot run as deferred cleanup")
			}
			st.raise(nf)
		}
	} else {
		st.raise(internalFault("deferred call of a %s value", d.Kind()))
	}
}

// String describes the State for debugging.
func (st *State) String() string {
	if st.finished {
		return fmt.Sprintf("vm.State{finished %s}", st.final.Status)
	}
	top := "-"
	if n := len(st.frames); n > 0 {
		top = st.frames[n-1].fn.Name
	}
	return fmt.Sprintf("vm.State{depth %d, top %s, steps %d}", len(st.frames), top, st.steps)
}
