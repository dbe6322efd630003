package sched_test

import (
	"context"
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// Process operations are not allowed in cleanup (LANGUAGE.md §5.4), so
// a Kill reaches a running cleanup only from another process: here while
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

fn main():
    let o: Result(Pid(()), Process.Error) = Process.spawn(observer)
    match o:
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`

// A direct Kill from another process arriving while the target's
// cleanup runs lets that cleanup complete and skips only the cleanup not
// yet begun; the Down reports Killed.
func TestKillDuringRunningCleanup(t *testing.T) {
	img := load(t, killInCleanup)
	want := "victim: returning\nvictim: cleanup spun 0\nvictim: running cleanup done\ndown: Killed\n"
	for _, budget := range []int{100, 500, 2000} {
		out, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Budget: budget})
		if out != want || res.Report != "" {
			t.Errorf("budget %d:\n%s\nreport %q\nwant:\n%s", budget, out, res.Report, want)
		}
	}
}
