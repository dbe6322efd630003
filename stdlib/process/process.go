// Package process is the runtime side of Morrow's Process API that does
// not depend on the scheduler: the run-time descriptors of the Process
// types (ExitReason, Error, Event, DemonitorOptions) with the tag orders of
// LANGUAGE.md §4.1, the SPAWN modes, and the natives of the Process
// operations that are ordinary calls.
//
// # Opaque values
//
// Pid, ProcessId and MonitorRef values are built only by the runtime
// (runtime/proc owns their typed handles: a Pid is Value{K: KPid, N:
// generation, R: *proc.Process}). This package needs none of that: the
// natives below hand the values to the runtime unopened, and Process.id
// turns a Pid into a ProcessId by changing only its kind. Equality of
// opaque values compares N and the identity of R (stdlib/core).
//
// # Lowering
//
// spawn, supervise, Process.spawn, Process.spawn_monitor,
// Process.spawn_link, send and Process.self are compiled to the SPAWN,
// SEND and SELF opcodes (their cost is charged to the reduction budget);
// OpcodeBuiltins lists them with their SPAWN modes. Every other Process
// builtin is a native of this package (Natives), whose body reaches the
// scheduler through native.Host, which every VM host implements (vm.Host
// embeds it), so a native never discovers a capability at run time.
package process

import (
	"sort"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

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
func FaultReason(code fault.Code) value.Value { return Reason(ReasonFault, value.Int(int64(code))) }

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

var natives = native.Table{}

func reg(name string, args []value.Kind, flags native.Flags, fn native.Func) {
	natives[name] = &native.Native{Name: name, Arity: len(args), Args: args, Flags: flags, Fn: fn}
}

func init() {
	A := native.KAny
	reg("Process.id", []value.Kind{value.KPid}, 0, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if a[0].Ref() == nil {
			return value.Unit, fault.New(fault.Descriptor)
		}
		return value.Opaque(value.KProcID, a[0].Payload(), a[0].Ref()), nil
	})
	reg("supervised_current", []value.Kind{value.KPid}, 0, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.SupervisedCurrent(a[0])
	})
	reg("Process.monitor", []value.Kind{value.KProcID}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Monitor(a[0])
	})
	reg("Process.demonitor", []value.Kind{value.KMonRef, value.KData}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		d, _ := a[1].Data()
		if d == nil || len(d.Fields) != 2 || d.Fields[0].Kind() != value.KBool || d.Fields[1].Kind() != value.KBool {
			return ErrProcess(ErrInvalidOptions), nil
		}
		return h.Demonitor(a[0], d.Fields[0].AsInt() != 0, d.Fields[1].AsInt() != 0)
	})
	reg("Process.link", []value.Kind{value.KProcID}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Link(a[0])
	})
	reg("Process.unlink", []value.Kind{value.KProcID}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Unlink(a[0])
	})
	reg("Process.trap_exit", []value.Kind{value.KBool}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.TrapExit(a[0].AsInt() != 0)
	})
	reg("Process.exit", []value.Kind{value.KData}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if f := h.Exit(a[0]); f != nil {
			return value.Unit, f
		}
		return value.Unit, fault.NewExit()
	})
	reg("Process.signal_exit", []value.Kind{value.KProcID, A}, native.ActorOnly, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.SignalExit(a[0], a[1])
	})
}

// Natives returns the Process natives, sorted by name: the engine merges
// them with the core natives into the table vm.Load resolves against.
func Natives() []*native.Native {
	return natives.Sorted()
}

// Lookup returns the native of a Process builtin by qualified name.
func Lookup(name string) (*native.Native, bool) { return natives.Lookup(name) }

// Names returns the names of the natives of this package, sorted.
func Names() []string { return natives.Names() }

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
