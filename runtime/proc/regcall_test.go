package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
)

func isErr(v value.Value, tag int) bool {
	d, ok := v.Data()
	if !ok || d.Tag != value.TagErr {
		return false
	}
	e, ok := d.Fields[0].Data()
	return ok && e.Tag == tag
}

func isSome(v value.Value) bool {
	d, ok := v.Data()
	return ok && d.Tag == value.TagSome
}

// take receives the oldest user message of p and wakes the senders the
// take admitted, as the scheduler's host does.
func take(t *testing.T, inv *Invocation, p *Process) value.Value {
	t.Helper()
	p.RecvStart(-1, false, time.Now())
	v, ok := p.RecvPeek()
	if !ok {
		t.Fatal("nothing to take")
	}
	p.RecvTake(inv)
	inv.WakeAdmitted(p)
	return v
}

// park runs the scheduler's park decision for a process the VM parked.
func park(p *Process) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status = Running
	return p.ParkLocked()
}

// parkSenders makes n new processes send_wait the messages 100, 101, …
// to target, whose mailbox is full, and park; it fails t unless each
// parks and stays parked without an outcome.
func parkSenders(t *testing.T, inv *Invocation, target *Process, n int) []*Process {
	t.Helper()
	var senders []*Process
	for i := 0; i < n; i++ {
		s := inv.NewProcess(KindIsolated, nil, 0)
		senders = append(senders, s)
		if _, parked := inv.SendWait(s, target, value.Int(int64(100+i))); !parked {
			t.Fatalf("sender %d did not park on a full mailbox", i)
		}
		if _, parked := inv.SendWaitDecide(s); !parked {
			t.Fatalf("sender %d decided before any take", i)
		}
		if park(s) {
			t.Fatalf("sender %d runs again without an outcome", i)
		}
	}
	return senders
}

func TestRegistry(t *testing.T) {
	inv, _ := newInv()
	a := inv.NewProcess(KindIsolated, nil, 0)
	b := inv.NewProcess(KindIsolated, nil, 0)
	ok := func(v value.Value) bool {
		d, isData := v.Data()
		return isData && d.Tag == value.TagOk
	}
	if r := inv.Register("a", a.Pid(), "Int"); !ok(r) {
		t.Fatalf("register: %v", r)
	}
	for _, c := range []struct {
		what string
		name string
		p    *Process
	}{
		{"taken name", "a", b},
		{"second name", "a2", a},
		{"empty name", "", b},
		{"long name", strings.Repeat("x", MaxNameBytes+1), b},
	} {
		if r := inv.Register(c.name, c.p.Pid(), "Int"); !isErr(r, ptype.ErrInvalidOptions) {
			t.Errorf("%s: %v", c.what, r)
		}
	}
	if r := inv.Register(strings.Repeat("x", MaxNameBytes), b.Pid(), "Int"); !ok(r) {
		t.Errorf("a name of MaxNameBytes: %v", r)
	}
	if !isSome(inv.Whereis("a", "Int")) || isSome(inv.Whereis("a", "String")) || isSome(inv.Whereis("b", "Int")) {
		t.Error("whereis: wrong answers")
	}
	if n, named := inv.NameOf(a); !named || n != "a" {
		t.Errorf("NameOf = %q %v", n, named)
	}
	inv.Retire(a, ptype.Reason(ptype.ReasonNormal, value.Unit))
	if isSome(inv.Whereis("a", "Int")) {
		t.Error("the name outlived its process")
	}
	if r := inv.Register("z", a.Pid(), "Int"); !isErr(r, ptype.ErrInvalidOptions) {
		t.Errorf("register a dead process: %v", r)
	}
	if r := inv.Register("a", b.Pid(), "Int"); !isErr(r, ptype.ErrInvalidOptions) {
		t.Errorf("b already has a name: %v", r)
	}
	if !inv.Unregister(strings.Repeat("x", MaxNameBytes)) || inv.Unregister("a") {
		t.Error("unregister")
	}
	if r := inv.Register("a", b.Pid(), "Int"); !ok(r) {
		t.Errorf("the freed name: %v", r)
	}
	c := inv.NewProcess(KindIsolated, nil, 0)
	reply := inv.CallReply(c)
	if r := inv.Register("reply", reply, "Int"); !isErr(r, ptype.ErrInvalidOptions) {
		t.Errorf("register a reply address: %v", r)
	}
}

