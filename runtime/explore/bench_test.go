package explore

import (
	"context"
	"testing"
)

// BenchmarkExplore1000 explores a program of 1,000 processes (a
// collector and 1,000 workers that each send it one message) under 1,000
// schedules: one iteration is the whole `morrow run --explore 1000`
// after compiling. docs/exploring.md quotes its figure.
func BenchmarkExplore1000(b *testing.B) {
	v := compile(b, "testdata/thousand.mr")
	for b.Loop() {
		rep, err := Explore(context.Background(), v, Options{Runs: 1000})
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Outcomes) != 1 || rep.Outcomes[0].Stdout != "sum: 500500\n" {
			b.Fatalf("outcomes %+v", rep.Outcomes)
		}
	}
}
