package sched

import (
	"context"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// Test invocations (`morrow test`, docs/testing.md).
//
// RunTest runs one test function as an isolated process of an invocation
// of its own, with no root context: the test may receive, call, monitor
// and link like any process spawned by Process.spawn. The runtime
// observes it as a monitor would: when it retires, for any reason, the
// invocation ends, and the processes it left behind are killed (their
// cleanup runs, as after a cancellation). Since nothing outside the
// invocation can wake a process of a test (it has no host port), an
// invocation in which every process waits with no timer pending is a
// deadlock: the run stops with Result.Deadlock instead of waiting.

// TestEnd is how the test process of RunTest ended.
type TestEnd struct {
	// Ended is set once the test process retired; Reason is its terminal
	// reason (a Process.ExitReason value).
	Ended  bool
	Reason value.Value
	// Returned is set when its function returned Value (reason Normal).
	Returned bool
	Value    value.Value
	// Fault is the checked fault that retired it, if one did.
	Fault *fault.Fault
}

// RunTest runs st, a test function's State, as the invocation's one
// initial process, until that process retires, ctx is cancelled, a fatal
// failure, or a deadlock. Result.Test says how the test process ended.
func (rt *Runtime) RunTest(ctx context.Context, st *vm.State) Result {
	st.SetStackBudget(rt.Stack)
	rt.mu.Lock()
	rt.rootDone = true // no root: the invocation ends with its processes
	rt.testEnd = &TestEnd{}
	rt.mu.Unlock()
	p := rt.Inv.NewProcess(proc.KindIsolated, st, 0)
	if p == nil {
		// A live-process limit below one: the test cannot start.
		return Result{Report: "morrow: runtime error: " + fault.Resource.Text() + "\n", Test: &TestEnd{}}
	}
	rt.test = p
	p.OnRetire = rt.testRetired
	rt.trace("spawn %d test", p.Gen())
	rt.scheds[0].push(p)
	res := rt.runAll(ctx)
	rt.mu.Lock()
	end := *rt.testEnd
	rt.mu.Unlock()
	res.Test = &end
	// Whatever the test left alive is killed: its cleanup runs.
	rt.cleanupTest()
	return res
}

// TestCleanupSteps bounds the VM steps that the cleanup of the processes
// a test left behind may take together, so that a cleanup that never
// ends (a defer that loops) cannot keep a test from ending.
const TestCleanupSteps = 1_000_000

// cleanupTest runs the cleanup of every process still alive once a test
// invocation has stopped, as cleanupAll does after a cancellation, within
// TestCleanupSteps.
func (rt *Runtime) cleanupTest() {
	var steps int64
	for _, p := range rt.Inv.Processes() {
		st := p.State
		if st == nil || st.Finished() {
			continue
		}
		st.Abort(&fault.Fault{Msg: "interrupted", Aborted: true})
		h := &host{s: rt.scheds[0], p: p}
		for !st.Finished() {
			o := vm.Run(st, h, 1<<16)
			h.settle()
			if steps += int64(o.Steps); steps > TestCleanupSteps {
				return
			}
			if o.Status == vm.StatusPark {
				break // a cleanup that waits for a message gets none
			}
		}
	}
}

// testReturned records the value the test function returned.
func (rt *Runtime) testReturned(v value.Value) {
	rt.mu.Lock()
	rt.testEnd.Returned, rt.testEnd.Value = true, v
	rt.mu.Unlock()
}

// testFaulted records the checked fault that retires the test process.
func (rt *Runtime) testFaulted(f *fault.Fault) {
	rt.mu.Lock()
	rt.testEnd.Fault = f
	rt.mu.Unlock()
}

// testRetired ends a test invocation once its test process retired
// (proc.Process.OnRetire).
func (rt *Runtime) testRetired(reason value.Value) {
	rt.mu.Lock()
	rt.testEnd.Ended, rt.testEnd.Reason = true, reason
	rt.stopLocked()
	rt.mu.Unlock()
}
