// Package process is the runtime side of Morrow's Process API that does
// not depend on the scheduler: the run-time descriptors of the Process
// types (ExitReason, Error, Event, DemonitorOptions, declared in the
// builtin registry) and their tag constants (docs/reference/types.md#built-in-types), the SPAWN
// modes, and the bodies of the Process operations that are ordinary calls.
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
// the builtin registry (stdlib/builtins) marks them with their Lowering,
// and the SPAWN modes below are the operands lang/codegen emits. Every
// other Process builtin is a native of this package (Natives), whose body
// reaches the scheduler through native.Host, which every VM host
// implements (vm.Host embeds it), so a native never discovers a
// capability at run time.
package process

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

var natives = native.Table{}

// reg registers the body of the native name; the registry entry of the
// same name (stdlib/builtins) gives its signature and flags.
func reg(name string, args []value.Kind, fn native.Func) {
	natives[name] = &native.Native{Name: name, Arity: len(args), Args: args, Fn: fn}
}

func init() {
	A := native.KAny
	reg("Process.id", []value.Kind{value.KPid}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if a[0].Ref() == nil {
			return value.Unit, fault.New(fault.Descriptor)
		}
		n := a[0].Payload()
		if g, ok := a[0].Ref().(interface{ Gen() uint64 }); ok && n < 0 {
			// A reply address of Process.call (N < 0) is an address of
			// the calling process: its identity is the caller's.
			n = int64(g.Gen())
		}
		return value.Opaque(value.KProcID, n, a[0].Ref()), nil
	})
	reg("Process.register", []value.Kind{value.KString, value.KPid, value.KString}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Register(a[0].AsString(), a[1], a[2].AsString())
	})
	reg("Process.whereis", []value.Kind{value.KString, value.KString}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Whereis(a[0].AsString(), a[1].AsString())
	})
	reg("Process.unregister", []value.Kind{value.KString}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Unregister(a[0].AsString())
	})
	reg("supervised_current", []value.Kind{value.KPid}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.SupervisedCurrent(a[0])
	})
	reg("Process.monitor", []value.Kind{value.KProcID}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Monitor(a[0])
	})
	reg("Process.demonitor", []value.Kind{value.KMonRef, value.KData}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		d, _ := a[1].Data()
		if d == nil || len(d.Fields) != 2 || d.Fields[0].Kind() != value.KBool || d.Fields[1].Kind() != value.KBool {
			return ptype.ErrProcess(ptype.ErrInvalidOptions), nil
		}
		return h.Demonitor(a[0], d.Fields[0].AsInt() != 0, d.Fields[1].AsInt() != 0)
	})
	reg("Process.link", []value.Kind{value.KProcID}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Link(a[0])
	})
	reg("Process.unlink", []value.Kind{value.KProcID}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Unlink(a[0])
	})
	reg("Process.trap_exit", []value.Kind{value.KBool}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.TrapExit(a[0].AsInt() != 0)
	})
	reg("Process.exit", []value.Kind{value.KData}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if f := h.Exit(a[0]); f != nil {
			return value.Unit, f
		}
		return value.Unit, fault.NewExit()
	})
	reg("Process.signal_exit", []value.Kind{value.KProcID, A}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.SignalExit(a[0], a[1])
	})
}

// Natives returns the bodies of the Process natives, sorted by name:
// stdlib joins them with the registry's entries into the table vm.Load
// resolves against.
func Natives() []*native.Native {
	return natives.Sorted()
}

// Lookup returns the native of a Process builtin by qualified name.
func Lookup(name string) (*native.Native, bool) { return natives.Lookup(name) }

// Names returns the names of the natives of this package, sorted.
func Names() []string { return natives.Names() }
