// Package proc is the process model of the actor runtime: a process is
// heap state (a *Process holding its *vm.State, its mailbox and its
// lifecycle flags), never a goroutine. Schedulers (runtime/sched) run
// processes; this package owns what a process is, how messages and
// lifecycle cells enter its mailbox, and the single path by which a
// process ends (Invocation.Retire).
//
// # Mailbox
//
// A mailbox is one ordered sequence of cells (Cell): user messages and
// lifecycle notifications (monitor Downs, trapped Exits) share it, so a
// message a process sent before it died is always ahead of its Down. A
// plain receive sees only message cells and skips lifecycle cells without
// consuming them; receive_event sees every cell as a Process.Event. The
// receive cursor is the index (from the oldest cell) of the next cell the
// running receive has not examined: RECV_START resets it to 0, a cell
// that matched no arm is skipped by advancing it, and a receive woken by a
// new message resumes at the cursor instead of rescanning cells that
// already failed (guards are pure, so they would fail again). Taking a
// cell removes it from the sequence; later cells keep their order.
//
// User messages are limited to MaxMailbox per process and MaxQueued per
// invocation (send returns Err(4) beyond); lifecycle cells never compete
// for those slots (docs/reference/runtime.md#pitfalls-the-design-avoids). Each message also charges its 32-byte
// header plus payload (Size) against the invocation's logical memory
// budget until it is consumed; Down and Exit cells carry the lifecycle
// reservation that admitted them (limits.go, docs/reference/actors.md#limits), so a
// full mailbox never loses one and a monitor, link or direct signal
// beyond 256 per process or 4,096 per invocation is refused with
// ResourceLimit instead.
//
// # Locking and wake-ups
//
// The mailbox has two halves. The inbox is where senders append, under
// Process.mu, which also guards the status and the timer flags: one
// short critical section per send. The receive side (the cells already
// moved out of the inbox, the cursor, the wait) is private to the
// scheduler running the process: while the status is Running only that
// goroutine touches it, without a lock; in every other status it is
// guarded by Process.mu like the rest (Retire closes the mailbox of a
// process that is not running, under the lock). A receive moves the
// whole inbox to the private side in one locked step when its scan
// reaches the end of the private cells and the inbox is not empty (an
// atomic count says so without the lock), and the scheduler does the
// same when a turn begins (BeginTurn), so a woken receiver finds its
// messages without another lock. Cells keep one order: the private
// cells are older than every inbox cell. The counters a sender checks
// against the limits (user messages and their bytes, guarded by the
// lock) are not touched by each take: the scheduler collects what its
// receives took (Taken) and subtracts it in one locked step before any
// other operation of the process and at the end of its turn
// (SettleTaken), so taking a message needs no lock either; taking a Down
// or Exit, which releases a reservation, does. So does taking a message
// from a process that has a registry/call/send_wait record
// (Process.rc): freeing the slot and admitting the oldest sender parked
// in send_wait into it is one locked step (sendwait.go). The record can
// appear while takes are pending; the settle then admits into the slots
// it frees, and Post refuses plain sends while senders wait, so none
// takes a slot first.
//
// A sender appends under the lock and, if the target is Parked, marks it
// Runnable and hands it to the scheduler (Invocation.Wake, or the
// caller itself with Post). A receive that found nothing returns
// StatusPark from the VM; the scheduler then re-checks, under the same
// lock, whether cells arrived (in the inbox or past the cursor), the
// timeout fired or a kill is pending, and only otherwise marks the
// process Parked. Park and wake are therefore decided under one lock and
// no wake-up is lost.
//
// # Lifecycle
//
// Invocation.Retire is the one function that ends processes: the steps of
// docs/reference/runtime.md#retiring-a-process, one method each, driven by an explicit work list (a
// chain of a million linked processes needs no recursion). For each
// (process, reason) item it commits the reason (commitLocked: the first
// committed reason is final), makes sure cleanup runs (runCleanupLocked:
// a process whose cleanup has not run is aborted and rescheduled; the
// scheduler calls Retire again once its unwinding is done), closes the
// mailbox before unregistering (closeMailboxLocked: a racing send fails
// with Err(3) instead of queueing into a dead mailbox) releasing
// everything it holds, publishes linked exit signals in partner order
// (publishExits, adding killed partners to the work list) and then
// monitor Downs (publishDowns), and finally releases the process
// (releaseAll: the monitors it owned, live counts). A direct Kill skips
// cleanup that has not begun, but a cleanup that is already running
// completes first.
//
// # Handles
//
// A *Process is the typed handle behind Pid and ProcessId values, and a
// *Monitor the one behind MonitorRef values (Of, MonitorOf): the values
// are built only here, so resolving one is a type switch, never an
// assertion on an untyped field.
package proc

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/world"
)

