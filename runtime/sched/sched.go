// Package sched runs processes (runtime/proc) on N scheduler goroutines
// (M:N): no goroutine per process.
//
// Each Scheduler has its own FIFO run queue and its own timer heap. A
// scheduler pops a process, runs its vm.State for a budget of reduction
// steps (instructions; sends and spawns cost extra, vm.SendCost and
// vm.SpawnCost) and acts on the outcome: Yield puts it at the back of the
// queue, Park leaves it parked unless a message or its timer raced in
// (decided under the process lock, proc.Process.ParkLocked), Done and
// Fault retire it (proc.Invocation.Retire) under the failure policy of
// the API that created it.
//
// Supervisor processes (supervise.go) are processes whose turns run Go
// code instead of a vm.State (proc.Process.Driver): each feeds its
// mailbox's events to a runtime/supervisor machine and carries out the
// effects. Callers of a Supervisor operation park on the native call
// (fault.Park, proc.NativeWait) until the supervisor answers.
//
// Placement (docs/reference/runtime.md#execution-model): the root context is a process on scheduler
// 0. With stealing a spawned process starts on its parent's scheduler
// (the root's children on scheduler 0, as on the BEAM), an idle
// scheduler takes the older half of another scheduler's queue, and a
// receiver woken by a message moves to the sender's scheduler as its
// next process (Scheduler.next): a chain of messages stays on one
// scheduler without run-queue locks, while the work that queues up is
// stolen. A chain of next processes shares one budget, renewed once (so
// a consumer woken by a producer that spent the budget still runs next
// instead of queueing up behind it, where an idle scheduler would steal
// one of the two); after that the next process goes to the back of the
// queue. Without stealing spawned processes go round-robin over the
// schedulers and stay where they were placed. With one scheduler the run
// queue is strictly FIFO and the schedule depends only on the program
// (and timers on the clock).
//
// Timers: a receive with `after N` arms a timer in the heap of the
// scheduler running it, tagged with the wait's epoch; a fired timer whose
// epoch is over is ignored (cancel lazily). Parked processes are never
// polled: an idle scheduler sleeps until its next timer, a wake-up (a
// process handed to it) or the end of the invocation. An idle scheduler
// also fires the timers of a scheduler busy in one long turn once they
// are overdue, and runs the processes they wake (timers.go).
//
// Quiescence: the runtime counts idle schedulers under one lock; a
// scheduler that becomes idle while all others are idle, with no pending
// timer and no outside operation in progress (BeginOutside), decides: if
// no process is alive and the root has finished, the invocation ends; if
// isolated processes are alive, it waits, unless Config.ReportDeadlock
// (morrow run) and no host port: then nothing can wake them, and the
// invocation ends with the deadlock report and the process table
// (table.go); otherwise the legacy deadlock rule faults with code 10
// (docs/reference/actors.md#when-main-returns-deadlock). None of this runs on the hot path: only a
// scheduler that goes to sleep, the last one idle, looks. A push
// to a sleeping scheduler un-idles it under its queue lock before the
// runtime lock, so "all idle" is only ever seen when no queue has work.
//
// Trace: with Config.Trace set (morrow run --trace FILE), one line per
// lifecycle event is written, processes named by their generation
// (logical process numbers: the root is 1, or 2 after a library-mode
// host port): "spawn N by P NAME" (NAME: the entry function,
// tracename.go; or "spawn 1 root", "spawn N supervised restart of M",
// "spawn N by P supervisor" for a Supervisor process, supervise.go),
// "port N", "discard N (ResourceLimit)" (a spawn_monitor/spawn_link
// rolled back), "monitor A -> B ref R" (and "monitor A -> A ref R (self,
// inert)" for a self-monitor), "demonitor A ref R", "link A <-> B",
// "unlink A <-> B", "trap N on|off", "exit signal A -> B REASON" (with
// " (direct)" for signal_exit), "down A -> B REASON", "retire N REASON",
// "fatal N Fault(C)" (a fault that ends the program) and "deadlock";
// with Config.TraceMessages also "send A -> B" (" (dead)", " (full)"
// when refused) and "recv B <- A". docs/process.md ("Tracing") documents
// each line and runtime/trace parses them. At one scheduler the trace is
// deterministic (testdata/trace.golden, testdata/trace_messages.golden).
package sched

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"bufio"
	"cmp"
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/world"
)

// DefaultBudget is the number of reduction steps per turn.
const DefaultBudget = 2000

