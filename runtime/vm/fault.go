package vm

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// internalFault returns an internal-error fault.
func internalFault(format string, args ...any) *fault.Fault {
	return fault.Internalf(format, args...)
}

// raise records f as the pending fault (unless one is already pending:
// the first fault wins) with the current location and backtrace, and
// switches every frame to unwinding. The top frame's pc must be saved.
// An internal error also names the instruction it stopped at.
func (st *State) raise(f *fault.Fault) {
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
	file := st.img.Prog.FileOf(fr.fn.Function, core.PreludeFile)
	loc := ""
	if line := fr.fn.LineAt(pc); line > 0 {
		loc = fmt.Sprintf(", %s:%d", file, line)
	}
	return fmt.Sprintf(" [at %s in %s, pc %d%s]", fr.fn.Code[pc], fr.fn.Name, pc, loc)
}

// locate fills in the fault's source location and backtrace from the
// active frames.
func (st *State) locate(f *fault.Fault) {
	p := st.img.Prog
	f.Trace = f.Trace[:0]
	f.Elided = 0
	n := len(st.frames)
	for i := n - 1; i >= 0; i-- {
		if depth := n - 1 - i; depth == fault.TraceInner && n > fault.TraceInner+fault.TraceOuter {
			// Skip the middle of a deep stack, but still locate the
			// innermost user frame if it is in there.
			f.Elided = n - fault.TraceInner - fault.TraceOuter
			if f.Line == 0 {
				for j := i; j >= fault.TraceOuter; j-- {
					fr := &st.frames[j]
					if line := fr.fn.LineAt(max(fr.pc-1, 0)); !fr.fn.Flags.Has(bytecode.FlagPrelude) && line > 0 {
						f.File, f.Line = p.FileOf(fr.fn.Function, core.PreludeFile), line
						break
					}
				}
			}
			i = fault.TraceOuter - 1
		}
		fr := &st.frames[i]
		pc := fr.pc - 1
		if pc < 0 {
			pc = 0
		}
		file := p.FileOf(fr.fn.Function, core.PreludeFile)
		prelude := fr.fn.Flags.Has(bytecode.FlagPrelude)
		line := fr.fn.LineAt(pc)
		f.Trace = append(f.Trace, fault.Frame{Func: fr.fn.Name, File: file, Line: line})
		if f.Line == 0 && !prelude && line > 0 {
			f.File, f.Line = file, line
		}
	}
	if f.Line == 0 && len(f.Trace) > 0 && f.Trace[0].Line > 0 {
		f.File, f.Line = f.Trace[0].File, f.Trace[0].Line
	}
}
