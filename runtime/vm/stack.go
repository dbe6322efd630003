package vm

import (
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Stack memory
//
// A State's stack memory is its value stack and its frame table. Both
// grow by doubling, only on calls (the verifier bounds every frame), and
// shrink when a Run stops with the State shallow again (Shrinking,
// below). Besides the per-State limits (DefaultMaxDepth frames,
// DefaultMaxStackSlots slots), all States of an invocation may share a
// StackBudget, which counts what the stacks really hold: the bytes of
// the arrays the Go allocator gave them (their whole capacity, rounded
// up to the allocator's size class, not the slots and frames in use). A
// growth allocates with the allocator's rounding (allocSlots,
// allocFrames) so that the capacity the State uses is the memory it was
// given, and the charge moves from the old array to the new one; a
// growth that would take the total past the budget is refused with
// fault 9 in the State that grows. So many deeply recursing processes
// fault one by one instead of exhausting the Go heap. A State returns
// bytes when it shrinks, and all of them when it finishes or is released
// (Release). The old arrays a growth or a shrink leaves behind, and the
// arrays of finished States, are garbage the budget no longer counts:
// the Go runtime's soft memory limit, derived from the budgets by
// runtime/gotune while the engine runs, makes the collector reclaim them
// before the heap grows far past the budgets (docs/performance.md, "Go
// runtime settings").

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

// allocSlots returns a zeroed value stack of at least n slots whose
// length is the whole capacity the allocator gives for it (its size
// class), so that len*slotBytes is the memory it holds.
func allocSlots(n int) []value.Value {
	s := slices.Grow([]value.Value(nil), n)
	return s[:cap(s)]
}

// allocFrames returns an empty, zeroed frame table with room for at
// least n frames; its capacity is what the allocator gives (its size
// class), so cap*frameBytes is the memory it holds.
func allocFrames(n int) []frame {
	return slices.Grow([]frame(nil), n)
}

// force takes n more bytes from the budget even past its limit: the
// rounding of an allocation already admitted (less than one size class
// step, at most a page of a large array).
func (st *State) force(n int64) {
	if b := st.budget; b != nil {
		b.used.Add(n)
	}
	st.charged += n
}

// grow makes the value stack at least n slots long (doubling) and returns
// it, or fault 9 when the State's slot limit or the stack budget refuses.
// The growth (the new array's bytes less the old one's, which becomes
// garbage) is charged before anything is allocated, so a refused growth
// allocates nothing; the allocator's rounding is charged once the array
// exists.
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
	ns := allocSlots(size)
	st.force(int64(len(ns)-size) * slotBytes)
	copy(ns, st.stack)
	st.stack = ns
	return ns, nil
}

// growFrames doubles the frame table, or returns fault 9 when the stack
// budget refuses. It is charged as grow is (the difference may be
// negative when SetMaxDepth cut the table short of its array). The
// table's capacity stays within the depth limit (the fast loop's room
// check is also the depth check); frameCap is the capacity of the array
// actually allocated, which is what is charged.
func (st *State) growFrames() *fault.Fault {
	c := cap(st.frames)
	nc := min(max(2*c, 1), max(st.maxDepth, c+1))
	if !st.charge(int64(nc-st.frameCap) * frameBytes) {
		return fault.New(fault.Resource)
	}
	nf := allocFrames(nc)
	st.force(int64(cap(nf)-nc) * frameBytes)
	nf = append(nf, st.frames...)
	st.frameCap = cap(nf)
	st.frames = nf[:len(nf):min(cap(nf), max(st.maxDepth, nc))]
	return nil
}

// Shrinking. A State that recursed deeply and came back keeps arrays
// sized for its deepest point; a process that then idles (a server back
// in its receive loop) would hold that memory, and its share of the
// stack budget, for ever. So when a Run stops with the State shallow
// (yield or park, at most shrinkDepth frames) and an array is large, the
// array is replaced by one sized for what the frames can use and the
// difference goes back to the budget. Both tests are a couple of
// comparisons at the end of a Run, never on a call or a return; the
// shrink itself copies at most shrinkDepth frames and the slots below
// them. A later deep recursion grows the arrays again by doubling, which
// costs a copy of the order of the recursion's own work.
const (
	shrinkDepth  = 64    // the deepest a State shrinks at
	shrinkFrames = 4096  // a frame table array this large may shrink (288 KiB)
	shrinkSlots  = 16384 // a value stack this long may shrink (256 KiB)
	keepFrames   = 4 * shrinkDepth
	keepSlots    = 1024
)

// shrinkIfIdle shrinks st's arrays when st is shallow and one of them is
// large (see Shrinking); Run calls it when it stops without finishing.
func (st *State) shrinkIfIdle() {
	if (st.frameCap >= shrinkFrames || len(st.stack) >= shrinkSlots) && len(st.frames) <= shrinkDepth {
		st.shrink()
	}
}

// shrink replaces a large frame table by one of keepFrames frames, and
// a value stack at least four times what its frames can use by one of
// twice that (at least keepSlots), charging the differences.
func (st *State) shrink() {
	n := len(st.frames)
	if n == 0 {
		return
	}
	if st.frameCap >= shrinkFrames {
		nf := append(allocFrames(keepFrames), st.frames...)
		st.force(int64(cap(nf)-st.frameCap) * frameBytes)
		st.frameCap = cap(nf)
		st.frames = nf[:n:max(n, min(cap(nf), st.maxDepth))]
	}
	if len(st.stack) < shrinkSlots {
		return
	}
	// Every frame may use its whole window again (its locals and its
	// operand stack up to MaxStack) without a check.
	need := st.sp
	for i := range st.frames {
		fr := &st.frames[i]
		need = max(need, fr.base+fr.fn.need)
	}
	if size := max(2*need, keepSlots); 4*size <= len(st.stack) {
		ns := allocSlots(size)
		copy(ns, st.stack[:need])
		st.force(int64(len(ns)-len(st.stack)) * slotBytes)
		st.stack = ns
	}
}
