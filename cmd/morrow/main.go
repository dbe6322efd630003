// Command morrow runs Morrow programs.
//
//	morrow run FILE.mr|FILE.mrb [--schedulers N] [--steal] [--seed S]
//	                            [--reductions N] [--trace FILE] [--color[=MODE]]
//	                            [--max-processes N] [--memory-budget BYTES]
//	                            [--cpuprofile FILE] [--memprofile FILE]
//	                            [--stack-budget BYTES]
//
// A source file is compiled in memory (a file that fails to check prints
// its diagnostics and exits 1 without running); a .mrb file is decoded and
// verified without the front end, and refused with a one-line error and
// exit 1 if it is truncated, corrupted, from another format version or
// fails verification. The program's exit status is forwarded (main's Int,
// 0 for Unit/Ok, 1 for Err or a runtime fault). SIGINT and SIGTERM cancel
// the run's context; the runner then exits 130 or 143 (after SIGINT it
// says how many processes were alive). SIGQUIT prints the process table
// and exits 131 at once (docs/reference/actors.md#when-main-returns-deadlock).
//
// Scheduler settings come from MORROW_SCHEDULERS (1..64, default 1),
// MORROW_WORK_STEALING=1 and MORROW_REDUCTIONS (1..65536); the resource
// governor (docs/reference/runtime.md#features-beyond-the-core-language) from MORROW_MAX_PROCESSES (live actors, 0 = no
// limit, default 1,024), MORROW_MEMORY_BUDGET (bytes, default 64 MiB) and
// MORROW_STACK_BUDGET (bytes of process stacks, default 1 GiB);
// flags win over the environment. An invalid environment value fails the invocation at
// start-up as the resource-limit fault (code 9), as docs/reference/actors.md#execution-model says;
// an invalid flag value is a usage error (exit 2).
//
//	morrow repl
//
// evaluates entries interactively (internal/repl; repl.go chooses a line
// editor on a terminal, plain lines on a pipe).
//
//	morrow test [PATH...] [--run REGEX] [--timeout D] [--parallel N]
//	            [--explore N | --replay SEED] [--format text|json] [-v]
//
// runs the test_ functions of the .mr files under the paths, each as a
// process in an invocation of its own (test.go, docs/testing.md).
//
//	morrow trace render FILE.trace [-o OUT] [--format svg|mermaid]
//
// draws a trace written by `morrow run --trace FILE` (with --trace-messages
// for message arrows) as a sequence diagram (trace.go).
//
// main only calls run, so the whole command is tested in-process.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/morrow-lang/morrow/cmd/morrow/internal/load"
	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/explore"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/world"
	"github.com/spf13/cobra"
)

func main() { cli.Main(run) }

// Exit statuses of the runner on a signal; a program's own status is
// forwarded unchanged. The others (cli.ExitOK, cli.ExitError,
// cli.ExitUsage) are shared with morrowc.
const (
	exitSIGINT  = 130
	exitSIGQUIT = 131
	exitSIGTERM = 143
)

// Limits of the scheduler settings (docs/reference/actors.md#execution-model).
const (
	maxSchedulers = 64
	maxReductions = 65536
)

// graceAfterSignal is how long the runner waits for a cancelled program
// to finish its cleanup before giving up on it (a variable for tests).
var graceAfterSignal = 5 * time.Second

type usageError = cli.UsageError

// env is the outside world of one invocation.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// signals delivers SIGINT/SIGTERM/SIGQUIT; nil means subscribe to
	// the real process signals.
	signals <-chan os.Signal
	// lookupEnv answers System.env (nil: getenv, a variable set to ""
	// counting as unset).
	lookupEnv func(string) (string, bool)
}

// lookup is the program's environment (System.env).
func (e *env) lookup(k string) (string, bool) {
	if e.lookupEnv != nil {
		return e.lookupEnv(k)
	}
	v := e.getenv(k)
	return v, v != ""
}

// run executes one morrow invocation and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(args, &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, lookupEnv: os.LookupEnv})
}

