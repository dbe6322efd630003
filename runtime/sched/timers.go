package sched

import (
	"container/heap"
	"math"
	"time"

	"github.com/morrow-lang/morrow/runtime/proc"
)

// Receive timers of the concurrent schedulers (a deterministic run keeps
// its own, det.go).
//
// A receive or call with a timeout arms a timer in the heap of the
// scheduler running it (arm); the process has already counted it as
// armed (proc.Invocation.ArmedTimers). The owner fires its due timers
// between turns (loop) and sleeps until the first one when it has
// nothing to run. A scheduler busy in one long turn (a native that runs
// long, a long stretch without a reduction) cannot: so an idle
// scheduler fires the timers of another that are overdue by timerGrace
// and takes the processes they wake (fireOverdue), with or without
// stealing: the woken process runs at once on the idle scheduler
// instead of waiting for the busy one's turn to end. A sleeping
// scheduler therefore also wakes at the other schedulers' first timers
// plus timerGrace, and a timer armed ahead of its heap's earlier ones
// pokes a sleeping scheduler so that it looks again (arm).
//
// The heap is guarded by tmu, which its owner takes only when it arms
// a timer or a timer is due; nextAt, the first timer's due time, lets
// the owner's loop and the other schedulers look without the lock. The
// message path (send, receive, park) does not touch any of this.

// timer is one armed receive timeout.
type timer struct {
	at    time.Time
	p     *proc.Process
	epoch uint64
}

func (t timer) before(u timer) bool { return t.at.Before(u.at) }

// timerHeap is a container/heap of timers, the first due first: the
// schedulers' receive timeouts (timer) and the deterministic policy's
// virtual ones (detTimer).
type timerHeap[T interface{ before(T) bool }] []T

func (h timerHeap[T]) Len() int           { return len(h) }
func (h timerHeap[T]) Less(i, j int) bool { return h[i].before(h[j]) }
func (h timerHeap[T]) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timerHeap[T]) Push(x any)        { *h = append(*h, x.(T)) }
func (h *timerHeap[T]) Pop() any {
	old := *h
	t := old[len(old)-1]
	var zero T
	old[len(old)-1] = zero // drop the reference to the process
	*h = old[:len(old)-1]
	return t
}

// noTimer is nextAt of an empty heap.
const noTimer = math.MaxInt64

// timerGrace is how long a timer must be overdue before a scheduler
// other than its owner fires it: the owner, between two turns, fires its
// own; only one busy in a turn for that long leaves them waiting.
const timerGrace = loneAfter

// mono is t as nanoseconds since the runtime was created, on the
// monotonic clock (nextAt's unit).
func (rt *Runtime) mono(t time.Time) int64 { return int64(t.Sub(rt.t0)) }

// arm adds a timer for p's current wait to the heap (the process has
// armed it: proc.DecideArm, proc.CallArm).
func (s *Scheduler) arm(p *proc.Process, at time.Time, epoch uint64) {
	rt := s.rt
	if d := rt.det; d != nil {
		d.arm(p, at, epoch)
		return
	}
	s.tmu.Lock()
	s.compactTimersLocked()
	heap.Push(&s.timers, timer{at: at, p: p, epoch: epoch})
	first := s.timers[0].p == p && s.timers[0].epoch == epoch
	if first {
		s.nextAt.Store(rt.mono(at))
	}
	s.tmu.Unlock()
	if first && len(rt.scheds) > 1 && rt.sleepers.Load() > 0 {
		rt.pokeWatcher(s.id, rt.mono(at)+int64(timerGrace))
	}
}

// pokeWatcher makes sure that a sleeping scheduler other than from will
// look at from's timers by due (Runtime.mono): unless one already sleeps
// no longer than that, it wakes one, which then sleeps again until
// from's new first timer plus timerGrace at the latest. A scheduler that
// goes to sleep after the timer was armed sees it (sleepFor) without a
// poke.
func (rt *Runtime) pokeWatcher(from int, due int64) {
	var sleeper *Scheduler
	for i := 1; i < len(rt.scheds); i++ {
		t := rt.scheds[(from+i)%len(rt.scheds)]
		t.mu.Lock()
		sl := t.sleeping
		t.mu.Unlock()
		if !sl {
			continue
		}
		if t.sleepUntil.Load() <= due {
			return
		}
		if sleeper == nil {
			sleeper = t
		}
	}
	if sleeper != nil {
		signal(sleeper.wake)
	}
}