// Each message taken admits exactly one parked sender, the oldest; when
// the target dies the rest resume with SendDead; a killed sender's
// message is never delivered.
func TestSendWaitAdmission(t *testing.T) {
	inv, woken := newInv()
	target := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, target)
	senders := parkSenders(t, inv, target, 4)
	// A killed sender withdraws: senders[1]'s message never arrives.
	inv.Retire(senders[1], ptype.Reason(ptype.ReasonKilled, value.Unit))
	for k, want := range []*Process{senders[0], senders[2]} {
		*woken = nil
		take(t, inv, target)
		if !slices.Equal(*woken, []*Process{want}) {
			t.Fatalf("take %d woke %d senders, want exactly the oldest", k, len(*woken))
		}
		if c, parked := inv.SendWaitDecide(want); parked || c != SendOK {
			t.Fatalf("admitted sender: %d %v", c, parked)
		}
		if target.Queued() != MaxMailbox {
			t.Fatalf("queued %d after an admission, want a full mailbox", target.Queued())
		}
	}
	if c, parked := inv.SendWaitDecide(senders[3]); !parked {
		t.Fatalf("senders[3] decided %d before its turn", c)
	}
	// The admitted messages are at the back, in admission order.
	for i := 2; i < MaxMailbox; i++ {
		take(t, inv, target)
	}
	if v := take(t, inv, target); v.Payload() != 100 {
		t.Fatalf("first admitted message %d", v.Payload())
	}
	if v := take(t, inv, target); v.Payload() != 102 {
		t.Fatalf("second admitted message %d", v.Payload())
	}
	// senders[3] was admitted by the take of message 2.
	if c, parked := inv.SendWaitDecide(senders[3]); parked || c != SendOK {
		t.Fatalf("senders[3]: %d %v", c, parked)
	}
	if v := take(t, inv, target); v.Payload() != 103 {
		t.Fatalf("third admitted message %d", v.Payload())
	}

	// The target dies: every parked sender resumes with SendDead.
	full := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, full)
	waiting := parkSenders(t, inv, full, 3)
	*woken = nil
	inv.Retire(full, ptype.Reason(ptype.ReasonKilled, value.Unit))
	if len(*woken) != 3 {
		t.Fatalf("the target's death woke %d of 3 senders", len(*woken))
	}
	for _, s := range waiting {
		if c, parked := inv.SendWaitDecide(s); parked || c != SendDead {
			t.Fatalf("sender after the target died: %d %v", c, parked)
		}
	}
	if c, parked := inv.SendWait(waiting[0], full, value.Int(1)); parked || c != SendDead {
		t.Fatalf("send_wait to a dead target: %d %v", c, parked)
	}
}

