package supervisor

import (
	"fmt"
	"strconv"
)

// Strategy is Supervisor.Strategy, in tag order.
type Strategy uint8

const (
	OneForOne Strategy = iota
	OneForAll
	RestForOne
)

func (s Strategy) String() string {
	return tagName([]string{"OneForOne", "OneForAll", "RestForOne"}, "Strategy", int(s))
}

// Restart is Supervisor.Restart, in tag order.
type Restart uint8

const (
	Permanent Restart = iota
	Transient
	Temporary
)

func (r Restart) String() string {
	return tagName([]string{"Permanent", "Transient", "Temporary"}, "Restart", int(r))
}

// tagName is the name of tag i in names (a type's tags in tag order), or
// Type(i) for a tag past the end.
func tagName(names []string, typ string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return typ + "(" + strconv.Itoa(i) + ")"
}

// ShutdownKind is the tag of Supervisor.Shutdown, in tag order.
type ShutdownKind uint8

const (
	Graceful ShutdownKind = iota
	Infinity
	Immediate
)

// Shutdown is Supervisor.Shutdown: Graceful(Ms), Infinity or Immediate.
type Shutdown struct {
	Kind ShutdownKind
	Ms   int64 // Graceful only: 0..MaxGracefulMs
}

func (s Shutdown) String() string {
	if s.Kind == Graceful {
		return fmt.Sprintf("Graceful(%d)", s.Ms)
	}
	return tagName([]string{"Graceful", "Infinity", "Immediate"}, "Shutdown", int(s.Kind))
}

// AutoShutdown is Supervisor.AutoShutdown, in tag order.
type AutoShutdown uint8

const (
	Never AutoShutdown = iota
	AnySignificant
	AllSignificant
)

// Kind is Supervisor.ChildKind, in tag order.
type Kind uint8

const (
	Worker Kind = iota
	Branch
)

func (k Kind) String() string {
	return tagName([]string{"Worker", "Branch"}, "Kind", int(k))
}

// State is Supervisor.ChildState's tag, in tag order. Running carries the
// generation in ChildInfo.Gen; the driver turns it into the child's Pid.
type State uint8

const (
	Running State = iota
	Stopped
	Restarting
)

func (s State) String() string {
	return tagName([]string{"Running", "Stopped", "Restarting"}, "State", int(s))
}

// Flags is Supervisor.Flags.
type Flags struct {
	Strategy      Strategy
	Intensity     int64 // 0..MaxIntensity automatic restarts ...
	PeriodSeconds int64 // ... within this many seconds, 1..MaxPeriodSeconds
	AutoShutdown  AutoShutdown
}

// Policy is Supervisor.ChildPolicy.
type Policy struct {
	Restart     Restart
	Shutdown    Shutdown
	Significant bool
}

// Spec is a validated child description (Supervisor.ChildSpec). The
// machine reads Name, Kind, Key and Policy; Flags and Children describe a
// branch's own supervisor (the driver builds the branch's machine from
// them); Template is the driver's payload (the entry template of a worker)
// and is handed back unchanged in StartChild.
type Spec struct {
	Name     string
	Kind     Kind
	Key      uint64 // a worker's ChildKey token; 0 for a branch (no key matches it)
	Policy   Policy
	Flags    Flags  // Branch only
	Children []Spec // Branch only
	Template any
}

// ReasonKind is the tag of Process.ExitReason, in tag order.
type ReasonKind uint8

const (
	ReasonNormal ReasonKind = iota
	ReasonShutdown
	ReasonShutdownDetail
	ReasonFault
	ReasonFailure
	ReasonKill
	ReasonKilled
	ReasonNoProcess
)

// Reason is a Process.ExitReason as data: Text is the payload of
// ShutdownDetail and Failure, Code the payload of Fault.
type Reason struct {
	Kind ReasonKind
	Text string
	Code int64
}

// Common reasons.
var (
	Normal       = Reason{Kind: ReasonNormal}
	ShutdownExit = Reason{Kind: ReasonShutdown}
	Killed       = Reason{Kind: ReasonKilled}
)

