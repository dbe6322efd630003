package sched

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"slices"
	"sync"
	"time"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// Supervisor processes (docs/supervisors.md).
//
// A supervisor is an ordinary isolated process of the invocation (it
// counts against the live limit, its monitors and links against the
// reservations of docs/reference/actors.md#limits, and it ends through
// proc.Invocation.Retire like any process) whose turns are run by Go code
// instead of a vm.State: proc.Process.Driver holds its supDriver, and
// runOne hands such a process to runDriver. The driver owns one
// supervisor.Machine (the pure restart logic) and does what its effects
// say with the same operations the Process natives use: it traps exits,
// spawns each child linked and monitored, sends Shutdown or Kill as
// direct exit signals, and keeps one deadline (a Graceful shutdown in
// progress) as the timeout of its receive, so the scheduler's timers wake
// it.
//
// Inputs come from its mailbox, taken in order as events: the Down of a
// child's monitor is its ChildExit (the Exit that the link also delivers
// is dropped); an Exit from its parent (the caller of start_link, or the
// supervisor above a branch) is ParentExit; user messages are the
// runtime's own supMsg values: a child's init_ack / init_ignore /
// init_fail, a request from a caller, or the retry the machine scheduled.
// Nobody else can send to a supervisor: a Handle gives only its
// ProcessId.
//
// Callers wait in native waits (proc.NativeWait, fault.Park): a request
// is registered in the driver's pending set and announced by a message
// carrying it, so it is handled in mailbox order; the reply completes the
// caller's wait. When the supervisor retires, by its own Retire effect or
// killed, OnRetire (step 5 of the retire path) answers every caller still
// waiting with SupervisorStopped, and a request made after that finds the
// driver closed: no caller ever hangs on a dead supervisor.

// supMsgKind is what a supMsg says.
type supMsgKind uint8

const (
	msgRequest supMsgKind = iota // a caller's request (req)
	msgAck                       // from's Process.init_ack (or a branch's start-up)
	msgIgnore                    // from's Process.init_ignore
	msgFail                      // from's Process.init_fail(reason)
	msgRetry                     // the machine's ScheduleRetry(token)
)

// supMsg is a user message in a supervisor's mailbox.
type supMsg struct {
	kind   supMsgKind
	from   *proc.Process
	reason value.Value
	req    *supReq
	token  supervisor.Token
}

func (m *supMsg) value() value.Value { return value.Opaque(value.KOpaque, 0, m) }

// supReq is one caller's request.
type supReq struct {
	caller *proc.Process
	w      *proc.NativeWait
	op     native.SupOp
	in     supervisor.Request
}

// supDriver runs one supervisor process.
type supDriver struct {
	rt     *Runtime
	p      *proc.Process
	m      *supervisor.Machine
	level  int
	base   time.Time
	handle value.Value
	// parent is the caller of start_link or the supervisor above a
	// branch (nil for Supervisor.start).
	parent *proc.Process
	branch bool
	// starter waits in start/start_link for the start-up's end.
	starter     *proc.Process
	starterWait *proc.NativeWait

	gens   map[supervisor.Gen]*proc.Process
	ofProc map[*proc.Process]supervisor.Gen
	reqs   map[supervisor.RequestID]*supReq // fed to the machine, not answered
	nextID supervisor.RequestID

	timer   supervisor.Token // the armed deadline, 0 for none
	timerAt time.Time
	// retry holds the children whose Shutdown exit signal could not be
	// admitted yet (their reservations, or the invocation's, were all in
	// use): it is sent again every shutdownRetry until it is admitted,
	// the child is gone, or the machine kills it.
	retry   []*proc.Process
	retryAt time.Time // when retry is sent again

	begun   bool
	retired bool
	reason  value.Value
	inputs  []supervisor.Input // inputs produced while carrying out effects

	// mu guards closed and pending: callers register requests from their
	// own schedulers.
	mu      sync.Mutex
	closed  bool
	pending map[*supReq]struct{}
}

