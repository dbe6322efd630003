package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"time"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Send results: the Err code of send, or 0 for Ok.
const (
	SendOK   = 0
	SendDead = 3
	SendFull = 4
	// CallSelf is Process.call's CallRejected code for a call whose
	// target is the caller itself (OTP's calling_self): nobody could
	// answer, so the call is refused before anything is sent.
	CallSelf = 5
)

// deliverLocked appends c; p.mu must be held. It reports whether the
// process was Parked and is now Runnable (the caller must wake it).
func (p *Process) deliverLocked(c Cell) bool {
	if c.Kind == CellMessage {
		p.user++
	}
	return p.appendLocked(c)
}

// appendLocked appends c to the inbox without counting it (a message in
// flight was counted when it was sent); p.mu must be held. It reports
// whether the process must be woken, as deliverLocked does.
func (p *Process) appendLocked(c Cell) bool {
	p.inbox = append(p.inbox, c)
	if len(p.inbox) == 1 {
		p.inboxAny.Store(true)
	}
	if p.status == Parked {
		p.status = Runnable
		return true
	}
	return false
}

// takeInboxLocked moves the inbox to the end of the receive side, in
// order; p.mu must be held and the caller owns the receive side.
func (p *Process) takeInboxLocked() {
	if len(p.inbox) == 0 {
		return
	}
	if p.head == len(p.box) {
		// The receive side is empty (its cells are zero): swap the
		// buffers, the emptied one becomes the next inbox.
		p.box, p.head, p.inbox = p.inbox, 0, p.box[:0]
	} else {
		if p.head > 0 {
			n := copy(p.box, p.box[p.head:])
			clear(p.box[n:])
			p.box, p.head = p.box[:n], 0
		}
		p.box = append(p.box, p.inbox...)
		clear(p.inbox)
		p.inbox = p.inbox[:0]
	}
	p.inboxAny.Store(false)
}

// takeInbox is takeInboxLocked for the owner of the receive side, which
// takes the lock only when the inbox is not empty.
func (p *Process) takeInbox() bool {
	if !p.inboxAny.Load() {
		return false
	}
	p.mu.Lock()
	p.takeInboxLocked()
	p.mu.Unlock()
	return true
}

// BeginTurn starts a scheduler turn of p: unless p is Done or has
// neither a State nor a Driver (it reports false then), p becomes Running, the inbox moves to
// the receive side (so a receive woken by a message finds it without
// taking the lock again) and a pending terminal signal is taken: kill
// reports it (the scheduler applies it, KillRequested's job at a turn's
// start). One lock round trip.
func (p *Process) BeginTurn() (run, kill bool) {
	p.mu.Lock()
	if p.status == Done || (p.State == nil && p.Driver == nil) {
		p.mu.Unlock()
		return false, false
	}
	p.status = Running
	p.takeInboxLocked()
	if p.Driver == nil {
		// A driven process (a Supervisor) takes its terminal signal
		// itself, with the reason (KillRequested).
		kill = p.killReq != nil
		p.killReq = nil
	}
	p.mu.Unlock()
	return true, kill
}

// Send delivers a user message (shared, not copied: values are immutable)
// to p, enforcing the per-mailbox and per-invocation limits, and wakes p
// if it was parked.
// It returns SendOK, SendDead or SendFull.
func (inv *Invocation) Send(p *Process, msg value.Value) int { return inv.SendFrom(nil, p, msg) }

// SendFrom is Send from the process from (nil when unknown), which names
// the sender in the "send" and "recv" trace lines when messages are
// traced. The send line is written under p's lock, so it always precedes
// the receiver's recv line.
func (inv *Invocation) SendFrom(from, p *Process, msg value.Value) int {
	code, wake := inv.Post(from, p, msg)
	if wake {
		inv.Wake(p)
	}
	return code
}

// Post is SendFrom without the wake-up: when it reports wake, p was
// Parked and is now Runnable, and the caller must hand it to a
// scheduler (a scheduler running from puts it on its own queue instead
// of Invocation.Wake's).
func (inv *Invocation) Post(from, p *Process, msg value.Value) (code int, wake bool) {
	return inv.post(from, p, msg, 0)
}

