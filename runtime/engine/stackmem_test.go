package engine_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/engine"
)

// heapPeak samples the Go heap in use (runtime.MemStats.HeapInuse: live
// objects and garbage not yet swept) every few milliseconds until stop is
// called, and returns the sample with the largest heap in use.
func heapPeak() (stop func() runtime.MemStats) {
	var (
		wg   sync.WaitGroup
		peak runtime.MemStats
		done = make(chan struct{})
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.HeapInuse {
				peak = ms
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	return func() runtime.MemStats {
		close(done)
		wg.Wait()
		return peak
	}
}

// TestStackBudgetBoundsMemory: the stack budget bounds the memory the
// process stacks take, garbage included. 24 processes, four at a time,
// recurse 240,000 calls deep (some 35 MB of stack each) under a 64 MiB
// stack budget: most fault with code 9, and while they run the Go heap
// in use stays within three times the budget plus a fixed base for the
// rest of the test binary (the loaded program, the runtime, the
// scheduler). The stacks charge the arrays they hold; the arrays a
// doubling leaves behind and those of finished processes are garbage
// that the soft memory limit runtime/gotune derives from the budgets has
// the collector reclaim. With the GC target of 400% and no limit, the
// heap grew to five times what was live (326 to 697 MiB measured). No
// time is asserted.
func TestStackBudgetBoundsMemory(t *testing.T) {
	const (
		budget   = 64 << 20
		base     = 64 << 20
		procs    = 24
		inFlight = 4
		depth    = 240000
	)
	if raceEnabled {
		// Some 10 million calls at two scheduler counts take minutes
		// under the race detector; the memory limit's settings are
		// checked under it by TestRunTunesGoRuntime and runtime/gotune.
		t.Skip("too slow under the race detector")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	src := fmt.Sprintf(deepFn+`
fn start(depth: Int):
    let r: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(() -> println("finished {deep(depth)}"))
    match r:
        Ok(_) -> ()
        Err(e) -> println("spawn failed {show(e)}")

fn start_all(n: Int, depth: Int):
    if n > 0:
        start(depth)
        start_all(n: n - 1, depth: depth)

fn collect(left: Int, to_start: Int, depth: Int, faults: Int) -> Int:
    if left == 0:
        faults
    else:
        let own: Pid(Int) = Process.self()
        if to_start > 0:
            start(depth)
        let more: Int = if to_start > 0: 1 else: 0
        receive_event:
            Process.Down(_, _, reason) ->
                if reason == Process.Fault(9):
                    collect(left: left - 1, to_start: to_start - more, depth: depth, faults: faults + 1)
                else:
                    collect(left: left - 1, to_start: to_start - more, depth: depth, faults: faults)

fn observer():
    let own: Pid(Int) = Process.self()
    start_all(n: %d, depth: %d)
    println("faults: {collect(left: %d, to_start: %d, depth: %d, faults: 0)}")
`+spawnObserver("Int"), inFlight-1, depth, procs, procs-inFlight+1, depth)
	for _, cfg := range []struct {
		scheds int
		steal  bool
	}{{1, false}, {1, true}, {2, false}, {2, true}, {4, false}, {4, true}} {
		scheds := cfg.scheds
		runtime.GC()
		stop := heapPeak()
		code, out, errb := runWatched(t, src, engine.Options{Schedulers: scheds, Steal: cfg.steal, StackBudget: budget, MemoryBudget: 1 << 20})
		ms := stop()
		peak := ms.HeapInuse
		faults := 0
		if i := strings.Index(out, "faults: "); i >= 0 {
			fmt.Sscanf(out[i:], "faults: %d", &faults)
		}
		t.Logf("schedulers %d (steal %v): heap in use peaked at %d MiB (bound %d MiB), %d of %d processes faulted (then: allocated %d MiB, next collection at %d MiB, %d collections)",
			scheds, cfg.steal, peak>>20, (3*budget+base)>>20, faults, procs, ms.HeapAlloc>>20, ms.NextGC>>20, ms.NumGC)
		if code != 0 || errb != "" || !strings.Contains(out, "faults: ") {
			t.Fatalf("schedulers %d (steal %v): status %d, stdout %q, stderr %q", scheds, cfg.steal, code, out, errb)
		}
		if peak > 3*budget+base {
			t.Errorf("schedulers %d (steal %v): the heap in use peaked at %d MiB under a %d MiB stack budget, past the bound of %d MiB",
				scheds, cfg.steal, peak>>20, budget>>20, (3*budget+base)>>20)
		}
	}
}
