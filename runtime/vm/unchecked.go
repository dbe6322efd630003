//go:build !vmcheck

package vm

import (
	"unsafe"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Unchecked indexing for the fast loop (exec.go)
//
// The fast loop reads its instructions, stack slots and frames through
// these helpers, which index without bounds checks. Every index they see
// is in range by construction: the verifier proves that each instruction
// touches only its frame's locals and operand stack (at most
// Locals+MaxStack slots from the frame base) and that every jump target
// is an instruction of the function; a frame is entered only when the
// stack holds base+need slots and the frame table has room; and the
// loop pops a frame only above the bottom one (whose return takes the
// general path). The bounds checks therefore never fail on a verified
// program (FuzzRun in runtime/engine runs mutated verified programs and
// fails on any recovered Go panic), but they cost about a tenth of fib's
// time (docs/performance.md). Building with -tags vmcheck replaces these
// helpers by checked ones (checked.go) with the same behaviour, so the
// fuzz targets and the tests can still catch a verifier that lets an
// out-of-range index through; -race also checks the pointer arithmetic
// (checkptr).

// stackRef is the fast loop's handle on the value stack: its first slot.
type stackRef = unsafe.Pointer

// codeRef is the fast loop's handle on a function's internal code: its
// first instruction.
type codeRef = unsafe.Pointer

const (
	valueSize = unsafe.Sizeof(value.Value{})
	instrSize = unsafe.Sizeof(instr{})
	frameSize = unsafe.Sizeof(frame{})
)

func stackOf(s []value.Value) stackRef { return unsafe.Pointer(unsafe.SliceData(s)) }

func codeOf(c []instr) codeRef { return unsafe.Pointer(unsafe.SliceData(c)) }

// slot returns &stack[i].
func slot(s stackRef, i int) *value.Value {
	return (*value.Value)(unsafe.Add(s, uintptr(i)*valueSize))
}

// instrAt returns &code[pc].
func instrAt(c codeRef, pc int) *instr {
	return (*instr)(unsafe.Add(c, uintptr(pc)*instrSize))
}

// pushed returns &st.frames[n] for fr == &st.frames[n-1] (the frame
// table has just been extended to n+1 frames).
func pushed(st *State, fr *frame, n int) *frame {
	return (*frame)(unsafe.Add(unsafe.Pointer(fr), frameSize))
}

// popped returns &st.frames[n-1] for fr == &st.frames[n] (the frame
// table has just been cut to n frames, n >= 1).
func popped(st *State, fr *frame, n int) *frame {
	return (*frame)(unsafe.Add(unsafe.Pointer(fr), -int(frameSize)))
}

// setDepth sets len(st.frames) to n (0 <= n <= cap(st.frames)).
func setDepth(st *State, n int) {
	(*struct {
		data     unsafe.Pointer
		len, cap int
	})(unsafe.Pointer(&st.frames)).len = n
}
