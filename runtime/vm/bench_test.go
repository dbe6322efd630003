package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

var fibSrc = vmtest.Fib(25)

// BenchmarkFib25 measures calls and arithmetic: fib(25) is 242,785 calls.
func BenchmarkFib25(b *testing.B) {
	img := mustLoad(b, vmtest.MustAssemble(fibSrc))
	h := &testHost{}
	for i := 0; i < b.N; i++ {
		st, _ := NewState(img, img.Prog.Entry, nil)
		for {
			o := Run(st, h, 1<<16)
			if o.Status == StatusDone {
				if o.Value.AsInt() != 75025 {
					b.Fatal(o.Value)
				}
				break
			}
			if o.Status != StatusYield {
				b.Fatal(o.Status)
			}
		}
	}
}

// BenchmarkSumLoop measures a plain loop of 1000 iterations.
func BenchmarkSumLoop(b *testing.B) {
	img := mustLoad(b, vmtest.MustAssemble(sumLoop))
	h := &testHost{}
	for i := 0; i < b.N; i++ {
		st, _ := NewState(img, img.Prog.Entry, nil)
		Run(st, h, 1<<30)
	}
}

// BenchmarkDeepRecursion measures calls that grow the stack: a
// 100,000-deep recursion from a fresh State under a shared stack budget,
// run in slices of 1,000 steps (so the Runs that stop while it returns
// shallow may shrink the arrays), as a process would be.
func BenchmarkDeepRecursion(b *testing.B) {
	img := mustLoad(b, vmtest.MustAssemble(deepRecursion))
	h := &testHost{}
	budget := NewStackBudget(1 << 30)
	for i := 0; i < b.N; i++ {
		st, _ := NewState(img, img.Prog.Entry, nil)
		st.SetStackBudget(budget)
		for {
			o := Run(st, h, 1000)
			if o.Status == StatusDone {
				if o.Value.AsInt() != 100000 {
					b.Fatal(o.Value)
				}
				break
			}
			if o.Status != StatusYield {
				b.Fatal(o.Status)
			}
		}
	}
}
