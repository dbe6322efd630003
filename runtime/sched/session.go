package sched

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"cmp"
	"context"
	"slices"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// Sessions (Config.Session): one deterministic runtime that runs a
// sequence of roots, one per entry of `morrow repl`.
//
// RunEntry makes a new root process of the State it is given and runs
// the deterministic loop (det.go) until nothing can act: the root has
// finished and every process still alive waits in receive with no timer
// pending, because a pending timer is fired at once by moving the
// virtual clock to its deadline. Those waiting processes stay in the
// invocation for the next entry instead of being a deadlock. A fault of
// the root ends only the root (Result.RootFault); a failure that would
// end a whole invocation (a legacy actor's fault, the step limit) ends
// the entry with Result.Fatal, and the caller is expected to StopAll.
// Config.MaxSteps bounds each entry, not the session.
//
// StopAll cancels every process still alive: each one, in the order
// they were created, is unwound with its cleanup (defer) run, as a
// cancelled invocation does, and then retired.

// RunEntry runs root as the root of the next entry of a session runtime.
func (rt *Runtime) RunEntry(ctx context.Context, root *vm.State) Result {
	rt.mu.Lock()
	rt.res = Result{}
	rt.rootDone = false
	rt.mu.Unlock()
	rt.entryOver.Store(false)
	rt.steps.Store(0)
	rt.det.steps, rt.det.decisions = 0, 0
	root.SetStackBudget(rt.Stack)
	rt.root = rt.Inv.NewProcess(proc.KindRoot, root, 0)
	rt.trace("spawn %d root", rt.root.Gen())
	rt.scheds[0].push(rt.root)
	rt.runDet(ctx)
	rt.Out.Flush()
	rt.mu.Lock()
	res := rt.res
	rt.mu.Unlock()
	res.Decisions, res.Steps = rt.det.decisions, rt.det.steps
	if statusOf(rt.root) != proc.Done {
		rt.finish(rt.root)
	}
	rt.Out.Flush()
	return res
}

// rootFault ends a session's root that faulted (its cleanup has run
// while the VM unwound); the other processes go on.
func (rt *Runtime) rootFault(p *proc.Process, f *fault.Fault) {
	rt.Out.Flush()
	rt.mu.Lock()
	rt.res.Report = f.Report()
	rt.res.RootFault = true
	rt.mu.Unlock()
	rt.Inv.Retire(p, ptype.FaultReason(f.Code))
	rt.rootFinished(value.Unit)
}

// Live returns the processes of a session that are still alive, other
// than the root, in the order they were created.
func (rt *Runtime) Live() []*proc.Process {
	var out []*proc.Process
	for _, p := range rt.Inv.Processes() {
		if p.Kind != proc.KindRoot && p.Kind != proc.KindPort && statusOf(p) != proc.Done {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *proc.Process) int { return cmp.Compare(a.Gen(), b.Gen()) })
	return out
}

// StopAll cancels every live process of a session, running its cleanup,
// and returns how many there were.
func (rt *Runtime) StopAll() int {
	live := rt.Live()
	for _, p := range live {
		rt.finish(p)
	}
	rt.Out.Flush()
	rt.entryOver.Store(false)
	return len(live)
}

// finish unwinds p's State with its cleanup and retires it.
func (rt *Runtime) finish(p *proc.Process) {
	rt.steps.Store(0)
	if st := p.State; st != nil && !st.Finished() {
		rt.unwind(p, &fault.Fault{Msg: "stopped", Aborted: true})
	}
	p.Exiting(true)
	rt.Inv.Retire(p, ptype.Reason(ptype.ReasonShutdown, value.Unit))
}

func statusOf(p *proc.Process) proc.Status {
	p.Lock()
	defer p.Unlock()
	return p.StatusLocked()
}
