package sched

import "fmt"

// Policy makes every scheduling decision of a deterministic run: a
// Runtime whose Config.Policy is set runs all processes on the calling
// goroutine (one scheduler, no stealing) under a virtual clock, and asks
// the policy at each point where the model lets the schedule vary:
//
//   - which agent acts next (Next): a runnable process runs a turn, a
//     channel delivers its oldest cell in flight, or the clock fires the
//     earliest receive timer;
//   - how many reduction steps a process's turn may take (Quantum);
//   - whether to end the turn of the running process right after one of
//     its visible operations (Preempt);
//   - whether cells sent between processes are delivered at once, as the
//     concurrent runtime does, or stay in flight on their channel until
//     the policy delivers them (Defer): the order of cells from
//     different senders to one receiver is then the policy's choice
//     (runtime/proc, flight.go), while each channel keeps its sender's
//     order;
//   - when a pending `after` timer fires relative to arriving messages
//     (Next returning the clock while other agents are ready).
//
// The virtual clock starts at VirtualEpoch and moves only when the clock
// acts: to the deadline of the timer it fires. When no agent is ready
// and a timer is pending the runtime fires it whatever the policy says,
// so time jumps to the next timer when nothing can run; when no agent
// is ready and no timer is pending the run ends (Result.Deadlock when
// processes are still alive).
//
// The runtime calls Ready for every agent that becomes able to act (a
// process that became runnable: spawned, woken, or its turn ended with
// its budget spent; a channel whose first cell went in flight, or that
// still has cells after delivering one); Next removes the agent it
// returns, which is readied again if it can still act. A policy is used
// by one run at a time, from one goroutine.
//
// FIFO is today's order at one scheduler; runtime/explore has the
// randomised policies that `morrow run --explore` uses.
type Policy interface {
	// Defer reports whether cells sent between processes stay in flight
	// until the policy delivers them; it is asked once, before the run.
	Defer() bool
	// Ready adds an agent that can act.
	Ready(a Agent)
	// Next removes and returns the agent that acts next. timer says that
	// a receive timer is pending, so Next may return the clock. ok is
	// false when nothing is ready (and the policy does not fire the
	// timer).
	Next(timer bool) (a Agent, ok bool)
	// Quantum returns the step budget of the next turn of process p (0
	// or less: the runtime's Config.Budget).
	Quantum(p uint64) int
	// Preempt is asked after each visible operation of the running
	// process p; true ends its turn right after the operation.
	Preempt(p uint64, op Op) bool
}

// AgentKind says what an Agent is.
type AgentKind uint8

const (
	// AgentProcess is a runnable process: it runs one turn.
	AgentProcess AgentKind = iota
	// AgentChannel is the channel from one process to another with cells
	// in flight: it delivers the oldest one.
	AgentChannel
	// AgentClock is the virtual clock: it fires the earliest pending
	// receive timer, moving the clock to its deadline.
	AgentClock
)

// Agent is something that can act in a deterministic run. Processes are
// named by their generation (the number in the trace and in `<pid N>`).
type Agent struct {
	Kind AgentKind
	Proc uint64 // the process; for a channel, its receiver
	From uint64 // for a channel, its sender
}

// Clock is the clock agent.
var Clock = Agent{Kind: AgentClock}

func (a Agent) String() string {
	switch a.Kind {
	case AgentProcess:
		return fmt.Sprintf("process %d", a.Proc)
	case AgentChannel:
		return fmt.Sprintf("channel %d -> %d", a.From, a.Proc)
	case AgentClock:
		return "clock"
	}
	return fmt.Sprintf("Agent(%d)", a.Kind)
}

// Op is a visible operation: one that other processes (or the output)
// can tell apart from the running process's private computation. Only
// after one of them can preempting a process change what anybody
// observes.
type Op uint8

const (
	OpSend      Op = iota // send (to a process or a host port)
	OpSpawn               // any spawn
	OpRecv                // a receive took a cell
	OpPrint               // print or println
	OpLifecycle           // monitor, demonitor, link, unlink, trap_exit, signal_exit
)

var opNames = [...]string{OpSend: "send", OpSpawn: "spawn", OpRecv: "receive", OpPrint: "print", OpLifecycle: "lifecycle"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// FIFO is the concurrent runtime's order at one scheduler as a Policy:
// agents act in the order they became ready, every turn has the full
// budget, nothing is preempted early, and the clock fires only when
// nothing else can act. With InFlight false cells are delivered when
// they are sent, so a program runs exactly as under one scheduler (with
// the clock virtual: a timer fires when every process waits, never in
// the middle of other work). With InFlight true cells go in flight and
// each channel delivers in the order the channels became ready.
//
// A REPL or a test that wants reproducible runs uses FIFO; the zero
// value is ready to use.
type FIFO struct {
	InFlight bool
	Budget   int // steps per turn (0: the runtime's Config.Budget)

	q    []Agent
	head int
}

var _ Policy = (*FIFO)(nil)

// Defer implements Policy.
func (f *FIFO) Defer() bool { return f.InFlight }

// Ready implements Policy.
func (f *FIFO) Ready(a Agent) { f.q = append(f.q, a) }

// Next implements Policy.
func (f *FIFO) Next(bool) (Agent, bool) {
	if f.head == len(f.q) {
		return Agent{}, false
	}
	a := f.q[f.head]
	f.head++
	if f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	} else if f.head >= 1024 && f.head*2 >= len(f.q) {
		n := copy(f.q, f.q[f.head:])
		f.q, f.head = f.q[:n], 0
	}
	return a, true
}

// Quantum implements Policy.
func (f *FIFO) Quantum(uint64) int { return f.Budget }

// Preempt implements Policy.
func (f *FIFO) Preempt(uint64, Op) bool { return false }
