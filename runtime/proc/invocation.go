package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/world"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Invocation is the process-wide state of one run: identities, live
// counts, queue accounting and the hooks into the scheduler.
type Invocation struct {
	Epoch uint64

	gen    atomic.Uint64
	serial atomic.Uint64
	// queued and use are the queued user messages and the logical bytes
	// in use (limits.go: in packed mode use holds both), acct the mode.
	queued atomic.Int64
	use    atomic.Int64
	acct   atomic.Uint32
	// reservations counts lifecycle notifications in flight (monitors,
	// link directions, direct signals); see docs/reference/actors.md#limits.
	reservations atomic.Int64
	// timers counts the processes whose receive timer is armed (a
	// receive or call with a timeout that has parked and not yet ended):
	// only Process.armLocked and disarmLocked change it (ArmedTimers).
	timers atomic.Int64

	// rc is the name registry and the reply address serials (call.go).
	rc invRegcall

	mu       sync.Mutex
	live     int // processes that count against MaxLive (not root, not ports)
	isolated int // live isolated processes
	procs    map[*Process]struct{}

	// Wake hands a process that became Runnable to its scheduler.
	Wake func(p *Process)
	// OnEmpty is called (outside any lock) when the last live process
	// has been released.
	OnEmpty func()
	// MaxLive overrides the live-process limit (0: MaxLive; negative:
	// no limit, the --max-processes 0 of the runner).
	MaxLive int
	// MaxReservations overrides the invocation's lifecycle reservation
	// limit (0: MaxInvReservations).
	MaxReservations int64
	// MaxQueued overrides the invocation-wide limit of queued user
	// messages (0: MaxQueued; negative: no limit). The benchmarks raise
	// it; a value below MaxQueued is treated as MaxQueued.
	MaxQueued int64
	// MemoryBudget overrides the logical memory budget (0: MemoryBudget).
	MemoryBudget int64
	// Trace, when set, receives one line per lifecycle event published by
	// Retire (the scheduler's --trace output).
	Trace func(format string, args ...any)
	// TraceMessages adds a "send" line per user message sent and a
	// "recv" line per user message received to the trace (morrow run
	// --trace-messages); it needs Trace. With Defer it also adds an
	// "arrive" line per cell that leaves flight.
	TraceMessages bool
	// Defer keeps every cell a process sends another in flight until
	// Arrive delivers it (flight.go); a deterministic scheduler sets it
	// before the first process runs. OnDefer is then called, under the
	// receiver's lock, for each cell put in flight.
	Defer   bool
	OnDefer func(from uint64, to *Process)
}

func (inv *Invocation) trace(format string, args ...any) {
	if inv.Trace != nil {
		inv.Trace(format, args...)
	}
}

// shown renders v for the trace ("" when not tracing). It is called
// outside process locks: no value is walked under a lock.
func (inv *Invocation) shown(v value.Value) string {
	if inv.Trace == nil {
		return ""
	}
	return core.Show(v)
}

var epochs atomic.Uint64

// NewInvocation returns an invocation with a fresh epoch.
func NewInvocation() *Invocation {
	return &Invocation{Epoch: epochs.Add(1), procs: map[*Process]struct{}{}}
}

// Live returns the number of live processes and of live isolated ones.
func (inv *Invocation) Live() (live, isolated int) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.live, inv.isolated
}

// NewProcess creates a process of the given kind on scheduler sched. For
// the kinds that count against the live limit it performs admission and
// returns nil when the limit is reached.
func (inv *Invocation) NewProcess(kind Kind, st *vm.State, sched int) *Process {
	counted := kind == KindLegacy || kind == KindSupervised || kind == KindIsolated
	inv.mu.Lock()
	if counted {
		limit := inv.MaxLive
		if limit == 0 {
			limit = MaxLive
		}
		if limit > 0 && inv.live >= limit {
			inv.mu.Unlock()
			return nil
		}
		inv.live++
		if kind == KindIsolated {
			inv.isolated++
		}
	}
	p := &Process{inv: inv, epoch: inv.Epoch, gen: inv.gen.Add(1), Kind: kind, State: st, Sched: sched, status: Runnable}
	p.pid.Init(value.KPid, p)
	p.id.Init(value.KProcID, p)
	inv.procs[p] = struct{}{}
	inv.mu.Unlock()
	return p
}

