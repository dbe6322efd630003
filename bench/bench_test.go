package bench

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/proc"
)

// TestEveryWorkloadHasBothPrograms: each workload (but compile) has a
// Morrow program with one size line and a clause in the Erlang module.
func TestEveryWorkloadHasBothPrograms(t *testing.T) {
	erl := string(ErlangSource())
	for _, w := range Workloads {
		if w.Kind == CompileRate {
			continue
		}
		src, err := MorrowSource(w.Name, 7000)
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
			continue
		}
		if !strings.Contains(string(src), "fn size() -> Int: 7000\n") {
			t.Errorf("%s: the size was not substituted", w.Name)
		}
		if !strings.Contains(string(src), "morrow-bench "+w.Name+" check=") {
			t.Errorf("%s.mr never prints its check line", w.Name)
		}
		if !regexp.MustCompile(`(?m)^run\(` + w.Name + `, N\) ->`).MatchString(erl) {
			t.Errorf("morrow_bench.erl has no run(%s, N) clause", w.Name)
		}
		if err := w.ValidSize(w.Size); err != nil {
			t.Errorf("default size: %v", err)
		}
		if err := w.ValidSize(w.QuickSize); err != nil {
			t.Errorf("quick size: %v", err)
		}
	}
}

// TestMorrowProgramsCompile keeps the Morrow programs compiling.
func TestMorrowProgramsCompile(t *testing.T) {
	for _, name := range []string{"empty"} {
		src, err := MorrowSource(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(name+".mr", src); err != nil {
			t.Error(err)
		}
	}
	for _, w := range Workloads {
		if w.Kind == CompileRate {
			continue
		}
		src, err := MorrowSource(w.Name, w.Size)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Compile(w.Name+".mr", src); err != nil {
			t.Error(err)
		}
	}
}

// TestCompileSourceNearLimit: the default compile workload fits the
// 65,536-token limit and a slightly bigger one does not, so the workload
// really is "near the source limits".
func TestCompileSourceNearLimit(t *testing.T) {
	w, _ := Lookup("compile")
	if _, err := Compile("compile.mr", CompileSource(w.Size)); err != nil {
		t.Fatalf("default size does not compile: %v", err)
	}
	_, err := Compile("compile.mr", CompileSource(w.Size+2))
	if err == nil || !strings.Contains(err.Error(), "E0020") {
		t.Fatalf("size %d should exceed the token limit, got %v", w.Size+2, err)
	}
}

func TestParseErlang(t *testing.T) {
	out := "noise\nmorrow-bench idle size=1000 micros=1234 check=1000 bytes_per_process=2648.2\n"
	r, err := ParseErlang("idle", 1000, out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Elapsed != 1234*time.Microsecond || r.Check != "1000" || r.BytesPerProcess != 2648.2 {
		t.Errorf("parsed %+v", r)
	}
	r, err = ParseErlang("lifecycle", 400, "morrow-bench lifecycle size=400 micros=9 check=normal:200,fault:200\n")
	if err != nil || r.Check != "normal:200,fault:200" || r.BytesPerProcess != 0 {
		t.Errorf("lifecycle: %+v, %v", r, err)
	}
	if _, err := ParseErlang("ring", 10, "morrow-bench ring size=11 micros=9 check=11\n"); err == nil {
		t.Error("a result for another size was accepted")
	}
	if _, err := ParseErlang("ring", 10, "{\"init terminating in do_boot\",...}\n"); err == nil {
		t.Error("output without a result line was accepted")
	}
}

func TestMarkWriter(t *testing.T) {
	w := &markWriter{marks: map[string]uint64{}}
	for _, chunk := range []string{"morrow-bench-mark be", "fore\nhello\nmorrow-bench-mark parked", "\ntail"} {
		if _, err := w.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.marks) != 2 || w.marks["before"] == 0 || w.marks["parked"] == 0 {
		t.Errorf("marks %v", w.marks)
	}
	if got := w.buf.String(); got != "morrow-bench-mark before\nhello\nmorrow-bench-mark parked\ntail" {
		t.Errorf("text %q", got)
	}
}

func TestRatioAndTargets(t *testing.T) {
	ring, _ := Lookup("ring")
	fib, _ := Lookup("fib")
	idle, _ := Lookup("idle")
	comp, _ := Lookup("compile")
	cases := []struct {
		row         Row
		ratio       float64
		meets, know bool
	}{
		{Row{Workload: ring, Morrow: Figure{Value: 3e6}, Beam: Figure{Value: 2e6}}, 1.5, true, true},
		{Row{Workload: ring, Morrow: Figure{Value: 1e6}, Beam: Figure{Value: 2e6}}, 0.5, false, true},
		{Row{Workload: fib, Morrow: Figure{Value: 2}, Beam: Figure{Value: 1}}, 0.5, true, true},
		{Row{Workload: fib, Morrow: Figure{Value: 4}, Beam: Figure{Value: 1}}, 0.25, false, true},
		{Row{Workload: idle, Morrow: Figure{Value: 1000}, Beam: Figure{Value: 2700}}, 1000.0 / 2700, true, true},
		{Row{Workload: idle, Morrow: Figure{Value: 2000}, Beam: Figure{Value: 2700}}, 2000.0 / 2700, false, true},
		{Row{Workload: comp, Morrow: Figure{Value: 2e5}}, 2, true, true},
		{Row{Workload: ring, Morrow: Figure{Value: 1e6}, Beam: Figure{Err: errors.New("x")}}, 0, false, false},
	}
	for i, c := range cases {
		ratio, ok := c.row.Ratio()
		meets, known := c.row.Meets()
		if ok != c.know || known != c.know || meets != c.meets || (ok && fmt.Sprintf("%.4f", ratio) != fmt.Sprintf("%.4f", c.ratio)) {
			t.Errorf("case %d: ratio %v %v, meets %v %v", i, ratio, ok, meets, known)
		}
	}
}

// TestQuickSuite runs every workload's Morrow program at its small size,
// at 1 and 2 schedulers, and requires every figure to be measured with
// the right check value.
func TestQuickSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the quick suite runs every workload (several seconds)")
	}
	o := Options{Quick: true, Runs: 1, Schedulers: []int{1, 2}, Steal: true, Timeout: 2 * time.Minute}
	rows, err := Measure(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Morrow.Err != nil {
			t.Errorf("%s Morrow at %d schedulers: %v", r.Workload.Name, r.Schedulers, r.Morrow.Err)
		}
	}
	var b strings.Builder
	WriteTable(&b, rows, false)
	t.Logf("quick sizes (not a measurement):\n%s", b.String())
}