func runEnv(args []string, e *env) int {
	root := cli.NewRoot("morrow", "Run Morrow programs",
		"morrow runs Morrow programs, from source (.mr, compiled in memory) or from\n"+
			"bytecode built by `morrowc build` (.mrb).",
		"missing command (run)")
	root.AddCommand(newRun(e))
	root.AddCommand(newTrace(e))
	root.AddCommand(newRepl(e))
	root.AddCommand(newTest(e))
	return cli.Execute(root, args, e.stdin, e.stdout, e.stderr)
}

// runFlags are the settings of `morrow run`.
type runFlags struct {
	schedulers int
	steal      bool
	seed       int64
	reductions int
	trace      string
	traceMsgs  bool
	color      string
	deny       bool
	maxProcs   int
	memBudget  int64
	prof       profileFlags // profile.go
	stackBytes int64
	explore    exploreFlags // explore.go
	maxSockets int
	// progArgs are the program's arguments: what follows `--`
	// (System.args, docs/io.md).
	progArgs []string
}

// fileArgs are the arguments before `--`; the rest belong to the program.
func fileArgs(cmd *cobra.Command, args []string) []string {
	if d := cmd.ArgsLenAtDash(); d >= 0 && d <= len(args) {
		return args[:d]
	}
	return args
}

func newRun(e *env) *cobra.Command {
	return newRunWith(e, &runFlags{})
}

// newRunWith builds the run command around f, so tests can inspect the
// parsed flags.
func newRunWith(e *env, f *runFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run FILE.mr|FILE.mrb",
		Short: "Run a program from source or bytecode",
		Long: "run compiles a source file in memory (or loads a .mrb file) and runs it,\n" +
			"forwarding the program's exit status. \"-\" reads source from standard input.\n\n" +
			"Environment: MORROW_SCHEDULERS (1..64, default 1), MORROW_WORK_STEALING=1,\n" +
			"MORROW_REDUCTIONS (1..65536), MORROW_MAX_PROCESSES (0 = no limit, default 1024),\n" +
			"MORROW_MEMORY_BUDGET (bytes, default 67108864), MORROW_STACK_BUDGET (bytes,\n" +
			"default 1073741824). Flags win over the environment.",
		Args: func(cmd *cobra.Command, args []string) error {
			return cli.ExactFiles(1)(cmd, fileArgs(cmd, args))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			f.progArgs = args[len(fileArgs(cmd, args)):]
			return runProgram(cmd, e, f, args[0])
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&f.schedulers, "schedulers", 1, "number of schedulers, 1..64 (env MORROW_SCHEDULERS)")
	fl.BoolVar(&f.steal, "steal", false, "let idle schedulers steal work (env MORROW_WORK_STEALING=1)")
	fl.Int64Var(&f.seed, "seed", 0, "seed of the deterministic schedule")
	fl.IntVar(&f.reductions, "reductions", 0, "reductions per process turn, 1..65536 (env MORROW_REDUCTIONS)")
	fl.StringVar(&f.trace, "trace", "", "write lifecycle events to FILE (\"-\" for standard error)")
	fl.BoolVar(&f.traceMsgs, "trace-messages", false, "also trace every message sent and received (needs --trace)")
	fl.IntVar(&f.maxProcs, "max-processes", engine.DefaultMaxProcesses, "live actors allowed at once, 0 for no limit (env MORROW_MAX_PROCESSES)")
	fl.Int64Var(&f.memBudget, "memory-budget", engine.DefaultMemoryBudget, "logical memory budget in bytes for queued messages and lifecycle notifications (env MORROW_MEMORY_BUDGET)")
	cli.ColorFlag(fl, &f.color)
	cli.DenyWarningsFlag(fl, &f.deny)
	f.prof.register(fl)
	fl.Int64Var(&f.stackBytes, "stack-budget", engine.DefaultStackBudget, "total bytes of process stacks; a process whose stack would grow past it faults with code 9 (env MORROW_STACK_BUDGET)")
	f.explore.register(fl)
	fl.IntVar(&f.maxSockets, "max-sockets", world.DefaultMaxSockets, "open TCP sockets and listeners allowed at once, 0 for no limit (env MORROW_MAX_SOCKETS)")
	return cmd
}

// configError is an invalid scheduler setting from the environment.
type configError struct{ msg string }

func (c *configError) Error() string { return c.msg }

