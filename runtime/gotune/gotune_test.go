package gotune

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the current target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// memoryLimit reads the current soft memory limit without changing it.
func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

// clean starts a test from known settings (no memory limit) and restores
// them after it.
func clean(t *testing.T, procs, gc int) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMAXPROCS", "")
	t.Setenv("GOMEMLIMIT", "")
	oldProcs := runtime.GOMAXPROCS(procs)
	oldGC := debug.SetGCPercent(gc)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(oldProcs)
		debug.SetGCPercent(oldGC)
		debug.SetMemoryLimit(oldLimit)
	})
}

func TestSetGC(t *testing.T) {
	clean(t, 2, 100)
	if !SetGC() || gcPercent() != GCPercent {
		t.Errorf("SetGC left GC percent %d, want %d", gcPercent(), GCPercent)
	}
	debug.SetGCPercent(150)
	t.Setenv("GOGC", "150")
	if SetGC() || gcPercent() != 150 {
		t.Errorf("SetGC with GOGC set changed the target to %d", gcPercent())
	}
}

func TestAcquireOneRun(t *testing.T) {
	clean(t, 3, 100)
	release := Acquire(1, 0)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d during a 1-scheduler run, want 1", got)
	}
	if got := gcPercent(); got != GCPercent {
		t.Errorf("GC percent %d during a run, want %d", got, GCPercent)
	}
	release()
	release() // a second call is harmless
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Errorf("GOMAXPROCS %d after the run, want 3 restored", got)
	}
	if got := gcPercent(); got != 100 {
		t.Errorf("GC percent %d after the run, want 100 restored", got)
	}
	// one run may ask for more schedulers than the process had
	release = Acquire(5, 0)
	if got := runtime.GOMAXPROCS(0); got != 5 {
		t.Errorf("GOMAXPROCS %d during a 5-scheduler run, want 5", got)
	}
	release()
}

func TestAcquireOverlappingRuns(t *testing.T) {
	clean(t, 4, 100)
	a := Acquire(1, 0)
	b := Acquire(2, 0)
	if got := runtime.GOMAXPROCS(0); got != 3 {
		t.Errorf("GOMAXPROCS %d for runs of 1 and 2 schedulers, want 3", got)
	}
	c := Acquire(2, 0)
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("GOMAXPROCS %d for 5 schedulers in a process of 4, want 4", got)
	}
	b()
	c()
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS %d with one 1-scheduler run left, want 1", got)
	}
	if got := gcPercent(); got != GCPercent {
		t.Errorf("GC percent %d while a run is in progress, want %d", got, GCPercent)
	}
	a()
	if got, gc := runtime.GOMAXPROCS(0), gcPercent(); got != 4 || gc != 100 {
		t.Errorf("after the last run: GOMAXPROCS %d GC percent %d, want 4 and 100", got, gc)
	}
}

func TestAcquireLeavesUserSettings(t *testing.T) {
	clean(t, 3, 150)
	t.Setenv("GOGC", "150")
	t.Setenv("GOMAXPROCS", "3")
	release := Acquire(1, 0)
	if got, gc := runtime.GOMAXPROCS(0), gcPercent(); got != 3 || gc != 150 {
		t.Errorf("with GOGC and GOMAXPROCS set: GOMAXPROCS %d GC percent %d, want 3 and 150", got, gc)
	}
	release()
	if got, gc := runtime.GOMAXPROCS(0), gcPercent(); got != 3 || gc != 150 {
		t.Errorf("after the run: GOMAXPROCS %d GC percent %d, want 3 and 150", got, gc)
	}
}

// TestAcquireSetsMemoryLimit: while runs are in progress the soft memory
// limit is MemoryBase plus 1.5 times their budgets together; it follows the
// runs that start and end, and the last one restores the limit the
// process had.
func TestAcquireSetsMemoryLimit(t *testing.T) {
	clean(t, 2, 100)
	a := Acquire(1, 100<<20)
	if got, want := memoryLimit(), int64(MemoryBase+150<<20); got != want {
		t.Errorf("memory limit %d during a run with budgets of 100 MiB, want %d", got, want)
	}
	b := Acquire(1, 50<<20)
	if got, want := memoryLimit(), int64(MemoryBase+225<<20); got != want {
		t.Errorf("memory limit %d during runs with budgets of 100 and 50 MiB, want %d", got, want)
	}
	a()
	if got, want := memoryLimit(), int64(MemoryBase+75<<20); got != want {
		t.Errorf("memory limit %d with the 50 MiB run left, want %d", got, want)
	}
	b()
	if got := memoryLimit(); got != math.MaxInt64 {
		t.Errorf("memory limit %d after the last run, want none (%d) restored", got, int64(math.MaxInt64))
	}
	// Budgets too large to add up: no overflow, no limit to speak of.
	c := Acquire(1, math.MaxInt64)
	d := Acquire(1, math.MaxInt64)
	if got := memoryLimit(); got != math.MaxInt64 {
		t.Errorf("memory limit %d for unbounded budgets, want %d", got, int64(math.MaxInt64))
	}
	c()
	d()
	// An embedding program's own, lower limit is kept, and restored.
	debug.SetMemoryLimit(80 << 20)
	e := Acquire(1, 100<<20)
	if got := memoryLimit(); got != 80<<20 {
		t.Errorf("memory limit %d under an embedder's 80 MiB, want it kept", got)
	}
	e()
	if got := memoryLimit(); got != 80<<20 {
		t.Errorf("memory limit %d after the run, want the embedder's 80 MiB", got)
	}
}

// TestAcquireLeavesMemoryLimitToTheUser: with GOGC or GOMEMLIMIT set no
// limit is set.
func TestAcquireLeavesMemoryLimitToTheUser(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		clean(t, 2, 100)
		t.Setenv(env, "1000")
		release := Acquire(1, 100<<20)
		if got := memoryLimit(); got != math.MaxInt64 {
			t.Errorf("%s set: memory limit %d during a run, want none", env, got)
		}
		release()
	}
}

// TestMemoryLimitFollowsALargeLiveHeap: when the live heap outgrows the
// budgets, the limit is raised after a collection to half as much again
// as the live heap, so that the collector does not run without pause.
func TestMemoryLimitFollowsALargeLiveHeap(t *testing.T) {
	clean(t, 2, 100)
	release := Acquire(1, 1<<20)
	defer release()
	if got, want := memoryLimit(), int64(MemoryBase+3<<19); got != want {
		t.Fatalf("memory limit %d, want %d", got, want)
	}
	live := make([]*[1 << 20]byte, 160) // 160 MiB the program keeps
	for i := range live {
		live[i] = new([1 << 20]byte)
	}
	want := Limit(1<<20, 160<<20)
	deadline := time.Now().Add(20 * time.Second)
	for memoryLimit() < want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := memoryLimit(); got < want {
		t.Errorf("memory limit %d with 160 MiB live, want at least %d", got, want)
	}
	runtime.KeepAlive(live)
	if Limit(1<<30, 0) != MemoryBase+3<<29 || Limit(1<<20, 1<<30) != RuntimeSlack+3<<29 {
		t.Errorf("Limit(1 GiB, 0) = %d, Limit(1 MiB, 1 GiB) = %d", Limit(1<<30, 0), Limit(1<<20, 1<<30))
	}
}