// Normal reports whether r is a normal reason for the Transient rule:
// Normal, Shutdown and ShutdownDetail(_) are normal, everything else is
// abnormal.
func (r Reason) Normal() bool {
	return r.Kind == ReasonNormal || r.Kind == ReasonShutdown || r.Kind == ReasonShutdownDetail
}

// String renders r the way the conformance scenarios print reasons.
func (r Reason) String() string {
	switch r.Kind {
	case ReasonNormal:
		return "normal"
	case ReasonShutdown:
		return "shutdown"
	case ReasonShutdownDetail:
		return "shutdown_detail:" + r.Text
	case ReasonFault:
		return "fault:" + strconv.FormatInt(r.Code, 10)
	case ReasonFailure:
		return "failure:" + r.Text
	case ReasonKill:
		return "kill"
	case ReasonKilled:
		return "killed"
	case ReasonNoProcess:
		return "no_process"
	}
	return "reason(" + strconv.Itoa(int(r.Kind)) + ")"
}

// Error is Supervisor.Error's tag, in tag order (so a driver can use the
// value as the Morrow tag). StartFailed's payload travels in Result.
type Error uint8

const (
	ErrInvalidOptions Error = iota
	ErrResourceLimit
	ErrForeignInvocation
	ErrUnsupportedContext
	ErrWrongChildKey
	ErrDuplicateName
	ErrAlreadyRunning
	ErrAlreadyPresent
	ErrRestarting
	ErrStopped
	ErrRemoved
	ErrStartFailed
	ErrSupervisorStopped
)

var errorNames = [...]string{
	"InvalidOptions", "ResourceLimit", "ForeignInvocation", "UnsupportedContext",
	"WrongChildKey", "DuplicateName", "AlreadyRunning", "AlreadyPresent",
	"Restarting", "Stopped", "Removed", "StartFailed", "SupervisorStopped",
}

// Error makes Error an error, so the validation functions can return it.
func (e Error) Error() string {
	return tagName(errorNames[:], "Error", int(e))
}

// Gen identifies one started child process (one generation of one child).
// The machine numbers them 1, 2, 3, ... across all of its children and never
// reuses a number, so an exit reported for an earlier generation is
// recognised as stale.
type Gen uint64

// Token identifies one timer or one retry the machine asked for.
type Token uint64

// RequestID is the driver's handle for one request; the machine hands it
// back in the Reply that answers the request.
type RequestID uint64

// ChildInfo is one row of which_children (Supervisor.ChildInfo). Gen is the
// running generation when State is Running, 0 otherwise.
type ChildInfo struct {
	Name  string
	Kind  Kind
	State State
	Gen   Gen
}

// Result is the answer to a request, to the start-up, or to nothing (OK
// false with an Err). For ErrStartFailed, FailedName and FailedReason carry
// the payload StartFailed(name, reason). Children answers which_children;
// Gen answers current.
type Result struct {
	OK           bool
	Err          Error
	FailedName   string
	FailedReason Reason
	Children     []ChildInfo
	Gen          Gen
}

func (r Result) String() string {
	if !r.OK {
		if r.Err == ErrStartFailed {
			return fmt.Sprintf("Err(StartFailed(%q, %s))", r.FailedName, r.FailedReason)
		}
		return "Err(" + r.Err.Error() + ")"
	}
	switch {
	case r.Children != nil:
		s := "Ok(["
		for i, c := range r.Children {
			if i > 0 {
				s += ", "
			}
			s += c.Name + ":" + c.Kind.String() + ":" + c.State.String()
			if c.State == Running {
				s += "#" + strconv.FormatUint(uint64(c.Gen), 10)
			}
		}
		return s + "])"
	case r.Gen != 0:
		return "Ok(#" + strconv.FormatUint(uint64(r.Gen), 10) + ")"
	}
	return "Ok"
}

func ok() Result          { return Result{OK: true} }
func fail(e Error) Result { return Result{Err: e} }
func startFailed(name string, r Reason) Result {
	return Result{Err: ErrStartFailed, FailedName: name, FailedReason: r}
}
