package supervisor

import (
	"fmt"
	"strings"
)

// Input is one event fed to Machine.Step. The concrete types are listed
// below; each documents when the driver feeds it.
type Input interface{ isInput() }

// Begin starts the supervisor's start-up: the children given to New are
// started one at a time in declaration order. Feed it once, first.
type Begin struct{}

// Outcome is how a child's start-up ended.
type Outcome uint8

const (
	// Acked: the child called Process.init_ack (a branch: its own start-up
	// committed).
	Acked Outcome = iota
	// Ignored: the child called Process.init_ignore.
	Ignored
	// Failed: the child called Process.init_fail(reason), or it could not
	// be spawned at all. A child that exits before acknowledging may be
	// reported either as Failed or as a ChildExit of its generation.
	Failed
)

// StartResult reports how the start-up of generation Gen ended. Results
// for a generation that is not the one being started are ignored.
type StartResult struct {
	Gen     Gen
	Outcome Outcome
	Reason  Reason // Failed only
}

// ChildExit reports that the process of generation Gen has retired with
// Reason. Feed exactly one per started generation (from the supervisor's
// monitor on it), in the order the Downs are received. Exits of earlier
// generations are ignored (stale).
type ChildExit struct {
	Gen    Gen
	Reason Reason
}

// TimerFired reports that the timer armed by ArmTimer{Token} has expired.
// Unknown or cancelled tokens are ignored.
type TimerFired struct{ Token Token }

// RetryDue is fed when the message asked for by ScheduleRetry{Token} comes
// back out of the supervisor's own mailbox.
type RetryDue struct{ Token Token }

// ParentExit reports an exit signal from the supervisor's parent: the
// caller of start_link (for any reason, Normal included) or, for a branch,
// the supervisor above it (its Shutdown when it stops the branch). The
// supervisor stops its children and retires with Reason.
type ParentExit struct{ Reason Reason }

// Op is the kind of a Request.
type Op uint8

const (
	OpWhichChildren Op = iota
	OpCurrent
	OpStartChild
	OpTerminateChild
	OpRestartChild
	OpDeleteChild
	OpStop
)

var opNames = [...]string{"which_children", "current", "start_child", "terminate_child", "restart_child", "delete_child", "stop"}

func (o Op) String() string {
	return tagName(opNames[:], "Op", int(o))
}

// Request is one management request. Name is the child name (current,
// terminate_child, restart_child, delete_child), Key the ChildKey token
// (current), Spec the new child (start_child). Exactly one Reply with the
// same ID answers it.
type Request struct {
	ID   RequestID
	Op   Op
	Name string
	Key  uint64
	Spec Spec
}

func (Begin) isInput()       {}
func (StartResult) isInput() {}
func (ChildExit) isInput()   {}
func (TimerFired) isInput()  {}
func (RetryDue) isInput()    {}
func (ParentExit) isInput()  {}
func (Request) isInput()     {}

// Effect is one thing the driver must do, in the order Step returns them.
type Effect interface {
	isEffect()
	String() string
}

// StartChild: spawn a fresh process for Spec (a worker from a fresh copy of
// its template; a branch as a nested supervisor whose machine is built from
// Spec.Flags and Spec.Children with Level+1), linked to and monitored by the
// supervisor, in its start-up phase; remember Gen for it. Then feed
// StartResult{Gen, ...} when the start-up ends (or ChildExit{Gen, ...} if
// the process ends first). If the spawn itself fails, feed
// StartResult{Gen, Failed, reason}.
type StartChild struct {
	Name string
	Gen  Gen
	Spec Spec
}

// SendShutdown: send a direct exit signal with reason Shutdown to the
// process of Gen. Its ChildExit will follow.
type SendShutdown struct {
	Name string
	Gen  Gen
}

// Kill: send a direct Kill to the process of Gen (it retires Killed unless
// it has already retired). Its ChildExit will follow.
type Kill struct {
	Name string
	Gen  Gen
}

// ArmTimer: start a timer of Ms milliseconds; when it expires, feed
// TimerFired{Token}.
type ArmTimer struct {
	Token Token
	Ms    int64
}

// CancelTimer: cancel the timer of Token. If it has already fired and its
// TimerFired is still to be fed, feeding it is harmless (it is ignored).
type CancelTimer struct{ Token Token }

// ScheduleRetry: put a message at the end of the supervisor's own mailbox
// (after everything already queued there) and feed RetryDue{Token} when it
// is taken out. This is OTP's try_again_restart cast: the supervisor handles
// its queued messages before a failed restart is tried again.
type ScheduleRetry struct {
	Name  string
	Token Token
}

// Reply: answer request ID with Result.
type Reply struct {
	ID     RequestID
	Result Result
}

// StartupDone: the start-up has committed (Result.OK) or rolled back
// (Err StartFailed). Answer the caller of start/start_link; a branch sends
// its init_ack to the supervisor above it on OK. A rollback is followed by
// Retire{Shutdown}.
type StartupDone struct{ Result Result }

// Retire: every child has exited; the supervisor process exits with Reason
// through the ordinary retire path. Step returns nothing after it except
// SupervisorStopped replies to later requests.
type Retire struct{ Reason Reason }

func (StartChild) isEffect()    {}
func (SendShutdown) isEffect()  {}
func (Kill) isEffect()          {}
func (ArmTimer) isEffect()      {}
func (CancelTimer) isEffect()   {}
func (ScheduleRetry) isEffect() {}
func (Reply) isEffect()         {}
func (StartupDone) isEffect()   {}
func (Retire) isEffect()        {}

func (e StartChild) String() string   { return fmt.Sprintf("start %s#%d", e.Name, e.Gen) }
func (e SendShutdown) String() string { return fmt.Sprintf("shutdown %s#%d", e.Name, e.Gen) }
func (e Kill) String() string         { return fmt.Sprintf("kill %s#%d", e.Name, e.Gen) }
func (e ArmTimer) String() string     { return fmt.Sprintf("arm t%d %dms", e.Token, e.Ms) }
func (e CancelTimer) String() string  { return fmt.Sprintf("cancel t%d", e.Token) }
func (e ScheduleRetry) String() string {
	return fmt.Sprintf("retry %s t%d", e.Name, e.Token)
}
func (e Reply) String() string       { return fmt.Sprintf("reply r%d %s", e.ID, e.Result) }
func (e StartupDone) String() string { return "startup " + e.Result.String() }
func (e Retire) String() string      { return "retire " + e.Reason.String() }

// Format renders effects separated by "; ", as the package tests compare them.
func Format(effects []Effect) string {
	var b strings.Builder
	for i, e := range effects {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(e.String())
	}
	return b.String()
}
