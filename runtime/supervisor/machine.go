package supervisor

// child is one spec and the state of its current generation.
type child struct {
	spec  Spec
	st    cstate
	gen   Gen   // the live process's generation; 0 when there is none
	retry Token // restarting: the retry that is due; 0 otherwise
}

// cstate is a child's state inside the machine. running, starting and
// stopping have a live process (gen != 0); the others have none.
type cstate uint8

const (
	stStopped    cstate = iota
	stStarting          // StartChild emitted, start-up not ended
	stRunning           // acknowledged
	stStopping          // the supervisor is stopping it (shutdown or kill sent)
	stRestarting        // a restart attempt failed; a retry is scheduled
)

func (c *child) live() bool { return c.gen != 0 }

func (c *child) public() State {
	switch c.st {
	case stStopped:
		return Stopped
	case stRestarting:
		return Restarting
	}
	return Running
}

type phase uint8

const (
	phNew     phase = iota // Begin not fed yet
	phBusy                 // an operation is in progress
	phIdle                 // waiting for the next input
	phRetired              // Retire emitted
)

type opKind uint8

const (
	opStartup      opKind = iota // the initial start-up
	opRestart                    // an automatic (group) restart
	opTerminate                  // terminate_child
	opRestartChild               // restart_child
	opStartChild                 // start_child
	opShutdown                   // stop all children, then retire
)

// op is the operation in progress: stop the children in stops one at a
// time (in that order), then start the children in starts one at a time,
// then finish according to kind.
type op struct {
	kind   opKind
	req    RequestID
	hasReq bool

	stops   []*child
	starts  []*child
	planned bool // opRestart: starts computed (after the stops)
	group   []*child
	cur     *child // the child being stopped or started
	timer   Token  // the deadline of cur while it is being stopped gracefully

	// The first failed start (opStartup, opRestartChild, opStartChild).
	failed     bool
	failName   string
	failReason Reason

	retire Reason // opShutdown
}

// Machine is one supervisor's restart logic. It is not safe for concurrent
// use: one supervisor process owns it and feeds it one input at a time.
type Machine struct {
	flags    Flags
	level    int
	children []*child // start (declaration) order; dynamic additions at the end

	ph       phase
	op       *op
	buf      []Input // inputs that arrived while busy, in arrival order
	queued   int     // requests in buf
	restarts []int64 // times (seconds) of the automatic restarts still in the window

	nextGen   Gen
	nextToken Token
	now       int64
	out       []Effect
	retired   Reason
}

// Config is what a supervisor starts with.
type Config struct {
	Flags    Flags
	Children []Spec
	// Level is the supervisor's nesting level: 1 for one started by
	// Supervisor.start or start_link, the parent's Level+1 for a branch.
	// 0 means 1.
	Level int
}

// New validates c (Validate) and returns a machine waiting for Begin.
func New(c Config) (*Machine, error) {
	if c.Level == 0 {
		c.Level = 1
	}
	if err := Validate(c.Flags, c.Children, c.Level); err != nil {
		return nil, err
	}
	m := &Machine{flags: c.Flags, level: c.Level}
	for _, s := range c.Children {
		m.children = append(m.children, &child{spec: s})
	}
	return m, nil
}

// Retired reports whether the machine has retired, and with which reason.
func (m *Machine) Retired() (Reason, bool) { return m.retired, m.ph == phRetired }

// Children is which_children's answer at this moment (declaration order).
// While an operation is in progress a child being stopped or started shows
// as Running; requests never see that, they wait until it is done.
func (m *Machine) Children() []ChildInfo {
	out := make([]ChildInfo, 0, len(m.children))
	for _, c := range m.children {
		info := ChildInfo{Name: c.spec.Name, Kind: c.spec.Kind, State: c.public()}
		if info.State == Running {
			info.Gen = c.gen
		}
		out = append(out, info)
	}
	return out
}

