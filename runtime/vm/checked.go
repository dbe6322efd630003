//go:build vmcheck

package vm

import "github.com/morrow-lang/morrow/runtime/value"

// Checked indexing for the fast loop: the -tags vmcheck build of the
// helpers of unchecked.go, with Go's bounds checks (an out-of-range
// index panics, and the interpreter reports the panic as an internal
// error).

type stackRef = []value.Value

type codeRef = []instr

func stackOf(s []value.Value) stackRef { return s }

func codeOf(c []instr) codeRef { return c }

func slot(s stackRef, i int) *value.Value { return &s[i] }

func instrAt(c codeRef, pc int) *instr { return &c[pc] }

func pushed(st *State, fr *frame, n int) *frame { return &st.frames[n] }

func popped(st *State, fr *frame, n int) *frame { return &st.frames[n-1] }

func setDepth(st *State, n int) { st.frames = st.frames[:n] }