// Processes returns the processes not yet released (for shutdown).
func (inv *Invocation) Processes() []*Process {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	out := make([]*Process, 0, len(inv.procs))
	for p := range inv.procs {
		out = append(out, p)
	}
	return out
}

// downValue builds Process.Down(ref, id, reason).
func downValue(m *Monitor, id, reason value.Value) value.Value {
	return value.NewData(ptype.EventType, ptype.EventDown, m.Ref(), id, reason)
}

// exitValue builds Process.Exit(id, reason).
func exitValue(id, reason value.Value) value.Value {
	return value.NewData(ptype.EventType, ptype.EventExit, id, reason)
}

func isNormal(r value.Value) bool {
	d, ok := r.Data()
	return ok && d.Tag == ptype.ReasonNormal
}

func reasonTag(r value.Value) int {
	if d, ok := r.Data(); ok {
		return d.Tag
	}
	return -1
}

type retireItem struct {
	p      *Process
	reason value.Value
}

// Retire ends process p with reason (the first committed reason wins).
// It is the only way a process ends: the lifecycle of docs/reference/runtime.md#retiring-a-process, one
// step per method below, driven by an explicit work list (a chain of a
// million linked processes needs no recursion: a partner an exit signal
// kills is appended to the list). A process whose cleanup has not run yet
// (it was terminated by a signal while alive) is aborted and handed back
// to its scheduler, which calls Retire again once the unwinding has
// finished.
func (inv *Invocation) Retire(p *Process, reason value.Value) {
	work := []retireItem{{p, reason}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		q := it.p
		q.mu.Lock()
		if q.phase == phaseReleased {
			q.mu.Unlock()
			continue
		}
		q.commitLocked(it.reason)
		if inv.runCleanupLocked(q) {
			continue // Retire runs again once the cleanup has run
		}
		d := inv.closeMailboxLocked(q)
		// Its sockets and listeners are closed and the outside operation
		// it was parked on is cancelled (docs/io.md: no descriptor outlives
		// its owner).
		d.sockets.Close()
		inv.retireRegcall(q) // step 3: its name is freed
		work = inv.publishExits(q, d, work)
		inv.publishDowns(q, d)
		inv.resumeBlocked(q) // step 5: callers and parked senders resume
		// Step 5 of docs/reference/runtime.md#retiring-a-process: resume every process parked on a call
		// to q. The callers of a supervisor wait in native waits that its
		// driver records; OnRetire answers them.
		if q.OnRetire != nil {
			q.OnRetire(d.reason)
		}
		inv.releaseAll(q, d)
	}
}

// death is what closeMailboxLocked took from a retiring process for the
// steps that run outside its lock.
type death struct {
	id, reason value.Value
	shown      string // the reason rendered for the trace ("" when not tracing)
	links      map[*Process]struct{}
	owned      map[*Monitor]*Process
	sockets    *world.Owned
}

// commitLocked is step 1 of docs/reference/runtime.md#retiring-a-process: commit the terminal reason;
// the first committed reason is final. p.mu is held.
func (p *Process) commitLocked(reason value.Value) {
	if !p.committed {
		p.committed = true
		p.reason = reason
	}
}

