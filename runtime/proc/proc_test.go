package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// fillMailbox sends p the integers 0 to MaxMailbox-1, failing t unless
// each is accepted.
func fillMailbox(t *testing.T, inv *Invocation, p *Process) {
	t.Helper()
	for i := 0; i < MaxMailbox; i++ {
		if r := inv.Send(p, value.Int(int64(i))); r != SendOK {
			t.Fatalf("send %d: %d", i, r)
		}
	}
}

func newInv() (*Invocation, *[]*Process) {
	inv := NewInvocation()
	var woken []*Process
	var mu sync.Mutex
	inv.Wake = func(p *Process) { mu.Lock(); woken = append(woken, p); mu.Unlock() }
	return inv, &woken
}

func mustPeek(t *testing.T, p *Process, want int64) {
	t.Helper()
	v, ok := p.RecvPeek()
	if !ok || v.Kind() != value.KInt || v.AsInt() != want {
		t.Fatalf("peek = %v %v, want Int %d", v, ok, want)
	}
}

func TestCursorSkipTakeAndRestart(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	for i := int64(1); i <= 3; i++ {
		if r := inv.Send(p, value.Int(i)); r != SendOK {
			t.Fatalf("send %d: %d", i, r)
		}
	}
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 1)
	p.RecvSkip()
	mustPeek(t, p, 2)
	p.RecvTake(inv) // takes 2 from the middle
	// A new receive starts again at the oldest cell; order is kept.
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 1)
	p.RecvSkip()
	mustPeek(t, p, 3)
	p.RecvSkip()
	if _, ok := p.RecvPeek(); ok {
		t.Fatal("peek past the last cell succeeded")
	}
	if inv.Queued() != 2 {
		t.Fatalf("queued = %d, want 2", inv.Queued())
	}
}

func TestWokenReceiveResumesAtCursor(t *testing.T) {
	inv, woken := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	inv.Send(p, value.Int(1))
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 1)
	p.RecvSkip() // no arm matched 1
	if _, ok := p.RecvPeek(); ok {
		t.Fatal("unexpected cell")
	}
	if d := p.RecvWait(time.Now()); d != DecidePark {
		t.Fatalf("wait = %d, want park", d)
	}
	p.Lock()
	if p.ParkLocked() {
		t.Fatal("parked process must not run again without news")
	}
	p.Unlock()
	inv.Send(p, value.Int(2))
	if len(*woken) != 1 || (*woken)[0] != p {
		t.Fatalf("woken = %v", *woken)
	}
	if d := p.RecvWait(time.Now()); d != DecideRetry {
		t.Fatalf("wait after a send = %d, want retry", d)
	}
	mustPeek(t, p, 2) // not 1 again: the cursor was kept
}

func TestPlainReceiveSkipsLifecycleCells(t *testing.T) {
	inv, _ := newInv()
	owner := inv.NewProcess(KindIsolated, nil, 0)
	target := inv.NewProcess(KindIsolated, nil, 0)
	inv.Monitor(owner, target)
	inv.Retire(target, ptype.Reason(ptype.ReasonNormal, value.Unit))
	inv.Send(owner, value.Int(5))
	owner.RecvStart(-1, false, time.Now())
	mustPeek(t, owner, 5)
	owner.RecvTake(inv)
	if owner.Queued() != 1 {
		t.Fatalf("the Down cell was consumed by a plain receive")
	}
	owner.RecvStart(-1, true, time.Now())
	v, ok := owner.RecvPeek()
	d, _ := v.Data()
	if !ok || d == nil || d.Type != ptype.EventType || d.Tag != ptype.EventDown {
		t.Fatalf("receive_event peek = %v", v)
	}
	if r := d.Fields[2].AsData(); r.Tag != ptype.ReasonNormal {
		t.Fatalf("reason tag %d", r.Tag)
	}
}