// Config configures a Runtime.
type Config struct {
	Schedulers int   // 1..64 (0: 1)
	Steal      bool  // work stealing
	Seed       int64 // schedule seed (victim order when stealing)
	Budget     int   // steps per turn (0: DefaultBudget)
	Trace      io.Writer
	// TraceMessages adds the "send" and "recv" lines of user messages to
	// the trace (it needs Trace).
	TraceMessages bool
	// MaxLive is the live-process limit checked on every spawn (0: the
	// reference limit proc.MaxLive; negative: unlimited).
	MaxLive int
	// MaxQueued is the invocation-wide limit of queued user messages
	// (0: proc.MaxQueued; negative: unlimited).
	MaxQueued int64
	// MemoryBudget is the invocation's logical memory budget in bytes
	// (0: proc.MemoryBudget, 64 MiB).
	MemoryBudget int64
	// StackBudget is the total stack memory of all processes in bytes
	// (0: vm.DefaultStackBudget, 1 GiB); a process whose stack growth
	// would cross it faults with code 9.
	StackBudget int64
	// Policy, when set, makes the run deterministic (det.go): one
	// scheduler on the goroutine that calls Run, a virtual clock, and
	// the policy deciding every scheduling choice (policy.go). Schedulers
	// and Steal are ignored.
	Policy Policy
	// MaxSteps bounds the VM steps of all processes together (0: no
	// bound): past it the invocation stops at the end of the turn that
	// crossed it, without running cleanup. Hosts use it as fuel; the
	// fuzz tests to run hostile programs for a bounded time.
	MaxSteps int64
	// Session makes a deterministic runtime outlive its roots
	// (session.go): RunEntry runs one root after another in the same
	// invocation, and processes left waiting by one entry are still
	// there for the next. It needs Policy (a FIFO when nil).
	Session bool
	// TurnTick advances the virtual clock of a deterministic run by this
	// much after every turn of a process other than the root (0: the
	// clock moves only when a timer fires).
	TurnTick time.Duration
	// ReportDeadlock is the deadlock rule of `morrow run`
	// (docs/reference/actors.md#when-main-returns-deadlock): when isolated processes are alive but none is runnable, no
	// timer is pending, no process is parked on an outside operation
	// (BeginOutside) and there is no host port (NewPort), the invocation
	// ends with the deadlock report (DeadlockReport) and Result.Deadlock.
	// Without it (embedders, the default) an idle runtime with isolated
	// processes waits, since something outside may still wake one.
	ReportDeadlock bool
	// World is the invocation's outside world (arguments, environment,
	// standard input, sockets; nil: an empty one). Stderr is where
	// eprint and eprintln write (nil: discarded).
	World  *world.World
	Stderr io.Writer
}

// Output is the one shared, ordered stdout of an invocation. Every print
// is one Write; writes after a fatal failure are dropped. It buffers
// (NewOutput) unless its destination buffers by itself (NewDirectOutput).
type Output struct {
	mu     sync.Mutex
	w      *bufio.Writer // nil: direct
	dst    io.Writer
	closed bool
	last   atomic.Int64 // time of the last flush (UnixNano)
	// Sync, when set, flushes the destination of a direct output (the
	// runner's own buffer): Flush calls it, so output is visible when a
	// process parks on the outside world or the runtime goes idle.
	Sync func()
}

// flushEvery bounds how long output may sit in the buffer while the
// program runs.
const flushEvery = 10 * time.Millisecond

// MaybeFlush flushes when the last flush is older than flushEvery.
func (o *Output) MaybeFlush(now time.Time) {
	if o.w != nil && now.UnixNano()-o.last.Load() >= int64(flushEvery) {
		o.Flush()
	}
}

// NewOutput wraps w with a buffer.
func NewOutput(w io.Writer) *Output { return &Output{w: bufio.NewWriterSize(w, 64<<10), dst: w} }

// NewDirectOutput wraps w without a buffer: each print is written to w
// at once. w must be safe for concurrent use (the host's own buffered
// writer), and then everything printed is in w as soon as the print
// returns, even if the host later gives up on the program.
func NewDirectOutput(w io.Writer) *Output { return &Output{dst: w} }

func (o *Output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return len(b), nil
	}
	if o.w == nil {
		return o.dst.Write(b)
	}
	return o.w.Write(b)
}

// Line writes s and a newline as one write.
func (o *Output) Line(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if o.w == nil {
		io.WriteString(o.dst, s+"\n")
		return
	}
	o.w.WriteString(s)
	o.w.WriteByte('\n')
}

// Flush flushes buffered output.
func (o *Output) Flush() {
	o.mu.Lock()
	if o.w != nil && o.w.Buffered() > 0 {
		o.w.Flush()
	}
	o.last.Store(time.Now().UnixNano())
	o.mu.Unlock()
	if o.Sync != nil {
		o.Sync()
	}
}

// Close flushes and drops every later write.
func (o *Output) Close() {
	o.mu.Lock()
	if o.w != nil {
		o.w.Flush()
	}
	o.closed = true
	o.mu.Unlock()
	if o.Sync != nil {
		o.Sync()
	}
}

