// Package fault is the one place that knows Morrow's runtime faults: the
// table of numbered fault codes with their names and message texts
// (docs/reference/actors.md#fault-codes, extended by this project's codes), and the one Fault
// type that the VM, the natives, the scheduler and the runners pass around.
//
// # Faults
//
// A Fault is one of three things:
//
//   - a checked fault: Code is one of the codes of Table, Msg its text
//     (New builds it). `morrow: runtime error: <Msg>` is what a runner
//     prints; an isolated process that faults retires with reason
//     Fault(Code).
//   - an internal error (Internal set, Code 0): a state a checked program
//     never reaches (hand-made bytecode, a recovered Go panic, a native
//     given the wrong kinds). Internalf builds it; the runner's headline is
//     `morrow: internal error: …` and it always fails the whole invocation.
//   - a control fault: Code Exit unwinds a process after Process.exit or a
//     terminal exit signal (its cleanup runs on the way out) and the
//     scheduler retires it with the reason it recorded; Aborted marks the
//     unwinding the host starts when a run is cancelled. Code Park is not
//     raised at all: a native returns it to park the caller on the call
//     (NewPark).
//
// The VM fills in File, Line and the backtrace when a fault is raised;
// Report renders all of it the way the runner prints it.
//
// # Why a leaf package
//
// Natives (stdlib/core, stdlib/process) raise faults and sit below the VM
// (the front end imports them for the prelude and the Process types), so
// the fault type cannot live in runtime/vm. This package imports nothing
// of the project; everything that faults imports it.
package fault

import (
	"fmt"
	"strings"
)

// Code is a fault code. The checked codes are listed in Table.
type Code int64

// The checked fault codes. 1–14 are docs/reference/actors.md#fault-codes; 15 is this
// project's code for the list size limit (docs/stdlib.md); 16 is
// reserved by docs/supervisors.md for init_ignore and init_fail called
// outside a child's start-up; 17 is the map and set size limit
// (docs/maps.md); 18 is this project's code for a System.exit status
// outside 0..255 (docs/io.md).
const (
	DivZero     Code = 1
	NegExp      Code = 2
	Index       Code = 3
	EmptyHead   Code = 4
	StringSize  Code = 5
	SliceUTF8   Code = 6
	SplitUTF8   Code = 7
	Timeout     Code = 8
	Resource    Code = 9
	Deadlock    Code = 10
	Descriptor  Code = 11
	Clock       Code = 12
	RegexSize   Code = 13
	RenderSize  Code = 14
	ListSize    Code = 15
	InitOutside Code = 16
	MapSize     Code = 17
	ExitStatus  Code = 18
)

// Exit is not a checked fault: the Process.exit native, and the
// scheduler applying a terminal exit signal, unwind the process with it
// (running its cleanup) after recording the exit reason; the scheduler
// then retires the process with that reason.
const Exit Code = -0x7fff_0001

// Park is not a fault either: a native that must wait for another
// process (a Supervisor request) returns it, and the VM parks the
// computation with its pc still on the call, so that when the scheduler
// resumes it the native is called again with the same arguments and
// answers from what the host recorded meanwhile.
const Park Code = -0x7fff_0002

// Info describes one checked fault code.
type Info struct {
	Code Code
	// Name is the Go constant's name.
	Name string
	// Text is the message printed after `morrow: runtime error: `.
	Text string
	// Wide marks the codes that always end the whole invocation, even in
	// an isolated process (docs/reference/actors.md#fault-codes: codes 11 and 12).
	Wide bool
}

// Table lists every checked fault code in order. docs/stdlib.md
// ("Faults") shows the same table; a test keeps the two equal.
var Table = [...]Info{
	{DivZero, "DivZero", "integer division by zero", false},
	{NegExp, "NegExp", "negative integer exponent", false},
	{Index, "Index", "list index out of bounds", false},
	{EmptyHead, "EmptyHead", "head of empty list", false},
	{StringSize, "StringSize", "string size limit exceeded", false},
	{SliceUTF8, "SliceUTF8", "String.slice indices must be UTF-8 character boundaries", false},
	{SplitUTF8, "SplitUTF8", "String.split requires valid UTF-8 input", false},
	{Timeout, "Timeout", "actor timeout must be between 0 and 600000 milliseconds", false},
	{Resource, "Resource", "actor resource limit exceeded", false},
	{Deadlock, "Deadlock", "actor deadlock: no runnable actor or pending timeout", false},
	{Descriptor, "Descriptor", "invalid actor execution descriptor", true},
	{Clock, "Clock", "actor monotonic clock failure", true},
	{RegexSize, "RegexSize", "regex replacement exceeds 16 MiB", false},
	{RenderSize, "RenderSize", "terminal rendering exceeds 16 MiB", false},
	{ListSize, "ListSize", "list size limit exceeded", false},
	{InitOutside, "InitOutside", "supervisor start-up operation outside a child's start-up", false},
	{MapSize, "MapSize", "map size limit exceeded", false},
	{ExitStatus, "ExitStatus", "System.exit status must be between 0 and 255", false},
}

