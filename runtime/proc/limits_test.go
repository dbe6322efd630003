package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
)

func wantResv(t *testing.T, inv *Invocation, count, bytes int64) {
	t.Helper()
	if c, b := inv.Reservations(); c != count || b != bytes {
		t.Fatalf("reservations = %d (%d bytes), want %d (%d bytes)", c, b, count, bytes)
	}
}

// takeAll consumes every queued cell of p (as receive_event would) and
// returns how many Downs and Exits it saw.
func takeAll(inv *Invocation, p *Process) (downs, exits, msgs int) {
	for {
		p.RecvStart(-1, true, time.Now())
		v, ok := p.RecvPeek()
		if !ok {
			return
		}
		switch v.AsData().Tag {
		case ptype.EventDown:
			downs++
		case ptype.EventExit:
			exits++
		default:
			msgs++
		}
		p.RecvTake(inv)
	}
}

// TestProcessReservationLimitAndFullMailbox: 256 monitors per owner, the
// 257th refused with nothing registered; a mailbox full of user messages
// still receives all 256 Downs; consuming them releases the capacity.
func TestProcessReservationLimitAndFullMailbox(t *testing.T) {
	inv, _ := newInv()
	owner := inv.NewProcess(KindIsolated, nil, 0)
	targets := make([]*Process, MaxProcReservations+1)
	for i := range targets {
		targets[i] = inv.NewProcess(KindIsolated, nil, 0)
	}
	for i := 0; i < MaxProcReservations; i++ {
		mon(inv, owner, targets[i])
	}
	if _, ok := inv.Monitor(owner, targets[MaxProcReservations]); ok {
		t.Fatal("257th monitor admitted")
	}
	if len(targets[MaxProcReservations].monitors) != 0 {
		t.Fatal("a refused monitor was registered")
	}
	// A link needs a reservation at both ends: refused at the owner's
	// limit, and the partner's count is unchanged.
	if r := inv.Link(targets[MaxProcReservations], owner); r != LinkLimit {
		t.Fatalf("link at the limit = %d, want LinkLimit", r)
	}
	if n := targets[MaxProcReservations].Reservations(); n != 0 {
		t.Fatalf("partner holds %d reservations after a refused link", n)
	}
	// A direct signal to the owner is refused too.
	owner.SetTrap(true)
	if r := inv.Signal(targets[0], owner, ptype.Reason(ptype.ReasonKill, value.Unit)); r != SignalLimit {
		t.Fatalf("signal at the limit = %d, want SignalLimit", r)
	}
	wantResv(t, inv, MaxProcReservations, MaxProcReservations*CompletionBytes)
	// Fill the user mailbox.
	fillMailbox(t, inv, owner)
	if r := inv.Send(owner, value.Int(0)); r != SendFull {
		t.Fatalf("send to a full mailbox = %d", r)
	}
	for i := 0; i < MaxProcReservations; i++ {
		inv.Retire(targets[i], ptype.Reason(ptype.ReasonShutdown, value.Unit))
	}
	downs, exits, msgs := takeAll(inv, owner)
	if downs != MaxProcReservations || exits != 0 || msgs != MaxMailbox {
		t.Fatalf("got %d Downs, %d Exits, %d messages", downs, exits, msgs)
	}
	wantResv(t, inv, 0, 0)
	// Released capacity is usable again.
	for i := 0; i < MaxProcReservations; i++ {
		mon(inv, owner, targets[MaxProcReservations])
	}
	if _, ok := inv.Monitor(owner, targets[MaxProcReservations]); ok {
		t.Fatal("limit not reached again")
	}
}