// A call's reply is kept out of the mailbox; a late reply is dropped
// and still answers SendOK; the target's death decides a waiting call
// with its reason, and a reply that came first wins.
func TestCall(t *testing.T) {
	inv, woken := newInv()
	server := inv.NewProcess(KindIsolated, nil, 0)
	caller := inv.NewProcess(KindIsolated, nil, 0)
	now := time.Now()
	start := func(timeout int64) value.Value {
		reply := inv.CallReply(caller)
		if caller.CallStarted(reply) {
			t.Fatal("a fresh call has started")
		}
		if c := inv.CallSend(caller, server, value.Int(1), timeout, now); c != SendOK {
			t.Fatalf("call send: %d", c)
		}
		if !caller.CallStarted(reply) {
			t.Fatal("the call has not started after its send")
		}
		return reply
	}
	reply := start(-1)
	if Of(reply) != caller || reply.Payload() >= 0 || !IsReply(reply) || IsReply(caller.Pid()) {
		t.Fatal("reply address")
	}
	if st, _ := inv.CallDecide(caller, now); st != CallWaiting {
		t.Fatalf("decided %d before the reply", st)
	}
	if park(caller) {
		t.Fatal("a waiting caller runs again")
	}
	// An unrelated message wakes nothing for the decision: it parks again.
	inv.Send(caller, value.Int(5))
	if park(caller) {
		t.Fatal("a mailbox message ends the park of a call")
	}
	*woken = nil
	if c := inv.Reply(server, reply, value.Int(42)); c != SendOK {
		t.Fatalf("reply: %d", c)
	}
	if len(*woken) != 1 {
		t.Fatal("the reply did not wake the caller")
	}
	st, v := inv.CallDecide(caller, now)
	if st != CallReplied || v.Payload() != 42 {
		t.Fatalf("decided %d %v", st, v)
	}
	if c := inv.Reply(server, reply, value.Int(43)); c != SendOK {
		t.Fatalf("a late reply answered %d", c)
	}
	if caller.Queued() != 1 {
		t.Fatalf("the mailbox holds %d cells, want only the unrelated message", caller.Queued())
	}
	// Timeout 0: decided at once.
	start(0)
	if st, _ := inv.CallDecide(caller, now); st != CallTimedOut {
		t.Fatalf("timeout 0 decided %d", st)
	}
	// The server dies while the call waits.
	start(-1)
	inv.CallDecide(caller, now)
	park(caller)
	inv.Retire(server, ptype.Reason(ptype.ReasonFailure, value.String("gone")))
	st, v = inv.CallDecide(caller, now)
	if st != CallDown || func() int { d, _ := v.Data(); return d.Tag }() != ptype.ReasonFailure {
		t.Fatalf("decided %d %v after the server died", st, v)
	}
	// A call to the dead server is refused by its send.
	reply = inv.CallReply(caller)
	caller.CallStarted(reply)
	if c := inv.CallSend(caller, server, value.Int(1), -1, now); c != SendDead {
		t.Fatalf("call to a dead server sent: %d", c)
	}
	// A reply before the death wins.
	s2 := inv.NewProcess(KindIsolated, nil, 0)
	reply = inv.CallReply(caller)
	caller.CallStarted(reply)
	inv.CallSend(caller, s2, value.Int(1), -1, now)
	inv.Reply(s2, reply, value.Int(7))
	inv.Retire(s2, ptype.Reason(ptype.ReasonKilled, value.Unit))
	if st, v := inv.CallDecide(caller, now); st != CallReplied || v.Payload() != 7 {
		t.Fatalf("decided %d %v", st, v)
	}
	// The caller dies during a call: the server no longer lists it.
	s3 := inv.NewProcess(KindIsolated, nil, 0)
	reply = inv.CallReply(caller)
	caller.CallStarted(reply)
	inv.CallSend(caller, s3, value.Int(1), -1, now)
	inv.CallDecide(caller, now)
	inv.Retire(caller, ptype.Reason(ptype.ReasonKilled, value.Unit))
	if len(s3.rc.Load().callers) != 0 {
		t.Fatal("a dead caller is still watching the server")
	}
	if c := inv.Reply(s3, reply, value.Int(1)); c != SendOK {
		t.Fatalf("reply to a dead caller: %d", c)
	}
	if _, b := inv.Reservations(); b < 0 {
		t.Fatalf("logical bytes went negative: %d", b)
	}
}

// The receive side frees a slot before it admits a waiting sender into
// it (RecvTake takes a message without the lock when the first send_wait
// on the target races with it): in between, a plain send must not take
// the slot, so Post refuses while senders wait.
func TestSendWaitSlotNotStolen(t *testing.T) {
	inv, woken := newInv()
	target := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, target)
	s := inv.NewProcess(KindIsolated, nil, 0)
	if _, parked := inv.SendWait(s, target, value.Int(-1)); !parked {
		t.Fatal("sender did not park on a full mailbox")
	}
	inv.SendWaitDecide(s)
	park(s)
	// The window: a message's slot is freed, the admission not yet done.
	target.RecvStart(-1, false, time.Now())
	if _, ok := target.RecvPeek(); !ok {
		t.Fatal("nothing to take")
	}
	target.mu.Lock()
	target.dropMessageLocked(inv, target.box[target.head].Bytes)
	target.mu.Unlock()
	if c := inv.Send(target, value.Int(-2)); c != SendFull {
		t.Fatalf("plain send while a sender waits: %d, want SendFull", c)
	}
	target.mu.Lock()
	inv.admitOneLocked(target)
	target.mu.Unlock()
	*woken = nil
	inv.WakeAdmitted(target)
	if !slices.Equal(*woken, []*Process{s}) {
		t.Fatalf("admission woke %d senders, want the waiting one", len(*woken))
	}
	if c, parked := inv.SendWaitDecide(s); parked || c != SendOK {
		t.Fatalf("waiting sender: %d %v", c, parked)
	}
	if n := userCount(target); n != MaxMailbox {
		t.Fatalf("%d user messages counted after the admission, want a full mailbox", n)
	}
}

