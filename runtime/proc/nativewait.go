package proc

import "github.com/morrow-lang/morrow/runtime/value"

// A native wait parks a process on a native call until another process
// answers it: the caller of a Supervisor operation waits for the
// supervisor's reply this way (fault.Park). The native starts the wait
// and returns fault.Park; the VM parks the State with its pc on the call;
// the answering process completes the wait (CompleteNativeWait), which
// wakes the caller; the native runs again, finds the answer
// (TakeNativeWait) and returns it. While a wait is open, only its
// completion or a terminal signal makes the parked process run for good:
// a message that wakes it finds the wait still open and it parks again.

// NativeWait is one open wait; its identity tells a late answer for an
// earlier wait from the answer of the current one.
type NativeWait struct {
	done   bool
	result value.Value
	// On is the process that will answer (a supervisor), if any, and
	// What names the operation ("Supervisor.start_child"): the process
	// table (runtime/sched, table.go) shows them. The waiting process
	// sets them right after StartNativeWait, before it parks.
	On   *Process
	What string
}

// StartNativeWait opens a wait for the running process p.
func (p *Process) StartNativeWait() *NativeWait {
	w := &NativeWait{}
	p.mu.Lock()
	p.nwait = w
	p.mu.Unlock()
	return w
}

// TakeNativeWait reports whether p has an open wait, and when it has been
// answered, the answer (the wait is then closed).
func (p *Process) TakeNativeWait() (result value.Value, open, done bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := p.nwait
	if w == nil {
		return value.Unit, false, false
	}
	if !w.done {
		return value.Unit, true, false
	}
	p.nwait = nil
	return w.result, true, true
}

// CancelNativeWait closes p's open wait w without an answer (the request
// could not be delivered).
func (p *Process) CancelNativeWait(w *NativeWait) {
	p.mu.Lock()
	if p.nwait == w {
		p.nwait = nil
	}
	p.mu.Unlock()
}

// CompleteNativeWait answers the wait w of p with result and wakes p if
// it is parked. An answer for a wait that is no longer p's (p retired, or
// gave up) is dropped.
func (inv *Invocation) CompleteNativeWait(p *Process, w *NativeWait, result value.Value) {
	p.mu.Lock()
	if p.nwait != w || p.closed || w.done {
		p.mu.Unlock()
		return
	}
	w.done, w.result = true, result
	inv.unlockAndWake(p)
}

// Startup is the start-up phase of a supervised child (see
// docs/supervisors.md): the supervisor that waits for its Process.init_ack. Only the
// child reads and changes it, after the supervisor set it before the
// child first ran.
type Startup struct {
	Sup  *Process
	Done bool
}
