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
	p := &pct{rng: rng, budget: budget, chans: map[edge]*agent{}, fair: 2*k + 1000}
	for i := 1; i < st.Depth; i++ {
		p.change = append(p.change, 1+rng.Int64N(k))
	}
	slices.Sort(p.change)
	p.clock = &agent{a: sched.Clock, prio: p.fresh(), i: -1}
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
	// Agents: processes by generation, channels by their ends.
	procs []*agent
	chans map[edge]*agent
	clock *agent
	ready agentHeap
	// order lists the ready agents in the order they became ready
	// (stale entries are skipped), for the fairness rule.
	order []readyAt
	oh    int
	fair  int64
}

// agent is the state of one agent: its priority, and while it is ready
// its place in the heap and the step it became ready at.
type agent struct {
	a     sched.Agent
	prio  uint64
	i     int   // index in the ready heap, -1 when not ready
	since int64 // step at which it became ready
}

// edge names a channel by its sender and receiver.
type edge struct{ from, to uint64 }

type readyAt struct {
	g  *agent
	at int64
}

func (p *pct) fresh() uint64 { return p.rng.Uint64() | 1<<63 }

// get returns the state of a, creating it with a fresh priority.
func (p *pct) get(a sched.Agent) *agent {
	switch a.Kind {
	case sched.AgentProcess:
		if a.Proc < uint64(len(p.procs)) {
			if g := p.procs[a.Proc]; g != nil {
				return g
			}
		} else if a.Proc < 1<<32 {
			p.procs = append(p.procs, make([]*agent, int(a.Proc)+1-len(p.procs))...)
		} else {
			break
		}
		g := &agent{a: a, prio: p.fresh(), i: -1}
		p.procs[a.Proc] = g
		return g
	case sched.AgentClock:
		return p.clock
	}
	k := edge{a.From, a.Proc}
	if a.Kind == sched.AgentProcess {
		k = edge{1<<64 - 1, a.Proc}
	}
	g := p.chans[k]
	if g == nil {
		g = &agent{a: a, prio: p.fresh(), i: -1}
		p.chans[k] = g
	}
	return g
}

func (p *pct) Defer() bool { return true }

func (p *pct) Ready(a sched.Agent) {
	g := p.get(a)
	if g.i >= 0 {
		return
	}
	g.since = p.step
	p.order = append(p.order, readyAt{g, p.step})
	heap.Push(&p.ready, g)
	if len(p.order)-p.oh > 2*len(p.ready)+orderSlack {
		p.compactOrder()
	}
}

// orderSlack is how many stale entries the fairness order may hold
// beyond twice the ready agents before compactOrder drops them.
const orderSlack = 1024

// compactOrder drops the stale entries of the fairness order (agents
// taken, or made ready again later), keeping the others in order. An
// old agent at the head keeps the prefix compaction of starved from
// running, and an agent taken and made ready again at every step would
// add an entry a step until the fairness bound: with this the order
// holds at most 2 × ready + orderSlack entries, in amortized constant
// time per Ready.
func (p *pct) compactOrder() {
	n := 0
	for _, r := range p.order[p.oh:] {
		if r.g.i >= 0 && r.g.since == r.at {
			p.order[n] = r
			n++
		}
	}
	clear(p.order[n:])
	p.order, p.oh = p.order[:n], 0
}

// changeAt applies the change points of the current step to g and
// reports whether there was one.
func (p *pct) changeAt(g *agent) bool {
	hit := false
	for p.ci < len(p.change) && p.change[p.ci] <= p.step {
		if p.change[p.ci] == p.step {
			g.prio = uint64(p.ci + 1)
			hit = true
		}
		p.ci++
	}
	if hit && g != p.clock && g.i >= 0 {
		heap.Fix(&p.ready, g.i)
	}
	return hit
}

func (p *pct) Next(timer bool) (sched.Agent, bool) {
	p.step++
	c := p.clock
	if !timer {
		c.i = -1
	} else if c.i < 0 {
		c.i, c.since = 0, p.step
	}
	if g := p.starved(); g != nil {
		p.take(g)
		return g.a, true
	}
	top := p.best()
	if top == nil {
		return sched.Agent{}, false
	}
	if p.changeAt(top) {
		top = p.best()
	}
	p.take(top)
	return top.a, true
}

// best returns the ready agent with the highest priority, the clock
// included when a timer is pending.
func (p *pct) best() *agent {
	var top *agent
	if len(p.ready) > 0 {
		top = p.ready[0]
	}
	if c := p.clock; c.i >= 0 && (top == nil || c.prio > top.prio) {
		return c
	}
	return top
}

// take removes g from the ready set.
func (p *pct) take(g *agent) {
	if g == p.clock {
		g.i = -1
		return
	}
	heap.Remove(&p.ready, g.i)
}

// starved returns the agent that has waited longest if it has waited
// more than p.fair steps.
func (p *pct) starved() *agent {
	for p.oh < len(p.order) {
		r := p.order[p.oh]
		if r.g.i >= 0 && r.g.since == r.at {
			break
		}
		p.order[p.oh] = readyAt{}
		p.oh++
	}
	if p.oh == len(p.order) {
		p.order, p.oh = p.order[:0], 0
	} else if p.oh >= 1024 && 2*p.oh >= len(p.order) {
		n := copy(p.order, p.order[p.oh:])
		clear(p.order[n:])
		p.order, p.oh = p.order[:n], 0
	}
	if c := p.clock; c.i >= 0 && p.step-c.since > p.fair {
		return c
	}
	if p.oh < len(p.order) && p.step-p.order[p.oh].at > p.fair {
		return p.order[p.oh].g
	}
	return nil
}

func (p *pct) Quantum(uint64) int { return p.budget }

func (p *pct) Preempt(proc uint64, _ sched.Op) bool {
	p.step++
	self := p.get(sched.Agent{Kind: sched.AgentProcess, Proc: proc})
	if p.changeAt(self) {
		return true
	}
	return len(p.ready) > 0 && p.ready[0].prio > self.prio
}

// agentHeap is a max-heap of ready agents by priority (ties by agent,
// for determinism); each agent knows its index.
type agentHeap []*agent

func (h agentHeap) Len() int { return len(h) }
func (h agentHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return agentCmp(a.a, b.a) < 0
}
func (h agentHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].i, h[j].i = i, j
}
func (h *agentHeap) Push(x any) {
	g := x.(*agent)
	g.i = len(*h)
	*h = append(*h, g)
}
func (h *agentHeap) Pop() any {
	old := *h
	g := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	g.i = -1
	return g
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
