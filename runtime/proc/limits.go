package proc

import (
	"github.com/morrow-lang/morrow/runtime/value"
)

// Lifecycle accounting (LANGUAGE.md §7.5).
//
// A directed lifecycle reservation is held by the process that will
// receive the notification: the owner of a monitor, each end of a link
// (a link reserves at both ends, one per direction) and the target of an
// admitted direct exit signal. Each process may hold MaxProcReservations
// and the invocation MaxInvReservations. A future monitor or link
// completion also charges CompletionBytes, a direct signal
// SignalBaseBytes plus its text, against the invocation's logical memory
// budget (MemoryBudget by default); user messages charge MessageHeader
// plus their payload (Size) against the same budget.
//
// A reservation moves with its notification: when the Down or Exit is
// queued the cell carries it (Cell.Resv, Cell.Bytes) and it is released
// when the cell is consumed or flushed; a cancelled monitor or link
// releases it at once; when the holder retires everything it holds is
// released in one step (Process.resv and Process.resvBytes). The
// reservations are separate from the user-message slots of the mailbox,
// so a full mailbox never loses a Down or Exit.
//
// Every counter of a process is guarded by its lock (the receive side
// subtracts what it took in one locked step, proc.go "Locking and
// wake-ups"); the invocation totals are atomics updated together with
// them.
const (
	MaxProcReservations = 256
	MaxInvReservations  = 4096
	CompletionBytes     = 512 + 4097
	SignalBaseBytes     = 512
	MessageHeader       = 32
	MemoryBudget        = 64 << 20
)

func (inv *Invocation) budget() int64 {
	if inv.MemoryBudget > 0 {
		return inv.MemoryBudget
	}
	return MemoryBudget
}

// chargeBytes takes n logical bytes from the budget, or reports false.
func (inv *Invocation) chargeBytes(n int64) bool {
	if inv.bytes.Add(n) > inv.budget() {
		inv.bytes.Add(-n)
		return false
	}
	return true
}

// Admits reports whether n more logical bytes fit in the budget now (a
// local Process.exit reason is admitted this way: its text is carried by
// the completions already reserved, but an exhausted budget refuses it).
func (inv *Invocation) Admits(n int64) bool {
	return inv.bytes.Load()+n <= inv.budget()
}

// reserveLocked admits one reservation of n bytes held by p; p.mu must be
// held and p's mailbox open.
func (inv *Invocation) reserveLocked(p *Process, n int64) bool {
	if p.closed || p.resv >= MaxProcReservations {
		return false
	}
	limit := inv.MaxReservations
	if limit <= 0 {
		limit = MaxInvReservations
	}
	if inv.reservations.Add(1) > limit {
		inv.reservations.Add(-1)
		return false
	}
	if !inv.chargeBytes(n) {
		inv.reservations.Add(-1)
		return false
	}
	p.resv++
	p.resvBytes += n
	return true
}

// unreserveLocked releases one reservation of n bytes held by p; p.mu
// must be held. Once p's mailbox is closed its reservations were already
// released in bulk, so nothing is done.
func (inv *Invocation) unreserveLocked(p *Process, n int64) {
	if p.closed {
		return
	}
	p.resv--
	p.resvBytes -= n
	inv.reservations.Add(-1)
	inv.bytes.Add(-n)
}

// releaseAllLocked releases everything p holds (it is retiring); p.mu
// must be held, just before its mailbox is closed.
func (inv *Invocation) releaseAllLocked(p *Process) {
	inv.reservations.Add(int64(-p.resv))
	inv.bytes.Add(-(p.resvBytes + p.msgBytes))
	p.resv, p.resvBytes, p.msgBytes = 0, 0, 0
}

// Reservations returns the invocation's outstanding lifecycle
// reservations and logical bytes in use.
func (inv *Invocation) Reservations() (count, bytes int64) {
	return inv.reservations.Load(), inv.bytes.Load()
}

// Reservations returns the reservations p holds.
func (p *Process) Reservations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resv
}

// Size is the logical payload size of a message value (LANGUAGE.md
// §7.5): 16 bytes per value slot plus the bytes of strings, counted
// through tuples, lists, variants and the captured values of closures.
// It is known in O(1): every compound value carries its size from
// construction (value.Value.Size), saturating far above any budget, so a
// value with internal sharing is refused without being walked, and no
// value is ever walked under a process lock.
func Size(v value.Value) int64 {
	return v.Size()
}
