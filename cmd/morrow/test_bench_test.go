package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// BenchmarkTest1000 runs `morrow test` on a file of 1,000 trivial tests
// (docs/testing.md, "Cost": about a second on one core), compile
// included, at --parallel 1 and at the number of CPUs:
//
//	go test ./cmd/morrow/ -run '^$' -bench Test1000 -benchtime 3x
func BenchmarkTest1000(b *testing.B) {
	var src strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&src, "fn test_%d() -> Result((), String):\n    Test.equal(%d + 1, %d)\n\n", i, i, i+1)
	}
	path := testrun.WriteFile(b, b.TempDir(), "many.mr", src.String())
	for _, par := range []int{1, runtime.NumCPU()} {
		b.Run(fmt.Sprintf("parallel=%d", par), func(b *testing.B) {
			for range b.N {
				var out strings.Builder
				code := run([]string{"test", "--parallel", fmt.Sprint(par), path}, strings.NewReader(""), &out, io.Discard)
				if code != 0 || out.String() != "tests: 1000/1000 passed\n" {
					b.Fatalf("exit %d: %s", code, out.String())
				}
			}
		})
	}
}
