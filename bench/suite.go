package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Options configures one suite run.
type Options struct {
	Workloads  []string       // names; empty means all
	Schedulers []int          // e.g. 1, 2
	Runs       int            // each figure is the median of Runs runs
	Quick      bool           // use QuickSize instead of Size
	Sizes      map[string]int // per-workload size overrides
	Steal      bool           // Morrow work stealing when schedulers > 1
	Erlang     *Erlang        // nil skips the BEAM side
	Timeout    time.Duration  // per run
	Log        io.Writer      // progress lines; nil for none
}

// Figure is one side's result for one row.
type Figure struct {
	Value float64 // the median run, in the workload's unit
	Err   error
	Runs  []float64 // every run's value, in the order they ran
}

// Spread is the range of the runs, lowest and highest value.
func (f Figure) Spread() (lo, hi float64) {
	if len(f.Runs) == 0 {
		return f.Value, f.Value
	}
	lo, hi = f.Runs[0], f.Runs[0]
	for _, v := range f.Runs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// median is the middle value (the mean of the two middle ones for an even
// count); 0 for none.
func median(runs []float64) float64 {
	if len(runs) == 0 {
		return 0
	}
	v := append([]float64(nil), runs...)
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// pairedRatio is a/b for two figures: the median of the run-by-run ratios
// a.Runs[i]/b.Runs[i] when both have the same number of runs (the suite
// alternates the sides, so run i of each ran back to back and a drift in
// the machine's speed affects both alike), else the ratio of the medians.
func pairedRatio(a, b Figure) float64 {
	if len(a.Runs) == 0 || len(a.Runs) != len(b.Runs) {
		return a.Value / b.Value
	}
	r := make([]float64, len(a.Runs))
	for i := range a.Runs {
		r[i] = a.Runs[i] / b.Runs[i]
	}
	return median(r)
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

// Ratio is the comparison docs/reference/runtime.md#benchmarks-and-targets states targets for: Morrow/BEAM
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
		return pairedRatio(r.Beam, r.Morrow), true
	default:
		if !r.Beam.OK() {
			return 0, false
		}
		return pairedRatio(r.Morrow, r.Beam), true
	}
}

// Meets reports whether the row reaches its docs/reference/runtime.md#benchmarks-and-targets target.
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
	baseline, err := baselines(o)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, w := range ws {
		if w.Kind == CompileRate {
			rows = append(rows, compileRow(o, w))
			continue
		}
		rows = append(rows, measureRuns(o, w, baseline)...)
	}
	return rows, nil
}

// baselines returns, per scheduler count, the best of five runs of the
// empty program: the start-up time subtracted from every run.
func baselines(o Options) (map[int]time.Duration, error) {
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
	return baseline, nil
}

// compileRow measures the compile-rate workload w.
func compileRow(o Options, w Workload) Row {
	size := o.size(w)
	row := Row{Workload: w, Size: size}
	row.Morrow = measureCompile(o, size)
	o.logf("%s: Morrow %s", w.Title, describe(w, row.Morrow))
	return row
}