// TestInvocationReservationLimit: 4,096 reservations per invocation,
// shared by monitors, link directions and direct signals; releasing one
// (demonitor, unlink, consuming an Exit, retiring) makes room again.
func TestInvocationReservationLimit(t *testing.T) {
	inv, _ := newInv()
	inv.MaxLive = 100
	target := inv.NewProcess(KindIsolated, nil, 0)
	var owners []*Process
	var refs []*Monitor
	for len(refs) < MaxInvReservations-2 {
		o := inv.NewProcess(KindIsolated, nil, 0)
		owners = append(owners, o)
		for j := 0; j < MaxProcReservations && len(refs) < MaxInvReservations-2; j++ {
			refs = append(refs, MonitorOf(mon(inv, o, target)))
		}
	}
	a := inv.NewProcess(KindIsolated, nil, 0)
	b := inv.NewProcess(KindIsolated, nil, 0)
	if r := inv.Link(a, b); r != LinkOK { // the last two
		t.Fatalf("link = %d", r)
	}
	wantResv(t, inv, MaxInvReservations, MaxInvReservations*CompletionBytes)
	c := inv.NewProcess(KindIsolated, nil, 0)
	if _, ok := inv.Monitor(c, target); ok {
		t.Fatal("monitor beyond the invocation limit admitted")
	}
	if r := inv.Link(c, a); r != LinkLimit {
		t.Fatalf("link beyond the limit = %d", r)
	}
	c.SetTrap(true)
	if r := inv.Signal(a, c, ptype.Reason(ptype.ReasonShutdown, value.Unit)); r != SignalLimit {
		t.Fatalf("signal beyond the limit = %d", r)
	}
	if r := inv.Signal(a, c, ptype.Reason(ptype.ReasonKill, value.Unit)); r != SignalLimit {
		t.Fatalf("Kill beyond the limit = %d", r)
	}
	if c.Reason().Kind() != value.KUnit || c.Queued() != 0 {
		t.Fatal("a refused signal had an effect")
	}
	// Unlink releases both directions: a trapped direct signal fits now
	// and holds its reservation until its Exit is consumed.
	inv.Unlink(a, b)
	wantResv(t, inv, MaxInvReservations-2, (MaxInvReservations-2)*CompletionBytes)
	text := "why"
	if r := inv.Signal(a, c, ptype.Reason(ptype.ReasonFailure, value.String(text))); r != SignalNoEffect {
		t.Fatalf("trapped signal = %d", r)
	}
	wantResv(t, inv, MaxInvReservations-1, (MaxInvReservations-2)*CompletionBytes+SignalBaseBytes+int64(len(text)))
	if _, ok := inv.Monitor(c, target); !ok {
		t.Fatal("the last reservation was refused")
	}
	if _, ok := inv.Monitor(c, target); ok {
		t.Fatal("limit not enforced after reuse")
	}
	if _, exits, _ := takeAll(inv, c); exits != 1 {
		t.Fatalf("trapped Exit not queued")
	}
	// Demonitor releases; the target retiring converts the rest into
	// Downs, which the owners' retirement releases.
	inv.Demonitor(owners[0], refs[0], false, false)
	wantResv(t, inv, MaxInvReservations-2, (MaxInvReservations-2)*CompletionBytes)
	inv.Retire(target, ptype.Reason(ptype.ReasonNormal, value.Unit))
	wantResv(t, inv, MaxInvReservations-2, (MaxInvReservations-2)*CompletionBytes)
	wantResv(t, inv, MaxInvReservations-2, (MaxInvReservations-2)*CompletionBytes)
	if downs, _, _ := takeAll(inv, c); downs != 1 {
		t.Fatal("Down lost")
	}
	for _, o := range owners {
		inv.Retire(o, ptype.Reason(ptype.ReasonNormal, value.Unit))
	}
	wantResv(t, inv, 0, 0)
}

// TestMemoryBudget: messages charge 32 bytes plus payload and lifecycle
// completions 4,609 bytes against the invocation's logical budget.
func TestMemoryBudget(t *testing.T) { testMemoryBudget(t, true) }

func testMemoryBudget(t *testing.T, packed bool) {
	inv, _ := newInv()
	forceAcct(inv, packed)
	inv.MemoryBudget = 3*CompletionBytes + MessageHeader + 16 + 100
	p := inv.NewProcess(KindIsolated, nil, 0)
	q := inv.NewProcess(KindIsolated, nil, 0)
	for i := 0; i < 3; i++ {
		mon(inv, p, q)
	}
	if _, ok := inv.Monitor(p, q); ok {
		t.Fatal("monitor beyond the byte budget admitted")
	}
	big := value.String(string(make([]byte, 100)))
	if r := inv.Send(p, big); r != SendOK {
		t.Fatalf("send within the budget = %d", r)
	}
	if r := inv.Send(p, value.Int(1)); r != SendFull {
		t.Fatalf("send beyond the budget = %d", r)
	}
	wantResv(t, inv, 3, inv.MemoryBudget)
	if _, _, msgs := takeAll(inv, p); msgs != 1 {
		t.Fatal("message lost")
	}
	wantResv(t, inv, 3, 3*CompletionBytes)
	if r := inv.Send(p, value.Int(1)); r != SendOK {
		t.Fatalf("send after consuming = %d", r)
	}
	inv.Retire(p, ptype.Reason(ptype.ReasonNormal, value.Unit))
	wantResv(t, inv, 0, 0)
}

