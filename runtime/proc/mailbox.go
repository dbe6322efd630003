package proc

import (
	"time"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/process"
)

// Send results: the Err code of send, or 0 for Ok.
const (
	SendOK   = 0
	SendDead = 3
	SendFull = 4
)

// deliverLocked appends c; p.mu must be held. It reports whether the
// process was Parked and is now Runnable (the caller must wake it).
func (p *Process) deliverLocked(c Cell) bool {
	if c.Kind == CellMessage {
		p.user++
	}
	return p.appendLocked(c)
}

// appendLocked appends c to the queued cells without counting it (a
// message in flight was counted when it was sent); p.mu must be held. It
// reports whether the process must be woken, as deliverLocked does.
func (p *Process) appendLocked(c Cell) bool {
	if p.head > 0 && p.head >= len(p.cells)/2 && p.head >= 32 {
		n := copy(p.cells, p.cells[p.head:])
		clear(p.cells[n:])
		p.cells = p.cells[:n]
		p.head = 0
	}
	p.cells = append(p.cells, c)
	if p.status == Parked {
		p.status = Runnable
		return true
	}
	return false
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
	if p.Port != nil {
		if p.Kind == KindPort {
			p.mu.Lock()
			closed := p.closed
			if !closed {
				p.Port(msg.AsString())
			}
			inv.traceSendLocked(from, p, closed, false)
			p.mu.Unlock()
			if closed {
				return SendDead
			}
			return SendOK
		}
	}
	p.mu.Lock()
	if p.closed {
		inv.traceSendLocked(from, p, true, false)
		p.mu.Unlock()
		return SendDead
	}
	if p.user >= MaxMailbox {
		inv.traceSendLocked(from, p, false, true)
		p.mu.Unlock()
		return SendFull
	}
	if q := inv.queued.Add(1); q > MaxQueued && (inv.MaxQueued == 0 || (inv.MaxQueued > 0 && q > inv.MaxQueued)) {
		inv.queued.Add(-1)
		inv.traceSendLocked(from, p, false, true)
		p.mu.Unlock()
		return SendFull
	}
	size := MessageHeader + Size(msg)
	if !inv.chargeBytes(size) {
		inv.queued.Add(-1)
		inv.traceSendLocked(from, p, false, true)
		p.mu.Unlock()
		return SendFull
	}
	p.msgBytes += size
	c := Cell{Kind: CellMessage, Value: msg, Bytes: size}
	if inv.TraceMessages && from != nil {
		c.From = from.Gen()
		inv.traceSendLocked(from, p, false, false)
	}
	if inv.Defer && from != nil && from != p {
		inv.deferLocked(from, p, c)
		p.mu.Unlock()
		return SendOK
	}
	wake := p.deliverLocked(c)
	p.mu.Unlock()
	if wake {
		inv.Wake(p)
	}
	return SendOK
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
// m (demonitor with flush, LANGUAGE.md §7.3), releasing the reservation
// each carries; user messages, even ones that carry the same MonitorRef,
// are never touched. p.mu is held.
func (inv *Invocation) flushDownsLocked(p *Process, m *Monitor) {
	out := p.cells[:p.head]
	for _, c := range p.cells[p.head:] {
		if c.Kind == CellDown && c.Ref == m {
			if c.Resv {
				inv.unreserveLocked(p, c.Bytes)
			}
			continue
		}
		out = append(out, c)
	}
	clear(p.cells[len(out):])
	p.cells = out
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

// RecvStart begins a receive: a new wait epoch, the cursor at the oldest
// cell, and the deadline (timeout < 0: none). It reports whether a timer
// of an earlier wait was still armed (the caller drops it from the
// pending count; normally a wait ends by RecvTake or a timeout first).
func (p *Process) RecvStart(timeout int64, event bool, now time.Time) (disarmed bool) {
	p.mu.Lock()
	disarmed = p.endWaitLocked()
	p.cursor = 0
	p.Wait.Epoch++
	p.Wait.Active = true
	p.Wait.Event = event
	p.Wait.TimedOut = false
	p.Wait.Deadline = time.Time{}
	if timeout >= 0 {
		p.Wait.Deadline = now.Add(time.Duration(timeout) * time.Millisecond)
	}
	p.mu.Unlock()
	return disarmed
}

// RecvPeek returns the cell at the cursor as the value the receive's arms
// match: for a plain receive the next user message (lifecycle cells are
// stepped over, not consumed), for receive_event the next cell as a
// Process.Event.
func (p *Process) RecvPeek() (value.Value, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		i := p.head + p.cursor
		if i >= len(p.cells) {
			return value.Unit, false
		}
		c := &p.cells[i]
		if p.Wait.Event {
			if c.Kind == CellMessage {
				return value.NewData(process.EventType, process.EventMessage, c.Value), true
			}
			return c.Value, true
		}
		if c.Kind == CellMessage {
			return c.Value, true
		}
		p.cursor++
	}
}

// RecvTake removes the cell at the cursor and ends the receive. It
// returns true when the receive had an armed timer (the caller drops it
// from the pending count).
func (p *Process) RecvTake(inv *Invocation) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := p.head + p.cursor
	if i < len(p.cells) {
		c := p.cells[i]
		if c.Kind == CellMessage {
			if c.From != 0 && inv.TraceMessages {
				inv.trace("recv %d <- %d", p.Gen(), c.From)
			}
			p.user--
			inv.queued.Add(-1)
			p.msgBytes -= c.Bytes
			inv.bytes.Add(-c.Bytes)
		}
		if c.Resv {
			inv.unreserveLocked(p, c.Bytes)
		}
		if p.cursor == 0 {
			p.cells[i] = Cell{}
			p.head++
		} else {
			copy(p.cells[i:], p.cells[i+1:])
			p.cells[len(p.cells)-1] = Cell{}
			p.cells = p.cells[:len(p.cells)-1]
		}
		if p.head == len(p.cells) {
			p.cells = p.cells[:0]
			p.head = 0
		}
		if c.Kind == CellMessage {
			inv.admitOneLocked(p) // send_wait: one parked sender per message taken
		}
	}
	p.cursor = 0
	return p.endWaitLocked()
}

