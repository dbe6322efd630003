// Command benchtable runs Morrow's benchmark suite (package bench) against
// Erlang/OTP and prints the side-by-side table of docs/reference/runtime.md#benchmarks-and-targets: workload,
// Morrow figure, BEAM figure, ratio, at 1 and 2 schedulers.
//
//	go run ./bench/cmd/benchtable                 # the full suite
//	go run ./bench/cmd/benchtable -quick          # small sizes, a smoke test
//	go run ./bench/cmd/benchtable -only ring,fib -runs 5 -markdown
//
// The Morrow side runs in this process (engine.Run, timed, minus an empty
// program's run); the BEAM side runs `erl +S N:N` once per run and reads
// the time the Erlang code measured itself. The two sides of a row
// alternate (Morrow, BEAM, Morrow, BEAM, ...) for -runs runs each; each
// figure is the median of its runs, printed with their range, and the
// ratio is the median of the run-by-run ratios. The output records the
// load average at the start and at the end, and every run's figure after
// the table. Progress goes to stderr, the table to stdout. The exit
// status is 1 when a figure could not be measured (a wrong check value, a
// fault, a timeout), 0 otherwise; missed targets do not fail the command.
//
// Like the morrow binary, benchtable sets the Go runtime as Morrow does
// (runtime/gotune: GC percent 400 unless GOGC is set; engine.Run sets
// GOMAXPROCS to the schedulers of each run).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/morrow-lang/morrow/bench"
	"github.com/morrow-lang/morrow/runtime/gotune"
)

func main() {
	gotune.SetGC()
	os.Exit(run())
}

func run() int {
	var (
		only     = flag.String("only", "", "comma-separated workloads (default: all): "+names())
		sched    = flag.String("schedulers", "1,2", "comma-separated scheduler counts")
		runs     = flag.Int("runs", 5, "runs per figure, alternating Morrow and BEAM; the median is reported")
		quick    = flag.Bool("quick", false, "use small sizes (a smoke test, not a measurement)")
		sizes    = flag.String("size", "", "size overrides, e.g. ring=100000,fib=25")
		steal    = flag.Bool("steal", true, "Morrow work stealing at more than one scheduler (BEAM always steals)")
		noErlang = flag.Bool("no-erlang", false, "skip the BEAM side")
		erl      = flag.String("erl", "", "erl executable (default: from PATH)")
		erlc     = flag.String("erlc", "", "erlc executable (default: from PATH)")
		markdown = flag.Bool("markdown", false, "print the table as Markdown")
		timeout  = flag.Duration("timeout", 10*time.Minute, "limit per run")
		quiet    = flag.Bool("q", false, "no progress lines on stderr")
	)
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "benchtable: unexpected arguments %q\n", flag.Args())
		return 2
	}
	o := bench.Options{Runs: *runs, Quick: *quick, Steal: *steal, Timeout: *timeout, Sizes: map[string]int{}}
	if !*quiet {
		o.Log = os.Stderr
	}
	if *only != "" {
		o.Workloads = strings.Split(*only, ",")
	}
	var err error
	if o.Schedulers, err = parseSchedulers(*sched); err == nil {
		err = parseSizes(*sizes, o.Sizes)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchtable: %v\n", err)
		return 2
	}
	if !*noErlang {
		e, err := bench.NewErlang(*erl, *erlc)
		if err != nil {
			fmt.Fprintf(os.Stderr, "benchtable: %v\n(use -no-erlang to run the Morrow side alone)\n", err)
			return 1
		}
		defer e.Close()
		o.Erlang = e
	}
	env := bench.Environment(o.Erlang)
	loadStart := bench.LoadAverage()
	rows, err := bench.Measure(o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchtable: %v\n", err)
		return 2
	}
	loadEnd := bench.LoadAverage()
	fmt.Printf("Morrow vs BEAM: %s\n", env)
	fmt.Printf("load average (1, 5, 15 min): %s at start, %s at end\n", loadStart, loadEnd)
	fmt.Printf("median of %d run(s) per figure, Morrow and BEAM alternating, range of the runs in parentheses;\n"+
		"Morrow work stealing %v; ratio: Morrow/BEAM for rates and memory, BEAM/Morrow for times,\n"+
		"the median of the run-by-run ratios\n\n", o.Runs, *steal)
	bench.WriteTable(os.Stdout, rows, *markdown)
	fmt.Println()
	fmt.Println("every run, in the order run:")
	fmt.Println()
	bench.WriteRuns(os.Stdout, rows, *markdown)
	if anyFailed(rows, o.Erlang != nil) {
		fmt.Println()
		fmt.Println("not measured:")
		bench.WriteFailures(os.Stdout, rows)
		return 1
	}
	return 0
}

// parseSchedulers parses the -schedulers list: counts from 1 to 64.
func parseSchedulers(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n > 64 {
			return nil, fmt.Errorf("bad scheduler count %q", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseSizes parses the -size overrides (name=N, comma-separated) into
// sizes.
func parseSizes(list string, sizes map[string]int) error {
	if list == "" {
		return nil
	}
	for _, kv := range strings.Split(list, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil {
			return fmt.Errorf("bad size %q (want name=N)", kv)
		}
		sizes[k] = n
	}
	return nil
}

// anyFailed reports whether a figure was not measured: a Morrow one, or
// with BEAM a BEAM one (compile rows have none).
func anyFailed(rows []bench.Row, withErlang bool) bool {
	for _, r := range rows {
		if r.Morrow.Err != nil || (withErlang && r.Beam.Err != nil && r.Workload.Kind != bench.CompileRate) {
			return true
		}
	}
	return false
}

func names() string {
	var n []string
	for _, w := range bench.Workloads {
		n = append(n, w.Name)
	}
	return strings.Join(n, ", ")
}