// TestDiscardFreesAdmission: a discarded child publishes nothing and frees its
// live slot.
func TestDiscardFreesAdmission(t *testing.T) {
	inv, _ := newInv()
	inv.MaxLive = 1
	c := inv.NewProcess(KindIsolated, nil, 0)
	if inv.NewProcess(KindIsolated, nil, 0) != nil {
		t.Fatal("live limit not enforced")
	}
	inv.Discard(c)
	if live, _ := inv.Live(); live != 0 {
		t.Fatalf("live = %d after discard", live)
	}
	if inv.NewProcess(KindIsolated, nil, 0) == nil {
		t.Fatal("slot not reusable after discard")
	}
}

// TestRetiredOwnerLeavesTarget: monitors of an owner that retires are
// removed from a target that lives on (no unbounded growth), and a
// monitor whose Down was delivered is no longer tracked by its owner.
func TestRetiredOwnerLeavesTarget(t *testing.T) {
	inv, _ := newInv()
	server := inv.NewProcess(KindIsolated, nil, 0)
	for i := 0; i < 1000; i++ {
		c := inv.NewProcess(KindIsolated, nil, 0)
		mon(inv, c, server)
		mon(inv, c, server)
		inv.Retire(c, ptype.Reason(ptype.ReasonNormal, value.Unit))
	}
	server.mu.Lock()
	n := len(server.monitors)
	server.mu.Unlock()
	if n != 0 {
		t.Fatalf("server still lists %d monitors of retired owners", n)
	}
	wantResv(t, inv, 0, 0)
	owner := inv.NewProcess(KindIsolated, nil, 0)
	for i := 0; i < 10; i++ {
		w := inv.NewProcess(KindIsolated, nil, 0)
		mon(inv, owner, w)
		inv.Retire(w, ptype.Reason(ptype.ReasonNormal, value.Unit))
	}
	if len(owner.owned) != 0 {
		t.Fatalf("owner tracks %d monitors whose Downs were delivered", len(owner.owned))
	}
}

func TestSize(t *testing.T) {
	flat := value.NewTuple(value.Int(1), value.String("abc"))
	if got := Size(flat); got != 16+16+16+3 {
		t.Fatalf("Size(flat) = %d", got)
	}
	// A deep nesting is measured past the recursion cut-off and agrees
	// with the slot count.
	v := value.Int(0)
	for i := 0; i < 1000; i++ {
		v = value.NewTuple(v, value.String("x"))
	}
	if got, want := Size(v), int64(16+1000*(16+16+1)); got != want {
		t.Fatalf("Size(deep) = %d, want %d", got, want)
	}
}

// TestAccountingMode: the totals share one word when the limits let
// both fit (limits.go), and are kept apart otherwise.
func TestAccountingMode(t *testing.T) {
	for _, c := range []struct {
		budget, maxQueued int64
		packed            bool
	}{
		{0, 0, true},             // the defaults: 64 MiB, 65,536 messages
		{0, -1, true},            // unlimited count: 64 MiB admit at most 2 M messages
		{0, 1 << 22, true},       // a raised count that fits
		{0, 1 << 24, true},       // a count beyond the word, but the budget admits fewer
		{1 << 30, -1, false},     // 1 GiB at 32 bytes each: 32 M messages
		{1 << 30, 1 << 20, true}, // the count limit bounds it
		{1 << 40, 0, false},      // a budget beyond the word's bytes
		{1<<40 - 1, 0, true},
	} {
		inv, _ := newInv()
		inv.MemoryBudget, inv.MaxQueued = c.budget, c.maxQueued
		if got := inv.packedAcct(); got != c.packed {
			t.Errorf("budget %d, MaxQueued %d: packed = %v, want %v", c.budget, c.maxQueued, got, c.packed)
		}
	}
}

