package sched_test

import (
	"context"
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// BenchmarkPingPong measures message round trips between two processes:
// testdata/pingpong.mr makes 100,000 round trips per run, and one op is
// one round trip (two messages), so run it with -benchtime Nx, N a
// multiple of 100000.
func BenchmarkPingPong(b *testing.B) {
	img := loadFile(b, "testdata/pingpong.mr")
	for _, n := range []int{1, 2} {
		b.Run(map[int]string{1: "schedulers=1", 2: "schedulers=2"}[n], func(b *testing.B) {
			for i := 0; i < b.N; i += 100000 {
				run(b, context.Background(), img, sched.Config{Schedulers: n})
			}
		})
	}
}
