package bench

import (
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
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
