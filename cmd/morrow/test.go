package main

// `morrow test [PATH...]` (docs/testing.md): discovers the test_
// functions of every .mr file under the paths, compiles each file once
// (lang/compiler.BuildTests: no main needed, a main that exists never
// runs) and runs each test as an isolated process in an invocation of
// its own (engine.Options.Test), several tests at once (--parallel), in
// a stable order of report. A test's stdout and stderr are captured and
// shown only when it fails (or with -v). --explore N runs each test under
// N schedules (runtime/explore) and stops at the first that fails;
// --replay SEED runs one schedule.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/explore"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// Exit statuses of `morrow test`.
const (
	testsFailed     = 1 // a test failed
	testsDoNotBuild = 2 // a file does not compile (also usage errors)
)

// defaultTestTimeout is the time one test may run (docs/testing.md).
const defaultTestTimeout = 10 * time.Second

// testGrace is how long the runner waits, after a test's timeout, for
// its invocation to run the cleanup of its processes before it gives up
// on it (a variable for tests).
var testGrace = 2 * time.Second

// testFlags are the settings of `morrow test`.
type testFlags struct {
	run      runFlags // the scheduler and governor settings, as `morrow run`
	filter   string
	timeout  time.Duration
	parallel int
	explore  int
	replay   uint64
	format   string
	verbose  bool
	color    string
}

func newTest(e *env) *cobra.Command {
	f := &testFlags{}
	cmd := &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run the test_ functions of Morrow files",
		Long: "test runs every top-level test_ function of the .mr files under each PATH (a\n" +
			"file or a directory, recursively; default \".\"), each as a process in an\n" +
			"invocation of its own. A test passes when it returns () or Ok(()). Failures are\n" +
			"reported on stderr with the test's output; the summary `tests: P/T passed` goes\n" +
			"to stdout. Exit status: 0 all passed, 1 a test failed, 2 a file does not compile.\n" +
			"See docs/testing.md.",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTests(cmd, e, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.filter, "run", "", "only the tests whose name matches the regular expression")
	fl.DurationVar(&f.timeout, "timeout", defaultTestTimeout, "time one test may run before it is killed and fails")
	fl.IntVar(&f.parallel, "parallel", runtime.NumCPU(), "tests run at once")
	fl.IntVar(&f.run.schedulers, "schedulers", 1, "schedulers of each test's invocation, 1..64 (env MORROW_SCHEDULERS)")
	fl.BoolVar(&f.run.steal, "steal", false, "let idle schedulers steal work (env MORROW_WORK_STEALING=1)")
	fl.IntVar(&f.run.reductions, "reductions", 0, "reductions per process turn, 1..65536 (env MORROW_REDUCTIONS)")
	fl.IntVar(&f.run.maxProcs, "max-processes", engine.DefaultMaxProcesses, "live processes of one test, 0 for no limit (env MORROW_MAX_PROCESSES)")
	fl.Int64Var(&f.run.memBudget, "memory-budget", engine.DefaultMemoryBudget, "logical memory budget in bytes of one test (env MORROW_MEMORY_BUDGET)")
	fl.Int64Var(&f.run.stackBytes, "stack-budget", engine.DefaultStackBudget, "bytes of process stacks of one test (env MORROW_STACK_BUDGET)")
	fl.IntVar(&f.explore, "explore", 0, "run each test under N schedules; a test fails if any schedule fails (docs/exploring.md)")
	fl.Uint64Var(&f.replay, "replay", 0, "run the selected tests under the schedule of SEED, as --explore reported it")
	fl.StringVar(&f.format, "format", "text", "report format: text or json")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "also list passing tests and their output")
	cli.ColorFlag(fl, &f.color)
	return cmd
}

// testCase is one test function of one file.
type testCase struct {
	file *testFile
	name string
	line int
}

// testFile is one compiled file with tests.
type testFile struct {
	path string
	prog *bytecode.Verified
	img  *vm.Image
}

// testResult is what running one test gave.
type testResult struct {
	pass     bool
	reason   string
	output   string
	duration time.Duration
	seed     uint64
	explored bool // seed is set: the failing schedule (or the --replay seed)
}

