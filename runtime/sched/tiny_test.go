package sched_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// TestActorFixturesUnderTinyBudgets runs every actor run fixture with
// turns of 1 and 7 steps (preemption at almost every instruction,
// including inside receive scans) and checks the expected stdout.
func TestActorFixturesUnderTinyBudgets(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/actors/*.mr")
	if len(files) == 0 {
		t.Skip("no actor fixtures found in ../../fixtures/actors")
	}
	for i, f := range files {
		if raceEnabled && i%4 != 0 {
			// A budget of one reduction switches processes at every
			// step; under the race detector a quarter of the fixtures
			// keeps
			// the run well inside go test's timeout, and the whole set
			// runs without -race.
			continue
		}
		src, _ := os.ReadFile(f)
		want, _ := os.ReadFile(strings.TrimSuffix(f, ".mr") + ".out.golden")
		img := load(t, string(src))
		for _, b := range []int{1, 7} {
			out, _, _ := run(t, context.Background(), img, sched.Config{Schedulers: 2, Steal: true, Budget: b, ReportDeadlock: true})
			if out != string(want) {
				t.Errorf("%s budget %d: %q", f, b, out)
			}
		}
	}
}
