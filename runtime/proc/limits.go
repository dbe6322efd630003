package proc

import (
	"github.com/morrow-lang/morrow/runtime/value"
)

// Lifecycle accounting (docs/reference/actors.md#limits).
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

func (inv *Invocation) budget() int64 { return budgetOf(inv.MemoryBudget) }

// budgetOf is the memory budget that the setting b means (0 or less:
// the default).
func budgetOf(b int64) int64 {
	if b > 0 {
		return b
	}
	return MemoryBudget
}

// The invocation-wide totals that every send checks and every take
// releases: the queued user messages (the MaxQueued limit) and the
// logical bytes in use (the memory budget, shared with the lifecycle
// reservations). When the limits in force let both fit in one 64-bit
// word (the default: 65,536 messages, 64 MiB) they share inv.use, the
// count above bit packShift and the bytes below it, so a send admits
// both with one compare-and-swap and a take releases both with one add
// (one locked instruction instead of two each: issue 12,
// docs/performance.md). Otherwise ("split") inv.use holds the bytes and
// inv.queued the count, each admitted by an add that is undone when it
// went over. The mode is chosen at the first charge, from the limits set
// by then; a limit raised afterwards beyond what the word holds is
// capped at the word's capacity (a tebibyte, 8 million messages).
//
// Both modes refuse exactly: a packed charge never exceeds a limit even
// transiently (it compares before it swaps), so it is never refused
// because of another charge that is about to be undone; a split charge
// is refused only when the total including the concurrent charges in
// progress is over, as before. Neither total ever goes below zero: a
// release always follows the charge it undoes, so the bytes never borrow
// from the count.
const (
	packShift     = 40
	packBytesMask = 1<<packShift - 1
	packMaxCount  = 1<<(63-packShift) - 1

	acctUndecided = 0
	acctSplit     = 1
	acctPacked    = 2
)

// packedAcct reports whether the totals share one word, choosing the
// mode at the first call.
func (inv *Invocation) packedAcct() bool {
	if m := inv.acct.Load(); m != acctUndecided {
		return m == acctPacked
	}
	return inv.chooseAcct() == acctPacked
}

// chooseAcct fixes the accounting mode from the limits in force: packed
// when the budget fits the word's bytes and the most messages that can
// be queued (the count limit, or what the budget admits at MessageHeader
// bytes each when the count is unlimited) fit its count.
// It is not inlined, so that packedAcct is.
//
//go:noinline
func (inv *Invocation) chooseAcct() uint32 {
	m := uint32(acctSplit)
	if PackedLimits(inv.MemoryBudget, inv.MaxQueued) {
		m = acctPacked
	}
	inv.acct.CompareAndSwap(acctUndecided, m)
	return inv.acct.Load()
}

// PackedLimits reports whether an invocation with memory budget budget
// and queued-message limit maxQueued (the Invocation fields' encoding: 0
// for the defaults, negative for no count limit) keeps its totals in one
// word, the cheaper mode. The defaults do; so must any configuration that
// is measured as representative of them (bench/).
func PackedLimits(budget, maxQueued int64) bool {
	budget = budgetOf(budget)
	count := budget / MessageHeader
	if maxQueued >= 0 {
		count = min(count, max(maxQueued, MaxQueued))
	}
	return budget <= packBytesMask && count <= packMaxCount
}

// queuedOver reports whether q queued user messages exceed the
// invocation's limit.
func (inv *Invocation) queuedOver(q int64) bool {
	return q > MaxQueued && (inv.MaxQueued == 0 || (inv.MaxQueued > 0 && q > inv.MaxQueued))
}

// chargeMsg admits one user message of n logical bytes against both
// limits, or reports false with nothing charged.
func (inv *Invocation) chargeMsg(n int64) bool {
	if inv.acct.Load() == acctPacked {
		return inv.chargePacked(1, n)
	}
	return inv.chargeMsgOther(n)
}

// chargeMsgQuick is chargeMsg's first attempt in packed mode, inlined
// into the send (post): a message that fits under both limits, the
// common case, is admitted with one load and one compare-and-swap and no
// call. It reads the limits from the Invocation fields as chargePacked
// does; below MaxQueued messages the count never refuses (queuedOver),
// so the count is compared with that constant alone. It reports false
// when it admitted nothing (split mode, a limit reached, or a lost
// swap): chargeMsg then decides afresh.
func (inv *Invocation) chargeMsgQuick(n int64) bool {
	old := inv.use.Load()
	return inv.acct.Load() == acctPacked && old>>packShift < MaxQueued &&
		old&packBytesMask+n <= inv.packedBudget() && inv.use.CompareAndSwap(old, old+1<<packShift+n)
}