// Limits (docs/reference/actors.md#spawn-send-and-receive, docs/reference/actors.md#limits).
const (
	MaxMailbox = 4096
	MaxQueued  = 65536
	MaxLive    = 1024
)

// Kind says which API created a process; it fixes the failure policy.
type Kind uint8

const (
	KindRoot       Kind = iota // the root context (main or the library start function)
	KindLegacy                 // legacy spawn: a checked fault fails the invocation
	KindSupervised             // legacy supervise: restarted while the budget lasts
	KindIsolated               // Process.spawn*: a checked fault retires only the process
	KindPort                   // a host port (library mode): a sink, never runs
)

// Status is where a process is in its scheduling life.
type Status uint8

const (
	Runnable Status = iota // in a run queue
	Running                // executing on a scheduler
	Parked                 // waiting in receive
	Exiting                // its scheduler is done with its State and is retiring it
	Done                   // retired
)

// CellKind distinguishes user messages from lifecycle notifications.
type CellKind uint8

const (
	CellMessage CellKind = iota // a user message (Value is the sender's value, shared)
	CellDown                    // a monitor Down (Value is Process.Down(ref, id, reason))
	CellExit                    // a trapped exit signal (Value is Process.Exit(id, reason))
)

// Cell is one entry of a mailbox.
type Cell struct {
	Kind CellKind
	// Resv marks a Down or Exit that carries a lifecycle reservation
	// (limits.go). It sits next to Kind so that From costs no space.
	Resv bool
	// Seq is the cell's number on the channel from its sender when it
	// was in flight (flight.go), for the "arrive" trace line; 0 otherwise.
	// It sits in the padding after Resv.
	Seq   uint32
	Value value.Value
	// Ref is the monitor of a Down cell (for demonitor's flush).
	Ref *Monitor
	// Bytes is the logical charge the cell holds (message header and
	// payload, or a lifecycle reservation's bytes).
	Bytes int64
	// From is the sender's generation of a user message when messages
	// are traced (Invocation.TraceMessages), for the "recv" trace line,
	// and of every cell that was in flight (Invocation.Defer); 0
	// otherwise.
	From uint64
}

// Wait is the state of the receive a process is executing. It is on
// the receive side of the mailbox: private to the scheduler running the
// process (see the package comment).
type Wait struct {
	Active   bool
	Event    bool
	Epoch    uint64
	Deadline time.Time // zero: no timeout
}

