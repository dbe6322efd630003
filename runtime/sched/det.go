package sched

import (
	"container/heap"
	"context"
	"time"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
)

// Deterministic runs (Config.Policy set).
//
// Everything runs on the goroutine that called Run: the loop asks the
// policy for the next agent and lets it act (a process runs one turn, a
// channel delivers one cell, the clock fires one timer) until the
// invocation ends, nothing can act, or ctx is cancelled. The run is a
// pure function of the program and the policy's answers: no wall clock
// (timers use the virtual clock), no goroutine interleaving, no map
// iteration order. The concurrent schedulers' code paths do not look at
// any of this beyond one nil check where a process is queued and one
// where a timer is armed.

// VirtualEpoch is the virtual clock's reading when a deterministic run
// starts.
var VirtualEpoch = time.Date(2000, time.January, 1, 0, 0, 0, 0, time.UTC)

// det is the state of a deterministic run.
type det struct {
	pol    Policy
	now    time.Time
	timers timerHeap[detTimer]
	tseq   uint64
	procs  map[uint64]*proc.Process
	// chans holds the channels the policy has as ready, by agent, with
	// their receiver.
	chans     map[Agent]*proc.Process
	decisions int64
	steps     int64
}

// detTimer is one armed receive timeout of a deterministic run; seq
// orders timers with the same deadline by arming order.
type detTimer struct {
	at    time.Time
	seq   uint64
	p     *proc.Process
	epoch uint64
}

// before orders virtual timers by due time, then by the order they were
// armed.
func (t detTimer) before(u detTimer) bool {
	if !t.at.Equal(u.at) {
		return t.at.Before(u.at)
	}
	return t.seq < u.seq
}

func newDet(pol Policy) *det {
	return &det{pol: pol, now: VirtualEpoch, procs: map[uint64]*proc.Process{}, chans: map[Agent]*proc.Process{}}
}

// ready hands a runnable process to the policy.
func (d *det) ready(p *proc.Process) {
	d.procs[p.Gen()] = p
	d.pol.Ready(Agent{Kind: AgentProcess, Proc: p.Gen()})
}

// onDefer: a cell went in flight from from to to (Invocation.OnDefer).
func (d *det) onDefer(from uint64, to *proc.Process) {
	a := Agent{Kind: AgentChannel, Proc: to.Gen(), From: from}
	if _, ok := d.chans[a]; ok {
		return
	}
	d.chans[a] = to
	d.pol.Ready(a)
}

// arm adds a timer.
func (d *det) arm(p *proc.Process, at time.Time, epoch uint64) {
	d.tseq++
	heap.Push(&d.timers, detTimer{at: at, seq: d.tseq, p: p, epoch: epoch})
}

// pruneTimers drops cancelled timers from the top of the heap, so that
// a non-empty heap means a live timer is pending.
func (d *det) pruneTimers() {
	for len(d.timers) > 0 && !d.timers[0].p.TimerLive(d.timers[0].epoch) {
		heap.Pop(&d.timers)
	}
}

// fire fires the earliest live timer, moving the clock to its deadline.
func (rt *Runtime) detFire() {
	d := rt.det
	d.pruneTimers()
	if len(d.timers) == 0 {
		return
	}
	t := heap.Pop(&d.timers).(detTimer)
	if t.at.After(d.now) {
		d.now = t.at
	}
	if t.p.TimerFired(t.epoch) {
		rt.enqueue(t.p)
	}
}

// visible is called by the host after each visible operation of the
// running process p: the policy may end p's turn there.
func (d *det) visible(p *proc.Process, op Op) {
	d.decisions++
	if d.pol.Preempt(p.Gen(), op) && p.State != nil {
		p.State.Preempt()
	}
}

// runDet is Run for a deterministic runtime.
func (rt *Runtime) runDet(ctx context.Context) {
	d := rt.det
	s := rt.scheds[0]
	done := ctx.Done()
	for !rt.isStopped() {
		select {
		case <-done:
			rt.mu.Lock()
			if !rt.stopped {
				rt.res.Cancelled = true
				rt.stopLocked()
			}
			rt.mu.Unlock()
			return
		default:
		}
		d.pruneTimers()
		if rt.cfg.TurnTick > 0 {
			// The clock moves with the turns: every timer whose
			// deadline it has passed fires before anyone acts.
			for len(d.timers) > 0 && !d.timers[0].at.After(d.now) {
				rt.detFire()
				d.pruneTimers()
			}
		}
		a, ok := d.pol.Next(len(d.timers) > 0)
		d.decisions++
		if !ok {
			if len(d.timers) > 0 {
				rt.detFire()
				continue
			}
			rt.detQuiescent()
			return
		}
		switch a.Kind {
		case AgentProcess:
			if p := d.procs[a.Proc]; p != nil {
				b := d.pol.Quantum(a.Proc)
				if b <= 0 {
					b = rt.cfg.Budget
				}
				s.runOne(p, b)
				if rt.cfg.TurnTick > 0 && p.Kind != proc.KindRoot {
					d.now = d.now.Add(rt.cfg.TurnTick)
				}
				if s.turns.Load()%64 == 0 {
					rt.Out.MaybeFlush(time.Now())
				}
			}
		case AgentChannel:
			to := d.chans[a]
			if to == nil {
				continue
			}
			if rt.Inv.Arrive(to, a.From) {
				d.pol.Ready(a)
			} else {
				delete(d.chans, a)
			}
		case AgentClock:
			rt.detFire()
		}
	}
}

// detQuiescent ends a deterministic run in which nothing can act: a
// normal end when no process is alive and the root has finished,
// otherwise a deadlock. A legacy-only program gets fault 10, as in the
// concurrent runtime; with isolated processes alive the run stops with
// Result.Deadlock and the deadlock report (DeadlockReport), which is what
// `morrow run` writes (Config.ReportDeadlock), whatever the config: no
// host can wake a process of a deterministic run.
func (rt *Runtime) detQuiescent() {
	rt.mu.Lock()
	if rt.stopped {
		rt.mu.Unlock()
		return
	}
	live, isolated := rt.Inv.Live()
	if live == 0 && rt.rootDone || rt.cfg.Session && rt.rootDone {
		// In a session, processes waiting in receive stay for the next
		// entry.
		rt.stopLocked()
		rt.mu.Unlock()
		return
	}
	rt.res.Deadlock = true
	rt.mu.Unlock()
	if isolated > 0 {
		// Nothing outside a deterministic run can wake a process: the
		// deadlock report of morrow run (a session ends its entry; the
		// REPL shows the waiting processes with :actors).
		report := ""
		if !rt.cfg.Session {
			report = DeadlockReport(rt.deadlockTable())
		}
		rt.trace("deadlock")
		rt.fatal(report)
		return
	}
	rt.trace("deadlock")
	rt.fatal("morrow: runtime error: " + fault.Deadlock.Text() + "\n")
}

// Now returns the runtime's clock: the virtual clock of a deterministic
// run, the wall clock otherwise.
func (rt *Runtime) Now() time.Time {
	if rt.det != nil {
		return rt.det.now
	}
	return time.Now()
}
