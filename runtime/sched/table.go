package sched

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/runtime/proc"
)

// The process table (docs/reference/actors.md#when-main-returns-deadlock,
// docs/process.md#deadlocks-and-the-process-table): one line per live process saying where it is and what it
// waits for. `morrow run` writes it after the deadlock line when nothing
// can wake the waiting processes, and on SIGQUIT; embedders get it from
// engine.Probe, the REPL shows it as :actors.
//
// A line reads
//
//	<pid 3> "server" in serve (prog.mr:12): waiting in receive, 1 queued message (hint: ...)
//
// the registered name only when there is one, the function and position
// where the process waits (the innermost function of the program's own
// code), what it waits for, its mailbox length, and for the common
// causes of a deadlock a hint.
//
// The table is built from each process's own state under its own lock
// (proc.Process.WaitInfo), never two locks at once, so it can be taken at
// any moment without stopping the schedulers: a running process shows as
// running. When every scheduler is idle and nothing can wake anybody (the
// deadlock report) nothing changes while it is built, so it is exact.

// ProcessInfo is one line of the process table.
type ProcessInfo struct {
	Pid  uint64 // the process's number (<pid N>)
	Name string // its registered name ("" if none)
	// Func, File and Line: where it waits (Func "" when unknown: a
	// running process, a supervisor).
	Func, File string
	Line       int
	// Wait says what it does: "running", "runnable", "waiting in
	// receive", "waiting in Process.call to <pid 2>", ...
	Wait string
	// Waiting: it waits (it is neither running nor runnable).
	Waiting bool
	// Supervisor: it is a supervisor process (runtime Go code, no
	// function of the program).
	Supervisor bool
	Queued     int // cells in its mailbox
	// NoMailbox: the root context, which has no mailbox.
	NoMailbox bool
	Hint      string // the likely cause, for the common deadlocks ("" if none)
}

// String renders the line (without indentation or newline).
func (pi ProcessInfo) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<pid %d>", pi.Pid)
	if pi.Name != "" {
		fmt.Fprintf(&b, " %q", pi.Name)
	}
	switch {
	case pi.Supervisor:
		b.WriteString(" supervisor")
	case pi.Func != "" && pi.Line > 0:
		fmt.Fprintf(&b, " in %s (%s:%d)", pi.Func, pi.File, pi.Line)
	case pi.Func != "":
		fmt.Fprintf(&b, " in %s", pi.Func)
	}
	fmt.Fprintf(&b, ": %s", pi.Wait)
	if !pi.NoMailbox {
		fmt.Fprintf(&b, ", %s", queuedText(pi.Queued))
	}
	if pi.Hint != "" {
		fmt.Fprintf(&b, " (hint: %s)", pi.Hint)
	}
	return b.String()
}

func queuedText(n int) string {
	switch n {
	case 0:
		return "mailbox empty"
	case 1:
		return "1 queued message"
	}
	return fmt.Sprintf("%d queued messages", n)
}

// procWord names a process in a wait or a hint: <pid N>, with its
// registered name.
func procWord(p *proc.Process, names map[*proc.Process]string) string {
	if p == nil {
		return "?"
	}
	if n, ok := names[p]; ok {
		return fmt.Sprintf("<pid %d> %q", p.Gen(), n)
	}
	return fmt.Sprintf("<pid %d>", p.Gen())
}

// tableEntry is a ProcessInfo with what the hints need.
type tableEntry struct {
	p    *proc.Process
	w    proc.WaitInfo
	info ProcessInfo
	// sup: a supervisor; initOf: the children whose start-up it waits
	// for (in order of their pids).
	sup    *supDriver
	initOf []*proc.Process
	// awaitedBy: the supervisor waiting for this child's start-up.
	awaitedBy *proc.Process
}

// Table returns the process table: every live process (the root while
// main runs, not host ports), in the order of their pids.
func (rt *Runtime) Table() []ProcessInfo { return rt.table(false) }

// deadlockTable is Table for the deadlock report: nothing will change any
// more, so the hints may also say what can never happen.
func (rt *Runtime) deadlockTable() []ProcessInfo { return rt.table(true) }

func (rt *Runtime) table(deadlocked bool) []ProcessInfo {
	var entries []*tableEntry
	for _, p := range rt.Inv.Processes() {
		if p.Kind == proc.KindPort {
			continue
		}
		w := p.WaitInfo()
		if w.Status == proc.Done || w.Status == proc.Exiting {
			continue
		}
		e := &tableEntry{p: p, w: w}
		e.sup, _ = p.Driver.(*supDriver)
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *tableEntry) int { return cmp.Compare(a.p.Gen(), b.p.Gen()) })
	names := map[*proc.Process]string{}
	byProc := map[*proc.Process]*tableEntry{}
	for _, e := range entries {
		if n, ok := rt.Inv.NameOf(e.p); ok {
			names[e.p] = n
		}
		byProc[e.p] = e
	}
	// The children still in their start-up, by supervisor.
	for _, e := range entries {
		if sup, open := e.p.StartupOpen(); open {
			e.awaitedBy = sup
			if s := byProc[sup]; s != nil {
				s.initOf = append(s.initOf, e.p)
			}
		}
	}
	for _, e := range entries {
		e.info = rt.describe(e, names)
	}
	for _, e := range entries {
		e.info.Hint = hint(e, byProc, names)
		if e.info.Hint == "" && deadlocked && e.sup != nil && len(e.initOf) == 0 {
			e.info.Hint = "a supervisor runs until Supervisor.stop or its parent's exit, and nothing is left to stop it"
		}
	}
	out := make([]ProcessInfo, len(entries))
	for i, e := range entries {
		out[i] = e.info
	}
	return out
}