// options merges the environment and the flags into engine options.
func (f *runFlags) options(cmd *cobra.Command, e *env) (engine.Options, error) {
	opts := engine.Options{Schedulers: 1, Seed: f.seed}
	err := intSetting(cmd, e, "schedulers", f.schedulers, "MORROW_SCHEDULERS", 1, maxSchedulers,
		fmt.Sprintf("between 1 and %d", maxSchedulers), fmt.Sprintf("an integer from 1 to %d", maxSchedulers), &opts.Schedulers)
	if err != nil {
		return opts, err
	}
	if cmd.Flags().Changed("steal") {
		opts.Steal = f.steal
	} else if v := e.getenv("MORROW_WORK_STEALING"); v != "" {
		switch strings.TrimSpace(strings.ToLower(v)) {
		case "1", "true":
			opts.Steal = true
		case "0", "false":
			opts.Steal = false
		default:
			return opts, &configError{fmt.Sprintf("invalid MORROW_WORK_STEALING %q: want 1 or 0", v)}
		}
	}
	err = intSetting(cmd, e, "reductions", f.reductions, "MORROW_REDUCTIONS", 1, maxReductions,
		fmt.Sprintf("between 1 and %d", maxReductions), fmt.Sprintf("an integer from 1 to %d", maxReductions), &opts.Reductions)
	if err != nil {
		return opts, err
	}
	procs := -1
	err = intSetting(cmd, e, "max-processes", f.maxProcs, "MORROW_MAX_PROCESSES", 0, -1,
		"0 (no limit) or positive", "0 (no limit) or a positive integer", &procs)
	if err != nil {
		return opts, err
	}
	if procs >= 0 {
		opts.MaxProcesses = maxProcesses(procs)
	}
	socks := -1
	err = intSetting(cmd, e, "max-sockets", f.maxSockets, "MORROW_MAX_SOCKETS", 0, -1,
		"0 (no limit) or positive", "0 (no limit) or a positive integer", &socks)
	if err != nil {
		return opts, err
	}
	if socks == 0 {
		opts.MaxSockets = -1
	} else if socks > 0 {
		opts.MaxSockets = socks
	}
	const bytes = "a positive number of bytes"
	if err := intSetting(cmd, e, "memory-budget", f.memBudget, "MORROW_MEMORY_BUDGET", 1, -1, bytes, bytes, &opts.MemoryBudget); err != nil {
		return opts, err
	}
	if err := intSetting(cmd, e, "stack-budget", f.stackBytes, "MORROW_STACK_BUDGET", 1, -1, bytes, bytes, &opts.StackBudget); err != nil {
		return opts, err
	}
	return opts, nil
}

