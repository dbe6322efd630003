package supervisor

import (
	"strings"
	"testing"
)

// sim is a toy driver: it carries out effects the way the package comment
// tells a supervisor process to, over simulated processes, so nested
// branches (one machine per supervisor) can be tested end to end. Workers
// follow a behaviour chosen by name: "ok" acknowledges and exits Shutdown
// when told to, "hold" acknowledges and ignores Shutdown (a child that
// traps exits and holds on), "fail" fails its start-up.
type sim struct {
	t       *testing.T
	procs   []*sproc // index = pid; 0 unused
	queue   []delivery
	timers  []stimer
	log     []string
	replies []string
	behave  map[string]string
}

type sproc struct {
	pid    int
	name   string
	parent int // supervising process, 0 for the top
	gen    Gen // generation under the parent
	m      *Machine
	level  int
	kids   map[Gen]int
	hold   bool
	alive  bool
}

type delivery struct {
	to int
	in Input
}

type stimer struct {
	owner int
	token Token
}

func newSim(t *testing.T, behave map[string]string) *sim {
	return &sim{t: t, procs: []*sproc{nil}, behave: behave}
}

func (s *sim) spawn(p *sproc) *sproc {
	p.pid, p.alive, p.kids = len(s.procs), true, map[Gen]int{}
	s.procs = append(s.procs, p)
	return p
}

// top starts a top-level supervisor and runs until nothing is left to do.
func (s *sim) top(f Flags, children []Spec) *sproc {
	m, err := New(Config{Flags: f, Children: children})
	if err != nil {
		s.t.Fatal(err)
	}
	p := s.spawn(&sproc{name: "top", m: m, level: 1})
	s.send(p.pid, Begin{})
	s.run()
	return p
}

func (s *sim) send(to int, in Input) { s.queue = append(s.queue, delivery{to, in}) }

// run delivers queued inputs in order; when none is left it fires the
// oldest armed timer, until there is neither.
func (s *sim) run() {
	for steps := 0; ; steps++ {
		if steps > 10000 {
			s.t.Fatal("simulation does not settle")
		}
		if len(s.queue) == 0 {
			if len(s.timers) == 0 {
				return
			}
			tm := s.timers[0]
			s.timers = s.timers[1:]
			s.send(tm.owner, TimerFired{Token: tm.token})
			continue
		}
		d := s.queue[0]
		s.queue = s.queue[1:]
		p := s.procs[d.to]
		if _, req := d.in.(Request); p.m == nil || (!p.alive && !req) {
			// A request to a retired supervisor still gets its answer
			// (SupervisorStopped); nothing else reaches a dead process.
			continue
		}
		for _, e := range p.m.Step(0, d.in) {
			s.effect(p, e)
		}
	}
}

func (s *sim) effect(sup *sproc, e Effect) {
	switch e := e.(type) {
	case StartChild:
		s.log = append(s.log, "start:"+e.Name)
		c := &sproc{name: e.Name, parent: sup.pid, gen: e.Gen}
		if e.Spec.Kind == Branch {
			m, err := New(Config{Flags: e.Spec.Flags, Children: e.Spec.Children, Level: sup.level + 1})
			if err != nil {
				s.t.Fatal(err)
			}
			c.m, c.level = m, sup.level+1
			s.spawn(c)
			sup.kids[e.Gen] = c.pid
			s.send(c.pid, Begin{})
			return
		}
		s.spawn(c)
		sup.kids[e.Gen] = c.pid
		switch s.behave[e.Name] {
		case "fail":
			s.die(c, Reason{Kind: ReasonFailure, Text: e.Name})
		case "hold":
			c.hold = true
			s.send(sup.pid, StartResult{Gen: e.Gen, Outcome: Acked})
		default:
			s.send(sup.pid, StartResult{Gen: e.Gen, Outcome: Acked})
		}
	case SendShutdown:
		c := s.procs[sup.kids[e.Gen]]
		switch {
		case c.m != nil:
			s.send(c.pid, ParentExit{Reason: ShutdownExit})
		case !c.hold:
			s.die(c, ShutdownExit)
		}
	case Kill:
		s.die(s.procs[sup.kids[e.Gen]], Killed)
	case ArmTimer:
		s.timers = append(s.timers, stimer{sup.pid, e.Token})
	case CancelTimer:
		for i, tm := range s.timers {
			if tm.owner == sup.pid && tm.token == e.Token {
				s.timers = append(s.timers[:i], s.timers[i+1:]...)
				break
			}
		}
	case ScheduleRetry:
		s.send(sup.pid, RetryDue{Token: e.Token})
	case Reply:
		s.replies = append(s.replies, sup.name+" "+e.String())
	case StartupDone:
		s.log = append(s.log, sup.name+" "+e.String())
		if e.Result.OK && sup.parent != 0 {
			s.send(sup.parent, StartResult{Gen: sup.gen, Outcome: Acked})
		}
	case Retire:
		s.die(sup, e.Reason)
	default:
		s.t.Fatalf("unknown effect %T", e)
	}
}