// forceAcct fixes inv's accounting mode before anything is charged.
func forceAcct(inv *Invocation, packed bool) {
	m := uint32(acctSplit)
	if packed {
		m = acctPacked
	}
	inv.acct.Store(m)
}

// TestQueuedLimitBothModes: the invocation-wide count refuses the
// 65,537th queued message, and admits again once one is taken, whether
// the totals share a word or not.
func TestQueuedLimitBothModes(t *testing.T) {
	for _, packed := range []bool{true, false} {
		inv, _ := newInv()
		forceAcct(inv, packed)
		var ps []*Process
		for n := 0; n < MaxQueued; n += MaxMailbox {
			p := inv.NewProcess(KindIsolated, nil, 0)
			fillMailbox(t, inv, p)
			ps = append(ps, p)
		}
		extra := inv.NewProcess(KindIsolated, nil, 0)
		if r := inv.Send(extra, value.Int(1)); r != SendFull {
			t.Fatalf("packed %v: send beyond MaxQueued = %d", packed, r)
		}
		if q := inv.Queued(); q != MaxQueued {
			t.Fatalf("packed %v: queued %d, want %d", packed, q, MaxQueued)
		}
		_, b := inv.Reservations()
		if want := int64(MaxQueued) * (MessageHeader + 16); b != want {
			t.Fatalf("packed %v: bytes %d, want %d", packed, b, want)
		}
		ps[0].RecvStart(-1, false, time.Now())
		if _, ok := ps[0].RecvPeek(); !ok {
			t.Fatal("no message")
		}
		ps[0].RecvTake(inv)
		if r := inv.Send(extra, value.Int(1)); r != SendOK {
			t.Fatalf("packed %v: send after a take = %d", packed, r)
		}
		for _, p := range append(ps, extra) {
			inv.Retire(p, ptype.Reason(ptype.ReasonNormal, value.Unit))
		}
		if q, b := inv.Queued(), func() int64 { _, b := inv.Reservations(); return b }(); q != 0 || b != 0 {
			t.Fatalf("packed %v: after retiring all: queued %d, bytes %d", packed, q, b)
		}
	}
}

// TestMemoryBudgetSplit is TestMemoryBudget with the totals kept apart.
func TestMemoryBudgetSplit(t *testing.T) {
	testMemoryBudget(t, false)
}

// TestPackedCountCannotOverflow: at the packed word's largest count a
// further message is refused (with an unlimited count it would carry
// into the sign bit), and nothing is charged.
func TestPackedCountCannotOverflow(t *testing.T) {
	inv, _ := newInv()
	inv.MaxQueued = -1
	forceAcct(inv, true)
	inv.use.Store(packMaxCount << packShift)
	if inv.chargeMsg(MessageHeader) {
		t.Fatal("a message past the packed count admitted")
	}
	if q, u := inv.Queued(), inv.use.Load(); q != packMaxCount || u != packMaxCount<<packShift {
		t.Fatalf("queued %d (word %x) after a refusal", q, u)
	}
	if !inv.chargeBytes(CompletionBytes) {
		t.Fatal("bytes refused at the largest count")
	}
}

// TestPackedChargesAreExact: senders racing for the last slots of the
// budget fill it exactly: a packed charge compares before it swaps, so
// no send is refused because of another that is about to be undone.
func TestPackedChargesAreExact(t *testing.T) {
	const slots, senders, each = 500, 8, 200
	inv, _ := newInv()
	per := int64(MessageHeader + 16)
	inv.MemoryBudget = slots * per
	if !inv.packedAcct() {
		t.Fatal("not packed")
	}
	targets := make([]*Process, senders)
	for i := range targets {
		targets[i] = inv.NewProcess(KindIsolated, nil, 0)
	}
	var wg sync.WaitGroup
	var ok atomic.Int64
	for i := 0; i < senders; i++ {
		wg.Add(1)
		go func(p *Process) {
			defer wg.Done()
			for k := 0; k < each; k++ {
				if inv.Send(p, value.Int(int64(k))) == SendOK {
					ok.Add(1)
				}
			}
		}(targets[i])
	}
	wg.Wait()
	if ok.Load() != slots || inv.Queued() != slots {
		t.Fatalf("admitted %d (queued %d), want exactly %d", ok.Load(), inv.Queued(), slots)
	}
}
