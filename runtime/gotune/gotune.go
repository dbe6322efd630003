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
// The raised target lets the heap grow to five times what was live after
// the last collection, garbage included. Deep recursion makes that
// dangerous: a growing stack leaves its old array behind as garbage and a
// finished process all of its stack, so with a gigabyte of stacks alive
// the heap could reach five. While a run is in progress, Acquire therefore
// also sets a soft memory limit derived from the run's budgets (the stack
// budget and the logical memory budget the engine enforces):
//
//	limit = MemoryBase + 1.5 × (the budgets of all runs in progress)
//
// Half as much again as the budgets: what they count may all be live,
// and the garbage a doubling stack leaves behind (its old array) is half
// the new one; with the stacks filling their budget the collector still
// has half of it to work in rather than collecting at every growth. The
// collector then runs before the heap passes the limit, and the runtime
// returns freed memory to the system as the heap nears it.
//
// A program whose own data outgrow the budgets must not get a collector
// running without pause against a limit its live heap exceeds: after
// every collection the limit is raised, if need be, to
//
//	RuntimeSlack + 1.5 × the live heap
//
// so such a program collects at most as often as with a GC target of
// 50% (whenever half the live heap has been allocated anew). The factor
// is not the default target's 2 because the live heap a collection finds
// includes what was allocated while it ran (a stack growing during the
// collection), which would lift the limit past the budgets' just when the
// stacks are busiest.
//
// The user's environment wins: with GOGC set the GC target is left alone,
// with GOMAXPROCS set GOMAXPROCS is, and with GOGC or GOMEMLIMIT set no
// memory limit is set (GOMEMLIMIT is read by the Go runtime itself and
// still caps the heap under the raised target). A limit an embedding
// program set itself (debug.SetMemoryLimit) is kept when it is lower.
//
// Entry points: SetGC, for a binary at start-up (the compiler benefits
// too), and Acquire, around one run of the engine. Runs may overlap (an
// embedding program, the test suites): Acquire counts them, sets
// GOMAXPROCS to the schedulers of all runs in progress (never below the
// largest run's, and above the process's own setting only for one run
// that asks for more), sets the memory limit from the budgets of all runs
// in progress, and when the last run ends restores the settings the
// process had before the first one.
package gotune

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// GCPercent is the garbage collector's target Morrow sets (Go's default
// is 100).
const GCPercent = 400

// MemoryBase is the fixed part of the soft memory limit: the Go
// runtime's own memory, the loaded program and the heap no budget
// counts.
const MemoryBase = 64 << 20

// RuntimeSlack is the Go runtime's memory beyond the heap (goroutine
// stacks, metadata) that the limit allows above the live heap's share.
const RuntimeSlack = 16 << 20

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
	budgets int64 // their budgets together
	// the settings before the first run in progress; gc < 0 when the
	// target was not changed, limit < 0 when the memory limit was not
	limit     int64
	procs, gc int
	// gen numbers the series of overlapping runs whose limit the
	// collection hook (afterGC) keeps; live is the heap found live by the
	// last collection of the series
	gen  int
	live int64
}

var state tuneState

// Acquire tunes the Go runtime for a run with the given number of
// schedulers whose budgets (the engine's stack and memory budgets
// together, in bytes; 0 for none) bound the memory it is meant to hold,
// and returns the function that ends the run's claim (call it exactly
// once, when the run has finished).
func Acquire(schedulers int, budgets int64) (release func()) {
	schedulers = max(schedulers, 1)
	budgets = max(budgets, 0)
	s := &state
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runs == 0 {
		s.procs = runtime.GOMAXPROCS(0)
		s.gc, s.limit = -1, -1
		if !userSet("GOGC") {
			s.gc = debug.SetGCPercent(GCPercent)
			if !userSet("GOMEMLIMIT") {
				s.limit = debug.SetMemoryLimit(-1)
				s.gen++
				s.live = 0
				armGCHook(s.gen)
			}
		}
	}
	s.runs++
	s.total += schedulers
	s.largest = append(s.largest, schedulers)
	s.budgets = addSat(s.budgets, budgets)
	s.setProcs()
	s.setLimit()
	var once sync.Once
	return func() { once.Do(func() { s.release(schedulers, budgets) }) }
}

func (s *tuneState) release(schedulers int, budgets int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.runs--
	s.total -= schedulers
	if s.budgets != math.MaxInt64 {
		s.budgets -= budgets
	}
	for i, n := range s.largest {
		if n == schedulers {
			s.largest = append(s.largest[:i], s.largest[i+1:]...)
			break
		}
	}
	if s.runs > 0 {
		s.setProcs()
		s.setLimit()
		return
	}
	s.budgets = 0
	if !userSet("GOMAXPROCS") {
		runtime.GOMAXPROCS(s.procs)
	}
	if s.gc >= 0 {
		debug.SetGCPercent(s.gc)
	}
	if s.limit >= 0 {
		debug.SetMemoryLimit(s.limit)
		s.gen++ // ends the collection hook's series
	}
}

// Limit returns the soft memory limit for runs whose budgets together
// are budgets bytes, after a collection that found live bytes live: half
// as much again as the budgets or as the live heap, whichever is more,
// plus the memory beyond them.
func Limit(budgets, live int64) int64 {
	return max(addSat(MemoryBase, addSat(budgets, budgets/2)), addSat(RuntimeSlack, addSat(live, live/2)))
}

// setLimit sets the memory limit for the runs in progress, unless
// Acquire left the limit alone; s.mu must be held.
func (s *tuneState) setLimit() {
	if s.limit < 0 {
		return
	}
	want := s.limit // an embedder's own, lower limit wins
	if s.budgets > 0 {
		want = min(want, Limit(s.budgets, s.live))
	}
	debug.SetMemoryLimit(want)
}

// addSat adds two non-negative byte counts, saturating.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// gcSentinel is an object whose collection signals that a garbage
// collection cycle has ended (it holds a pointer so that it is never
// a tiny allocation batched with others).
type gcSentinel struct{ _ *int }

// armGCHook makes the end of the next collection call afterGC for the
// series gen.
func armGCHook(gen int) {
	runtime.AddCleanup(new(gcSentinel), afterGC, gen)
}

// liveSample reads the heap the last collection found live.
var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// afterGC runs after each collection while runs of the series gen are
// in progress: it records the live heap, raises the memory limit above
// it when the budgets' limit is too low for it, and arms itself for the
// next collection.
func afterGC(gen int) {
	s := &state
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen || s.runs == 0 || s.limit < 0 {
		return
	}
	metrics.Read(liveSample)
	if v := liveSample[0].Value; v.Kind() == metrics.KindUint64 {
		s.live = int64(min(v.Uint64(), math.MaxInt64))
	}
	s.setLimit()
	armGCHook(gen)
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