// Process is one process (or host port). It is also the typed handle
// behind the process's opaque values: a Pid is Value{K: KPid, N: gen, R:
// p} and a ProcessId is Value{K: KProcID, N: gen, R: p}, so resolving an
// address is one type switch on a value the runtime built (Of). Equality
// of opaque values compares N and the identity of R (stdlib/core); a
// generation is never reused within an invocation and a process belongs
// to one invocation, so this is "invocation epoch plus generation"
// identity. Messages are shared, not copied, so identities survive being
// sent; programs cannot forge them (only spawn, Process.self and
// Process.id produce them, and the verifier refuses bytecode that tries).
type Process struct {
	mu sync.Mutex
	// The one-byte fields sit together (the struct is per process).
	Kind     Kind
	status   Status
	timedOut bool  // the armed receive timer fired (guarded by mu)
	closed   bool  // the mailbox is closed (guarded by mu)
	phase    phase // lifecycle phase (guarded by mu)
	// committed: a terminal reason is final; skipClean: a direct Kill
	// skips cleanup that has not begun; trap: exits are trapped.
	committed, skipClean, trap bool
	// epoch identifies the invocation; gen is the process's generation
	// (never reused within an invocation, starting at 1).
	epoch, gen uint64
	// inv is the invocation, which counts the armed receive timers
	// (armLocked).
	inv *Invocation
	// pid and id are the objects behind the process's Pid and ProcessId
	// values (value.Handle), so that handing them out allocates nothing.
	pid, id value.Handle
	// State is the VM state; nil once released.
	State *vm.State
	// Sched is the index of the scheduler the process belongs to. It
	// changes only while the process sits in a run queue (stealing) or
	// runs, and is read by wakers only while the process is Parked.
	Sched int

	// Receive side (private to the running scheduler, see the package
	// comment): box[head:] are the queued cells taken from the inbox,
	// oldest first; cursor is relative to head.
	box    []Cell
	head   int
	cursor int
	Wait   Wait

	// Send side, guarded by mu: cells appended since the receive side
	// last took the inbox (all younger than box's), and inboxAny, which
	// says without the lock whether the inbox is empty (it is written
	// only when the inbox becomes empty or stops being empty, so a
	// burst of sends into a non-empty inbox pays no atomic store for
	// it). Both buffers keep their capacity and swap roles, so steady
	// messaging allocates nothing; cells past len are always zero.
	inbox    []Cell
	inboxAny atomic.Bool
	user     int32 // queued user messages (and those in flight), guarded by mu
	// armed is the epoch of the wait whose receive timer is armed
	// (counted in Invocation.ArmedTimers), 0 if none; timedOut is set
	// when that timer fires. Both are guarded by mu (the owner reads
	// armed without it: only the owner and a retiring process's closer
	// write it, through armLocked and disarmLocked).
	armed uint64
	// inflight holds the cells in flight to p (Invocation.Defer), nil
	// until the first one.
	inflight *flight

	// Accounting (limits.go), guarded by mu.
	resv      int   // lifecycle reservations held
	resvBytes int64 // their logical bytes (registrations and queued cells)
	msgBytes  int64 // logical bytes of queued user messages

	// Lifecycle.
	reason   value.Value
	killReq  *value.Value // a terminal reason to apply at the next safe point
	links    map[*Process]struct{}
	monitors []*Monitor // registrations watching this process
	// owned maps this process's active monitors to their targets (so a
	// retiring owner removes them from long-lived targets); guarded by mu.
	owned map[*Monitor]*Process
	// ExitReq is the reason recorded by Process.exit while unwinding.
	ExitReq *value.Value

	// Sup is the supervision record of a supervised process (it keeps
	// the entry closure for restarts).
	Sup *Supervision
	// Driver, when set, runs the process instead of a vm.State (State is
	// nil): a Supervisor process, driven by Go code in runtime/sched.
	Driver any
	// OnRetire, when set, is called once by Retire after the process has
	// published its exits and Downs (step 5 of docs/reference/runtime.md#retiring-a-process), outside
	// every lock, with its terminal reason: a supervisor answers the
	// callers waiting on it there.
	OnRetire func(reason value.Value)
	// Startup is a supervised child's start-up phase (nil: none, as for
	// every process started by Process.spawn*).
	Startup *Startup
	// nwait is the open native wait (nativewait.go), guarded by mu.
	nwait *NativeWait
	// Port writes one line per String sent to a host port.
	Port func(s string)
	// sockets are the sockets and listeners the process owns and its
	// outside operation in flight (runtime/world), nil until the first;
	// socketsDone is set when the process retired. Both guarded by mu.
	sockets     *world.Owned
	socketsDone bool

	// rc is the registry, call and send_wait state (call.go), allocated
	// on first use.
	rc atomic.Pointer[regcall]
}

type phase uint8

const (
	phaseLive phase = iota
	phaseCleanup
	phaseReleased
)

// Monitor is one monitor registration, and the typed handle behind its
// MonitorRef value: a value.Handle of kind KMonRef whose reference is the
// *Monitor, with the serial as payload. A live
// registration sits in its target's monitors list (guarded by the
// target's lock) until the target retires or the owner cancels it; its
// state is guarded by the owner's lock, so that delivering the Down and
// cancelling are decided in one place and no two process locks are ever
// held together. A self-monitor is inert, and a monitor of a process
// that was already dead starts with its Down queued: neither is ever in
// a monitors list.
type Monitor struct {
	epoch, serial uint64
	owner         *Process
	target        *Process // nil for an inert self-monitor
	state         monState
}

type monState uint8

const (
	monActive    monState = iota
	monQueued             // its Down has been queued
	monCancelled          // demonitor ran first
	monInert              // a self-monitor: no relationship, never a Down
)

// Ref returns the MonitorRef value of m.
func (m *Monitor) Ref() value.Value {
	return value.Opaque(value.KMonRef, int64(m.serial), m)
}

// Serial returns the monitor's serial number (its number in the trace).
func (m *Monitor) Serial() uint64 { return m.serial }

