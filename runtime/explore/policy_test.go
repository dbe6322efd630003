package explore

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
)

func proc(n uint64) sched.Agent { return sched.Agent{Kind: sched.AgentProcess, Proc: n} }

// seedWith returns a seed of the strategy wanted.
func seedWith(t *testing.T, want Strategy) uint64 {
	t.Helper()
	for i := 0; i < 100; i++ {
		if s := SeedFor(0, i); StrategyOf(s) == want {
			return s
		}
	}
	t.Fatalf("no seed of strategy %v", want)
	return 0
}

// pctPair returns a depth-1 PCT policy over k steps with agents 1 and 2
// ready, and which of them has the higher priority and which the lower.
func pctPair(t *testing.T, k int64) (p *pct, hi, lo sched.Agent) {
	t.Helper()
	p = NewPolicy(seedWith(t, Strategy{Depth: 1}), k, 100).(*pct)
	p.Ready(proc(1))
	p.Ready(proc(2))
	hi, lo = proc(1), proc(2)
	if p.get(lo).prio > p.get(hi).prio {
		hi, lo = lo, hi
	}
	return p, hi, lo
}

func TestStrategiesSpread(t *testing.T) {
	count := map[Strategy]int{}
	for i := 0; i < 4000; i++ {
		s := SeedFor(0, i)
		if s >= 1<<53 {
			t.Fatalf("seed %d is not below 2^53", s)
		}
		count[StrategyOf(s)]++
	}
	for _, st := range []Strategy{{Walk: true}, {Depth: 1}, {Depth: 2}, {Depth: 3}} {
		if n := count[st]; n < 850 || n > 1150 {
			t.Errorf("%v: %d of 4000 seeds", st, n)
		}
	}
	if SeedFor(0, 0) == SeedFor(1, 0) || SeedFor(0, 0) == SeedFor(0, 1) {
		t.Error("seeds repeat")
	}
}

// script drives a policy through a fixed sequence of calls and records
// its answers.
func script(p sched.Policy) []sched.Agent {
	var got []sched.Agent
	for n := uint64(1); n <= 6; n++ {
		p.Ready(proc(n))
	}
	p.Ready(sched.Agent{Kind: sched.AgentChannel, Proc: 1, From: 2})
	for i := 0; i < 20; i++ {
		a, ok := p.Next(i%3 == 0)
		if !ok {
			break
		}
		got = append(got, a)
		if a.Kind == sched.AgentProcess && p.Preempt(a.Proc, sched.OpSend) {
			p.Ready(a)
		} else if a.Kind == sched.AgentProcess && a.Proc%2 == 0 {
			p.Ready(a)
		}
	}
	return got
}

func TestPoliciesAreDeterministic(t *testing.T) {
	for i := 0; i < 8; i++ {
		seed := SeedFor(3, i)
		a, b := script(NewPolicy(seed, 30, 100)), script(NewPolicy(seed, 30, 100))
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("seed %d: %d and %d decisions", seed, len(a), len(b))
		}
		for j := range a {
			if a[j] != b[j] {
				t.Fatalf("seed %d: decision %d is %v, then %v", seed, j, a[j], b[j])
			}
		}
	}
}

// TestPCTPriorities: without change points (depth 1) PCT always picks
// the ready agent with the highest priority, keeps each agent's
// priority, and preempts a process exactly when a higher agent is
// ready.
func TestPCTPriorities(t *testing.T) {
	p := NewPolicy(seedWith(t, Strategy{Depth: 1}), 100, 100).(*pct)
	for n := uint64(1); n <= 20; n++ {
		p.Ready(proc(n))
	}
	var order []uint64
	prev := uint64(1<<64 - 1)
	for {
		a, ok := p.Next(false)
		if !ok {
			break
		}
		pr := p.get(a).prio
		if pr > prev {
			t.Fatalf("%v (priority %d) chosen after an agent of priority %d", a, pr, prev)
		}
		prev = pr
		order = append(order, a.Proc)
	}
	if len(order) != 20 {
		t.Fatalf("%d agents chosen, want 20", len(order))
	}
	// The second in that order preempts when the first is ready again.
	first, second := order[0], order[1]
	p.Ready(proc(first))
	if !p.Preempt(second, sched.OpSend) {
		t.Error("no preemption with a higher agent ready")
	}
	if a, _ := p.Next(false); a != proc(first) {
		t.Errorf("next %v, want %v", a, proc(first))
	}
	if p.Preempt(first, sched.OpSend) {
		t.Error("preempted with no higher agent ready")
	}
}

// TestPCTChangePoints: with depth d there are d-1 change points in
// 1..k; at each the acting agent drops to a priority below every other
// and is preempted.
func TestPCTChangePoints(t *testing.T) {
	for _, d := range []int{2, 3} {
		for i := 0; i < 20; i++ {
			seed := SeedFor(uint64(100*d), i)
			if StrategyOf(seed).Depth != d {
				continue
			}
			p := NewPolicy(seed, 50, 100).(*pct)
			if len(p.change) != d-1 {
				t.Fatalf("depth %d: %d change points", d, len(p.change))
			}
			for _, c := range p.change {
				if c < 1 || c > 50 {
					t.Fatalf("change point %d outside 1..50", c)
				}
			}
			p.Ready(proc(1))
			p.Ready(proc(2))
			for step := 0; step < 60; step++ {
				a, ok := p.Next(false)
				if !ok {
					t.Fatal("nothing ready")
				}
				before := p.get(a).prio
				pre := p.Preempt(a.Proc, sched.OpSend)
				if after := p.get(a).prio; after != before && (!pre || after >= uint64(d)) {
					t.Fatalf("seed %d: priority %d -> %d (preempted %v)", seed, before, after, pre)
				}
				p.Ready(a)
			}
			// 120 steps passed every change point; the last one left its
			// agent at a priority below d.
			if p.ci != len(p.change) {
				t.Fatalf("seed %d: %d of %d change points passed", seed, p.ci, len(p.change))
			}
			low := 0
			for _, n := range []uint64{1, 2} {
				if pr := p.get(proc(n)).prio; pr < uint64(d) {
					low++
				} else if pr < 1<<63 {
					t.Fatalf("seed %d: priority %d is neither initial nor a change point's", seed, pr)
				}
			}
			if low == 0 {
				t.Errorf("seed %d: no agent was lowered by the change points %v", seed, p.change)
			}
		}
	}
}

