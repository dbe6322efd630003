package sched_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// TestProducerConsumerStaysTogether: a producer that sends batches to a
// consumer (bench/morrow/counting.mr, smaller) runs on one scheduler at
// two schedulers with stealing, as at one: the consumer woken into the
// producer's next slot gets its own budget once per chain, so the run
// queue never holds two processes for an idle scheduler to steal.
func TestProducerConsumerStaysTogether(t *testing.T) {
	src, err := os.ReadFile("../../bench/morrow/counting.mr")
	if err != nil {
		t.Fatal(err)
	}
	const n = 300000
	s := strings.Replace(string(src), "fn size() -> Int: 1000000", fmt.Sprintf("fn size() -> Int: %d", n), 1)
	img := load(t, s)
	out, res, rt := run(t, context.Background(), img, sched.Config{Schedulers: 2, Steal: true})
	if want := fmt.Sprintf("morrow-bench counting check=%d\n", n); out != want || res.Report != "" {
		t.Fatalf("output %q, result %+v", out, res)
	}
	stolen, pokes := rt.StealStats()
	turns := rt.Turns()
	t.Logf("turns %v, stolen %d, pokes %d", turns, stolen, pokes)
	// At the start the root queues both processes on scheduler 0, so
	// one may be stolen; after that the pair stays together. Before the
	// fresh budget the consumer, over the spent budget of the chain,
	// queued up behind the producer and poked the idle scheduler several
	// times per batch (about 1,450 pokes for these 300 batches).
	if stolen > 4 || pokes > 4 || min(turns[0], turns[1]) > 16 {
		t.Fatalf("the pair did not stay on one scheduler: turns %v, stolen %d, pokes %d", turns, stolen, pokes)
	}
}

const endlessPair = `type Ball:
    Ball(Pid(Ball))
    Stop

fn player():
    let own: Pid(Ball) = Process.self()
    receive:
        Ball(peer) ->
            match send(peer, Ball(own)):
                Ok(()) -> player()
                Err(_) -> player()
        Stop -> ()

fn stop(p: Pid(Ball)):
    match send(p, Stop):
        Ok(()) -> ()
        Err(_) -> ()

fn late(a: Pid(Ball), b: Pid(Ball)):
    let own: Pid(()) = Process.self()
    receive:
        () -> ()
        _ after 5 ->
            stop(a)
            stop(b)
            println("late ran")

fn starter():
    let own: Pid(Ball) = Process.self()
    let b: Pid(Ball) = spawn(player)
    let x: Pid(()) = spawn(() -> late(a: own, b: b))
    match send(b, Ball(own)):
        Ok(()) -> player()
        Err(_) -> ()

fn main():
    let a: Pid(Ball) = spawn(starter)
`

// TestNextChainIsBounded: two processes that wake each other forever run
// as a chain of next processes; a process queued on their scheduler
// behind them (spawned there, and woken there by its timer) still runs,
// because the chain's budget is renewed only once before the next process
// goes to the back of the queue. An idle scheduler cannot take the queued
// process while the queue holds only it, so without the bound the run
// would never end.
func TestNextChainIsBounded(t *testing.T) {
	img := load(t, endlessPair)
	for _, budget := range []int{50, 0} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, res, _ := run(t, ctx, img, sched.Config{Schedulers: 2, Steal: true, Budget: budget})
		cancel()
		if out != "late ran\n" || res.Report != "" || res.Cancelled {
			t.Fatalf("budget %d: output %q, result %+v", budget, out, res)
		}
	}
}