// intSetting sets *dst from the flag --name when it was given (a value
// outside lo..hi is a usage error: "--name must be MUST, got N"), or else
// from the environment variable envName when it is set (anything but an
// integer in lo..hi is a configuration error: `invalid ENV "v": want
// WANT`). hi < 0 means no upper bound.
func intSetting[T int | int64](cmd *cobra.Command, e *env, name string, flag T, envName string, lo, hi T, must, want string, dst *T) error {
	if cmd.Flags().Changed(name) {
		if flag < lo || hi >= 0 && flag > hi {
			return &usageError{Msg: fmt.Sprintf("--%s must be %s, got %d", name, must, flag)}
		}
		*dst = flag
		return nil
	}
	v := e.getenv(envName)
	if v == "" {
		return nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < int64(lo) || hi >= 0 && n > int64(hi) {
		return &configError{fmt.Sprintf("invalid %s %q: want %s", envName, v, want)}
	}
	*dst = T(n)
	return nil
}

// maxProcesses maps the runner's --max-processes value (0 = no limit) to
// engine.Options.MaxProcesses (0 = the default, Unlimited = no limit).
func maxProcesses(n int) int {
	if n == 0 {
		return engine.Unlimited
	}
	return n
}

func runProgram(cmd *cobra.Command, e *env, f *runFlags, path string) error {
	mode, err := diag.ParseColorMode(f.color)
	if err != nil {
		return &usageError{Msg: "--color: " + err.Error()}
	}
	for _, name := range []string{"trace", "cpuprofile", "memprofile"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed && fl.Value.String() == "" {
			return &usageError{Msg: "--" + name + " needs a file name"}
		}
	}
	if f.traceMsgs && f.trace == "" {
		return &usageError{Msg: "--trace-messages needs --trace FILE"}
	}
	exploring, replaying, err := f.explore.check(cmd, f)
	if err != nil {
		return err
	}
	opts, err := f.options(cmd, e)
	if err != nil {
		var ce *configError
		if errors.As(err, &ce) {
			fmt.Fprintf(e.stderr, "morrow: runtime error: %s\nmorrow: %s\n", fault.Resource.Text(), ce.msg)
			return cli.ExitStatus(cli.ExitError)
		}
		return err
	}

	p, status := loadProgram(e, path, mode, f.deny)
	if p == nil {
		return cli.ExitStatus(status)
	}
	if exploring || replaying {
		if name := explore.Unreplayable(p.Program()); name != "" {
			tool := "--explore"
			if replaying {
				tool = "--replay"
			}
			fmt.Fprintln(e.stderr, explore.Refusal(tool, name))
			return cli.ExitStatus(cli.ExitError)
		}
	}
	if exploring {
		return f.explore.explore(e, p, opts, f.seed, path)
	}
	if replaying {
		opts = f.explore.replayOptions(p, opts)
	}

	out := newOutputs(e.stdout, e.stderr)
	defer out.close() // the final close below reports its error
	// The outputs buffer by themselves and are flushed even when the
	// runner gives up on a cancelled program, so the engine writes each
	// print straight to them: nothing printed is lost.
	opts.Stdout, opts.Stderr = out.stdoutWriter(), out.stderrWriter()
	opts.DirectStdout = true
	// Nothing outside a morrow run can wake a process but its own
	// outside operations: when nothing can, report the deadlock
	// (docs/reference/actors.md#when-main-returns-deadlock; library mode's host port keeps it waiting).
	opts.ReportDeadlock = true
	opts.World = &engine.World{Args: f.progArgs, Stdin: e.stdin, Getenv: e.lookup}
	if out.buf != nil {
		opts.World.FlushStdout = func() { out.buf.Flush() }
	}
	closeTraceFile := func() error { return nil }
	if f.trace != "" {
		tw, closeTrace, err := openTrace(f.trace, opts.Stderr)
		if err != nil {
			fmt.Fprintf(opts.Stderr, "morrow: cannot create trace file %s: %s\n", f.trace, cli.OneLine(err.Error()))
			return cli.ExitStatus(cli.ExitError)
		}
		defer closeTrace() // closed below, where its error is reported
		opts.Trace, opts.TraceMessages = tw, f.traceMsgs
		closeTraceFile = func() error {
			if err := closeTrace(); err != nil {
				return fmt.Errorf("cannot write trace file %s: %s", f.trace, err)
			}
			return nil
		}
	}
	finishProfiles, err := f.prof.start()
	if err != nil {
		fmt.Fprintf(opts.Stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return cli.ExitStatus(cli.ExitError)
	}
	code := execute(e, p, opts, out)
	// A write that failed (a full device, a closed file) is reported and
	// turns a 0 exit status into 1: nothing is lost silently.
	for _, finish := range []func() error{finishProfiles, closeTraceFile, out.close} {
		if err := finish(); err != nil {
			fmt.Fprintf(opts.Stderr, "morrow: %s\n", cli.OneLine(err.Error()))
			if code == cli.ExitOK {
				code = cli.ExitError
			}
		}
	}
	if code != cli.ExitOK {
		return cli.ExitStatus(code)
	}
	return nil
}

// loadProgram compiles or decodes the program. It returns nil and the exit
// status when it has already reported why it cannot run.
func loadProgram(e *env, path string, mode diag.ColorMode, deny bool) (*bytecode.Verified, int) {
	if filepath.Ext(path) == ".mrb" {
		data, err := source.ReadFileLimited(path, bytecode.MaxFileBytes)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrow: cannot read %s: %s\n", path, cli.OneLine(pathErr(err)))
			return nil, cli.ExitError
		}
		return loadBytecode(e, path, data)
	}
	name, src := path, []byte(nil)
	var err error
	// At most one byte past the 1 MiB source limit is read: enough for
	// the parser to refuse the file (E0019); /dev/zero ends there.
	if path == "-" {
		name = "<stdin>"
		src, err = source.ReadLimited(e.stdin, source.MaxBytes)
	} else {
		src, err = source.ReadFileLimited(path, source.MaxBytes)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "morrow: cannot read %s: %s%s\n", path, cli.OneLine(pathErr(err)), cli.ColorValueHint(path))
		return nil, cli.ExitError
	}
	if bytes.HasPrefix(src, []byte(bytecode.Magic)) {
		// A bytecode file under another name runs as bytecode.
		return loadBytecode(e, path, src)
	}
	u, err := compiler.Build(name, src)
	if len(u.Diags) == 1 && u.Diags[0].Code == compiler.ErrNotSource {
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(u.Diags[0].Message))
		return nil, cli.ExitError
	}
	if len(u.Diags) > 0 {
		diag.Render(e.stderr, u.Diags, diag.RenderOptions{Format: diag.FormatText, Color: mode.Enabled(e.stderr, e.getenv)})
		fmt.Fprintf(e.stderr, "\n%s\n", cli.Summary(u.Diags, deny))
	}
	if _, warnings := u.Diags.Count(); deny && warnings > 0 && err == nil {
		return nil, cli.ExitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return nil, cli.ExitError
	}
	if u.Verified == nil {
		return nil, cli.ExitError
	}
	return u.Verified, cli.ExitOK
}

