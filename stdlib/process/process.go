// Package process is the runtime side of Morrow's Process API that does
// not depend on the scheduler: the value representations of the opaque
// process values (Pid, ProcessId, MonitorRef), the run-time descriptors of
// the Process types (ExitReason, Error, Event, DemonitorOptions) with the
// tag orders of LANGUAGE.md §4.1, and the natives of the Process
// operations that are ordinary calls.
//
// # Opaque values
//
// Every process (and host port) has one *Handle, created when it is
// spawned. A Pid is Value{K: KPid, N: generation, R: handle}; a ProcessId
// is Value{K: KProcID, N: generation, R: handle}. Equality of opaque
// values compares N and the identity of R (stdlib/core), so two Pids are
// equal exactly when they name the same process; because a generation is
// never reused within an invocation and the handle belongs to one
// invocation, this is "invocation epoch plus generation" identity.
// Messages are shared with their receivers, not copied, so identities
// survive being sent. Programs cannot forge either: the only producers are the
// runtime's spawn operations and Process.self/Process.id.
//
// A MonitorRef is Value{K: KMonRef, N: serial, R: *MonitorRef}.
//
// # Lowering
//
// spawn, supervise, Process.spawn, Process.spawn_monitor,
// Process.spawn_link, send and Process.self are compiled to the SPAWN,
// SEND and SELF opcodes (their cost is charged to the reduction budget);
// OpcodeBuiltins lists them with their SPAWN modes. Every other Process
// builtin is a native of this package (Lookup), whose body reaches the
// scheduler through the Runtime interface, which the VM host implements.
package process