// post is Post; when call is not 0 the message is the request of from's
// Process.call with that serial, and a delivered request registers from
// among p's callers (p.rc, which the caller allocated) in the same
// critical section, so that p's retirement resumes the call.
func (inv *Invocation) post(from, p *Process, msg value.Value, call uint64) (code int, wake bool) {
	if p.Port != nil {
		if p.Kind == KindPort {
			p.mu.Lock()
			closed := p.closed
			if !closed {
				p.Port(msg.AsString())
				if call != 0 {
					p.watchLocked(from, call)
				}
			}
			inv.traceSendLocked(from, p, closed, false)
			p.mu.Unlock()
			if closed {
				return SendDead, false
			}
			return SendOK, false
		}
	}
	// A variant, the usual message, has its size read here without a
	// call (Size is value.Value.Size, a switch on the kind).
	size := int64(MessageHeader)
	if d, ok := msg.Data(); ok {
		size += d.Size()
	} else {
		size += Size(msg)
	}
	p.mu.Lock()
	if p.closed {
		inv.traceSendLocked(from, p, true, false)
		p.mu.Unlock()
		return SendDead, false
	}
	if p.user >= MaxMailbox || p.sendersWaitLocked() {
		inv.traceSendLocked(from, p, false, true)
		p.mu.Unlock()
		return SendFull, false
	}
	if !inv.chargeMsgQuick(size) && !inv.chargeMsg(size) {
		inv.traceSendLocked(from, p, false, true)
		p.mu.Unlock()
		return SendFull, false
	}
	p.msgBytes += size
	if (inv.TraceMessages || inv.Defer) && from != nil {
		c := Cell{Kind: CellMessage, Value: msg, Bytes: size}
		if inv.TraceMessages {
			c.From = from.Gen()
			inv.traceSendLocked(from, p, false, false)
		}
		if inv.Defer && from != p {
			inv.deferLocked(from, p, c)
			if call != 0 {
				p.watchLocked(from, call)
			}
			p.mu.Unlock()
			return SendOK, false
		}
		wake = p.deliverLocked(c)
	} else {
		wake = p.deliverMessageLocked(msg, size)
	}
	if call != 0 {
		p.watchLocked(from, call)
	}
	p.mu.Unlock()
	return SendOK, wake
}

// watchLocked registers caller among p's callers for its call serial id;
// p.mu is held and p.rc exists.
func (p *Process) watchLocked(caller *Process, id uint64) {
	x := p.rc.Load()
	if x.callers == nil {
		x.callers = map[*Process]uint64{}
	}
	x.callers[caller] = id
}

// deliverMessageLocked is deliverLocked of an untraced user message,
// written into the inbox in place (a Cell is six words: built and then
// appended it was copied twice on every send).
func (p *Process) deliverMessageLocked(msg value.Value, size int64) bool {
	p.user++
	n := len(p.inbox)
	if n < cap(p.inbox) {
		p.inbox = p.inbox[:n+1]
	} else {
		p.inbox = append(p.inbox, Cell{})
	}
	p.inbox[n] = Cell{Kind: CellMessage, Value: msg, Bytes: size}
	if n == 0 {
		p.inboxAny.Store(true)
	}
	if p.status == Parked {
		p.status = Runnable
		return true
	}
	return false
}

// traceSendLocked writes the "send" trace line of a message from from to
// p (with " (dead)" or " (full)" when it was refused); p.mu is held.
func (inv *Invocation) traceSendLocked(from, p *Process, dead, full bool) {
	if !inv.TraceMessages || from == nil {
		return
	}
	switch {
	case dead:
		inv.trace("send %d -> %d (dead)", from.Gen(), p.Gen())
	case full:
		inv.trace("send %d -> %d (full)", from.Gen(), p.Gen())
	default:
		inv.trace("send %d -> %d", from.Gen(), p.Gen())
	}
}

