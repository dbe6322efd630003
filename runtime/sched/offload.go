package sched

import (
	"context"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Work off the schedulers: an outside operation (Host.Await, outside.go)
// and a long native's computation (Host.Offload) are one mechanism,
// goOutside. The caller parks on its native call (fault.Park, a native
// wait, proc.NativeWait) while a goroutine runs the operation; the result
// completes the wait, which wakes the caller, and the native, called
// again, takes it (Host.Resume). Meanwhile its scheduler runs the other
// processes and fires their timers, and a Kill of the caller lands at
// once: the retire path closes its socket set (world.Owned), which
// cancels the operation's context (a computation ignores it and runs to
// its end), and the late answer is dropped. rt.pendingIO counts the
// operations in flight: an all-idle runtime waits for them as for a
// pending timer (quiescentLocked), and the end of the last one takes the
// decision no scheduler is going to take (EndOutside).

// goOutside starts op on a goroutine of its own for the running process
// and opens the native wait its result completes; the caller then
// returns fault.Park. It reports false, starting nothing, when the
// process is retiring (its socket set is closed): the caller then runs
// op in place.
func (h *host) goOutside(op func(ctx context.Context) value.Value) bool {
	rt, p := h.s.rt, h.p
	owned := p.Sockets()
	ctx, cancel := context.WithCancel(rt.World.Context())
	if !owned.SetCancel(cancel) {
		cancel()
		return false
	}
	w := p.StartNativeWait()
	rt.BeginOutside()
	go func() {
		v := op(ctx)
		owned.SetCancel(nil)
		cancel()
		rt.Inv.CompleteNativeWait(p, w, v)
		rt.EndOutside()
	}()
	return true
}

// Offload implements native.Host.Offload for the running process.
// Deterministic runs (exploration, the REPL) and deferred cleanup
// compute in place, so their schedules stay reproducible.
func (h *host) Offload(work func() value.Value) (value.Value, *fault.Fault, bool) {
	h.settle()
	if v, f, open := h.Resume(); open {
		return v, f, true
	}
	p := h.p
	if h.s.rt.det != nil || p.State == nil || p.State.InCleanup() {
		return value.Unit, nil, false
	}
	if !h.goOutside(func(context.Context) value.Value { return work() }) {
		return value.Unit, nil, false
	}
	return value.Unit, fault.NewPark(), true
}
