package sched

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"io"
	"time"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// host is the VM host of the process a scheduler is running: it
// implements vm.Host, every operation the VM and the natives may ask of
// the runtime (output, the receive cursor and its timer, spawn, send,
// self and the Process operations).
type host struct {
	s *Scheduler
	p *proc.Process
	// taken holds the user messages p's receives took in this turn and
	// not yet subtracted from the limit counters (proc.Taken): settle
	// applies it before every operation other than a receive, and the
	// scheduler after every vm.Run.
	taken proc.Taken
}

// settle applies the messages the running process took to the limit
// counters and wakes the send_wait senders admitted into the freed
// slots. Every host operation through which another process could learn
// of the takes calls it first (proc.Taken says why that is exact).
//
// It is inlined into every host operation (a send's first step) and
// calls settleNow only when there is something to apply.
func (h *host) settle() {
	if h.taken != (proc.Taken{}) {
		h.settleNow()
	}
}

func (h *host) settleNow() {
	h.p.SettleTaken(h.s.rt.Inv, &h.taken)
	h.s.rt.Inv.WakeAdmitted(h.p)
}

var _ vm.Host = (*host)(nil)

func (h *host) Stdout() io.Writer {
	if h.s.rt.det != nil {
		return detStdout{h}
	}
	return h.s.rt.Out
}

// detStdout is the output of a process in a deterministic run: a print
// is a visible operation.
type detStdout struct{ h *host }

func (o detStdout) Write(b []byte) (int, error) {
	n, err := o.h.s.rt.Out.Write(b)
	o.h.visible(OpPrint)
	return n, err
}

// visible reports a visible operation of the running process to a
// deterministic run's policy (det.go); it does nothing otherwise.
func (h *host) visible(op Op) {
	if d := h.s.rt.det; d != nil {
		d.visible(h.p, op)
	}
}

func (h *host) noMailbox(op string) *fault.Fault {
	return fault.Internalf("%s requires an actor context", op)
}

// RecvStart begins a receive and peeks at its first cell (vm.Host).
func (h *host) RecvStart(timeout int64, event bool) (value.Value, bool, *fault.Fault) {
	if h.p.Kind == proc.KindRoot {
		return value.Unit, false, h.noMailbox("receive")
	}
	if timeout < 0 {
		v, ok := h.p.RecvStartPeek(event)
		return v, ok, nil
	}
	h.p.RecvStart(timeout, event, h.s.rt.Now())
	v, ok := h.p.RecvPeek()
	return v, ok, nil
}

func (h *host) RecvPeek() (value.Value, bool) { return h.p.RecvPeek() }

func (h *host) RecvTake() {
	h.p.RecvTakeDeferred(h.s.rt.Inv, &h.taken)
	h.s.rt.Inv.WakeAdmitted(h.p) // senders parked in send_wait (proc/sendwait.go)
	h.visible(OpRecv)
}

func (h *host) RecvSkip() { h.p.RecvSkip() }

func (h *host) RecvWait() vm.WaitResult {
	var now time.Time
	if !h.p.Wait.Deadline.IsZero() {
		now = h.s.rt.Now()
	}
	switch h.p.RecvWait(now) {
	case proc.DecideRetry:
		return vm.WaitRetry
	case proc.DecideTimeout:
		return vm.WaitTimeout
	case proc.DecideArm:
		h.s.arm(h.p, h.p.Wait.Deadline, h.p.Wait.Epoch)
	}
	return vm.WaitPark
}