// flushDownsLocked removes from p's mailbox every queued Down of monitor
// m (demonitor with flush, docs/reference/actors.md#demonitor), releasing the reservation
// each carries; user messages, even ones that carry the same MonitorRef,
// are never touched. p.mu is held and p is the running process (it owns
// the receive side).
func (inv *Invocation) flushDownsLocked(p *Process, m *Monitor) {
	p.box = inv.flushDowns(p, m, p.box, p.head)
	p.inbox = inv.flushDowns(p, m, p.inbox, 0)
	p.inboxAny.Store(len(p.inbox) > 0)
}

// flushDowns filters the Downs of m out of cells[from:], keeping the
// buffer's tail zero; p.mu is held.
func (inv *Invocation) flushDowns(p *Process, m *Monitor, cells []Cell, from int) []Cell {
	out := cells[:from]
	for _, c := range cells[from:] {
		if c.Kind == CellDown && c.Ref == m {
			if c.Resv {
				inv.unreserveLocked(p, c.Bytes)
			}
			continue
		}
		out = append(out, c)
	}
	clear(cells[len(out):])
	return out
}

// deliverLifecycle appends a Down or Exit cell about the dead process
// about to p (no user slot is used) unless p's mailbox is closed, and
// wakes p if it was parked. Cells still in flight from the dead process
// arrive first (flight.go).
func (inv *Invocation) deliverLifecycle(p, about *Process, c Cell) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	if inv.Defer {
		inv.arriveAllLocked(p, about.gen)
	}
	wake := p.deliverLocked(c)
	p.mu.Unlock()
	if wake {
		inv.Wake(p)
	}
}

// The receive operations below work on the receive side, which belongs
// to the scheduler running p (proc.go, "Locking and wake-ups"); they take
// p.mu only to move the inbox over, to release a reservation, and for
// the receive timer.

// RecvStart begins a receive: a new wait epoch, the cursor at the oldest
// cell, and the deadline (timeout < 0: none). A timer of an earlier wait
// still armed is disarmed (normally a wait ends by RecvTake or a timeout
// first).
func (p *Process) RecvStart(timeout int64, event bool, now time.Time) {
	if p.armed != 0 {
		p.disarm()
	}
	p.beginWait(event)
	if timeout >= 0 {
		p.Wait.Deadline = now.Add(time.Duration(timeout) * time.Millisecond)
	}
}

// beginWait starts a new wait without a deadline, the cursor at the
// oldest cell (the caller has disarmed an earlier wait's timer).
func (p *Process) beginWait(event bool) {
	p.cursor = 0
	w := &p.Wait
	w.Epoch++
	w.Active = true
	w.Event = event
	w.Deadline = time.Time{}
}

// RecvStartPeek is RecvStart without a timeout followed by RecvPeek, in
// one call: the usual receive begins with it. The first cell of the
// receive side, when it is a user message and the receive is plain,
// is answered here; anything else is RecvPeek's.
func (p *Process) RecvStartPeek(event bool) (value.Value, bool) {
	if p.armed != 0 {
		p.disarm()
	}
	p.beginWait(event)
	if i := p.head; !event && i < len(p.box) && p.box[i].Kind == CellMessage {
		return p.box[i].Value, true
	}
	return p.RecvPeek()
}

// RecvPeek returns the cell at the cursor as the value the receive's arms
// match: for a plain receive the next user message (lifecycle cells are
// stepped over, not consumed), for receive_event the next cell as a
// Process.Event. At the end of the receive side it takes the inbox, if
// anything arrived, and goes on.
func (p *Process) RecvPeek() (value.Value, bool) {
	for {
		i := p.head + p.cursor
		if i >= len(p.box) {
			if p.takeInbox() {
				continue
			}
			return value.Unit, false
		}
		c := &p.box[i]
		if p.Wait.Event {
			if c.Kind == CellMessage {
				return value.NewData(ptype.EventType, ptype.EventMessage, c.Value), true
			}
			return c.Value, true
		}
		if c.Kind == CellMessage {
			return c.Value, true
		}
		p.cursor++
	}
}

// RecvTake removes the cell at the cursor and ends the receive,
// disarming its timer.
func (p *Process) RecvTake(inv *Invocation) { p.recvTake(inv, nil) }

