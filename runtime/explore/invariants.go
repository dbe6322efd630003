package explore

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/trace"
)

// CheckTrace checks the ordering guarantees of the process model
// (docs/reference/actors.md#execution-model, docs/reference/actors.md#monitors, docs/reference/actors.md#links-trapping-and-exit-signals) on the trace of one schedule, written
// with messages traced (`--replay SEED --trace F --trace-messages`, or
// Plan.Run with Trace and TraceMessages). It returns the violations
// found, at most max (0: all).
//
// The checker replays the trace: each cell a process publishes for
// another (a queued send, a Down from a retirement, an Exit for a
// trapping partner or target) is appended to the channel from its
// sender to its receiver, in trace order; each "arrive" line must then
// deliver the next cell of its channel. That checks:
//
//   - per-sender FIFO: a channel's cells arrive in the order they were
//     published, none skipped, none invented (N is the next number and
//     its KIND is the kind published);
//   - Down after the dying process's earlier messages, and its linked
//     Exits before its Downs: they share the channel, and the checker
//     requires that a retiring process publishes all its linked exit
//     signals before its first Down;
//   - exit before Down: a Down, and a linked exit signal, are published
//     only after the "retire" of the process they are about;
//   - a receive takes only a message that has arrived (recv B <- A
//     needs an arrived, untaken message of channel A -> B);
//   - no process acts after it retired, nothing arrives at a retired
//     process, and no process acts before its spawn;
//   - a monitor fires at most once: Downs from A to B never outnumber
//     B's monitors of A.
//
// A Down(NoProcess) that a monitor of an already dead process queues at
// once, and cells a process sends itself, are not in flight; they are
// checked for order of publication only.
func CheckTrace(evs []trace.Event, max int) []error {
	c := newChecker()
	for _, e := range evs {
		c.event(e)
		if c.stopped || (max > 0 && len(c.errs) >= max) {
			break
		}
	}
	if max > 0 && len(c.errs) > max {
		c.errs = c.errs[:max]
	}
	return c.errs
}

type chanKey struct{ from, to uint64 }

type checker struct {
	errs     []error
	spawned  map[uint64]bool
	ports    map[uint64]bool
	retired  map[uint64]bool
	trapping map[uint64]bool
	// published cells per channel, and how many arrived / were taken.
	published map[chanKey][]trace.CellKind
	arrived   map[chanKey]int
	msgs      map[chanKey]int // messages arrived (or queued at once) and not yet taken
	monitors  map[chanKey]int // monitors of target by owner: key {target, owner}
	downs     map[chanKey]int
	// downsFrom marks a retired process that has published a Down.
	downsFrom map[uint64]bool
	// lateDown is the Down a monitor of a dead process must write next.
	lateDown *chanKey
	stopped  bool
}

func newChecker() *checker {
	return &checker{spawned: map[uint64]bool{}, ports: map[uint64]bool{}, retired: map[uint64]bool{}, trapping: map[uint64]bool{},
		published: map[chanKey][]trace.CellKind{}, arrived: map[chanKey]int{}, msgs: map[chanKey]int{},
		monitors: map[chanKey]int{}, downs: map[chanKey]int{}, downsFrom: map[uint64]bool{}}
}

func (c *checker) fail(e trace.Event, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("line %d %q: %s", e.Line, e.String(), fmt.Sprintf(format, args...)))
}

// acts checks that process n may act at e: it was spawned and has not
// retired.
func (c *checker) acts(e trace.Event, n uint64) {
	switch {
	case !c.spawned[n]:
		c.fail(e, "process %d acts before its spawn", n)
	case c.retired[n]:
		c.fail(e, "process %d acts after it retired", n)
	}
}

// publish appends a cell to the channel from -> to; a cell a process
// sends itself is queued at once.
func (c *checker) publish(from, to uint64, k trace.CellKind) {
	if from == to {
		if k == trace.CellMessage {
			c.msgs[chanKey{from, to}]++
		}
		return
	}
	key := chanKey{from, to}
	c.published[key] = append(c.published[key], k)
}

