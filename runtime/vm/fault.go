package vm

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Fault is a runtime fault: a checked fault with a numbered code
// (LANGUAGE.md §6.6), an internal error (Internal set, Code 0: bytecode
// that a checked program never produces, or a recovered Go panic), or an
// abort requested by the host (Aborted set).
type Fault struct {
	Code     int64
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
	Trace  []TraceFrame
	Elided int
}

// Backtrace limits for deep stacks.
const (
	TraceInner = 32
	TraceOuter = 8
)

// TraceFrame is one line of a backtrace.
type TraceFrame struct {
	Func string
	File string
	Line int
}

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
// when known,
// then one `  in <function> (<file>:<line>)` line per active frame,
// innermost first (a run of identical frames prints once, followed by
// ` [N times]`; the middle of a very deep stack is elided).
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

// NewFault returns the checked fault with a numbered code and its standard
// text.
func NewFault(code int64) *Fault {
	msg, ok := core.FaultText[int(code)]
	if !ok {
		msg = fmt.Sprintf("fault %d", code)
	}
	return &Fault{Code: code, Msg: msg}
}

// internalFault returns an internal-error fault.
func internalFault(format string, args ...any) *Fault {
	return &Fault{Msg: "internal error: " + fmt.Sprintf(format, args...), Internal: true}
}

// fromNative converts a native's fault.
func fromNative(f *core.Fault) *Fault {
	if f.Code == core.FaultInternal {
		msg := f.Msg
		if !strings.HasPrefix(msg, "internal error") {
			msg = "internal error: " + msg
		}
		return &Fault{Msg: msg, Internal: true}
	}
	return &Fault{Code: int64(f.Code), Msg: f.Msg}
}

// raise records f as the pending fault (unless one is already pending:
// the first fault wins) with the current location and backtrace, and
// switches every frame to unwinding. The top frame's pc must be saved.
// An internal error also names the instruction it stopped at.
func (st *State) raise(f *Fault) {
	if st.fault == nil {
		st.locate(f)
		if f.Internal {
			f.Msg += st.where()
		}
		st.fault = f
	}
	for i := range st.frames {
		st.frames[i].mode = modeUnwinding
	}
}

// where names the instruction the top frame stopped at (the one before
// its saved pc), for internal errors: " [at OPCODE in FUNCTION, pc N,
// FILE:LINE]". These errors are states a checked program never reaches
// (a match no arm matched, a native given a value of the wrong kind, an
// operation on the wrong kinds of operands, a recovered Go panic), so the
// report points at the bytecode, not only at the source.
func (st *State) where() string {
	if len(st.frames) == 0 {
		return ""
	}
	fr := &st.frames[len(st.frames)-1]
	pc := max(fr.pc-1, 0)
	if pc >= len(fr.fn.Code) {
		return fmt.Sprintf(" [in %s, pc %d]", fr.fn.Name, pc)
	}
	file := st.img.Prog.Source
	if fr.fn.Flags.Has(bytecode.FlagPrelude) {
		file = core.PreludeFile
	}
	loc := ""
	if line := fr.fn.LineAt(pc); line > 0 {
		loc = fmt.Sprintf(", %s:%d", file, line)
	}
	return fmt.Sprintf(" [at %s in %s, pc %d%s]", original(fr.fn.Code[pc]), fr.fn.Name, pc, loc)
}

// locate fills in the fault's source location and backtrace from the
// active frames.
func (st *State) locate(f *Fault) {
	p := st.img.Prog
	f.Trace = f.Trace[:0]
	f.Elided = 0
	n := len(st.frames)
	for i := n - 1; i >= 0; i-- {
		if depth := n - 1 - i; depth == TraceInner && n > TraceInner+TraceOuter {
			// Skip the middle of a deep stack, but still locate the
			// innermost user frame if it is in there.
			f.Elided = n - TraceInner - TraceOuter
			if f.Line == 0 {
				for j := i; j >= TraceOuter; j-- {
					fr := &st.frames[j]
					if line := fr.fn.LineAt(max(fr.pc-1, 0)); !fr.fn.Flags.Has(bytecode.FlagPrelude) && line > 0 {
						f.File, f.Line = p.Source, line
						break
					}
				}
			}
			i = TraceOuter - 1
		}
		fr := &st.frames[i]
		pc := fr.pc - 1
		if pc < 0 {
			pc = 0
		}
		file := p.Source
		prelude := fr.fn.Flags.Has(bytecode.FlagPrelude)
		if prelude {
			file = core.PreludeFile
		}
		line := fr.fn.LineAt(pc)
		f.Trace = append(f.Trace, TraceFrame{Func: fr.fn.Name, File: file, Line: line})
		if f.Line == 0 && !prelude && line > 0 {
			f.File, f.Line = file, line
		}
	}
	if f.Line == 0 && len(f.Trace) > 0 && f.Trace[0].Line > 0 {
		f.File, f.Line = f.Trace[0].File, f.Trace[0].Line
	}
}
