package gen_test

import (
	"flag"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/gen"
)

var flagMut = flag.Int("gen.mut", -1, "with -gen.seed and -gen.dump: write this mutant instead")

// checkMutant requires check to reject the mutant with at least one
// coded error, without an internal error or a panic.
func checkMutant(seed int64, src string) (codes []string, failure string) {
	defer func() {
		if r := recover(); r != nil {
			failure = fmt.Sprintf("Go panic: %v\n%s", r, debug.Stack())
		}
	}()
	ds, err := compiler.Check(fmt.Sprintf("mut%d.mr", seed), []byte(src))
	if err != nil {
		return nil, "internal compiler error: " + err.Error()
	}
	if !ds.HasErrors() {
		return nil, "check accepted the broken program"
	}
	for _, d := range ds {
		if string(d.Code) == "" {
			return nil, "a diagnostic without a code: " + d.Message
		}
		codes = append(codes, string(d.Code))
	}
	return codes, ""
}

// mutants picks the sites of p to try: one site each of up to n kinds
// (rare kinds get their turn), at random (seeded).
func mutants(p *gen.Program, n int) []int {
	r := rand.New(rand.NewSource(p.Seed))
	byKind := map[string][]int{}
	var kinds []string
	for i := 0; i < p.Mutations(); i++ {
		_, k := p.MutationKind(i)
		if byKind[k] == nil {
			kinds = append(kinds, k)
		}
		byKind[k] = append(byKind[k], i)
	}
	r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	var idx []int
	for _, k := range kinds {
		if len(idx) == n {
			break
		}
		idx = append(idx, byKind[k][r.Intn(len(byKind[k]))])
	}
	return idx
}

// TestMutations breaks generated programs in one place each and requires
// check to reject every mutant.
func TestMutations(t *testing.T) {
	if *flagDump != "" && *flagMut >= 0 {
		p := gen.Generate(*flagSeed, config())
		src, kind, note := p.Mutant(*flagMut)
		if err := os.WriteFile(*flagDump, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Skipf("wrote mutation %d (%s: %s) of seed %d to %s", *flagMut, kind, note, *flagSeed, *flagDump)
	}
	ss := seeds(300, 40)
	start := time.Now()
	var mu sync.Mutex
	var failures []string
	perKind := map[string]int{}
	codes := map[string]map[string]bool{}
	total := 0
	parallel(ss, func(seed int64) {
		p := gen.Generate(seed, config())
		for _, i := range mutants(p, 3) {
			src, kind, note := p.Mutant(i)
			cs, failure := checkMutant(seed, src)
			mu.Lock()
			total++
			perKind[kind]++
			if codes[kind] == nil {
				codes[kind] = map[string]bool{}
			}
			for _, c := range cs {
				codes[kind][c] = true
			}
			if failure != "" {
				failures = append(failures, fmt.Sprintf("seed %d, mutation %d (%s: %s): %s\n--- mutant (reproduce: go test ./lang/gen -run TestMutations -gen.seed=%d -v) ---\n%s",
					seed, i, kind, note, failure, seed, numbered(src)))
			}
			mu.Unlock()
		}
	})
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(perKind)) {
		cs := slices.Sorted(maps.Keys(codes[k]))
		fmt.Fprintf(&b, "\n  %-24s %5d mutants, codes %s", k, perKind[k], strings.Join(cs, " "))
	}
	t.Logf("%d mutants of %d programs in %s:%s", total, len(ss), time.Since(start).Round(time.Millisecond), b.String())
	if *flagSeed < 0 && !testing.Short() {
		avoided := config().Avoid
		for _, k := range gen.MutationKinds {
			if perKind[k] == 0 && !avoided["mut-"+k] {
				t.Errorf("no mutant of kind %s was tried", k)
			}
		}
	}
	reportFailures(t, failures, "\n--- mutant")
}

// FuzzMutated is TestMutations driven by the fuzzer: the seed picks the
// program, pick the mutation site.
func FuzzMutated(f *testing.F) {
	for _, s := range []int64{1, 2, 3, 42} {
		f.Add(uint64(s), uint16(s))
	}
	f.Fuzz(func(t *testing.T, seed uint64, pick uint16) {
		p := gen.Generate(int64(seed), config())
		if p.Mutations() == 0 {
			return
		}
		i := int(pick) % p.Mutations()
		src, kind, note := p.Mutant(i)
		if _, failure := checkMutant(int64(seed), src); failure != "" {
			t.Fatalf("seed %d, mutation %d (%s: %s): %s\n%s", seed, i, kind, note, failure, numbered(src))
		}
	})
}