// die retires p. Its supervisor is told through its monitor; its own
// children, linked to it, die with the same reason unless it is Normal
// (they do not trap exits) — a supervisor has stopped its children before
// it retires, so this only matters for a killed branch.
func (s *sim) die(p *sproc, r Reason) {
	if !p.alive {
		return
	}
	p.alive = false
	s.log = append(s.log, "stop:"+p.name+" "+r.String())
	for _, pid := range p.kids {
		if c := s.procs[pid]; c.alive && r.Kind != ReasonNormal {
			s.die(c, r)
		}
	}
	if p.parent != 0 {
		s.send(p.parent, ChildExit{Gen: p.gen, Reason: r})
	}
}

func (s *sim) request(to *sproc, r Request) {
	s.send(to.pid, r)
	s.run()
}

func (s *sim) crash(name string, r Reason) {
	for i := len(s.procs) - 1; i > 0; i-- {
		if p := s.procs[i]; p.alive && p.name == name {
			s.die(p, r)
			s.run()
			return
		}
	}
	s.t.Fatalf("no live process %s", name)
}

func (s *sim) expect(what string, want ...string) {
	s.t.Helper()
	got := strings.Join(s.log, "\n")
	if w := strings.Join(want, "\n"); got != w {
		s.t.Fatalf("%s:\n--- got\n%s\n--- want\n%s", what, got, w)
	}
	s.log = nil
}

func TestNestedBranches(t *testing.T) {
	f := flags(OneForOne, 5, 5)
	inner := br("b", flags(RestForOne, 5, 5), Policy{Shutdown: inf},
		w("x", Permanent, grace(100)), w("y", Permanent, imm))
	s := newSim(t, map[string]string{"x": "hold"})
	top := s.top(f, []Spec{w("a", Permanent, imm), inner, w("c", Permanent, imm)})
	s.expect("start-up: a branch's start is acknowledged when its own start-up commits",
		"start:a", "start:b", "start:x", "start:y", "b startup Ok", "start:c", "top startup Ok")

	s.crash("x", Reason{Kind: ReasonFault, Code: 1})
	s.expect("a crash inside the branch is handled by the branch alone",
		"stop:x fault:1", "stop:y killed", "start:x", "start:y")

	s.request(top, Request{ID: 1, Op: OpWhichChildren})
	if got := s.replies[len(s.replies)-1]; got != "top reply r1 Ok([a:Worker:Running#1, b:Branch:Running#2, c:Worker:Running#3])" {
		t.Errorf("which_children: %s", got)
	}

	s.request(top, Request{ID: 2, Op: OpTerminateChild, Name: "b"})
	s.expect("terminating a branch: it stops its own children first (x holds on and is killed at its deadline)",
		"stop:y killed", "stop:x killed", "stop:b shutdown")
	if got := s.replies[len(s.replies)-1]; got != "top reply r2 Ok" {
		t.Errorf("terminate_child b: %s", got)
	}

	s.request(top, Request{ID: 3, Op: OpStop})
	s.expect("stop", "stop:c killed", "stop:a killed", "stop:top normal")
	if got := s.replies[len(s.replies)-1]; got != "top reply r3 Ok" {
		t.Errorf("stop: %s", got)
	}
	if r, done := top.m.Retired(); !done || r != Normal {
		t.Errorf("Retired() = %v, %v after stop", r, done)
	}
}

func TestNestedStartFailure(t *testing.T) {
	inner := br("b", flags(OneForOne, 5, 5), Policy{Shutdown: inf},
		w("x", Permanent, imm), w("y", Permanent, imm))
	s := newSim(t, map[string]string{"y": "fail"})
	s.top(flags(OneForOne, 5, 5), []Spec{w("a", Permanent, imm), inner, w("c", Permanent, imm)})
	s.expect("a branch that cannot start rolls back, exits Shutdown, and so fails its parent's start-up",
		"start:a", "start:b", "start:x", "start:y", "stop:y failure:y",
		"stop:x killed", `b startup Err(StartFailed("y", failure:y))`, "stop:b shutdown",
		"stop:a killed", `top startup Err(StartFailed("b", shutdown))`, "stop:top shutdown")
}

func TestKilledBranch(t *testing.T) {
	inner := br("b", flags(OneForOne, 5, 5), Policy{Shutdown: imm}, w("x", Permanent, imm))
	s := newSim(t, nil)
	top := s.top(flags(OneForOne, 5, 5), []Spec{inner})
	s.expect("start", "start:b", "start:x", "b startup Ok", "top startup Ok")
	s.request(top, Request{ID: 1, Op: OpTerminateChild, Name: "b"})
	s.expect("an Immediate branch is killed; its children die through their links",
		"stop:b killed", "stop:x killed")
}
