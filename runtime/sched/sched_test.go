package sched_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib"
)

func load(t testing.TB, src string) *vm.Image {
	t.Helper()
	img, err := vm.Load(verified(t, testrun.Compile(t, "t.mr", src)), stdlib.Natives())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// loadFile is load of the Morrow file at path.
func loadFile(t testing.TB, path string) *vm.Image {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return load(t, string(src))
}

// verified verifies a compiled program for vm.Load.
func verified(t testing.TB, p *bytecode.Program) *bytecode.Verified {
	t.Helper()
	v, err := bytecode.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func run(t testing.TB, ctx context.Context, img *vm.Image, cfg sched.Config) (string, sched.Result, *sched.Runtime) {
	t.Helper()
	var out bytes.Buffer
	o := sched.NewOutput(&out)
	rt := sched.New(img, o, cfg)
	st, err := vm.NewState(img, img.Prog.Entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := rt.Run(ctx, st)
	o.Flush()
	return out.String(), res, rt
}

const chatter = `
fn sent(r: Result((), Int)):
    match r:
        Ok(()) -> ()
        Err(code) -> println("send failed: {code}")

fn worker(k: Int, left: Int):
    if left > 0:
        println("worker {k}: {left}")
        worker(k: k, left: left - 1)

fn main():
    for k in 0..6:
        let p: Pid(()) = spawn(() -> worker(k: k, left: 300))
`

// With one scheduler the interleaving of unsynchronised processes is a
// function of the program alone.
func TestOneSchedulerIsDeterministic(t *testing.T) {
	img := load(t, chatter)
	first, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Budget: 50})
	if res.Report != "" || !res.RootDone {
		t.Fatalf("result %+v", res)
	}
	if strings.Count(first, "\n") != 6*300 {
		t.Fatalf("got %d lines", strings.Count(first, "\n"))
	}
	// The small budget interleaves the workers.
	if strings.Index(first, "worker 1: 300") > strings.Index(first, "worker 0: 1\n") {
		t.Fatal("no interleaving: worker 0 ran to completion before worker 1 started")
	}
	for i := 0; i < 5; i++ {
		again, _, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Budget: 50})
		if again != first {
			t.Fatal("two runs with one scheduler printed different output")
		}
	}
}

// A busy loop is preempted: with one scheduler the quick process finishes
// while the loop is still running.
func TestReductionPreemption(t *testing.T) {
	img := load(t, `
fn spin(n: Int) -> Int:
    if n == 0: 0 else: spin(n - 1)

fn busy():
    println("busy: {spin(3000000)}")

fn quick():
    println("quick: done")

fn main():
    let a: Pid(()) = spawn(busy)
    let b: Pid(()) = spawn(quick)
`)
	out, _, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1})
	if out != "quick: done\nbusy: 0\n" {
		t.Fatalf("output %q", out)
	}
}

// busyFns is busy(n), a process that only counts n steps down.
const busyFns = `
fn spin(n: Int) -> Int:
    if n == 0: 0 else: spin(n - 1)

fn busy(n: Int):
    let x = spin(n)
`

const spread = busyFns + `
fn parent():
    for k in 0..16:
        let p: Pid(()) = spawn(() -> busy(200000))

fn main():
    let p: Pid(()) = spawn(parent)
`

// Placement (docs/reference/runtime.md#execution-model): without stealing spawned processes spread
// over the schedulers and stay there; with stealing they start on the
// parent's scheduler and only stealing moves them.
func TestStealing(t *testing.T) {
	img := load(t, spread)
	_, _, rt := run(t, context.Background(), img, sched.Config{Schedulers: 4, Budget: 200})
	for i, n := range rt.Turns() {
		if n == 0 {
			t.Fatalf("without stealing scheduler %d ran nothing: %v", i, rt.Turns())
		}
	}
	_, _, rt = run(t, context.Background(), img, sched.Config{Schedulers: 4, Steal: true, Budget: 200})
	turns := rt.Turns()
	others := turns[1] + turns[2] + turns[3]
	if others == 0 {
		t.Fatalf("with stealing no other scheduler ran a turn: %v", turns)
	}
}