func (c *checker) event(e trace.Event) {
	if c.lateDown != nil {
		want := *c.lateDown
		c.lateDown = nil
		if e.Kind != trace.KindDown || e.Proc != want.from || e.Peer != want.to || e.Reason != "NoProcess" {
			c.fail(e, "a monitor of dead process %d must queue Down(NoProcess) for %d at once", want.from, want.to)
		} else {
			c.downs[chanKey{e.Proc, e.Peer}]++
			if c.downs[chanKey{e.Proc, e.Peer}] > c.monitors[chanKey{e.Proc, e.Peer}] {
				c.fail(e, "more Downs from %d to %d than monitors", e.Proc, e.Peer)
			}
			return
		}
	}
	switch e.Kind {
	case trace.KindRoot:
		c.spawn(e, e.Proc)
	case trace.KindPort:
		c.spawn(e, e.Proc)
		c.ports[e.Proc] = true
	case trace.KindSpawn:
		c.acts(e, e.Peer)
		c.spawn(e, e.Proc)
	case trace.KindRestart:
		c.spawn(e, e.Proc)
	case trace.KindDiscard:
		c.retired[e.Proc] = true
	case trace.KindMonitor:
		c.acts(e, e.Proc)
		if e.Inert {
			return
		}
		key := chanKey{e.Peer, e.Proc}
		c.monitors[key]++
		if c.retired[e.Peer] {
			c.lateDown = &key
		}
	case trace.KindDemonitor, trace.KindLink, trace.KindUnlink:
		c.acts(e, e.Proc)
	case trace.KindTrap:
		c.acts(e, e.Proc)
		c.trapping[e.Proc] = e.On
	case trace.KindExitSignal:
		c.exitSignal(e)
	case trace.KindDown:
		if !c.retired[e.Proc] {
			c.fail(e, "a Down about process %d before it retired", e.Proc)
		}
		c.downsFrom[e.Proc] = true
		key := chanKey{e.Proc, e.Peer}
		c.downs[key]++
		if c.downs[key] > c.monitors[key] {
			c.fail(e, "more Downs from %d to %d than monitors", e.Proc, e.Peer)
		}
		if !c.retired[e.Peer] {
			c.publish(e.Proc, e.Peer, trace.CellDown)
		}
	case trace.KindRetire:
		if c.retired[e.Proc] {
			c.fail(e, "process %d retires twice", e.Proc)
		}
		if !c.spawned[e.Proc] {
			c.fail(e, "process %d retires before its spawn", e.Proc)
		}
		c.retired[e.Proc] = true
	case trace.KindFatal, trace.KindDeadlock:
		c.stopped = true
	case trace.KindSend:
		c.acts(e, e.Proc)
		if e.Send == trace.SendQueued && !c.ports[e.Peer] {
			c.publish(e.Proc, e.Peer, trace.CellMessage)
		}
	case trace.KindArrive:
		c.arrive(e)
	case trace.KindRecv:
		c.acts(e, e.Proc)
		key := chanKey{e.Peer, e.Proc}
		if c.msgs[key] == 0 {
			c.fail(e, "process %d took a message from %d that had not arrived", e.Proc, e.Peer)
			return
		}
		c.msgs[key]--
	}
}

func (c *checker) spawn(e trace.Event, n uint64) {
	if c.spawned[n] {
		c.fail(e, "process %d is spawned twice", n)
	}
	c.spawned[n] = true
}

// exitSignal checks an exit signal and publishes the Exit cell it
// becomes when its target traps it.
func (c *checker) exitSignal(e trace.Event) {
	from, to := e.Proc, e.Peer
	if e.Direct {
		c.acts(e, from)
		if c.trapping[to] && e.Reason != "Kill" {
			c.publish(from, to, trace.CellExit)
		}
		return
	}
	if !c.retired[from] {
		c.fail(e, "a linked exit signal from %d before it retired", from)
	}
	if c.downsFrom[from] {
		c.fail(e, "a linked exit signal from %d after one of its Downs", from)
	}
	if c.trapping[to] {
		c.publish(from, to, trace.CellExit)
	}
}

// arrive checks that the cell is the next one of its channel.
func (c *checker) arrive(e trace.Event) {
	key := chanKey{e.Peer, e.Proc}
	if c.retired[e.Proc] {
		c.fail(e, "a cell arrives at process %d after it retired", e.Proc)
	}
	n := c.arrived[key] + 1
	pub := c.published[key]
	switch {
	case e.Seq != uint64(n):
		c.fail(e, "cell %d of %d -> %d arrives, but cell %d is next: the sender's order is broken", e.Seq, e.Peer, e.Proc, n)
	case n > len(pub):
		c.fail(e, "cell %d of %d -> %d arrives, but only %d were sent", n, e.Peer, e.Proc, len(pub))
	case pub[n-1] != e.Cell:
		c.fail(e, "cell %d of %d -> %d was published as a %s, not a %s", n, e.Peer, e.Proc, pub[n-1], e.Cell)
	}
	c.arrived[key] = n
	if e.Cell == trace.CellMessage {
		c.msgs[key]++
	}
}
