package proc

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

// Invocation is the process-wide state of one run: identities, live
// counts, queue accounting and the hooks into the scheduler.
type Invocation struct {
	Epoch uint64

	gen    atomic.Uint64
	serial atomic.Uint64
	queued atomic.Int64 // user messages queued in all mailboxes
	// reservations counts lifecycle notifications in flight (monitors,
	// link directions, direct signals); see LANGUAGE.md §7.5.
	reservations atomic.Int64
	// bytes is the logical memory in use (limits.go).
	bytes atomic.Int64

	mu       sync.Mutex
	live     int // processes that count against MaxLive (not root, not ports)
	isolated int // live isolated processes
	procs    map[*Process]struct{}

	// Wake hands a process that became Runnable to its scheduler.
	Wake func(p *Process)
	// OnEmpty is called (outside any lock) when the last live process
	// has been released.
	OnEmpty func()
	// OnTimerDropped is called when a retired process had an armed
	// receive timer (the scheduler's pending-timer count).
	OnTimerDropped func()
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
	// --trace-messages); it needs Trace.
	TraceMessages bool
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

// Queued returns the number of user messages queued in the invocation.
func (inv *Invocation) Queued() int64 { return inv.queued.Load() }

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
	p := &Process{Kind: kind, State: st, Sched: sched, status: Runnable}
	p.Handle = &process.Handle{Epoch: inv.Epoch, Gen: inv.gen.Add(1), Target: p}
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
func downValue(ref *process.MonitorRef, id, reason value.Value) value.Value {
	return value.NewData(process.EventType, process.EventDown, process.RefValue(ref), id, reason)
}

// exitValue builds Process.Exit(id, reason).
func exitValue(id, reason value.Value) value.Value {
	return value.NewData(process.EventType, process.EventExit, id, reason)
}

func isNormal(r value.Value) bool {
	d, ok := r.R.(*value.Data)
	return ok && d.Tag == process.ReasonNormal
}

func reasonTag(r value.Value) int {
	if d, ok := r.R.(*value.Data); ok {
		return d.Tag
	}
	return -1
}

type retireItem struct {
	p      *Process
	reason value.Value
}

// Retire ends process p with reason (the first committed reason wins).
// It is the only way a process ends; see the package comment for the
// steps. A process whose cleanup has not run yet (it was terminated by a
// signal while alive) is aborted and handed back to its scheduler, which
// calls Retire again once the unwinding has finished.
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
		// 1. Commit the terminal reason.
		if !q.committed {
			q.committed = true
			q.reason = it.reason
		}
		// 2. Cleanup: the VM runs it while unwinding. A process running
		// on a scheduler is handled there at its next safe point (end of
		// its turn); a parked or queued one whose cleanup has not run is
		// aborted and rescheduled, unless a direct Kill skips cleanup
		// (a cleanup that is already running still completes: the
		// scheduler lets it finish and drops only the rest).
		// (While p.mu is held and the status is not Running, no
		// scheduler touches the State.)
		if q.status == Running {
			r := q.reason
			q.killReq = &r
			q.phase = phaseCleanup
			q.mu.Unlock()
			continue
		}
		if q.State != nil && !q.State.Finished() && (!q.skipClean || q.State.InCleanup()) {
			r := q.reason
			q.killReq = &r
			q.phase = phaseCleanup
			wake := false
			if q.status == Parked {
				q.status = Runnable
				wake = true
			}
			q.mu.Unlock()
			if wake {
				inv.Wake(q)
			}
			continue
		}
		// 3. Close the mailbox before unregistering: from here on sends
		// fail with Err(3). Everything q holds (reservations, queued
		// cells' bytes) is released with it.
		inv.releaseAllLocked(q)
		q.closed = true
		inv.queued.Add(int64(-q.user))
		q.user = 0
		q.cells, q.head, q.cursor = nil, 0, 0
		armed := q.Wait.Armed
		q.Wait = Wait{}
		q.status = Done
		q.phase = phaseReleased
		q.dropState()
		reason := q.reason
		links := q.links
		q.links = nil
		owned := q.owned
		q.owned = nil
		id := q.ID()
		q.mu.Unlock()
		// Values are rendered outside every lock (RUNTIME.md §1).
		rs := inv.shown(reason)
		inv.trace("retire %d %s", id.N, rs)
		if armed {
			inv.TimerDropped()
		}
		// 4. Publish: linked exit signals first, then monitor Downs
		// (LANGUAGE.md §7.4), so an observer that has received the Down
		// finds any Exit from the same process already queued. Each
		// partner's reservation for this direction moves into its Exit
		// cell, or is released when the signal is not queued. A partner
		// that unlinked meanwhile no longer lists q and gets nothing.
		for _, partner := range sortedLinks(links) {
			partner.mu.Lock()
			if _, ok := partner.links[q]; !ok {
				partner.mu.Unlock()
				continue
			}
			delete(partner.links, q)
			wake := false
			if !partner.closed {
				inv.trace("exit signal %d -> %d %s", id.N, partner.Gen(), rs)
				if partner.trap {
					wake = partner.deliverLocked(Cell{Kind: CellExit, Value: exitValue(id, reason), Bytes: CompletionBytes, Resv: true})
				} else {
					inv.unreserveLocked(partner, CompletionBytes)
					if !isNormal(reason) {
						work = append(work, retireItem{partner, reason})
					}
				}
			}
			partner.mu.Unlock()
			if wake {
				inv.Wake(partner)
			}
		}
		// Downs: each is queued under its owner's lock unless the owner
		// cancelled the monitor first (Demonitor decides under the same
		// lock), so no Down arrives after demonitor returns. The owner's
		// reservation moves into the Down cell.
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
					inv.trace("down %d -> %d %s", id.N, o.Gen(), rs)
					wake = o.deliverLocked(Cell{Kind: CellDown, Value: downValue(m.ref, id, reason), Ref: m.ref, Bytes: CompletionBytes, Resv: true})
				}
			}
			o.mu.Unlock()
			if wake {
				inv.Wake(o)
			}
		}
		// The monitors q owned stop watching their (live) targets.
		for m, t := range owned {
			t.mu.Lock()
			for i, x := range t.monitors {
				if x == m {
					t.monitors = append(t.monitors[:i], t.monitors[i+1:]...)
					clear(t.monitors[len(t.monitors):cap(t.monitors)][:1])
					break
				}
			}
			t.mu.Unlock()
		}
		// 5. (calls: not in this issue.) 6. Release.
		inv.release(q)
	}
}

