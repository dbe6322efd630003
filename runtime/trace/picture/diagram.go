// Package picture draws a parsed lifecycle trace (runtime/trace) as a
// sequence diagram: `morrow trace render`. Render is the entry point; it
// writes a self-contained SVG or Mermaid sequence-diagram text.
//
// The algorithm has three steps.
//
//  1. Build (this file) walks the events once. Every process number
//     becomes a lifeline (a column, in number order), named by its entry
//     function from its spawn line ("2 worker"); the root and host ports
//     start at the top, spawned processes at their spawn row, and a
//     lifeline stops at its retire (or fatal, or discard) row, where its
//     reason is written: Fault(C) in red, other abnormal reasons in
//     amber. Every other event becomes one row: an arrow (spawn, link,
//     unlink, monitor, exit signal, Down, message) or a note on one
//     lifeline (trap on/off, demonitor, an inert self-monitor). Trap state
//     is tracked per process, so an exit signal that reaches a trapping
//     process is drawn as trapped (it became an Exit message), one that
//     a non-trapping process ignores (Normal) as ignored. A recv line
//     marks the oldest unmatched send between the same two processes as
//     received (per-sender FIFO; messages carry no payload in the trace,
//     so which of two messages from the same sender was taken does not
//     change the picture); a message never received is drawn dashed.
//     Message arrows can be left out or limited to the first N.
//
//  2. Fold (fold.go) collapses repetition: a block of 1..8 rows repeated
//     at least three times in a row, identical in kind, endpoints and
//     label, is drawn once with a bracket "×N". A ping-pong of 10,000
//     rounds is two rows. Rows that start or end a lifeline are unique
//     and never fold.
//
//  3. Draw: svg.go lays rows out top to bottom at a fixed pitch and
//     lifelines left to right; mermaid.go writes the same rows as a
//     Mermaid sequenceDiagram (folded runs become loop blocks, fault rows
//     red rect blocks). Both are deterministic: the same trace and
//     options always give the same bytes.
//
// A trace written with several schedulers can mention a process before
// its spawn line or after its retire line; such a process simply gets
// its lifeline where it is first seen, and events after an end are
// still drawn. Rendering never fails on a trace that parsed.
package picture

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/runtime/trace"
)

// Format is the output format.
type Format uint8

const (
	SVG     Format = iota // a self-contained SVG image
	Mermaid               // Mermaid sequenceDiagram text
)

// Options control a picture. The zero value draws an SVG with every
// message.
type Options struct {
	Format Format
	// HideMessages leaves message arrows out (they are still counted).
	HideMessages bool
	// MaxMessages draws only the first N message arrows (0: all).
	MaxMessages int
	// Title is written above the summary (SVG) or in it (Mermaid).
	Title string
}

// Render draws the events in the chosen format.
func Render(w io.Writer, events []trace.Event, opt Options) error {
	d := build(events, opt)
	d.fold()
	switch opt.Format {
	case SVG:
		return d.svg(w)
	case Mermaid:
		return d.mermaid(w)
	}
	return fmt.Errorf("picture: unknown format %d", opt.Format)
}

// rowKind is how a row is drawn.
type rowKind uint8

const (
	rowArrow  rowKind = iota // from -> to
	rowSpawn                 // from -> the head of to, which starts here
	rowNote                  // a note on from
	rowEnd                   // from ends here; label is its reason
	rowGlobal                // a note across every lifeline
)

// Row classes (CSS classes in the SVG).
const (
	clsSpawn      = "spawn"
	clsLink       = "link"
	clsUnlink     = "unlink"
	clsMonitor    = "monitor"
	clsExit       = "exit"
	clsDown       = "down"
	clsMsg        = "msg"
	clsNote       = "note"
	clsTrap       = "trap"
	clsTrapped    = "trapped"
	clsIgnored    = "ignored"
	clsFault      = "fault"
	clsAbnormal   = "abnormal"
	clsNormal     = "normal"
	clsLost       = "lost"
	clsUnreceived = "unreceived"
)

// row is one drawn event.
type row struct {
	kind     rowKind
	from, to int      // lifeline indices (to unused for notes and ends)
	label    string   // text on the arrow or note
	classes  []string // the first is the kind class
	lines    []int    // trace line numbers (tooltip)
	text     []string // the trace lines (tooltip)
	received bool     // messages: a recv matched it
}

// sig is the row's identity for folding.
func (r *row) sig() string {
	return fmt.Sprintf("%d|%d|%d|%s|%v", r.kind, r.from, r.to, r.label, r.classes)
}

func (r *row) has(c string) bool {
	for _, x := range r.classes {
		if x == c {
			return true
		}
	}
	return false
}