// RecvSkip advances the cursor past the cell at the cursor.
func (p *Process) RecvSkip() {
	p.mu.Lock()
	p.cursor++
	p.mu.Unlock()
}

// WaitDecision is what RecvWait decided.
type WaitDecision uint8

const (
	DecidePark WaitDecision = iota
	DecideRetry
	DecideTimeout
	DecideArm // park, and arm a timer for Wait.Deadline / Wait.Epoch
)

// RecvWait decides under the lock: cells past the cursor -> retry; timeout
// expired -> timeout (the wait ends); otherwise park, arming the timer the
// first time. A DecideTimeout result with disarm = true means an armed
// timer was dropped.
func (p *Process) RecvWait(now time.Time) (d WaitDecision, disarm bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.head+p.cursor < len(p.cells) {
		return DecideRetry, false
	}
	w := &p.Wait
	if !w.Deadline.IsZero() && (w.TimedOut || !now.Before(w.Deadline)) {
		return DecideTimeout, p.endWaitLocked()
	}
	if !w.Deadline.IsZero() && !w.Armed {
		w.Armed = true
		return DecideArm, false
	}
	return DecidePark, false
}

// endWaitLocked ends the current wait and reports whether a timer was
// armed for it.
func (p *Process) endWaitLocked() bool {
	armed := p.Wait.Armed
	p.Wait.Active = false
	p.Wait.Armed = false
	p.Wait.TimedOut = false
	p.Wait.Deadline = time.Time{}
	return armed
}

// ParkLocked is the scheduler's park decision after the VM returned
// StatusPark; p.mu must be held. It reports whether the process must run
// again at once (cells arrived past the cursor, its timer fired, or a
// terminal signal is pending) instead of parking.
func (p *Process) ParkLocked() (runAgain bool) {
	if x := p.blockedLocked(); x != nil {
		return p.parkBlockedLocked(x) // in Process.call or send_wait (call.go)
	}
	if p.head+p.cursor < len(p.cells) || p.Wait.TimedOut || p.killReq != nil {
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
	return p.Wait.Epoch == epoch && p.Wait.Active && p.Wait.Armed
}

// TimerFired is called by the scheduler that armed the timer of wait
// epoch. It reports whether the process must be woken.
func (p *Process) TimerFired(epoch uint64) (wake bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.Wait.Epoch != epoch || !p.Wait.Active || !p.Wait.Armed {
		return false // stale: the wait it was armed for is over
	}
	p.Wait.TimedOut = true
	if p.status == Parked {
		p.status = Runnable
		return true
	}
	return false
}