// runCleanupLocked is step 2 of docs/reference/runtime.md#retiring-a-process: make sure q's registered
// cleanup runs once before it retires. The VM runs cleanup while
// unwinding, so the process is asked to unwind with its reason and Retire
// is called again when that is done. A process running on a scheduler is
// handled there at its next safe point (end of its turn); a parked or
// queued one whose cleanup has not run is marked and woken, unless a
// direct Kill skips cleanup (a cleanup that is already running still
// completes: the scheduler lets it finish and drops only the rest). While
// q.mu is held and the status is not Running, no scheduler touches the
// State. It reports whether cleanup is pending; q.mu is held on entry and
// released when it returns true.
func (inv *Invocation) runCleanupLocked(q *Process) bool {
	if q.status != Running && (q.State == nil || q.State.Finished() || (q.skipClean && !q.State.InCleanup())) {
		return false
	}
	r := q.reason
	q.killReq = &r
	q.phase = phaseCleanup
	inv.unlockAndWake(q)
	return true
}

// unlockAndWake makes q runnable if it is parked, releases q.mu (held on
// entry) and then hands a q it made runnable to the scheduler.
func (inv *Invocation) unlockAndWake(q *Process) {
	wake := q.status == Parked
	if wake {
		q.status = Runnable
	}
	q.mu.Unlock()
	if wake {
		inv.Wake(q)
	}
}

// closeMailboxLocked is step 3 of docs/reference/runtime.md#retiring-a-process: close q's mailbox
// before q is unregistered, so that from here on sends fail with Err(3)
// instead of queueing into a dead mailbox. Everything q holds
// (lifecycle reservations, queued cells' bytes; their counters are
// guarded by the same lock) is released with it, its State is dropped
// and its receive timer, if armed, is given back. q.mu is held on entry
// and released on return.
func (inv *Invocation) closeMailboxLocked(q *Process) death {
	inv.releaseAllLocked(q)
	q.closed = true
	inv.releaseMsgs(int64(q.user), 0)
	q.user = 0
	q.box, q.head, q.cursor, q.inbox = nil, 0, 0, nil
	q.inboxAny.Store(false)
	q.inflight = nil
	q.disarmLocked()
	q.Wait = Wait{}
	q.status = Done
	q.phase = phaseReleased
	q.dropState()
	d := death{id: q.ID(), reason: q.reason, links: q.links, owned: q.owned, sockets: q.sockets}
	q.links, q.owned = nil, nil
	q.socketsDone = true
	q.mu.Unlock()
	// Values are rendered outside every lock (docs/reference/runtime.md#execution-model).
	d.shown = inv.shown(d.reason)
	if inv.Trace != nil { // the arguments would be boxed even when not tracing
		inv.trace("retire %d %s", d.id.Payload(), d.shown)
	}
	return d
}

// publishExits is the first half of step 4 of docs/reference/runtime.md#retiring-a-process: linked exit
// signals, in partner order, before any Down (docs/reference/actors.md#links-trapping-and-exit-signals), so an
// observer that has received the Down finds any Exit from the same
// process already queued. A trapping partner gets an Exit cell, which
// takes over its reservation for this direction; any other partner's
// reservation is released, and a non-Normal reason kills it (it is added
// to work). A partner that unlinked meanwhile no longer lists q and gets
// nothing.
func (inv *Invocation) publishExits(q *Process, d death, work []retireItem) []retireItem {
	for _, partner := range sortedLinks(d.links) {
		partner.mu.Lock()
		if _, ok := partner.links[q]; !ok {
			partner.mu.Unlock()
			continue
		}
		delete(partner.links, q)
		wake := false
		if !partner.closed {
			if inv.Trace != nil {
				inv.trace("exit signal %d -> %d %s", d.id.Payload(), partner.Gen(), d.shown)
			}
			if partner.trap {
				wake = inv.deliverFromLocked(q, partner, Cell{Kind: CellExit, Value: exitValue(d.id, d.reason), Bytes: CompletionBytes, Resv: true})
			} else {
				inv.unreserveLocked(partner, CompletionBytes)
				if !isNormal(d.reason) {
					work = append(work, retireItem{partner, d.reason})
				}
			}
		}
		partner.mu.Unlock()
		if wake {
			inv.Wake(partner)
		}
	}
	return work
}

