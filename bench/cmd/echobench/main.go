// Command echobench prints the echo benchmark's table (bench/echo): the
// Morrow echo server against the Erlang gen_tcp {active, once} server,
// each in its own OS process, driven by the same load generator at each
// connection count; lines echoed per second, the median of -runs runs
// taken in turn (Morrow, BEAM, Morrow, ...).
//
//	go run ./bench/cmd/echobench [-conns 1,20] [-d 3s] [-runs 3] [-schedulers 1]
//
// Figures mean something only on a quiet machine.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/morrow-lang/morrow/bench/echo"
)

func main() {
	var (
		conns    = flag.String("conns", "1,20", "comma-separated connection counts")
		d        = flag.Duration("d", 3*time.Second, "load time per run")
		runs     = flag.Int("runs", 3, "runs per figure; the median is reported")
		sched    = flag.Int("schedulers", 1, "schedulers of both servers")
		noErlang = flag.Bool("no-erlang", false, "skip the BEAM side")
		serve    = flag.Bool("serve-morrow", false, "internal: run the Morrow server in this process")
	)
	flag.Parse()
	if *serve {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		os.Exit(echo.ServeMorrow(ctx, *sched, os.Stdout, os.Stderr))
	}
	self, err := os.Executable()
	if err != nil {
		fatal(err)
	}
	morrow := func() (*echo.Server, error) {
		return echo.Start(exec.Command(self, "-serve-morrow", "-schedulers", strconv.Itoa(*sched)))
	}
	var beam func() (*echo.Server, error)
	if !*noErlang {
		dir, err := os.MkdirTemp("", "morrow-echo-erl-")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
		erl, err1 := exec.LookPath("erl")
		erlc, err2 := exec.LookPath("erlc")
		if err1 != nil || err2 != nil {
			fatal(fmt.Errorf("erl and erlc are needed (or -no-erlang)"))
		}
		beam = func() (*echo.Server, error) {
			cmd, err := echo.ErlangCommand(erl, erlc, dir, *sched)
			if err != nil {
				return nil, err
			}
			return echo.Start(cmd)
		}
	}
	fmt.Printf("echo: lines/s, %d scheduler(s), %v per run, median of %d\n", *sched, *d, *runs)
	fmt.Printf("%-12s %14s %14s %8s\n", "connections", "Morrow", "BEAM", "ratio")
	for _, f := range strings.Split(*conns, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fatal(fmt.Errorf("bad connection count %q", f))
		}
		var m, b []float64
		for r := 0; r < *runs; r++ {
			m = append(m, measure(morrow, n, *d))
			if beam != nil {
				b = append(b, measure(beam, n, *d))
			}
		}
		mm, bm := median(m), median(b)
		ratio := "-"
		if bm > 0 {
			ratio = fmt.Sprintf("%.2fx", mm/bm)
		}
		fmt.Printf("%-12d %14.0f %14.0f %8s\n", n, mm, bm, ratio)
	}
}

func measure(start func() (*echo.Server, error), conns int, d time.Duration) float64 {
	s, err := start()
	if err != nil {
		fatal(err)
	}
	defer s.Stop()
	lines, err := echo.Load(s.Addr, conns, d)
	if err != nil {
		fatal(err)
	}
	return float64(lines) / d.Seconds()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}

func fatal(err error) {
	fmt.Fprintf(os.Stderr, "echobench: %v\n", err)
	os.Exit(1)
}