// Result is how an invocation ended.
type Result struct {
	// RootDone is set when the root returned RootValue.
	RootDone  bool
	RootValue value.Value
	// Report is the fault report of a fatal failure ("" if none).
	Report string
	// Cancelled is set when the context was cancelled first.
	Cancelled bool
	// Deadlock is set when a deterministic run ended because every
	// process alive was waiting in receive with no timer pending (a
	// legacy-only program then also has the fault 10 Report; with
	// isolated processes alive the concurrent runtime would wait
	// forever, and Report is empty).
	Deadlock bool
	// RootFault (sessions) is set when the root faulted: Report holds
	// the fault, and the processes went on running. Fatal (sessions) is
	// set when a failure ended the entry that, outside a session, would
	// have ended the invocation: a legacy actor's fault, the step limit.
	RootFault, Fatal bool
	// Halted is set when System.exit ended the invocation with
	// HaltStatus.
	Halted     bool
	HaltStatus int
	// Decisions is the number of scheduling decisions of a
	// deterministic run (agents chosen and preemption questions), and
	// Steps the VM steps of all its turns.
	Decisions, Steps int64
	// Test is how the test process of RunTest ended (testproc.go).
	Test *TestEnd
}

// Runtime is one invocation's set of schedulers.
type Runtime struct {
	cfg    Config
	img    *vm.Image
	Inv    *proc.Invocation
	Out    *Output
	scheds []*Scheduler

	mu       sync.Mutex // idle accounting and the end of the invocation
	idle     int
	rootDone bool
	stopped  bool
	res      Result
	stop     chan struct{}

	// pendingIO counts outside operations in flight (outside.go).
	pendingIO atomic.Int64
	halted    atomic.Bool // System.exit ended the invocation
	errMu     sync.Mutex  // one stderr write at a time
	// World is the invocation's outside world (Config.World).
	World     *world.World
	offloads  atomic.Int64 // long natives computing off the schedulers (offload.go)
	steps     atomic.Int64 // VM steps of all turns (counted when MaxSteps is set)
	rr        atomic.Uint64
	root      *proc.Process
	entryOver atomic.Bool // session: the current entry has ended (session.go)
	traceMu   sync.Mutex
	det       *det          // deterministic run (Config.Policy), or nil
	test      *proc.Process // RunTest's test process (testproc.go)
	testEnd   *TestEnd      // guarded by mu

	// t0 is when the runtime was created: the origin of Runtime.mono.
	t0 time.Time
	// sleepers counts the sleeping schedulers (Scheduler.sleeping).
	sleepers atomic.Int32

	// hasPort is set by NewPort: a host port keeps an idle runtime
	// waiting (quiescentLocked).
	hasPort atomic.Bool

	// Stack is the stack budget every process's State charges.
	Stack *vm.StackBudget
}

// New prepares a runtime for img writing to out.
func New(img *vm.Image, out *Output, cfg Config) *Runtime {
	if cfg.Schedulers < 1 {
		cfg.Schedulers = 1
	}
	if cfg.Budget <= 0 {
		cfg.Budget = DefaultBudget
	}
	rt := &Runtime{cfg: cfg, img: img, Out: out, Inv: proc.NewInvocation(), stop: make(chan struct{}),
		Stack: vm.NewStackBudget(cfg.StackBudget), World: cfg.World, t0: time.Now()}
	if rt.World == nil {
		rt.World = &world.World{}
	}
	rt.Inv.MaxLive = cfg.MaxLive
	rt.Inv.MemoryBudget = cfg.MemoryBudget
	rt.Inv.MaxQueued = cfg.MaxQueued
	rt.Inv.Wake = rt.enqueue
	rt.Inv.OnEmpty = rt.onEmpty
	if cfg.Trace != nil {
		rt.Inv.Trace = rt.trace
		rt.Inv.TraceMessages = cfg.TraceMessages
	}
	if cfg.Session && cfg.Policy == nil {
		cfg.Policy = &FIFO{}
	}
	if cfg.Policy != nil {
		cfg.Schedulers, cfg.Steal = 1, false
		rt.cfg = cfg
		rt.det = newDet(cfg.Policy)
		rt.Inv.Defer = cfg.Policy.Defer()
		rt.Inv.OnDefer = rt.det.onDefer
	}
	for i := 0; i < cfg.Schedulers; i++ {
		s := &Scheduler{id: i, rt: rt, wake: make(chan struct{}, 1)}
		s.nextAt.Store(noTimer)
		s.host = &host{s: s}
		rt.scheds = append(rt.scheds, s)
	}
	return rt
}

// NewPort creates a host port: a process-like endpoint whose mailbox type
// is String; every String sent to it is passed to line.
func (rt *Runtime) NewPort(line func(string)) *proc.Process {
	p := rt.Inv.NewProcess(proc.KindPort, nil, 0)
	p.Port = line
	rt.hasPort.Store(true)
	rt.trace("port %d", p.Gen())
	return p
}

// Run runs root (the root context's State) and every process until the
// invocation ends, ctx is cancelled, or a fatal fault.
func (rt *Runtime) Run(ctx context.Context, root *vm.State) Result {
	root.SetStackBudget(rt.Stack)
	rt.root = rt.Inv.NewProcess(proc.KindRoot, root, 0)
	rt.trace("spawn %d root", rt.root.Gen())
	rt.scheds[0].push(rt.root)
	res := rt.runAll(ctx)
	if res.Cancelled {
		rt.cleanupAll()
	}
	return res
}