// newSupervisor creates the process of a supervisor whose machine is m,
// on scheduler sched, trapping exits; the caller links it and pushes it.
func (rt *Runtime) newSupervisor(m *supervisor.Machine, level, sched int, by *proc.Process) *supDriver {
	p := rt.Inv.NewProcess(proc.KindIsolated, nil, sched)
	if p == nil {
		return nil
	}
	p.SetTrap(true)
	d := &supDriver{rt: rt, p: p, m: m, level: level, base: rt.Now(), handle: ptype.NewHandle(p.ID()),
		gens: map[supervisor.Gen]*proc.Process{}, ofProc: map[*proc.Process]supervisor.Gen{},
		reqs: map[supervisor.RequestID]*supReq{}, pending: map[*supReq]struct{}{}}
	p.Driver = d
	p.OnRetire = d.onRetire
	rt.trace("spawn %d by %d supervisor", p.Gen(), by.Gen())
	rt.trace("trap %d on", p.Gen())
	return d
}

// supSend puts a runtime message into to's mailbox. In a deterministic run
// it is not put in flight (the policy could hold it past the sender's
// exit); otherwise it is sent like a message from from.
func (rt *Runtime) supSend(from, to *proc.Process, m *supMsg) int {
	if rt.Inv.Defer {
		from = nil
	}
	return rt.Inv.SendFrom(from, to, m.value())
}

// supOps maps the management requests of Host.Supervise to the
// machine's operations.
var supOps = map[native.SupOp]supervisor.Op{
	native.SupCurrent:        supervisor.OpCurrent,
	native.SupWhichChildren:  supervisor.OpWhichChildren,
	native.SupStartChild:     supervisor.OpStartChild,
	native.SupTerminateChild: supervisor.OpTerminateChild,
	native.SupRestartChild:   supervisor.OpRestartChild,
	native.SupDeleteChild:    supervisor.OpDeleteChild,
	native.SupStop:           supervisor.OpStop,
}

// supOpNames names the operations a caller waits in, for the process
// table (table.go).
var supOpNames = map[native.SupOp]string{
	native.SupStart:          "Supervisor.start",
	native.SupStartLink:      "Supervisor.start_link",
	native.SupCurrent:        "Supervisor.current",
	native.SupWhichChildren:  "Supervisor.which_children",
	native.SupStartChild:     "Supervisor.start_child",
	native.SupTerminateChild: "Supervisor.terminate_child",
	native.SupRestartChild:   "Supervisor.restart_child",
	native.SupDeleteChild:    "Supervisor.delete_child",
	native.SupStop:           "Supervisor.stop",
}

// Supervise implements native.Host.Supervise for the running process.
func (h *host) Supervise(r *native.SupRequest) (value.Value, *fault.Fault) {
	h.settle()
	switch r.Op {
	case native.InitAck, native.InitIgnore, native.InitFail:
		return h.initOp(r)
	}
	if v, open, done := h.p.TakeNativeWait(); open {
		if done {
			return v, nil
		}
		return value.Unit, fault.NewPark()
	}
	if r.Op == native.SupStart || r.Op == native.SupStartLink {
		return h.startSupervisor(r)
	}
	t := proc.Of(r.Handle)
	if t == nil {
		return value.Unit, fault.Internalf("supervisor operation on a malformed handle")
	}
	if t.Epoch() != h.s.rt.Inv.Epoch {
		return ptype.SupErr(supervisor.ErrForeignInvocation), nil
	}
	d, _ := t.Driver.(*supDriver)
	if d == nil {
		return value.Unit, fault.Internalf("supervisor handle of a process that is not a supervisor")
	}
	op, ok := supOps[r.Op]
	if !ok {
		return value.Unit, fault.Internalf("unknown supervisor operation %d", r.Op)
	}
	in := supervisor.Request{Op: op, Name: r.Name, Key: r.Key, Spec: r.Spec}
	w := h.p.StartNativeWait()
	w.On, w.What = t, supOpNames[r.Op]
	q := &supReq{caller: h.p, w: w, op: r.Op, in: in}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		h.p.CancelNativeWait(w)
		return ptype.SupErr(supervisor.ErrSupervisorStopped), nil
	}
	code := h.s.rt.supSend(h.p, t, &supMsg{kind: msgRequest, req: q})
	if code == proc.SendOK {
		d.pending[q] = struct{}{}
	}
	d.mu.Unlock()
	switch code {
	case proc.SendOK:
		h.visible(OpSend)
		return value.Unit, fault.NewPark()
	case proc.SendDead:
		h.p.CancelNativeWait(w)
		return ptype.SupErr(supervisor.ErrSupervisorStopped), nil
	}
	h.p.CancelNativeWait(w)
	return ptype.SupErr(supervisor.ErrResourceLimit), nil
}

