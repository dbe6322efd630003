// Package engine runs a loaded program: it loads the verified bytecode
// with the standard library's natives (runtime/vm.Load with
// stdlib.Natives()), makes the root context's vm.State (main, or
// in library mode the `pub fn start(port)` function with a host port) and
// hands it to the actor runtime (runtime/sched), which runs the root as a
// process on scheduler 0 next to every process the program spawns, and
// keeps running after main returns until no process is alive
// (docs/reference/actors.md#when-main-returns-deadlock).
//
// Library mode (docs/cli.md): the runner creates a host port, a
// process-like endpoint with mailbox type String; every String sent to it
// is written to stdout as one line, in arrival order.
//
// Output: the program's stdout is one shared, ordered buffer
// (sched.Output): every print is one write, and it is flushed while the
// program runs, when schedulers go idle, before anything is written on
// stderr and before every trace line, so stdout, stderr and the trace
// interleave in the order the calls and events happened, and nothing is
// lost when the program faults.
//
// Resource governor (docs/reference/runtime.md#features-beyond-the-core-language): Options.MaxProcesses (default the
// reference 1,024 live actors, Unlimited for none) is checked on every
// spawn of every kind; Options.MemoryBudget (default 64 MiB) is the
// logical budget of docs/reference/actors.md#limits; Options.StackBudget (default
// 1 GiB) bounds the stack memory of all processes together, so deep
// recursion in many processes ends in fault 9, not a Go out-of-memory
// crash; Options.MaxQueued raises the invocation's 65,536 queued user
// messages. The runner exposes the first three as --max-processes,
// --memory-budget and --stack-budget; the benchmarks raise the limits.
// Options.MaxSteps is fuel for embedding hosts (and the fuzz tests): a
// bound on the VM steps of all processes together.
//
// Go runtime: unless Options.KeepGoSettings, Run sets GOMAXPROCS to the
// scheduler count, the GC target to 400% and a soft memory limit derived
// from the stack and memory budgets for the run (runtime/gotune; the
// GOMAXPROCS, GOGC and GOMEMLIMIT environment variables win).
//
// Cancellation: when ctx is cancelled the schedulers stop at their next
// safe point (parked schedulers are woken), the cleanup (defer) of the
// root and of every live process runs, and Run returns 130.
//
// Exit status (docs/reference/syntax.md#the-entry-point, docs/cli.md): main returning an Int gives that
// value masked to 0..255 like a process exit code (a value outside 0..255
// also prints a warning naming both numbers); Unit or Ok gives 0; Err
// prints `morrow: main returned Err(<value>)` (the reference's prefix, then
// the value as show renders it, cut at 4 KiB) and gives 1; a runtime fault of
// the root or of a legacy actor, and the legacy deadlock (fault 10),
// print `morrow: runtime error: <text>` (with the Morrow location and a
// backtrace when there is one) and give 1; with Options.ReportDeadlock
// (morrow run), isolated processes that nothing can wake print
// `morrow: deadlock: N processes are waiting and nothing can wake them`
// and the process table, and give 1.
package engine

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/gotune"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/world"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Options configures one invocation.
type Options struct {
	Stdout, Stderr io.Writer
	// DirectStdout says that Stdout is safe for concurrent use and
	// buffers by itself: each print is then written to it at once, in
	// one Write, instead of through the engine's own buffer, so that
	// everything printed so far is in Stdout even when the host gives up
	// on a cancelled program whose cleanup does not finish.
	DirectStdout bool
	Schedulers   int   // 1..64; 0 means the default (1)
	Steal        bool  // work stealing between schedulers
	Seed         int64 // deterministic schedule seed
	Reductions   int   // reductions per turn (StepsPerReduction steps each); 0 means the default, 1
	Trace        io.Writer
	// TraceMessages adds a line per user message sent and received to
	// the trace (docs/process.md, "Tracing"); it needs Trace.
	TraceMessages bool
	// MaxProcesses is the resource governor's live-process limit, checked
	// on every spawn of every kind (docs/reference/runtime.md#features-beyond-the-core-language): past it Process.spawn*
	// returns Err(Process.ResourceLimit) and legacy spawn faults with code
	// 9. 0 means the reference limit DefaultMaxProcesses; Unlimited (or
	// any negative value) means no limit. The root and host ports do not
	// count.
	MaxProcesses int
	// MemoryBudget is the logical memory budget in bytes (see
	// docs/reference/actors.md#limits): queued messages and lifecycle reservations are charged
	// against it. 0 means DefaultMemoryBudget.
	MemoryBudget int64
	// StackBudget is the total stack memory of all processes in bytes
	// (frames and operand stacks, the root included): a process whose
	// stack growth would cross it faults with code 9. 0 means
	// DefaultStackBudget (1 GiB).
	StackBudget int64
	// MaxSteps bounds the VM steps of all processes together (0: no
	// bound): an embedding host's fuel. Past it the invocation stops
	// without running cleanup, `morrow: stopped after the step limit of
	// N steps` is written to Stderr and Run returns ExitFault. It also
	// bounds the cleanup run after a cancellation.
	MaxSteps int64
	// MaxQueued raises the invocation-wide limit of queued user messages
	// (docs/reference/actors.md#spawn-send-and-receive, 65,536 by default; a send past it returns Err(4)).
	// 0 means the reference limit, Unlimited means no limit. The CLI keeps
	// the reference limit; the benchmarks (skynet) raise it.
	MaxQueued int64
	// KeepGoSettings leaves GOMAXPROCS, the garbage collector's target
	// and the soft memory limit as the embedding program has them. By
	// default Run sets them for the run (runtime/gotune: GOMAXPROCS to the
	// schedulers unless GOMAXPROCS is set; GC percent 400 unless GOGC is
	// set and then, unless GOMEMLIMIT is set too, a memory limit of
	// gotune.MemoryBase plus 1.5 times the stack and memory budgets, or
	// the embedder's own limit when lower) and restores them when the last
	// overlapping run ends.
	KeepGoSettings bool
	// Policy makes the run deterministic: one scheduler on the calling
	// goroutine, a virtual clock, and every scheduling decision the
	// policy's (runtime/sched, Policy). Schedulers and Steal are then
	// ignored. `morrow run --explore` and `--replay` use it
	// (runtime/explore). A run that ends with isolated processes
	// waiting and no timer pending writes the deadlock report, as
	// ReportDeadlock does (a legacy-only program gets the fault 10
	// report, as always), and returns ExitFault.
	Policy sched.Policy
	// ReportDeadlock is the rule of `morrow run` (docs/reference/actors.md#when-main-returns-deadlock):
	// when isolated processes are alive and nothing can wake them (no
	// process runnable, no timer pending, no outside operation in
	// progress, no host port), the run ends: it writes `morrow:
	// deadlock: N processes are waiting and nothing can wake them` and
	// the process table to Stderr and returns ExitFault. Without it
	// (embedders, and library mode whatever it says) the run waits, as
	// the reference does: the host may still wake a process, or cancel
	// ctx.
	ReportDeadlock bool
	// Probe, when set, is attached to the run so that the host can
	// read its process table from another goroutine while it runs
	// (Probe.Table).
	Probe *Probe
	// Test, when set, names a test function to run instead of main: it
	// starts as an isolated process of this invocation, which ends when
	// that process does (test.go, `morrow test`); Outcome.Test has the
	// verdict.
	Test string
	// Image is the program already loaded (Load), shared by many runs of
	// one program; nil loads it for this run.
	Image *vm.Image
	// World is the program's outside world (docs/io.md); nil: no
	// arguments, no environment, an empty standard input. A pointer, so
	// that Options stays comparable.
	World *World
	// MaxSockets bounds the open sockets and listeners (0:
	// world.DefaultMaxSockets, negative: no limit).
	MaxSockets int
}

