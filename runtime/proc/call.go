package proc

import (
	"cmp"
	"slices"
	"sync/atomic"
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Typed call (Process.call, docs/reference/runtime.md#features-beyond-the-core-language, docs/supervisors.md).
//
// A call mints a one-shot reply address (CallReply): a Pid value whose R
// is the caller and whose N is minus the call's serial, so it compares
// unequal to every other address, resolves (Of) to the caller for
// Process.id, and is told apart from a process's own Pid (N > 0) by its
// sign. The caller then sends the request (CallSend) and decides
// (CallDecide) until the call ends. The reply never enters the mailbox:
// a send to a reply address (Reply) stores the value in the caller's call
// record when that record is still waiting for this serial, and is
// dropped otherwise (the call timed out, was answered, or the caller
// died), answering Ok(()) either way. So no later receive can see a late
// reply.
//
// The caller watches the target through the target's callers table
// rather than a monitor: CallSend registers it under the target's lock
// unless the target's mailbox is already closed (then the outcome is the
// target's committed reason at once), and Retire resumes every
// registered caller with the reason (step 5 of docs/reference/runtime.md#retiring-a-process). A reply
// that arrived first wins, as in OTP's gen_server:call. The timeout uses
// the process's receive timer (Wait: epoch, deadline, armed flag), so
// stale timers are ignored exactly as for receive.
//
// A process blocked in a call or in send_wait parks like a receive, but
// its park decision (parkBlockedLocked) ignores mailbox traffic: it runs
// again only when its own outcome is decided, its timer fired or a
// terminal signal is pending. A new message may still wake it (delivery
// marks a parked process runnable); it then decides again and parks.

// regcall is the per-process state of the registry, call and send_wait
// machinery, allocated on first use (most processes never need it). Its
// fields are guarded by the lock of the process it belongs to.
type regcall struct {
	// As a call or send_wait target.
	callers  map[*Process]uint64 // callers waiting on a call to this process: caller -> call serial
	waiters  []*sendWaiter       // senders parked in send_wait, in arrival order
	admitted []*sendWaiter       // admitted senders to wake once the lock is released
	// As a caller or a parked sender.
	call    *callState
	spare   *callState // the record of p's last call, once decided (zero), for the next
	sw      *sendWaiter
	blocked bool // parked in Process.call or send_wait (not in a receive)
}

// invRegcall is the invocation's part: the name registry and the reply
// address serials.
type invRegcall struct {
	reg   registry
	calls atomic.Uint64
}

// ext returns p's regcall record, allocating it on first use.
func (p *Process) ext() *regcall {
	if x := p.rc.Load(); x != nil {
		return x
	}
	x := &regcall{}
	if p.rc.CompareAndSwap(nil, x) {
		return x
	}
	return p.rc.Load()
}

// callState is a caller's record of its call in progress.
type callState struct {
	id      uint64
	started bool
	target  *Process
	replied bool
	reply   value.Value
	down    bool
	reason  value.Value
	bytes   int64 // the logical charge of the stored reply
}

// CallReply mints a fresh reply address for a call by p.
func (inv *Invocation) CallReply(p *Process) value.Value {
	id := inv.rc.calls.Add(1)
	x := p.ext()
	p.mu.Lock()
	c := x.spare
	if c != nil {
		x.spare = nil
		c.id = id // a spare is zero
	} else {
		c = &callState{id: id}
	}
	x.call = c
	p.mu.Unlock()
	return p.pid.Value(-int64(id))
}

// IsReply reports whether v is a reply address.
func IsReply(v value.Value) bool {
	_, ok := v.Ref().(*Process)
	return ok && ReplyAddress(v)
}

// ReplyAddress is IsReply for a value already known to resolve to a
// process (Of): a reply address is a Pid with a negative payload.
func ReplyAddress(v value.Value) bool { return v.Kind() == value.KPid && v.Payload() < 0 }

// CallStarted reports whether p's call with reply address reply has
// sent its request. A call record that is missing or belongs to another
// reply address (the request function made a call of its own) is
// replaced by a fresh one for reply.
func (p *Process) CallStarted(reply value.Value) bool {
	id := uint64(-reply.Payload())
	x := p.ext()
	p.mu.Lock()
	if x.call == nil || x.call.id != id {
		x.call = &callState{id: id}
	}
	started := x.call.started
	p.mu.Unlock()
	return started
}

// CallAbandon ends p's call before anything was sent (the target does
// not resolve to a process of this invocation).
func (p *Process) CallAbandon() {
	x := p.ext()
	p.mu.Lock()
	x.call = nil
	p.mu.Unlock()
}

// CallSend sends the request msg of p's current call to t and starts
// waiting: a timer deadline timeout ms after now (timeout < 0: none). It
// returns SendOK, or the send's refusal (SendDead, SendFull), in which
// case the call is over. A timer of an earlier wait still armed is
// disarmed.
func (inv *Invocation) CallSend(p, t *Process, msg value.Value, timeout int64, now time.Time) int {
	code, wake := inv.CallPost(p, t, msg, timeout, now)
	if wake {
		inv.Wake(t)
	}
	return code
}

// CallPost is CallSend without the wake-up of t, as Post is Send's: when
// it reports wake, t was Parked and is now Runnable and the caller hands
// it to a scheduler (the running scheduler's next slot).
func (inv *Invocation) CallPost(p, t *Process, msg value.Value, timeout int64, now time.Time) (code int, wake bool) {
	// The caller's side is set up in one critical section before the
	// request is sent: no reply can arrive before the request does, and
	// the caller is running, so no retirement reads the record meanwhile.
	x := p.ext()
	p.mu.Lock()
	c := x.call
	c.started, c.target = true, t
	p.endWaitLocked()
	p.Wait.Epoch++
	p.Wait.Active = true
	p.Wait.Event = false
	if timeout >= 0 {
		p.Wait.Deadline = now.Add(time.Duration(timeout) * time.Millisecond)
	}
	p.mu.Unlock()
	// Watch t as the request is delivered, under t's lock: from then on
	// Retire(t) resumes p; a closed t refuses the request instead.
	// watchLocked, under that lock, needs t's extension to exist.
	t.ext()
	code, wake = inv.post(p, t, msg, c.id)
	if code != SendOK {
		p.mu.Lock()
		x.call = nil
		p.endWaitLocked() // no timer was armed for this wait
		p.mu.Unlock()
	}
	return code, wake
}

// CallStatus is what CallDecide decided.
type CallStatus uint8

const (
	CallWaiting  CallStatus = iota // park
	CallArm                        // park, and arm a timer for Wait.Deadline / Wait.Epoch
	CallReplied                    // the reply arrived (Value)
	CallDown                       // the target died first (Value: its reason)
	CallTimedOut                   // the timeout expired
)

// CallDecide decides p's call under its lock: the reply, the target's
// death, the timeout, or park (arming the timer the first time). A final
// decision ends the call: the record is dropped (later replies to its
// address are discarded), the reply's charge is released, p stops
// watching the target, and an armed timer is disarmed.
func (inv *Invocation) CallDecide(p *Process, now time.Time) (st CallStatus, v value.Value) {
	x := p.ext()
	p.mu.Lock()
	c := x.call
	w := &p.Wait
	switch {
	case c == nil:
		// Unreachable: CallStarted installs the record.
		st = CallTimedOut
	case c.replied:
		st, v = CallReplied, c.reply
	case c.down:
		st, v = CallDown, c.reason
	case !w.Deadline.IsZero() && (p.timedOut || !now.Before(w.Deadline)):
		st = CallTimedOut
	case !w.Deadline.IsZero() && p.armed == 0:
		p.armLocked(w.Epoch)
		x.blocked = true
		p.mu.Unlock()
		return CallArm, value.Unit
	default:
		x.blocked = true
		p.mu.Unlock()
		return CallWaiting, value.Unit
	}
	x.blocked = false
	p.endWaitLocked()
	x.call = nil
	var t *Process
	var id uint64
	if c != nil {
		t, id = c.target, c.id
		if c.bytes > 0 {
			p.msgBytes -= c.bytes
			inv.releaseBytes(c.bytes)
		}
		// The record is p's own again: the next CallReply reuses it.
		*c = callState{}
		x.spare = c
	}
	p.mu.Unlock()
	if t != nil {
		inv.unwatch(t, p, id)
	}
	return st, v
}

// unwatch removes caller from t's callers if it is there for call id.
func (inv *Invocation) unwatch(t, caller *Process, id uint64) {
	tx := t.rc.Load()
	if tx == nil {
		return
	}
	t.mu.Lock()
	if tx.callers[caller] == id {
		delete(tx.callers, caller)
	}
	t.mu.Unlock()
}

// Reply delivers msg to the reply address reply on behalf of from (nil:
// unknown). It returns SendOK, also when the reply is dropped because the
// call is over, or SendFull when the budget cannot hold the reply.
func (inv *Invocation) Reply(from *Process, reply, msg value.Value) int {
	code, c := inv.PostReply(from, reply, msg)
	if c != nil {
		inv.Wake(c)
	}
	return code
}

// PostReply is Reply without the wake-up: it returns the caller to wake
// (Parked until now, Runnable now), or nil, as Post reports its wake.
func (inv *Invocation) PostReply(from *Process, reply, msg value.Value) (int, *Process) {
	c := Of(reply)
	id := uint64(-reply.Payload())
	size := MessageHeader + Size(msg)
	c.mu.Lock()
	x := c.rc.Load()
	if x == nil || x.call == nil || x.call.id != id || !x.call.started || x.call.replied || x.call.down || c.closed {
		c.mu.Unlock()
		return SendOK, nil
	}
	if !inv.chargeBytes(size) {
		c.mu.Unlock()
		return SendFull, nil
	}
	c.msgBytes += size
	call := x.call
	call.replied, call.reply, call.bytes = true, msg, size
	wake := inv.resumeLocked(c, from)
	c.mu.Unlock()
	if wake {
		return SendOK, c
	}
	return SendOK, nil
}

// resumeLocked makes a process blocked in a call or send_wait runnable
// once its outcome is decided; c.mu is held. With deferred cells, the
// cells in flight from the process that decided it arrive first, so
// that its earlier messages are queued before the caller goes on. It
// reports whether c must be woken.
func (inv *Invocation) resumeLocked(c, from *Process) bool {
	parked := c.status == Parked
	if inv.Defer && from != nil && from != c {
		inv.arriveAllLocked(c, from.gen)
	}
	if parked {
		c.status = Runnable
		return true
	}
	return false
}

// parkBlockedLocked is ParkLocked for a process blocked in a call or in
// send_wait: it runs again only when its outcome is decided, its timer
// fired or a terminal signal is pending. p.mu is held.
func (p *Process) parkBlockedLocked(x *regcall) (runAgain bool) {
	ready := p.timedOut || p.killReq != nil
	if c := x.call; c != nil && (c.replied || c.down) {
		ready = true
	}
	if w := x.sw; w != nil && w.state.Load() != waitPending {
		ready = true
	}
	if ready {
		p.status = Runnable
		return true
	}
	p.status = Parked
	return false
}

// blockedLocked returns p's regcall record when p is blocked in a call
// or send_wait, else nil; p.mu is held.
func (p *Process) blockedLocked() *regcall {
	if x := p.rc.Load(); x != nil && x.blocked {
		return x
	}
	return nil
}

// retireRegcall is the registry's and call's part of step 3 of
// docs/reference/runtime.md#retiring-a-process for the retiring q, whose mailbox is closed: q's name is freed, and
// a call or send_wait q was blocked in is withdrawn from its target.
func (inv *Invocation) retireRegcall(q *Process) {
	inv.freeName(q)
	x := q.rc.Load()
	if x == nil {
		return
	}
	q.mu.Lock()
	c, w := x.call, x.sw
	x.call, x.sw, x.blocked = nil, nil, false
	q.mu.Unlock()
	if c != nil && c.target != nil {
		inv.unwatch(c.target, q, c.id)
	}
	if w != nil {
		inv.withdraw(w)
	}
}

// resumeBlocked is step 5 of docs/reference/runtime.md#retiring-a-process: every process parked on a
// call to q resumes with q's reason (unless its reply came first), and
// every sender parked in send_wait on q resumes with Err(3).
func (inv *Invocation) resumeBlocked(q *Process) {
	x := q.rc.Load()
	if x == nil {
		return
	}
	q.mu.Lock()
	callers, waiters, reason := x.callers, x.waiters, q.reason
	x.callers, x.waiters = nil, nil
	q.mu.Unlock()
	order := make([]*Process, 0, len(callers))
	for c := range callers {
		order = append(order, c)
	}
	slices.SortFunc(order, func(a, b *Process) int { return cmp.Compare(a.gen, b.gen) })
	for _, c := range order {
		id := callers[c]
		cx := c.rc.Load()
		c.mu.Lock()
		wake := false
		if call := cx.call; call != nil && call.id == id && !call.replied && !call.down {
			call.down, call.reason = true, reason
			wake = inv.resumeLocked(c, q)
		}
		c.mu.Unlock()
		if wake {
			inv.Wake(c)
		}
	}
	for _, w := range waiters {
		if w.state.CompareAndSwap(waitPending, waitDead) {
			inv.wakeSender(w.p)
		}
	}
}

// wakeSender wakes the sender s once its send_wait outcome is decided.
func (inv *Invocation) wakeSender(s *Process) {
	s.mu.Lock()
	wake := inv.resumeLocked(s, nil)
	s.mu.Unlock()
	if wake {
		inv.Wake(s)
	}
}
