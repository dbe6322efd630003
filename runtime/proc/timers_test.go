package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"
	"go/ast"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/gosrc"
	"github.com/morrow-lang/morrow/runtime/value"
)

// armedCount is the number of processes of ps whose receive timer is
// armed: what Invocation.ArmedTimers must equal at every moment.
func armedCount(ps []*Process) int64 {
	var n int64
	for _, p := range ps {
		p.mu.Lock()
		if p.armed != 0 {
			n++
		}
		p.mu.Unlock()
	}
	return n
}

// timerModel drives the processes of one invocation through random
// sequences of what the scheduler and the VM do with them: receives with
// and without timeouts (plain and event), takes, waits that arm, park or
// time out, a wait abandoned by a new receive, calls with timeouts
// (replied, timed out, or ended by the target's death), timers that fire
// (stale or current), plain sends and retirements of waiting processes.
type timerModel struct {
	rng    *rand.Rand
	inv    *Invocation
	all    []*Process // every process ever created
	live   []*Process
	now    time.Time
	timers []modelTimer // the "heap": armed timers, fired or not
	mode   map[*Process]int
	reply  map[*Process]value.Value // a caller's reply address
	server map[*Process]*Process    // a caller's target
}

type modelTimer struct {
	p     *Process
	epoch uint64
	at    time.Time
}

const (
	modeIdle = iota
	modeRecv
	modeCall
)

func (m *timerModel) spawn() {
	p := m.inv.NewProcess(KindIsolated, nil, 0)
	m.all = append(m.all, p)
	m.live = append(m.live, p)
	m.mode[p] = modeIdle
}

func (m *timerModel) timeout() int64 {
	return []int64{-1, 0, 1, 5, 50}[m.rng.IntN(5)]
}

func (m *timerModel) pick() *Process { return m.live[m.rng.IntN(len(m.live))] }

// step does one random thing and names it.
func (m *timerModel) step() string {
	if len(m.live) < 2 || m.rng.IntN(40) == 0 {
		m.spawn()
		return "spawn"
	}
	switch m.rng.IntN(6) {
	case 0:
		m.now = m.now.Add(time.Duration(m.rng.IntN(20)) * time.Millisecond)
		return "advance"
	case 1:
		return m.fire()
	case 2:
		p, q := m.pick(), m.pick()
		m.inv.SendFrom(q, p, value.Int(m.rng.Int64N(100)))
		return "send"
	case 3:
		if m.rng.IntN(4) == 0 {
			p := m.pick()
			m.retire(p)
			return "retire"
		}
	}
	p := m.pick()
	switch m.mode[p] {
	case modeIdle:
		return m.begin(p)
	case modeRecv:
		return m.recv(p)
	default:
		return m.call(p)
	}
}

func (m *timerModel) begin(p *Process) string {
	switch m.rng.IntN(3) {
	case 0:
		p.RecvStartPeek(m.rng.IntN(2) == 0)
		m.mode[p] = modeRecv
		return "recv start peek"
	case 1:
		p.RecvStart(m.timeout(), m.rng.IntN(2) == 0, m.now)
		m.mode[p] = modeRecv
		return "recv start"
	}
	s := m.pick()
	reply := m.inv.CallReply(p)
	p.CallStarted(reply)
	if s == p {
		p.CallAbandon()
		return "call abandoned"
	}
	if code := m.inv.CallSend(p, s, value.Int(1), m.timeout(), m.now); code != SendOK {
		return "call refused"
	}
	m.mode[p], m.reply[p], m.server[p] = modeCall, reply, s
	return "call send"
}

func (m *timerModel) recv(p *Process) string {
	switch m.rng.IntN(4) {
	case 0:
		// A new receive while this one waits (its timer is abandoned).
		p.RecvStart(m.timeout(), false, m.now)
		return "recv restart"
	case 1:
		if _, ok := p.RecvPeek(); ok {
			p.RecvTake(m.inv)
			m.mode[p] = modeIdle
			return "recv take"
		}
	}
	switch p.RecvWait(m.now) {
	case DecideArm:
		m.timers = append(m.timers, modelTimer{p, p.Wait.Epoch, p.Wait.Deadline})
		park(p)
		return "recv arm"
	case DecideTimeout:
		m.mode[p] = modeIdle
		return "recv timeout"
	case DecidePark:
		park(p)
		return "recv park"
	}
	p.RecvSkip()
	return "recv retry"
}

