package explore

import (
	"cmp"
	"container/heap"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// Strategy is how one schedule is chosen; a seed fixes it (StrategyOf).
type Strategy struct {
	// Walk selects the random walk; otherwise PCT with Depth (1..MaxDepth).
	Walk  bool
	Depth int
}

func (s Strategy) String() string {
	if s.Walk {
		return "random walk"
	}
	return "PCT depth " + strconv.Itoa(s.Depth)
}

// MaxDepth is the largest bug depth PCT is run for.
const MaxDepth = 3

// StrategyOf returns the strategy of a seed: seed mod 4 is 0 for the
// random walk and d for PCT with depth d. The seeds an exploration
// derives (SeedFor) are spread evenly, so each strategy gets a quarter
// of the schedules.
func StrategyOf(seed uint64) Strategy {
	if m := int(seed % (MaxDepth + 1)); m > 0 {
		return Strategy{Depth: m}
	}
	return Strategy{Walk: true}
}

// NewPolicy returns the policy that chooses the schedule of seed. k is
// the estimated number of scheduling steps of a run (Plan.K) and budget
// the steps of a full turn.
func NewPolicy(seed uint64, k int64, budget int) sched.Policy {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	st := StrategyOf(seed)
	if k < 1 {
		k = 1
	}
	if st.Walk {
		return &walk{rng: rng, budget: budget, idx: map[sched.Agent]int{}}
	}
	p := &pct{rng: rng, budget: budget, prio: map[sched.Agent]uint64{}, fair: 2*k + 1000,
		since: map[sched.Agent]int64{}, clockSince: -1}
	for i := 1; i < st.Depth; i++ {
		p.change = append(p.change, 1+rng.Int64N(k))
	}
	slices.Sort(p.change)
	p.prio[sched.Clock] = p.fresh()
	return p
}

// ---------------------------------------------------------------- PCT

// pct is probabilistic concurrency testing (Burckhardt, Kothari,
// Musuvathi and Nagarakatte, ASPLOS 2010) over the agents of a
// deterministic run: processes, channels and the clock. Every agent gets
// a random priority above MaxDepth when it is first ready; the ready
// agent with the highest priority always acts, and a running process is
// preempted as soon as an agent with a higher priority becomes ready (a
// child it spawned, a channel it sent on). At d-1 change points, steps
// drawn uniformly from 1..k, the agent taking that step drops to
// priority i (the i-th change point) and is preempted. A step is a
// scheduling decision: an agent chosen, or a visible operation of the
// running process.
//
// To keep schedules finite (a retry loop whose reply never gets through
// under strict priorities), an agent that has been ready for more than
// fair steps acts next.
type pct struct {
	rng    *rand.Rand
	budget int
	change []int64 // change points, ascending
	ci     int     // the next change point
	step   int64
	prio   map[sched.Agent]uint64
	ready  agentHeap
	// since records when each ready agent became ready; order is that
	// order (stale entries are skipped), for the fairness rule.
	since      map[sched.Agent]int64
	order      []readyAt
	oh         int
	fair       int64
	clockSince int64 // step at which a timer became pending (-1: none)
}

type readyAt struct {
	a  sched.Agent
	at int64
}

func (p *pct) fresh() uint64 { return p.rng.Uint64() | 1<<63 }

func (p *pct) Defer() bool { return true }

func (p *pct) Ready(a sched.Agent) {
	if _, ok := p.since[a]; ok {
		return
	}
	pr, ok := p.prio[a]
	if !ok {
		pr = p.fresh()
		p.prio[a] = pr
	}
	p.since[a] = p.step
	p.order = append(p.order, readyAt{a, p.step})
	heap.Push(&p.ready, &entry{a: a, prio: pr})
}

// changeAt applies the change points of the current step to agent a and
// reports whether there was one.
func (p *pct) changeAt(a sched.Agent) bool {
	hit := false
	for p.ci < len(p.change) && p.change[p.ci] <= p.step {
		if p.change[p.ci] == p.step {
			p.prio[a] = uint64(p.ci + 1)
			hit = true
		}
		p.ci++
	}
	return hit
}

func (p *pct) Next(timer bool) (sched.Agent, bool) {
	p.step++
	if !timer {
		p.clockSince = -1
	} else if p.clockSince < 0 {
		p.clockSince = p.step
	}
	if a, ok := p.starved(); ok {
		return a, true
	}
	top, ok := p.best(timer)
	if !ok {
		return sched.Agent{}, false
	}
	if p.changeAt(top) {
		if top != sched.Clock {
			p.ready.reprioritise(top, p.prio[top])
		}
		top, _ = p.best(timer)
	}
	p.take(top)
	return top, true
}

// best returns the ready agent with the highest priority, the clock
// included when a timer is pending.
func (p *pct) best(timer bool) (sched.Agent, bool) {
	if len(p.ready.es) == 0 {
		return sched.Clock, timer
	}
	top := p.ready.es[0]
	if timer && p.prio[sched.Clock] > top.prio {
		return sched.Clock, true
	}
	return top.a, true
}

// take removes a from the ready set (the clock is never in it).
func (p *pct) take(a sched.Agent) {
	if a == sched.Clock {
		p.clockSince = -1
		return
	}
	p.ready.remove(a)
	delete(p.since, a)
}

// starved returns the agent that has waited longest if it has waited
// more than p.fair steps.
func (p *pct) starved() (sched.Agent, bool) {
	for p.oh < len(p.order) {
		r := p.order[p.oh]
		if at, ok := p.since[r.a]; ok && at == r.at {
			break
		}
		p.order[p.oh] = readyAt{}
		p.oh++
	}
	if p.oh == len(p.order) {
		p.order, p.oh = p.order[:0], 0
	} else if p.oh >= 1024 && 2*p.oh >= len(p.order) {
		n := copy(p.order, p.order[p.oh:])
		p.order, p.oh = p.order[:n], 0
	}
	if p.clockSince >= 0 && p.step-p.clockSince > p.fair {
		p.take(sched.Clock)
		return sched.Clock, true
	}
	if p.oh < len(p.order) && p.step-p.order[p.oh].at > p.fair {
		a := p.order[p.oh].a
		p.take(a)
		return a, true
	}
	return sched.Agent{}, false
}

func (p *pct) Quantum(uint64) int { return p.budget }

func (p *pct) Preempt(proc uint64, _ sched.Op) bool {
	p.step++
	self := sched.Agent{Kind: sched.AgentProcess, Proc: proc}
	if p.changeAt(self) {
		return true
	}
	return len(p.ready.es) > 0 && p.ready.es[0].prio > p.prio[self]
}

// entry is one ready agent in the heap.
type entry struct {
	a    sched.Agent
	prio uint64
	i    int
}

// agentHeap is a max-heap of ready agents by priority (ties by agent,
// for determinism), with each agent's position for removal.
type agentHeap struct {
	es  []*entry
	pos map[sched.Agent]*entry
}

func (h agentHeap) Len() int { return len(h.es) }
func (h agentHeap) Less(i, j int) bool {
	a, b := h.es[i], h.es[j]
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return agentCmp(a.a, b.a) < 0
}
func (h agentHeap) Swap(i, j int) {
	h.es[i], h.es[j] = h.es[j], h.es[i]
	h.es[i].i, h.es[j].i = i, j
}
func (h *agentHeap) Push(x any) {
	e := x.(*entry)
	e.i = len(h.es)
	h.es = append(h.es, e)
	if h.pos == nil {
		h.pos = map[sched.Agent]*entry{}
	}
	h.pos[e.a] = e
}
func (h *agentHeap) Pop() any {
	e := h.es[len(h.es)-1]
	h.es[len(h.es)-1] = nil
	h.es = h.es[:len(h.es)-1]
	delete(h.pos, e.a)
	return e
}

func (h *agentHeap) remove(a sched.Agent) {
	if e, ok := h.pos[a]; ok {
		heap.Remove(h, e.i)
	}
}

func (h *agentHeap) reprioritise(a sched.Agent, prio uint64) {
	if e, ok := h.pos[a]; ok {
		e.prio = prio
		heap.Fix(h, e.i)
	}
}

func agentCmp(a, b sched.Agent) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Proc, b.Proc), cmp.Compare(a.From, b.From))
}