// startSupervisor starts a supervisor for start or start_link and parks
// the caller until its start-up has committed or rolled back.
func (h *host) startSupervisor(r *native.SupRequest) (value.Value, *fault.Fault) {
	rt := h.s.rt
	link := r.Op == native.SupStartLink
	if link && h.p.Kind == proc.KindRoot {
		return value.Unit, h.noMailbox("Supervisor.start_link")
	}
	m, err := supervisor.New(supervisor.Config{Flags: r.Flags, Children: r.Children, Level: 1})
	if err != nil {
		return ptype.SupErr(err.(supervisor.Error)), nil
	}
	sched := h.s.id
	if h.p.Kind == proc.KindRoot {
		sched = int(rt.rr.Add(1)-1) % len(rt.scheds)
	}
	d := rt.newSupervisor(m, 1, sched, h.p)
	if d == nil {
		return ptype.SupErr(supervisor.ErrResourceLimit), nil
	}
	if link {
		if rt.Inv.Link(h.p, d.p) != proc.LinkOK {
			rt.trace("discard %d (ResourceLimit)", d.p.Gen())
			rt.Inv.Discard(d.p)
			return ptype.SupErr(supervisor.ErrResourceLimit), nil
		}
		rt.trace("link %d <-> %d", h.p.Gen(), d.p.Gen())
		d.parent = h.p
	}
	d.starter = h.p
	d.starterWait = h.p.StartNativeWait()
	d.starterWait.On, d.starterWait.What = d.p, supOpNames[r.Op]
	rt.scheds[sched].push(d.p)
	h.visible(OpSpawn)
	return value.Unit, fault.NewPark()
}

// initOp implements Process.init_ack, init_ignore and init_fail.
func (h *host) initOp(r *native.SupRequest) (value.Value, *fault.Fault) {
	su := h.p.Startup
	if su == nil || su.Done {
		if r.Op == native.InitAck {
			return ptype.ErrProcess(ptype.ErrInvalidOptions), nil
		}
		return value.Unit, fault.New(fault.InitOutside)
	}
	m := &supMsg{from: h.p}
	switch r.Op {
	case native.InitAck:
		m.kind = msgAck
	case native.InitIgnore:
		m.kind = msgIgnore
	default:
		m.kind, m.reason = msgFail, r.Reason
	}
	if r.Op == native.InitFail {
		// The reason is checked before the start-up ends (an oversized
		// text is fault 9, as for Process.exit).
		if f := h.Exit(r.Reason); f != nil {
			return value.Unit, f
		}
	}
	su.Done = true
	// A supervisor that is gone no longer waits: its exit signal
	// follows through the link.
	h.s.rt.supSend(h.p, su.Sup, m)
	h.visible(OpSend)
	switch r.Op {
	case native.InitAck:
		return okUnit, nil
	case native.InitIgnore:
		return value.Unit, h.die(ptype.Reason(ptype.ReasonNormal, value.Unit))
	}
	return value.Unit, fault.NewExit()
}

