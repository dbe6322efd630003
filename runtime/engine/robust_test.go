package engine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// Robustness (docs/reference/runtime.md#execution-model "Values and messages", issue 9): a value with
// internal sharing (a DAG whose unfolding is astronomically large) must
// never make one instruction walk its unfolding. These programs hang (or
// exhaust memory) when the runtime walks the unfolded tree, so each runs
// under a watchdog: a run that does not finish in watchdogLimit fails
// the test instead of hanging the suite. The limit is not a speed
// assertion: every program here finishes in milliseconds when values are
// walked by their distinct nodes.
const watchdogLimit = 60 * time.Second

// dagPrelude builds Tree values whose unfolding has 2^n leaves from n+1
// distinct nodes.
const dagPrelude = `
type Tree derive(Eq, Ord, Show):
    Leaf(Int)
    N(Tree, Tree)

fn build(n: Int, acc: Tree) -> Tree:
    if n == 0:
        acc
    else:
        build(n - 1, N(acc, acc))
`

// runWatched compiles and runs src with opts, failing the test if the run
// does not end within watchdogLimit.
func runWatched(t *testing.T, src string, opts engine.Options) (int, string, string) {
	t.Helper()
	p := testrun.Compile(t, "e2e.mr", src)
	out, errb := &testrun.Buffer{}, &testrun.Buffer{}
	opts.Stdout, opts.Stderr = out, errb
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- engine.Run(ctx, p, opts) }()
	select {
	case code := <-done:
		return code, out.String(), errb.String()
	case <-time.After(watchdogLimit):
		cancel()
		t.Fatalf("the program did not finish within %s; output so far:\n%s", watchdogLimit, out.String())
		return 0, "", ""
	}
}

// wantOutput runs src under the watchdog once at each scheduler count
// given (opts otherwise as they are) and fails the test unless the run
// exits 0, prints want on stdout and nothing on stderr.
func wantOutput(t *testing.T, src string, opts engine.Options, want string, schedulers ...int) {
	t.Helper()
	for _, scheds := range schedulers {
		opts.Schedulers = scheds
		code, out, errb := runWatched(t, src, opts)
		if code != 0 || out != want || errb != "" {
			t.Fatalf("schedulers %d: status %d, stdout %q, stderr %q; want stdout %q", scheds, code, out, errb, want)
		}
	}
}

// TestSendOfSharedValueIsRefusedAtOnce: the logical size of a message is
// known from its construction, so a 62-node value whose unfolding has
// 2^61 leaves is refused with Err(4) instead of being measured (or
// copied) node by unfolded node.
func TestSendOfSharedValueIsRefusedAtOnce(t *testing.T) {
	src := dagPrelude + `
fn sink():
    let own: Pid(Tree) = Process.self()
    receive:
        t -> println("sink got {show(t)}")

fn main():
    let big = build(61, Leaf(0))
    let p: Pid(Tree) = spawn(sink)
    match send(p, big):
        Ok(()) -> println("sent the big value")
        Err(code) -> println("send failed: {code}")
    match send(p, build(2, Leaf(1))):
        Ok(()) -> println("sent a small value")
        Err(code) -> println("send failed: {code}")
`
	wantOutput(t, src, engine.Options{}, "send failed: 4\nsent a small value\nsink got N(N(Leaf(1), Leaf(1)), N(Leaf(1), Leaf(1)))\n", 0)
}

// TestEqualityOnSharedValues: ==, !=, compare and List.sort on two separately built shared values finish in time
// proportional to their distinct nodes.
func TestEqualityOnSharedValues(t *testing.T) {
	src := dagPrelude + `
fn order(o: Ordering) -> String:
    match o:
        Less -> "Less"
        Equal -> "Equal"
        Greater -> "Greater"

fn main():
    let a = build(61, Leaf(0))
    let b = build(61, Leaf(0))
    let c = build(61, Leaf(1))
    println(a == b)
    println(a != b)
    println(a == c)
    println(order(compare(left: a, right: b)))
    println(order(compare(left: a, right: c)))
    let sorted = List.sort([c, b, a])
    println(List.len(sorted))
    println(List.head(sorted) == a)
    println((a, 1) == (b, 1))
    println([a, b, c] == [b, a, c])
`
	wantOutput(t, src, engine.Options{}, "true\nfalse\nfalse\nEqual\nLess\n3\ntrue\ntrue\ntrue\n", 0)
}

