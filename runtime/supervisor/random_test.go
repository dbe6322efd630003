package supervisor

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestRandomized drives supervisors through the toy driver with random
// crashes, requests and parent exits, and checks invariants that every
// rule together must keep: nothing panics, every request is answered
// exactly once, a child never has two live processes, and a retired
// supervisor leaves no live child behind.
func TestRandomized(t *testing.T) {
	reasons := []Reason{Normal, ShutdownExit, {Kind: ReasonShutdownDetail, Text: "d"}, {Kind: ReasonFault, Code: 1}, Killed}
	for seed := int64(1); seed <= 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		behave := map[string]string{}
		var specs []Spec
		names := []string{"a", "b", "c", "d", "e"}
		for _, n := range names {
			r := Restart(rng.Intn(3))
			sd := []Shutdown{imm, inf, grace(10), grace(0)}[rng.Intn(4)]
			s := w(n, r, sd)
			if r != Permanent && rng.Intn(3) == 0 {
				s.Policy.Significant = true
			}
			if rng.Intn(4) == 0 {
				behave[n] = "hold"
				if sd.Kind == Infinity {
					s.Policy.Shutdown = grace(5) // a holder under Infinity would never stop
				}
			}
			specs = append(specs, s)
		}
		f := Flags{Strategy: Strategy(rng.Intn(3)), Intensity: int64(rng.Intn(6)), PeriodSeconds: 1 + int64(rng.Intn(5)), AutoShutdown: AutoShutdown(rng.Intn(3))}
		if f.AutoShutdown == Never {
			for i := range specs {
				specs[i].Policy.Significant = false
			}
		}
		s := newSim(t, behave)
		top := s.top(f, specs)
		asked := 0
		for step := 0; step < 60 && top.alive; step++ {
			switch k := rng.Intn(10); {
			case k < 4:
				var live []*sproc
				for _, p := range s.procs[1:] {
					if p.alive && p.parent == top.pid {
						live = append(live, p)
					}
				}
				if len(live) > 0 {
					p := live[rng.Intn(len(live))]
					s.die(p, reasons[rng.Intn(len(reasons))])
				}
			case k < 9:
				asked++
				r := Request{ID: RequestID(asked), Name: names[rng.Intn(len(names))]}
				r.Key = keyOf(r.Name)
				r.Op = []Op{OpWhichChildren, OpCurrent, OpTerminateChild, OpRestartChild, OpDeleteChild, OpStartChild}[rng.Intn(6)]
				if r.Op == OpStartChild {
					r.Spec = w(r.Name, Restart(rng.Intn(3)), imm)
				}
				s.send(top.pid, r)
			default:
				if rng.Intn(4) == 0 {
					asked++
					s.send(top.pid, Request{ID: RequestID(asked), Op: OpStop})
				} else if rng.Intn(3) == 0 {
					s.send(top.pid, ParentExit{Reason: reasons[rng.Intn(len(reasons))]})
				}
			}
			if rng.Intn(3) > 0 {
				s.run()
			}
			checkOneLivePerName(t, seed, s, top)
		}
		s.run()
		// Whatever is left: stop it, so every request has its answer.
		asked++
		s.send(top.pid, Request{ID: RequestID(asked), Op: OpStop})
		s.run()
		answered := map[string]int{}
		for _, r := range s.replies {
			f := strings.Fields(r)
			answered[f[2]]++
		}
		for id := 1; id <= asked; id++ {
			if n := answered[fmt.Sprintf("r%d", id)]; n != 1 {
				t.Fatalf("seed %d: request %d answered %d times\n%s", seed, id, n, strings.Join(s.replies, "\n"))
			}
		}
		if top.alive {
			t.Fatalf("seed %d: the supervisor is still alive after stop", seed)
		}
		for _, p := range s.procs[1:] {
			if p.alive {
				t.Fatalf("seed %d: %s is still alive after its supervisor retired", seed, p.name)
			}
		}
	}
}

func checkOneLivePerName(t *testing.T, seed int64, s *sim, top *sproc) {
	t.Helper()
	live := map[string]int{}
	for _, p := range s.procs[1:] {
		if p.alive && p.parent == top.pid {
			live[p.name]++
			if live[p.name] > 1 {
				t.Fatalf("seed %d: two live processes for child %s", seed, p.name)
			}
		}
	}
}