// loadBytecode decodes and verifies a bytecode image, reporting a refusal
// in one line.
func loadBytecode(e *env, path string, data []byte) (*bytecode.Verified, int) {
	p, err := load.Bytecode(path, data)
	if err != nil {
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return nil, cli.ExitError
	}
	return p, cli.ExitOK
}

func pathErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// openTrace opens the trace destination; "-" is standard error.
func openTrace(path string, stderr io.Writer) (io.Writer, func() error, error) {
	if path == "-" {
		return stderr, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, errors.New(pathErr(err))
	}
	bw := newLockedBuffer(f)
	var once sync.Once
	var cerr error
	return bw, func() error {
		once.Do(func() {
			cerr = bw.Flush()
			if err := f.Close(); cerr == nil {
				cerr = err
			}
			if cerr != nil {
				cerr = errors.New(pathErr(cerr))
			}
		})
		return cerr
	}, nil
}

// subscribe returns the channel that delivers SIGINT, SIGTERM and
// SIGQUIT: e.signals when a test set it, otherwise a subscription to the
// real process signals, which unsubscribe ends.
func (e *env) subscribe() (sigs <-chan os.Signal, unsubscribe func()) {
	if e.signals != nil {
		return e.signals, func() {}
	}
	c := make(chan os.Signal, 2)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM, syscall.SIGQUIT)
	return c, func() { signal.Stop(c) }
}

// execute runs the program under a context that SIGINT/SIGTERM cancel. It
// returns the program's status, or 130/143 when a signal stopped it. After
// a signal the program gets graceAfterSignal to finish its cleanup; a
// second signal stops waiting at once. SIGINT also writes how many
// processes were alive when it came. SIGQUIT writes the process table and
// returns 131 at once, without cleanup, as a Go program does
// (docs/reference/actors.md#when-main-returns-deadlock).
func execute(e *env, p *bytecode.Verified, opts engine.Options, out *outputs) int {
	sigs, unsubscribe := e.subscribe()
	defer unsubscribe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	probe := &engine.Probe{}
	opts.Probe = probe
	done := make(chan int, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				fmt.Fprintf(opts.Stderr, "morrow: internal runtime error: %v\n", r)
				done <- cli.ExitError
			}
		}()
		done <- engine.RunVerified(ctx, p, opts)
	}()
	var got os.Signal
	var grace <-chan time.Time
	for {
		select {
		case code := <-done:
			if got != nil {
				return signalStatus(got)
			}
			return code
		case s := <-sigs:
			if s == syscall.SIGQUIT {
				quitTable(opts.Stderr, probe)
				return exitSIGQUIT
			}
			if got != nil {
				return signalStatus(got) // second signal: stop waiting
			}
			got = s
			if s == os.Interrupt {
				n := len(probe.Table())
				fmt.Fprintf(opts.Stderr, "morrow: interrupted: %d %s still alive\n", n, plural(n, "process was", "processes were"))
			}
			cancel()
			grace = time.After(graceAfterSignal)
		case <-grace:
			return signalStatus(got)
		}
	}
}