// Senders in send_wait and plain senders race with a receiver that
// takes messages without the lock: every send_wait ends Ok, each
// sender's messages arrive in order, every message sent is taken once,
// and the mailbox never holds more than MaxMailbox user messages.
func TestSendWaitConcurrent(t *testing.T) {
	inv := NewInvocation()
	target := inv.NewProcess(KindIsolated, nil, 0)
	const senders, each = 4, 300
	wakes := map[*Process]chan struct{}{}
	var ps []*Process
	for i := 0; i < senders; i++ {
		s := inv.NewProcess(KindIsolated, nil, 0)
		ps = append(ps, s)
		wakes[s] = make(chan struct{}, 1)
	}
	inv.Wake = func(p *Process) {
		if ch := wakes[p]; ch != nil {
			ch <- struct{}{}
		}
	}
	prefill := MaxMailbox - 1
	for i := 0; i < prefill; i++ {
		inv.Send(target, value.Int(-1))
	}
	var plainOK, parks atomic.Int64
	var plainDone atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan string, senders+1)
	for k, s := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				c, parked := inv.SendWait(s, target, value.Int(int64(k*1_000_000+i)))
				if parked {
					parks.Add(1)
				}
				for parked {
					if c, parked = inv.SendWaitDecide(s); !parked {
						break
					}
					if !park(s) {
						<-wakes[s]
					}
				}
				if c != SendOK {
					errs <- fmt.Sprintf("sender %d message %d: %d", k, i, c)
					return
				}
			}
		}()
	}
	go func() {
		for i := 0; i < 4*each; i++ {
			if inv.Send(target, value.Int(-2)) == SendOK {
				plainOK.Add(1)
			}
			runtime.Gosched()
		}
		plainDone.Store(true)
	}()
	next := make([]int64, senders)
	taken := int64(0)
	deadline := time.Now().Add(2 * time.Minute)
	for !plainDone.Load() || taken < int64(prefill+senders*each)+plainOK.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("stuck after %d takes (a lost admission?)", taken)
		}
		if n := userCount(target); n > MaxMailbox {
			t.Fatalf("%d user messages queued", n)
		}
		target.RecvStart(-1, false, time.Now())
		v, ok := target.RecvPeek()
		if !ok {
			runtime.Gosched()
			continue
		}
		target.RecvTake(inv)
		inv.WakeAdmitted(target)
		taken++
		if n := v.AsInt(); n >= 0 {
			k, i := n/1_000_000, n%1_000_000
			if i != next[k] {
				t.Fatalf("sender %d: message %d arrived, want %d", k, i, next[k])
			}
			next[k]++
		}
		if taken%8 == 0 {
			runtime.Gosched()
		}
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if q := target.Queued(); q != 0 {
		t.Fatalf("%d cells left after every message was taken", q)
	}
	t.Logf("%d of %d send_waits parked, %d plain sends queued", parks.Load(), senders*each, plainOK.Load())
}