// runDriver runs one turn of a supervisor process: it takes up to budget
// events from the mailbox and feeds them to the machine.
func (s *Scheduler) runDriver(p *proc.Process, d *supDriver, budget int) {
	rt := s.rt
	if r, ok := p.KillRequested(); ok {
		p.Exiting(false)
		rt.Inv.Retire(p, r)
		return
	}
	h := s.host
	h.p = p
	defer func() { h.p = nil }()
	s.turns.Add(1)
	if !d.begun {
		d.begun = true
		d.feed(supervisor.Begin{})
	}
	park := false
	for n := 0; n < budget && !d.retired; n++ {
		v, ok, f := h.RecvStart(d.timeout(), true)
		if f != nil {
			rt.fatal(f.Report())
			return
		}
		if !ok {
			switch h.RecvWait() {
			case vm.WaitRetry:
				continue
			case vm.WaitTimeout:
				if len(d.retry) > 0 {
					now := d.rt.Now()
					if !now.Before(d.retryAt) {
						d.retryShutdowns()
					}
					if d.timer == 0 || now.Before(d.timerAt) {
						continue // the wait ended for the retry only
					}
				}
				t := d.timer
				d.timer = 0
				d.feed(supervisor.TimerFired{Token: t})
				continue
			}
			park = true
			break
		}
		h.RecvTake()
		h.settle() // the driver acts on the event directly, not through the host
		d.event(v)
	}
	if d.retired {
		p.Exiting(false)
		rt.Inv.Retire(p, d.reason)
		return
	}
	p.Lock()
	if park {
		again := p.ParkLocked()
		p.Unlock()
		if again {
			s.push(p)
		}
		return
	}
	p.SetStatusLocked(proc.Runnable)
	p.Unlock()
	s.push(p)
}

// timeout is the receive timeout in ms until the armed deadline or the
// next Shutdown retry (-1 for none).
func (d *supDriver) timeout() int64 {
	ms := d.machineTimeout()
	if len(d.retry) > 0 {
		r := max(d.retryAt.Sub(d.rt.Now()).Milliseconds(), 0)
		if ms < 0 || r < ms {
			ms = r
		}
	}
	return ms
}

// shutdownRetry is how often a Shutdown exit signal that could not be
// admitted is sent again.
const shutdownRetry = time.Millisecond

// machineTimeout is the receive timeout in ms until the machine's armed
// deadline (-1 for none).
func (d *supDriver) machineTimeout() int64 {
	if d.timer == 0 {
		return -1
	}
	ms := d.timerAt.Sub(d.rt.Now()).Milliseconds()
	if ms < 0 {
		return 0
	}
	if ms > vm.MaxTimeout {
		return vm.MaxTimeout
	}
	return ms
}

// now is the machine's clock: whole seconds since the supervisor started.
func (d *supDriver) now() int64 { return int64(d.rt.Now().Sub(d.base) / time.Second) }

// event handles one mailbox cell taken as a Process.Event.
func (d *supDriver) event(v value.Value) {
	e, _ := v.Data()
	if e == nil {
		return
	}
	switch e.Tag {
	case ptype.EventMessage:
		m, _ := e.Fields[0].Ref().(*supMsg)
		if m == nil {
			return
		}
		switch m.kind {
		case msgRequest:
			d.mu.Lock()
			delete(d.pending, m.req)
			d.mu.Unlock()
			d.nextID++
			d.reqs[d.nextID] = m.req
			in := m.req.in
			in.ID = d.nextID
			d.feed(in)
		case msgAck, msgIgnore, msgFail:
			g, ok := d.ofProc[m.from]
			if !ok {
				return
			}
			out := supervisor.Acked
			var r supervisor.Reason
			switch m.kind {
			case msgIgnore:
				out = supervisor.Ignored
			case msgFail:
				out, r = supervisor.Failed, ptype.ReasonOf(m.reason)
			}
			d.feed(supervisor.StartResult{Gen: g, Outcome: out, Reason: r})
		case msgRetry:
			d.feed(supervisor.RetryDue{Token: m.token})
		}
	case ptype.EventDown:
		c := proc.Of(e.Fields[1])
		g, ok := d.ofProc[c]
		if !ok {
			return
		}
		delete(d.ofProc, c)
		delete(d.gens, g)
		d.feed(supervisor.ChildExit{Gen: g, Reason: ptype.ReasonOf(e.Fields[2])})
	case ptype.EventExit:
		if from := proc.Of(e.Fields[0]); from != nil && from == d.parent {
			d.feed(supervisor.ParentExit{Reason: ptype.ReasonOf(e.Fields[1])})
		}
		// Exits of children are dropped: their Downs carry the same
		// reason. Others are ignored, as OTP's supervisor does.
	}
}

