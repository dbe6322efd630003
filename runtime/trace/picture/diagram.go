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
	d := &diagram{opt: opt}
	// Columns: every process number, in number order.
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
	seen := make([]bool, len(order))
	// touch makes sure a lifeline exists before the current row.
	touch := func(i int) {
		if !seen[i] {
			seen[i] = true
			l := d.lines[i]
			if len(d.rows) == 0 {
				l.top = true
			} else {
				l.start = len(d.rows)
			}
		}
	}
	// Messages waiting for their recv, per (sender, receiver).
	type pair struct{ from, to int }
	pending := map[pair][]int{} // row index, or -1 for a message not drawn
	add := func(r row, e trace.Event) {
		r.lines = []int{e.Line}
		r.text = []string{e.String()}
		d.rows = append(d.rows, r)
	}
	endClass := func(r trace.Reason) string {
		switch {
		case r.IsNormal():
			return clsNormal
		case r.IsFault():
			return clsFault
		}
		return clsAbnormal
	}
	for _, e := range events {
		if e.Kind == trace.KindDeadlock {
			d.st.deadlock = true
			add(row{kind: rowGlobal, label: "deadlock: no process can run and no timer is pending", classes: []string{clsNote, clsFault}}, e)
			continue
		}
		p := col[e.Proc]
		q := col[e.Peer]
		lp := d.lines[p]
		switch e.Kind {
		case trace.KindRoot:
			lp.name, lp.isRoot = "root", true
			touch(p)
		case trace.KindPort:
			lp.name, lp.isPort = "port", true
			touch(p)
		case trace.KindSpawn, trace.KindRestart:
			touch(q)
			label := "spawn"
			if e.Kind == trace.KindSpawn {
				if e.Name != "" {
					lp.name = e.Name
				}
			} else {
				label = "restart"
				if lp.name == "" {
					lp.name = d.lines[q].name
				}
			}
			if !seen[p] {
				seen[p] = true
				lp.start = len(d.rows)
			}
			add(row{kind: rowSpawn, from: q, to: p, label: label, classes: []string{clsSpawn}}, e)
		case trace.KindDiscard:
			touch(p)
			lp.end, lp.endClass = len(d.rows), clsAbnormal
			add(row{kind: rowEnd, from: p, label: "discarded (ResourceLimit)", classes: []string{clsAbnormal}}, e)
		case trace.KindMonitor:
			touch(p)
			touch(q)
			if e.Inert {
				add(row{kind: rowNote, from: p, label: fmt.Sprintf("monitor self #%d (inert)", e.Ref), classes: []string{clsNote}}, e)
			} else {
				add(row{kind: rowArrow, from: p, to: q, label: fmt.Sprintf("monitor #%d", e.Ref), classes: []string{clsMonitor}}, e)
			}
		case trace.KindDemonitor:
			touch(p)
			add(row{kind: rowNote, from: p, label: fmt.Sprintf("demonitor #%d", e.Ref), classes: []string{clsNote}}, e)
		case trace.KindLink, trace.KindUnlink:
			touch(p)
			touch(q)
			c := clsLink
			if e.Kind == trace.KindUnlink {
				c = clsUnlink
			}
			add(row{kind: rowArrow, from: p, to: q, label: c, classes: []string{c}}, e)
		case trace.KindTrap:
			touch(p)
			if e.On {
				if lp.trapOn < 0 {
					lp.trapOn = len(d.rows)
				}
				add(row{kind: rowNote, from: p, label: "trap exits on", classes: []string{clsTrap}}, e)
			} else {
				if lp.trapOn >= 0 {
					lp.trap = append(lp.trap, span{lp.trapOn, len(d.rows)})
					lp.trapOn = -1
				}
				add(row{kind: rowNote, from: p, label: "trap exits off", classes: []string{clsTrap}}, e)
			}
		case trace.KindExitSignal:
			touch(p)
			touch(q)
			d.st.exits++
			label := "exit " + string(e.Reason)
			if e.Direct {
				label = "signal_exit " + string(e.Reason)
			}
			classes := []string{clsExit}
			lq := d.lines[q]
			trappable := !(e.Direct && e.Reason == "Kill")
			switch {
			case lq.trapOn >= 0 && trappable:
				label += " (trapped)"
				classes = append(classes, clsTrapped)
				d.st.trapped++
			case e.Reason.IsNormal():
				label += " (ignored)"
				classes = append(classes, clsIgnored)
			default:
				classes = append(classes, endClass(e.Reason))
			}
			add(row{kind: rowArrow, from: p, to: q, label: label, classes: classes}, e)
		case trace.KindDown:
			touch(p)
			touch(q)
			d.st.downs++
			add(row{kind: rowArrow, from: p, to: q, label: "Down " + string(e.Reason), classes: []string{clsDown, endClass(e.Reason)}}, e)
		case trace.KindRetire, trace.KindFatal:
			touch(p)
			c := endClass(e.Reason)
			label := string(e.Reason)
			if e.Kind == trace.KindFatal {
				c, label = clsFault, "fatal "+label+": the program stops"
			}
			lp.end, lp.endClass = len(d.rows), c
			add(row{kind: rowEnd, from: p, label: label, classes: []string{c}}, e)
		case trace.KindSend:
			touch(p)
			touch(q)
			d.st.messages++
			draw := !d.opt.HideMessages && (d.opt.MaxMessages <= 0 || d.st.drawn < d.opt.MaxMessages)
			idx := -1
			r := row{kind: rowArrow, from: p, to: q, classes: []string{clsMsg}}
			switch e.Send {
			case trace.SendDead:
				d.st.lost++
				r.label = "message to a dead process"
				r.classes = append(r.classes, clsLost)
			case trace.SendFull:
				d.st.lost++
				r.label = "message refused (full)"
				r.classes = append(r.classes, clsLost)
			default:
				if d.lines[q].isPort {
					r.received = true
				}
			}
			if draw {
				d.st.drawn++
				idx = len(d.rows)
				add(r, e)
			}
			if e.Send == trace.SendQueued && !r.received {
				k := pair{p, q}
				pending[k] = append(pending[k], idx)
			}
		case trace.KindArrive:
			// A cell left flight (schedules of --replay): the message
			// is drawn where it was sent, a Down or Exit where it was
			// published.
		case trace.KindRecv:
			touch(p)
			touch(q)
			k := pair{q, p}
			if w := pending[k]; len(w) > 0 {
				if w[0] >= 0 {
					d.rows[w[0]].received = true
					d.rows[w[0]].lines = append(d.rows[w[0]].lines, e.Line)
				}
				pending[k] = w[1:]
			}
		}
	}
	// Messages never received.
	keys := make([]pair, 0, len(pending))
	for k := range pending {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].from != keys[j].from {
			return keys[i].from < keys[j].from
		}
		return keys[i].to < keys[j].to
	})
	for _, k := range keys {
		for _, i := range pending[k] {
			d.st.unreceived++
			if i >= 0 {
				d.rows[i].label = "never received"
				d.rows[i].classes = append(d.rows[i].classes, clsUnreceived)
			}
		}
	}
	for _, l := range d.lines {
		if l.trapOn >= 0 {
			l.trap = append(l.trap, span{l.trapOn, -1})
		}
		switch {
		case l.isRoot:
			d.st.roots++
		case l.isPort:
			d.st.ports++
		default:
			d.st.processes++
		}
		switch l.endClass {
		case clsFault:
			d.st.faults++
		case clsAbnormal:
			d.st.abnormal++
		}
	}
	return d
}

// summary is the one-line account at the top of the picture.
func (d *diagram) summary() string {
	s := d.st
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
	out += ", " + plural(s.messages, "message", "messages")
	if len(notes) > 0 {
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

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