// TestCallRecordReuse: a caller's next call reuses the record of its
// last decided one; a late reply to the old address is still dropped and
// does not answer the new call. A request refused by a full mailbox ends
// the call with nothing left waiting or watched.
func TestCallRecordReuse(t *testing.T) {
	inv, _ := newInv()
	server := inv.NewProcess(KindIsolated, nil, 0)
	caller := inv.NewProcess(KindIsolated, nil, 0)
	now := time.Now()
	first := inv.CallReply(caller)
	caller.CallStarted(first)
	if c := inv.CallSend(caller, server, value.Int(1), -1, now); c != SendOK {
		t.Fatalf("call send: %d", c)
	}
	inv.Reply(server, first, value.Int(1))
	if st, _ := inv.CallDecide(caller, now); st != CallReplied {
		t.Fatalf("first call decided %d", st)
	}
	old := caller.rc.Load().spare
	second := inv.CallReply(caller)
	if caller.rc.Load().call != old || old == nil {
		t.Fatal("the second call did not reuse the first call's record")
	}
	caller.CallStarted(second)
	if c := inv.CallSend(caller, server, value.Int(2), -1, now); c != SendOK {
		t.Fatalf("call send: %d", c)
	}
	if c := inv.Reply(server, first, value.Int(99)); c != SendOK {
		t.Fatalf("late reply: %d", c)
	}
	if st, _ := inv.CallDecide(caller, now); st != CallWaiting {
		t.Fatalf("a late reply to the first call decided the second: %d", st)
	}
	inv.Reply(server, second, value.Int(2))
	if st, v := inv.CallDecide(caller, now); st != CallReplied || v.Payload() != 2 {
		t.Fatalf("second call decided %d %v", st, v)
	}
	// A full mailbox refuses the request: the call is over at once.
	full := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, full)
	third := inv.CallReply(caller)
	caller.CallStarted(third)
	if c := inv.CallSend(caller, full, value.Int(3), 1000, now); c != SendFull {
		t.Fatalf("call to a full mailbox: %d", c)
	}
	if caller.rc.Load().call != nil || caller.Wait.Active || !caller.Wait.Deadline.IsZero() {
		t.Fatal("a refused call left its record or its wait")
	}
	if x := full.rc.Load(); x != nil && len(x.callers) != 0 {
		t.Fatal("a refused call watches its target")
	}
}

// A send_wait admission that the memory budget refuses answers the
// waiter SendFull (Err(4)) at once and goes on to the next waiter, so
// the target's mailbox never stays shut: before, the refused waiter was
// kept at the head of a queue that no take would ever serve again (the
// target drained every message), and every plain send answered Err(4)
// until the target died.
func TestSendWaitRefusedAdmission(t *testing.T) {
	inv, woken := newInv()
	small := MessageHeader + Size(value.Int(0))
	big := value.String(strings.Repeat("x", 4000))
	inv.MemoryBudget = MaxMailbox*small + MessageHeader + Size(big)/2
	target := inv.NewProcess(KindIsolated, nil, 0)
	fillMailbox(t, inv, target)
	bigSender := inv.NewProcess(KindIsolated, nil, 0)
	smallSender := inv.NewProcess(KindIsolated, nil, 0)
	for _, s := range []struct {
		p *Process
		v value.Value
	}{{bigSender, big}, {smallSender, value.Int(7)}} {
		if _, parked := inv.SendWait(s.p, target, s.v); !parked {
			t.Fatal("a sender did not park on a full mailbox")
		}
		if _, parked := inv.SendWaitDecide(s.p); !parked {
			t.Fatal("a sender decided before any take")
		}
		park(s.p)
	}
	*woken = nil
	take(t, inv, target)
	if !slices.Equal(*woken, []*Process{bigSender, smallSender}) {
		t.Fatalf("the take woke %d senders, want the refused one and the admitted one", len(*woken))
	}
	if c, parked := inv.SendWaitDecide(bigSender); parked || c != SendFull {
		t.Fatalf("refused sender: %d %v, want SendFull", c, parked)
	}
	if c, parked := inv.SendWaitDecide(smallSender); parked || c != SendOK {
		t.Fatalf("admitted sender: %d %v, want SendOK", c, parked)
	}
	// Drain: the last message is the admitted one; the inbox is open.
	var last value.Value
	for i := 0; i < MaxMailbox; i++ {
		last = take(t, inv, target)
	}
	if last.AsInt() != 7 {
		t.Fatalf("last message %v, want the admitted 7", last)
	}
	if r := inv.Send(target, value.Int(1)); r != SendOK {
		t.Fatalf("send to the drained target = %d, want SendOK", r)
	}
	// A lone refused waiter: the take answers it and the inbox opens.
	fillMailbox2 := func() {
		for target.Queued() < MaxMailbox {
			if r := inv.Send(target, value.Int(0)); r != SendOK {
				t.Fatalf("fill: %d", r)
			}
		}
	}
	fillMailbox2()
	inv.SendWait(bigSender, target, big)
	inv.SendWaitDecide(bigSender)
	park(bigSender)
	*woken = nil
	take(t, inv, target)
	if c, parked := inv.SendWaitDecide(bigSender); parked || c != SendFull {
		t.Fatalf("lone refused sender: %d %v, want SendFull", c, parked)
	}
	if r := inv.Send(target, value.Int(1)); r != SendOK {
		t.Fatalf("send into the freed slot = %d, want SendOK", r)
	}
}
