package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/source"
)

// BenchmarkParseFixtures parses every run fixture concatenated into one
// file and reports source lines per second (the compile target in
// RUNTIME.md is 100,000 lines/s for the whole pipeline).
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
// operator chains and many declarations: a larger input must not
// take much more than proportionally longer.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip()
	}
	shapes := map[string]func(n int) string{
		"operators": func(n int) string { return "fn f(): 1" + strings.Repeat(" + 1", n) + "\n" },
		"calls":     func(n int) string { return "fn f(): a" + strings.Repeat("(1)", n) + "\n" },
		"decls":     func(n int) string { return strings.Repeat("fn f(x) -> x\n", n) },
		"list":      func(n int) string { return "fn f(): [" + strings.Repeat("1, ", n) + "]\n" },
	}
	for name, gen := range shapes {
		// 8x the input: linear is about 8x the time, quadratic 64x
		small, large := gen(1000), gen(8000)
		ts := timeParse(small)
		tl := timeParse(large)
		if tl > 30*ts && tl.Milliseconds() > 100 {
			t.Errorf("%s: 8x input took %v vs %v (superlinear)", name, tl, ts)
		}
	}
}

func timeParse(src string) (best time.Duration) {
	for i := 0; i < 3; i++ {
		start := time.Now()
		Parse(source.NewFile("t.mr", []byte(src)))
		if d := time.Since(start); i == 0 || d < best {
			best = d
		}
	}
	return best
}