// runAll runs the processes queued until the invocation ends, on the
// deterministic loop or the schedulers, and returns how it ended.
func (rt *Runtime) runAll(ctx context.Context) Result {
	if rt.det != nil {
		rt.runDet(ctx)
	} else {
		rt.runSchedulers(ctx)
	}
	rt.mu.Lock()
	res := rt.res
	rt.mu.Unlock()
	if rt.det != nil {
		res.Decisions, res.Steps = rt.det.decisions, rt.det.steps
	}
	return res
}

// runSchedulers runs the scheduler goroutines until the invocation ends.
func (rt *Runtime) runSchedulers(ctx context.Context) {
	var wg sync.WaitGroup
	for _, s := range rt.scheds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop()
		}()
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			rt.mu.Lock()
			if !rt.stopped {
				rt.res.Cancelled = true
				rt.stopLocked()
			}
			rt.mu.Unlock()
		case <-done:
		}
	}()
	wg.Wait()
	close(done)
}

// cleanupAll runs the cleanup of every process still alive after a
// cancellation (one goroutine, schedulers stopped), in generation order,
// and writes its retire line (Killed), so that a trace of an
// interrupted run still ends every lifeline.
func (rt *Runtime) cleanupAll() {
	ps := rt.Inv.Processes()
	slices.SortFunc(ps, func(a, b *proc.Process) int { return cmp.Compare(a.Gen(), b.Gen()) })
	for _, p := range ps {
		if p.Kind == proc.KindPort {
			continue
		}
		rt.cleanupOne(p)
		rt.trace("retire %d Killed", p.Gen())
	}
}

// cleanupOne runs p's admitted cleanup after a cancellation; the step
// limit also bounds it.
func (rt *Runtime) cleanupOne(p *proc.Process) {
	st := p.State
	if st == nil || st.Finished() {
		return
	}
	if limit := rt.cfg.MaxSteps; limit > 0 && rt.steps.Load() > limit {
		return
	}
	rt.unwind(p, &fault.Fault{Msg: "interrupted", Aborted: true})
}

// unwind aborts p's State with f and runs it to its end on the calling
// goroutine (the schedulers are not running it): the cleanup it admitted
// runs, within the step limit.
func (rt *Runtime) unwind(p *proc.Process, f *fault.Fault) {
	st := p.State
	st.Abort(f)
	h := &host{s: rt.scheds[0], p: p}
	for i := 0; i < 1<<16 && !st.Finished(); i++ {
		o := vm.Run(st, h, 1<<16)
		h.settle()
		if limit := rt.cfg.MaxSteps; limit > 0 && rt.steps.Add(int64(o.Steps)) > limit {
			return
		}
	}
}

func (rt *Runtime) stopLocked() {
	if rt.cfg.Session {
		rt.entryOver.Store(true) // the runtime itself lives on
		return
	}
	if rt.stopped {
		return
	}
	rt.stopped = true
	close(rt.stop)
}

// fatal ends the invocation with a fault report.
func (rt *Runtime) fatal(report string) {
	rt.mu.Lock()
	if !rt.stopped {
		if !rt.cfg.Session || rt.res.Report == "" {
			rt.res.Report = report
		}
		if rt.cfg.Session {
			rt.res.Fatal = true
			rt.Out.Flush() // the session goes on writing
		} else {
			rt.Out.Close()
		}
		rt.stopLocked()
	}
	rt.mu.Unlock()
}

func (rt *Runtime) isStopped() bool {
	if rt.cfg.Session {
		return rt.entryOver.Load()
	}
	select {
	case <-rt.stop:
		return true
	default:
		return false
	}
}

// onEmpty: the last live process was released.
func (rt *Runtime) onEmpty() {
	rt.mu.Lock()
	if rt.rootDone {
		rt.stopLocked()
	}
	rt.mu.Unlock()
}

// rootFinished records the root's result; the invocation ends once no
// process is alive.
func (rt *Runtime) rootFinished(v value.Value) {
	rt.mu.Lock()
	rt.rootDone = true
	rt.res.RootDone = true
	rt.res.RootValue = v
	if live, _ := rt.Inv.Live(); live == 0 {
		rt.stopLocked()
	}
	rt.mu.Unlock()
}

// quiescentLocked decides what an all-idle runtime does; rt.mu is held.
// It returns a fatal report ("" for none), or deadlock when the isolated
// processes alive can never be woken and Config.ReportDeadlock asks for
// the report (the caller builds it with rt.mu released: deadlock).
func (rt *Runtime) quiescentLocked() (report string, deadlock bool) {
	if rt.Inv.ArmedTimers() > 0 || rt.pendingIO.Load() > 0 || rt.offloads.Load() > 0 || rt.stopped {
		return "", false
	}
	live, isolated := rt.Inv.Live()
	switch {
	case live == 0 && rt.rootDone:
		rt.stopLocked()
	case isolated > 0 && rt.test != nil:
		// A test invocation has no outside that could wake a process
		// (testproc.go).
		rt.res.Deadlock = true
		rt.stopLocked()
	case isolated > 0:
		// Isolated processes alive: an idle runtime waits (docs/reference/actors.md#when-main-returns-deadlock),
		// unless nothing outside can wake them (the rule of morrow run).
		return "", rt.cfg.ReportDeadlock && !rt.hasPort.Load()
	case rt.rootDone || live > 0:
		rt.trace("deadlock")
		return "morrow: runtime error: " + fault.Deadlock.Text() + "\n", false
	}
	return "", false
}

