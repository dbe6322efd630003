package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// TestNativeWait: a process parked on a native call stays parked when a
// message arrives, runs again once its wait is answered, and takes the
// answer exactly once; an answer for a wait that is no longer open is
// dropped, and retiring answers nothing into a closed process.
func TestNativeWait(t *testing.T) {
	inv, woken := newInv()
	p := inv.NewProcess(KindIsolated, nil, 0)
	w := p.StartNativeWait()
	if _, open, done := p.TakeNativeWait(); !open || done {
		t.Fatalf("a fresh wait: open %v done %v", open, done)
	}
	p.Lock()
	p.SetStatusLocked(Running)
	if p.ParkLocked() {
		t.Fatal("an unanswered wait runs again")
	}
	p.Unlock()
	// A message wakes the parked process, but its wait still parks it.
	if inv.Send(p, value.Int(1)) != SendOK {
		t.Fatal("send")
	}
	p.Lock()
	if p.StatusLocked() != Runnable {
		t.Fatal("a message did not wake the parked process")
	}
	p.SetStatusLocked(Running)
	if p.ParkLocked() {
		t.Fatal("a message ended the native wait")
	}
	p.Unlock()
	n := len(*woken)
	inv.CompleteNativeWait(p, w, value.Int(42))
	if len(*woken) != n+1 {
		t.Fatal("the answer did not wake the parked process")
	}
	inv.CompleteNativeWait(p, w, value.Int(7)) // a second answer is dropped
	v, open, done := p.TakeNativeWait()
	if !open || !done || v.AsInt() != 42 {
		t.Fatalf("take = %v %v %v, want the first answer 42", v, open, done)
	}
	if _, open, _ := p.TakeNativeWait(); open {
		t.Fatal("the wait is still open after its answer was taken")
	}
	// A stale answer (for a wait that was cancelled) is dropped.
	w2 := p.StartNativeWait()
	p.CancelNativeWait(w2)
	inv.CompleteNativeWait(p, w2, value.Int(1))
	if _, open, _ := p.TakeNativeWait(); open {
		t.Fatal("a cancelled wait came back")
	}
	// An answer to a retired process is dropped; OnRetire runs once.
	w3 := p.StartNativeWait()
	calls := 0
	p.OnRetire = func(value.Value) { calls++ }
	inv.Retire(p, ptype.Reason(ptype.ReasonNormal, value.Unit))
	inv.CompleteNativeWait(p, w3, value.Int(1))
	if _, _, done := p.TakeNativeWait(); done || calls != 1 {
		t.Fatalf("retired process: answered %v, OnRetire ran %d times", done, calls)
	}
}