// measureRuns measures workload w at each scheduler count, on Morrow and
// (when configured) on BEAM, alternating their runs.
func measureRuns(o Options, w Workload, baseline map[int]time.Duration) []Row {
	size := o.size(w)
	src, err := MorrowSource(w.Name, size)
	var prog *bytecode.Program
	if err == nil {
		prog, err = Compile(w.Name+".mr", src)
	}
	var rows []Row
	for _, n := range o.Schedulers {
		row := Row{Workload: w, Size: size, Schedulers: n}
		var morrow, beam func() (float64, error)
		if err == nil {
			morrow = func() (float64, error) { return runMorrowOnce(o, w, size, prog, n, baseline[n]) }
		}
		if o.Erlang != nil {
			beam = func() (float64, error) { return runErlangOnce(o, w, size, n) }
		}
		row.Morrow, row.Beam = alternate(o.runs(), morrow, beam)
		if err != nil {
			row.Morrow = Figure{Err: err}
		}
		o.logf("%s at %d scheduler(s): Morrow %s", w.Title, n, describe(w, row.Morrow))
		if o.Erlang == nil {
			row.Beam = Figure{Err: fmt.Errorf("skipped")}
		} else {
			o.logf("%s at %d scheduler(s): BEAM %s", w.Title, n, describe(w, row.Beam))
		}
		rows = append(rows, row)
	}
	return rows
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

// checkLine verifies that a Morrow program printed its check value and no
// error line.
func checkLine(w Workload, size int, stdout string) error {
	want := fmt.Sprintf("morrow-bench %s check=%s\n", w.Name, w.Check(size))
	if strings.Contains(stdout, "morrow-bench error") || !strings.Contains(stdout, want) {
		return fmt.Errorf("output does not contain %q:\n%s", strings.TrimSpace(want), stdout)
	}
	return nil
}

// alternate runs the two sides of one row in turn, Morrow then BEAM, runs
// times each (M, B, M, B, ...), so that a change in the machine's load
// during the row affects both sides alike. A nil side is not run. A side
// that fails stops with its error; the other one goes on. Each figure is
// the median of its runs.
func alternate(runs int, morrow, beam func() (float64, error)) (m, b Figure) {
	sides := []struct {
		run func() (float64, error)
		f   *Figure
	}{{morrow, &m}, {beam, &b}}
	for i := 0; i < runs; i++ {
		for _, s := range sides {
			if s.run == nil || s.f.Err != nil {
				continue
			}
			v, err := s.run()
			if err != nil {
				*s.f = Figure{Err: err}
				continue
			}
			s.f.Runs = append(s.f.Runs, v)
		}
	}
	for _, s := range sides {
		if s.f.Err == nil {
			s.f.Value = median(s.f.Runs)
		}
	}
	return m, b
}

// runMorrowOnce runs the compiled program once and returns its figure.
func runMorrowOnce(o Options, w Workload, size int, prog *bytecode.Program, n int, baseline time.Duration) (float64, error) {
	r, err := RunMorrow(prog, RunConfig{Schedulers: n, Steal: o.Steal && n > 1, Timeout: o.Timeout})
	if err == nil {
		err = checkLine(w, size, r.Stdout)
	}
	if err != nil {
		return 0, err
	}
	if w.Kind == Memory {
		before, ok1 := r.Marks["before"]
		parked, ok2 := r.Marks["parked"]
		if !ok1 || !ok2 {
			return 0, fmt.Errorf("the program did not print both marks")
		}
		return (float64(parked) - float64(before)) / float64(size), nil
	}
	return figureOf(w, size, max(r.Elapsed-baseline, time.Microsecond)), nil
}

// runErlangOnce runs the Erlang function once, verifies its check value
// and returns its figure.
func runErlangOnce(o Options, w Workload, size int, n int) (float64, error) {
	r, err := o.Erlang.Run(w.Name, size, n, o.Timeout)
	if err == nil && r.Check != w.Check(size) {
		err = fmt.Errorf("check value %s, want %s", r.Check, w.Check(size))
	}
	if err != nil {
		return 0, err
	}
	if w.Kind == Memory {
		return r.BytesPerProcess, nil
	}
	return figureOf(w, size, max(r.Elapsed, time.Microsecond)), nil
}

// measureErlang measures the BEAM side alone.
func measureErlang(o Options, w Workload, size int, n int) Figure {
	_, b := alternate(o.runs(), nil, func() (float64, error) { return runErlangOnce(o, w, size, n) })
	return b
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
	f.Value = median(f.Runs)
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

// Format renders a figure (its median) in the workload's unit.
func Format(w Workload, f Figure) string {
	if f.Err != nil {
		return "n/a"
	}
	return formatValue(w, f.Value)
}

func formatValue(w Workload, v float64) string {
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

// short is formatValue without the workload's unit (a time keeps "ms").
func short(w Workload, v float64) string {
	return strings.TrimSuffix(formatValue(w, v), " "+w.Unit)
}

// FormatSpread renders a figure as its median and the range of its runs,
// e.g. "1.52 M msg/s (1.31 M–1.60 M)".
func FormatSpread(w Workload, f Figure) string {
	if f.Err != nil || len(f.Runs) < 2 {
		return Format(w, f)
	}
	lo, hi := f.Spread()
	return fmt.Sprintf("%s (%s–%s)", Format(w, f), short(w, lo), short(w, hi))
}

// describe is the progress-log form of a figure.
func describe(w Workload, f Figure) string {
	if f.Err != nil {
		return "failed: " + f.Err.Error()
	}
	if len(f.Runs) < 2 {
		return Format(w, f)
	}
	return fmt.Sprintf("median of %d runs %s", len(f.Runs), FormatSpread(w, f))
}

// targetText is the docs/reference/runtime.md#benchmarks-and-targets target in words.
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
// Markdown table: each figure is the median of its runs with their range
// in parentheses.
func WriteTable(out io.Writer, rows []Row, markdown bool) {
	header := []string{"workload", "sched", "size", "Morrow", "BEAM", "ratio", "target", "met"}
	var cells [][]string
	for _, r := range rows {
		beam := FormatSpread(r.Workload, r.Beam)
		if r.Workload.Kind == CompileRate {
			beam = "—"
		}
		cells = append(cells, []string{r.Workload.Title, schedText(r), fmt.Sprint(r.Size),
			FormatSpread(r.Workload, r.Morrow), beam, ratioText(r), targetText(r.Workload), meetsText(r)})
	}
	writeCells(out, header, cells, markdown)
}

// WriteRuns prints every run's figure, in the order the runs were made
// (the two sides of a row alternate: Morrow, BEAM, Morrow, ...).
func WriteRuns(out io.Writer, rows []Row, markdown bool) {
	header := []string{"workload", "sched", "side", "runs"}
	var cells [][]string
	for _, r := range rows {
		for _, side := range []struct {
			name string
			f    Figure
		}{{"Morrow", r.Morrow}, {"BEAM", r.Beam}} {
			if len(side.f.Runs) == 0 {
				continue
			}
			var vs []string
			for _, v := range side.f.Runs {
				vs = append(vs, formatValue(r.Workload, v))
			}
			cells = append(cells, []string{r.Workload.Title, schedText(r), side.name, strings.Join(vs, ", ")})
		}
	}
	writeCells(out, header, cells, markdown)
}

// writeCells prints a table as aligned text or as Markdown.
func writeCells(out io.Writer, header []string, cells [][]string, markdown bool) {
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
	return strings.Join(parts, "; ")
}

// LoadAverage is the 1, 5 and 15 minute load average of the machine
// (/proc/loadavg), or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