// deadlock ends a deadlocked invocation with the deadlock report: the
// deadlock line and the process table (table.go). Every scheduler is
// idle and nothing can wake a process, so the table is exact.
func (rt *Runtime) deadlock() {
	t := rt.deadlockTable()
	rt.mu.Lock()
	if rt.stopped {
		rt.mu.Unlock()
		return
	}
	rt.res.Deadlock = true
	rt.mu.Unlock()
	rt.trace("deadlock")
	rt.fatal(DeadlockReport(t))
}

// BeginOutside records an outside operation that a host runs for a
// process (the count Host.Await keeps, pendingIO, outside.go): while one
// is pending the runtime never reports a deadlock, since its completion
// will wake the process. Call it before the process parks.
func (rt *Runtime) BeginOutside() { rt.pendingIO.Add(1) }

// EndOutside records that an outside operation begun with BeginOutside
// has ended. Call it after its process has been woken (or found already
// gone), never before: when the runtime is idle it then decides at once
// whether the program can still make progress.
func (rt *Runtime) EndOutside() {
	if rt.pendingIO.Add(-1) != 0 {
		return
	}
	rt.decideIfIdle()
}

// decideIfIdle takes the quiescence decision of an all-idle runtime
// that no scheduler will take because none is going to sleep: when the
// last outside operation or offloaded computation ended and its answer
// woke nobody.
func (rt *Runtime) decideIfIdle() {
	rt.mu.Lock()
	var report string
	var dead bool
	if rt.det == nil && rt.idle == len(rt.scheds) {
		report, dead = rt.quiescentLocked()
	}
	rt.mu.Unlock()
	switch {
	case report != "":
		rt.fatal(report)
	case dead:
		rt.deadlock()
	}
}

// OutsidePending returns the number of outside operations in progress.
func (rt *Runtime) OutsidePending() int64 { return rt.pendingIO.Load() }

// enqueue hands a Runnable process to its scheduler.
func (rt *Runtime) enqueue(p *proc.Process) {
	rt.scheds[p.Sched].push(p)
}

func (rt *Runtime) trace(format string, args ...any) {
	if rt.cfg.Trace == nil {
		return
	}
	rt.traceMu.Lock()
	fmt.Fprintf(rt.cfg.Trace, format+"\n", args...)
	rt.traceMu.Unlock()
}

// Scheduler is one scheduler goroutine's state.
type Scheduler struct {
	id   int
	rt   *Runtime
	host *host

	mu       sync.Mutex
	q        []*proc.Process
	head     int
	sleeping bool
	wake     chan struct{}

	// tmu guards timers, the scheduler's receive timers (timers.go): its
	// goroutine arms and fires them, and an idle scheduler fires those
	// overdue while this one is busy in a turn. nextAt is the first
	// one's due time (Runtime.mono; noTimer when there is none), read
	// without the lock; woken is fireTimers' buffer.
	tmu    sync.Mutex
	timers timerHeap[timer]
	nextAt atomic.Int64
	woken  []*proc.Process
	// sleepUntil is when a sleeping scheduler wakes by itself
	// (Runtime.mono; noTimer: not before it is woken), for arm's poke.
	sleepUntil atomic.Int64
	// next is the process this scheduler runs after the current turn,
	// ahead of its queue: the receiver that the running process woke
	// with a message (wakeNext, with stealing only). Owned by the
	// scheduler goroutine, so a wake-up there takes no lock, and
	// invisible to thieves. chain is
	// the steps run since the scheduler last took a process from its
	// queue: a woken receiver inherits the rest of that budget. The
	// first time a chain's budget is spent the next process still runs,
	// on a fresh budget (renewed); the second time it goes to the back
	// of the queue, so processes waking each other cannot starve the
	// queue: it waits at most about three budgets instead of two. The
	// fresh budget keeps a producer and its consumer together: the
	// consumer, woken into the producer's slot, would otherwise queue up
	// behind the producer whose turn spent the budget, and the second
	// process in the queue pokes an idle scheduler to steal one of them
	// (docs/performance.md, "Keeping a producer and its consumer on one
	// scheduler").
	next    *proc.Process
	chain   int
	renewed bool // the chain has had its one fresh budget (loop)
	turns   atomic.Int64
	stolen  atomic.Int64 // processes other schedulers took from this one
	pokes   atomic.Int64 // sleeping schedulers this one woke to steal
	qlen    atomic.Int32 // len(q) - head, readable without the lock

	// lone is the thief's view of the other schedulers for stealing a
	// lone queued process (steal, loneStuck); owned by this scheduler's
	// goroutine and used only when it has no work of its own.
	lone []loneSeen
}