// TestPCTFairness: an agent ready for more than fair steps acts next,
// even with a higher agent always ready.
func TestPCTFairness(t *testing.T) {
	p, _, lo := pctPair(t, 10)
	for step := 1; ; step++ {
		a, _ := p.Next(false)
		if a == lo {
			if int64(step) <= p.fair {
				t.Fatalf("the low agent ran at step %d, before the fairness bound %d", step, p.fair)
			}
			break
		}
		if int64(step) > p.fair+2 {
			t.Fatalf("the low agent starved past step %d", step)
		}
		p.Ready(a)
	}
}

// TestPCTClock: the clock competes by its own priority when a timer is
// pending and never acts when none is.
func TestPCTClock(t *testing.T) {
	p := NewPolicy(seedWith(t, Strategy{Depth: 1}), 10, 100).(*pct)
	if _, ok := p.Next(false); ok {
		t.Fatal("an agent with nothing ready")
	}
	if a, ok := p.Next(true); !ok || a != sched.Clock {
		t.Fatalf("%v %v, want the clock", a, ok)
	}
	p.Ready(proc(1))
	a, _ := p.Next(true)
	if want := proc(1); p.clock.prio > p.get(want).prio {
		want = sched.Clock
		if a != want {
			t.Fatalf("%v, want the clock (higher priority)", a)
		}
	} else if a != want {
		t.Fatalf("%v, want %v (higher priority)", a, want)
	}
}

func TestWalk(t *testing.T) {
	w := NewPolicy(seedWith(t, Strategy{Walk: true}), 10, 100).(*walk)
	seen := map[sched.Agent]int{}
	for i := 0; i < 3000; i++ {
		for n := uint64(1); n <= 3; n++ {
			w.Ready(proc(n))
		}
		w.Ready(proc(1)) // already ready: no second entry
		a, ok := w.Next(true)
		if !ok {
			t.Fatal("nothing chosen")
		}
		seen[a]++
		for len(w.ready) > 0 {
			w.Next(false)
		}
		if q := w.Quantum(1); q < 1 || q > 100 {
			t.Fatalf("quantum %d outside 1..100", q)
		}
	}
	for _, a := range []sched.Agent{proc(1), proc(2), proc(3), sched.Clock} {
		if n := seen[a]; n < 600 || n > 900 {
			t.Errorf("%v chosen %d times of 3000", a, n)
		}
	}
	if _, ok := w.Next(false); ok {
		t.Error("an agent with nothing ready")
	}
}

// TestLazyClock: with lazy timeouts (the default of a Plan) a policy
// never lets the clock act while another agent is ready, whatever its
// strategy; it answers "nothing ready" when only the clock could act, so
// that the runtime fires the timer. With eager timeouts the clock does
// act while others are ready, for some seeds.
func TestLazyClock(t *testing.T) {
	eagerClock := false
	for i := 0; i < 40; i++ {
		seed := SeedFor(0, i)
		for _, mode := range []Timeouts{TimeoutsLazy, TimeoutsEager} {
			p := Plan{K: 20, Timeouts: mode}.Policy(seed, 100)
			for n := uint64(1); n <= 3; n++ {
				p.Ready(proc(n))
			}
			for step := 0; step < 3; step++ {
				a, ok := p.Next(true)
				if !ok {
					t.Fatalf("seed %d %v: nothing chosen while processes are ready", seed, mode)
				}
				if a.Kind == sched.AgentClock {
					if mode == TimeoutsLazy {
						t.Fatalf("seed %d: the clock acted while processes were ready", seed)
					}
					eagerClock = true
					p.Ready(proc(uint64(10 + step))) // keep three ready
				}
			}
			if mode == TimeoutsLazy {
				if a, ok := p.Next(true); ok {
					t.Fatalf("seed %d: %v chosen when only the clock could act", seed, a)
				}
			}
		}
	}
	if !eagerClock {
		t.Error("with eager timeouts the clock never acted while processes were ready")
	}
}

// TestPCTOrderBounded: while an old agent stays ready at the head of the
// fairness order, the stale entries of an agent that is taken and made
// ready again at every step are dropped, so the order never holds much
// more than the ready agents (before, it grew by one entry a step up to
// the fairness bound: 251 MB on a timer-heavy program).
func TestPCTOrderBounded(t *testing.T) {
	p, hi, lo := pctPair(t, 1_000_000)
	most := 0
	for step := 0; step < 200_000; step++ {
		a, _ := p.Next(false)
		if a != hi {
			t.Fatalf("step %d chose %v, want the high agent", step, a)
		}
		p.Ready(a)
		most = max(most, len(p.order)-p.oh)
	}
	if limit := 2*len(p.ready) + orderSlack + 1; most > limit {
		t.Fatalf("the fairness order held %d entries for %d ready agents (limit %d)", most, len(p.ready), limit)
	}
	// The low agent is still first for the fairness rule.
	if p.order[p.oh].g != p.get(lo) {
		t.Fatal("the low agent lost its place in the fairness order")
	}
}
