package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
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