// World is what a program sees of the outside world besides its
// output: Args are System.args (what follows "--" on the command line),
// Getenv answers System.env (nil: no variable is set), Stdin is what
// System.read_line reads (nil: empty). FlushStdout, when set, flushes
// Stdout's own buffer (with DirectStdout): the engine calls it whenever
// it flushes its output, so a line printed before a process waits on the
// outside world is visible.
type World struct {
	Args        []string
	Getenv      func(string) (string, bool)
	Stdin       io.Reader
	FlushStdout func()
}

// Outcome is how a run ended, in more detail than its exit status.
type Outcome struct {
	Status int
	// Deadlock: a deterministic run ended with every process alive
	// waiting in receive and no timer pending.
	Deadlock bool
	// StepLimit: the run was stopped by Options.MaxSteps.
	StepLimit bool
	// Decisions and Steps: the scheduling decisions and VM steps of a
	// deterministic run (runtime/sched, Result).
	Decisions, Steps int64
	// Test is the verdict of a run of Options.Test.
	Test *TestResult
}

// Probe looks inside a running invocation (Options.Probe): its process
// table, which `morrow run` prints on SIGQUIT (docs/reference/actors.md#when-main-returns-deadlock). A Probe
// serves one run at a time; its methods may be called from any goroutine.
type Probe struct {
	mu sync.Mutex
	rt *sched.Runtime
}

