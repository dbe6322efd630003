package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// longNativeSrc: a sorter sorts a list of a million elements again and
// again (about 0.25 s a sort) while another process sleeps 10 ms fifty
// times, then kills the sorter. A long native must not hold a scheduler: the
// sleeper's timers fire on time and the kill lands at once, so the run
// takes about 0.5 s; before, each sleep waited behind a sort where the
// two shared a scheduler (13.5 s at 4 schedulers with stealing).
const longNativeSrc = `
fn sorter(xs: List(Int), n: Int):
    let ys = List.sort(xs)
    sorter(xs, n + List.len(ys) - List.len(xs) + 1)

fn naps(n: Int, p: Pid(())):
    if n > 0:
        Process.sleep(10)
        naps(n - 1, p)
    else:
        match Process.signal_exit(Process.id(p), Process.Kill):
            Ok(()) -> println("slept")
            Err(_) -> println("kill failed")

fn main():
    let xs = List.reverse(List.range(0, 1000000))
    let p: Pid(()) = spawn(() -> sorter(xs, 0))
    let _n: Pid(()) = spawn(() -> naps(50, p))
`

// TestLongNativeDoesNotHoldScheduler runs longNativeSrc at 1, 2 and 4
// schedulers, stealing off and on, and wants each run well under the
// time the sorts would take if the sleeps waited for them.
func TestLongNativeDoesNotHoldScheduler(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts a million elements")
	}
	prog := testrun.Compile(t, "e2e.mr", longNativeSrc)
	for _, scheds := range []int{1, 2, 4} {
		for _, steal := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			start := time.Now()
			code, out, stderr := testrun.Run(ctx, prog, engine.Options{Schedulers: scheds, Steal: steal})
			took := time.Since(start)
			cancel()
			if code != 0 || out != "slept\n" || stderr != "" {
				t.Errorf("schedulers=%d steal=%v: status %d stdout %q stderr %q", scheds, steal, code, out, stderr)
			}
			// Fifty sleeps behind 0.25 s sorts take 12 s or more; on
			// time they take 0.5 s. 6 s leaves room for a loaded machine.
			if took > 6*time.Second {
				t.Errorf("schedulers=%d steal=%v: took %v", scheds, steal, took)
			}
		}
	}
}

// offloadSrc sorts lists above native.OffloadMin in three processes at
// once and checks the results, the root too; one more sorter is killed
// while it sorts.
const offloadSrc = `
fn check(xs: List(Int), n: Int) -> Bool:
    List.sort(xs) == List.range(0, n)

fn sorter(n: Int, to: Pid(Bool)):
    let ok = check(List.reverse(List.range(0, n)), n)
    match send(to, ok):
        Ok(()) -> ()
        Err(_) -> ()

fn endless(xs: List(Int)):
    let _ = List.sort(xs)
    endless(xs)

fn collect(n: Int, acc: Int):
    if n == 0:
        println("sorted right: {acc}")
    else:
        receive:
            ok -> collect(n: n - 1, acc: if ok: acc + 1 else: acc)

fn boss():
    let own: Pid(Bool) = Process.self()
    let e: Pid(()) = spawn(() -> endless(List.reverse(List.range(0, 200000))))
    for n in [70000, 100000, 130000]:
        let _s: Pid(()) = spawn(() -> sorter(n, own))
    collect(n: 3, acc: 0)
    match Process.signal_exit(Process.id(e), Process.Kill):
        Ok(()) -> println("killed the endless sorter")
        Err(_) -> println("kill failed")

fn main():
    println("root sorts right: {check(List.reverse(List.range(0, 80000)), 80000)}")
    let _b: Pid(Bool) = spawn(boss)
`

// TestOffloadedSortResults: sorts that run off the schedulers give the
// right results at 1, 2 and 4 schedulers, stealing off and on, and a
// process killed while its sort runs is retired (the late result is
// dropped).
func TestOffloadedSortResults(t *testing.T) {
	prog := testrun.Compile(t, "e2e.mr", offloadSrc)
	want := "root sorts right: true\nsorted right: 3\nkilled the endless sorter\n"
	for _, scheds := range []int{1, 2, 4} {
		for _, steal := range []bool{false, true} {
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			code, out, stderr := testrun.Run(ctx, prog, engine.Options{Schedulers: scheds, Steal: steal})
			cancel()
			if code != 0 || out != want || stderr != "" {
				t.Errorf("schedulers=%d steal=%v: status %d stdout %q stderr %q", scheds, steal, code, out, stderr)
			}
		}
	}
}