// TestQuickErlang runs every workload's Erlang function at its small size
// at one scheduler (`+S 1:1`) and checks its result line and check value.
// It needs erl and erlc (apt-get install erlang-nox).
func TestQuickErlang(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts erl once per workload")
	}
	for _, exe := range []string{"erl", "erlc"} {
		if _, err := exec.LookPath(exe); err != nil {
			t.Skipf("%s is not in PATH, so the Erlang programs cannot be checked (apt-get install erlang-nox)", exe)
		}
	}
	e, err := NewErlang("", "")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, w := range Workloads {
		if w.Kind == CompileRate {
			continue
		}
		f := measureErlang(Options{Erlang: e, Runs: 1, Timeout: 2 * time.Minute}, w, w.QuickSize, 1)
		if f.Err != nil {
			t.Errorf("%s: %v", w.Name, f.Err)
		} else if w.Kind == Memory && (f.Value < 100 || f.Value > 100000) {
			t.Errorf("%s: %.0f bytes per process is implausible", w.Name, f.Value)
		}
	}
}

// TestAlternateRunsInTurn: the sides of a row run M, B, M, B, ...; each
// figure is the median of its runs; a failing side stops while the other
// goes on.
func TestAlternateRunsInTurn(t *testing.T) {
	var order []string
	mv := []float64{5, 1, 4, 2, 3}
	bv := []float64{10, 30, 20, 50, 40}
	var mi, bi int
	m, b := alternate(5,
		func() (float64, error) { order = append(order, "M"); mi++; return mv[mi-1], nil },
		func() (float64, error) { order = append(order, "B"); bi++; return bv[bi-1], nil })
	if got := strings.Join(order, ""); got != "MBMBMBMBMB" {
		t.Errorf("run order %s", got)
	}
	if m.Value != 3 || b.Value != 30 || len(m.Runs) != 5 || m.Runs[0] != 5 || b.Runs[4] != 40 {
		t.Errorf("figures %+v %+v", m, b)
	}
	if lo, hi := m.Spread(); lo != 1 || hi != 5 {
		t.Errorf("spread %v–%v", lo, hi)
	}
	order = nil
	m, b = alternate(3,
		func() (float64, error) { order = append(order, "M"); return 0, errors.New("fault") },
		func() (float64, error) { order = append(order, "B"); return 7, nil })
	if got := strings.Join(order, ""); got != "MBBB" || m.Err == nil || b.Err != nil || b.Value != 7 {
		t.Errorf("after a failure: order %s, %+v %+v", got, m, b)
	}
	if _, b := alternate(2, nil, func() (float64, error) { return 2, nil }); len(b.Runs) != 2 {
		t.Errorf("one side alone: %+v", b)
	}
}

