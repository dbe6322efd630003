package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"slices"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
)

// The mailbox has a receive side and an inbox (proc.go, "Locking and
// wake-ups"); these tests hold cells in both halves at once and check that
// a receive sees one ordered sequence.

func TestOrderAcrossReceiveSideAndInbox(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	inv.Send(p, value.Int(1))
	inv.Send(p, value.Int(2))
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 1) // moves 1 and 2 to the receive side
	p.RecvSkip()
	inv.Send(p, value.Int(3)) // in the inbox, behind 2
	inv.Send(p, value.Int(4))
	mustPeek(t, p, 2)
	p.RecvSkip()
	mustPeek(t, p, 3) // the scan reached the inbox
	p.RecvTake(inv)   // from the middle: 1, 2 and 4 stay, in order
	inv.Send(p, value.Int(5))
	p.RecvStart(-1, false, time.Now())
	for _, want := range []int64{1, 2, 4, 5} {
		mustPeek(t, p, want)
		p.RecvSkip()
	}
	if _, ok := p.RecvPeek(); ok {
		t.Fatal("peek past the last cell succeeded")
	}
	if p.Queued() != 4 || inv.Queued() != 4 {
		t.Fatalf("queued = %d (invocation %d), want 4", p.Queued(), inv.Queued())
	}
	// Taking everything in order empties both halves and the accounting.
	for _, want := range []int64{1, 2, 4, 5} {
		p.RecvStart(-1, false, time.Now())
		mustPeek(t, p, want)
		p.RecvTake(inv)
	}
	if p.Queued() != 0 || inv.Queued() != 0 {
		t.Fatalf("queued = %d (invocation %d) after taking all", p.Queued(), inv.Queued())
	}
	if _, b := inv.Reservations(); b != 0 {
		t.Fatalf("logical bytes = %d after taking all", b)
	}
}

func TestWaitAndParkSeeTheInbox(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindLegacy, nil, 0)
	inv.Send(p, value.Int(7))
	// The VM's State is not needed to begin a turn's mailbox work, but
	// BeginTurn refuses a process without one.
	if run, _ := p.BeginTurn(); run {
		t.Fatal("a process without a State began a turn")
	}
	p.RecvStart(-1, false, time.Now())
	if d := p.RecvWait(time.Now()); d != DecideRetry {
		t.Fatalf("wait with a message in the inbox = %d, want retry", d)
	}
	mustPeek(t, p, 7)
	p.RecvTake(inv)
	if d := p.RecvWait(time.Now()); d != DecidePark {
		t.Fatalf("wait on an empty mailbox = %d, want park", d)
	}
	// A message that arrives after the VM decided to park is seen by the
	// scheduler's park decision.
	inv.Send(p, value.Int(8))
	p.Lock()
	again := p.ParkLocked()
	p.Unlock()
	if !again {
		t.Fatal("park decision missed a message in the inbox")
	}
}

func TestFlushDownsInBothHalves(t *testing.T) {
	inv, _ := newInv()
	owner := inv.NewProcess(KindIsolated, nil, 0)
	a := inv.NewProcess(KindIsolated, nil, 0)
	b := inv.NewProcess(KindIsolated, nil, 0)
	refA := MonitorOf(mon(inv, owner, a))
	refB := MonitorOf(mon(inv, owner, b))
	inv.Send(owner, value.Int(1))
	inv.Retire(a, ptype.Reason(ptype.ReasonNormal, value.Unit))
	owner.RecvStart(-1, false, time.Now())
	mustPeek(t, owner, 1) // 1 and a's Down move to the receive side
	owner.RecvTake(inv)
	inv.Retire(b, ptype.Reason(ptype.ReasonNormal, value.Unit)) // b's Down in the inbox
	inv.Send(owner, value.Int(2))
	if owner.Queued() != 3 {
		t.Fatalf("queued = %d, want 2 Downs and a message", owner.Queued())
	}
	inv.Demonitor(owner, refB, true, false)
	inv.Demonitor(owner, refA, true, false)
	if owner.Queued() != 1 {
		t.Fatalf("queued = %d after flushing both Downs, want the message", owner.Queued())
	}
	if c, _ := inv.Reservations(); c != 0 {
		t.Fatalf("reservations = %d after the flush", c)
	}
	owner.RecvStart(-1, true, time.Now())
	v, ok := owner.RecvPeek()
	if d, _ := v.Data(); !ok || d == nil || d.Tag != ptype.EventMessage || d.Fields[0].AsInt() != 2 {
		t.Fatalf("event after the flush = %v", v)
	}
}

