package sched

import (
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Long natives run off the schedulers (native.Host.Offload): the caller
// parks on its native call (proc.NativeWait, as a Supervisor request's
// caller does) while a goroutine computes; the answer wakes it and the
// native, called again, returns it. Meanwhile its scheduler runs the
// other processes and fires their timers, and a Kill of the caller
// lands at once (the late answer is dropped). rt.offloads counts the
// computations in flight: an all-idle runtime waits for them as for a
// pending timer (quiescentLocked). Deterministic runs (exploration, the
// REPL) and deferred cleanup compute in place.

// Offload implements native.Host.Offload for the running process.
func (h *host) Offload(work func() value.Value) (value.Value, *fault.Fault, bool) {
	h.settle()
	p := h.p
	if v, open, done := p.TakeNativeWait(); open {
		if done {
			return v, nil, true
		}
		return value.Unit, fault.NewPark(), true
	}
	rt := h.s.rt
	if rt.det != nil || p.State == nil || p.State.InCleanup() {
		return value.Unit, nil, false
	}
	w := p.StartNativeWait()
	rt.offloads.Add(1)
	go func() {
		defer rt.offloadDone()
		rt.Inv.CompleteNativeWait(p, w, work())
	}()
	return value.Unit, fault.NewPark(), true
}

// offloadDone counts an offloaded computation as over. When it was the
// last and every scheduler is idle (its process was killed meanwhile,
// so its answer woke nobody), the quiescence decision that waited for it
// is taken now.
func (rt *Runtime) offloadDone() {
	if rt.offloads.Add(-1) > 0 {
		return
	}
	rt.decideIfIdle()
}
