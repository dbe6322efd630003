package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/source"
)

// BenchmarkParseFixtures parses every run fixture concatenated into one
// file and reports source lines per second (the compile target in
// docs/reference/runtime.md is 100,000 lines/s for the whole pipeline).
func BenchmarkParseFixtures(b *testing.B) {
	var all []byte
	paths, _ := filepath.Glob("../../fixtures/run/*/*.mr")
	for _, p := range paths {
		x, err := os.ReadFile(p)
		if err == nil && !bytes.Contains(x, []byte("\n\t")) { // one file may not mix tabs and spaces
			all = append(all, x...)
			all = append(all, '\n')
		}
	}
	if len(all) == 0 {
		b.Skip("no fixtures")
	}
	benchLines(b, all)
}

// BenchmarkParseFunctions parses many small functions.
func BenchmarkParseFunctions(b *testing.B) {
	benchLines(b, []byte(strings.Repeat("fn f(x: Int) -> Int:\n    let y = x + 1\n    if y > 2: y * 2 else: List.sum([y, 1])\n", 1000)))
}

func benchLines(b *testing.B, src []byte) {
	lines := bytes.Count(src, []byte("\n"))
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, dl := Parse(source.NewFile("bench.mr", src))
		if dl.HasErrors() {
			b.Fatal(dl.Err())
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// TestLinearTime guards against quadratic behaviour on long lines, deep
// operator chains and many declarations: parsing 8x the input must not
// allocate much more than 8x the memory. It counts bytes allocated, not
// time, so a loaded machine cannot make it flaky (speed itself is
// measured by the benchmarks above).
func TestLinearTime(t *testing.T) {
	shapes := map[string]func(n int) string{
		"operators": func(n int) string { return "fn f(): 1" + strings.Repeat(" + 1", n) + "\n" },
		"calls":     func(n int) string { return "fn f(): a" + strings.Repeat("(1)", n) + "\n" },
		"decls":     func(n int) string { return strings.Repeat("fn f(x) -> x\n", n) },
		"list":      func(n int) string { return "fn f(): [" + strings.Repeat("1, ", n) + "]\n" },
	}
	for name, gen := range shapes {
		// 8x the input: linear is about 8x the bytes, quadratic 64x.
		small, large := allocParse(gen(1000)), allocParse(gen(8000))
		t.Logf("%s: %d -> %d bytes", name, small, large)
		if large > 20*small {
			t.Errorf("%s: 8x input allocated %d bytes vs %d (superlinear)", name, large, small)
		}
	}
}

// allocParse returns the bytes allocated by one parse of src.
func allocParse(src string) uint64 {
	f := source.NewFile("t.mr", []byte(src))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	Parse(f)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
