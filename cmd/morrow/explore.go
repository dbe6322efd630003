package main

// Schedule exploration flags of `morrow run` (docs/exploring.md):
// --explore N runs the program under N schedules chosen from --seed and
// reports each distinct outcome with the seed that replays it, as text
// or as JSON (--format json); --replay SEED runs the schedule of one
// seed like an ordinary run. Both run at one scheduler with a virtual
// clock (runtime/explore).

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/explore"
)

// maxExplore bounds --explore.
const maxExplore = 10_000_000

// exploreFlags are the settings of --explore and --replay.
type exploreFlags struct {
	runs     int
	replay   uint64
	format   string
	timeouts string
	mode     explore.Timeouts // timeouts, parsed by check
}

func (x *exploreFlags) register(fl *pflag.FlagSet) {
	fl.IntVar(&x.runs, "explore", 0, "run the program under N schedules and report each distinct outcome (docs/exploring.md)")
	fl.Uint64Var(&x.replay, "replay", 0, "run the schedule of SEED, as --explore reported it")
	fl.StringVar(&x.format, "format", "text", "report format of --explore: text or json")
	fl.StringVar(&x.timeouts, "explore-timeouts", "lazy", "when timers fire in --explore and --replay: lazy (only when nothing else can run) or eager (at any point, racing messages)")
}

// exploring reports whether --explore or --replay was given, and checks
// the flags that go with them.
func (x *exploreFlags) check(cmd *cobra.Command, f *runFlags) (explore, replay bool, err error) {
	changed := cmd.Flags().Changed
	explore, replay = changed("explore"), changed("replay")
	switch {
	case explore && replay:
		return false, false, &usageError{Msg: "--explore and --replay cannot be used together"}
	case changed("format") && !explore:
		return false, false, &usageError{Msg: "--format needs --explore"}
	case x.format != "text" && x.format != "json":
		return false, false, &usageError{Msg: fmt.Sprintf("--format must be text or json, got %q", x.format)}
	case explore && (x.runs < 1 || x.runs > maxExplore):
		return false, false, &usageError{Msg: fmt.Sprintf("--explore must be between 1 and %d, got %d", maxExplore, x.runs)}
	case changed("explore-timeouts") && !explore && !replay:
		return false, false, &usageError{Msg: "--explore-timeouts needs --explore or --replay"}
	}
	mode, ok := parseTimeouts(x.timeouts)
	if !ok {
		return false, false, &usageError{Msg: fmt.Sprintf("--explore-timeouts must be lazy or eager, got %q", x.timeouts)}
	}
	x.mode = mode
	if !explore && !replay {
		return false, false, nil
	}
	what := "--explore"
	if replay {
		what = "--replay"
	}
	if (changed("schedulers") && f.schedulers != 1) || (changed("steal") && f.steal) {
		return false, false, &usageError{Msg: what + " runs at one scheduler without stealing; drop --schedulers and --steal"}
	}
	if explore && f.trace != "" {
		return false, false, &usageError{Msg: "--explore cannot write a trace; trace one schedule with --replay SEED --trace FILE"}
	}
	if explore && (f.prof.cpu != "" || f.prof.mem != "") {
		return false, false, &usageError{Msg: "--explore cannot be profiled; profile one schedule with --replay SEED"}
	}
	return explore, replay, nil
}

// parseTimeouts reads --explore-timeouts (check's results shadow the
// package name).
func parseTimeouts(s string) (explore.Timeouts, bool) { return explore.ParseTimeouts(s) }

// replayOptions makes opts run the schedule of the --replay seed.
func (x *exploreFlags) replayOptions(p *bytecode.Verified, opts engine.Options) engine.Options {
	base := opts
	base.Stdout, base.Stderr, base.Trace = nil, nil, nil
	pl := explore.Prepare(context.Background(), p, base)
	pl.Timeouts = x.mode
	opts.Schedulers, opts.Steal = 1, false
	opts.Policy = pl.Policy(x.replay, exploreBudget(opts))
	opts.MaxSteps = pl.Limit
	return opts
}

// exploreBudget is the steps of a full turn under opts.
func exploreBudget(opts engine.Options) int {
	if opts.Reductions > 0 {
		return opts.Reductions * engine.StepsPerReduction
	}
	return engine.DefaultSlice
}