// loneSeen is what a thief last saw of a victim: its turn count, and
// since when it has not changed.
type loneSeen struct {
	turns int64
	since time.Time
}

// loneAfter is how long a scheduler must have been in one turn (a long
// native) before an idle one steals the lone process queued behind it.
const loneAfter = 2 * time.Millisecond

// loneStuck reports whether v, which has one queued process, has been
// in the same turn for loneAfter or more; now is the thief's clock.
func (s *Scheduler) loneStuck(v *Scheduler, now time.Time) bool {
	if s.lone == nil {
		s.lone = make([]loneSeen, len(s.rt.scheds))
	}
	seen := &s.lone[v.id]
	if t := v.turns.Load(); t != seen.turns || seen.since.IsZero() {
		seen.turns, seen.since = t, now
		return false
	}
	return now.Sub(seen.since) >= loneAfter
}

// TimerHeapSize returns the number of timers in all heaps (only
// meaningful while the schedulers are idle).
func (rt *Runtime) TimerHeapSize() int {
	n := 0
	for _, s := range rt.scheds {
		s.tmu.Lock()
		n += len(s.timers)
		s.tmu.Unlock()
	}
	return n
}

// Idle reports whether every scheduler is idle.
func (rt *Runtime) Idle() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.idle == len(rt.scheds)
}

// Turns returns how many process turns each scheduler has run.
func (rt *Runtime) Turns() []int64 {
	out := make([]int64, len(rt.scheds))
	for i, s := range rt.scheds {
		out[i] = s.turns.Load()
	}
	return out
}

// StealStats returns how many processes idle schedulers stole, and how
// many times a scheduler woke a sleeping one to steal (pokeThief).
func (rt *Runtime) StealStats() (stolen, pokes int64) {
	for _, s := range rt.scheds {
		stolen += s.stolen.Load()
		pokes += s.pokes.Load()
	}
	return stolen, pokes
}

// push appends p to the run queue and wakes the scheduler if it sleeps.
func (s *Scheduler) push(p *proc.Process) {
	rt := s.rt
	if rt.det != nil {
		rt.det.ready(p)
		return
	}
	s.mu.Lock()
	s.q = append(s.q, p)
	s.qlen.Add(1)
	woke := s.sleeping
	if woke {
		s.sleeping = false
		rt.sleepers.Add(-1)
		rt.mu.Lock()
		rt.idle--
		rt.mu.Unlock()
	}
	n := len(s.q) - s.head
	s.mu.Unlock()
	if woke {
		signal(s.wake)
	} else if rt.cfg.Steal && n > 1 {
		rt.pokeThief(s.id)
	}
}