// Taken is what a receive side took without subtracting it yet from the
// counters that senders check (the user messages and their bytes, of the
// process and of the invocation): a count and a byte total, owned by the
// scheduler running the process. RecvTakeDeferred fills it and
// SettleTaken applies it in one locked step.
//
// Deferring is exact for everything a program can observe. The counters
// only ever overstate what is queued while something is pending, so a
// send that sees them can only be refused as if it had come before the
// takes; the owner settles before every operation through which another
// process could learn that the takes happened (every host operation
// other than a receive) and at the end of each turn, so no send that is
// causally after a take sees the take's message still counted. At one
// scheduler nothing runs during the owner's turn, so every other process
// sees exact counters. A take then costs no lock and no atomic
// operation, and the process's counters need no atomics at all (senders
// update them under the lock they hold anyway): docs/performance.md.
type Taken struct {
	n     int64
	bytes int64
}

// RecvTakeDeferred is RecvTake that adds a user message to t instead of
// subtracting it from the counters. While senders wait in send_wait on p
// (p.rc), a take settles t and frees the slot at once, as RecvTake does,
// since it admits the oldest waiter into it.
func (p *Process) RecvTakeDeferred(inv *Invocation, t *Taken) { p.recvTake(inv, t) }

// SettleTaken subtracts what t holds from the counters and empties it;
// p is the running process that took the messages (its owner calls it).
// A send_wait sender that parked meanwhile is admitted into each slot
// freed, as RecvTake would have done; the caller wakes the admitted ones
// (WakeAdmitted).
func (p *Process) SettleTaken(inv *Invocation, t *Taken) {
	if t.n == 0 {
		return
	}
	p.mu.Lock()
	p.settleLocked(inv, t)
	p.mu.Unlock()
}

// settleLocked is SettleTaken with p.mu held.
func (p *Process) settleLocked(inv *Invocation, t *Taken) {
	n := t.n
	if n == 0 {
		return
	}
	p.user -= int32(n)
	p.msgBytes -= t.bytes
	inv.releaseMsgs(n, t.bytes)
	*t = Taken{}
	if p.rc.Load() != nil {
		for ; n > 0; n-- {
			inv.admitOneLocked(p)
		}
	}
}

func (p *Process) recvTake(inv *Invocation, t *Taken) {
	i := p.head + p.cursor
	if i >= len(p.box) {
		p.takeInbox() // a take without a peek first (the VM always peeks)
	}
	if i < len(p.box) {
		c := &p.box[i]
		msg := c.Kind == CellMessage
		if msg {
			if c.From != 0 && inv.TraceMessages {
				inv.trace("recv %d <- %d", p.Gen(), c.From)
			}
			switch {
			case t != nil && p.rc.Load() == nil:
				// Counted later (SettleTaken), which also admits a
				// first send_wait that raced with this take.
				t.n++
				t.bytes += c.Bytes
			default:
				// Senders may be parked in send_wait: the slot is freed
				// and given to the oldest one in one locked step, so no
				// plain send takes it first (sendwait.go).
				p.mu.Lock()
				if t != nil {
					p.settleLocked(inv, t)
				}
				p.dropMessageLocked(inv, c.Bytes)
				inv.admitOneLocked(p)
				p.mu.Unlock()
			}
		}
		if c.Resv {
			p.mu.Lock()
			inv.unreserveLocked(p, c.Bytes)
			p.mu.Unlock()
		}
		if p.cursor == 0 {
			*c = Cell{}
			p.head++
		} else {
			copy(p.box[i:], p.box[i+1:])
			p.box[len(p.box)-1] = Cell{}
			p.box = p.box[:len(p.box)-1]
		}
		if p.head == len(p.box) {
			p.box = p.box[:0]
			p.head = 0
		}
	}
	p.cursor = 0
	p.Wait.Active = false
	p.Wait.Deadline = time.Time{}
	if p.armed != 0 {
		p.disarm()
	}
}