// publishDowns is the second half of step 4 of docs/reference/runtime.md#retiring-a-process: one Down
// per active monitor of q. Each is queued under its owner's lock unless
// the owner cancelled the monitor first (Demonitor decides under the same
// lock), so no Down arrives after demonitor returns; the owner's
// reservation moves into the Down cell.
func (inv *Invocation) publishDowns(q *Process, d death) {
	q.mu.Lock()
	mons := q.monitors
	q.monitors = nil
	q.mu.Unlock()
	for _, m := range mons {
		o := m.owner
		o.mu.Lock()
		wake := false
		delete(o.owned, m)
		if m.state == monActive {
			m.state = monQueued
			if !o.closed {
				if inv.Trace != nil {
					inv.trace("down %d -> %d %s", d.id.Payload(), o.Gen(), d.shown)
				}
				wake = inv.deliverFromLocked(q, o, Cell{Kind: CellDown, Value: downValue(m, d.id, d.reason), Ref: m, Bytes: CompletionBytes, Resv: true})
			}
		}
		o.mu.Unlock()
		if wake {
			inv.Wake(o)
		}
	}
}

// releaseAll is step 6 of docs/reference/runtime.md#retiring-a-process: the monitors q owned stop
// watching their (live) targets, and q leaves the invocation's process
// table and live counts (the last live process ending the invocation is
// reported to OnEmpty). Its addresses already stopped resolving when its
// mailbox closed.
func (inv *Invocation) releaseAll(q *Process, d death) {
	for m, t := range d.owned {
		t.mu.Lock()
		t.removeMonitorLocked(m)
		t.mu.Unlock()
	}
	inv.release(q)
}

// removeMonitorLocked takes m out of p's monitors list; p.mu is held.
func (p *Process) removeMonitorLocked(m *Monitor) {
	for i, x := range p.monitors {
		if x == m {
			p.monitors = append(p.monitors[:i], p.monitors[i+1:]...)
			clear(p.monitors[len(p.monitors):cap(p.monitors)][:1])
			return
		}
	}
}

// Commit records reason as p's terminal reason unless one is already
// committed (Process.exit commits before its cleanup runs).
func (inv *Invocation) Commit(p *Process, reason value.Value) {
	p.mu.Lock()
	p.commitLocked(reason)
	p.mu.Unlock()
}

// ArmedTimers returns the number of processes whose receive timer is
// armed: a timer that is still to fire, or that fired and whose process
// has not yet run to see it. While it is not 0 an idle runtime waits.
func (inv *Invocation) ArmedTimers() int64 { return inv.timers.Load() }

func (inv *Invocation) release(q *Process) {
	inv.mu.Lock()
	delete(inv.procs, q)
	empty := false
	switch q.Kind {
	case KindLegacy, KindSupervised, KindIsolated:
		inv.live--
		if q.Kind == KindIsolated {
			inv.isolated--
		}
		empty = inv.live == 0
	}
	inv.mu.Unlock()
	if empty && inv.OnEmpty != nil {
		inv.OnEmpty()
	}
}

// SkipCleanup marks p so that Retire does not run cleanup that has not
// begun (a direct Kill).
func (p *Process) SkipCleanup() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.skipClean
}