// TestRenderingSharedValuesIsBounded: show and print of a shared value
// stop at the 16 MiB rendering limit (fault 14) instead of rendering 2^61
// leaves. Each runs in an isolated process, so the fault only retires it.
func TestRenderingSharedValuesIsBounded(t *testing.T) {
	src := dagPrelude + `
fn try(label: String, f: () -> ()):
    let own: Pid(Int) = Process.self()
    let r: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(f)
    match r:
        Ok((_, ref)) ->
            receive_event:
                Process.Down(m, _, reason) if m == ref -> println("{label}: {show(reason)}")
        Err(e) -> println("{label}: spawn failed {show(e)}")

fn observer():
    try("show", () -> println(String.len(show(build(61, Leaf(0))))))
    try("print", () -> println(build(61, Leaf(0))))
` + spawnObserver("Int")
	wantOutput(t, src, engine.Options{}, "show: Fault(14)\nprint: Fault(14)\n", 0)
}

// TestLongComparisonsArePreemptibleAndKillable: a process that compares
// shared values in a loop charges reductions for the work, so with one
// scheduler another process keeps printing, and a direct Kill ends the
// comparing process.
func TestLongComparisonsArePreemptibleAndKillable(t *testing.T) {
	src := dagPrelude + `
fn is_equal(o: Ordering) -> Bool:
    match o:
        Equal -> true
        _ -> false

fn spin(pair: (Tree, Tree), n: Int) -> Int:
    let (a, b) = pair
    if a == b and is_equal(compare(left: a, right: b)):
        spin(pair, n + 1)
    else:
        n

fn comparer(boss: Pid(String)):
    let a = build(61, Leaf(0))
    let b = build(61, Leaf(0))
    match send(boss, "comparing"):
        Ok(()) -> ()
        Err(_) -> ()
    println("comparer stopped after {spin((a, b), 0)} rounds")

fn ticker(boss: Pid(String), n: Int):
    if n == 0:
        match send(boss, "ticked"):
            Ok(()) -> ()
            Err(_) -> ()
    else:
        println("tick {n}")
        ticker(boss, n - 1)

fn observer():
    let own: Pid(String) = Process.self()
    let r: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(() -> comparer(own))
    let Ok((c, ref)) = r else: Process.exit(Process.Failure("spawn failed"))
    receive:
        m -> println("observer: {m}")
    let t: Result(Pid(Int), Process.Error) = Process.spawn(() -> ticker(own, 3))
    match t:
        Ok(_) -> ()
        Err(e) -> println("observer: spawn failed {show(e)}")
    receive:
        m -> println("observer: {m}")
    match Process.signal_exit(Process.id(c), Process.Kill):
        Ok(()) -> ()
        Err(e) -> println("observer: kill failed {show(e)}")
    receive_event:
        Process.Down(m, _, reason) if m == ref -> println("observer: comparer ended with {show(reason)}")
` + spawnObserver("String")
	wantOutput(t, src, engine.Options{}, "observer: comparing\ntick 3\ntick 2\ntick 1\nobserver: ticked\nobserver: comparer ended with Killed\n", 1, 2)
}

// TestSharedMessagesKeepIdentityAndSharing: a message is shared with the
// receiver, not copied, and nothing observable changes: opaque values
// keep their identity, a list the receiver extends does not change the
// sender's, and both may extend the same list concurrently.
func TestSharedMessagesKeepIdentityAndSharing(t *testing.T) {
	src := `
type Msg:
    Data(Pid(String), ProcessId, List(Int))

fn grow(xs: List(Int), n: Int) -> List(Int):
    if n == 0:
        xs
    else:
        grow(List.push(xs, n), n - 1)

fn receiver():
    let own: Pid(Msg) = Process.self()
    receive:
        Data(boss, id, xs) ->
            let mine = grow(xs, 1000)
            let same = id == Process.id(boss)
            match send(boss, "receiver: id kept {same}, {List.len(xs)} -> {List.len(mine)}, sum {List.sum(mine)}"):
                Ok(()) -> ()
                Err(_) -> ()

fn observer():
    let own: Pid(String) = Process.self()
    let base = List.push(List.push([1, 2], 3), 4)
    let r: Result(Pid(Msg), Process.Error) = Process.spawn(receiver)
    let Ok(p) = r else: Process.exit(Process.Failure("spawn failed"))
    match send(p, Data(own, Process.id(own), base)):
        Ok(()) -> ()
        Err(code) -> println("send failed {code}")
    let mine = grow(base, 10)
    receive:
        m -> println(m)
    println("observer: {List.len(base)} -> {List.len(mine)}, sum {List.sum(mine)}, base {show(base)}")
` + spawnObserver("String")
	wantOutput(t, src, engine.Options{Steal: true}, "receiver: id kept true, 4 -> 1004, sum 500510\nobserver: 4 -> 14, sum 65, base [1, 2, 3, 4]\n", 1, 2)
}

