// Package supervisor is the restart logic of a Morrow supervisor
// (docs/supervisors.md) as a pure, deterministic state machine. It has
// no goroutines, no clock and no knowledge of processes: a supervisor
// process (the driver) feeds it inputs and carries out the effects it
// returns. The same inputs always give the same effects.
//
// # Model
//
// A Machine holds the supervisor's flags and its children in declaration
// order (start_child appends). Each child is a Spec plus a state: Running
// (a live, acknowledged process), Stopped (no process), Restarting (a
// restart attempt failed and a retry is scheduled), and, only while an
// operation is in progress, starting or stopping. Every process the machine
// asks for gets a fresh generation number (Gen 1, 2, 3, ..., never reused
// within one machine); the driver maps generations to processes, and the
// machine matches every report to a generation, so a report about an
// earlier generation is stale and ignored.
//
// At most one operation is in progress at a time. An operation stops a
// list of children one at a time (each by its shutdown policy, waiting for
// its exit), then starts a list of children one at a time (waiting for each
// start-up to end), then finishes. The operations are: the start-up (start
// all; on a failure stop the started ones in reverse order, report
// StartFailed and retire with Shutdown), an automatic restart (stop the
// strategy's group in reverse order, start it in order; a failed start
// leaves that child Restarting and schedules a retry), terminate_child,
// restart_child, start_child, and the shutdown (stop every child in reverse
// order, answer a stop request, retire). While an operation is in progress,
// requests, retries, the parent's exit and the exits of children the
// operation is not waiting for are deferred in arrival order and handled
// once it is done, as OTP's supervisor leaves them in its mailbox while it
// waits in start_link or shutdown. When an operation comes to stop a child
// whose exit is already deferred, it takes that exit instead of stopping
// the child (OTP consumes the EXIT in its shutdown), so a child the
// supervisor stopped never restarts on its own account and never counts
// for auto-shutdown. At most MaxQueued (64) requests wait; more are
// answered ResourceLimit at once.
//
// A natural exit of a Running child restarts it when its restart type says
// so (Permanent always; Transient unless the reason is Normal, Shutdown or
// ShutdownDetail; Temporary never, and its spec is removed). A restart
// first charges the intensity window once, whatever the size of the group:
// the restart times are whole seconds, a time still counts while
// now <= then + period, and a count above the intensity stops every child
// in reverse order and retires with Shutdown. A retry is charged again.
// When a significant child exits naturally and is not restarted,
// AnySignificant shuts the supervisor down, and AllSignificant does when no
// significant child is left running or restarting. OneForAll restarts every
// child (OTP also starts the siblings that were Stopped); RestForOne
// restarts the child and every child after it; Temporary children in a
// group are removed when the group is stopped. Manual restarts are never
// charged.
//
// Validate, ValidateFlags, ValidatePolicy, ValidateWorker and
// ValidateBranch are the pure checks of Supervisor.worker, branch, start
// and start_link; New runs Validate.
//
// # The effect protocol
//
// The driver is the supervisor process. It traps exits, owns one Machine,
// and calls Step(now, input) for each input, with now the monotonic clock
// in whole seconds. It carries out the returned effects in order:
//
//   - StartChild{Name, Gen, Spec}: spawn the child (a worker from a fresh
//     copy of its entry template; a branch as a nested supervisor process
//     whose own Machine is New(Config{Spec.Flags, Spec.Children, Level+1})),
//     link it, monitor it, and record Gen -> process. The child is in its
//     start-up phase: feed StartResult{Gen, Acked} on its init_ack (for a
//     branch: when its own machine emits StartupDone OK), {Gen, Ignored} on
//     init_ignore, {Gen, Failed, reason} on init_fail(reason) or when the
//     spawn itself fails. If it exits before any of these, feeding its
//     ChildExit is enough.
//   - SendShutdown{Gen}: a direct exit signal with reason Shutdown to the
//     process of Gen. Kill{Gen}: a direct Kill.
//   - ArmTimer{Token, Ms}: a timer; when it expires feed TimerFired{Token}.
//     CancelTimer{Token}: cancel it (a late TimerFired is ignored anyway).
//   - ScheduleRetry{Token}: send the supervisor itself a message, so that it
//     lands behind everything already in its mailbox; when it is taken out,
//     feed RetryDue{Token}.
//   - Reply{ID, Result}: answer the request fed as Request{ID, ...}; map
//     Result to the Morrow value (Err's tag is Supervisor.Error's tag;
//     Children rows and current's Gen are turned into Pids through the
//     Gen -> process record).
//   - StartupDone{Result}: answer the caller of start/start_link (a branch
//     acknowledges to its own supervisor when OK).
//   - Retire{Reason}: exit with Reason through the ordinary retire path.
//     Every child has exited by then.
//
// Besides the StartResults, the driver feeds: Begin once at the start;
// ChildExit{Gen, reason} exactly once per started generation, from the
// supervisor's monitor on it, in the order its Downs arrive (the Exit
// messages that the links also deliver are dropped: they carry the same
// reason); Request for each management request, in mailbox order;
// ParentExit{reason} for an exit signal from its parent (the caller of
// start_link, or the supervisor above a branch). Inputs must be fed in the
// order the supervisor receives them; the machine's determinism does the
// rest.
//
// Example (OneForOne, children a and b, a crashes once):
//
//	Step(0, Begin{})                          -> start a#1
//	Step(0, StartResult{1, Acked, _})         -> start b#2
//	Step(0, StartResult{2, Acked, _})         -> startup Ok
//	Step(7, ChildExit{1, Fault(3)})           -> start a#3       (charged at t=7)
//	Step(7, StartResult{3, Acked, _})         -> (nothing)
//	Step(8, Request{ID: 5, Op: OpStop})       -> shutdown b#2; arm t1 5000ms
//	Step(8, ChildExit{2, Shutdown})           -> cancel t1; kill a#3
//	Step(8, ChildExit{3, Killed})             -> reply r5 Ok; retire normal
//
// (b has Graceful(5000), a Immediate; the arrows show Format's rendering.)
package supervisor
