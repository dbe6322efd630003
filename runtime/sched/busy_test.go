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
// run) while scheduler 0 is still in one long turn, whether scheduler 1
// was busy when the timers were armed or already asleep. Before, a
// scheduler's timers fired only between its own turns, so the sleepers
// waited for the native to end.
func TestTimersFireWhileSchedulerBusy(t *testing.T) {
	for _, c := range []struct{ steal, asleep bool }{{true, false}, {false, false}, {false, true}} {
		testTimersWhileBusy(t, c.steal, c.asleep)
	}
}

// testTimersWhileBusy runs the sleepers on scheduler 0 ahead of hold(2).
// Unless asleep, scheduler 1 is in hold(1) meanwhile, so that it steals
// nothing, and is released once hold(2) holds scheduler 0; with asleep
// (no stealing), scheduler 0 first waits in hold(3) until scheduler 1
// sleeps with nothing to do.
func testTimersWhileBusy(t *testing.T, steal, asleep bool) {
	const sleepers = 8
	entered := make(chan int64, 3)
	release := map[int64]chan struct{}{1: make(chan struct{}), 2: make(chan struct{}), 3: make(chan struct{})}
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
	if asleep {
		spawnOn(0, "hold", 3)
	} else {
		spawnOn(1, "hold", 1)
	}
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
	if asleep {
		<-entered // hold(3)
		for s1, give := rt.scheds[1], time.Now().Add(10*time.Second); ; time.Sleep(time.Millisecond) {
			s1.mu.Lock()
			sl := s1.sleeping
			s1.mu.Unlock()
			if sl {
				break
			}
			if time.Now().After(give) {
				t.Fatal("scheduler 1 does not go to sleep with nothing to do")
			}
		}
		close(release[3])
		<-entered // hold(2), after the sleepers armed their timers
	} else {
		<-entered
		<-entered
		close(release[1]) // scheduler 1 is free; scheduler 0 stays in hold(2)
	}
	limit := time.After(5 * time.Second)
	for n := 0; n < sleepers; n++ {
		select {
		case <-woke:
		case <-limit:
			t.Errorf("steal %v, asleep %v: %d of %d sleepers woke while scheduler 0 was busy (their 20 ms timers were due)", steal, asleep, n, sleepers)
			n = sleepers
		}
	}
	close(release[2])
	if res := <-done; res.Report != "" || !res.RootDone {
		t.Fatalf("steal %v, asleep %v: %+v", steal, asleep, res)
	}
	if n := rt.Inv.ArmedTimers(); n != 0 {
		t.Errorf("steal %v, asleep %v: %d armed timers counted at the end", steal, asleep, n)
	}
}