// Without stealing the root's spawns go round-robin over the schedulers.
func TestRootSpawnsRoundRobin(t *testing.T) {
	img := load(t, busyFns+`
fn main():
    for k in 0..8:
        let p: Pid(()) = spawn(() -> busy(10000))
`)
	_, _, rt := run(t, context.Background(), img, sched.Config{Schedulers: 4, Budget: 100})
	for i, n := range rt.Turns() {
		if n == 0 {
			t.Fatalf("scheduler %d ran nothing: %v", i, rt.Turns())
		}
	}
}

// A receive timeout parks the process on a timer; nothing polls it.
func TestTimerWakesParkedProcess(t *testing.T) {
	img := load(t, `
fn sleeper():
    let own: Pid(()) = Process.self()
    receive:
        () -> println("unexpected")
        _ after 60 -> println("woke")

fn main():
    let p: Pid(()) = spawn(sleeper)
`)
	start := time.Now()
	out, res, rt := run(t, context.Background(), img, sched.Config{Schedulers: 2})
	if out != "woke\n" || res.Report != "" {
		t.Fatalf("out %q result %+v", out, res)
	}
	if el := time.Since(start); el < 60*time.Millisecond {
		t.Fatalf("timeout fired after %v", el)
	}
	var total int64
	for _, n := range rt.Turns() {
		total += n
	}
	if total > 4 {
		t.Fatalf("%d turns: the parked process was polled", total)
	}
}

// Cancelling the context wakes idle schedulers and ends the invocation
// even while an isolated process waits forever.
func TestCancelWakesParkedSchedulers(t *testing.T) {
	img := load(t, `
fn waiter():
    defer println("waiter: cleanup")
    println("waiter: parked")
    let own: Pid(()) = Process.self()
    receive:
        () -> ()

fn main():
    let r: Result(Pid(()), Process.Error) = Process.spawn(waiter)
    match r:
        Ok(_) -> ()
        Err(e) -> println("spawn failed")
`)
	// Cancel once the waiter has run up to its receive (a fixed delay
	// raced with a slow start under load: nothing had run yet).
	ctx, cancel := context.WithCancel(context.Background())
	w := &signalWriter{want: "waiter: parked\n", seen: make(chan struct{})}
	go func() {
		<-w.seen
		cancel()
	}()
	done := make(chan struct{})
	var res sched.Result
	go func() {
		st, err := vm.NewState(img, img.Prog.Entry, nil)
		if err != nil {
			panic(err)
		}
		res = sched.New(img, sched.NewDirectOutput(w), sched.Config{Schedulers: 4}).Run(ctx, st)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("cancellation did not end the invocation")
	}
	if out := w.String(); !res.Cancelled || out != "waiter: parked\nwaiter: cleanup\n" {
		t.Fatalf("out %q result %+v", out, res)
	}
}

// signalWriter collects output and closes seen once it holds want.
type signalWriter struct {
	mu   sync.Mutex
	b    bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// A legacy-only program whose actors all wait, with no timer, deadlocks.
func TestDeadlockDetection(t *testing.T) {
	img := load(t, `
fn waiter():
    let own: Pid(Int) = Process.self()
    receive:
        n -> ()

fn main():
    let a: Pid(Int) = spawn(waiter)
    let b: Pid(Int) = spawn(waiter)
`)
	for _, n := range []int{1, 3} {
		_, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: n, Steal: true})
		if !strings.Contains(res.Report, "actor deadlock: no runnable actor or pending timeout") {
			t.Fatalf("%d schedulers: result %+v", n, res)
		}
	}
}

// observerMain is the main of the programs that do their work in an
// observer actor, spawned with an inbox of Unit.
const observerMain = `
fn main():
    let o: Result(Pid(()), Process.Error) = Process.spawn(observer)
    match o:
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`

