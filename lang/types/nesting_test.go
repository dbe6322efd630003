package types

import (
	"runtime"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
)

// nestedLambdas is `let f = () -> () -> … -> 1` with n lambdas.
func nestedLambdas(n int) string {
	return "fn main():\n    let f = " + strings.Repeat("() -> ", n) + "1\n    println(f != f)\n"
}

// CheckMeasured parses and checks src (as the file name) and returns the
// diagnostics, the composite nodes the occurs check entered and the bytes
// the check allocated. It is exported for the external tests of the
// package (shared_test.go); being in a _test.go file, it is not API.
func CheckMeasured(t *testing.T, name, src string) (diag.List, int64, uint64) {
	t.Helper()
	f := source.NewFile(name, []byte(src))
	af, pd := parser.Parse(f)
	if pd.HasErrors() {
		t.Fatalf("syntax errors: %v", pd.Err())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	n0 := occursWalks.Load()
	_, d := Check(af)
	n1 := occursWalks.Load()
	runtime.ReadMemStats(&after)
	return d, n1 - n0, after.TotalAlloc - before.TotalAlloc
}

// checkWork checks src and returns the composite nodes the occurs check
// entered and the bytes the check allocated.
func checkWork(t *testing.T, src string) (nodes int64, bytes uint64) {
	t.Helper()
	_, nodes, bytes = CheckMeasured(t, "deep.mr", src)
	return nodes, bytes
}

// TestNestedLambdasLinear: checking n nested lambdas does work linear in
// n (issue 8). Every lambda's result variable is bound to the type of the
// lambda inside it, and the occurs check at each binding used to walk that
// whole type: quadratic (10,000 levels took 30 s). The counts are
// deterministic (the occurs check's node count) or nearly so (bytes
// allocated); doubling the depth must about double both.
func TestNestedLambdasLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 6,000 nested lambdas; skipped with -short")
	}
	n2, b2 := checkWork(t, nestedLambdas(2000))
	n4, b4 := checkWork(t, nestedLambdas(4000))
	t.Logf("occurs nodes: %d at 2000, %d at 4000; bytes: %d, %d", n2, n4, b2, b4)
	if n4 > 2*n2+100 {
		t.Errorf("occurs check: %d nodes at depth 2000, %d at 4000: not linear", n2, n4)
	}
	if n4 > 3*4000 {
		t.Errorf("occurs check: %d nodes for 4000 lambdas: more than a few per lambda", n4)
	}
	if float64(b4) > 2.5*float64(b2) {
		t.Errorf("checking allocated %d bytes at depth 2000, %d at 4000: not linear", b2, b4)
	}
}
