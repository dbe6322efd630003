package sched_test

import (
	"context"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// killInCleanup (TestExitSignals): process operations are not allowed
// in cleanup (docs/reference/checks.md#guards-and-defer), so a Kill
// reaches a running cleanup only from another process: here while
// the cleanup is preempted. The victim tells its killer just before it
// returns and starts its cleanup; at one scheduler the killer can only
// run once the cleanup has begun (with more schedulers the Kill could
// also land before it, which skips the whole cleanup, so the expected
// output is only fixed at one scheduler).
const killInCleanup = `fn spin(n: Int) -> Int:
    if n == 0: 0 else: spin(n - 1)

fn slow_cleanup():
    println("victim: cleanup spun {spin(300000)}")
    println("victim: running cleanup done")

fn victim(boss: Pid(())):
    defer println("victim: cleanup not begun (must not print)")
    defer slow_cleanup()
    let own: Pid(()) = Process.self()
    match send(boss, ()):
        Ok(()) -> ()
        Err(_) -> println("victim: send failed")
    println("victim: returning")

fn observer():
    let own: Pid(()) = Process.self()
    let spawned: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(() -> victim(own))
    match spawned:
        Ok((p, m)) ->
            receive:
                () -> ()
            match Process.signal_exit(Process.id(p), Process.Kill):
                Ok(()) -> ()
                Err(_) -> println("kill failed")
            receive_event:
                Process.Down(x, _, reason) if x == m -> println("down: {show(reason)}")
        Err(_) -> println("spawn failed")
` + observerMain

// spawnBoth is child, and spawn_both, which tries spawn_link and
// spawn_monitor of it and prints what each returned; intMain spawns the
// observer with an inbox of Int.
const spawnBoth = `fn child():
    println("child ran")

fn spawn_both():
    let a: Result(Pid(()), Process.Error) = Process.spawn_link(child)
    match a:
        Ok(_) -> println("spawn_link: unexpected Ok")
        Err(e) -> println("spawn_link: Err({show(e)})")
    let b: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(child)
    match b:
        Ok(_) -> println("spawn_monitor: unexpected Ok")
        Err(e) -> println("spawn_monitor: Err({show(e)})")
`

const intMain = `
fn main():
    let o: Result(Pid(Int), Process.Error) = Process.spawn(observer)
    match o:
        Ok(_) -> ()
        Err(e) -> println("spawn failed: {show(e)}")
`

const atomicSpawn = `fn fill(id: ProcessId, n: Int) -> Int:
    match Process.monitor(id):
        Ok(_) -> fill(id, n + 1)
        Err(_) -> n

` + spawnBoth + `
fn observer():
    let own: Pid(Int) = Process.self()
    let first: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(() -> ())
    let Ok((w, m)) = first else: Process.exit(Process.Failure("spawn failed"))
    receive_event:
        Process.Down(r, _, _) if r == m -> ()
    println("monitors: {fill(Process.id(w), 0)}")
    spawn_both()
    receive_event:
        Process.Down(_, _, reason) -> println("consumed a Down: {show(reason)}")
    let c: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(child)
    match c:
        Ok((_, cm)) ->
            receive_event:
                Process.Down(r, _, reason) if r == cm -> println("child down: {show(reason)}")
        Err(e) -> println("spawn_monitor: Err({show(e)})")
` + intMain

// spawn_monitor and spawn_link are atomic: when the relationship cannot
// be admitted (the parent holds 256 reservations) the child never runs,
// nothing is published and its live slot is freed; once a reservation
// is released the same spawn succeeds.
func TestAtomicSpawnRollback(t *testing.T) {
	img := load(t, atomicSpawn)
	want := "monitors: 256\nspawn_link: Err(ResourceLimit)\nspawn_monitor: Err(ResourceLimit)\nconsumed a Down: NoProcess\nchild ran\nchild down: Normal\n"
	cfgs := everyPlacement(1, 2, 4)
	for i := range cfgs {
		cfgs[i].Trace = &strings.Builder{}
	}
	expect(t, img, want, cfgs, func(cfg sched.Config, rt *sched.Runtime) {
		if tr := cfg.Trace.(*strings.Builder).String(); strings.Count(tr, "discard ") != 2 {
			t.Errorf("trace does not show the two rolled-back spawns:\n%s", tr)
		}
		if live, _ := rt.Inv.Live(); live != 0 {
			t.Errorf("%d processes live after the run", live)
		}
	})
}

// At the live-process limit spawn_link and spawn_monitor return
// ResourceLimit and publish nothing.
func TestAtomicSpawnLiveLimit(t *testing.T) {
	img := load(t, spawnBoth+`
fn observer():
    let own: Pid(Int) = Process.self()
    spawn_both()
`+intMain)
	var out strings.Builder
	o := sched.NewOutput(&out)
	rt := sched.New(img, o, sched.Config{Schedulers: 2, Steal: true})
	rt.Inv.MaxLive = 1
	st, err := vm.NewState(img, img.Prog.Entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Run(context.Background(), st)
	o.Flush()
	if want := "spawn_link: Err(ResourceLimit)\nspawn_monitor: Err(ResourceLimit)\n"; out.String() != want || res.Report != "" {
		t.Fatalf("%q %q", out.String(), res.Report)
	}
	if c, _ := rt.Inv.Reservations(); c != 0 {
		t.Fatalf("%d reservations left", c)
	}
}