// Monitor registers owner as a monitor of target and returns the
// MonitorRef value (docs/reference/actors.md#monitors). It reports false, with nothing
// registered, when the owner's reservation cannot be admitted.
func (inv *Invocation) Monitor(owner, target *Process) (value.Value, bool) {
	if target == owner {
		m := &Monitor{epoch: inv.Epoch, serial: inv.serial.Add(1), owner: owner, state: monInert}
		inv.trace("monitor %d -> %d ref %d (self, inert)", owner.Gen(), owner.Gen(), m.serial)
		return m.Ref(), true
	}
	owner.mu.Lock()
	ok := inv.reserveLocked(owner, CompletionBytes)
	owner.mu.Unlock()
	if !ok {
		return value.Unit, false
	}
	m := &Monitor{epoch: inv.Epoch, serial: inv.serial.Add(1), owner: owner, target: target}
	if inv.Trace != nil {
		inv.trace("monitor %d -> %d ref %d", owner.Gen(), target.Gen(), m.serial)
	}
	target.mu.Lock()
	if target.phase == phaseReleased {
		target.mu.Unlock()
		// Never registered: its Down is queued at once.
		m.state = monQueued
		inv.trace("down %d -> %d NoProcess", target.Gen(), owner.Gen())
		inv.deliverLifecycle(owner, target, Cell{Kind: CellDown, Value: downValue(m, target.ID(), ptype.Reason(ptype.ReasonNoProcess, value.Unit)), Ref: m, Bytes: CompletionBytes, Resv: true})
		return m.Ref(), true
	}
	target.monitors = append(target.monitors, m)
	target.mu.Unlock()
	owner.mu.Lock()
	if m.state == monActive && !owner.closed {
		if owner.owned == nil {
			owner.owned = map[*Monitor]*Process{}
		}
		owner.owned[m] = target
	}
	owner.mu.Unlock()
	return m.Ref(), true
}

// Demonitor cancels a monitor (docs/reference/actors.md#demonitor). It returns the Process
// result value.
func (inv *Invocation) Demonitor(owner *Process, m *Monitor, flush, info bool) value.Value {
	if m.owner != owner {
		return ptype.ErrProcess(ptype.ErrWrongMonitorOwner)
	}
	if t := m.target; t != nil {
		t.mu.Lock()
		t.removeMonitorLocked(m)
		t.mu.Unlock()
	}
	wasActive := false
	owner.mu.Lock()
	if inv.Defer {
		inv.arriveThroughLocked(owner, m)
	}
	delete(owner.owned, m)
	if m.state == monActive {
		m.state = monCancelled
		wasActive = true
		inv.unreserveLocked(owner, CompletionBytes)
	}
	if flush {
		inv.flushDownsLocked(owner, m)
	}
	owner.mu.Unlock()
	return value.Ok(value.Bool(!info || wasActive))
}

// LinkResult is the outcome of Link.
type LinkResult uint8

const (
	LinkOK    LinkResult = iota // linked (or already linked, or a self-link)
	LinkDead                    // the partner is dead: the caller applies the NoProcess effect
	LinkLimit                   // a reservation could not be admitted: nothing changed
)

// Link links a and b (docs/reference/actors.md#links-trapping-and-exit-signals), reserving one completion at
// each end.
func (inv *Invocation) Link(a, b *Process) LinkResult {
	if a == b {
		return LinkOK
	}
	lockPair(a, b)
	defer unlockPair(a, b)
	if b.phase == phaseReleased || b.closed {
		return LinkDead
	}
	if _, ok := a.links[b]; ok {
		return LinkOK
	}
	if !inv.reserveLocked(a, CompletionBytes) {
		return LinkLimit
	}
	if !inv.reserveLocked(b, CompletionBytes) {
		inv.unreserveLocked(a, CompletionBytes)
		return LinkLimit
	}
	if a.links == nil {
		a.links = map[*Process]struct{}{}
	}
	if b.links == nil {
		b.links = map[*Process]struct{}{}
	}
	a.links[b] = struct{}{}
	b.links[a] = struct{}{}
	return LinkOK
}

// lockPair locks two distinct processes in generation order, the only
// order in which two process locks are ever held together.
func lockPair(a, b *Process) {
	if a.gen > b.gen {
		a, b = b, a
	}
	a.mu.Lock()
	b.mu.Lock()
}

// unlockPair releases the locks of lockPair.
func unlockPair(a, b *Process) {
	a.mu.Unlock()
	b.mu.Unlock()
}

// Unlink removes the link between a and b, if any, releasing both
// directions' reservations.
func (inv *Invocation) Unlink(a, b *Process) {
	if a == b {
		return
	}
	lockPair(a, b)
	defer unlockPair(a, b)
	if _, ok := a.links[b]; ok {
		delete(a.links, b)
		delete(b.links, a)
		inv.unreserveLocked(a, CompletionBytes)
		inv.unreserveLocked(b, CompletionBytes)
	}
}

