package proc

import "fmt"

// Cells in flight (Invocation.Defer).
//
// The concurrent runtime queues a cell in the receiver's mailbox the
// moment it is sent, so cells from different senders arrive in the order
// the senders happened to run. The model promises less (see
// docs/reference/actors.md#execution-model): cells from one sender to one receiver arrive in the order they
// were sent, and there is no order between different senders. A
// deterministic run that explores schedules (runtime/sched with a
// Policy that defers, runtime/explore) therefore keeps every cell one
// process sends another (a message, a Down, a trapped Exit) in flight,
// on the channel from its sender to its receiver, until the scheduler
// delivers it with Arrive, always the oldest cell of one channel. The
// order between channels is the scheduler's choice; the order within
// one is the sender's.
//
// A cell in flight is accounted as if it were queued (the mailbox and
// invocation limits, the logical bytes, the reservation it carries), so
// send returns exactly what it would return at once, and a receiver that
// retires drops its cells in flight with its mailbox. Cells a process
// produces for itself (a send to itself, a trapped signal to itself) are
// queued at once, and so are the ones its own call produces at once: the
// Down(NoProcess) of a monitor of a dead process and the Exit(NoProcess)
// of a link to one. Those first take every cell still in flight from the
// dead process, so that its earlier messages stay ahead of the
// notification about its end, as in the concurrent runtime. Demonitor
// takes the cells in flight on the channel up to the monitor's Down, so
// that "its Down is already queued" still means queued.

// flight is a receiver's cells in flight, by sender generation.
type flight struct {
	cells map[uint64][]Cell
	// seq numbers the cells of each channel (1, 2, ...) for the "arrive"
	// trace lines, which say which cell of the channel arrived.
	seq map[uint64]uint32
}

// deferLocked puts c, sent by from, in flight to p; p.mu must be held.
// A message is counted as queued now.
func (inv *Invocation) deferLocked(from, p *Process, c Cell) {
	if c.Kind == CellMessage {
		p.user++
	}
	c.From = from.gen
	f := p.inflight
	if f == nil {
		f = &flight{cells: map[uint64][]Cell{}, seq: map[uint64]uint32{}}
		p.inflight = f
	}
	f.seq[from.gen]++
	c.Seq = f.seq[from.gen]
	f.cells[from.gen] = append(f.cells[from.gen], c)
	if inv.OnDefer != nil {
		inv.OnDefer(from.gen, p)
	}
}

// deliverFromLocked queues c, sent by from, for p: in flight when cells
// are deferred and from is another process, at once otherwise. p.mu must
// be held; it reports whether p must be woken.
func (inv *Invocation) deliverFromLocked(from, p *Process, c Cell) bool {
	if inv.Defer && from != nil && from != p {
		inv.deferLocked(from, p, c)
		return false
	}
	return p.deliverLocked(c)
}

// Arrive delivers the oldest cell in flight from the process with
// generation from to p, waking p if it was parked. It reports whether
// cells from that sender are still in flight; nothing is delivered when
// none is (p retired, or the cells were taken early).
func (inv *Invocation) Arrive(p *Process, from uint64) (more bool) {
	p.mu.Lock()
	f := p.inflight
	if f == nil || len(f.cells[from]) == 0 {
		p.mu.Unlock()
		return false
	}
	q := f.cells[from]
	c := q[0]
	q[0] = Cell{}
	q = q[1:]
	if len(q) == 0 {
		delete(f.cells, from)
	} else {
		f.cells[from] = q
	}
	inv.traceArriveLocked(p, c)
	wake := p.appendLocked(c)
	p.mu.Unlock()
	if wake {
		inv.Wake(p)
	}
	return len(q) > 0
}

// arriveAllLocked delivers every cell in flight from the process with
// generation from to p, in order; p.mu must be held and p is not parked
// (it is the running process).
func (inv *Invocation) arriveAllLocked(p *Process, from uint64) {
	f := p.inflight
	if f == nil {
		return
	}
	for _, c := range f.cells[from] {
		inv.traceArriveLocked(p, c)
		p.appendLocked(c)
	}
	delete(f.cells, from)
}

// arriveThroughLocked delivers the cells in flight from m's target to its
// owner p up to and including m's Down, if that Down is in flight; p.mu
// must be held and p is the running process.
func (inv *Invocation) arriveThroughLocked(p *Process, m *Monitor) {
	f := p.inflight
	if f == nil || m.target == nil {
		return
	}
	from := m.target.gen
	q := f.cells[from]
	n := -1
	for i := range q {
		if q[i].Kind == CellDown && q[i].Ref == m {
			n = i + 1
			break
		}
	}
	if n < 0 {
		return
	}
	for _, c := range q[:n] {
		inv.traceArriveLocked(p, c)
		p.appendLocked(c)
	}
	clear(q[:n])
	if n == len(q) {
		delete(f.cells, from)
	} else {
		f.cells[from] = q[n:]
	}
}

// InFlight returns the number of cells in flight to p.
func (p *Process) InFlight() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	if p.inflight != nil {
		for _, q := range p.inflight.cells {
			n += len(q)
		}
	}
	return n
}

// cellKindNames are the KIND words of the "arrive" trace line.
var cellKindNames = [...]string{CellMessage: "message", CellDown: "down", CellExit: "exit"}

// traceArriveLocked writes "arrive B <- A KIND N" for a cell that left
// flight: N is its number on the channel from A to B.
func (inv *Invocation) traceArriveLocked(p *Process, c Cell) {
	if !inv.TraceMessages || inv.Trace == nil {
		return
	}
	kind := fmt.Sprint(c.Kind)
	if int(c.Kind) < len(cellKindNames) {
		kind = cellKindNames[c.Kind]
	}
	inv.trace("arrive %d <- %d %s %d", p.gen, c.From, kind, c.Seq)
}