// info returns the table entry of c, or nil.
func (c Code) info() *Info {
	if c < 1 || c > Code(len(Table)) {
		return nil
	}
	return &Table[c-1]
}

// Text returns the message text of a checked code ("fault N" for a code
// that is not in Table).
func (c Code) Text() string {
	if i := c.info(); i != nil {
		return i.Text
	}
	return fmt.Sprintf("fault %d", int64(c))
}

// String returns the code's name (its number for a code not in Table).
func (c Code) String() string {
	if i := c.info(); i != nil {
		return i.Name
	}
	if c == Exit {
		return "Exit"
	}
	if c == Park {
		return "Park"
	}
	return fmt.Sprintf("Code(%d)", int64(c))
}

// Wide reports whether the code always ends the whole invocation.
func (c Code) Wide() bool {
	i := c.info()
	return i != nil && i.Wide
}

// Fault is a runtime fault (see the package comment).
type Fault struct {
	Code     Code
	Msg      string // the text after `morrow: runtime error: `
	Internal bool
	Aborted  bool
	// File and Line locate the fault in Morrow source: the innermost frame
	// that is not prelude code (0 when unknown).
	File string
	Line int
	// Trace is the backtrace, innermost frame first. Deep stacks keep
	// only their innermost TraceInner and outermost TraceOuter frames;
	// Elided counts the frames left out between them.
	Trace  []Frame
	Elided int
}

// Backtrace limits for deep stacks.
const (
	TraceInner = 32
	TraceOuter = 8
)

// Frame is one line of a backtrace.
type Frame struct {
	Func string
	File string
	Line int
}

// New returns the checked fault with code c and its standard text. Every
// call allocates: the VM records the location in the fault it raises.
// Faults are the cold path: New is kept out of line so that the
// interpreter loop, which raises several, stays small.
//
//go:noinline
func New(c Code) *Fault { return &Fault{Code: c, Msg: c.Text()} }

// Internalf returns an internal-error fault; its text starts with
// "internal error: ".
func Internalf(format string, args ...any) *Fault {
	return &Fault{Msg: "internal error: " + fmt.Sprintf(format, args...), Internal: true}
}

// NewExit returns the control fault that unwinds a process after
// Process.exit or a terminal exit signal.
func NewExit() *Fault { return &Fault{Code: Exit, Msg: "process exit"} }

// NewPark returns the signal of a native that parks its caller (Park).
func NewPark() *Fault { return &Fault{Code: Park, Msg: "park"} }

// IsPark reports whether f is the signal of NewPark.
func (f *Fault) IsPark() bool { return f.Code == Park && !f.Internal }

// IsExit reports whether f is the control fault of NewExit (an internal
// error never is).
func (f *Fault) IsExit() bool { return f.Code == Exit && !f.Internal }

// Error returns the fault text.
func (f *Fault) Error() string { return f.Msg }

// Location renders `file:line`, or "" when unknown.
func (f *Fault) Location() string {
	if f.Line <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", f.File, f.Line)
}

// Report renders the fault the way the runner prints it: the headline
// `morrow: runtime error: <text>` (for an internal error `morrow:
// internal error: <text>`, which names the instruction, so that it is
// never mistaken for a fault of the program), then `  at <file>:<line>`
// when known, then one `  in <function> (<file>:<line>)` line per active
// frame, innermost first (a run of identical frames prints once, followed
// by ` [N times]`; the middle of a very deep stack is elided).
func (f *Fault) Report() string {
	var b strings.Builder
	if msg, ok := strings.CutPrefix(f.Msg, "internal error: "); ok && f.Internal {
		b.WriteString("morrow: internal error: ")
		b.WriteString(msg)
	} else {
		b.WriteString("morrow: runtime error: ")
		b.WriteString(f.Msg)
	}
	b.WriteByte('\n')
	if loc := f.Location(); loc != "" {
		fmt.Fprintf(&b, "  at %s\n", loc)
	}
	// Runs of identical frames (deep recursion) print once with a count.
	for i := 0; i < len(f.Trace); {
		if f.Elided > 0 && i == TraceInner {
			fmt.Fprintf(&b, "  ... %d more frames\n", f.Elided)
		}
		t := f.Trace[i]
		j := i + 1
		for j < len(f.Trace) && f.Trace[j] == t && (f.Elided == 0 || j != TraceInner) {
			j++
		}
		if t.Line > 0 {
			fmt.Fprintf(&b, "  in %s (%s:%d)", t.Func, t.File, t.Line)
		} else {
			fmt.Fprintf(&b, "  in %s", t.Func)
		}
		if j-i > 1 {
			fmt.Fprintf(&b, " [%d times]", j-i)
		}
		b.WriteByte('\n')
		i = j
	}
	return b.String()
}