func TestMailboxLimitAndDeadTarget(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	fillMailbox(t, inv, p)
	if r := inv.Send(p, value.Int(0)); r != SendFull {
		t.Fatalf("send to a full mailbox = %d, want 4", r)
	}
	p.RecvStart(-1, false, time.Now())
	p.RecvTake(inv)
	if r := inv.Send(p, value.Int(0)); r != SendOK {
		t.Fatalf("send after a take = %d", r)
	}
	inv.Retire(p, ptype.Reason(ptype.ReasonNormal, value.Unit))
	if r := inv.Send(p, value.Int(0)); r != SendDead {
		t.Fatalf("send to a retired process = %d, want 3", r)
	}
	if inv.Queued() != 0 {
		t.Fatalf("queued = %d after retire", inv.Queued())
	}
	if live, _ := inv.Live(); live != 0 {
		t.Fatalf("live = %d", live)
	}
}

func TestLiveLimit(t *testing.T) {
	inv, _ := newInv()
	for i := 0; i < MaxLive; i++ {
		if inv.NewProcess(KindIsolated, nil, 0) == nil {
			t.Fatalf("admission %d refused", i)
		}
	}
	if inv.NewProcess(KindLegacy, nil, 0) != nil {
		t.Fatal("admission beyond the limit")
	}
	if inv.NewProcess(KindPort, nil, 0) == nil {
		t.Fatal("ports do not count against the limit")
	}
}

func TestStaleTimerDoesNotFireIntoLaterWait(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	now := time.Now()
	p.RecvStart(1000, false, now)
	if d := p.RecvWait(now); d != DecideArm {
		t.Fatalf("first wait = %d, want arm", d)
	}
	epoch := p.Wait.Epoch
	inv.Send(p, value.Int(1))
	mustPeek(t, p, 1)
	if n := inv.ArmedTimers(); n != 1 {
		t.Fatalf("armed timers while waiting = %d, want 1", n)
	}
	p.RecvTake(inv)
	if n := inv.ArmedTimers(); n != 0 {
		t.Fatalf("armed timers after the take = %d, want 0", n)
	}
	p.RecvStart(-1, false, now) // a later wait without timeout
	if p.TimerFired(epoch) {
		t.Fatal("a stale timer woke the process")
	}
	if d := p.RecvWait(now.Add(time.Hour)); d != DecidePark {
		t.Fatalf("later wait = %d, want park", d)
	}
	// A current timer does fire.
	p.RecvStart(10, false, now)
	p.RecvWait(now)
	p.Lock()
	p.ParkLocked()
	p.Unlock()
	if !p.TimerFired(p.Wait.Epoch) {
		t.Fatal("current timer did not wake the parked process")
	}
	if n := inv.ArmedTimers(); n != 1 {
		t.Fatalf("armed timers after it fired = %d, want 1 (until the process sees it)", n)
	}
	if d := p.RecvWait(now); d != DecideTimeout || inv.ArmedTimers() != 0 {
		t.Fatalf("wait after the timer = %d, %d armed", d, inv.ArmedTimers())
	}
}

func TestAfterZeroTimesOutAtOnce(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	now := time.Now()
	p.RecvStart(0, false, now)
	if d := p.RecvWait(now); d != DecideTimeout || inv.ArmedTimers() != 0 {
		t.Fatalf("after 0: %d, %d armed", d, inv.ArmedTimers())
	}
}

// TestParkWakeRace runs a receiver loop against concurrent senders: every
// message must be received, so no wake-up is lost between the decision
// to park and the park itself.
func TestParkWakeRace(t *testing.T) {
	inv := NewInvocation()
	wake := make(chan struct{}, 1)
	p := inv.NewProcess(KindLegacy, nil, 0)
	inv.Wake = func(q *Process) {
		if q != p {
			t.Error("woke the wrong process")
		}
		wake <- struct{}{} // at most one outstanding: the process is Runnable until it parks again
	}
	const senders, each = 8, 2000
	var wg sync.WaitGroup
	for s := 0; s < senders; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				for inv.Send(p, value.Int(int64(i))) != SendOK {
					time.Sleep(time.Microsecond)
				}
			}
		}()
	}
	got := 0
	var parks atomic.Int64
	deadline := time.After(20 * time.Second)
	for got < senders*each {
		p.RecvStart(-1, false, time.Now())
		for {
			if _, ok := p.RecvPeek(); !ok {
				break
			}
			p.RecvTake(inv)
			got++
			p.RecvStart(-1, false, time.Now())
		}
		if got == senders*each {
			break
		}
		if d := p.RecvWait(time.Now()); d == DecideRetry {
			continue
		}
		p.Lock()
		again := p.ParkLocked()
		p.Unlock()
		if again {
			continue
		}
		parks.Add(1)
		select {
		case <-wake:
			p.Lock()
			if p.StatusLocked() != Runnable {
				t.Fatal("woken process is not Runnable")
			}
			p.SetStatusLocked(Running)
			p.Unlock()
		case <-deadline:
			t.Fatalf("lost wake-up: received %d of %d", got, senders*each)
		}
	}
	wg.Wait()
	if inv.Queued() != 0 {
		t.Fatalf("queued = %d", inv.Queued())
	}
}

