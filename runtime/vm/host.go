package vm

import (
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Host is the VM's one contract with the world: every operation the
// interpreter, or a native it calls, may ask of the runtime. Run takes a
// Host; the scheduler's per-process host (runtime/sched) implements it,
// so a runtime that lacks an operation does not compile (there is no
// capability discovered by a type assertion at run time).
//
// The operations come in three groups:
//
//   - native.Host: output (print, println) and the Process operations
//     that are ordinary calls (monitor, demonitor, link, unlink,
//     trap_exit, exit, signal_exit, supervised_current). Natives live
//     below the VM, so that part is declared in runtime/native and
//     embedded here; a new runtime operation behind a native is a new
//     method there.
//   - the receive cursor and its timer (RECV_START, RECV_PEEK, RECV_TAKE,
//     RECV_SKIP, RECV_WAIT; actor.go describes the protocol).
//   - process creation and messaging (SPAWN, SEND, SELF, and the
//     blocking CALL_REPLY/CALL_WAIT of Process.call and SEND_WAIT of
//     Process.send_wait).
//
// A Host is used by one State at a time: the VM calls it only from the
// goroutine running Run, and only while that Run is in progress.
type Host interface {
	native.Host

	// RecvStart begins a receive and returns what RecvPeek would then
	// return (the first cell as the value the arms match, or false), so
	// that a receive whose first message matches makes two host calls
	// (this and RecvTake), not three. timeout < 0 means none (the VM has
	// already refused a timeout outside 0..600000 with fault 8); event
	// selects receive_event (all cells, user messages wrapped in
	// Process.Message) over receive (user messages only). The peek has
	// no effect a later RecvPeek at the same cursor would not have, so
	// the VM may discard its answer (when the budget ends between
	// RECV_START and RECV_PEEK) and ask again.
	RecvStart(timeout int64, event bool) (value.Value, bool, *fault.Fault)
	// RecvPeek returns the cell at the cursor (as the value the arms
	// match), or false when the cursor is past the last cell.
	RecvPeek() (value.Value, bool)
	// RecvTake removes the cell at the cursor and ends the receive.
	RecvTake()
	// RecvSkip advances the cursor past the cell at the cursor.
	RecvSkip()
	// RecvWait decides, atomically with respect to senders, whether the
	// receive parks, rescans or times out; on the first park of a wait
	// with a timeout it arms the timer.
	RecvWait() WaitResult

	// Spawn starts a process from entry with the SPAWN mode (the modes of
	// stdlib/process); the result is what the spawning builtin returns.
	Spawn(mode int, entry value.Value) (value.Value, *fault.Fault)
	// Send delivers msg to the process addressed by pid and returns the
	// Result((), Int) of send.
	Send(pid, msg value.Value) (value.Value, *fault.Fault)
	// Self returns the running process's Pid.
	Self() (value.Value, *fault.Fault)

	// CallReply mints a fresh one-shot reply address of the running
	// process for Process.call (CALL_REPLY).
	CallReply() (value.Value, *fault.Fault)
	// CallWait runs CALL_WAIT: the first time for a reply address it
	// sends msg to pid; then it returns the call's Result(R,
	// Process.CallError), or park = true to park the State (the
	// instruction runs again when the process is resumed). timeout is in
	// milliseconds, negative for none.
	CallWait(pid, msg value.Value, timeout int64, reply value.Value) (res value.Value, park bool, f *fault.Fault)
	// SendWait runs SEND_WAIT (Process.send_wait): the Result((), Int) of
	// the send, or park = true while the sender waits for room.
	SendWait(pid, msg value.Value) (res value.Value, park bool, f *fault.Fault)
}

// WaitResult is the host's answer to RECV_WAIT.
type WaitResult uint8

const (
	// WaitPark: nothing new and no timeout yet: park the computation.
	WaitPark WaitResult = iota
	// WaitRetry: cells arrived past the cursor: rescan from the cursor.
	WaitRetry
	// WaitTimeout: the receive's timeout has expired: take the timeout arm.
	WaitTimeout
)

// Detached is a Host for a computation that runs outside any process
// runtime (tests, tools evaluating pure code): output goes to W
// (discarded when nil), the Process natives are fault 11 (native.Detached)
// and the actor opcodes are internal errors, since a checked program
// reaches them only through the scheduler.
type Detached struct{ native.Detached }

var _ Host = Detached{}

func needsActors(op string) *fault.Fault {
	return fault.Internalf("%s needs the actor runtime", op)
}

// RecvStart is an internal error: there is no mailbox.
func (Detached) RecvStart(int64, bool) (value.Value, bool, *fault.Fault) {
	return value.Unit, false, needsActors("RECV_START")
}

// RecvPeek finds nothing (unreachable: RecvStart faults first).
func (Detached) RecvPeek() (value.Value, bool) { return value.Unit, false }

// RecvTake does nothing (unreachable: RecvStart faults first).
func (Detached) RecvTake() {}

// RecvSkip does nothing (unreachable: RecvStart faults first).
func (Detached) RecvSkip() {}

// RecvWait parks (unreachable: RecvStart faults first).
func (Detached) RecvWait() WaitResult { return WaitPark }

// Spawn is an internal error: there is no scheduler.
func (Detached) Spawn(int, value.Value) (value.Value, *fault.Fault) {
	return value.Unit, needsActors("SPAWN")
}

// Send is an internal error: there is no scheduler.
func (Detached) Send(value.Value, value.Value) (value.Value, *fault.Fault) {
	return value.Unit, needsActors("SEND")
}

// Self is an internal error: there is no process.
func (Detached) Self() (value.Value, *fault.Fault) { return value.Unit, needsActors("SELF") }

// CallReply is an internal error: there is no process.
func (Detached) CallReply() (value.Value, *fault.Fault) {
	return value.Unit, needsActors("CALL_REPLY")
}

// CallWait is an internal error: there is no scheduler.
func (Detached) CallWait(value.Value, value.Value, int64, value.Value) (value.Value, bool, *fault.Fault) {
	return value.Unit, false, needsActors("CALL_WAIT")
}

// SendWait is an internal error: there is no scheduler.
func (Detached) SendWait(value.Value, value.Value) (value.Value, bool, *fault.Fault) {
	return value.Unit, false, needsActors("SEND_WAIT")
}