// A deferred take leaves the message counted (user messages and bytes,
// of the process and of the invocation) until SettleTaken, which
// subtracts everything taken in one step; a full mailbox stays full for
// senders until then, as if their sends had come before the takes.
func TestRecvTakeDeferredSettles(t *testing.T) {
	inv, _ := newInv()
	p := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, p)
	_, full := inv.Reservations()
	var tk Taken
	for i := 0; i < 3; i++ {
		p.RecvStart(-1, false, time.Now())
		mustPeek(t, p, int64(i))
		p.RecvTakeDeferred(inv, &tk)
	}
	if userCount(p) != MaxMailbox || inv.Queued() != MaxMailbox {
		t.Fatalf("queued %d/%d before the settle, want the takes still counted", userCount(p), inv.Queued())
	}
	if c := inv.Send(p, value.Int(-1)); c != SendFull {
		t.Fatalf("send before the settle: %d, want SendFull", c)
	}
	p.SettleTaken(inv, &tk)
	if tk != (Taken{}) {
		t.Fatalf("settled Taken not empty: %+v", tk)
	}
	if userCount(p) != MaxMailbox-3 || inv.Queued() != MaxMailbox-3 {
		t.Fatalf("queued %d/%d after the settle, want %d", userCount(p), inv.Queued(), MaxMailbox-3)
	}
	per := full / MaxMailbox
	if _, b := inv.Reservations(); b != full-3*per || msgBytesOf(p) != b {
		t.Fatalf("bytes %d (process %d) after the settle, want %d", b, msgBytesOf(p), full-3*per)
	}
	if c := inv.Send(p, value.Int(-1)); c != SendOK {
		t.Fatalf("send after the settle: %d, want SendOK", c)
	}
	p.SettleTaken(inv, &tk) // nothing pending: no change
	if userCount(p) != MaxMailbox-2 {
		t.Fatalf("queued %d after an empty settle, want %d", userCount(p), MaxMailbox-2)
	}
}

// A sender that parked in send_wait on a mailbox that looked full
// because takes were not settled yet is admitted by the settle, one per
// slot freed, and woken by WakeAdmitted; once a sender waits, a deferred
// take frees its slot at once (settling what was pending), as RecvTake
// does.
func TestRecvTakeDeferredAdmitsSendWait(t *testing.T) {
	inv, woken := newInv()
	p := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, p)
	var tk Taken
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 0)
	p.RecvTakeDeferred(inv, &tk)
	// The mailbox is still full of unsettled takes: the senders park.
	senders := parkSenders(t, inv, p, 3)
	*woken = nil
	p.SettleTaken(inv, &tk)
	inv.WakeAdmitted(p)
	if !slices.Equal(*woken, senders[:1]) {
		t.Fatalf("settle of one take woke %d senders, want the oldest", len(*woken))
	}
	if userCount(p) != MaxMailbox {
		t.Fatalf("queued %d after the admission, want a full mailbox", userCount(p))
	}
	// With senders waiting, a deferred take admits at once.
	*woken = nil
	p.RecvStart(-1, false, time.Now())
	mustPeek(t, p, 1)
	p.RecvTakeDeferred(inv, &tk)
	if tk != (Taken{}) {
		t.Fatalf("take with senders waiting was deferred: %+v", tk)
	}
	inv.WakeAdmitted(p)
	if !slices.Equal(*woken, senders[1:2]) {
		t.Fatalf("take woke %d senders, want the next one", len(*woken))
	}
}

// userCount reads p's count of queued user messages under its lock.
func userCount(p *Process) int32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.user
}

// msgBytesOf reads p's logical bytes of queued user messages under its
// lock.
func msgBytesOf(p *Process) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.msgBytes
}