// feed steps the machine with in, then with every input that carrying
// out its effects produced, in order.
func (d *supDriver) feed(in supervisor.Input) {
	d.inputs = append(d.inputs, in)
	for len(d.inputs) > 0 && !d.retired {
		in := d.inputs[0]
		d.inputs = d.inputs[1:]
		for _, e := range d.m.Step(d.now(), in) {
			d.effect(e)
		}
	}
	d.inputs = d.inputs[:0]
}

func reasonOf(tag int) value.Value { return ptype.Reason(tag, value.Unit) }

// effect carries out one effect of the machine.
func (d *supDriver) effect(e supervisor.Effect) {
	rt := d.rt
	switch e := e.(type) {
	case supervisor.StartChild:
		d.startChild(e)
	case supervisor.SendShutdown:
		if c := d.gens[e.Gen]; c != nil {
			d.signal(c, reasonOf(ptype.ReasonShutdown))
		}
	case supervisor.Kill:
		if c := d.gens[e.Gen]; c != nil {
			d.signal(c, reasonOf(ptype.ReasonKill))
		}
	case supervisor.ArmTimer:
		d.timer = e.Token
		d.timerAt = rt.Now().Add(time.Duration(e.Ms) * time.Millisecond)
	case supervisor.CancelTimer:
		if d.timer == e.Token {
			d.timer = 0
		}
	case supervisor.ScheduleRetry:
		if rt.supSend(d.p, d.p, &supMsg{kind: msgRetry, token: e.Token}) != proc.SendOK {
			d.inputs = append(d.inputs, supervisor.RetryDue{Token: e.Token})
		}
	case supervisor.Reply:
		q := d.reqs[e.ID]
		if q == nil {
			return
		}
		delete(d.reqs, e.ID)
		rt.Inv.CompleteNativeWait(q.caller, q.w, d.answer(q, e.Result))
	case supervisor.StartupDone:
		if d.starter != nil {
			res := ptype.SupResult(e.Result)
			if e.Result.OK {
				res = value.Ok(d.handle)
			}
			rt.Inv.CompleteNativeWait(d.starter, d.starterWait, res)
			d.starter = nil
		} else if d.branch && e.Result.OK && d.parent != nil {
			rt.supSend(d.p, d.parent, &supMsg{kind: msgAck, from: d.p})
		}
	case supervisor.Retire:
		d.retired = true
		d.reason = ptype.ReasonValue(e.Reason)
	}
}

// answer is the Morrow value answering request q with r.
func (d *supDriver) answer(q *supReq, r supervisor.Result) value.Value {
	if !r.OK {
		return ptype.SupResult(r)
	}
	switch q.op {
	case native.SupCurrent:
		if c := d.gens[r.Gen]; c != nil {
			return value.Ok(c.Pid())
		}
		return ptype.SupErr(supervisor.ErrStopped)
	case native.SupWhichChildren:
		rows := make([]value.Value, 0, len(r.Children))
		for _, c := range r.Children {
			id := value.Unit
			if p := d.gens[c.Gen]; p != nil {
				id = p.ID()
			}
			rows = append(rows, ptype.ChildInfoValue(c, id))
		}
		return value.Ok(value.NewList(rows))
	}
	return value.Ok(value.Unit)
}

// signal sends a direct exit signal from the supervisor to child c. A
// Kill that cannot be admitted (the child's reservations, or the
// invocation's, are all in use) retires the child with Killed directly,
// which is what the Kill would do. A Shutdown that cannot be admitted is
// sent again every shutdownRetry (retryShutdowns) until it is, so a
// child that traps exits always receives it and its shutdown policy
// holds: Graceful(ms) still kills it when the time is up, Infinity waits
// (docs/supervisors.md, "Shutdown").
func (d *supDriver) signal(c *proc.Process, reason value.Value) {
	kill := ptype.ReasonOf(reason).Kind == supervisor.ReasonKill
	if kill {
		d.dropRetry(c)
	}
	if d.rt.Inv.Signal(d.p, c, reason) != proc.SignalLimit {
		return
	}
	if kill {
		d.rt.Inv.Retire(c, reasonOf(ptype.ReasonKilled))
		return
	}
	if !slices.Contains(d.retry, c) {
		if len(d.retry) == 0 {
			d.retryAt = d.rt.Now().Add(shutdownRetry)
		}
		d.retry = append(d.retry, c)
	}
}