// pokeThief wakes one sleeping scheduler so that it tries to steal.
func (rt *Runtime) pokeThief(from int) {
	for i := 1; i < len(rt.scheds); i++ {
		t := rt.scheds[(from+i)%len(rt.scheds)]
		t.mu.Lock()
		sl := t.sleeping
		t.mu.Unlock()
		if sl {
			rt.scheds[from].pokes.Add(1)
			signal(t.wake)
			return
		}
	}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (s *Scheduler) pop() *proc.Process {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.head == len(s.q) {
		return nil
	}
	p := s.q[s.head]
	s.q[s.head] = nil
	s.head++
	s.qlen.Add(-1)
	if s.head == len(s.q) {
		s.q, s.head = s.q[:0], 0
	}
	return p
}

// steal takes the older half of another scheduler's queue, or its one
// queued process when it sleeps or has been busy in one turn for
// loneAfter (a native that runs long: the process would wait for it).
func (s *Scheduler) steal() *proc.Process {
	rt := s.rt
	n := len(rt.scheds)
	off := int(uint64(rt.cfg.Seed) % uint64(n))
	var now time.Time
	for i := 1; i < n; i++ {
		v := rt.scheds[(s.id+off+i)%n]
		if v == s {
			continue
		}
		stuck := false
		if v.qlen.Load() == 1 {
			if now.IsZero() {
				now = time.Now()
			}
			stuck = s.loneStuck(v, now)
		}
		v.mu.Lock()
		k := (len(v.q) - v.head) / 2
		if k == 0 && len(v.q)-v.head == 1 && (v.sleeping || stuck) {
			k = 1
		}
		var got []*proc.Process
		if k > 0 {
			got = append(got, v.q[v.head:v.head+k]...)
			clear(v.q[v.head : v.head+k])
			v.head += k
			v.qlen.Add(int32(-k))
			v.stolen.Add(int64(k))
			if v.head == len(v.q) {
				v.q, v.head = v.q[:0], 0
			}
		}
		v.mu.Unlock()
		if len(got) == 0 {
			continue
		}
		for _, p := range got {
			p.Lock()
			p.Sched = s.id
			p.Unlock()
		}
		s.mu.Lock()
		s.q = append(s.q, got[1:]...)
		s.qlen.Add(int32(len(got) - 1))
		s.mu.Unlock()
		return got[0]
	}
	return nil
}

func (s *Scheduler) loop() {
	for !s.rt.isStopped() {
		s.fireTimers()
		var p *proc.Process
		if p = s.next; p != nil {
			s.next = nil
			if s.chain >= s.rt.cfg.Budget {
				if !s.renewed {
					s.renewed = true
					s.chain = 0
				} else {
					s.push(p)
					p = nil
				}
			}
		}
		if p == nil {
			s.chain = 0
			s.renewed = false
			p = s.pop()
		}
		if p == nil && s.rt.cfg.Steal && len(s.rt.scheds) > 1 {
			p = s.steal()
		}
		if p == nil && s.fireOverdue() {
			continue
		}
		if p != nil {
			s.chain += s.runOne(p, s.rt.cfg.Budget)
			if s.turns.Load()%64 == 0 {
				s.rt.Out.MaybeFlush(time.Now())
			}
			continue
		}
		if s.spin() {
			continue
		}
		s.sleep()
	}
}

// spinTurns is how many times an idle scheduler yields the goroutine
// before it sleeps: a message from another scheduler often arrives within
// microseconds, and sleeping costs a futex wake-up on both sides.
const spinTurns = 64

// spin waits briefly for work without sleeping; it reports whether work
// (or a due timer) appeared.
func (s *Scheduler) spin() bool {
	if len(s.rt.scheds) == 1 {
		return false
	}
	for i := 0; i < spinTurns; i++ {
		if s.qlen.Load() > 0 || s.rt.isStopped() {
			return true
		}
		if s.rt.cfg.Steal {
			for _, v := range s.rt.scheds {
				if v != s && v.qlen.Load() > 1 {
					return true
				}
			}
		}
		runtime.Gosched()
	}
	return false
}

// sleep parks the scheduler goroutine until work, a timer or the end.
func (s *Scheduler) sleep() {
	rt := s.rt
	s.mu.Lock()
	if s.head < len(s.q) {
		s.mu.Unlock()
		return
	}
	s.sleeping = true
	s.sleepUntil.Store(noTimer) // until sleepFor has looked at the heaps
	rt.sleepers.Add(1)
	rt.mu.Lock()
	rt.idle++
	report, dead := "", false
	if rt.idle == len(rt.scheds) {
		report, dead = rt.quiescentLocked()
	}
	rt.mu.Unlock()
	s.mu.Unlock()
	if report != "" {
		rt.fatal(report)
	} else if dead {
		rt.deadlock()
	}
	rt.Out.Flush()
	var tc <-chan time.Time
	now := time.Now()
	d := s.sleepFor(now)
	if rt.cfg.Steal && s.loneWaiting() && (d < 0 || d > loneAfter) {
		// A lone process waits in a busy scheduler's queue: look again
		// soon, to steal it if that scheduler stays in its turn.
		d = loneAfter
	}
	if d >= 0 {
		s.sleepUntil.Store(rt.mono(now) + int64(d))
		t := time.NewTimer(d)
		defer t.Stop()
		tc = t.C
	}
	select {
	case <-s.wake:
	case <-tc:
	case <-rt.stop:
	}
	s.mu.Lock()
	if s.sleeping {
		s.sleeping = false
		rt.sleepers.Add(-1)
		rt.mu.Lock()
		rt.idle--
		rt.mu.Unlock()
	}
	s.mu.Unlock()
}

// loneWaiting reports whether another scheduler that is not sleeping
// has exactly one process queued (steal may take it if it stays).
func (s *Scheduler) loneWaiting() bool {
	for _, v := range s.rt.scheds {
		if v != s && v.qlen.Load() == 1 {
			return true
		}
	}
	return false
}

// wakeNext hands p, which the process running on s just made Runnable
// (a message to a parked receiver), to s as its next process. With
// stealing at more than one scheduler p moves to s and runs right after
// the current turn: no queue lock, no wake-up of another scheduler, and
// a message chain stays on one scheduler, as on the BEAM, while idle
// schedulers steal what queues up. A process that was already next goes
// to the back of s's queue. Otherwise p goes to the back of its own
// scheduler's queue: at one scheduler that keeps the strict FIFO order
// that the deterministic FIFO policy reproduces (policy.go), without
// stealing p stays where it was placed, and deterministic runs leave the
// choice to their policy.
func (s *Scheduler) wakeNext(p *proc.Process) {
	rt := s.rt
	if rt.det != nil || !rt.cfg.Steal || len(rt.scheds) == 1 {
		rt.enqueue(p)
		return
	}
	// p is Runnable and in no queue: no one else reads or writes
	// p.Sched until it has run and parked again (under its lock).
	p.Sched = s.id
	if old := s.next; old != nil {
		s.push(old)
	}
	s.next = p
}

// runOne runs one turn of p of at most budget steps and returns the
// steps it ran. The VM recovers Go panics inside the
// interpreter itself; a panic in the scheduler's own handling of the
// outcome fails the invocation with an internal error instead of killing
// the scheduler goroutine (and silently every process on it).
func (s *Scheduler) runOne(p *proc.Process, budget int) (steps int) {
	rt := s.rt
	defer func() {
		if r := recover(); r != nil {
			rt.fatal(fmt.Sprintf("morrow: internal error: scheduler: %v\n", r))
		}
	}()
	run, kill := p.BeginTurn()
	if !run {
		return 0
	}
	if d, ok := p.Driver.(*supDriver); ok {
		// BeginTurn leaves a driven process's terminal signal to
		// runDriver, which retires it with the reason.
		s.runDriver(p, d, budget)
		return 0
	}
	if kill {
		// A terminal signal: cleanup that is already running completes
		// first; a direct Kill skips the cleanup that has not begun.
		skip := p.SkipCleanup()
		if skip && !p.State.InCleanup() {
			p.Exiting(true)
			rt.Inv.Retire(p, value.Unit)
			return 0
		}
		p.State.AbortAfterCleanup(fault.NewExit(), skip)
	}
	s.host.p = p
	s.turns.Add(1)
	o := vm.Run(p.State, s.host, budget)
	s.host.settle()
	s.host.p = nil
	steps = o.Steps
	if rt.det != nil {
		rt.det.steps += int64(o.Steps)
	}
	if limit := rt.cfg.MaxSteps; limit > 0 && rt.steps.Add(int64(o.Steps)) > limit {
		defer rt.fatal(fmt.Sprintf("morrow: stopped after the step limit of %d steps\n", limit))
	}
	switch o.Status {
	case vm.StatusYield:
		p.Lock()
		p.SetStatusLocked(proc.Runnable)
		p.Unlock()
		s.push(p) // a kill requested meanwhile is applied at the next turn
	case vm.StatusPark:
		p.Lock()
		again := p.ParkLocked()
		p.Unlock()
		if again {
			s.push(p)
		}
	case vm.StatusDone:
		p.Exiting(false)
		s.done(p, o.Value)
	case vm.StatusFault:
		p.Exiting(false)
		s.fault(p, o.Fault)
	}
	return steps
}

// normalReason is the reason Normal, built once: values are immutable
// and shared (docs/reference/runtime.md#execution-model), and a retirement then allocates none.
var normalReason = ptype.Reason(ptype.ReasonNormal, value.Unit)

// done handles a process whose entry returned.
func (s *Scheduler) done(p *proc.Process, v value.Value) {
	rt := s.rt
	if p.Kind == proc.KindRoot {
		rt.Out.Flush()
		rt.Inv.Retire(p, normalReason)
		rt.rootFinished(v)
		return
	}
	if p == rt.test {
		rt.testReturned(v)
	}
	if p.Sup != nil {
		p.Sup.End(p)
	}
	rt.Inv.Retire(p, normalReason)
}

// fault applies the failure policy of p's kind to a fault.
func (s *Scheduler) fault(p *proc.Process, f *fault.Fault) {
	rt := s.rt
	if p.Kind == proc.KindRoot {
		if f.Code == fault.Exit {
			f = &fault.Fault{Msg: "internal error: the root context cannot exit as a process", Internal: true, File: f.File, Line: f.Line, Trace: f.Trace}
		}
		if rt.cfg.Session && !f.Aborted {
			rt.rootFault(p, f)
			return
		}
		rt.trace("fatal %d Fault(%d)", p.Gen(), f.Code)
		rt.fatal(f.Report())
		return
	}
	if f.IsExit() {
		// Process.exit, or a terminal signal after its cleanup ran.
		r := normalReason
		if p.ExitReq != nil {
			r = *p.ExitReq
		}
		if p.Sup != nil {
			p.Sup.End(p)
		}
		rt.Inv.Retire(p, r)
		return
	}
	if f.Aborted {
		return
	}
	switch {
	case p.Kind == proc.KindIsolated && !f.Internal && !f.Code.Wide():
		if p == rt.test {
			rt.testFaulted(f)
		}
		rt.Inv.Retire(p, ptype.FaultReason(f.Code))
		return
	case p.Kind == proc.KindSupervised && !f.Internal && p.Sup.TakeRestart():
		// The replacement is registered before the failed child retires:
		// otherwise a child that was the last live process would empty
		// the invocation, and a finished root would end the run before
		// the restart ever ran.
		st, err := vm.NewClosureState(p.State.Image(), p.Sup.Entry, nil)
		if err != nil {
			rt.fatal(fmt.Sprintf("morrow: internal error: %v\n", err))
			return
		}
		st.SetStackBudget(rt.Stack)
		c := rt.Inv.NewProcess(proc.KindSupervised, st, s.id)
		if c == nil {
			rt.fatal("morrow: runtime error: " + fault.Resource.Text() + "\n")
			return
		}
		rt.Inv.Retire(p, ptype.FaultReason(f.Code))
		c.Sup = p.Sup
		p.Sup.Replace(p, c)
		rt.trace("spawn %d supervised restart of %d", c.Gen(), p.Gen())
		s.push(c)
		return
	}
	rt.trace("fatal %d Fault(%d)", p.Gen(), f.Code)
	rt.fatal(f.Report())
}