// Step feeds one input observed at monotonic time now (whole seconds) and
// returns the effects the driver must carry out, in order. The returned
// slice is the caller's.
func (m *Machine) Step(now int64, in Input) []Effect {
	m.now = now
	m.out = nil
	switch m.ph {
	case phRetired:
		if r, ok := in.(Request); ok {
			m.reply(r.ID, fail(ErrSupervisorStopped))
		}
	case phNew:
		switch in.(type) {
		case Begin:
			m.begin()
		case Request, ParentExit:
			m.defer_(in)
		}
	case phBusy:
		m.busy(in)
	case phIdle:
		m.idle(in)
	}
	// An operation that finished above, or an idle machine, takes the
	// deferred inputs now.
	m.drain()
	out := m.out
	m.out = nil
	return out
}

func (m *Machine) emit(e Effect) { m.out = append(m.out, e) }

func (m *Machine) reply(id RequestID, r Result) { m.emit(Reply{ID: id, Result: r}) }

func (m *Machine) token() Token {
	m.nextToken++
	return m.nextToken
}

// defer_ keeps an input for later; past MaxQueued waiting requests a
// request is answered ResourceLimit at once. Other inputs are never refused.
func (m *Machine) defer_(in Input) {
	if r, ok := in.(Request); ok {
		if m.queued >= MaxQueued {
			m.reply(r.ID, fail(ErrResourceLimit))
			return
		}
		m.queued++
	}
	m.buf = append(m.buf, in)
}

// drain handles deferred inputs, oldest first, while the machine is idle.
func (m *Machine) drain() {
	for m.ph == phIdle && len(m.buf) > 0 {
		in := m.buf[0]
		m.buf[0] = nil
		m.buf = m.buf[1:]
		if _, ok := in.(Request); ok {
			m.queued--
		}
		m.idle(in)
	}
}

// takeBufferedExit removes and reports a deferred ChildExit of generation
// g, if there is one: a child the supervisor is about to stop has already
// exited (OTP consumes that EXIT in its shutdown).
func (m *Machine) takeBufferedExit(g Gen) bool {
	for i, in := range m.buf {
		if e, ok := in.(ChildExit); ok && e.Gen == g {
			m.buf = append(m.buf[:i], m.buf[i+1:]...)
			return true
		}
	}
	return false
}

func (m *Machine) find(name string) *child {
	for _, c := range m.children {
		if c.spec.Name == name {
			return c
		}
	}
	return nil
}

func (m *Machine) byGen(g Gen) *child {
	if g == 0 {
		return nil
	}
	for _, c := range m.children {
		if c.gen == g {
			return c
		}
	}
	return nil
}

func (m *Machine) remove(c *child) {
	for i, x := range m.children {
		if x == c {
			m.children = append(m.children[:i], m.children[i+1:]...)
			return
		}
	}
}

func (m *Machine) index(c *child) int {
	for i, x := range m.children {
		if x == c {
			return i
		}
	}
	return -1
}

// ---- start-up ----

func (m *Machine) begin() {
	o := &op{kind: opStartup}
	o.starts = append(o.starts, m.children...)
	m.run(o)
}

// ---- inputs while idle ----

func (m *Machine) idle(in Input) {
	switch in := in.(type) {
	case ChildExit:
		c := m.byGen(in.Gen)
		if c == nil || c.st != stRunning {
			return // stale: an earlier generation, or already accounted for
		}
		m.exited(c, in.Reason)
	case RetryDue:
		for _, c := range m.children {
			if c.st == stRestarting && c.retry == in.Token {
				c.retry = 0
				m.restart(c)
				return
			}
		}
	case Request:
		m.request(in)
	case ParentExit:
		m.shutdown(in.Reason, 0, false)
	}
	// Begin, StartResult and TimerFired have nothing to act on when idle.
}

// exited handles the natural exit of a running child.
func (m *Machine) exited(c *child, r Reason) {
	c.gen = 0
	c.st = stStopped
	restart := false
	switch c.spec.Policy.Restart {
	case Permanent:
		restart = true
	case Transient:
		restart = !r.Normal()
	}
	if restart {
		m.restart(c)
		return
	}
	if c.spec.Policy.Restart == Temporary {
		m.remove(c)
	}
	if c.spec.Policy.Significant {
		m.autoShutdown()
	}
}

