// Package gotune sets the Go runtime for Morrow: the garbage collector's
// target and GOMAXPROCS (docs/performance.md, "Go runtime settings").
//
// Morrow programs allocate many short-lived values (messages, frames,
// tuples) over a small live heap, so Go's default target (a collection
// whenever the heap has grown 100% since the last one) collects very
// often; GCPercent (400) measured -17% on ping-pong and ring and took the
// compiler from 88 k to 154 k lines/s. Each scheduler is one goroutine
// that runs processes back to back, so more Ps than schedulers only adds
// idle Ps that the Go scheduler wakes and parks (-16% to -20% at one
// scheduler measured with GOMAXPROCS equal to the scheduler count).
//
// The user's environment wins: with GOGC set the GC target is left alone,
// with GOMAXPROCS set GOMAXPROCS is. GOMEMLIMIT is read by the Go runtime
// itself and still caps the heap under the raised target.
//
// Entry points: SetGC, for a binary at start-up (the compiler benefits
// too), and Acquire, around one run of the engine. Runs may overlap (an
// embedding program, the test suites): Acquire counts them, sets
// GOMAXPROCS to the schedulers of all runs in progress (never below the
// largest run's, and above the process's own setting only for one run
// that asks for more), and when the last run ends restores the settings
// the process had before the first one.
package gotune

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// GCPercent is the garbage collector's target Morrow sets (Go's default
// is 100).
const GCPercent = 400

// userSet reports whether the user set the environment variable (Go treats
// an empty value as unset).
func userSet(name string) bool { return os.Getenv(name) != "" }

// SetGC sets the garbage collector's target to GCPercent unless the GOGC
// environment variable is set. It reports whether it changed the target.
func SetGC() bool {
	if userSet("GOGC") {
		return false
	}
	debug.SetGCPercent(GCPercent)
	return true
}

// tuneState counts the runs in progress.
type tuneState struct {
	mu      sync.Mutex
	runs    int // runs in progress
	total   int // their schedulers
	largest []int
	// the settings before the first run in progress; gc < 0 when the
	// target was not changed
	procs, gc int
}

var state tuneState

// Acquire tunes the Go runtime for a run with the given number of
// schedulers and returns the function that ends the run's claim (call it
// exactly once, when the run has finished).
func Acquire(schedulers int) (release func()) {
	schedulers = max(schedulers, 1)
	s := &state
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == 0 {
		s.procs = runtime.GOMAXPROCS(0)
		s.gc = -1
		if !userSet("GOGC") {
			s.gc = debug.SetGCPercent(GCPercent)
		}
	}
	s.runs++
	s.total += schedulers
	s.largest = append(s.largest, schedulers)
	s.setProcs()
	var once sync.Once
	return func() { once.Do(func() { s.release(schedulers) }) }
}

func (s *tuneState) release(schedulers int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs--
	s.total -= schedulers
	for i, n := range s.largest {
		if n == schedulers {
			s.largest = append(s.largest[:i], s.largest[i+1:]...)
			break
		}
	}
	if s.runs > 0 {
		s.setProcs()
		return
	}
	if !userSet("GOMAXPROCS") {
		runtime.GOMAXPROCS(s.procs)
	}
	if s.gc >= 0 {
		debug.SetGCPercent(s.gc)
	}
}

// setProcs sets GOMAXPROCS for the runs in progress: their schedulers
// together, within the process's own setting, but at least the largest
// run's.
func (s *tuneState) setProcs() {
	if userSet("GOMAXPROCS") {
		return
	}
	largest := 0
	for _, n := range s.largest {
		largest = max(largest, n)
	}
	want := max(largest, min(s.total, s.procs))
	if runtime.GOMAXPROCS(0) != want {
		runtime.GOMAXPROCS(want)
	}
}