// retryShutdowns sends the Shutdown exit signals that waited for a
// reservation again; those admitted, or whose child is gone, are done.
func (d *supDriver) retryShutdowns() {
	keep := d.retry[:0]
	for _, c := range d.retry {
		if d.rt.Inv.Signal(d.p, c, reasonOf(ptype.ReasonShutdown)) == proc.SignalLimit {
			keep = append(keep, c)
		}
	}
	clear(d.retry[len(keep):])
	d.retry = keep
	d.retryAt = d.rt.Now().Add(shutdownRetry)
}

// dropRetry forgets a pending Shutdown retry for c.
func (d *supDriver) dropRetry(c *proc.Process) {
	if i := slices.Index(d.retry, c); i >= 0 {
		d.retry = slices.Delete(d.retry, i, i+1)
	}
}

// startChild spawns the process of one generation of a child: a worker
// from a fresh State of its entry template, or a branch as a nested
// supervisor; linked to and monitored by the supervisor, in its start-up
// phase.
func (d *supDriver) startChild(e supervisor.StartChild) {
	rt := d.rt
	failed := func(r supervisor.Reason) {
		d.inputs = append(d.inputs, supervisor.StartResult{Gen: e.Gen, Outcome: supervisor.Failed, Reason: r})
	}
	resource := supervisor.Reason{Kind: supervisor.ReasonFault, Code: int64(fault.Resource)}
	var c *proc.Process
	var sub *supDriver
	if e.Spec.Kind == supervisor.Branch {
		m, err := supervisor.New(supervisor.Config{Flags: e.Spec.Flags, Children: e.Spec.Children, Level: d.level + 1})
		if err != nil {
			failed(resource)
			return
		}
		sub = rt.newSupervisor(m, d.level+1, d.p.Sched, d.p)
		if sub == nil {
			failed(resource)
			return
		}
		sub.parent, sub.branch = d.p, true
		c = sub.p
	} else {
		entry, _ := e.Spec.Template.(value.Value)
		st, err := vm.NewClosureState(rt.img, entry, nil)
		if err != nil {
			failed(resource)
			return
		}
		st.SetStackBudget(rt.Stack)
		c = rt.Inv.NewProcess(proc.KindIsolated, st, d.p.Sched)
		if c == nil {
			st.Release()
			failed(resource)
			return
		}
		c.Startup = &proc.Startup{Sup: d.p}
		if rt.cfg.Trace != nil {
			rt.trace("spawn %d by %d %s", c.Gen(), d.p.Gen(), entryName(rt.img.Prog, entry))
		}
	}
	if rt.Inv.Link(d.p, c) != proc.LinkOK {
		rt.trace("discard %d (ResourceLimit)", c.Gen())
		rt.Inv.Discard(c)
		failed(resource)
		return
	}
	rt.trace("link %d <-> %d", d.p.Gen(), c.Gen())
	if _, ok := rt.Inv.Monitor(d.p, c); !ok {
		rt.Inv.Unlink(d.p, c)
		rt.trace("discard %d (ResourceLimit)", c.Gen())
		rt.Inv.Discard(c)
		failed(resource)
		return
	}
	d.gens[e.Gen] = c
	d.ofProc[c] = e.Gen
	rt.scheds[c.Sched].push(c)
}

// onRetire is the supervisor's step 5 of the retire path: every caller
// still waiting on it gets SupervisorStopped (the caller of start, if the
// supervisor was killed during its start-up, too), and later requests
// find it closed.
func (d *supDriver) onRetire(value.Value) {
	d.mu.Lock()
	d.closed = true
	pending := d.pending
	d.pending = nil
	d.mu.Unlock()
	stopped := ptype.SupErr(supervisor.ErrSupervisorStopped)
	inv := d.rt.Inv
	for q := range pending {
		inv.CompleteNativeWait(q.caller, q.w, stopped)
	}
	for id, q := range d.reqs {
		delete(d.reqs, id)
		inv.CompleteNativeWait(q.caller, q.w, stopped)
	}
	if d.starter != nil {
		inv.CompleteNativeWait(d.starter, d.starterWait, stopped)
		d.starter = nil
	}
}