// autoShutdown shuts the supervisor down after a significant child
// ended for good, as its auto-shutdown flag says: at once, or when no
// significant child is left running or restarting.
func (m *Machine) autoShutdown() {
	switch m.flags.AutoShutdown {
	case AnySignificant:
		m.shutdown(ShutdownExit, 0, false)
	case AllSignificant:
		for _, o := range m.children {
			if o.spec.Policy.Significant && (o.live() || o.st == stRestarting) {
				return
			}
		}
		m.shutdown(ShutdownExit, 0, false)
	}
}

// charge records an automatic restart at m.now and reports whether the
// count within the window stays within the intensity. A restart at time
// then still counts while now <= then + period.
func (m *Machine) charge() bool {
	kept := m.restarts[:0]
	for _, t := range m.restarts {
		if m.now <= t+m.flags.PeriodSeconds {
			kept = append(kept, t)
		}
	}
	m.restarts = append(kept, m.now)
	return int64(len(m.restarts)) <= m.flags.Intensity
}

// restart charges the window once and restarts c's group (c has no live
// process: it exited, or its last restart attempt failed).
func (m *Machine) restart(c *child) {
	if !m.charge() {
		c.st = stStopped
		m.shutdown(ShutdownExit, 0, false)
		return
	}
	o := &op{kind: opRestart}
	switch m.flags.Strategy {
	case OneForOne:
		o.group = []*child{c}
	case OneForAll:
		o.group = append(o.group, m.children...)
	case RestForOne:
		o.group = append(o.group, m.children[m.index(c):]...)
	}
	for i := len(o.group) - 1; i >= 0; i-- {
		if o.group[i] != c {
			o.stops = append(o.stops, o.group[i])
		}
	}
	m.run(o)
}

// shutdown stops every child in reverse order and retires with reason;
// a stop request is answered Ok first.
func (m *Machine) shutdown(reason Reason, req RequestID, hasReq bool) {
	o := &op{kind: opShutdown, retire: reason, req: req, hasReq: hasReq}
	for i := len(m.children) - 1; i >= 0; i-- {
		o.stops = append(o.stops, m.children[i])
	}
	m.run(o)
}

// ---- requests ----

// request answers a request, or starts the operation it asks for.
func (m *Machine) request(r Request) {
	switch r.Op {
	case OpWhichChildren:
		m.reply(r.ID, Result{OK: true, Children: m.Children()})
	case OpCurrent:
		m.current(r)
	case OpTerminateChild:
		m.terminateChild(r)
	case OpRestartChild, OpDeleteChild:
		m.restartOrDelete(r)
	case OpStartChild:
		m.startChild(r)
	case OpStop:
		m.shutdown(Normal, r.ID, true)
	default:
		m.reply(r.ID, fail(ErrInvalidOptions))
	}
}

// current answers which generation of a keyed child is running.
func (m *Machine) current(r Request) {
	c := m.find(r.Name)
	switch {
	case c == nil:
		m.reply(r.ID, fail(ErrRemoved))
	case c.spec.Key == 0 || c.spec.Key != r.Key:
		m.reply(r.ID, fail(ErrWrongChildKey))
	case c.st == stRestarting:
		m.reply(r.ID, fail(ErrRestarting))
	case !c.live():
		m.reply(r.ID, fail(ErrStopped))
	default:
		m.reply(r.ID, Result{OK: true, Gen: c.gen})
	}
}

// terminateChild stops a running child, or cancels the pending restart
// of one that is not running.
func (m *Machine) terminateChild(r Request) {
	c := m.find(r.Name)
	switch {
	case c == nil:
		m.reply(r.ID, fail(ErrRemoved))
	case c.live():
		m.run(&op{kind: opTerminate, req: r.ID, hasReq: true, stops: []*child{c}})
	default:
		// Stopped already, or Restarting: the pending retry is
		// cancelled (its RetryDue will find nothing to do).
		c.st, c.retry = stStopped, 0
		if c.spec.Policy.Restart == Temporary {
			m.remove(c)
		}
		m.reply(r.ID, ok())
	}
}