func runTests(cmd *cobra.Command, e *env, f *testFlags, paths []string) error {
	mode, err := diag.ParseColorMode(f.color)
	if err != nil {
		return &usageError{Msg: "--color: " + err.Error()}
	}
	changed := cmd.Flags().Changed
	var filter *regexp.Regexp
	if f.filter != "" {
		if filter, err = regexp.Compile(f.filter); err != nil {
			return &usageError{Msg: "--run: " + cli.OneLine(err.Error())}
		}
	}
	switch {
	case f.timeout <= 0:
		return &usageError{Msg: fmt.Sprintf("--timeout must be positive, got %s", f.timeout)}
	case f.parallel < 1:
		return &usageError{Msg: fmt.Sprintf("--parallel must be at least 1, got %d", f.parallel)}
	case f.format != "text" && f.format != "json":
		return &usageError{Msg: fmt.Sprintf("--format must be text or json, got %q", f.format)}
	case changed("explore") && changed("replay"):
		return &usageError{Msg: "--explore and --replay cannot be used together"}
	case changed("explore") && (f.explore < 1 || f.explore > maxExplore):
		return &usageError{Msg: fmt.Sprintf("--explore must be between 1 and %d, got %d", maxExplore, f.explore)}
	}
	exploring, replaying := changed("explore"), changed("replay")
	if (exploring || replaying) && (changed("schedulers") && f.run.schedulers != 1 || changed("steal") && f.run.steal) {
		what := "--explore"
		if replaying {
			what = "--replay"
		}
		return &usageError{Msg: what + " runs at one scheduler without stealing; drop --schedulers and --steal"}
	}
	opts, err := f.run.options(cmd, e)
	if err != nil {
		var ce *configError
		if errors.As(err, &ce) {
			fmt.Fprintf(e.stderr, "morrow: %s\n", ce.msg)
			return cli.ExitStatus(testsDoNotBuild)
		}
		return err
	}
	opts.KeepGoSettings = true // tests run side by side: no per-run tuning

	if len(paths) == 0 {
		paths = []string{"."}
	}
	files, err := testSources(paths)
	if err != nil {
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return cli.ExitStatus(testsDoNotBuild)
	}
	cases, ok := compileTests(e, files, mode)
	if !ok {
		return cli.ExitStatus(testsDoNotBuild)
	}
	if filter != nil {
		cases = slices.DeleteFunc(cases, func(c testCase) bool { return !filter.MatchString(c.name) })
	}
	if exploring || replaying {
		// A file that reads stdin or uses http or Net cannot be replayed
		// (docs/io.md): refused with one line, as by morrow run.
		tool := "--explore"
		if replaying {
			tool = "--replay"
		}
		for _, c := range cases {
			if name := explore.Unreplayable(c.file.prog.Program()); name != "" {
				fmt.Fprintln(e.stderr, explore.Refusal(tool, name)+" ("+c.file.path+")")
				return cli.ExitStatus(testsDoNotBuild)
			}
		}
	}

	// A schedule depends on the governor flags and --reductions too: the
	// rerun command repeats the ones given.
	var same []string
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		switch fl.Name {
		case "reductions", "max-processes", "memory-budget", "stack-budget":
			same = append(same, "--"+fl.Name+" "+fl.Value.String())
		}
	})
	r := &testRunner{e: e, f: f, opts: opts, exploring: exploring, replaying: replaying, same: strings.Join(same, " ")}
	passed := r.runAll(cases)
	if f.format == "json" {
		writeJSON(e.stdout, jsonSummary{Type: "summary", Passed: passed, Failed: len(cases) - passed, Total: len(cases)})
	} else {
		fmt.Fprintf(e.stdout, "tests: %d/%d passed\n", passed, len(cases))
	}
	if passed < len(cases) {
		return cli.ExitStatus(testsFailed)
	}
	return nil
}