func signalStatus(s os.Signal) int {
	switch s {
	case syscall.SIGTERM:
		return exitSIGTERM
	case syscall.SIGQUIT:
		return exitSIGQUIT
	}
	return exitSIGINT
}

// quitTable writes what SIGQUIT shows: the process table of the running
// program (docs/process.md, "The process table").
func quitTable(stderr io.Writer, probe *engine.Probe) {
	t := probe.Table()
	fmt.Fprintf(stderr, "morrow: SIGQUIT: %d %s alive\n%s", len(t), plural(len(t), "process", "processes"), sched.FormatTable(t))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ---------------------------------------------------------------- output

// outputs couples the program's stdout and stderr. Stdout is buffered
// unless it is a terminal; anything written to stderr first flushes
// stdout, so the two streams keep their relative order when they share a
// destination. A ticker flushes stdout periodically so the output of a
// long-running program shows up while it runs.
type outputs struct {
	mu     sync.Mutex
	buf    *lockedBuffer // nil: stdout unbuffered
	stdout io.Writer
	stderr io.Writer
	stop   chan struct{}
	wg     sync.WaitGroup

	closeOnce sync.Once
	sticky    *stickyWriter // stdout, remembering its first error
}

const flushInterval = 100 * time.Millisecond

func newOutputs(stdout, stderr io.Writer) *outputs {
	term := isTerminal(stdout)
	sw := &stickyWriter{w: stdout}
	o := &outputs{stdout: sw, stderr: stderr, stop: make(chan struct{}), sticky: sw}
	if !term {
		o.buf = newLockedBuffer(sw)
		o.wg.Add(1)
		go func() {
			defer o.wg.Done()
			t := time.NewTicker(flushInterval)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					o.buf.Flush()
				case <-o.stop:
					return
				}
			}
		}()
	}
	return o
}

func (o *outputs) stdoutWriter() io.Writer {
	if o.buf != nil {
		return o.buf
	}
	return &lockedWriter{mu: &o.mu, w: o.stdout}
}

func (o *outputs) stderrWriter() io.Writer { return stderrWriter{o} }

// close stops the ticker and flushes what is left; it reports the first
// write to standard output that failed. Closing again does nothing.
func (o *outputs) close() error {
	o.closeOnce.Do(func() {
		close(o.stop)
		o.wg.Wait()
		if o.buf != nil {
			o.buf.Flush()
		}
	})
	if err := o.sticky.err(); err != nil {
		return fmt.Errorf("cannot write standard output: %s", pathErr(err))
	}
	return nil
}

// stickyWriter remembers the first error of its writer.
type stickyWriter struct {
	mu    sync.Mutex
	w     io.Writer
	first error
}

func (s *stickyWriter) Write(b []byte) (int, error) {
	n, err := s.w.Write(b)
	if err != nil {
		s.mu.Lock()
		if s.first == nil {
			s.first = err
		}
		s.mu.Unlock()
	}
	return n, err
}

func (s *stickyWriter) err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.first
}

type stderrWriter struct{ o *outputs }

func (s stderrWriter) Write(b []byte) (int, error) {
	if s.o.buf != nil {
		s.o.buf.Flush()
	}
	s.o.mu.Lock()
	defer s.o.mu.Unlock()
	return s.o.stderr.Write(b)
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// lockedBuffer is a goroutine-safe buffered writer.
type lockedBuffer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

const bufferLimit = 64 << 10

func newLockedBuffer(w io.Writer) *lockedBuffer { return &lockedBuffer{w: w} }

func (l *lockedBuffer) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	if len(l.buf) >= bufferLimit {
		if err := l.flushLocked(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// Flush writes out the buffered bytes.
func (l *lockedBuffer) Flush() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.flushLocked()
}

func (l *lockedBuffer) flushLocked() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
