package gotune

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// gcPercent reads the current target without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// clean starts a test from known settings and restores them after it.
func clean(t *testing.T, procs, gc int) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMAXPROCS", "")
	oldProcs := runtime.GOMAXPROCS(procs)
	oldGC := debug.SetGCPercent(gc)
	t.Cleanup(func() {
		runtime.GOMAXPROCS(oldProcs)
		debug.SetGCPercent(oldGC)
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