func (h *host) Spawn(mode int, entry value.Value) (value.Value, *fault.Fault) {
	h.settle()
	rt := h.s.rt
	kind := proc.KindIsolated
	budget := 0
	switch mode {
	case ptype.SpawnLegacy:
		kind = proc.KindLegacy
	case ptype.SpawnSupervise:
		kind = proc.KindSupervised
		t, ok := entry.Tuple()
		if entry.Kind() != value.KTuple || !ok || len(t.Elems) != 2 || t.Elems[1].Kind() != value.KInt {
			return value.Unit, fault.Internalf("supervise operand")
		}
		entry = t.Elems[0]
		if n := t.Elems[1].AsInt(); n < 0 || n > 32 {
			return value.Unit, fault.New(fault.Resource)
		} else {
			budget = int(n)
		}
	case ptype.SpawnMonitor, ptype.SpawnLink:
		if h.p.Kind == proc.KindRoot {
			return value.Unit, h.noMailbox("Process.spawn_monitor and spawn_link")
		}
	}
	// The entry closure and its captured values are shared with the child,
	// not copied: values are immutable (docs/reference/runtime.md#execution-model).
	// The child runs the code of its parent's program: in a session
	// (morrow repl) the processes of one runtime may come from the
	// programs of several entries.
	f := entry
	img := h.p.State.Image()
	st, err := vm.NewClosureState(img, f, nil)
	if err != nil {
		return value.Unit, fault.Internalf("spawn: %v", err)
	}
	st.SetStackBudget(rt.Stack)
	// docs/reference/runtime.md#execution-model: with stealing a child starts on its parent's
	// scheduler and idle schedulers steal; without, children spread.
	sched := h.s.id
	if !rt.cfg.Steal && len(rt.scheds) > 1 {
		sched = int(rt.rr.Add(1)-1) % len(rt.scheds)
	}
	c := rt.Inv.NewProcess(kind, st, sched)
	if c == nil {
		if kind == proc.KindLegacy || kind == proc.KindSupervised {
			return value.Unit, fault.New(fault.Resource)
		}
		return ptype.ErrProcess(ptype.ErrResourceLimit), nil
	}
	if kind == proc.KindSupervised {
		c.Sup = proc.NewSupervision(budget, c, f)
	}
	// spawn_monitor and spawn_link are atomic: the relationship is in
	// place before the child is queued, and when it cannot be admitted
	// the child is discarded without anything being published.
	if rt.cfg.Trace != nil {
		rt.trace("spawn %d by %d %s", c.Gen(), h.p.Gen(), entryName(img.Prog, f))
	}
	var res value.Value
	switch mode {
	case ptype.SpawnLegacy, ptype.SpawnSupervise:
		res = c.Pid()
	case ptype.SpawnIsolated:
		res = value.Ok(c.Pid())
	case ptype.SpawnMonitor:
		ref, ok := rt.Inv.Monitor(h.p, c)
		if !ok {
			rt.trace("discard %d (ResourceLimit)", c.Gen())
			rt.Inv.Discard(c)
			return ptype.ErrProcess(ptype.ErrResourceLimit), nil
		}
		res = value.Ok(value.NewTuple(c.Pid(), ref))
	case ptype.SpawnLink:
		if rt.Inv.Link(h.p, c) != proc.LinkOK {
			rt.trace("discard %d (ResourceLimit)", c.Gen())
			rt.Inv.Discard(c)
			return ptype.ErrProcess(ptype.ErrResourceLimit), nil
		}
		if rt.cfg.Trace != nil {
			rt.trace("link %d <-> %d", h.p.Gen(), c.Gen())
		}
		res = value.Ok(c.Pid())
	}
	rt.scheds[sched].push(c)
	h.visible(OpSpawn)
	return res, nil
}

// target resolves a Pid or ProcessId of this invocation.
func (h *host) target(v value.Value) (*proc.Process, int) {
	p := proc.Of(v)
	if p == nil {
		return nil, ptype.ErrUnsupportedTarget
	}
	if p.Epoch() != h.s.rt.Inv.Epoch {
		return nil, ptype.ErrForeignInvocation
	}
	return p, -1
}

// peer resolves the target of monitor, link and signal_exit: a process
// of this invocation that is neither the root nor a host port. Otherwise
// it returns nil and the Err the operation returns.
func (h *host) peer(id value.Value) (*proc.Process, value.Value) {
	t, e := h.target(id)
	if e >= 0 {
		return nil, ptype.ErrProcess(e)
	}
	if t.Kind == proc.KindPort || t.Kind == proc.KindRoot {
		return nil, ptype.ErrProcess(ptype.ErrUnsupportedTarget)
	}
	return t, value.Unit
}

func errInt(code int) value.Value { return value.Err(value.Int(int64(code))) }

var okUnit = value.Ok(value.Unit)

