// Package ptype is the run-time form of the library types of the Process
// and Supervisor modules, which every layer of the runtime shares: the
// tags of Process.ExitReason, Process.Error, Process.CallError and
// Process.Event (docs/reference/types.md#process-types), their run-time
// descriptors (declared in the builtin registry, stdlib/builtins),
// constructors of their values, the SPAWN modes codegen emits and the VM
// runs, and the payloads of the Supervisor module's opaque values. It is
// a leaf: it imports only runtime/value, runtime/fault,
// runtime/supervisor and the registry, so the verifier, the VM, the
// process table and the scheduler use it without importing the natives'
// bodies (stdlib/process).
package ptype

import (
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Process.ExitReason tags (docs/reference/types.md#built-in-types): supervisor.ReasonKind's,
// one list for both, since ReasonOf and ReasonValue convert by tag.
const (
	ReasonNormal         = int(supervisor.ReasonNormal)
	ReasonShutdown       = int(supervisor.ReasonShutdown)
	ReasonShutdownDetail = int(supervisor.ReasonShutdownDetail)
	ReasonFault          = int(supervisor.ReasonFault)
	ReasonFailure        = int(supervisor.ReasonFailure)
	ReasonKill           = int(supervisor.ReasonKill)
	ReasonKilled         = int(supervisor.ReasonKilled)
	ReasonNoProcess      = int(supervisor.ReasonNoProcess)
)

// Process.Error tags.
const (
	ErrResourceLimit = iota
	ErrForeignInvocation
	ErrWrongMonitorOwner
	ErrUnsupportedTarget
	ErrInvalidOptions
)

// Process.CallError tags.
const (
	CallErrTimeout = iota
	CallErrDown
	CallErrRejected
)

// Process.Event tags.
const (
	EventMessage = iota
	EventDown
	EventExit
)

// Run-time descriptors of the Process types, declared in the builtin
// registry (stdlib/builtins), which the checker reads too. Values the
// runtime builds with them compare equal to values the program builds
// (types compare by name), and Show prints the variant names.
var (
	ExitReasonType       = builtins.LookupType("Process.ExitReason").Info()
	ErrorType            = builtins.LookupType("Process.Error").Info()
	EventType            = builtins.LookupType("Process.Event").Info()
	DemonitorOptionsType = builtins.LookupType("Process.DemonitorOptions").Info()
	CallErrorType        = builtins.LookupType("Process.CallError").Info()
)

// Types lists the run-time descriptors of the library types (the
// Process and Supervisor modules), in declaration order.
var Types = func() []*value.TypeInfo {
	var out []*value.TypeInfo
	for _, t := range builtins.Types() {
		if ti := t.Info(); ti != nil {
			out = append(out, ti)
		}
	}
	return out
}()

// TypeByName returns the library type descriptor called name, or nil.
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
func FaultReason(code fault.Code) value.Value { return Reason(ReasonFault, value.Int(int64(code))) }

// ErrorValue builds the Process.Error variant t.
func ErrorValue(t int) value.Value { return value.NewData(ErrorType, t) }

// CallErrorValue builds the Process.CallError variant t (with payload p
// for CallDown and CallRejected).
func CallErrorValue(t int, p value.Value) value.Value {
	if t == CallErrTimeout {
		return value.NewData(CallErrorType, t)
	}
	return value.NewData(CallErrorType, t, p)
}

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
