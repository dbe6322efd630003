package sched

import (
	"io"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/proc"
)

// TestStealLoneFromBusyScheduler: an idle scheduler takes the one
// process queued on a scheduler that has been in the same turn (a long
// native) for loneAfter, and leaves it to a scheduler that is making
// progress. Before, a lone queued process was never stolen from a busy
// scheduler and waited for the end of its turn.
func TestStealLoneFromBusyScheduler(t *testing.T) {
	rt := New(nil, NewOutput(io.Discard), Config{Schedulers: 2, Steal: true})
	busy, thief := rt.scheds[0], rt.scheds[1]
	p := rt.Inv.NewProcess(proc.KindIsolated, nil, 0)
	busy.mu.Lock()
	busy.q = append(busy.q, p)
	busy.qlen.Add(1)
	busy.mu.Unlock()
	if got := thief.steal(); got != nil {
		t.Fatal("stole the lone process at the first look")
	}
	time.Sleep(2 * loneAfter)
	busy.turns.Add(1) // the busy scheduler moved on: not stuck
	if got := thief.steal(); got != nil {
		t.Fatal("stole the lone process of a scheduler that makes progress")
	}
	if !thief.loneWaiting() {
		t.Fatal("the thief does not see the lone process")
	}
	time.Sleep(2 * loneAfter)
	if got := thief.steal(); got != p {
		t.Fatalf("the lone process of a scheduler stuck in one turn was not stolen: %v", got)
	}
	if p.Sched != thief.id || busy.qlen.Load() != 0 {
		t.Fatalf("after the steal: Sched %d, victim queue %d", p.Sched, busy.qlen.Load())
	}
}