// testSources lists the .mr files under paths: a file named on the
// command line is taken whatever its extension, a directory is walked
// recursively (skipping directories whose name starts with "."), in
// lexical order, each file once. Directories named testdata (data of
// Go tests, such as deliberately broken programs) are skipped too.
func testSources(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		key, err := filepath.Abs(p)
		if err != nil {
			key = p
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %s", root, pathErr(err))
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		// A root that is a symbolic link to a directory is walked (links
		// inside the tree are not followed), with paths shown under the
		// name given.
		walk := root
		if lst, err := os.Lstat(root); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
			if real, err := filepath.EvalSymlinks(root); err == nil {
				walk = real
			}
		}
		err = filepath.WalkDir(walk, func(p string, d fs.DirEntry, err error) error {
			if rel, rerr := filepath.Rel(walk, p); rerr == nil && walk != root {
				p = filepath.Join(root, rel)
			}
			if err != nil {
				return fmt.Errorf("cannot read %s: %s", p, pathErr(err))
			}
			if d.IsDir() {
				if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
					return filepath.SkipDir
				}
				return nil
			}
			if filepath.Ext(p) == ".mr" {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// compileTests compiles every file and lists its tests in source order.
// It reports the diagnostics of the files with errors (as `morrowc
// check` prints them) and returns false when there are any.
func compileTests(e *env, files []string, mode diag.ColorMode) ([]testCase, bool) {
	var cases []testCase
	var bad diag.List
	seen := map[string]bool{}
	ok := true
	for _, path := range files {
		src, err := source.ReadFileLimited(path, source.MaxBytes)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrow: cannot read %s: %s\n", path, cli.OneLine(pathErr(err)))
			ok = false
			continue
		}
		u, err := compiler.BuildTests(path, src)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
			ok = false
			continue
		}
		if u.Diags.HasErrors() {
			// A module that several tested files import is reported
			// once (docs/modules.md).
			for _, d := range u.Diags {
				k := diagKey(d)
				if !seen[k] {
					seen[k] = true
					bad = append(bad, d)
				}
			}
			ok = false
			continue
		}
		if u.Verified == nil {
			continue // no tests and no main: nothing to run
		}
		img, err := engine.Load(u.Verified)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrow: cannot run %s: %s\n", path, cli.OneLine(err.Error()))
			ok = false
			continue
		}
		tf := &testFile{path: path, prog: u.Verified, img: img}
		for _, d := range u.AST.Decls {
			// The file's own tests: those of the modules it imports
			// run when their own files are tested (docs/modules.md).
			if fd, isFn := d.(*ast.FnDecl); isFn && types.IsTest(fd) && !strings.Contains(fd.Name, ast.ModuleSep) {
				cases = append(cases, testCase{file: tf, name: fd.Name, line: u.File.Line(fd.S.Start)})
			}
		}
	}
	if len(bad) > 0 {
		diag.Render(e.stderr, bad, diag.RenderOptions{Format: diag.FormatText, Color: mode.Enabled(e.stderr, e.getenv)})
		fmt.Fprintf(e.stderr, "\n%s\n", cli.Summary(bad, false))
	}
	return cases, ok
}

// diagKey identifies a diagnostic by file, position, code and message.
func diagKey(d *diag.Diagnostic) string {
	name := ""
	if d.File != nil {
		name = d.File.Name
	}
	return fmt.Sprintf("%s:%d:%d:%s:%s", name, d.Span.Start, d.Span.End, d.Code, d.Message)
}

// testRunner runs the selected tests.
type testRunner struct {
	e                    *env
	f                    *testFlags
	opts                 engine.Options
	exploring, replaying bool
	same                 string // flags a replay must repeat ("" for none)
}

// runAll runs the cases, f.parallel at a time, reports each in the
// order of cases and returns how many passed.
func (r *testRunner) runAll(cases []testCase) int {
	results := make([]*testResult, len(cases))
	ready := make([]chan struct{}, len(cases))
	for i := range ready {
		ready[i] = make(chan struct{})
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(r.f.parallel, max(len(cases), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = r.runOne(cases[i])
				close(ready[i])
			}
		}()
	}
	go func() {
		for i := range cases {
			jobs <- i
		}
		close(jobs)
	}()
	passed := 0
	for i, c := range cases {
		<-ready[i]
		res := results[i]
		if res.pass {
			passed++
		}
		r.report(c, res)
	}
	wg.Wait()
	return passed
}

// report writes the result of one test.
func (r *testRunner) report(c testCase, res *testResult) {
	if r.f.format == "json" {
		obj := jsonTest{Type: "test", Name: c.name, File: c.file.path, Line: c.line, Status: "pass",
			Duration: res.duration.Seconds(), Output: res.output}
		if !res.pass {
			obj.Status, obj.Reason = "fail", &res.reason
		}
		if res.explored {
			obj.Seed = &res.seed
		}
		writeJSON(r.e.stdout, obj)
		return
	}
	if res.pass {
		if r.f.verbose {
			fmt.Fprintf(r.e.stdout, "%s:%d: %s ok (%s)\n", c.file.path, c.line, c.name, shortDuration(res.duration))
			io.WriteString(r.e.stdout, indent(res.output))
		}
		return
	}
	// A reason of several lines (Test.equal's diff) continues indented.
	reason := strings.ReplaceAll(strings.TrimRight(res.reason, "\n"), "\n", "\n    ")
	fmt.Fprintf(r.e.stderr, "%s:%d: %s failed: %s\n", c.file.path, c.line, c.name, reason)
	if res.explored && r.exploring {
		extra := ""
		if r.same != "" {
			extra = " " + r.same
		}
		fmt.Fprintf(r.e.stderr, "    rerun with: morrow test --run '^%s$' --replay %d%s %s\n", c.name, res.seed, extra, shellQuote(c.file.path))
	}
	io.WriteString(r.e.stderr, indent(res.output))
}