// TestStackBudget: process stacks count against one budget. 40 processes
// each recursing 500,000 frames deep need about 3 GB together (some 70 MB
// each); under a 32 MiB budget every one of them faults with code 9
// instead of the Go runtime running out of memory, and the memory comes
// back when they end: a later, shallow recursion finishes.
func TestStackBudget(t *testing.T) {
	src := deepFn + `
fn spawn_all(n: Int, depth: Int):
    if n > 0:
        let r: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(() -> println("finished {deep(depth)}"))
        match r:
            Ok(_) -> spawn_all(n: n - 1, depth: depth)
            Err(e) -> println("spawn failed {show(e)}")

fn collect(n: Int, faults: Int) -> Int:
    if n == 0:
        faults
    else:
        let own: Pid(Int) = Process.self()
        receive_event:
            Process.Down(_, _, reason) ->
                if reason == Process.Fault(9):
                    collect(n: n - 1, faults: faults + 1)
                else:
                    collect(n: n - 1, faults: faults)

fn observer():
    let own: Pid(Int) = Process.self()
    spawn_all(n: 40, depth: 500000)
    println("faults: {collect(n: 40, faults: 0)} of 40")
    spawn_all(n: 1, depth: 1000)
    println("faults: {collect(n: 1, faults: 0)} of 1")
` + spawnObserver("Int")
	wantOutput(t, src, engine.Options{Steal: true, StackBudget: 32 << 20}, "faults: 40 of 40\nfinished 1000\nfaults: 0 of 1\n", 1, 2)
}

// TestStackBudgetOfTheRoot: the root context's stack counts too; its
// fault is fatal as usual.
func TestStackBudgetOfTheRoot(t *testing.T) {
	src := deepFn + `
fn main():
    println(deep(10000))
    println(deep(400000))
`
	code, out, errb := runWatched(t, src, engine.Options{StackBudget: 8 << 20})
	if code != 1 || out != "10000\n" || !strings.Contains(errb, "actor resource limit exceeded") {
		t.Fatalf("status %d, stdout %q, stderr %q", code, out, errb)
	}
}

// TestMaxSteps: Options.MaxSteps is fuel for all processes together; past
// it the invocation stops (without cleanup) with ExitFault.
func TestMaxSteps(t *testing.T) {
	src := `
fn spin(n: Int) -> Int:
    spin(n + 1)

fn main():
    defer println("cleanup")
    let r: Result(Pid(Int), Process.Error) = Process.spawn(() -> println(spin(0)))
    match r:
        Ok(_) -> ()
        Err(e) -> println("spawn failed {show(e)}")
    println(spin(0))
`
	code, out, errb := runWatched(t, src, engine.Options{MaxSteps: 100_000})
	if code != engine.ExitFault || out != "" || errb != "morrow: stopped after the step limit of 100000 steps\n" {
		t.Fatalf("status %d, stdout %q, stderr %q", code, out, errb)
	}
}

// TestCancelRunsCleanup: cancelling the context of a run that loops
// forever still runs main's deferred cleanup before Run returns.
func TestCancelRunsCleanup(t *testing.T) {
	src := `
func main flags=hasdefer
    FUNC bye
    DEFER
    CONST "started"
    CALL_NATIVE println 1
    POP
loop:
    JUMP loop
func bye
    CONST "cleanup"
    CALL_NATIVE println 1
    RETURN
`
	p := vmtest.MustAssemble(src)
	ctx, cancel := context.WithCancel(context.Background())
	out := &testrun.Buffer{}
	done := make(chan int)
	go func() { done <- engine.Run(ctx, p, engine.Options{Stdout: out, Reductions: 1000}) }()
	for !strings.Contains(out.String(), "started") {
		select {
		case code := <-done:
			t.Fatalf("finished early with %d", code)
		default:
		}
	}
	cancel()
	if code := <-done; code != engine.ExitInterrupted {
		t.Fatalf("status %d", code)
	}
	if got := out.String(); got != "started\ncleanup\n" {
		t.Fatalf("stdout %q", got)
	}
}

// spawnObserver is the main the robustness programs share: it spawns
// observer, whose mailbox carries msg, and reports a failed spawn.
func spawnObserver(msg string) string {
	return `
fn main():
    let r: Result(Pid(` + msg + `), Process.Error) = Process.spawn(observer)
    match r:
        Ok(_) -> ()
        Err(e) -> println("spawn failed {show(e)}")
`
}

// deepFn is deep(n), a recursion n calls deep (not a tail call) that
// returns n: the stack-budget programs' workload.
const deepFn = `
fn deep(n: Int) -> Int:
    if n == 0:
        0
    else:
        1 + deep(n - 1)
`