func TestMedianAndPairedRatio(t *testing.T) {
	for _, c := range []struct {
		runs []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{4, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.runs); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.runs, got, c.want)
		}
	}
	// run by run: 2/1, 6/2, 12/3 -> ratios 2, 3, 4 -> 3 (the ratio of
	// the medians would be 6/2 as well; make them differ)
	a := Figure{Value: 6, Runs: []float64{2, 6, 12}}
	b := Figure{Value: 3, Runs: []float64{1, 2, 3}}
	if got := pairedRatio(a, b); got != 3 {
		t.Errorf("paired ratio %v, want 3", got)
	}
	a = Figure{Value: 10, Runs: []float64{10, 10, 10}}
	b = Figure{Value: 5, Runs: []float64{2, 5, 20}}
	if got := pairedRatio(a, b); got != 2 {
		t.Errorf("paired ratio %v, want the median of 5, 2, 0.5", got)
	}
	if got := pairedRatio(Figure{Value: 6, Runs: []float64{6}}, Figure{Value: 3}); got != 2 {
		t.Errorf("unpaired ratio %v, want 2", got)
	}
}

// TestTableShowsSpreadAndRuns: the table gives each figure's median and
// range, and the runs table every run in order, in both formats.
func TestTableShowsSpreadAndRuns(t *testing.T) {
	ring, _ := Lookup("ring")
	comp, _ := Lookup("compile")
	rows := []Row{
		{Workload: ring, Size: 1000, Schedulers: 1,
			Morrow: Figure{Value: 2e6, Runs: []float64{2.5e6, 2e6, 1.5e6}},
			Beam:   Figure{Value: 4e6, Runs: []float64{5e6, 4e6, 3e6}}},
		{Workload: comp, Size: 100, Morrow: Figure{Value: 1.2e5, Runs: []float64{1.2e5, 1.1e5, 1.3e5}}, Beam: Figure{Err: errors.New("skipped")}},
	}
	for _, md := range []bool{false, true} {
		var b strings.Builder
		WriteTable(&b, rows, md)
		WriteRuns(&b, rows, md)
		out := b.String()
		for _, want := range []string{
			"2.00 M msg/s (1.50 M–2.50 M)", "4.00 M msg/s (3.00 M–5.00 M)", "0.50×",
			"120.0 k lines/s (110.0 k–130.0 k)",
			"2.50 M msg/s, 2.00 M msg/s, 1.50 M msg/s", "5.00 M msg/s, 4.00 M msg/s, 3.00 M msg/s",
			"120.0 k lines/s, 110.0 k lines/s, 130.0 k lines/s",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("markdown %v: output lacks %q:\n%s", md, want, out)
			}
		}
		if md != strings.Contains(out, "| ring | 1 | BEAM |") {
			t.Errorf("markdown %v: runs table format:\n%s", md, out)
		}
	}
}

// TestRingCheckCountsHops: ring's check value is the number of hops the
// token made, so a ring that makes half the hops reports a wrong check
// value (it used to print its size parameter whatever happened).
func TestRingCheckCountsHops(t *testing.T) {
	w, _ := Lookup("ring")
	src, err := MorrowSource("ring", 3000)
	if err != nil {
		t.Fatal(err)
	}
	run := func(src []byte) error {
		p, err := Compile("ring.mr", src)
		if err != nil {
			t.Fatal(err)
		}
		r, err := RunMorrow(p, RunConfig{Schedulers: 1, Timeout: time.Minute})
		if err != nil {
			return err
		}
		return checkLine(w, 3000, r.Stdout)
	}
	if err := run(src); err != nil {
		t.Fatalf("ring: %v", err)
	}
	skipping := strings.ReplaceAll(string(src), "Hop(hops - 1, 1)", "Hop(hops / 2 - 1, 1)")
	if skipping == string(src) {
		t.Fatal("ring.mr no longer starts the token with Hop(hops - 1, 1)")
	}
	if err := run([]byte(skipping)); err == nil || !strings.Contains(err.Error(), "check=3000") {
		t.Errorf("a ring that skips hops passed the check: %v", err)
	}
	if !strings.Contains(string(ErlangSource()), "{hop, Left - 1, Made + 1}") {
		t.Error("the Erlang ring does not count its hops")
	}
}

// TestBenchLimitsKeepTheDefaultAccounting: the raised limits of a
// benchmark run must not switch the runtime to the dearer split
// accounting that the default limits never use, or the suite would
// measure a configuration users do not run.
func TestBenchLimitsKeepTheDefaultAccounting(t *testing.T) {
	if !proc.PackedLimits(0, 0) {
		t.Fatal("the default limits are not packed")
	}
	if !proc.PackedLimits(BenchMemoryBudget, BenchMaxQueued) {
		t.Errorf("budget %d, MaxQueued %d: the benchmark limits use the split accounting", int64(BenchMemoryBudget), int64(BenchMaxQueued))
	}
}