// lifeline is one process's column.
type lifeline struct {
	num      uint64
	name     string // entry function, "root", "port" ("" unknown)
	top      bool   // starts at the top (root, port, or first seen there)
	start    int    // row of its spawn (when !top)
	end      int    // row of its end, -1 while alive at the end of the trace
	endClass string
	trap     []span // rows while trapping exits
	trapOn   int    // row where the current trapping span began, -1 if off
	isRoot   bool
	isPort   bool
}

// span is a range of rows [from, to]; to == -1 runs to the bottom.
type span struct{ from, to int }

// label is the lifeline's head text.
func (l *lifeline) label() string {
	if l.name == "" {
		return fmt.Sprint(l.num)
	}
	return fmt.Sprintf("%d %s", l.num, l.name)
}

// stats are the summary counts.
type stats struct {
	processes, roots, ports int
	messages, drawn         int
	lost, unreceived        int
	faults, abnormal        int
	trapped, exits, downs   int
	deadlock                bool
	folded, foldedRows      int
}

// diagram is a built picture before layout.
type diagram struct {
	opt   Options
	lines []*lifeline
	rows  []row
	// items are the rows after folding: each is a block of rows drawn
	// once, repeated count times.
	items []item
	st    stats
}

// item is a block of consecutive rows drawn once for count repetitions.
type item struct {
	rows  []row
	count int
}

// build makes the rows and lifelines of events.
func build(events []trace.Event, opt Options) *diagram {
	b := newBuilder(events, opt)
	for _, e := range events {
		b.event(e)
	}
	b.markUnreceived()
	b.finishLines()
	return b.d
}

// pair is a (sender, receiver) pair of columns.
type pair struct{ from, to int }

// builder turns events into the rows of a diagram, one event at a time.
type builder struct {
	d    *diagram
	col  map[uint64]int // process number -> column
	seen []bool         // the column's lifeline has begun
	// pending holds the messages waiting for their recv, per (sender,
	// receiver): the row index, or -1 for a message not drawn.
	pending map[pair][]int
}

// newBuilder makes the columns: every process number, in number order.
func newBuilder(events []trace.Event, opt Options) *builder {
	d := &diagram{opt: opt}
	nums := map[uint64]bool{}
	for _, e := range events {
		if e.Kind == trace.KindDeadlock {
			continue
		}
		nums[e.Proc] = true
		if e.Peer != 0 {
			nums[e.Peer] = true
		}
	}
	order := make([]uint64, 0, len(nums))
	for n := range nums {
		order = append(order, n)
	}
	sort.Slice(order, func(i, j int) bool { return order[i] < order[j] })
	col := make(map[uint64]int, len(order))
	for i, n := range order {
		col[n] = i
		d.lines = append(d.lines, &lifeline{num: n, start: -1, end: -1, trapOn: -1})
	}
	return &builder{d: d, col: col, seen: make([]bool, len(order)), pending: map[pair][]int{}}
}

// touch makes sure the lifeline of column i exists before the current row.
func (b *builder) touch(i int) {
	if !b.seen[i] {
		b.seen[i] = true
		l := b.d.lines[i]
		if len(b.d.rows) == 0 {
			l.top = true
		} else {
			l.start = len(b.d.rows)
		}
	}
}

// add appends the row of event e.
func (b *builder) add(r row, e trace.Event) {
	r.lines = []int{e.Line}
	r.text = []string{e.String()}
	b.d.rows = append(b.d.rows, r)
}

// endClass is the class of a process ending with reason r.
func endClass(r trace.Reason) string {
	switch {
	case r.IsNormal():
		return clsNormal
	case r.IsFault():
		return clsFault
	}
	return clsAbnormal
}

// event adds what one event draws.
func (b *builder) event(e trace.Event) {
	if e.Kind == trace.KindDeadlock {
		b.d.st.deadlock = true
		b.add(row{kind: rowGlobal, label: "deadlock: no process can run and no timer is pending", classes: []string{clsNote, clsFault}}, e)
		return
	}
	p, q := b.col[e.Proc], b.col[e.Peer]
	switch e.Kind {
	case trace.KindRoot, trace.KindPort:
		b.head(e, p)
	case trace.KindSpawn, trace.KindRestart:
		b.spawn(e, p, q)
	case trace.KindDiscard, trace.KindRetire, trace.KindFatal:
		b.end(e, p)
	case trace.KindMonitor, trace.KindDemonitor, trace.KindLink, trace.KindUnlink:
		b.relation(e, p, q)
	case trace.KindTrap:
		b.trap(e, p)
	case trace.KindExitSignal:
		b.exitSignal(e, p, q)
	case trace.KindDown:
		b.touch(p)
		b.touch(q)
		b.d.st.downs++
		b.add(row{kind: rowArrow, from: p, to: q, label: "Down " + string(e.Reason), classes: []string{clsDown, endClass(e.Reason)}}, e)
	case trace.KindSend:
		b.send(e, p, q)
	case trace.KindRecv:
		b.recv(e, p, q)
	case trace.KindArrive:
		// A cell left flight (schedules of --replay): the message is
		// drawn where it was sent, a Down or Exit where it was
		// published.
	}
}