// setNextLocked publishes the due time of the heap's first timer;
// s.tmu is held.
func (s *Scheduler) setNextLocked() {
	if len(s.timers) == 0 {
		s.nextAt.Store(noTimer)
		return
	}
	s.nextAt.Store(s.rt.mono(s.timers[0].at))
}

// compactTimersLocked drops cancelled timers once they make up at least
// half of the heap (a receive that got its message leaves its timer
// behind; cancellation is lazy, but the heap must not grow without
// bound); s.tmu is held.
func (s *Scheduler) compactTimersLocked() {
	n := len(s.timers)
	if n < 256 || int64(n) <= 2*s.rt.Inv.ArmedTimers() {
		return
	}
	kept := s.timers[:0]
	for _, t := range s.timers {
		if t.p.TimerLive(t.epoch) {
			kept = append(kept, t)
		}
	}
	clear(s.timers[len(kept):])
	s.timers = kept
	heap.Init(&s.timers)
	s.setNextLocked()
}

// popDueLocked pops the timers of s due at now and appends to woken the
// processes whose timer fired (stale timers are dropped); s.tmu is held.
func (s *Scheduler) popDueLocked(now time.Time, woken []*proc.Process) []*proc.Process {
	for len(s.timers) > 0 && !s.timers[0].at.After(now) {
		t := heap.Pop(&s.timers).(timer)
		if t.p.TimerFired(t.epoch) {
			woken = append(woken, t.p)
		}
	}
	s.setNextLocked()
	return woken
}

// fireTimers fires the owner's timers due now, if any: the processes
// woken go to their schedulers' queues.
func (s *Scheduler) fireTimers() {
	at := s.nextAt.Load()
	if at == noTimer {
		return
	}
	now := time.Now()
	if s.rt.mono(now) < at {
		return
	}
	s.tmu.Lock()
	s.woken = s.popDueLocked(now, s.woken[:0])
	s.tmu.Unlock()
	for i, p := range s.woken {
		s.rt.enqueue(p)
		s.woken[i] = nil
	}
}

// fireOverdue, on a scheduler with nothing to run, fires the due timers
// of every other scheduler whose first timer is overdue by timerGrace
// (that scheduler is busy in a turn) and takes the processes they wake
// into its own queue. It reports whether it took any.
func (s *Scheduler) fireOverdue() bool {
	rt := s.rt
	if len(rt.scheds) == 1 {
		return false
	}
	var now time.Time
	woken := s.woken[:0]
	for _, v := range rt.scheds {
		if v == s || v.nextAt.Load() == noTimer {
			continue
		}
		if now.IsZero() {
			now = time.Now()
		}
		if rt.mono(now)-int64(timerGrace) < v.nextAt.Load() {
			continue
		}
		v.tmu.Lock()
		woken = v.popDueLocked(now, woken)
		v.tmu.Unlock()
	}
	s.woken = woken
	for i, p := range woken {
		// p is Runnable and in no queue (its timer made it so): it
		// moves here, as a stolen process does.
		p.Lock()
		p.Sched = s.id
		p.Unlock()
		s.push(p)
		woken[i] = nil
	}
	return len(woken) > 0
}

// sleepFor is how long a scheduler with nothing to run may sleep (< 0:
// until woken): until its own first timer, or another scheduler's first
// timer plus timerGrace (fireOverdue), whichever comes first.
func (s *Scheduler) sleepFor(now time.Time) time.Duration {
	rt := s.rt
	d := time.Duration(-1)
	m := rt.mono(now)
	for _, v := range rt.scheds {
		at := v.nextAt.Load()
		if at == noTimer {
			continue
		}
		if v != s {
			at += int64(timerGrace)
		}
		if w := time.Duration(max(at-m, 0)); d < 0 || w < d {
			d = w
		}
	}
	return d
}
