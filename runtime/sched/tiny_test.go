package sched_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// TestActorFixturesUnderTinyBudgets runs every actor run fixture with
// turns of 1 and 7 steps (preemption at almost every instruction,
// including inside receive scans) and checks the expected stdout, and
// that no armed timer is counted once the run has ended (noTimerLeft).
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
		want, _ := os.ReadFile(strings.TrimSuffix(f, ".mr") + ".out.golden")
		img := loadFile(t, f)
		for _, b := range []int{1, 7} {
			out, res, rt := run(t, context.Background(), img, sched.Config{Schedulers: 2, Steal: true, Budget: b, ReportDeadlock: true})
			if out != string(want) {
				t.Errorf("%s budget %d: %q", f, b, out)
			}
			noTimerLeft(t, f, res, rt)
		}
	}
}

// TestNoTimerCountedAfterProcessFixtures runs every process fixture
// (among them timeouts that fire, receives that match before their
// timeout, kills of sleeping processes and of callers, calls that time
// out, are answered or see their server die) at 1, 2 and 4 schedulers
// and checks that none ends with an armed timer counted (noTimerLeft).
func TestNoTimerCountedAfterProcessFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../fixtures/process/*.mr")
	if len(files) < 50 {
		t.Fatalf("only %d process fixtures found in ../../fixtures/process", len(files))
	}
	configs := []sched.Config{{Schedulers: 1}, {Schedulers: 2, Steal: true}, {Schedulers: 4}}
	for i, f := range files {
		src, _ := os.ReadFile(f)
		if !strings.Contains(string(src), "\nfn main(") {
			continue // a library: its start needs a host port (runtime/engine)
		}
		img := load(t, string(src))
		for j, cfg := range configs {
			if raceEnabled && (i+j)%3 != 0 {
				continue // a third of the runs under the race detector
			}
			cfg.ReportDeadlock = true
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, res, rt := run(t, ctx, img, cfg)
			cancel()
			if res.Cancelled {
				t.Errorf("%s at %d schedulers: still running after 30 s (%d armed timers counted)", f, cfg.Schedulers, rt.Inv.ArmedTimers())
				continue
			}
			noTimerLeft(t, f, res, rt)
		}
	}
}

// noTimerLeft checks that the runtime's count of armed timers, which its
// idle and deadlock decision reads, is 0 after a run that ended
// normally or in a deadlock (a fatal fault stops processes wherever
// they are): a count left above 0 would make an idle runtime wait for a
// timer that does not exist (a hang instead of a deadlock report), one
// below 0 would report a deadlock while a timer is pending.
func noTimerLeft(t *testing.T, f string, res sched.Result, rt *sched.Runtime) {
	t.Helper()
	if res.Report != "" && !res.Deadlock {
		return
	}
	if n := rt.Inv.ArmedTimers(); n != 0 {
		t.Errorf("%s: the ended invocation counts %d armed timers", f, n)
	}
}
