package sched_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// timerUse finds the fixtures that arm receive timers: receives with
// `after`, Process.call with a timeout, Process.sleep.
var timerUse = regexp.MustCompile(` after |Process\.call|Process\.sleep`)

// TestNoTimerCountedAfterFixtures runs every actor and process fixture
// that arms timers (timeouts that fire, receives that match before their
// timeout, kills of sleeping processes and of callers, calls that time
// out, are answered or see their server die) at 1, 2 and 4 schedulers,
// and checks that the runtime's count of armed timers, which its idle
// and deadlock decision reads, is 0 when the invocation has ended: a
// count left above 0 would make an idle runtime wait for a timer that
// does not exist (a hang instead of a deadlock report), one below 0
// would report a deadlock while a timer is pending.
func TestNoTimerCountedAfterFixtures(t *testing.T) {
	var files []string
	for _, dir := range []string{"actors", "process"} {
		fs, _ := filepath.Glob(filepath.Join("../../fixtures", dir, "*.mr"))
		for _, f := range fs {
			src, err := os.ReadFile(f)
			if err == nil && timerUse.Match(src) {
				files = append(files, f)
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d fixtures with timers found under ../../fixtures", len(files))
	}
	configs := []sched.Config{{Schedulers: 1}, {Schedulers: 2, Steal: true}, {Schedulers: 4}}
	for i, f := range files {
		src, _ := os.ReadFile(f)
		img := load(t, string(src))
		for j, cfg := range configs {
			if raceEnabled && ((i+j)%3 != 0 || strings.Contains(f, "600k")) {
				// A third of the runs, and not the 600,000-step
				// workloads, under the race detector.
				continue
			}
			cfg.ReportDeadlock = true
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, res, rt := run(t, ctx, img, cfg)
			cancel()
			if res.Cancelled {
				t.Errorf("%s at %d schedulers: still running after 30 s (%d armed timers counted)", f, cfg.Schedulers, rt.Inv.ArmedTimers())
				continue
			}
			if res.Report != "" && !res.Deadlock {
				continue // a fatal fault stops processes wherever they are
			}
			if n := rt.Inv.ArmedTimers(); n != 0 {
				t.Errorf("%s at %d schedulers: the ended invocation counts %d armed timers", f, cfg.Schedulers, n)
			}
		}
	}
}