// Table returns the process table of the run in progress, one entry per
// live process in the order of their pids (nil when no run is attached).
// Each process is read at its own moment under its own lock, so the
// table of a busy program is a snapshot, not an instant; a running
// process shows as running.
func (pr *Probe) Table() []sched.ProcessInfo {
	pr.mu.Lock()
	rt := pr.rt
	pr.mu.Unlock()
	if rt == nil {
		return nil
	}
	return rt.Table()
}

// Text renders Table as `morrow run` prints it: one indented line per
// process.
func (pr *Probe) Text() string { return sched.FormatTable(pr.Table()) }

// FlushStdout writes out what the program printed and the run still
// buffers (nothing when Options.DirectStdout), so that a host that
// prints the table and exits keeps the output printed before it.
func (pr *Probe) FlushStdout() {
	pr.mu.Lock()
	rt := pr.rt
	pr.mu.Unlock()
	if rt != nil {
		rt.Out.Flush()
	}
}

func (pr *Probe) attach(rt *sched.Runtime) {
	pr.mu.Lock()
	pr.rt = rt
	pr.mu.Unlock()
}

// Resource governor defaults (the reference limits) and the "no limit"
// value of Options.MaxProcesses.
const (
	DefaultMaxProcesses = proc.MaxLive
	DefaultMemoryBudget = proc.MemoryBudget
	DefaultStackBudget  = vm.DefaultStackBudget
	Unlimited           = -1
)

// MaxSchedulers is the largest scheduler count.
const MaxSchedulers = 64

// Exit statuses of Run besides the program's own.
const (
	// ExitFault is the status of a runtime fault, an Err from main, or a
	// program that cannot be loaded.
	ExitFault = 1
	// ExitInterrupted is the status when ctx is cancelled before the
	// program finished (128 + SIGINT).
	ExitInterrupted = 130
)

// StepsPerReduction is the number of VM steps (instructions, with sends
// and spawns charged extra) in one reduction of Options.Reductions.
// MORROW_REDUCTIONS counts coarse units ("compiled callbacks",
// docs/reference/actors.md#execution-model, default 1), so one reduction is a turn's worth of instructions.
const StepsPerReduction = sched.DefaultBudget

// DefaultSlice is the number of VM steps a process (the root included)
// runs per turn when Options.Reductions is 0 (the same as 1).
const DefaultSlice = sched.DefaultBudget

// Run verifies the program, executes it and returns the process exit
// status: main's Int result, 0 for Unit/Ok, 1 for a runtime fault, an Err
// from main or a program that does not verify. Runtime faults are written
// to Stderr as `morrow: runtime error: <text>`.
func Run(ctx context.Context, p *bytecode.Program, opts Options) int {
	return run(ctx, p, nil, opts).Status
}

// RunVerified is Run for a program that has already been verified (by
// bytecode.Load for a .mrb file, or bytecode.Check), so that a run
// verifies its program once.
func RunVerified(ctx context.Context, v *bytecode.Verified, opts Options) int {
	return run(ctx, v.Program(), v, opts).Status
}

// RunOutcome is RunVerified that also says how the run ended.
func RunOutcome(ctx context.Context, v *bytecode.Verified, opts Options) Outcome {
	return run(ctx, v.Program(), v, opts)
}