// Commit records reason as p's terminal reason unless one is already
// committed (Process.exit commits before its cleanup runs).
func (inv *Invocation) Commit(p *Process, reason value.Value) {
	p.mu.Lock()
	if !p.committed {
		p.committed = true
		p.reason = reason
	}
	p.mu.Unlock()
}

// TimerDropped is set by the scheduler to keep its pending-timer count.
func (inv *Invocation) TimerDropped() {
	if inv.OnTimerDropped != nil {
		inv.OnTimerDropped()
	}
}

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
// MonitorRef value (LANGUAGE.md §7.2). It reports false, with nothing
// registered, when the owner's reservation cannot be admitted.
func (inv *Invocation) Monitor(owner, target *Process) (value.Value, bool) {
	if target == owner {
		ref := &process.MonitorRef{Epoch: inv.Epoch, Serial: inv.serial.Add(1), Owner: owner.Handle}
		inv.trace("monitor %d -> %d ref %d (self, inert)", owner.Gen(), owner.Gen(), ref.Serial)
		return process.RefValue(ref), true // inert
	}
	owner.mu.Lock()
	ok := inv.reserveLocked(owner, CompletionBytes)
	owner.mu.Unlock()
	if !ok {
		return value.Unit, false
	}
	ref := &process.MonitorRef{Epoch: inv.Epoch, Serial: inv.serial.Add(1), Owner: owner.Handle, Target: target.Handle}
	inv.trace("monitor %d -> %d ref %d", owner.Gen(), target.Gen(), ref.Serial)
	target.mu.Lock()
	if target.phase == phaseReleased {
		target.mu.Unlock()
		inv.trace("down %d -> %d NoProcess", target.Gen(), owner.Gen())
		inv.deliverLifecycle(owner, Cell{Kind: CellDown, Value: downValue(ref, target.ID(), process.Reason(process.ReasonNoProcess, value.Unit)), Ref: ref, Bytes: CompletionBytes, Resv: true})
		return process.RefValue(ref), true
	}
	m := &monitor{ref: ref, owner: owner}
	ref.State = m
	target.monitors = append(target.monitors, m)
	target.mu.Unlock()
	owner.mu.Lock()
	if m.state == monActive && !owner.closed {
		if owner.owned == nil {
			owner.owned = map[*monitor]*Process{}
		}
		owner.owned[m] = target
	}
	owner.mu.Unlock()
	return process.RefValue(ref), true
}