func (h *host) Send(pid, msg value.Value) (value.Value, *fault.Fault) {
	h.settle()
	inv := h.s.rt.Inv
	// One look at the target serves both kinds of send: a reply address
	// resolves like any Pid (proc.Of), so the epoch is checked once for
	// both. This is h.target written out: the send is the hot path and
	// target is not inlined.
	t := proc.Of(pid)
	if t == nil || t.Epoch() != inv.Epoch {
		return errInt(proc.SendDead), nil
	}
	if proc.ReplyAddress(pid) {
		// A reply to a Process.call: delivered to the waiting caller, or
		// dropped once that call is over (proc/call.go); Ok(()) either way.
		// The woken caller runs next here, as a plain send's receiver.
		code, c := inv.PostReply(h.p, pid, msg)
		if c != nil {
			h.s.wakeNext(c)
		}
		h.visible(OpSend)
		if code != proc.SendOK {
			return errInt(code), nil
		}
		return okUnit, nil
	}
	// The message is shared with the receiver, not copied (docs/reference/runtime.md#execution-model:
	// values are immutable; its logical size is known from construction).
	if t.Kind == proc.KindPort && msg.Kind() != value.KString {
		return errInt(proc.SendDead), nil
	}
	code, wake := inv.Post(h.p, t, msg)
	if wake {
		h.s.wakeNext(t)
	}
	h.visible(OpSend)
	if code != proc.SendOK {
		return errInt(code), nil
	}
	return okUnit, nil
}

func (h *host) Self() (value.Value, *fault.Fault) {
	if h.p.Kind == proc.KindRoot {
		return value.Unit, h.noMailbox("Process.self")
	}
	return h.p.Pid(), nil
}

// SupervisedCurrent implements supervised_current.
func (h *host) SupervisedCurrent(pid value.Value) (value.Value, *fault.Fault) {
	h.settle()
	t, e := h.target(pid)
	if e >= 0 || t.Sup == nil {
		return errInt(proc.SendDead), nil
	}
	cur := t.Sup.Now()
	if cur == nil {
		return errInt(proc.SendDead), nil
	}
	return value.Ok(cur.Pid()), nil
}

func (h *host) Monitor(id value.Value) (value.Value, *fault.Fault) {
	h.settle()
	t, refused := h.peer(id)
	if t == nil {
		return refused, nil
	}
	ref, ok := h.s.rt.Inv.Monitor(h.p, t)
	h.visible(OpLifecycle)
	if !ok {
		return ptype.ErrProcess(ptype.ErrResourceLimit), nil
	}
	return value.Ok(ref), nil
}

func (h *host) Demonitor(ref value.Value, flush, info bool) (value.Value, *fault.Fault) {
	h.settle()
	rt := h.s.rt
	m := proc.MonitorOf(ref)
	if m == nil {
		return ptype.ErrProcess(ptype.ErrInvalidOptions), nil
	}
	if m.Epoch() != h.s.rt.Inv.Epoch {
		return ptype.ErrProcess(ptype.ErrForeignInvocation), nil
	}
	r := h.s.rt.Inv.Demonitor(h.p, m, flush, info)
	if d, _ := r.Data(); d != nil && d.Tag == value.TagOk && rt.cfg.Trace != nil {
		h.s.rt.trace("demonitor %d ref %d", h.p.Gen(), m.Serial())
	}
	h.visible(OpLifecycle)
	return r, nil
}

// die makes the running process exit with reason (unwinding it).
func (h *host) die(reason value.Value) *fault.Fault {
	h.p.ExitReq = &reason
	return fault.NewExit()
}

func (h *host) Link(id value.Value) (value.Value, *fault.Fault) {
	h.settle()
	t, refused := h.peer(id)
	if t == nil {
		return refused, nil
	}
	defer h.visible(OpLifecycle)
	switch h.s.rt.Inv.Link(h.p, t) {
	case proc.LinkOK:
		if t != h.p {
			h.s.rt.trace("link %d <-> %d", h.p.Gen(), t.Gen())
		}
		return okUnit, nil
	case proc.LinkLimit:
		return ptype.ErrProcess(ptype.ErrResourceLimit), nil
	}
	h.s.rt.trace("link %d <-> %d", h.p.Gen(), t.Gen())
	noProc := ptype.Reason(ptype.ReasonNoProcess, value.Unit)
	if h.p.Trapping() {
		if !h.s.rt.Inv.DeliverExit(h.p, t.ID(), noProc) {
			return ptype.ErrProcess(ptype.ErrResourceLimit), nil
		}
		return okUnit, nil
	}
	return value.Unit, h.die(noProc)
}

