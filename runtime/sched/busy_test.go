package sched

import (
	"context"
	"io"
	"maps"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib"
)

// busyProgram's hold stands for a native that runs long and sleeper for
// the processes whose timers are armed on the scheduler that runs it.
// The test gives Int.to_float and Int.checked_neg bodies of its own:
// hold(k) stays in its native until the test releases k, and a sleeper
// reports its wake-up through checked_neg.
const busyProgram = `
fn sleeper(k: Int):
    Process.sleep(20)
    match Int.checked_neg(k):
        Some(_) -> ()
        None -> ()

fn hold(k: Int):
    let f = Int.to_float(k)
    println("released {f}")

fn main():
    ()
`

// TestTimersFireWhileSchedulerBusy: at 2 schedulers, with stealing and
// without, processes whose timers are armed on scheduler 0 wake (and
// run) while scheduler 0 is still in one long turn. Before, a
// scheduler's timers fired only between its own turns, so the sleepers
// waited for the native to end.
func TestTimersFireWhileSchedulerBusy(t *testing.T) {
	const sleepers = 8
	for _, steal := range []bool{true, false} {
		entered := make(chan int64, 2)
		release := map[int64]chan struct{}{1: make(chan struct{}), 2: make(chan struct{})}
		woke := make(chan int64, sleepers)
		natives := maps.Clone(stdlib.Natives())
		natives["Int.to_float"] = &native.Native{Name: "Int.to_float", Arity: 1, Args: []value.Kind{value.KInt},
			Fn: func(_ native.Host, args []value.Value) (value.Value, *fault.Fault) {
				k := args[0].AsInt()
				entered <- k
				<-release[k]
				return value.Float(float64(k)), nil
			}}
		natives["Int.checked_neg"] = &native.Native{Name: "Int.checked_neg", Arity: 1, Args: []value.Kind{value.KInt},
			Fn: func(_ native.Host, args []value.Value) (value.Value, *fault.Fault) {
				woke <- args[0].AsInt()
				return value.None(), nil
			}}
		u, err := compiler.Build("busy.mr", []byte(busyProgram))
		if err != nil || u.Verified == nil {
			t.Fatalf("busy.mr does not build: %v %v", err, u.Diags)
		}
		img, err := vm.Load(u.Verified, natives)
		if err != nil {
			t.Fatal(err)
		}
		rt := New(img, NewOutput(io.Discard), Config{Schedulers: 2, Steal: steal})
		spawnOn := func(sched int, fn string, k int64) {
			t.Helper()
			for i, f := range img.Prog.Functions {
				if f.Name == fn {
					st, err := vm.NewState(img, i, []value.Value{value.Int(k)})
					if err != nil {
						t.Fatal(err)
					}
					st.SetStackBudget(rt.Stack)
					rt.scheds[sched].push(rt.Inv.NewProcess(proc.KindIsolated, st, sched))
					return
				}
			}
			t.Fatalf("no function %s", fn)
		}
		// Scheduler 1 holds hold(1) first, so that it steals nothing
		// while scheduler 0 runs the sleepers (each arms its timer there
		// and parks) and then enters hold(2).
		spawnOn(1, "hold", 1)
		for k := int64(1); k <= sleepers; k++ {
			spawnOn(0, "sleeper", k)
		}
		spawnOn(0, "hold", 2)
		root, err := vm.NewState(img, img.Prog.Entry, nil)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan Result, 1)
		go func() { done <- rt.Run(context.Background(), root) }()
		for range 2 {
			<-entered
		}
		close(release[1]) // scheduler 1 is free; scheduler 0 stays in hold(2)
		limit := time.After(5 * time.Second)
		for n := 0; n < sleepers; n++ {
			select {
			case <-woke:
			case <-limit:
				t.Errorf("steal %v: %d of %d sleepers woke while scheduler 0 was busy (their 20 ms timers were due)", steal, n, sleepers)
				n = sleepers
			}
		}
		close(release[2])
		if res := <-done; res.Report != "" || !res.RootDone {
			t.Fatalf("steal %v: %+v", steal, res)
		}
		if n := rt.Inv.ArmedTimers(); n != 0 {
			t.Errorf("steal %v: %d armed timers counted at the end", steal, n)
		}
	}
}