// dropMessageLocked releases the counts and the charge of a user message
// the receive side took; p.mu is held.
func (p *Process) dropMessageLocked(inv *Invocation, bytes int64) {
	p.user--
	p.msgBytes -= bytes
	inv.releaseMsgs(1, bytes)
}

// endWaitLocked ends the current wait (of a call, call.go), disarming
// its timer; p.mu is held and p is running.
func (p *Process) endWaitLocked() {
	p.disarmLocked()
	p.Wait.Active = false
	p.Wait.Deadline = time.Time{}
}

// RecvSkip advances the cursor past the cell at the cursor.
func (p *Process) RecvSkip() { p.cursor++ }

// WaitDecision is what RecvWait decided.
type WaitDecision uint8

const (
	DecidePark WaitDecision = iota
	DecideRetry
	DecideTimeout
	DecideArm // park, and arm a timer for Wait.Deadline / Wait.Epoch
)

// RecvWait decides: cells past the cursor or in the inbox -> retry;
// timeout expired -> timeout (the wait ends); otherwise park, arming the
// timer the first time (the timer is then armed: the caller adds it to
// its heap). Without a timeout nothing is locked: the scheduler's park
// decision (ParkLocked) re-checks the inbox under the lock, so a message
// that arrives after this answer still wakes the process.
func (p *Process) RecvWait(now time.Time) WaitDecision {
	if p.head+p.cursor < len(p.box) || p.inboxAny.Load() {
		return DecideRetry
	}
	w := &p.Wait
	if w.Deadline.IsZero() {
		return DecidePark
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.inbox) > 0 {
		return DecideRetry
	}
	if p.timedOut || !now.Before(w.Deadline) {
		p.disarmLocked()
		w.Active = false
		w.Deadline = time.Time{}
		return DecideTimeout
	}
	if p.armed == 0 {
		p.armLocked(w.Epoch)
		return DecideArm
	}
	return DecidePark
}

// The receive timer's armed state changes only through armLocked and
// disarmLocked, which keep the invocation's count of armed timers
// (Invocation.ArmedTimers) equal to the number of processes with one
// armed: no caller has a count to keep.

// armLocked arms the receive timer of wait epoch (none is armed); p.mu
// is held.
func (p *Process) armLocked(epoch uint64) {
	p.inv.timers.Add(1)
	p.armed = epoch
}

// disarmLocked drops the armed receive timer, if any, and forgets that it
// fired; p.mu is held.
func (p *Process) disarmLocked() {
	if p.armed != 0 {
		p.armed = 0
		p.inv.timers.Add(-1)
	}
	p.timedOut = false
}

// disarm is disarmLocked for the running process, which takes the lock.
func (p *Process) disarm() {
	p.mu.Lock()
	p.disarmLocked()
	p.mu.Unlock()
}

// ParkLocked is the scheduler's park decision after the VM returned
// StatusPark; p.mu must be held. It reports whether the process must run
// again at once (cells arrived, its timer fired, or a terminal signal is
// pending) instead of parking.
func (p *Process) ParkLocked() (runAgain bool) {
	if x := p.blockedLocked(); x != nil {
		return p.parkBlockedLocked(x) // in Process.call or send_wait (call.go)
	}
	if w := p.nwait; w != nil {
		// Parked on a native call (nativewait.go): only its answer or a
		// terminal signal resumes it.
		if w.done || p.killReq != nil {
			p.status = Runnable
			return true
		}
		p.status = Parked
		return false
	}
	if p.head+p.cursor < len(p.box) || len(p.inbox) > 0 || p.timedOut || p.killReq != nil {
		p.status = Runnable
		return true
	}
	p.status = Parked
	return false
}

// TimerLive reports whether a timer armed for wait epoch may still fire
// (the heap owner uses it to drop cancelled timers).
func (p *Process) TimerLive(epoch uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.armed == epoch
}

// TimerFired is called by the scheduler that armed the timer of wait
// epoch. It reports whether the process must be woken.
func (p *Process) TimerFired(epoch uint64) (wake bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.armed != epoch {
		return false // stale: the wait it was armed for is over
	}
	p.timedOut = true
	if p.status == Parked {
		p.status = Runnable
		return true
	}
	return false
}