// Epoch returns the epoch of the invocation that created m.
func (m *Monitor) Epoch() uint64 { return m.epoch }

// MonitorOf returns the registration behind a MonitorRef value, or nil.
func MonitorOf(v value.Value) *Monitor {
	if v.Kind() != value.KMonRef {
		return nil
	}
	m, _ := v.Ref().(*Monitor)
	return m
}

// Supervision links the incarnations of a supervised child.
type Supervision struct {
	// Entry is the (copied) entry closure every incarnation starts from.
	Entry value.Value

	mu      sync.Mutex
	Budget  int      // restarts left
	Current *Process // the live incarnation, or nil once it ended for good
}

// Pid returns the process's Pid value.
func (p *Process) Pid() value.Value { return p.pid.Value(int64(p.gen)) }

// ID returns the process's ProcessId value.
func (p *Process) ID() value.Value { return p.id.Value(int64(p.gen)) }

// Gen returns the process's generation.
func (p *Process) Gen() uint64 { return p.gen }

// Epoch returns the epoch of the invocation the process belongs to.
func (p *Process) Epoch() uint64 { return p.epoch }

// Lock and Unlock expose the process lock to the scheduler.
func (p *Process) Lock()   { p.mu.Lock() }
func (p *Process) Unlock() { p.mu.Unlock() }

// StatusLocked returns the status; p.mu must be held.
func (p *Process) StatusLocked() Status { return p.status }

// SetStatusLocked changes the status; p.mu must be held.
func (p *Process) SetStatusLocked(s Status) { p.status = s }

// Of returns the process behind a Pid or ProcessId value, or nil.
func Of(v value.Value) *Process {
	if k := v.Kind(); k != value.KPid && k != value.KProcID {
		return nil
	}
	p, _ := v.Ref().(*Process)
	return p
}

// KillRequested returns and clears a pending terminal reason.
func (p *Process) KillRequested() (value.Value, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.killReq == nil {
		return value.Unit, false
	}
	r := *p.killReq
	p.killReq = nil
	return r, true
}

// Exiting marks p as finished by its scheduler (the VM will not run it
// again); discard drops its State without running further code (a
// direct Kill skips cleanup that has not begun).
func (p *Process) Exiting(discard bool) {
	p.mu.Lock()
	p.status = Exiting
	if discard {
		p.dropState()
	}
	p.mu.Unlock()
}

// dropState releases p's State (its stack memory goes back to the
// invocation's stack budget); p.mu must be held and no scheduler may be
// running the State.
func (p *Process) dropState() {
	if p.State != nil {
		p.State.Release()
		p.State = nil
	}
}

// Trapping reports whether p traps exits.
func (p *Process) Trapping() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.trap
}

// SetTrap sets exit trapping and returns the previous setting.
func (p *Process) SetTrap(on bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.trap
	p.trap = on
	return old
}

// Reason returns the committed terminal reason (Unit if none yet).
func (p *Process) Reason() value.Value {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reason
}

// Queued returns the number of cells in the mailbox. It reads the
// receive side, so it must not be called while p is running.
func (p *Process) Queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.box) - p.head + len(p.inbox)
}

// NewSupervision starts the record of a supervised child with a restart
// budget and the entry closure of its incarnations.
func NewSupervision(budget int, first *Process, entry value.Value) *Supervision {
	return &Supervision{Budget: budget, Current: first, Entry: entry}
}

// End records that incarnation p ended without a restart.
func (s *Supervision) End(p *Process) {
	s.mu.Lock()
	if s.Current == p {
		s.Current = nil
	}
	s.mu.Unlock()
}

// TakeRestart consumes one restart from the budget, if any is left.
func (s *Supervision) TakeRestart() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Budget <= 0 {
		s.Current = nil
		return false
	}
	s.Budget--
	return true
}

// Replace makes next the current incarnation after old.
func (s *Supervision) Replace(old, next *Process) {
	s.mu.Lock()
	s.Current = next
	s.mu.Unlock()
}

// Now returns the current incarnation, or nil.
func (s *Supervision) Now() *Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Current
}

// Sockets returns the set of sockets and listeners p owns (created on
// first use). Once p has retired the set is closed: it refuses new
// resources, so nothing opened for a retired process stays open.
func (p *Process) Sockets() *world.Owned {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sockets == nil {
		p.sockets = &world.Owned{}
		if p.socketsDone {
			p.sockets.Close()
		}
	}
	return p.sockets
}
