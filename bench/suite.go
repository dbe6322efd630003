package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Options configures one suite run.
type Options struct {
	Workloads  []string       // names; empty means all
	Schedulers []int          // e.g. 1, 2
	Runs       int            // each figure is the best of Runs runs
	Quick      bool           // use QuickSize instead of Size
	Sizes      map[string]int // per-workload size overrides
	Steal      bool           // Morrow work stealing when schedulers > 1
	Erlang     *Erlang        // nil skips the BEAM side
	Timeout    time.Duration  // per run
	Log        io.Writer      // progress lines; nil for none
}

// Figure is one side's result for one row.
type Figure struct {
	Value float64 // in the workload's unit
	Err   error
	Runs  []float64 // every run's value, for the record
}

// OK reports whether the figure was measured.
func (f Figure) OK() bool { return f.Err == nil && f.Value > 0 }

// Row is one line of the table.
type Row struct {
	Workload   Workload
	Size       int
	Schedulers int // 0 for compile, which does not depend on it
	Morrow     Figure
	Beam       Figure
}

// Ratio is the comparison RUNTIME.md §4 states targets for: Morrow/BEAM
// for rates and memory, BEAM/Morrow for times (so higher is faster), and
// the figure itself over the target for compile.
func (r Row) Ratio() (float64, bool) {
	if !r.Morrow.OK() {
		return 0, false
	}
	switch r.Workload.Kind {
	case CompileRate:
		return r.Morrow.Value / r.Workload.Target, true
	case Seconds:
		if !r.Beam.OK() {
			return 0, false
		}
		return r.Beam.Value / r.Morrow.Value, true
	default:
		if !r.Beam.OK() {
			return 0, false
		}
		return r.Morrow.Value / r.Beam.Value, true
	}
}

