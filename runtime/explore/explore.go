// Package explore runs a program under many schedules and reports every
// distinct outcome (`morrow run --explore N`), and replays one schedule
// from its seed (`morrow run --replay SEED`).
//
// Each schedule is a deterministic run (runtime/sched with a Policy): one
// scheduler, a virtual clock, and cells sent between processes kept in
// flight until the policy delivers them (runtime/proc, flight.go). The
// policy decides, at every point where the model allows the schedule to
// vary, which process runs next and for how many steps, where a process
// is preempted (after any visible operation: send, spawn, a receive
// taking a cell, print, a Process operation), and in which order cells
// from different senders reach a receiver (never the order of one
// sender's cells). Timers fire only when nothing else can act
// (TimeoutsLazy), unless the exploration asks for eager timeouts: the
// policy then also decides when a pending timer fires relative to
// arriving messages. Everything a run does is a function of the program,
// its seed and the timeouts mode, so a seed replays its run byte for
// byte.
//
// A seed selects its strategy (StrategyOf): a quarter of the seeds run a
// random walk, the others PCT (policy.go) with bug depth 1, 2 or 3. PCT
// needs k, the number of steps of a run: Prepare runs the program once
// under sched.FIFO with cells in flight and takes its count of
// scheduling decisions (Plan.K). The same run bounds every schedule to
// ten times its VM steps plus a million (Plan.Limit), so that a schedule
// under which the program never ends (a retry loop whose reply is always
// late) is reported as stopped at the step limit instead of running
// forever. Replaying a seed repeats Prepare, so the plan is the same.
//
// Explore runs the schedules on several goroutines (each run is
// independent and deterministic), groups the runs by outcome (stdout,
// stderr, exit status, deadlock, step limit) and keeps, for each
// outcome, the number of runs and the first seed in run order that
// produced it; the report does not depend on how the runs were spread.
package explore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/sched"
)

// Limits of the plan.
const (
	// PrepareSteps bounds the VM steps of the run that measures k.
	PrepareSteps = 50_000_000
	// MaxLimit bounds Plan.Limit.
	MaxLimit = 100_000_000
)

// Plan is what every schedule of one program shares: the estimate of
// its scheduling steps, for PCT's change points, the step limit of one
// run, and when timers may fire.
type Plan struct {
	K        int64    // scheduling decisions of the FIFO run
	Limit    int64    // VM steps one schedule may take
	Timeouts Timeouts // when a receive timer may fire (Prepare: TimeoutsLazy)
}

// Timeouts says when an explored schedule lets a receive timer (an
// `after` arm, a Process.call timeout, Process.sleep) fire.
type Timeouts uint8

const (
	// TimeoutsLazy, the default: the virtual clock moves only when no
	// process can run and no message is in flight, as under FIFO and in
	// the REPL. A timeout then fires only when nothing else can happen,
	// so a safety timeout (a Process.call with 5000) that a normal run
	// never reaches does not fire either; the schedules vary the order
	// of everything else.
	TimeoutsLazy Timeouts = iota
	// TimeoutsEager: the policy may fire the earliest timer at any
	// decision, while processes could still run or messages are in
	// flight, so a timeout races the message it waits for (the loaded
	// machine that delays a message by five seconds). For hunting
	// timeout races: `morrow run --explore N --explore-timeouts=eager`.
	TimeoutsEager
)

func (t Timeouts) String() string {
	if t == TimeoutsEager {
		return "eager"
	}
	return "lazy"
}

// ParseTimeouts reads "lazy" or "eager".
func ParseTimeouts(s string) (Timeouts, bool) {
	switch s {
	case "lazy":
		return TimeoutsLazy, true
	case "eager":
		return TimeoutsEager, true
	}
	return TimeoutsLazy, false
}

// Policy returns the policy of the schedule of seed (NewPolicy), with
// the plan's timeouts; budget is the steps of a full turn.
func (pl Plan) Policy(seed uint64, budget int) sched.Policy {
	p := NewPolicy(seed, pl.K, budget)
	if pl.Timeouts == TimeoutsLazy {
		return lazyClock{p}
	}
	return p
}

// lazyClock is a policy whose clock never acts while another agent can:
// it asks the policy as if no timer were pending, and when nothing is
// ready the runtime fires the earliest timer itself (sched.Policy).
type lazyClock struct{ sched.Policy }

func (l lazyClock) Next(bool) (sched.Agent, bool) { return l.Policy.Next(false) }

// Prepare measures the program under sched.FIFO with cells in flight.
// base supplies the limits and Reductions; its outputs are not written.
func Prepare(ctx context.Context, v *bytecode.Verified, base engine.Options) Plan {
	o := base
	o.Stdout, o.Stderr, o.Trace, o.TraceMessages = io.Discard, io.Discard, nil, false
	o.Policy = &sched.FIFO{InFlight: true}
	o.KeepGoSettings = true
	o.MaxSteps = PrepareSteps
	r := engine.RunOutcome(ctx, v, o)
	limit := min(10*r.Steps+1_000_000, MaxLimit)
	if base.MaxSteps > 0 {
		limit = min(limit, base.MaxSteps)
	}
	return Plan{K: max(r.Decisions, 1), Limit: limit}
}