// head names the lifeline of the root or of a host port.
func (b *builder) head(e trace.Event, p int) {
	lp := b.d.lines[p]
	if e.Kind == trace.KindRoot {
		lp.name, lp.isRoot = "root", true
	} else {
		lp.name, lp.isPort = "port", true
	}
	b.touch(p)
}

// spawn draws a spawn or restart of p by q.
func (b *builder) spawn(e trace.Event, p, q int) {
	b.touch(q)
	lp := b.d.lines[p]
	label := "spawn"
	if e.Kind == trace.KindSpawn {
		if e.Name != "" {
			lp.name = e.Name
		}
	} else {
		label = "restart"
		if lp.name == "" {
			lp.name = b.d.lines[q].name
		}
	}
	if !b.seen[p] {
		b.seen[p] = true
		lp.start = len(b.d.rows)
	}
	b.add(row{kind: rowSpawn, from: q, to: p, label: label, classes: []string{clsSpawn}}, e)
}

// end draws the end of p's lifeline: discarded, retired or fatal.
func (b *builder) end(e trace.Event, p int) {
	b.touch(p)
	lp := b.d.lines[p]
	var c, label string
	switch e.Kind {
	case trace.KindDiscard:
		c, label = clsAbnormal, "discarded (ResourceLimit)"
	case trace.KindFatal:
		c, label = clsFault, "fatal "+string(e.Reason)+": the program stops"
	default:
		c, label = endClass(e.Reason), string(e.Reason)
	}
	lp.end, lp.endClass = len(b.d.rows), c
	b.add(row{kind: rowEnd, from: p, label: label, classes: []string{c}}, e)
}

// relation draws a monitor, demonitor, link or unlink.
func (b *builder) relation(e trace.Event, p, q int) {
	b.touch(p)
	switch e.Kind {
	case trace.KindDemonitor:
		b.add(row{kind: rowNote, from: p, label: fmt.Sprintf("demonitor #%d", e.Ref), classes: []string{clsNote}}, e)
		return
	case trace.KindMonitor:
		b.touch(q)
		if e.Inert {
			b.add(row{kind: rowNote, from: p, label: fmt.Sprintf("monitor self #%d (inert)", e.Ref), classes: []string{clsNote}}, e)
		} else {
			b.add(row{kind: rowArrow, from: p, to: q, label: fmt.Sprintf("monitor #%d", e.Ref), classes: []string{clsMonitor}}, e)
		}
		return
	}
	b.touch(q)
	c := clsLink
	if e.Kind == trace.KindUnlink {
		c = clsUnlink
	}
	b.add(row{kind: rowArrow, from: p, to: q, label: c, classes: []string{c}}, e)
}

// trap draws trapping turned on or off, and keeps the trapping spans.
func (b *builder) trap(e trace.Event, p int) {
	b.touch(p)
	lp := b.d.lines[p]
	label := "trap exits off"
	if e.On {
		label = "trap exits on"
		if lp.trapOn < 0 {
			lp.trapOn = len(b.d.rows)
		}
	} else if lp.trapOn >= 0 {
		lp.trap = append(lp.trap, span{lp.trapOn, len(b.d.rows)})
		lp.trapOn = -1
	}
	b.add(row{kind: rowNote, from: p, label: label, classes: []string{clsTrap}}, e)
}

// exitSignal draws an exit signal from p to q: trapped, ignored, or with
// the class of its reason.
func (b *builder) exitSignal(e trace.Event, p, q int) {
	b.touch(p)
	b.touch(q)
	b.d.st.exits++
	label := "exit " + string(e.Reason)
	if e.Direct {
		label = "signal_exit " + string(e.Reason)
	}
	classes := []string{clsExit}
	trappable := !(e.Direct && e.Reason == "Kill")
	switch {
	case b.d.lines[q].trapOn >= 0 && trappable:
		label += " (trapped)"
		classes = append(classes, clsTrapped)
		b.d.st.trapped++
	case e.Reason.IsNormal():
		label += " (ignored)"
		classes = append(classes, clsIgnored)
	default:
		classes = append(classes, endClass(e.Reason))
	}
	b.add(row{kind: rowArrow, from: p, to: q, label: label, classes: classes}, e)
}