func (m *timerModel) call(p *Process) string {
	if m.rng.IntN(3) == 0 {
		m.inv.Reply(m.server[p], m.reply[p], value.Int(2))
	}
	st, _ := m.inv.CallDecide(p, m.now)
	switch st {
	case CallArm:
		m.timers = append(m.timers, modelTimer{p, p.Wait.Epoch, p.Wait.Deadline})
		park(p)
		return "call arm"
	case CallWaiting:
		park(p)
		return "call wait"
	}
	m.mode[p] = modeIdle
	return fmt.Sprintf("call decided %d", st)
}

// fire fires the timers due, as the scheduler does (stale ones do
// nothing).
func (m *timerModel) fire() string {
	kept := m.timers[:0]
	for _, x := range m.timers {
		if x.at.After(m.now) {
			kept = append(kept, x)
			continue
		}
		x.p.TimerFired(x.epoch)
	}
	m.timers = kept
	return "fire"
}

func (m *timerModel) retire(p *Process) {
	m.inv.Retire(p, ptype.Reason(ptype.ReasonKilled, value.Unit))
	for i, q := range m.live {
		if q == p {
			m.live = append(m.live[:i], m.live[i+1:]...)
			break
		}
	}
	delete(m.mode, p) // a call to p is decided CallDown at its caller's next step
}

// TestArmedTimersFollowTheProcesses: over random sequences of receives,
// calls, timers and retirements the invocation's count of armed timers
// always equals the number of processes with an armed timer, and is 0
// once every process has retired: the count cannot drift, since it
// changes only where a timer is armed or disarmed.
func TestArmedTimersFollowTheProcesses(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		inv, _ := newInv()
		m := &timerModel{rng: rand.New(rand.NewPCG(seed, 0)), inv: inv, now: time.Now(),
			mode: map[*Process]int{}, reply: map[*Process]value.Value{}, server: map[*Process]*Process{}}
		var trail []string
		for i := 0; i < 400; i++ {
			trail = append(trail, m.step())
			if got, want := inv.ArmedTimers(), armedCount(m.all); got != want {
				t.Fatalf("seed %d: after %s: %d armed timers counted, %d processes armed",
					seed, strings.Join(trail[max(0, len(trail)-8):], ", "), got, want)
			}
		}
		for len(m.live) > 0 {
			m.retire(m.live[0])
		}
		if n := inv.ArmedTimers(); n != 0 {
			t.Fatalf("seed %d: %d armed timers counted after every process retired", seed, n)
		}
	}
}

// TestArmedOnlyThroughArmAndDisarm: in the package's code, the armed
// state of a receive timer (Process.armed) and the invocation's count
// of armed timers are written only by armLocked and disarmLocked, so a
// new path that arms or ends a wait cannot forget the count.
func TestArmedOnlyThroughArmAndDisarm(t *testing.T) {
	fset, fns := gosrc.Funcs(t, ".")
	for _, fn := range fns {
		if fn.Name.Name == "armLocked" || fn.Name.Name == "disarmLocked" {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			var targets []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				targets = s.Lhs
			case *ast.IncDecStmt:
				targets = []ast.Expr{s.X}
			case *ast.CallExpr:
				// inv.timers.Add / Store
				if sel, ok := s.Fun.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.SelectorExpr); ok && x.Sel.Name == "timers" && sel.Sel.Name != "Load" {
						t.Errorf("%s: %s changes the armed-timer count outside armLocked/disarmLocked", fset.Position(s.Pos()), fn.Name.Name)
					}
				}
			}
			for _, e := range targets {
				if sel, ok := e.(*ast.SelectorExpr); ok && sel.Sel.Name == "armed" {
					t.Errorf("%s: %s writes armed outside armLocked/disarmLocked", fset.Position(e.Pos()), fn.Name.Name)
				}
			}
			return true
		})
	}
}