// restartOrDelete restarts or deletes a stopped child.
func (m *Machine) restartOrDelete(r Request) {
	c := m.find(r.Name)
	switch {
	case c == nil:
		m.reply(r.ID, fail(ErrRemoved))
	case c.st == stRestarting:
		m.reply(r.ID, fail(ErrRestarting))
	case c.live():
		m.reply(r.ID, fail(ErrAlreadyRunning))
	case r.Op == OpDeleteChild:
		m.remove(c)
		m.reply(r.ID, ok())
	default:
		m.run(&op{kind: opRestartChild, req: r.ID, hasReq: true, starts: []*child{c}})
	}
}

// startChild starts a new child from a valid spec with a new name,
// within the limit of children.
func (m *Machine) startChild(r Request) {
	if err := validateStartChild(m.flags, &r.Spec, m.level); err != nil {
		m.reply(r.ID, fail(err.(Error)))
		return
	}
	if c := m.find(r.Spec.Name); c != nil {
		if c.live() {
			m.reply(r.ID, fail(ErrAlreadyRunning))
		} else {
			m.reply(r.ID, fail(ErrAlreadyPresent))
		}
		return
	}
	if len(m.children) >= MaxChildren {
		m.reply(r.ID, fail(ErrResourceLimit))
		return
	}
	m.run(&op{kind: opStartChild, req: r.ID, hasReq: true, starts: []*child{{spec: r.Spec}}})
}

// ---- the operation in progress ----

// run makes o the operation in progress and advances it.
func (m *Machine) run(o *op) {
	m.op = o
	m.ph = phBusy
	m.advance()
}

// advance carries the operation forward until it must wait for an input,
// or finishes it.
func (m *Machine) advance() {
	o := m.op
	for o.cur == nil {
		if len(o.stops) > 0 {
			c := o.stops[0]
			o.stops = o.stops[1:]
			if !c.live() {
				continue
			}
			if m.takeBufferedExit(c.gen) {
				m.stoppedBySupervisor(c)
				continue
			}
			m.stop(c)
			return
		}
		if o.kind == opRestart && !o.planned {
			m.planRestart(o)
		}
		if len(o.starts) > 0 {
			c := o.starts[0]
			o.starts = o.starts[1:]
			m.nextGen++
			c.gen, c.st, c.retry = m.nextGen, stStarting, 0
			m.emit(StartChild{Name: c.spec.Name, Gen: c.gen, Spec: c.spec})
			o.cur = c
			return
		}
		m.finish()
		return
	}
}

// planRestart lists the starts of a restart once its stops are done:
// the group's members that are still children (Temporary ones stopped
// are gone), in start order. Each is now Stopped, so a Restarting
// member's own pending retry finds nothing to do (as OTP's
// terminate_children resets every member's pid).
func (m *Machine) planRestart(o *op) {
	o.planned = true
	for _, c := range m.children {
		for _, g := range o.group {
			if g == c {
				c.st, c.retry = stStopped, 0
				o.starts = append(o.starts, c)
				break
			}
		}
	}
}

// stop stops c by its shutdown policy and makes it the current child.
func (m *Machine) stop(c *child) {
	o := m.op
	c.st = stStopping
	o.cur = c
	switch c.spec.Policy.Shutdown.Kind {
	case Immediate:
		m.emit(Kill{Name: c.spec.Name, Gen: c.gen})
	case Infinity:
		m.emit(SendShutdown{Name: c.spec.Name, Gen: c.gen})
	default:
		m.emit(SendShutdown{Name: c.spec.Name, Gen: c.gen})
		o.timer = m.token()
		m.emit(ArmTimer{Token: o.timer, Ms: c.spec.Policy.Shutdown.Ms})
	}
}

// stoppedBySupervisor records that a child the supervisor stopped is gone:
// it never restarts on its own account and never counts for auto-shutdown;
// a Temporary spec is removed, any other becomes Stopped.
func (m *Machine) stoppedBySupervisor(c *child) {
	c.gen, c.st, c.retry = 0, stStopped, 0
	if c.spec.Policy.Restart == Temporary {
		m.remove(c)
	}
}