// send draws a message from p to q (unless the options leave it out) and
// keeps it waiting for its recv.
func (b *builder) send(e trace.Event, p, q int) {
	b.touch(p)
	b.touch(q)
	st := &b.d.st
	st.messages++
	draw := !b.d.opt.HideMessages && (b.d.opt.MaxMessages <= 0 || st.drawn < b.d.opt.MaxMessages)
	idx := -1
	r := row{kind: rowArrow, from: p, to: q, classes: []string{clsMsg}}
	switch e.Send {
	case trace.SendDead:
		st.lost++
		r.label = "message to a dead process"
		r.classes = append(r.classes, clsLost)
	case trace.SendFull:
		st.lost++
		r.label = "message refused (full)"
		r.classes = append(r.classes, clsLost)
	default:
		r.received = b.d.lines[q].isPort
	}
	if draw {
		st.drawn++
		idx = len(b.d.rows)
		b.add(r, e)
	}
	if e.Send == trace.SendQueued && !r.received {
		k := pair{p, q}
		b.pending[k] = append(b.pending[k], idx)
	}
}

// recv marks the oldest message from q to p received.
func (b *builder) recv(e trace.Event, p, q int) {
	b.touch(p)
	b.touch(q)
	k := pair{q, p}
	w := b.pending[k]
	if len(w) == 0 {
		return
	}
	if w[0] >= 0 {
		r := &b.d.rows[w[0]]
		r.received = true
		r.lines = append(r.lines, e.Line)
	}
	b.pending[k] = w[1:]
}

// markUnreceived labels the messages never received, in a stable order.
func (b *builder) markUnreceived() {
	keys := make([]pair, 0, len(b.pending))
	for k := range b.pending {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].from != keys[j].from {
			return keys[i].from < keys[j].from
		}
		return keys[i].to < keys[j].to
	})
	for _, k := range keys {
		for _, i := range b.pending[k] {
			b.d.st.unreceived++
			if i >= 0 {
				b.d.rows[i].label = "never received"
				b.d.rows[i].classes = append(b.d.rows[i].classes, clsUnreceived)
			}
		}
	}
}

// finishLines closes open trapping spans and counts the lifelines.
func (b *builder) finishLines() {
	st := &b.d.st
	for _, l := range b.d.lines {
		if l.trapOn >= 0 {
			l.trap = append(l.trap, span{l.trapOn, -1})
		}
		switch {
		case l.isRoot:
			st.roots++
		case l.isPort:
			st.ports++
		default:
			st.processes++
		}
		switch l.endClass {
		case clsFault:
			st.faults++
		case clsAbnormal:
			st.abnormal++
		}
	}
}

// summary is the one-line account at the top of the picture.
func (d *diagram) summary() string {
	s := d.st
	out := s.processCount()
	out += ", " + plural(s.messages, "message", "messages")
	if notes := d.messageNotes(); len(notes) > 0 {
		out += " (" + strings.Join(notes, ", ") + ")"
	}
	out += ", " + plural(s.faults, "fault", "faults")
	if s.abnormal > 0 {
		out += ", " + plural(s.abnormal, "other abnormal exit", "other abnormal exits")
	}
	out += ", " + plural(s.trapped, "trapped exit", "trapped exits")
	if s.deadlock {
		out += ", deadlock"
	}
	if s.folded > 0 {
		out += fmt.Sprintf("; %s folded (%d rows)", plural(s.folded, "repeated run", "repeated runs"), s.foldedRows)
	}
	return out
}

// processCount is the summary's count of processes, the root and ports.
func (s *stats) processCount() string {
	out := plural(s.processes, "process", "processes")
	var extra []string
	if s.roots > 0 {
		extra = append(extra, "the root")
	}
	if s.ports > 0 {
		extra = append(extra, plural(s.ports, "port", "ports"))
	}
	if len(extra) == 1 {
		out += " and " + extra[0]
	} else if len(extra) == 2 {
		out += ", " + extra[0] + " and " + extra[1]
	}
	return out
}

// messageNotes are the summary's remarks on messages: how many are
// drawn, refused and never received.
func (d *diagram) messageNotes() []string {
	s := d.st
	var notes []string
	switch {
	case s.messages > 0 && d.opt.HideMessages:
		notes = append(notes, "not drawn")
	case s.drawn < s.messages:
		notes = append(notes, fmt.Sprintf("first %d drawn", s.drawn))
	}
	if s.lost > 0 {
		notes = append(notes, fmt.Sprintf("%d refused", s.lost))
	}
	if s.unreceived > 0 {
		notes = append(notes, fmt.Sprintf("%d never received", s.unreceived))
	}
	return notes
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
