package sched_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/vm"
)

const chainSrc = `fn node(n: Int, boss: Pid(String)):
    let own: Pid(()) = Process.self()
    if n == 0:
        match send(boss, "ready"):
            Ok(()) -> ()
            Err(code) -> println("send failed {code}")
        Process.exit(Process.Failure("end of the chain"))
    let r: Result(Pid(()), Process.Error) = Process.spawn_link(() -> node(n - 1, boss))
    match r:
        Ok(_) -> ()
        Err(e) -> println("spawn failed at {n}: {show(e)}")
    receive:
        () -> ()

fn observer(n: Int):
    let own: Pid(String) = Process.self()
    let spawned: Result((Pid(()), MonitorRef), Process.Error) = Process.spawn_monitor(() -> node(n, own))
    let Ok((_, m)) = spawned else: Process.exit(Process.Failure("spawn failed"))
    receive:
        s -> println(s)
    receive_event:
        Process.Down(r, _, reason) if r == m -> println("head down: {show(reason)}")

fn main():
    let o: Result(Pid(String), Process.Error) = Process.spawn(() -> observer(%d))
    match o:
        Ok(_) -> ()
        Err(e) -> println("spawn failed: {show(e)}")
`

// TestLinkedChainRetires: a chain of linked processes, all parked in
// receive, dies at once when its last member exits; every exit goes
// through the one retire path (each member runs its unwinding on its
// scheduler, then publishes to the next) without recursion or a stall.
// 100,000 processes (10,000 under the race detector), with the live,
// reservation and byte limits raised for the test.
func TestLinkedChainRetires(t *testing.T) {
	n := 100000
	if raceEnabled {
		n = 10000
	}
	img := load(t, fmt.Sprintf(chainSrc, n-1))
	for _, cfg := range []sched.Config{{Schedulers: 1}, {Schedulers: 4, Steal: true}} {
		var out bytes.Buffer
		o := sched.NewOutput(&out)
		rt := sched.New(img, o, cfg)
		rt.Inv.MaxLive = n + 2
		rt.Inv.MaxReservations = int64(2*n + 4)
		rt.Inv.MemoryBudget = 1 << 40
		st, err := vm.NewState(img, img.Prog.Entry, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		start := time.Now()
		res := rt.Run(ctx, st)
		cancel()
		o.Flush()
		t.Logf("%d schedulers: chain of %d in %v", cfg.Schedulers, n, time.Since(start))
		want := "ready\nhead down: Failure(\"end of the chain\")\n"
		if out.String() != want || res.Report != "" || res.Cancelled {
			t.Fatalf("%+v: output %q, result %+v", cfg, out.String(), res)
		}
		if live, _ := rt.Inv.Live(); live != 0 {
			t.Fatalf("%d processes still live", live)
		}
		if c, b := rt.Inv.Reservations(); c != 0 || b != 0 {
			t.Fatalf("reservations left: %d (%d bytes)", c, b)
		}
	}
}
