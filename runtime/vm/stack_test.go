package vm

import (
	"testing"
	"unsafe"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

const deepRecursion = `
func main
    INT 100000
    CALL deep 1
    RETURN
func deep params=1
    LOAD 0
    INT 0
    EQ
    JUMP_IF_FALSE more
    INT 0
    RETURN
more:
    LOAD 0
    INT 1
    SUB
    CALL deep 1
    INT 1
    ADD
    RETURN
`

// TestStackBudgetIsShared: States charging one budget fault with code 9
// when their growth would cross it, and give the memory back when they
// finish.
func TestStackBudgetIsShared(t *testing.T) {
	img := mustLoad(t, vmtest.MustAssemble(deepRecursion))
	b := NewStackBudget(8 << 20) // a 100,000-deep recursion needs about 12 MB
	a, _ := NewState(img, 0, nil)
	a.SetStackBudget(b)
	if o := Run(a, &testHost{}, 1<<30); o.Status != StatusFault || o.Fault.Code != fault.Resource {
		t.Fatalf("deep recursion under a small budget: %+v", o)
	}
	if b.Used() != 0 {
		t.Fatalf("a finished State still holds %d bytes", b.Used())
	}
	b = NewStackBudget(64 << 20)
	x, _ := NewState(img, 0, nil)
	y, _ := NewState(img, 0, nil)
	x.SetStackBudget(b)
	y.SetStackBudget(b)
	// Interleave: both grow together; together they fit in 64 MiB.
	for !x.Finished() || !y.Finished() {
		Run(x, &testHost{}, 1000)
		Run(y, &testHost{}, 1000)
	}
	wantInt(t, Run(x, &testHost{}, 1), 100000)
	wantInt(t, Run(y, &testHost{}, 1), 100000)
	if b.Used() != 0 {
		t.Fatalf("finished States still hold %d bytes", b.Used())
	}
	z, _ := NewState(img, 0, nil)
	z.SetStackBudget(b)
	Run(z, &testHost{}, 50000)
	if b.Used() == 0 {
		t.Fatal("a running State holds no stack memory")
	}
	z.Release()
	if b.Used() != 0 {
		t.Fatalf("a released State still holds %d bytes", b.Used())
	}
}

// heldBytes is the memory the Go allocator gives an array of n values of
// type T: its size rounded up to the allocator's size class (append
// reports it as the capacity of a fresh slice).
func heldBytes[T any](n int) int64 {
	s := append([]T(nil), make([]T, n)...)
	var x T
	return int64(cap(s)) * int64(unsafe.Sizeof(x))
}

// TestStackChargeIsTheMemoryHeld: what a State charges its budget is the
// memory its value stack and frame table really hold, the whole
// allocation the Go allocator gave each (not the slots or frames in
// use), at every depth of a deep recursion and while it returns, and it
// uses all of it: a State never holds memory it does not count.
func TestStackChargeIsTheMemoryHeld(t *testing.T) {
	img := mustLoad(t, vmtest.MustAssemble(deepRecursion))
	b := NewStackBudget(1 << 30)
	st, _ := NewState(img, 0, nil)
	st.SetStackBudget(b)
	checks, peak := 0, int64(0)
	for !st.Finished() {
		held := heldBytes[value.Value](cap(st.stack)) + heldBytes[frame](cap(st.frames))
		if st.charged != held || b.Used() != held {
			t.Fatalf("depth %d: the stack (%d slots) and frame table (%d frames) hold %d bytes; the State charged %d, the budget %d",
				len(st.frames), cap(st.stack), cap(st.frames), held, st.charged, b.Used())
		}
		if len(st.stack) != cap(st.stack) {
			t.Fatalf("depth %d: the value stack uses %d of its %d slots", len(st.frames), len(st.stack), cap(st.stack))
		}
		peak = max(peak, held)
		checks++
		Run(st, &testHost{}, 997)
	}
	if checks < 100 || peak < 10<<20 {
		t.Fatalf("%d checks, peak %d bytes: the recursion did not grow the stack", checks, peak)
	}
	if b.Used() != 0 {
		t.Fatalf("a finished State still holds %d bytes", b.Used())
	}
}

// TestStackChargeWithADepthLimit: a frame table whose capacity is cut to
// the depth limit is still charged for the whole array it holds, and
// what it gives back when it grows or finishes is what it was charged.
func TestStackChargeWithADepthLimit(t *testing.T) {
	img := mustLoad(t, vmtest.MustAssemble(deepRecursion))
	b := NewStackBudget(1 << 30)
	st, _ := NewState(img, 0, nil)
	st.SetStackBudget(b)
	for len(st.frames) < 300 {
		Run(st, &testHost{}, 50)
	}
	held := b.Used()
	st.SetMaxDepth(len(st.frames) + 2)
	if b.Used() != held || st.charged != held {
		t.Fatalf("cutting the depth limit changed the charge from %d to %d", held, b.Used())
	}
	if o := Run(st, &testHost{}, 1<<30); o.Status != StatusFault || o.Fault.Code != fault.Resource {
		t.Fatalf("recursion past the depth limit: %+v", o)
	}
	if b.Used() != 0 {
		t.Fatalf("a finished State still holds %d bytes", b.Used())
	}
}

// deepThenIdle recurses 100,000 calls deep, then loops shallow for a
// while (its Runs stop on the step budget with one frame), then
// recurses again and returns the sum of both results.
const deepThenIdle = `
func main locals=2
    INT 100000
    CALL deep 1
    STORE 1
    INT 200000
    STORE 0
loop:
    LOAD 0
    INT 0
    EQ
    JUMP_IF_TRUE again
    LOAD 0
    INT 1
    SUB
    STORE 0
    JUMP loop
again:
    INT 100000
    CALL deep 1
    LOAD 1
    ADD
    RETURN
func deep params=1
    LOAD 0
    INT 0
    EQ
    JUMP_IF_FALSE more
    INT 0
    RETURN
more:
    LOAD 0
    INT 1
    SUB
    CALL deep 1
    INT 1
    ADD
    RETURN
`

// TestStackShrinksWhenShallow: a State that recursed deeply gives its
// stack memory back once a Run stops with it shallow again; what it
// still charges is what its arrays hold, and it can recurse deeply again
// and compute the right result.
func TestStackShrinksWhenShallow(t *testing.T) {
	img := mustLoad(t, vmtest.MustAssemble(deepThenIdle))
	b := NewStackBudget(1 << 30)
	st, _ := NewState(img, 0, nil)
	st.SetStackBudget(b)
	peak, shallow, deepAgain := int64(0), int64(-1), false
	for !st.Finished() {
		o := Run(st, &testHost{}, 997)
		if o.Status == StatusDone {
			wantInt(t, o, 200000)
			break
		}
		if o.Status != StatusYield {
			t.Fatalf("outcome %+v", o)
		}
		held := heldBytes[value.Value](len(st.stack)) + heldBytes[frame](st.frameCap)
		if st.charged != held || b.Used() != held {
			t.Fatalf("depth %d: the arrays hold %d bytes; the State charged %d, the budget %d", len(st.frames), held, st.charged, b.Used())
		}
		peak = max(peak, held)
		switch {
		case len(st.frames) == 1 && peak > 4<<20 && shallow < 0:
			shallow = held
		case len(st.frames) > 1000 && shallow >= 0:
			deepAgain = true
		}
	}
	if shallow < 0 || !deepAgain {
		t.Fatalf("peak %d bytes, shallow %d, deep again %v: the program did not run as planned", peak, shallow, deepAgain)
	}
	if shallow > 64<<10 {
		t.Errorf("after a recursion that took %d bytes, the shallow State still holds %d", peak, shallow)
	}
	if b.Used() != 0 {
		t.Fatalf("a finished State still holds %d bytes", b.Used())
	}
}
