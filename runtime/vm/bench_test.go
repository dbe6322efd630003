package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

const fibSrc = `
func main
    INT 25
    CALL fib 1
    RETURN
func fib params=1
    LOAD 0
    INT 2
    LT
    JUMP_IF_FALSE rec
    LOAD 0
    RETURN
rec:
    LOAD 0
    INT 1
    SUB
    CALL fib 1
    LOAD 0
    INT 2
    SUB
    CALL fib 1
    ADD
    RETURN
`

// BenchmarkFib25 measures calls and arithmetic: fib(25) is 242,785 calls.
func BenchmarkFib25(b *testing.B) {
	img, err := Load(vmtest.MustAssemble(fibSrc))
	if err != nil {
		b.Fatal(err)
	}
	h := &testHost{}
	for i := 0; i < b.N; i++ {
		st, _ := NewState(img, img.Prog.Entry, nil)
		for {
			o := Run(st, h, 1<<16)
			if o.Status == StatusDone {
				if o.Value.N != 75025 {
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
	img, err := Load(vmtest.MustAssemble(sumLoop))
	if err != nil {
		b.Fatal(err)
	}
	h := &testHost{}
	for i := 0; i < b.N; i++ {
		st, _ := NewState(img, img.Prog.Entry, nil)
		Run(st, h, 1<<30)
	}
}
