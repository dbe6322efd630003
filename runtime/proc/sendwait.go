package proc

import (
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Back-pressure (Process.send_wait, docs/reference/runtime.md#features-beyond-the-core-language).
//
// send_wait first tries an ordinary send. When the target's mailbox is
// full (or other senders already wait on it) the sender parks as a
// sendWaiter at the back of the target's waiters queue, holding its
// message. Each user message the target takes (RecvTake) admits exactly
// one waiter, the oldest, under the target's lock: its message is queued
// into the slot just freed (no ordinary send can take it first) and the
// waiter is woken once the lock is released (WakeAdmitted); there is no
// wake storm. When the target retires, every waiter resumes with Err(3)
// (resumeBlocked); a waiter that is killed withdraws from the queue
// (retireRegcall). A waiter's outcome is an atomic, written under the
// target's lock and read by the waiter's own park decision, so no two
// process locks are held together.

const (
	waitPending uint32 = iota
	waitAdmitted
	waitDead
	waitRefused // the memory budget refused its admission: Err(4)
)

// sendWaiter is one sender parked in send_wait.
type sendWaiter struct {
	p      *Process
	target *Process
	msg    value.Value
	state  atomic.Uint32
}

// SendWait is the first execution of send_wait(t, msg) by p. It returns
// the send's code (SendOK, SendDead, SendFull) when it is decided at
// once, or parked = true when p waits for room (then SendWaitDecide
// gives the outcome). SendFull is returned only when the invocation-wide
// limits (queued messages, memory budget) refuse the message although
// the target's mailbox has room.
func (inv *Invocation) SendWait(p, t *Process, msg value.Value) (code int, parked bool) {
	if t.Kind == KindPort || t == p {
		// A host port never fills; a process waiting for room in its
		// own mailbox would wait forever: both are plain sends.
		return inv.SendFrom(p, t, msg), false
	}
	tx := t.ext()
	room := 0
	for {
		if code := inv.SendFrom(p, t, msg); code != SendFull {
			return code, false
		}
		t.mu.Lock()
		if t.closed {
			t.mu.Unlock()
			return SendDead, false
		}
		if t.user >= MaxMailbox || len(tx.waiters) > 0 {
			w := &sendWaiter{p: p, target: t, msg: msg}
			tx.waiters = append(tx.waiters, w)
			t.mu.Unlock()
			x := p.ext()
			p.mu.Lock()
			x.sw = w
			p.mu.Unlock()
			return 0, true
		}
		t.mu.Unlock()
		// The mailbox has room: a message was taken meanwhile (try
		// again), or the invocation's limits refused the message.
		if room++; room > 1 {
			return SendFull, false
		}
	}
}

// SendWaitDecide decides, under p's lock, the send_wait p is parked in:
// parked = true while it waits (the process parks), else the code of its
// outcome (SendOK once admitted, SendDead when the target died).
func (inv *Invocation) SendWaitDecide(p *Process) (code int, parked bool) {
	x := p.ext()
	p.mu.Lock()
	defer p.mu.Unlock()
	w := x.sw
	if w == nil {
		return SendDead, false // unreachable: SendWait parked with a waiter
	}
	switch w.state.Load() {
	case waitAdmitted:
		code = SendOK
	case waitDead:
		code = SendDead
	case waitRefused:
		code = SendFull
	default:
		x.blocked = true
		return 0, true
	}
	x.sw, x.blocked = nil, false
	return code, false
}

// SendWaiting reports whether p is parked in a send_wait (a resumed
// SEND_WAIT decides instead of sending again).
func (p *Process) SendWaiting() bool {
	x := p.rc.Load()
	if x == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return x.sw != nil
}

// admitOneLocked admits the oldest sender parked on p, if any; p.mu is
// held and p has just taken a user message. A sender whose message the
// invocation's limits (memory budget, queued messages) refuse is
// answered SendFull at once, as a plain send would be, and the next one
// is tried: keeping it first in line could keep it there for ever (no
// take may come again once p has drained its mailbox), with every plain
// send refused meanwhile because senders wait.
func (inv *Invocation) admitOneLocked(p *Process) {
	x := p.rc.Load()
	if x == nil {
		return
	}
	for len(x.waiters) > 0 && p.user < MaxMailbox && !p.closed {
		w := x.waiters[0]
		if w.state.Load() != waitPending {
			x.waiters[0] = nil
			x.waiters = x.waiters[1:]
			continue
		}
		size := MessageHeader + Size(w.msg)
		x.waiters[0] = nil
		x.waiters = x.waiters[1:]
		if !inv.chargeMsg(size) {
			w.state.Store(waitRefused)
			if inv.TraceMessages {
				inv.traceSendLocked(w.p, p, false, true)
			}
			x.admitted = append(x.admitted, w) // woken with the admitted
			continue
		}
		w.state.Store(waitAdmitted)
		p.msgBytes += size
		c := Cell{Kind: CellMessage, Value: w.msg, Bytes: size}
		if inv.TraceMessages {
			c.From = w.p.Gen()
			inv.traceSendLocked(w.p, p, false, false)
		}
		if inv.Defer && w.p != p {
			inv.deferLocked(w.p, p, c)
		} else {
			p.deliverLocked(c)
		}
		x.admitted = append(x.admitted, w)
		return
	}
}

// sendersWaitLocked reports whether senders are parked in send_wait on
// p; p.mu is held. A plain send is refused then (SendFull), as it would
// be by the full mailbox they wait for: the receive side frees a slot
// before it admits the oldest waiter into it (RecvTake), and a plain
// send in between must not take the slot.
func (p *Process) sendersWaitLocked() bool {
	x := p.rc.Load()
	return x != nil && len(x.waiters) > 0
}

// WakeAdmitted wakes the senders that p's last take admitted; p is the
// running process and p.mu is not held.
//
// It is called after every take: the check that nobody waits is inlined
// into the caller.
func (inv *Invocation) WakeAdmitted(p *Process) {
	if x := p.rc.Load(); x != nil {
		inv.wakeAdmitted(p, x)
	}
}

// wakeAdmitted is WakeAdmitted once p has call and wait state x.
func (inv *Invocation) wakeAdmitted(p *Process, x *regcall) {
	p.mu.Lock()
	ws := x.admitted
	x.admitted = nil
	p.mu.Unlock()
	for _, w := range ws {
		inv.wakeSender(w.p)
	}
}

// withdraw takes the retiring sender's waiter out of its target's queue
// (its message is never delivered), unless it was admitted already.
func (inv *Invocation) withdraw(w *sendWaiter) {
	t := w.target
	tx := t.rc.Load()
	t.mu.Lock()
	if w.state.CompareAndSwap(waitPending, waitDead) && tx != nil {
		for i, o := range tx.waiters {
			if o == w {
				n := len(tx.waiters) - 1
				copy(tx.waiters[i:], tx.waiters[i+1:])
				tx.waiters[n] = nil
				tx.waiters = tx.waiters[:n]
				break
			}
		}
	}
	t.mu.Unlock()
}