// TestRetireChainUsesWorkList retires one end of a long chain of linked
// processes; every partner dies with the same reason without recursion.
func TestRetireChainUsesWorkList(t *testing.T) {
	inv, _ := newInv()
	n := 100000
	if raceEnabled {
		n = 10000
	}
	inv.MaxLive = n + 1
	inv.MaxReservations = int64(2*n + 2)
	inv.MemoryBudget = 1 << 40
	start := time.Now()
	defer func() { t.Logf("chain of %d: %v", n, time.Since(start)) }()
	ps := make([]*Process, n)
	for i := range ps {
		ps[i] = inv.NewProcess(KindIsolated, nil, 0)
		if i > 0 && inv.Link(ps[i-1], ps[i]) != LinkOK {
			t.Fatal("link failed")
		}
	}
	trapper := inv.NewProcess(KindIsolated, nil, 0)
	trapper.SetTrap(true)
	inv.Link(ps[n-1], trapper)
	reason := ptype.Reason(ptype.ReasonFailure, value.String("boom"))
	inv.Retire(ps[0], reason)
	for i, p := range ps {
		if p.StatusLocked() != Done {
			t.Fatalf("process %d not retired", i)
		}
		if d := p.Reason().AsData(); d.Tag != ptype.ReasonFailure {
			t.Fatalf("process %d reason tag %d", i, d.Tag)
		}
	}
	trapper.RecvStart(-1, true, time.Now())
	v, ok := trapper.RecvPeek()
	if d, _ := v.Data(); !ok || d.Tag != ptype.EventExit {
		t.Fatalf("trapping partner got %v", v)
	}
	if live, _ := inv.Live(); live != 1 {
		t.Fatalf("live = %d, want 1 (the trapper)", live)
	}
	if c, b := inv.Reservations(); c != 1 || b != CompletionBytes {
		t.Fatalf("reservations = %d (%d bytes), want only the trapper's queued Exit", c, b)
	}
	trapper.RecvTake(inv)
	if c, b := inv.Reservations(); c != 0 || b != 0 {
		t.Fatalf("after consuming the Exit: reservations = %d (%d bytes)", c, b)
	}
}

func TestDemonitorFlushAndInfo(t *testing.T) {
	inv, _ := newInv()
	owner := inv.NewProcess(KindIsolated, nil, 0)
	a := inv.NewProcess(KindIsolated, nil, 0)
	ref := MonitorOf(mon(inv, owner, a))
	if r := inv.Demonitor(owner, ref, false, true); !isOkBool(r, true) {
		t.Fatalf("active demonitor = %v", r)
	}
	if r := inv.Demonitor(owner, ref, false, true); !isOkBool(r, false) {
		t.Fatalf("second demonitor = %v", r)
	}
	inv.Retire(a, ptype.Reason(ptype.ReasonNormal, value.Unit))
	if owner.Queued() != 0 {
		t.Fatal("a Down arrived after demonitor")
	}
	b := inv.NewProcess(KindIsolated, nil, 0)
	ref2 := MonitorOf(mon(inv, owner, b))
	inv.Retire(b, ptype.Reason(ptype.ReasonNormal, value.Unit))
	if owner.Queued() != 1 {
		t.Fatal("no Down")
	}
	if r := inv.Demonitor(owner, ref2, true, true); !isOkBool(r, false) {
		t.Fatalf("demonitor after Down = %v", r)
	}
	if owner.Queued() != 0 {
		t.Fatal("flush left the Down queued")
	}
	other := inv.NewProcess(KindIsolated, nil, 0)
	if r := inv.Demonitor(other, ref2, false, false); r.AsData().Tag != value.TagErr {
		t.Fatalf("demonitor by a non-owner = %v", r)
	}
}