func (h *host) Unlink(id value.Value) (value.Value, *fault.Fault) {
	h.settle()
	t, e := h.target(id)
	if e >= 0 {
		return ptype.ErrProcess(e), nil
	}
	h.s.rt.trace("unlink %d <-> %d", h.p.Gen(), t.Gen())
	h.s.rt.Inv.Unlink(h.p, t)
	h.visible(OpLifecycle)
	return okUnit, nil
}

func (h *host) TrapExit(on bool) (value.Value, *fault.Fault) {
	h.settle()
	old := h.p.SetTrap(on)
	defer h.visible(OpLifecycle)
	if old != on {
		if on {
			h.s.rt.trace("trap %d on", h.p.Gen())
		} else {
			h.s.rt.trace("trap %d off", h.p.Gen())
		}
	}
	return value.Bool(old), nil
}

// reasonOK checks the text size limit of custom reasons.
func reasonOK(r value.Value) bool {
	// The loader gives programs the runtime's own descriptor, so the type
	// is checked by identity and the variant's fields are in place.
	d, ok := r.Data()
	if !ok || d.Type != ptype.ExitReasonType || d.Tag < 0 || d.Tag >= len(d.Type.Variants) || len(d.Fields) != len(d.Type.Variants[d.Tag].Fields) {
		return false
	}
	if d.Tag == ptype.ReasonShutdownDetail || d.Tag == ptype.ReasonFailure {
		s := d.Fields[0].AsString()
		return len(s) <= 4096 && utf8.ValidString(s)
	}
	return true
}

func (h *host) SignalExit(id, reason value.Value) (value.Value, *fault.Fault) {
	h.settle()
	t, refused := h.peer(id)
	if t == nil {
		return refused, nil
	}
	if !reasonOK(reason) {
		return ptype.ErrProcess(ptype.ErrInvalidOptions), nil
	}
	r := h.s.rt.Inv.Signal(h.p, t, reason)
	h.visible(OpLifecycle)
	if r == proc.SignalLimit {
		return ptype.ErrProcess(ptype.ErrResourceLimit), nil
	}
	if r == proc.SignalTerminated && t == h.p {
		skip := h.p.SkipCleanup()
		if h.p.State.InCleanup() {
			// Signalled from a running cleanup: that cleanup completes
			// (the signal returns Ok to it), then the process retires;
			// a direct Kill skips only the cleanup not yet begun.
			h.p.KillRequested()
			h.p.State.AbortAfterCleanup(fault.NewExit(), skip)
			return okUnit, nil
		}
		if skip {
			// A direct Kill of itself: cleanup that has not begun is
			// skipped; the unwinding only pops frames.
			h.p.State.DropCleanup()
		}
		return value.Unit, fault.NewExit()
	}
	return okUnit, nil
}

func (h *host) Exit(reason value.Value) *fault.Fault {
	h.settle()
	// An oversized text, or a reason the budget cannot admit, is a
	// checked Fault(9) (docs/reference/actors.md#links-trapping-and-exit-signals).
	if !reasonOK(reason) || !h.s.rt.Inv.Admits(proc.SignalBaseBytes+int64(len(reasonTextOf(reason)))) {
		return fault.New(fault.Resource)
	}
	h.p.ExitReq = &reason
	// The reason is committed now (the first committed reason is final),
	// unless a fault is already unwinding: that fault came first.
	if f := h.p.State.Unwinding(); f == nil || f.Code == fault.Exit {
		h.s.rt.Inv.Commit(h.p, reason)
	}
	return nil
}

// reasonTextOf returns the text of a ShutdownDetail or Failure reason.
func reasonTextOf(r value.Value) string {
	d, ok := r.Data()
	if !ok || (d.Tag != ptype.ReasonShutdownDetail && d.Tag != ptype.ReasonFailure) || len(d.Fields) == 0 {
		return ""
	}
	return d.Fields[0].AsString()
}

// CallReply mints the reply address of a Process.call.
func (h *host) CallReply() (value.Value, *fault.Fault) {
	h.settle()
	if h.p.Kind == proc.KindRoot {
		return value.Unit, h.noMailbox("Process.call")
	}
	return h.s.rt.Inv.CallReply(h.p), nil
}

