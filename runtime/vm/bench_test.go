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