const lifecycle = `fn crash():
    let z = 0
    println("child: {1 / z}")

fn parked(boss: Pid(())):
    defer println("parked: cleanup")
    let own: Pid(()) = Process.self()
    match send(boss, ()):
        Ok(()) -> ()
        Err(_) -> ()
    receive:
        () -> ()

fn linker():
    let own: Pid(()) = Process.self()
    let spawned_c: Result(Pid(()), Process.Error) = Process.spawn_link(crash)
    let Ok(c) = spawned_c else: Process.exit(Process.Failure("spawn"))
    receive:
        () -> println("linker: unexpected")

fn trapper():
    let own: Pid(()) = Process.self()
    let old = Process.trap_exit(true)
    let spawned_c: Result(Pid(()), Process.Error) = Process.spawn_link(crash)
    let Ok(c) = spawned_c else: Process.exit(Process.Failure("spawn"))
    receive_event:
        Process.Exit(_, reason) -> println("trapper: exit {show(reason)} (trap was {old})")

fn watch(entry: Int) -> String:
    let own: Pid(()) = Process.self()
    let spawned: Result((Pid(()), MonitorRef), Process.Error) = if entry == 0: Process.spawn_monitor(linker) else: Process.spawn_monitor(trapper)
    match spawned:
        Ok((_, m)) ->
            receive_event:
                Process.Down(x, _, reason) if x == m -> show(reason)
        Err(_) -> "spawn failed"

fn kill(reason: Process.ExitReason) -> String:
    let own: Pid(()) = Process.self()
    let spawned: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(() -> parked(own))
    match spawned:
        Ok((p, m)) ->
            receive:
                () -> ()
            match Process.signal_exit(Process.id(p), reason):
                Ok(()) -> ()
                Err(e) -> println("signal failed {show(e)}")
            receive_event:
                Process.Down(x, _, r) if x == m -> show(r)
        Err(_) -> "spawn failed"

fn observer():
    println("linker down: {watch(0)}")
    println("trapper down: {watch(1)}")
    println("kill: {kill(Process.Kill)}")
    println("shutdown: {kill(Process.Shutdown)}")
` + observerMain

// TestExitSignals runs the programs about exit signals, each under its
// configurations, and checks their output.
func TestExitSignals(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		cfgs            []sched.Config
	}{
		// Links, trapping, monitors and direct exit signals: a linked
		// fault kills a non-trapping partner with the same reason, a
		// trapping one gets an Exit event, a direct Kill skips cleanup,
		// other reasons run it.
		{"lifecycle", lifecycle,
			"linker down: Fault(1)\ntrapper: exit Fault(1) (trap was false)\ntrapper down: Normal\nkill: Killed\nparked: cleanup\nshutdown: Shutdown\n",
			everyPlacement(1, 2, 4)},
		// A direct Kill of oneself skips cleanup that has not begun;
		// another self-signalled reason terminates the process and runs
		// its cleanup.
		{"self", selfSignals,
			"self kill: Killed\nvictim: cleanup\nself shutdown: Shutdown\n",
			[]sched.Config{{Schedulers: 1, Steal: true}, {Schedulers: 4, Steal: true}}},
		// A direct Kill from another process arriving while the target's
		// cleanup runs lets that cleanup complete and skips only the
		// cleanup not yet begun; the Down reports Killed
		// (lifecycle_test.go: killInCleanup).
		{"kill in cleanup", killInCleanup,
			"victim: returning\nvictim: cleanup spun 0\nvictim: running cleanup done\ndown: Killed\n",
			[]sched.Config{{Schedulers: 1, Budget: 100}, {Schedulers: 1, Budget: 500}, {Schedulers: 1, Budget: 2000}}},
	} {
		t.Run(c.name, func(t *testing.T) { expect(t, load(t, c.src), c.want, c.cfgs, nil) })
	}
}

// everyPlacement is the configurations of n schedulers for each n given,
// with stealing off and on.
func everyPlacement(ns ...int) []sched.Config {
	var cfgs []sched.Config
	for _, n := range ns {
		cfgs = append(cfgs, sched.Config{Schedulers: n}, sched.Config{Schedulers: n, Steal: true})
	}
	return cfgs
}

