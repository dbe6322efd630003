package engine

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/morrow-lang/morrow/runtime/gotune"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// settingsWriter records GOMAXPROCS and the GC target whenever the
// program prints, i.e. while it runs.
type settingsWriter struct {
	mu          sync.Mutex
	procs, gcPc []int
	limits      []int64
}

func (w *settingsWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.procs = append(w.procs, runtime.GOMAXPROCS(0))
	gc := debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	w.gcPc = append(w.gcPc, gc)
	w.limits = append(w.limits, debug.SetMemoryLimit(-1))
	return len(p), nil
}

// TestRunTunesGoRuntime: by default Run sets GOMAXPROCS to the scheduler
// count, GC percent 400 and a memory limit from its budgets while the
// program runs and restores them afterwards; KeepGoSettings and the GOGC/GOMAXPROCS environment leave
// them alone.
func TestRunTunesGoRuntime(t *testing.T) {
	p, err := vmtest.Assemble("func main\n CONST \"hi\"\n CALL_NATIVE println 1\n RETURN\n")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMAXPROCS", "")
	t.Setenv("GOMEMLIMIT", "")
	oldProcs, oldGC, oldLimit := runtime.GOMAXPROCS(3), debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	defer func() { runtime.GOMAXPROCS(oldProcs); debug.SetGCPercent(oldGC); debug.SetMemoryLimit(oldLimit) }()
	run := func(opts Options) *settingsWriter {
		t.Helper()
		w := &settingsWriter{}
		opts.Stdout = w
		if code := Run(context.Background(), p, opts); code != 0 || len(w.procs) == 0 {
			t.Fatalf("status %d, %d writes", code, len(w.procs))
		}
		if procs, gc := runtime.GOMAXPROCS(0), debug.SetGCPercent(100); procs != 3 || gc != 100 {
			t.Errorf("after Run: GOMAXPROCS %d GC percent %d, want 3 and 100 restored", procs, gc)
		}
		if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
			t.Errorf("after Run: memory limit %d, want none restored", limit)
		}
		return w
	}
	for _, n := range []int{0, 1, 2} {
		w := run(Options{Schedulers: n})
		if want := max(n, 1); w.procs[0] != want || w.gcPc[0] != 400 {
			t.Errorf("%d schedulers: GOMAXPROCS %d GC percent %d during the run, want %d and 400", n, w.procs[0], w.gcPc[0], want)
		}
	}
	// The memory limit comes from the stack and memory budgets
	// (defaults when 0).
	for _, c := range []struct{ stack, memory, want int64 }{
		{0, 0, gotune.Limit(DefaultStackBudget+DefaultMemoryBudget, 0)},
		{32 << 20, 1 << 20, gotune.MemoryBase + 99<<19},
	} {
		if w := run(Options{StackBudget: c.stack, MemoryBudget: c.memory}); w.limits[0] != c.want {
			t.Errorf("stack budget %d, memory budget %d: memory limit %d during the run, want %d", c.stack, c.memory, w.limits[0], c.want)
		}
	}
	if w := run(Options{Schedulers: 1, KeepGoSettings: true}); w.limits[0] != math.MaxInt64 {
		t.Errorf("KeepGoSettings: memory limit %d during the run, want none", w.limits[0])
	}
	if w := run(Options{Schedulers: 1, KeepGoSettings: true}); w.procs[0] != 3 || w.gcPc[0] != 100 {
		t.Errorf("KeepGoSettings: GOMAXPROCS %d GC percent %d during the run, want 3 and 100", w.procs[0], w.gcPc[0])
	}
	t.Setenv("GOGC", "100")
	t.Setenv("GOMAXPROCS", "3")
	if w := run(Options{Schedulers: 1}); w.procs[0] != 3 || w.gcPc[0] != 100 {
		t.Errorf("GOGC and GOMAXPROCS set: GOMAXPROCS %d GC percent %d during the run, want 3 and 100", w.procs[0], w.gcPc[0])
	}
}