// Meets reports whether the row reaches its RUNTIME.md §4 target.
func (r Row) Meets() (meets, known bool) {
	ratio, ok := r.Ratio()
	if !ok {
		return false, false
	}
	if r.Workload.Kind == Memory {
		return ratio <= r.Workload.Target, true
	}
	if r.Workload.Kind == CompileRate {
		return ratio >= 1, true
	}
	return ratio >= r.Workload.Target, true
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

func (o Options) size(w Workload) int {
	if n, ok := o.Sizes[w.Name]; ok {
		return n
	}
	if o.Quick {
		return w.QuickSize
	}
	return w.Size
}

func (o Options) runs() int {
	if o.Runs < 1 {
		return 1
	}
	return o.Runs
}

// selected returns the workloads to run, in table order.
func (o Options) selected() ([]Workload, error) {
	if len(o.Workloads) == 0 {
		return Workloads, nil
	}
	want := map[string]bool{}
	for _, n := range o.Workloads {
		if _, ok := Lookup(n); !ok {
			return nil, fmt.Errorf("unknown workload %q", n)
		}
		want[n] = true
	}
	var out []Workload
	for _, w := range Workloads {
		if want[w.Name] {
			out = append(out, w)
		}
	}
	return out, nil
}

// Measure runs the suite and returns one row per workload and scheduler
// count (one row for compile). A failed measurement is recorded in its
// Figure, not returned as an error; the error is for bad options.
func Measure(o Options) ([]Row, error) {
	ws, err := o.selected()
	if err != nil {
		return nil, err
	}
	if len(o.Schedulers) == 0 {
		o.Schedulers = []int{1, 2}
	}
	for _, w := range ws {
		if err := w.ValidSize(o.size(w)); err != nil {
			return nil, err
		}
	}
	empty, err := MorrowSource("empty", 0)
	if err != nil {
		return nil, err
	}
	emptyProg, err := Compile("empty.mr", empty)
	if err != nil {
		return nil, err
	}
	baseline := map[int]time.Duration{}
	for _, n := range o.Schedulers {
		best := time.Duration(math.MaxInt64)
		for i := 0; i < 5; i++ {
			r, err := RunMorrow(emptyProg, RunConfig{Schedulers: n, Steal: o.Steal && n > 1, Timeout: o.Timeout})
			if err != nil {
				return nil, fmt.Errorf("empty program: %v", err)
			}
			best = min(best, r.Elapsed)
		}
		baseline[n] = best
		o.logf("baseline (empty program) at %d scheduler(s): %v", n, best)
	}

	var rows []Row
	for _, w := range ws {
		size := o.size(w)
		if w.Kind == CompileRate {
			row := Row{Workload: w, Size: size}
			row.Morrow = measureCompile(o, size)
			o.logf("%s: Morrow %s", w.Title, describe(w, row.Morrow))
			rows = append(rows, row)
			continue
		}
		src, err := MorrowSource(w.Name, size)
		var prog *bytecode.Program
		if err == nil {
			prog, err = Compile(w.Name+".mr", src)
		}
		for _, n := range o.Schedulers {
			row := Row{Workload: w, Size: size, Schedulers: n}
			if err != nil {
				row.Morrow = Figure{Err: err}
			} else {
				row.Morrow = measureMorrow(o, w, size, prog, n, baseline[n])
			}
			o.logf("%s at %d scheduler(s): Morrow %s", w.Title, n, describe(w, row.Morrow))
			if o.Erlang != nil {
				row.Beam = measureErlang(o, w, size, n)
				o.logf("%s at %d scheduler(s): BEAM %s", w.Title, n, describe(w, row.Beam))
			} else {
				row.Beam = Figure{Err: fmt.Errorf("skipped")}
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// figureOf turns an elapsed time (or a memory sample) into the figure.
func figureOf(w Workload, size int, elapsed time.Duration) float64 {
	secs := elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	switch w.Kind {
	case Rate:
		return w.Units(size) / secs
	default:
		return secs
	}
}

// better reports whether figure a is better than b for this workload.
func better(w Workload, a, b float64) bool {
	switch w.Kind {
	case Rate, CompileRate:
		return a > b
	default:
		return a < b
	}
}

func best(w Workload, runs []float64) float64 {
	v := runs[0]
	for _, x := range runs[1:] {
		if better(w, x, v) {
			v = x
		}
	}
	return v
}

// checkLine verifies that a Morrow program printed its check value and no
// error line.
func checkLine(w Workload, size int, stdout string) error {
	want := fmt.Sprintf("morrow-bench %s check=%s\n", w.Name, w.Check(size))
	if strings.Contains(stdout, "morrow-bench error") || !strings.Contains(stdout, want) {
		return fmt.Errorf("output does not contain %q:\n%s", strings.TrimSpace(want), stdout)
	}
	return nil
}

func measureMorrow(o Options, w Workload, size int, prog *bytecode.Program, n int, baseline time.Duration) Figure {
	var f Figure
	for i := 0; i < o.runs(); i++ {
		r, err := RunMorrow(prog, RunConfig{Schedulers: n, Steal: o.Steal && n > 1, Timeout: o.Timeout})
		if err == nil {
			err = checkLine(w, size, r.Stdout)
		}
		if err != nil {
			return Figure{Err: err}
		}
		var v float64
		if w.Kind == Memory {
			before, ok1 := r.Marks["before"]
			parked, ok2 := r.Marks["parked"]
			if !ok1 || !ok2 {
				return Figure{Err: fmt.Errorf("the program did not print both marks")}
			}
			v = (float64(parked) - float64(before)) / float64(size)
		} else {
			v = figureOf(w, size, max(r.Elapsed-baseline, time.Microsecond))
		}
		f.Runs = append(f.Runs, v)
	}
	f.Value = best(w, f.Runs)
	return f
}

func measureErlang(o Options, w Workload, size int, n int) Figure {
	var f Figure
	for i := 0; i < o.runs(); i++ {
		r, err := o.Erlang.Run(w.Name, size, n, o.Timeout)
		if err == nil && r.Check != w.Check(size) {
			err = fmt.Errorf("check value %s, want %s", r.Check, w.Check(size))
		}
		if err != nil {
			return Figure{Err: err}
		}
		var v float64
		if w.Kind == Memory {
			v = r.BytesPerProcess
		} else {
			v = figureOf(w, size, max(r.Elapsed, time.Microsecond))
		}
		f.Runs = append(f.Runs, v)
	}
	f.Value = best(w, f.Runs)
	return f
}

func measureCompile(o Options, functions int) Figure {
	src := CompileSource(functions)
	lines := bytes.Count(src, []byte("\n"))
	var f Figure
	for i := 0; i < o.runs(); i++ {
		runtime.GC()
		start := time.Now()
		_, err := Compile("compile.mr", src)
		elapsed := time.Since(start)
		if err != nil {
			return Figure{Err: err}
		}
		f.Runs = append(f.Runs, float64(lines)/elapsed.Seconds())
	}
	f.Value = best(Workload{Kind: CompileRate}, f.Runs)
	return f
}

// CompileSource generates the compile workload: `functions` small
// functions (8 lines each, 56 tokens) and a main. The default size, 1,169
// functions or 9,355 lines, puts the file just under the 65,536-token
// limit (a test checks both sides of that).
func CompileSource(functions int) []byte {
	var b bytes.Buffer
	b.WriteString("# Generated by bench.CompileSource.\n")
	for i := 0; i < functions; i++ {
		fmt.Fprintf(&b, "fn f%d(a: Int, b: Int) -> Int:\n", i)
		fmt.Fprintf(&b, "    let c = a * %d + b\n", i%7+2)
		fmt.Fprintf(&b, "    let d = if c > %d: c - 1 else: c + 1\n", i)
		b.WriteString("    match d % 4:\n")
		b.WriteString("        0 -> d\n")
		b.WriteString("        1 -> d + a\n")
		b.WriteString("        _ -> d - b\n\n")
	}
	b.WriteString("fn main():\n    println(f0(a: 1, b: 2))\n")
	return b.Bytes()
}

// Format renders a figure in the workload's unit.
func Format(w Workload, f Figure) string {
	if f.Err != nil {
		return "n/a"
	}
	v := f.Value
	switch w.Kind {
	case Rate, CompileRate:
		switch {
		case v >= 1e6:
			return fmt.Sprintf("%.2f M %s", v/1e6, w.Unit)
		case v >= 1e3:
			return fmt.Sprintf("%.1f k %s", v/1e3, w.Unit)
		default:
			return fmt.Sprintf("%.0f %s", v, w.Unit)
		}
	case Seconds:
		if v < 0.1 {
			return fmt.Sprintf("%.2f ms", v*1e3)
		}
		return fmt.Sprintf("%.3f s", v)
	case Memory:
		return fmt.Sprintf("%.0f B/proc", v)
	}
	return fmt.Sprint(v)
}

// describe is the progress-log form of a figure: the best run and the
// range of all runs.
func describe(w Workload, f Figure) string {
	if f.Err != nil {
		return "failed: " + f.Err.Error()
	}
	if len(f.Runs) < 2 {
		return Format(w, f)
	}
	lo, hi := f.Runs[0], f.Runs[0]
	for _, v := range f.Runs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return fmt.Sprintf("%s (%d runs from %s to %s)", Format(w, f), len(f.Runs),
		Format(w, Figure{Value: lo}), Format(w, Figure{Value: hi}))
}

// targetText is the RUNTIME.md §4 target in words.
func targetText(w Workload) string {
	switch w.Kind {
	case Memory:
		return fmt.Sprintf("≤ %.1f×", w.Target)
	case CompileRate:
		return fmt.Sprintf("≥ %.0f k lines/s", w.Target/1e3)
	default:
		return fmt.Sprintf("≥ %.1f×", w.Target)
	}
}

func ratioText(r Row) string {
	ratio, ok := r.Ratio()
	if !ok {
		return "—"
	}
	if r.Workload.Kind == CompileRate {
		return "—"
	}
	return fmt.Sprintf("%.2f×", ratio)
}

func meetsText(r Row) string {
	meets, known := r.Meets()
	switch {
	case !known:
		return "?"
	case meets:
		return "yes"
	default:
		return "no"
	}
}

func schedText(r Row) string {
	if r.Schedulers == 0 {
		return "-"
	}
	return fmt.Sprint(r.Schedulers)
}

// WriteTable prints the side-by-side table as aligned text, or as a
// Markdown table.
func WriteTable(out io.Writer, rows []Row, markdown bool) {
	header := []string{"workload", "sched", "size", "Morrow", "BEAM", "ratio", "target", "met"}
	var cells [][]string
	for _, r := range rows {
		beam := Format(r.Workload, r.Beam)
		if r.Workload.Kind == CompileRate {
			beam = "—"
		}
		cells = append(cells, []string{r.Workload.Title, schedText(r), fmt.Sprint(r.Size),
			Format(r.Workload, r.Morrow), beam, ratioText(r), targetText(r.Workload), meetsText(r)})
	}
	if markdown {
		fmt.Fprintf(out, "| %s |\n", strings.Join(header, " | "))
		fmt.Fprintf(out, "|%s\n", strings.Repeat(" --- |", len(header)))
		for _, c := range cells {
			fmt.Fprintf(out, "| %s |\n", strings.Join(c, " | "))
		}
		return
	}
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = len([]rune(h))
	}
	for _, c := range cells {
		for i, s := range c {
			width[i] = max(width[i], len([]rune(s)))
		}
	}
	line := func(c []string) {
		var b strings.Builder
		for i, s := range c {
			b.WriteString(s)
			if i < len(c)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-len([]rune(s))+2))
			}
		}
		fmt.Fprintln(out, b.String())
	}
	line(header)
	for _, c := range cells {
		line(c)
	}
}

// WriteFailures lists the figures that could not be measured, with why.
func WriteFailures(out io.Writer, rows []Row) {
	for _, r := range rows {
		for _, side := range []struct {
			name string
			f    Figure
		}{{"Morrow", r.Morrow}, {"BEAM", r.Beam}} {
			if side.f.Err != nil && side.f.Err.Error() != "skipped" && !(side.name == "BEAM" && r.Workload.Kind == CompileRate) {
				fmt.Fprintf(out, "%s %s (schedulers %s): %v\n", r.Workload.Title, side.name, schedText(r), side.f.Err)
			}
		}
	}
}

// Environment describes the machine for the record.
func Environment(e *Erlang) string {
	var parts []string
	parts = append(parts, time.Now().Format("2006-01-02"))
	parts = append(parts, fmt.Sprintf("%s/%s, %d CPUs", runtime.GOOS, runtime.GOARCH, runtime.NumCPU()))
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				parts = append(parts, strings.TrimSpace(v))
				break
			}
		}
	}
	parts = append(parts, runtime.Version())
	if e != nil {
		if v, err := e.Version(); err == nil {
			parts = append(parts, v)
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		f := strings.Fields(string(b))
		if len(f) >= 3 {
			parts = append(parts, "load average "+strings.Join(f[:3], " ")+" at start")
		}
	}
	return strings.Join(parts, "; ")
}