// ---------------------------------------------------------------- walk

// walk is a random walk: at every decision each ready agent (and the
// clock, when a timer is pending) is equally likely to act, each turn
// gets a random budget between 1 and a full turn, and a process is
// preempted after each visible operation with probability 1/2.
type walk struct {
	rng    *rand.Rand
	budget int
	ready  []sched.Agent
	idx    map[sched.Agent]int
}

func (w *walk) Defer() bool { return true }

func (w *walk) Ready(a sched.Agent) {
	if _, ok := w.idx[a]; ok {
		return
	}
	w.idx[a] = len(w.ready)
	w.ready = append(w.ready, a)
}

func (w *walk) Next(timer bool) (sched.Agent, bool) {
	n := len(w.ready)
	if timer {
		n++
	}
	if n == 0 {
		return sched.Agent{}, false
	}
	i := w.rng.IntN(n)
	if i == len(w.ready) {
		return sched.Clock, true
	}
	a := w.ready[i]
	last := len(w.ready) - 1
	w.ready[i] = w.ready[last]
	w.idx[w.ready[i]] = i
	w.ready = w.ready[:last]
	delete(w.idx, a)
	return a, true
}

func (w *walk) Quantum(uint64) int { return 1 + w.rng.IntN(w.budget) }

func (w *walk) Preempt(uint64, sched.Op) bool { return w.rng.IntN(2) == 0 }