// Demonitor cancels a monitor (LANGUAGE.md §7.3). It returns the Process
// result value.
func (inv *Invocation) Demonitor(owner *Process, ref *process.MonitorRef, flush, info bool) value.Value {
	if ref.Owner != owner.Handle {
		return process.ErrProcess(process.ErrWrongMonitorOwner)
	}
	wasActive := false
	m, _ := ref.State.(*monitor)
	if m != nil {
		if t, _ := ref.Target.Target.(*Process); t != nil {
			t.mu.Lock()
			for i, x := range t.monitors {
				if x == m {
					t.monitors = append(t.monitors[:i], t.monitors[i+1:]...)
					break
				}
			}
			t.mu.Unlock()
		}
	}
	owner.mu.Lock()
	if m != nil {
		delete(owner.owned, m)
	}
	if m != nil && m.state == monActive {
		m.state = monCancelled
		wasActive = true
		inv.unreserveLocked(owner, CompletionBytes)
	}
	if flush {
		out := owner.cells[:owner.head]
		for _, c := range owner.cells[owner.head:] {
			if c.Kind == CellDown && c.Ref == ref {
				if c.Resv {
					inv.unreserveLocked(owner, c.Bytes)
				}
				continue
			}
			out = append(out, c)
		}
		clear(owner.cells[len(out):])
		owner.cells = out
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

// Link links a and b (LANGUAGE.md §7.4), reserving one completion at
// each end.
func (inv *Invocation) Link(a, b *Process) LinkResult {
	if a == b {
		return LinkOK
	}
	x, y := a, b
	if x.Gen() > y.Gen() {
		x, y = y, x
	}
	x.mu.Lock()
	y.mu.Lock()
	defer x.mu.Unlock()
	defer y.mu.Unlock()
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

// Unlink removes the link between a and b, if any, releasing both
// directions' reservations.
func (inv *Invocation) Unlink(a, b *Process) {
	if a == b {
		return
	}
	x, y := a, b
	if x.Gen() > y.Gen() {
		x, y = y, x
	}
	x.mu.Lock()
	y.mu.Lock()
	defer x.mu.Unlock()
	defer y.mu.Unlock()
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

// Signal applies a direct exit signal from sender to target (LANGUAGE.md
// §7.4). The signal is admitted against target's reservations (512
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
	if tag == process.ReasonKill {
		inv.unreserveLocked(target, charge)
		target.skipClean = true
		target.mu.Unlock()
		inv.Retire(target, process.Reason(process.ReasonKilled, value.Unit))
		return SignalTerminated
	}
	if target.trap {
		wake := target.deliverLocked(Cell{Kind: CellExit, Value: exitValue(sender.ID(), reason), Bytes: charge, Resv: true})
		target.mu.Unlock()
		if wake {
			inv.Wake(target)
		}
		return SignalNoEffect
	}
	inv.unreserveLocked(target, charge)
	target.mu.Unlock()
	if tag == process.ReasonNormal {
		return SignalNoEffect
	}
	inv.Retire(target, reason)
	return SignalTerminated
}

// reasonText is the length of the text of a ShutdownDetail or Failure
// reason (0 for the others).
func reasonText(r value.Value) int64 {
	d, ok := r.R.(*value.Data)
	if !ok || (d.Tag != process.ReasonShutdownDetail && d.Tag != process.ReasonFailure) || len(d.Fields) == 0 {
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