// explore runs --explore and writes the report. It exits 0 when every
// schedule had the same outcome and 1 when they differ.
func (x *exploreFlags) explore(e *env, p *bytecode.Verified, opts engine.Options, seed int64, path string) error {
	sigs, unsubscribe := e.subscribe()
	defer unsubscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got os.Signal
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case got = <-sigs:
			cancel()
		case <-stop:
		}
	}()
	opts.Stdout, opts.Stderr, opts.Trace = nil, nil, nil
	rep, err := explore.Explore(ctx, p, explore.Options{Runs: x.runs, Seed: uint64(seed), Engine: opts, Timeouts: x.mode})
	if err != nil {
		cancel()
		<-ctx.Done()
		if got != nil {
			// Interrupted: report the schedules that ran to their end.
			if rep != nil {
				if x.format == "json" {
					writeJSONReport(e.stdout, rep, path)
				} else {
					writeTextReport(e.stdout, rep, path)
				}
			}
			return cli.ExitStatus(signalStatus(got))
		}
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return cli.ExitStatus(cli.ExitError)
	}
	if x.format == "json" {
		writeJSONReport(e.stdout, rep, path)
	} else {
		writeTextReport(e.stdout, rep, path)
	}
	if len(rep.Outcomes) > 1 {
		return cli.ExitStatus(cli.ExitError)
	}
	return nil
}

// writeTextReport writes the report for people.
func writeTextReport(w io.Writer, rep *explore.Report, path string) {
	noun := "outcomes"
	if len(rep.Outcomes) == 1 {
		noun = "outcome"
	}
	sched := "schedules"
	if rep.Runs == 1 {
		sched = "schedule"
	}
	fmt.Fprintf(w, "explored %d %s of %s (seed %d): %d %s\n", rep.Runs, sched, filepath.ToSlash(path), int64(rep.Seed), len(rep.Outcomes), noun)
	if rep.Interrupted {
		fmt.Fprintf(w, "interrupted: %d of the %d schedules asked for ran\n", rep.Runs, rep.Asked)
	}
	for i, o := range rep.Outcomes {
		fmt.Fprintf(w, "\noutcome %d: %d of %d schedules, first with --replay %d\n", i+1, o.Count, rep.Runs, o.Seed)
		fmt.Fprintf(w, "  exit status %d\n", o.Status)
		block(w, "stdout", o.Stdout)
		if o.Stderr != "" {
			block(w, "stderr", o.Stderr)
		}
	}
}

// block writes an output indented under its name.
func block(w io.Writer, name, text string) {
	if text == "" {
		fmt.Fprintf(w, "  %s: (empty)\n", name)
		return
	}
	fmt.Fprintf(w, "  %s:\n", name)
	lines := strings.SplitAfter(text, "\n")
	for _, l := range lines {
		if l == "" {
			continue
		}
		if strings.HasSuffix(l, "\n") {
			fmt.Fprintf(w, "    %s", l)
		} else {
			fmt.Fprintf(w, "    %s\n    (no newline at the end)\n", l)
		}
	}
}

// jsonReport is the --format json report.
type jsonReport struct {
	File      string        `json:"file"`
	Schedules int           `json:"schedules"`
	Seed      int64         `json:"seed"`
	Steps     int64         `json:"steps"`
	Timeouts  string        `json:"timeouts"`
	Outcomes  []jsonOutcome `json:"outcomes"`
	// Interrupted and Asked only when a signal stopped the exploration.
	Interrupted bool `json:"interrupted,omitempty"`
	Asked       int  `json:"asked,omitempty"`
}

type jsonOutcome struct {
	Schedules  int    `json:"schedules"`
	Replay     uint64 `json:"replay"`
	ExitStatus int    `json:"exit_status"`
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	Deadlock   bool   `json:"deadlock"`
	StepLimit  bool   `json:"step_limit"`
}

func writeJSONReport(w io.Writer, rep *explore.Report, path string) {
	j := jsonReport{File: filepath.ToSlash(path), Schedules: rep.Runs, Seed: int64(rep.Seed), Steps: rep.Plan.K, Timeouts: rep.Plan.Timeouts.String(), Outcomes: []jsonOutcome{}}
	if rep.Interrupted {
		j.Interrupted, j.Asked = true, rep.Asked
	}
	for _, o := range rep.Outcomes {
		j.Outcomes = append(j.Outcomes, jsonOutcome{Schedules: o.Count, Replay: o.Seed, ExitStatus: o.Status,
			Stdout: o.Stdout, Stderr: o.Stderr, Deadlock: o.Deadlock, StepLimit: o.StepLimit})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(j)
}