// runOne runs one test under the timeout: once, under --replay's
// schedule, or under --explore's schedules until one fails.
func (r *testRunner) runOne(c testCase) *testResult {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), r.f.timeout)
	defer cancel()
	type done struct {
		res *testResult
	}
	var out syncBuffer
	ch := make(chan done, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				ch <- done{&testResult{reason: fmt.Sprintf("internal runtime error: %v", p)}}
			}
		}()
		ch <- done{r.execute(ctx, c, &out)}
	}()
	var res *testResult
	select {
	case d := <-ch:
		res = d.res
	case <-ctx.Done():
		// The invocation is being cancelled: its processes' cleanup runs.
		select {
		case d := <-ch:
			res = d.res
		case <-time.After(testGrace):
			res = &testResult{reason: fmt.Sprintf("timed out after %s (its cleanup did not finish)", r.f.timeout)}
		}
	}
	if ctx.Err() == context.DeadlineExceeded && !res.pass {
		stuck := strings.Contains(res.reason, "cleanup did not finish")
		res.reason = fmt.Sprintf("timed out after %s", r.f.timeout)
		if stuck {
			res.reason += " (its cleanup did not finish)"
		}
	}
	res.duration = time.Since(start)
	res.output = out.String()
	return res
}

// execute runs the test and returns its result; out receives the
// output of the run that decided it.
func (r *testRunner) execute(ctx context.Context, c testCase, out *syncBuffer) *testResult {
	opts := r.opts
	opts.Test, opts.Image = c.name, c.file.img
	opts.Stdout, opts.Stderr = out, out
	verdict := func(o engine.Outcome) *testResult {
		if o.Test == nil {
			return &testResult{reason: "the test could not start"}
		}
		return &testResult{pass: o.Test.Pass, reason: o.Test.Reason}
	}
	switch {
	case r.replaying:
		res := verdict(explore.Replay(ctx, c.file.prog, opts, r.f.replay, explore.TimeoutsLazy))
		res.seed, res.explored = r.f.replay, true
		return res
	case r.exploring:
		pl := explore.Prepare(ctx, c.file.prog, opts)
		var res *testResult
		for i := 0; i < r.f.explore && ctx.Err() == nil; i++ {
			seed := explore.SeedFor(0, i)
			out.Reset()
			res = verdict(pl.Run(ctx, c.file.prog, opts, seed))
			if !res.pass {
				// A schedule cut short by the timeout has no seed to give.
				res.seed, res.explored = seed, ctx.Err() == nil
				return res
			}
		}
		if res == nil {
			res = &testResult{reason: "interrupted"}
		}
		return res
	}
	return verdict(engine.RunOutcome(ctx, c.file.prog, opts))
}

// indent indents every line of the captured output by four spaces.
func indent(s string) string {
	if s == "" {
		return ""
	}
	s = strings.TrimSuffix(s, "\n")
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

// shortDuration rounds a test's duration for the -v line: 12ms, 1.2s.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond).String()
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// shellQuote quotes a path for the rerun command when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jsonTest is the JSON object of one test (--format json; the fields
// are documented in docs/testing.md).
type jsonTest struct {
	Type     string  `json:"type"` // "test"
	Name     string  `json:"name"`
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Status   string  `json:"status"`   // "pass" or "fail"
	Duration float64 `json:"duration"` // seconds
	Reason   *string `json:"reason"`   // null when it passed
	Output   string  `json:"output"`
	Seed     *uint64 `json:"seed"` // the failing schedule (--explore) or --replay's; else null
}

// jsonSummary is the last JSON object of a run.
type jsonSummary struct {
	Type   string `json:"type"` // "summary"
	Passed int    `json:"passed"`
	Failed int    `json:"failed"`
	Total  int    `json:"total"`
}

// writeJSON writes one JSON object on a line.
func writeJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	w.Write(append(b, '\n'))
}

// maxCaptured bounds the output kept of one test; the rest is dropped
// and the output says so.
const maxCaptured = 1 << 20

// syncBuffer is a goroutine-safe buffer of at most maxCaptured bytes: a
// test's processes print from several schedulers.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	dropped bool
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := maxCaptured - b.buf.Len(); len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		b.dropped = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped {
		return b.buf.String() + fmt.Sprintf("\n[output cut after %d bytes]\n", maxCaptured)
	}
	return b.buf.String()
}

func (b *syncBuffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Reset()
	b.dropped = false
}