import (
	"sort"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Handle is the identity of one process or host port.
type Handle struct {
	// Epoch identifies the invocation; Gen is the process's generation
	// (never reused within an invocation, starting at 1).
	Epoch uint64
	Gen   uint64
	// Target is the runtime's process object (a *proc.Process).
	Target any
}

// PidValue returns the Pid of h.
func PidValue(h *Handle) value.Value { return value.Value{K: value.KPid, N: int64(h.Gen), R: h} }

// IDValue returns the ProcessId of h.
func IDValue(h *Handle) value.Value { return value.Value{K: value.KProcID, N: int64(h.Gen), R: h} }

// HandleOf returns the handle inside a Pid or ProcessId value, or nil.
func HandleOf(v value.Value) *Handle {
	if v.K != value.KPid && v.K != value.KProcID {
		return nil
	}
	h, _ := v.R.(*Handle)
	return h
}

// MonitorRef is one monitor registration.
type MonitorRef struct {
	Epoch  uint64
	Serial uint64
	// Owner is the handle of the monitoring process; Target the monitored
	// one (nil for a self-monitor, which is inert).
	Owner, Target *Handle
	// State is owned by the runtime (the registration's bookkeeping).
	State any
}

// RefValue returns the MonitorRef value of m.
func RefValue(m *MonitorRef) value.Value {
	return value.Value{K: value.KMonRef, N: int64(m.Serial), R: m}
}

// RefOf returns the registration behind a MonitorRef value, or nil.
func RefOf(v value.Value) *MonitorRef {
	if v.K != value.KMonRef {
		return nil
	}
	m, _ := v.R.(*MonitorRef)
	return m
}

// Process.ExitReason tags (LANGUAGE.md §4.1).
const (
	ReasonNormal = iota
	ReasonShutdown
	ReasonShutdownDetail
	ReasonFault
	ReasonFailure
	ReasonKill
	ReasonKilled
	ReasonNoProcess
)

// Process.Error tags.
const (
	ErrResourceLimit = iota
	ErrForeignInvocation
	ErrWrongMonitorOwner
	ErrUnsupportedTarget
	ErrInvalidOptions
)

// Process.Event tags.
const (
	EventMessage = iota
	EventDown
	EventExit
)

// Run-time descriptors of the Process types. Values the runtime builds
// with them compare equal to values the program builds (types compare by
// name), and Show prints the variant names.
var (
	ExitReasonType = &value.TypeInfo{Name: "Process.ExitReason", Kind: value.TSum, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{{Name: "Normal"}, {Name: "Shutdown"}, {Name: "ShutdownDetail", Fields: []string{""}},
			{Name: "Fault", Fields: []string{""}}, {Name: "Failure", Fields: []string{""}}, {Name: "Kill"}, {Name: "Killed"}, {Name: "NoProcess"}}}
	ErrorType = &value.TypeInfo{Name: "Process.Error", Kind: value.TSum, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{{Name: "ResourceLimit"}, {Name: "ForeignInvocation"}, {Name: "WrongMonitorOwner"},
			{Name: "UnsupportedTarget"}, {Name: "InvalidOptions"}}}
	EventType = &value.TypeInfo{Name: "Process.Event", Kind: value.TSum, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{{Name: "Message", Fields: []string{""}}, {Name: "Down", Fields: []string{"", "", ""}},
			{Name: "Exit", Fields: []string{"", ""}}}}
	DemonitorOptionsType = &value.TypeInfo{Name: "Process.DemonitorOptions", Kind: value.TRecord, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{{Name: "DemonitorOptions", Fields: []string{"flush", "info"}}}}
)

// Types lists the Process type descriptors, for code generators that need
// them in a program's type table.
var Types = []*value.TypeInfo{ExitReasonType, ErrorType, EventType, DemonitorOptionsType}

// TypeByName returns the Process type descriptor called name, or nil.
func TypeByName(name string) *value.TypeInfo {
	for _, t := range Types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Reason builds an ExitReason value with tag t (and payload p for the
// variants that carry one).
func Reason(t int, p value.Value) value.Value {
	if len(ExitReasonType.Variants[t].Fields) == 0 {
		return value.NewData(ExitReasonType, t)
	}
	return value.NewData(ExitReasonType, t, p)
}

// FaultReason is Fault(code).
func FaultReason(code int64) value.Value { return Reason(ReasonFault, value.Int(code)) }

// ErrorValue builds the Process.Error variant t.
func ErrorValue(t int) value.Value { return value.NewData(ErrorType, t) }

// ErrProcess is Err(e) for the Process.Error variant e.
func ErrProcess(e int) value.Value { return value.Err(ErrorValue(e)) }

// SPAWN modes (operand A of the SPAWN opcode).
const (
	SpawnLegacy    = 0 // spawn(entry) -> Pid(M); admission failure is fault 9
	SpawnIsolated  = 1 // Process.spawn(entry) -> Result(Pid(M), Process.Error)
	SpawnMonitor   = 2 // Process.spawn_monitor(entry) -> Result((Pid(M), MonitorRef), Process.Error)
	SpawnLink      = 3 // Process.spawn_link(entry) -> Result(Pid(M), Process.Error)
	SpawnSupervise = 4 // supervise(entry, n) -> Pid(M); the operand is the tuple (entry, n)
)

// OpcodeBuiltins maps the builtins compiled to opcodes to their SPAWN
// mode (-1 for send, Process.self and Process.sleep, which have their own
// opcodes).
var OpcodeBuiltins = map[string]int{
	"spawn":                 SpawnLegacy,
	"Process.spawn":         SpawnIsolated,
	"Process.spawn_monitor": SpawnMonitor,
	"Process.spawn_link":    SpawnLink,
	"supervise":             SpawnSupervise,
	"send":                  -1,
	"Process.self":          -1,
	"Process.sleep":         -1, // a receive with only a timeout (lang/codegen)
}

// Fault codes of the Process runtime (LANGUAGE.md §6.6).
const (
	FaultTimeout  = 8
	FaultResource = 9
	FaultDeadlock = 10
)

// ExitCode is the fault code the Process.exit native raises to unwind
// the caller (running its cleanup) after recording the exit reason with
// the runtime. It is not a checked fault: the scheduler retires the
// process with the recorded reason.
const ExitCode = -0x7fff_0001

// Runtime is what the natives of this package need from the scheduler;
// the VM host of a running process implements it.
type Runtime interface {
	// SupervisedCurrent follows a supervised Pid to its current
	// incarnation: Ok(pid) or Err(3).
	SupervisedCurrent(pid value.Value) value.Value
	// Monitor, Demonitor, Link, Unlink, TrapExit, SignalExit implement the
	// Process operations of the same names; the results are the values
	// the operations return.
	Monitor(id value.Value) value.Value
	Demonitor(ref value.Value, flush, info bool) value.Value
	Link(id value.Value) (value.Value, *core.Fault)
	Unlink(id value.Value) value.Value
	TrapExit(on bool) value.Value
	SignalExit(id, reason value.Value) (value.Value, *core.Fault)
	// Exit records reason as the running process's terminal reason; the
	// native then unwinds with ExitCode. A nil fault means accepted.
	Exit(reason value.Value) *core.Fault
}

var natives = map[string]*core.Native{}

func reg(n *core.Native) { natives[n.Name] = n }

func rt(ctx core.Ctx) (Runtime, *core.Fault) {
	r, ok := ctx.(Runtime)
	if !ok {
		return nil, &core.Fault{Code: 11, Msg: core.FaultText[11]}
	}
	return r, nil
}

func init() {
	A := core.KAny
	reg(&core.Native{Name: "Process.id", Arity: 1, Args: []value.Kind{value.KPid}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		h := HandleOf(a[0])
		if h == nil {
			return value.Unit, &core.Fault{Code: 11, Msg: core.FaultText[11]}
		}
		return IDValue(h), nil
	}})
	reg(&core.Native{Name: "supervised_current", Arity: 1, Args: []value.Kind{value.KPid}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.SupervisedCurrent(a[0]), nil
	}})
	reg(&core.Native{Name: "Process.monitor", Arity: 1, Args: []value.Kind{value.KProcID}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.Monitor(a[0]), nil
	}})
	reg(&core.Native{Name: "Process.demonitor", Arity: 2, Args: []value.Kind{value.KMonRef, value.KData}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		d, _ := a[1].R.(*value.Data)
		if d == nil || len(d.Fields) != 2 || d.Fields[0].K != value.KBool || d.Fields[1].K != value.KBool {
			return ErrProcess(ErrInvalidOptions), nil
		}
		return r.Demonitor(a[0], d.Fields[0].N != 0, d.Fields[1].N != 0), nil
	}})
	reg(&core.Native{Name: "Process.link", Arity: 1, Args: []value.Kind{value.KProcID}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.Link(a[0])
	}})
	reg(&core.Native{Name: "Process.unlink", Arity: 1, Args: []value.Kind{value.KProcID}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.Unlink(a[0]), nil
	}})
	reg(&core.Native{Name: "Process.trap_exit", Arity: 1, Args: []value.Kind{value.KBool}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.TrapExit(a[0].N != 0), nil
	}})
	reg(&core.Native{Name: "Process.exit", Arity: 1, Args: []value.Kind{value.KData}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		if f := r.Exit(a[0]); f != nil {
			return value.Unit, f
		}
		return value.Unit, &core.Fault{Code: ExitCode, Msg: "process exit"}
	}})
	reg(&core.Native{Name: "Process.signal_exit", Arity: 2, Args: []value.Kind{value.KProcID, A}, Fn: func(ctx core.Ctx, a []value.Value) (value.Value, *core.Fault) {
		r, f := rt(ctx)
		if f != nil {
			return value.Unit, f
		}
		return r.SignalExit(a[0], a[1])
	}})
}

// Lookup returns the native of a Process builtin by qualified name.
func Lookup(name string) (*core.Native, bool) {
	n, ok := natives[name]
	return n, ok
}

// Names returns the names of the natives of this package, sorted.
func Names() []string {
	out := make([]string, 0, len(natives))
	for n := range natives {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Implemented returns every Process builtin the runtime implements:
// natives plus opcode-lowered builtins, sorted.
func Implemented() []string {
	out := Names()
	for n := range OpcodeBuiltins {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