// run runs p; v is its proof of verification, or nil when p must be
// verified first.
func run(ctx context.Context, p *bytecode.Program, v *bytecode.Verified, opts Options) Outcome {
	fail := Outcome{Status: ExitFault}
	stdoutW, stderr := opts.Stdout, opts.Stderr
	if stdoutW == nil {
		stdoutW = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	out := sched.NewOutput(stdoutW)
	if opts.DirectStdout {
		out = sched.NewDirectOutput(stdoutW)
		if opts.World != nil {
			out.Sync = opts.World.FlushStdout
		}
	}
	defer out.Flush()
	if opts.Schedulers < 0 || opts.Schedulers > MaxSchedulers || opts.MemoryBudget < 0 || opts.StackBudget < 0 {
		fmt.Fprintf(stderr, "morrow: runtime error: %s\n", fault.Resource.Text())
		return fail
	}
	if !opts.KeepGoSettings {
		defer gotune.Acquire(opts.Schedulers, budgets(opts))()
	}
	if v == nil {
		var err error
		if v, err = bytecode.Check(p); err != nil {
			fmt.Fprintf(stderr, "morrow: cannot run the program: %v\n", err)
			return fail
		}
	}
	w := &world.World{MaxSockets: opts.MaxSockets}
	if ow := opts.World; ow != nil {
		w.Args, w.Getenv, w.Stdin = ow.Args, ow.Getenv, ow.Stdin
	}
	img := opts.Image
	if img == nil || img.Prog != p {
		var err error
		if img, err = vm.Load(v, stdlib.Natives()); err != nil {
			fmt.Fprintf(stderr, "morrow: cannot run the program: %v\n", err)
			return fail
		}
	}
	rt := sched.New(img, out, sched.Config{Schedulers: opts.Schedulers, Steal: opts.Steal, Seed: opts.Seed,
		Budget: opts.Reductions * StepsPerReduction, Trace: orderedTrace(opts.Trace, out), TraceMessages: opts.TraceMessages,
		MaxLive: opts.MaxProcesses, MemoryBudget: opts.MemoryBudget, StackBudget: opts.StackBudget,
		MaxQueued: opts.MaxQueued, MaxSteps: opts.MaxSteps, Policy: opts.Policy, ReportDeadlock: opts.ReportDeadlock,
		World: w, Stderr: stderr})
	defer w.Close()
	if opts.Probe != nil {
		opts.Probe.attach(rt)
		defer opts.Probe.attach(nil)
	}
	if opts.Test != "" {
		return runTest(ctx, rt, img, opts, out, stderr)
	}
	var args []value.Value
	if p.Library {
		port := rt.NewPort(out.Line)
		args = []value.Value{port.Pid()}
	}
	st, err := vm.NewState(img, p.Entry, args)
	if err != nil {
		fmt.Fprintf(stderr, "morrow: cannot run the program: %v\n", err)
		return fail
	}
	res := rt.Run(ctx, st)
	out.Flush()
	o := Outcome{Deadlock: res.Deadlock, Decisions: res.Decisions, Steps: res.Steps,
		StepLimit: opts.MaxSteps > 0 && strings.HasPrefix(res.Report, stepLimitPrefix)}
	switch {
	case res.Halted:
		o.Status = res.HaltStatus
	case res.Report != "":
		io.WriteString(stderr, res.Report)
		o.Status = ExitFault
	case res.Cancelled:
		o.Status = ExitInterrupted
	case p.Library:
		o.Status = 0
	default:
		o.Status = mainStatus(res.RootValue, stderr)
	}
	return o
}

// budgets returns the bytes the run's stack and memory budgets allow
// together (the defaults for 0), from which runtime/gotune derives the
// Go runtime's soft memory limit.
func budgets(opts Options) int64 {
	stack, memory := opts.StackBudget, opts.MemoryBudget
	if stack == 0 {
		stack = DefaultStackBudget
	}
	if memory == 0 {
		memory = DefaultMemoryBudget
	}
	if stack > math.MaxInt64-memory {
		return math.MaxInt64
	}
	return stack + memory
}

// stepLimitPrefix starts the report of a run stopped by MaxSteps
// (runtime/sched).
const stepLimitPrefix = "morrow: stopped after the step limit of "

// orderedTrace makes every trace line first flush the program's buffered
// output, so a trace that shares a destination with stdout (`--trace -`
// with both streams on one terminal or file) is ordered with the output
// the program wrote before the event.
func orderedTrace(w io.Writer, out *sched.Output) io.Writer {
	if w == nil {
		return nil
	}
	return traceWriter{w: w, out: out}
}

type traceWriter struct {
	w   io.Writer
	out *sched.Output
}

func (t traceWriter) Write(b []byte) (int, error) {
	t.out.Flush()
	return t.w.Write(b)
}

// maxErrText bounds the rendering of main's Err value on stderr.
const maxErrText = 4 << 10

// mainStatus maps main's result to the exit status.
func mainStatus(v value.Value, stderr io.Writer) int {
	switch v.Kind() {
	case value.KInt:
		code := int(uint8(v.AsInt()))
		if v.AsInt() < 0 || v.AsInt() > 255 {
			fmt.Fprintf(stderr, "morrow: warning: main returned %d, outside 0..255; the exit status is %d (its low 8 bits)\n", v.AsInt(), code)
		}
		return code
	case value.KData:
		if d, ok := v.Data(); ok && d.Type == value.ResultType && d.Tag == value.TagErr {
			fmt.Fprintf(stderr, "morrow: main returned %s\n", errText(v))
			return ExitFault
		}
	}
	return 0
}

// errText renders main's Err value as show does, cut after maxErrText
// bytes (at a character boundary) with "…".
func errText(v value.Value) string {
	s, f := core.RenderShow(v)
	if f != nil {
		return "Err(…)"
	}
	if len(s) <= maxErrText {
		return s
	}
	cut := maxErrText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