// busy handles an input while an operation is in progress.
func (m *Machine) busy(in Input) {
	o := m.op
	cur := o.cur
	switch in := in.(type) {
	case StartResult:
		if cur == nil || cur.st != stStarting || in.Gen != cur.gen {
			return // stale
		}
		m.started(cur, in.Outcome, in.Reason)
	case ChildExit:
		m.exitWhileBusy(in)
	case TimerFired:
		if o.timer != 0 && in.Token == o.timer && cur != nil {
			o.timer = 0
			m.emit(Kill{Name: cur.spec.Name, Gen: cur.gen})
		}
	case RetryDue, Request, ParentExit:
		m.defer_(in)
	}
}

// exitWhileBusy handles a child's exit during an operation: the child
// being started failed, the child being stopped is gone, and any other
// child's exit waits until the operation is done.
func (m *Machine) exitWhileBusy(in ChildExit) {
	o := m.op
	cur := o.cur
	switch {
	case cur != nil && in.Gen == cur.gen && cur.st == stStarting:
		// Exited before acknowledging: a failed start.
		m.started(cur, Failed, in.Reason)
	case cur != nil && in.Gen == cur.gen && cur.st == stStopping:
		if o.timer != 0 {
			m.emit(CancelTimer{Token: o.timer})
			o.timer = 0
		}
		o.cur = nil
		m.stoppedBySupervisor(cur)
		m.advance()
	default:
		if c := m.byGen(in.Gen); c != nil {
			m.defer_(in) // handled when the operation is done, or taken by a stop
		}
	}
}

// started handles the end of cur's start-up.
func (m *Machine) started(c *child, out Outcome, r Reason) {
	o := m.op
	o.cur = nil
	switch out {
	case Acked:
		c.st = stRunning
		if o.kind == opStartChild {
			m.children = append(m.children, c)
		}
	case Ignored:
		c.gen, c.st = 0, stStopped
		switch {
		case o.kind == opStartChild:
			if c.spec.Policy.Restart != Temporary {
				m.children = append(m.children, c)
			}
		case c.spec.Policy.Restart == Temporary:
			m.remove(c)
		}
	default: // Failed
		c.gen, c.st = 0, stStopped
		o.failed, o.failName, o.failReason = true, c.spec.Name, r
		switch o.kind {
		case opStartup:
			// Roll back: stop everything started, in reverse order.
			o.starts = nil
			for i := len(m.children) - 1; i >= 0; i-- {
				o.stops = append(o.stops, m.children[i])
			}
		case opRestart:
			// The child stays Restarting and is tried again after the
			// queued messages; the rest of the group stays Stopped.
			o.starts = nil
			c.st = stRestarting
			c.retry = m.token()
			m.emit(ScheduleRetry{Name: c.spec.Name, Token: c.retry})
		}
	}
	m.advance()
}

// finish completes the operation in progress.
func (m *Machine) finish() {
	o := m.op
	m.op = nil
	m.ph = phIdle
	switch o.kind {
	case opStartup:
		if o.failed {
			m.emit(StartupDone{Result: startFailed(o.failName, o.failReason)})
			m.retire(ShutdownExit)
			return
		}
		m.emit(StartupDone{Result: ok()})
	case opTerminate, opShutdown:
		if o.hasReq {
			m.reply(o.req, ok())
		}
		if o.kind == opShutdown {
			m.retire(o.retire)
		}
	case opRestartChild, opStartChild:
		if o.failed {
			m.reply(o.req, startFailed(o.failName, o.failReason))
		} else {
			m.reply(o.req, ok())
		}
	}
}

// retire answers every waiting request SupervisorStopped, drops the other
// deferred inputs and emits Retire.
func (m *Machine) retire(reason Reason) {
	for _, in := range m.buf {
		if r, ok := in.(Request); ok {
			m.reply(r.ID, fail(ErrSupervisorStopped))
		}
	}
	m.buf, m.queued = nil, 0
	m.ph = phRetired
	m.retired = reason
	m.emit(Retire{Reason: reason})
}