// DeliverExit queues a trapped Exit(id, reason) event for p, holding a
// completion reservation of p; it reports false when that cannot be
// admitted (nothing is queued).
func (inv *Invocation) DeliverExit(p *Process, id, reason value.Value) bool {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return true
	}
	if !inv.reserveLocked(p, CompletionBytes) {
		p.mu.Unlock()
		return false
	}
	if dead := Of(id); inv.Defer && dead != nil {
		inv.arriveAllLocked(p, dead.gen)
	}
	wake := p.deliverLocked(Cell{Kind: CellExit, Value: exitValue(id, reason), Bytes: CompletionBytes, Resv: true})
	p.mu.Unlock()
	if wake {
		inv.Wake(p)
	}
	return true
}

// SignalResult is the outcome of Signal.
type SignalResult uint8

const (
	SignalNoEffect   SignalResult = iota // ignored, queued as an Exit, or the target is dead
	SignalTerminated                     // the target is being terminated
	SignalLimit                          // not admitted: ResourceLimit
)

// Signal applies a direct exit signal from sender to target (see
// docs/reference/actors.md#links-trapping-and-exit-signals). The signal is admitted against target's reservations (512
// bytes plus its text); a trapped signal keeps the reservation in its
// Exit cell until consumed.
func (inv *Invocation) Signal(sender, target *Process, reason value.Value) SignalResult {
	rs := inv.shown(reason)
	target.mu.Lock()
	if target.phase != phaseLive {
		target.mu.Unlock()
		return SignalNoEffect
	}
	charge := int64(SignalBaseBytes) + reasonText(reason)
	if !inv.reserveLocked(target, charge) {
		target.mu.Unlock()
		return SignalLimit
	}
	inv.trace("exit signal %d -> %d %s (direct)", sender.Gen(), target.Gen(), rs)
	tag := reasonTag(reason)
	if tag == ptype.ReasonKill {
		inv.unreserveLocked(target, charge)
		target.skipClean = true
		target.mu.Unlock()
		inv.Retire(target, ptype.Reason(ptype.ReasonKilled, value.Unit))
		return SignalTerminated
	}
	if target.trap {
		wake := inv.deliverFromLocked(sender, target, Cell{Kind: CellExit, Value: exitValue(sender.ID(), reason), Bytes: charge, Resv: true})
		target.mu.Unlock()
		if wake {
			inv.Wake(target)
		}
		return SignalNoEffect
	}
	inv.unreserveLocked(target, charge)
	target.mu.Unlock()
	if tag == ptype.ReasonNormal {
		return SignalNoEffect
	}
	inv.Retire(target, reason)
	return SignalTerminated
}

// reasonText is the length of the text of a ShutdownDetail or Failure
// reason (0 for the others).
func reasonText(r value.Value) int64 {
	d, ok := r.Data()
	if !ok || (d.Tag != ptype.ReasonShutdownDetail && d.Tag != ptype.ReasonFailure) || len(d.Fields) == 0 {
		return 0
	}
	return int64(len(d.Fields[0].AsString()))
}

// sortedLinks returns the partners in generation order, so that exit
// signals (and the trace) are published in a deterministic order.
func sortedLinks(m map[*Process]struct{}) []*Process {
	out := make([]*Process, 0, len(m))
	for p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *Process) int { return cmp.Compare(a.Gen(), b.Gen()) })
	return out
}

// Discard undoes the admission of a process that never ran (a
// spawn_monitor or spawn_link whose relationship could not be admitted):
// nothing about it is published.
func (inv *Invocation) Discard(p *Process) {
	p.mu.Lock()
	inv.releaseAllLocked(p)
	p.closed = true
	p.phase = phaseReleased
	p.status = Done
	p.dropState()
	p.mu.Unlock()
	inv.release(p)
}