// budget is the steps of a full turn under opts.
func budget(opts engine.Options) int {
	if opts.Reductions > 0 {
		return opts.Reductions * engine.StepsPerReduction
	}
	return engine.DefaultSlice
}

// Run runs the schedule of seed once, writing to base's outputs and
// trace.
func (pl Plan) Run(ctx context.Context, v *bytecode.Verified, base engine.Options, seed uint64) engine.Outcome {
	o := base
	o.Policy = pl.Policy(seed, budget(base))
	o.MaxSteps = pl.Limit
	o.KeepGoSettings = true
	return engine.RunOutcome(ctx, v, o)
}

// Replay runs the schedule of seed once, as Explore ran it with
// timeouts t.
func Replay(ctx context.Context, v *bytecode.Verified, base engine.Options, seed uint64, t Timeouts) engine.Outcome {
	pl := Prepare(ctx, v, base)
	pl.Timeouts = t
	return pl.Run(ctx, v, base, seed)
}

// SeedFor returns the seed of the i-th schedule of an exploration with
// base seed base. Seeds are below 2^53, so they survive JSON readers
// that hold numbers as doubles.
func SeedFor(base uint64, i int) uint64 {
	z := base + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return z & (1<<53 - 1)
}

// Options configures Explore.
type Options struct {
	Runs int    // schedules to run
	Seed uint64 // base seed (SeedFor)
	Jobs int    // runs at once (0: GOMAXPROCS)
	// Timeouts says when timers may fire (the zero value: TimeoutsLazy).
	Timeouts Timeouts
	// Engine supplies the limits and Reductions of every run; its
	// outputs and trace are not used.
	Engine engine.Options
}

// Outcome is one distinct result and the schedules that produced it.
type Outcome struct {
	Stdout, Stderr string
	Status         int
	Deadlock       bool // every process waiting, no timer pending
	StepLimit      bool // stopped at Plan.Limit
	Count          int  // schedules with this outcome
	Seed           uint64
	first          int // run index of Seed
}

// Report is the result of an exploration: its outcomes in the order
// their first schedule ran.
type Report struct {
	Runs     int
	Seed     uint64
	Plan     Plan
	Outcomes []Outcome
	// Interrupted: ctx was cancelled before every schedule ran; Runs
	// counts those that ran to their end, and Asked the schedules asked
	// for.
	Interrupted bool
	Asked       int
}

// Explore runs opts.Runs schedules of v. When ctx is cancelled before
// all of them ran it returns ctx's error with the report of the
// schedules that did run (Interrupted), or nil before the first.
func Explore(ctx context.Context, v *bytecode.Verified, opts Options) (*Report, error) {
	pl := Prepare(ctx, v, opts.Engine)
	pl.Timeouts = opts.Timeouts
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	jobs := opts.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, opts.Runs))
	var (
		mu    sync.Mutex
		byKey = map[[32]byte]*Outcome{}
		next  atomic.Int64
		done  atomic.Int64
		wg    sync.WaitGroup
	)
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stdout, stderr bytes.Buffer
			for {
				i := int(next.Add(1) - 1)
				if i >= opts.Runs || ctx.Err() != nil {
					return
				}
				seed := SeedFor(opts.Seed, i)
				stdout.Reset()
				stderr.Reset()
				o := opts.Engine
				o.Stdout, o.Stderr, o.Trace, o.TraceMessages = &stdout, &stderr, nil, false
				r := pl.Run(ctx, v, o, seed)
				if r.Status == engine.ExitInterrupted && ctx.Err() != nil {
					return
				}
				key := outcomeKey(stdout.Bytes(), stderr.Bytes(), r)
				done.Add(1)
				mu.Lock()
				if out, ok := byKey[key]; ok {
					out.Count++
					if i < out.first {
						out.first, out.Seed = i, seed
					}
				} else {
					byKey[key] = &Outcome{Stdout: stdout.String(), Stderr: stderr.String(), Status: r.Status,
						Deadlock: r.Deadlock, StepLimit: r.StepLimit, Count: 1, Seed: seed, first: i}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	rep := &Report{Runs: int(done.Load()), Seed: opts.Seed, Plan: pl, Asked: opts.Runs}
	for _, o := range byKey {
		rep.Outcomes = append(rep.Outcomes, *o)
	}
	slices.SortFunc(rep.Outcomes, func(a, b Outcome) int { return a.first - b.first })
	if err := ctx.Err(); err != nil {
		if rep.Runs == 0 {
			return nil, err
		}
		rep.Interrupted = true
		return rep, err
	}
	return rep, nil
}

// outcomeKey identifies an outcome.
func outcomeKey(stdout, stderr []byte, r engine.Outcome) [32]byte {
	h := sha256.New()
	var hdr [8 * 4]byte
	binary.LittleEndian.PutUint64(hdr[0:], uint64(int64(r.Status)))
	if r.Deadlock {
		hdr[8] = 1
	}
	if r.StepLimit {
		hdr[9] = 1
	}
	binary.LittleEndian.PutUint64(hdr[16:], uint64(len(stdout)))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(len(stderr)))
	h.Write(hdr[:])
	h.Write(stdout)
	h.Write(stderr)
	var k [32]byte
	h.Sum(k[:0])
	return k
}