// describe fills in everything but the hint.
func (rt *Runtime) describe(e *tableEntry, names map[*proc.Process]string) ProcessInfo {
	w := e.w
	pi := ProcessInfo{Pid: e.p.Gen(), Name: names[e.p], Queued: w.Queued, Waiting: w.Status == proc.Parked,
		NoMailbox: e.p.Kind == proc.KindRoot}
	if w.HasSite {
		pi.Func, pi.File, pi.Line = w.Site.Func, w.Site.File, w.Site.Line
	}
	switch {
	case w.Status == proc.Running:
		pi.Wait = "running"
	case w.Status == proc.Runnable:
		pi.Wait = "runnable"
	case e.sup != nil:
		pi.Supervisor = true
		if len(e.initOf) > 0 {
			ws := make([]string, len(e.initOf))
			for i, c := range e.initOf {
				ws[i] = procWord(c, names)
			}
			pi.Wait = "waiting for " + strings.Join(ws, ", ") + " to call Process.init_ack()"
		} else {
			pi.Wait = "waiting for requests and its children's exits"
		}
	case w.CallTo != nil:
		pi.Wait = "waiting in Process.call to " + procWord(w.CallTo, names)
	case w.SendWaitTo != nil:
		pi.Wait = "waiting in send_wait for room in the mailbox of " + procWord(w.SendWaitTo, names)
	case w.Native:
		what := w.NativeWhat
		if what == "" {
			what = "a native operation"
		}
		pi.Wait = "waiting in " + what
		if w.NativeOn != nil {
			pi.Wait += " on " + procWord(w.NativeOn, names)
		}
	case w.Receive && w.Site.Sleep && !w.Event:
		pi.Wait = "sleeping in Process.sleep"
	case w.Receive && w.Event:
		pi.Wait = "waiting in receive_event"
	case w.Receive:
		pi.Wait = "waiting in receive"
	default:
		pi.Wait = "waiting"
	}
	if w.Timeout && w.Status == proc.Parked && !(w.Site.Sleep && w.Receive) {
		pi.Wait += " (a timeout is pending)"
	}
	return pi
}

// hint names the likely cause of e's wait, for the common deadlocks: a
// caller whose callee is waiting too, a start-up that never sent its
// init_ack, a receive that leaves every queued message unmatched.
func hint(e *tableEntry, byProc map[*proc.Process]*tableEntry, names map[*proc.Process]string) string {
	w := e.w
	if w.Status != proc.Parked {
		return ""
	}
	where := func(t *tableEntry) string {
		if t.info.Func != "" && t.info.Line > 0 && t.sup == nil {
			return fmt.Sprintf(" in %s (%s:%d)", t.info.Func, t.info.File, t.info.Line)
		}
		return ""
	}
	switch {
	case len(e.initOf) > 0:
		c := byProc[e.initOf[0]]
		return fmt.Sprintf("%s is %s%s and has not called Process.init_ack(), so its supervisor's start-up cannot finish",
			procWord(c.p, names), c.info.Wait, where(c))
	case e.awaitedBy != nil:
		return fmt.Sprintf("its supervisor %s waits for its Process.init_ack()", procWord(e.awaitedBy, names))
	case w.CallTo != nil:
		t := byProc[w.CallTo]
		if t == nil || !t.info.Waiting {
			return ""
		}
		if t.w.CallTo == e.p {
			return fmt.Sprintf("%s is itself calling this process: each waits for the other's reply", procWord(t.p, names))
		}
		return fmt.Sprintf("%s is %s%s and has not replied", procWord(t.p, names), t.info.Wait, where(t))
	case w.Native && w.NativeOn != nil:
		s := byProc[w.NativeOn]
		if s == nil || len(s.initOf) == 0 {
			return ""
		}
		return fmt.Sprintf("the supervisor's child %s has not called Process.init_ack()", procWord(s.initOf[0], names))
	case w.SendWaitTo != nil:
		t := byProc[w.SendWaitTo]
		if t == nil || !t.info.Waiting {
			return ""
		}
		return fmt.Sprintf("%s is %s%s and takes no message", procWord(t.p, names), t.info.Wait, where(t))
	case w.Receive && w.Queued > 0 && !w.Site.Sleep:
		if w.Queued == 1 {
			return "the queued message matches none of the receive's patterns"
		}
		return "no queued message matches the receive's patterns"
	}
	return ""
}

// FormatTable renders the table, one indented line per process.
func FormatTable(t []ProcessInfo) string {
	var b strings.Builder
	for _, pi := range t {
		b.WriteString("  ")
		b.WriteString(pi.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// DeadlockReport is the report of a deadlocked `morrow run`
// (docs/reference/actors.md#when-main-returns-deadlock): the deadlock line and the process table.
func DeadlockReport(t []ProcessInfo) string {
	// The wording is the language reference's, for one process too.
	return fmt.Sprintf("morrow: deadlock: %d processes are waiting and nothing can wake them\n", len(t)) + FormatTable(t)
}
