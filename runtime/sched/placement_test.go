package sched_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

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