// packedBudget is the byte limit of packed mode: the budget, capped at
// what the word's bytes hold.
func (inv *Invocation) packedBudget() int64 { return min(inv.budget(), packBytesMask) }

// chargeMsgOther is chargeMsg in split mode or before the mode is
// chosen.
func (inv *Invocation) chargeMsgOther(n int64) bool {
	if inv.packedAcct() {
		return inv.chargePacked(1, n)
	}
	if q := inv.queued.Add(1); inv.queuedOver(q) {
		inv.queued.Add(-1)
		return false
	}
	if !inv.chargeSplit(n) {
		inv.queued.Add(-1)
		return false
	}
	return true
}

// chargeBytes takes n logical bytes from the budget, or reports false.
func (inv *Invocation) chargeBytes(n int64) bool {
	if inv.packedAcct() {
		return inv.chargePacked(0, n)
	}
	return inv.chargeSplit(n)
}

// chargeSplit is chargeBytes in split mode.
func (inv *Invocation) chargeSplit(n int64) bool {
	if inv.use.Add(n) > inv.budget() {
		inv.use.Add(-n)
		return false
	}
	return true
}

// chargePacked adds count messages and n bytes to the packed word
// unless the result would exceed a limit.
func (inv *Invocation) chargePacked(count, n int64) bool {
	budget := inv.packedBudget()
	if n > budget {
		return false
	}
	for {
		old := inv.use.Load()
		if old&packBytesMask+n > budget {
			return false
		}
		if count > 0 {
			if q := old>>packShift + count; q > packMaxCount || inv.queuedOver(q) {
				return false
			}
		}
		if inv.use.CompareAndSwap(old, old+count<<packShift+n) {
			return true
		}
	}
}

// releaseMsgs gives back n user messages and their bytes (charged
// before, so the mode is chosen).
func (inv *Invocation) releaseMsgs(n, bytes int64) {
	if inv.acct.Load() == acctPacked {
		inv.use.Add(-(n<<packShift + bytes))
		return
	}
	inv.queued.Add(-n)
	inv.use.Add(-bytes)
}

// releaseBytes gives back n logical bytes (no message).
func (inv *Invocation) releaseBytes(n int64) { inv.use.Add(-n) }

// usedBytes returns the logical bytes in use.
func (inv *Invocation) usedBytes() int64 {
	u := inv.use.Load()
	if inv.acct.Load() == acctPacked {
		return u & packBytesMask
	}
	return u
}

// Queued returns the number of user messages queued in the invocation.
func (inv *Invocation) Queued() int64 {
	if inv.acct.Load() == acctPacked {
		return inv.use.Load() >> packShift
	}
	return inv.queued.Load()
}

// Admits reports whether n more logical bytes fit in the budget now (a
// local Process.exit reason is admitted this way: its text is carried by
// the completions already reserved, but an exhausted budget refuses it).
func (inv *Invocation) Admits(n int64) bool {
	return inv.usedBytes()+n <= inv.budget()
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
	inv.releaseBytes(n)
}

// releaseAllLocked releases everything p holds (it is retiring); p.mu
// must be held, just before its mailbox is closed.
func (inv *Invocation) releaseAllLocked(p *Process) {
	inv.reservations.Add(int64(-p.resv))
	inv.releaseBytes(p.resvBytes + p.msgBytes)
	p.resv, p.resvBytes, p.msgBytes = 0, 0, 0
}

// Reservations returns the invocation's outstanding lifecycle
// reservations and logical bytes in use.
func (inv *Invocation) Reservations() (count, bytes int64) {
	return inv.reservations.Load(), inv.usedBytes()
}

// Reservations returns the reservations p holds.
func (p *Process) Reservations() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resv
}

// Size is the logical payload size of a message value (see
// docs/reference/actors.md#limits): 16 bytes per value slot plus the bytes of strings, counted
// through tuples, lists, variants and the captured values of closures.
// It is known in O(1): every compound value carries its size from
// construction (value.Value.Size), saturating far above any budget, so a
// value with internal sharing is refused without being walked, and no
// value is ever walked under a process lock.
func Size(v value.Value) int64 {
	return v.Size()
}
