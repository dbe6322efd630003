package vm

import (
	"sync/atomic"
	"unsafe"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Stack memory
//
// A State's stack memory is its value stack and its frame table. Both
// grow by doubling, only on calls (the verifier bounds every frame), and
// never shrink until the State finishes. Besides the per-State limits
// (DefaultMaxDepth frames, DefaultMaxStackSlots slots), all States of an
// invocation may share a StackBudget: every growth charges the bytes it
// adds, and a growth that would take the total past the budget is
// refused with fault 9 in the State that grows. So many deeply recursing
// processes fault one by one instead of exhausting the Go heap. A State
// returns its bytes when it finishes or is released (Release).

// DefaultStackBudget is the default total of the stack memory of an
// invocation's States (1 GiB).
const DefaultStackBudget = 1 << 30

// Bytes charged per value-stack slot and per frame-table entry.
var (
	slotBytes  = int64(unsafe.Sizeof(value.Value{}))
	frameBytes = int64(unsafe.Sizeof(frame{}))
)

// StackBudget is a stack-memory budget shared by States (safe for
// concurrent use).
type StackBudget struct {
	limit int64
	used  atomic.Int64
}

// NewStackBudget returns a budget of limit bytes (DefaultStackBudget when
// limit <= 0).
func NewStackBudget(limit int64) *StackBudget {
	if limit <= 0 {
		limit = DefaultStackBudget
	}
	return &StackBudget{limit: limit}
}

// Used returns the bytes currently charged.
func (b *StackBudget) Used() int64 { return b.used.Load() }

// Limit returns the budget's size in bytes.
func (b *StackBudget) Limit() int64 { return b.limit }

// SetStackBudget makes st charge its stack memory to b (nil: no shared
// budget). The memory st already holds moves to b, admitted even past
// its limit (a new process is never refused for its first frame; only
// growth is).
func (st *State) SetStackBudget(b *StackBudget) {
	if st.budget != nil {
		st.budget.used.Add(-st.charged)
	}
	st.budget = b
	if b != nil {
		b.used.Add(st.charged)
	}
}

// Release returns st's stack memory to its budget; the State must not
// run afterwards. Finishing releases it too; releasing twice is harmless.
func (st *State) Release() {
	if st.budget != nil {
		st.budget.used.Add(-st.charged)
	}
	st.charged = 0
}

// charge takes n more bytes from the budget, or reports false.
func (st *State) charge(n int64) bool {
	if b := st.budget; b != nil {
		if b.used.Add(n) > b.limit {
			b.used.Add(-n)
			return false
		}
	}
	st.charged += n
	return true
}

// grow makes the value stack at least n slots long (doubling) and returns
// it, or fault 9 when the State's slot limit or the stack budget refuses.
func (st *State) grow(n int) ([]value.Value, *fault.Fault) {
	if n > st.maxSlots {
		return nil, fault.New(fault.Resource)
	}
	if n <= len(st.stack) {
		return st.stack, nil
	}
	size := max(2*len(st.stack), 16)
	for size < n {
		size *= 2
	}
	if !st.charge(int64(size-len(st.stack)) * slotBytes) {
		return nil, fault.New(fault.Resource)
	}
	ns := make([]value.Value, size)
	copy(ns, st.stack)
	st.stack = ns
	return ns, nil
}

// growFrames doubles the frame table, or returns fault 9 when the stack
// budget refuses.
func (st *State) growFrames() *fault.Fault {
	c := cap(st.frames)
	nc := min(max(2*c, 1), max(st.maxDepth, c+1))
	if !st.charge(int64(nc-c) * frameBytes) {
		return fault.New(fault.Resource)
	}
	nf := make([]frame, len(st.frames), nc)
	copy(nf, st.frames)
	st.frames = nf
	return nil
}