// expect runs img under each configuration and fails t for a run whose
// output is not want or that ended with a report; after, when not nil,
// checks each run's runtime further.
func expect(t *testing.T, img *vm.Image, want string, cfgs []sched.Config, after func(sched.Config, *sched.Runtime)) {
	t.Helper()
	for _, cfg := range cfgs {
		out, res, rt := run(t, context.Background(), img, cfg)
		if out != want || res.Report != "" {
			t.Errorf("%d schedulers, steal %v, budget %d:\n%s\nreport %q\nwant:\n%s", cfg.Schedulers, cfg.Steal, cfg.Budget, out, res.Report, want)
		}
		if after != nil {
			after(cfg, rt)
		}
	}
}

// Receives that get their message before the timeout leave cancelled
// timers behind; the heap drops them instead of growing with every
// receive.
func TestCancelledTimersAreCompacted(t *testing.T) {
	img := load(t, `
fn echo():
    let own: Pid(Int) = Process.self()
    receive:
        n ->
            echo()
        _ after 600000 -> ()

fn asker(left: Int, e: Pid(Int)):
    if left > 0:
        match send(e, left):
            Ok(()) -> asker(left: left - 1, e: e)
            Err(_) -> asker(left: left, e: e)
    else:
        println("done")

fn main():
    let e: Pid(Int) = spawn(echo)
    let a: Pid(()) = spawn(() -> asker(left: 20000, e: e))
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out bytes.Buffer
	rt := sched.New(img, sched.NewOutput(&out), sched.Config{Schedulers: 1, Budget: 40})
	st, _ := vm.NewState(img, img.Prog.Entry, nil)
	done := make(chan sched.Result)
	go func() { done <- rt.Run(ctx, st) }()
	deadline := time.Now().Add(20 * time.Second)
	for !rt.Idle() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := rt.TimerHeapSize(); n > 1000 {
		t.Errorf("%d timers in the heap after 20000 receives", n)
	}
	cancel()
	<-done
}

const selfSignals = `fn victim(mode: Int):
    defer println("victim: cleanup")
    let own: Pid(()) = Process.self()
    let me = Process.id(own)
    let r = if mode == 0: Process.signal_exit(me, Process.Kill) else: Process.signal_exit(me, Process.Shutdown)
    match r:
        Ok(()) -> println("victim: still running")
        Err(_) -> println("victim: signal failed")

fn watch(mode: Int) -> String:
    let own: Pid(()) = Process.self()
    let spawned: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(() -> victim(mode))
    match spawned:
        Ok((_, m)) ->
            receive_event:
                Process.Down(x, _, reason) if x == m -> show(reason)
        Err(_) -> "spawn failed"

fn observer():
    println("self kill: {watch(0)}")
    println("self shutdown: {watch(1)}")
` + observerMain

// TestDeadlockOutside: with Config.ReportDeadlock an idle runtime whose
// isolated process waits reports the deadlock, but not while an outside
// operation is pending (BeginOutside); when the last one ends
// (EndOutside) the runtime, still idle, decides at once.
func TestDeadlockOutside(t *testing.T) {
	img := load(t, `
fn waiter():
    receive:
        n -> println("got {n}")

fn main():
    let started: Result(Pid(Int), Process.Error) = Process.spawn(waiter)
    let Ok(_) = started else: return ()
`)
	want := "morrow: deadlock: 1 processes are waiting and nothing can wake them\n" +
		"  <pid 2> in waiter (t.mr:3): waiting in receive, mailbox empty\n"
	for _, n := range []int{1, 2} {
		rt := sched.New(img, sched.NewOutput(io.Discard), sched.Config{Schedulers: n, ReportDeadlock: true})
		rt.BeginOutside()
		st, err := vm.NewState(img, img.Prog.Entry, nil)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan sched.Result, 1)
		go func() { done <- rt.Run(context.Background(), st) }()
		select {
		case res := <-done:
			t.Fatalf("%d schedulers: ended while an outside operation was pending: %+v", n, res)
		case <-time.After(200 * time.Millisecond):
		}
		if !rt.Idle() {
			t.Fatalf("%d schedulers: not idle", n)
		}
		rt.EndOutside()
		select {
		case res := <-done:
			if !res.Deadlock || res.Report != want {
				t.Errorf("%d schedulers: result %+v, want the report %q", n, res, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d schedulers: no deadlock report after the outside operation ended", n)
		}
	}
}
