package gen_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/gen"
)

var (
	flagSeed  = flag.Int64("gen.seed", -1, "run only this seed (TestWellTyped, TestMutations)")
	flagN     = flag.Int("gen.n", 0, "number of programs (default 1500, 150 with -short)")
	flagBase  = flag.Int64("gen.base", 1, "first seed")
	flagDump  = flag.String("gen.dump", "", "write the program of -gen.seed to this file and stop")
	flagAvoid = flag.Bool("gen.avoid", true, "avoid the known checker bugs (DefaultAvoid)")
)

func config() gen.Config {
	cfg := gen.Config{}
	if *flagAvoid {
		cfg.Avoid = gen.DefaultAvoid()
	}
	return cfg
}

// seeds is the list of seeds a seeded test runs.
func seeds(def, short int) []int64 {
	if *flagSeed >= 0 {
		return []int64{*flagSeed}
	}
	n := def
	if testing.Short() {
		n = short
	}
	if *flagN > 0 {
		n = *flagN
	}
	out := make([]int64, n)
	for i := range out {
		out[i] = *flagBase + int64(i)
	}
	return out
}

// parallel runs fn over the seeds on a few workers (processes wait on
// timeouts, so more workers than cores keeps the CPU busy).
func parallel(ss []int64, fn func(seed int64)) {
	var wg sync.WaitGroup
	ch := make(chan int64)
	workers := 2 * runtime.GOMAXPROCS(0)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range ch {
				fn(s)
			}
		}()
	}
	for _, s := range ss {
		ch <- s
	}
	close(ch)
	wg.Wait()
}

// TestWellTyped generates programs and requires each to check, compile,
// verify, round-trip through the encoder and run to completion or to a
// documented fault.
func TestWellTyped(t *testing.T) {
	if *flagDump != "" {
		p := gen.Generate(*flagSeed, config())
		if err := os.WriteFile(*flagDump, []byte(p.Source), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skipf("wrote seed %d to %s", *flagSeed, *flagDump)
	}
	ss := seeds(1500, 150)
	start := time.Now()
	var mu sync.Mutex
	var failures []string
	faults := map[int]int{}
	features := map[string]int{}
	actors, faulty, lines := 0, 0, 0
	var slowest time.Duration
	var slowSeed int64
	parallel(ss, func(seed int64) {
		p := gen.Generate(seed, config())
		t0 := time.Now()
		res := checkWellTyped(p)
		el := time.Since(t0)
		mu.Lock()
		if el > slowest {
			slowest, slowSeed = el, seed
		}
		defer mu.Unlock()
		lines += strings.Count(p.Source, "\n")
		if p.Actors {
			actors++
		}
		if p.Faulty {
			faulty++
		}
		for f := range p.Features {
			features[f]++
		}
		if res.failure != "" {
			failures = append(failures, report(p, res))
			return
		}
		faults[res.fault]++
	})
	t.Logf("%d programs (%d lines, %d with processes, %d allowed to fault) in %s (slowest: seed %d, %s); documented faults by code: %v",
		len(ss), lines, actors, faulty, time.Since(start).Round(time.Millisecond), slowSeed, slowest.Round(time.Millisecond), faults)
	if testing.Verbose() {
		var b strings.Builder
		for _, n := range slices.Sorted(maps.Keys(features)) {
			fmt.Fprintf(&b, "%s=%d ", n, features[n])
		}
		t.Logf("constructs (programs using each): %s", b.String())
	}
	reportFailures(t, failures, "\n--- program")
}

// FuzzWellTyped is TestWellTyped driven by the fuzzer: the input bytes
// are the seed.
func FuzzWellTyped(f *testing.F) {
	for _, s := range []int64{1, 2, 3, 42, 1 << 40} {
		f.Add(uint64(s))
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		p := gen.Generate(int64(seed), config())
		if res := checkWellTyped(p); res.failure != "" {
			t.Fatal(report(p, res))
		}
	})
}

// TestCoverage generates programs (without running them) and requires
// every construct the generator knows to appear (600 programs, 300 with
// -short), except those a known-bug
// switch turns off: a generator change that silently stops covering
// something fails here.
func TestCoverage(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 300
	}
	seen := map[string]int{}
	for seed := int64(1); seed <= int64(n); seed++ {
		p := gen.Generate(seed, config())
		for f := range p.Features {
			seen[f]++
			if !slices.Contains(gen.FeatureNames(), f) {
				t.Errorf("seed %d reports %q, which is not in featureList", seed, f)
			}
		}
	}
	for _, f := range gen.FeatureNames() {
		if seen[f] == 0 && !gen.FeatureAvoided(config(), f) {
			t.Errorf("no program of %d used %s", n, f)
		}
	}
}