func isOkBool(r value.Value, want bool) bool {
	d, ok := r.Data()
	return ok && d.Tag == value.TagOk && d.Fields[0].Kind() == value.KBool && (d.Fields[0].AsInt() != 0) == want
}

// Two processes that monitor each other retire at the same time from two
// goroutines: publishing Downs never holds two process locks, so this
// cannot deadlock, and each survivor-less pair delivers nothing to a
// closed mailbox.
func TestConcurrentRetireOfMutualMonitors(t *testing.T) {
	inv, _ := newInv()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 2000; i++ {
			a := inv.NewProcess(KindIsolated, nil, 0)
			b := inv.NewProcess(KindIsolated, nil, 0)
			inv.Monitor(a, b)
			inv.Monitor(b, a)
			var wg sync.WaitGroup
			wg.Add(2)
			go func() { defer wg.Done(); inv.Retire(a, ptype.Reason(ptype.ReasonNormal, value.Unit)) }()
			go func() { defer wg.Done(); inv.Retire(b, ptype.Reason(ptype.ReasonNormal, value.Unit)) }()
			wg.Wait()
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("concurrent retirement deadlocked")
	}
	if live, _ := inv.Live(); live != 0 {
		t.Fatalf("live = %d", live)
	}
}

// A demonitor racing with the target's retirement either cancels the
// monitor (Ok(true), no Down ever) or finds the Down queued (Ok(false),
// flushed): never both, never a Down after demonitor returned.
func TestDemonitorRacingRetire(t *testing.T) {
	inv, _ := newInv()
	for i := 0; i < 2000; i++ {
		owner := inv.NewProcess(KindIsolated, nil, 0)
		target := inv.NewProcess(KindIsolated, nil, 0)
		ref := MonitorOf(mon(inv, owner, target))
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); inv.Retire(target, ptype.Reason(ptype.ReasonNormal, value.Unit)) }()
		r := inv.Demonitor(owner, ref, false, true)
		queuedAtReturn := owner.Queued()
		wg.Wait()
		switch {
		case isOkBool(r, true):
			if owner.Queued() != 0 {
				t.Fatal("Down arrived after a successful demonitor")
			}
		case isOkBool(r, false):
			if queuedAtReturn != 1 {
				t.Fatalf("demonitor said inactive but %d cells were queued", queuedAtReturn)
			}
		default:
			t.Fatalf("demonitor = %v", r)
		}
		inv.Retire(owner, ptype.Reason(ptype.ReasonNormal, value.Unit))
	}
}

// mon registers a monitor that must be admitted.
func mon(inv *Invocation, owner, target *Process) value.Value {
	v, ok := inv.Monitor(owner, target)
	if !ok {
		panic("monitor not admitted")
	}
	return v
}

// TestHandles: a Pid and a ProcessId resolve to their process, compare by
// identity, and a MonitorRef resolves to its registration.
func TestHandles(t *testing.T) {
	inv := NewInvocation()
	a := inv.NewProcess(KindIsolated, nil, 0)
	b := inv.NewProcess(KindIsolated, nil, 0)
	if Of(a.Pid()) != a || Of(a.ID()) != a || Of(value.Int(int64(a.Gen()))) != nil {
		t.Error("Of does not resolve the handles")
	}
	if !core.Equal(a.Pid(), a.Pid()) || core.Equal(a.Pid(), b.Pid()) || !core.Equal(a.ID(), a.ID()) {
		t.Error("Pid equality is not identity")
	}
	if a.Epoch() != inv.Epoch || a.Gen() == b.Gen() {
		t.Errorf("epoch %d (want %d), generations %d and %d", a.Epoch(), inv.Epoch, a.Gen(), b.Gen())
	}
	ref := mon(inv, a, b)
	if m := MonitorOf(ref); m == nil || m.Serial() != uint64(ref.Payload()) || m.Epoch() != inv.Epoch || MonitorOf(a.Pid()) != nil {
		t.Error("MonitorOf does not resolve the MonitorRef")
	}
}