// CallWait sends the request of a Process.call once, then decides it:
// the reply, CallDown with the target's reason, CallTimeout, or park.
func (h *host) CallWait(pid, msg value.Value, timeout int64, reply value.Value) (value.Value, bool, *fault.Fault) {
	h.settle()
	if h.p.Kind == proc.KindRoot || !proc.IsReply(reply) || proc.Of(reply) != h.p {
		return value.Unit, false, h.noMailbox("Process.call")
	}
	rt := h.s.rt
	if !h.p.CallStarted(reply) {
		t, e := h.target(pid)
		if e >= 0 || proc.IsReply(pid) || t.Kind == proc.KindRoot {
			// Not a process of this invocation: nothing to send to.
			h.p.CallAbandon()
			return callRejected(proc.SendDead), false, nil
		}
		if t == h.p {
			// A call to oneself could never be answered (OTP's
			// calling_self): refuse it at once, sending nothing.
			h.p.CallAbandon()
			return callRejected(proc.CallSelf), false, nil
		}
		var now time.Time
		if timeout >= 0 {
			now = rt.Now()
		}
		code, wake := rt.Inv.CallPost(h.p, t, msg, timeout, now)
		if wake {
			h.s.wakeNext(t) // the server runs next here, as after a send
		}
		h.visible(OpSend)
		if code != proc.SendOK {
			return callRejected(code), false, nil
		}
	}
	var now time.Time
	if !h.p.Wait.Deadline.IsZero() {
		now = rt.Now()
	}
	st, v := rt.Inv.CallDecide(h.p, now)
	switch st {
	case proc.CallArm:
		h.s.arm(h.p, h.p.Wait.Deadline, h.p.Wait.Epoch)
		return value.Unit, true, nil
	case proc.CallWaiting:
		return value.Unit, true, nil
	case proc.CallReplied:
		h.visible(OpRecv)
		return value.Ok(v), false, nil
	case proc.CallDown:
		h.visible(OpRecv)
		return value.Err(ptype.CallErrorValue(ptype.CallErrDown, v)), false, nil
	}
	return value.Err(ptype.CallErrorValue(ptype.CallErrTimeout, value.Unit)), false, nil
}

func callRejected(code int) value.Value {
	return value.Err(ptype.CallErrorValue(ptype.CallErrRejected, value.Int(int64(code))))
}

// SendWait sends with back-pressure: a full mailbox parks the sender
// until a message taken by the target admits it.
func (h *host) SendWait(pid, msg value.Value) (value.Value, bool, *fault.Fault) {
	h.settle()
	if h.p.Kind == proc.KindRoot {
		return value.Unit, false, h.noMailbox("Process.send_wait")
	}
	rt := h.s.rt
	var code int
	if h.p.SendWaiting() {
		c, park := rt.Inv.SendWaitDecide(h.p)
		if park {
			return value.Unit, true, nil
		}
		code = c
	} else {
		if proc.IsReply(pid) {
			r, f := h.Send(pid, msg)
			return r, false, f
		}
		t, e := h.target(pid)
		if e >= 0 {
			return errInt(proc.SendDead), false, nil
		}
		if t.Kind == proc.KindPort && msg.Kind() != value.KString {
			return errInt(proc.SendDead), false, nil
		}
		c, parked := rt.Inv.SendWait(h.p, t, msg)
		h.visible(OpSend)
		if parked {
			c, parked = rt.Inv.SendWaitDecide(h.p)
			if parked {
				return value.Unit, true, nil
			}
		}
		code = c
	}
	if code != proc.SendOK {
		return errInt(code), false, nil
	}
	return okUnit, false, nil
}

// Register implements Process.register (proc/registry.go).
func (h *host) Register(name string, pid value.Value, key string) (value.Value, *fault.Fault) {
	h.settle()
	r := h.s.rt.Inv.Register(name, pid, key)
	h.visible(OpLifecycle)
	return r, nil
}

// Whereis implements Process.whereis.
func (h *host) Whereis(name, key string) (value.Value, *fault.Fault) {
	h.settle()
	r := h.s.rt.Inv.Whereis(name, key)
	h.visible(OpLifecycle)
	return r, nil
}

// Unregister implements Process.unregister.
func (h *host) Unregister(name string) (value.Value, *fault.Fault) {
	h.settle()
	r := h.s.rt.Inv.Unregister(name)
	h.visible(OpLifecycle)
	return value.Bool(r), nil
}
