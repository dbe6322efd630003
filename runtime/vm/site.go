package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Site is where a computation stands: the innermost function of the
// program's own code (prelude frames are skipped, as in a fault's
// location) and its source position.
type Site struct {
	Func string
	File string
	Line int
	// Sleep: the wait is a Process.sleep (a receive that skips every
	// message, as codegen lowers it), not a receive of the program's.
	Sleep bool
}

// WaitSite returns where st stands: for a process parked in a receive,
// a call or another wait, the function and line of the operation it
// waits in. It reads the frames, so it must not be called while st runs.
// ok is false when st has no frame (finished or released).
func (st *State) WaitSite() (s Site, ok bool) {
	if st == nil || len(st.frames) == 0 {
		return Site{}, false
	}
	// A parked State's pc stays on the instruction it waits in (the
	// receive's RECV_WAIT, CALL_WAIT, SEND_WAIT, a native call that
	// answered Park); a receive is shown at its `receive:` line, the
	// line of the RECV_PEEK its RECV_WAIT loops back to.
	fr := &st.frames[len(st.frames)-1]
	if pc := fr.pc; pc >= 0 && pc < len(fr.fn.Code) && !fr.fn.Flags.Has(bytecode.FlagPrelude) {
		in := fr.fn.Code[pc]
		at, sleep := -1, false
		switch in.Op {
		case bytecode.RECV_WAIT:
			at = int(in.A)
			if code := fr.fn.Code; at >= 0 && at+2 < len(code) && code[at].Op == bytecode.RECV_PEEK &&
				code[at+1].Op == bytecode.POP && code[at+2].Op == bytecode.RECV_SKIP {
				sleep = true
			}
		case bytecode.CALL_WAIT, bytecode.SEND_WAIT, bytecode.CALL_NATIVE, bytecode.CALL_VALUE:
			at = pc
		}
		if at >= 0 && at < len(fr.fn.Code) {
			if line := fr.fn.LineAt(at); line > 0 {
				file := st.img.Prog.FileOf(fr.fn.Function, core.PreludeFile)
				return Site{Func: fr.fn.Name, File: file, Line: line, Sleep: sleep}, true
			}
		}
	}
	var f fault.Fault
	st.locate(&f)
	for _, fr := range f.Trace {
		if fr.File != core.PreludeFile && fr.Line > 0 {
			return Site{Func: fr.Func, File: fr.File, Line: fr.Line}, true
		}
	}
	if len(f.Trace) > 0 {
		fr := f.Trace[0]
		return Site{Func: fr.Func, File: fr.File, Line: fr.Line}, true
	}
	return Site{}, false
}
