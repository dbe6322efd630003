// Package native is the calling convention between the VM and the Go
// functions of the standard library ("natives"): what a native is
// (Native), the table of natives a program may call (Table), and what a
// native may ask of the runtime that calls it (Host).
//
// # Data flow
//
// The standard library packages (stdlib/core, stdlib/process) each list
// the Go bodies of their natives; stdlib joins them with the builtin
// registry (stdlib/builtins) into one Table, and the engine
// (runtime/engine) passes it to vm.Load, which resolves every native name
// of a program against it once (unknown names and wrong arities are
// refused before anything runs). At run time the VM calls
// (*Native).CallWork with its vm.Host, which includes this package's
// Host, so a native can only use operations that every host implements:
// a missing method is a compile error in the host, not a fault at run
// time.
//
// A Table is a plain value (qualified name → *Native), so the builtin
// registry can generate it and a test can pass a smaller one.
//
// # Why a leaf package
//
// Natives live below the VM: the front end imports stdlib/core (the
// prelude) and stdlib/process (the SPAWN modes), and the front end must
// not depend on the VM (internal/archtest). So the natives' side of the
// host contract is declared here, and vm.Host embeds it.
package native

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/world"
)

// Host is what natives may ask of the runtime that calls them: the
// program's output and the Process operations that are ordinary calls.
// vm.Host embeds it; the scheduler's per-process host implements both.
// Every result is the value the Process operation returns to the
// program, or a fault (a checked fault, Exit to unwind the caller, or an
// internal error).
type Host interface {
	// Stdout is where print and println write. Each call of print or
	// println issues exactly one Write.
	Stdout() io.Writer

	// Monitor implements Process.monitor(id).
	Monitor(id value.Value) (value.Value, *fault.Fault)
	// Demonitor implements Process.demonitor(ref, DemonitorOptions(flush,
	// info)).
	Demonitor(ref value.Value, flush, info bool) (value.Value, *fault.Fault)
	// Link implements Process.link(id); linking a dead process exits the
	// caller (a fault.Exit) unless it traps exits.
	Link(id value.Value) (value.Value, *fault.Fault)
	// Unlink implements Process.unlink(id).
	Unlink(id value.Value) (value.Value, *fault.Fault)
	// TrapExit implements Process.trap_exit(on): the previous setting.
	TrapExit(on bool) (value.Value, *fault.Fault)
	// SignalExit implements Process.signal_exit(id, reason).
	SignalExit(id, reason value.Value) (value.Value, *fault.Fault)
	// Exit records reason as the running process's terminal reason for
	// Process.exit, which then unwinds with fault.Exit; a non-nil fault
	// refuses the reason (fault 9 for an oversized one).
	Exit(reason value.Value) *fault.Fault
	// SupervisedCurrent follows a Pid of a legacy supervised process to
	// its current incarnation: Ok(pid) or Err(3).
	SupervisedCurrent(pid value.Value) (value.Value, *fault.Fault)

	// Register implements Process.register(name, pid); key is the
	// run-time key of pid's mailbox type.
	Register(name string, pid value.Value, key string) (value.Value, *fault.Fault)
	// Whereis implements Process.whereis(name) at the mailbox type whose
	// run-time key is key: Some(pid) or None.
	Whereis(name, key string) (value.Value, *fault.Fault)
	// Unregister implements Process.unregister(name).
	Unregister(name string) (value.Value, *fault.Fault)
	// Supervise implements the Supervisor operations that start or talk
	// to a supervisor process, and Process.init_ack, init_ignore and
	// init_fail (docs/supervisors.md). An operation that must wait for the
	// supervisor returns fault.Park (see fault.Park): it is called again
	// with the same request when the caller resumes.
	Supervise(r *SupRequest) (value.Value, *fault.Fault)

	// The outside world (docs/io.md).

	// Stderr is where eprint and eprintln write (each call one Write;
	// stdout is flushed first, so the two streams stay in order).
	Stderr() io.Writer
	// World is the invocation's outside world: arguments, environment,
	// standard input and the socket limit (nil: none, for a detached
	// host).
	World() *world.World
	// Sockets is the set of sockets and listeners the running process
	// owns.
	Sockets() *world.Owned
	// SocketsOf is the socket set of the live process with ProcessId
	// id, or nil when it has ended (Net.transfer).
	SocketsOf(id value.Value) *world.Owned
	// Await runs op off the schedulers and parks only the running
	// process until op returns (docs/io.md): the first call starts op and
	// returns fault.Park; when the process resumes, the native runs
	// again and its Await returns op's result without running op. ctx is
	// cancelled when the process retires (it was killed), and op must
	// then return soon. In a deterministic run op runs at once, and so
	// it does when ready says that op will not wait (its data is at
	// hand), unless a wait is already open (then its result is taken).
	Await(ready bool, op func(ctx context.Context) value.Value) (value.Value, *fault.Fault)
	// Resume reports whether the running process has an outside
	// operation open (it was parked in Await and runs the native again):
	// then the native must return v and f at once, before any check of
	// its own, since the operation may have changed what it would check.
	Resume() (v value.Value, f *fault.Fault, open bool)
	// Halt implements System.exit: it flushes stdout and stderr and ends
	// the whole invocation with status (no other cleanup runs); the
	// native returns the fault it gives, which stops the caller.
	Halt(status int) *fault.Fault
	// Offload runs a long native's work off the schedulers, by the
	// mechanism of Await (one outside operation that computes instead of
	// waiting): the caller parks on the native call (fault.Park) while a
	// goroutine computes, and the native, called again when the caller
	// resumes, gets the result. A long native then never holds a
	// scheduler, so the processes queued there, its timers and a Kill of
	// the caller are not kept waiting. It returns the result with
	// handled = true once work has run, fault.Park (handled = true)
	// while it runs, or handled = false when the host computes in place
	// (no process runtime, a deterministic run, deferred cleanup, a
	// retiring caller): the native then runs work itself. Natives do not
	// call it themselves: Native.CallWork does, for a native with a Size
	// measure from OffloadMin on.
	Offload(work func() value.Value) (v value.Value, f *fault.Fault, handled bool)
}

// OffloadMin is the measure (Native.Size, in slots of value.SlotSize
// bytes) from which a long native runs off the schedulers when the host
// can (Host.Offload): a list of 65,536 Ints, 1 MiB of text. Below it the
// work takes well under a millisecond.
const OffloadMin = 1 << 16

// offloadMin is the threshold CallWork applies: OffloadMin, unless a
// test lowered it (SetOffloadMinForTest).
var offloadMin atomic.Int64

func init() { offloadMin.Store(OffloadMin) }

// SetOffloadMinForTest makes CallWork offload from measure n instead of
// OffloadMin until restore is called, so that a test can compare both
// ways of running a long native on many small inputs. Tests only.
func SetOffloadMinForTest(n int64) (restore func()) {
	old := offloadMin.Swap(n)
	return func() { offloadMin.Store(old) }
}

// Length is the default measure of a long native (Native.Size), one
// that works on the top level of its arguments: in slots, a list's
// elements, a map's or set's entries, a string's bytes (one slot per
// value.SlotSize, plus its own), one for anything else.
func Length(args []value.Value) int64 {
	var n int64
	for _, a := range args {
		switch a.Kind() {
		case value.KList:
			n += int64(len(a.AsList().Items))
		case value.KMap, value.KSet:
			n += int64(a.AsMap().Len())
		case value.KString:
			n += 1 + int64(len(a.AsString()))/value.SlotSize
		default:
			n++
		}
	}
	return n
}

// Logical is the measure of a long native that walks its arguments'
// contents (rendering, comparing, sorting): their logical size in slots
// (value.Value.Size, in O(1)).
func Logical(args []value.Value) int64 {
	var n int64
	for _, a := range args {
		n += a.Size() / value.SlotSize // at most 2^58 each: no overflow
	}
	return n
}

// SupOp names the operation of a SupRequest.
type SupOp uint8

const (
	SupStart SupOp = iota
	SupStartLink
	SupCurrent
	SupWhichChildren
	SupStartChild
	SupTerminateChild
	SupRestartChild
	SupDeleteChild
	SupStop
	InitAck
	InitIgnore
	InitFail
)

// SupRequest is one call of Host.Supervise, its arguments decoded by the
// native (stdlib/process).
type SupRequest struct {
	Op SupOp
	// Handle is the Supervisor.Handle's process identity (a ProcessId
	// value) for the operations on a running supervisor.
	Handle value.Value
	// Flags and Children: start and start_link (validated by the host).
	Flags    supervisor.Flags
	Children []supervisor.Spec
	// Name: current (the key's name), terminate_child, restart_child,
	// delete_child; Key: current's key token.
	Name string
	Key  uint64
	// Spec: start_child.
	Spec supervisor.Spec
	// Reason: init_fail.
	Reason value.Value
}

// KAny in Native.Args accepts a value of any kind.
const KAny value.Kind = 255

// Flags describe a native beyond its signature.
type Flags uint8

const (
	// ActorOnly: the native needs an actor context (docs/reference/actors.md#the-process-api,
	// "actor"); the checker refuses it in the root context. stdlib sets
	// it from the builtin registry's Context.
	ActorOnly Flags = 1 << iota
)

// Has reports whether every flag of g is set.
func (f Flags) Has(g Flags) bool { return f&g == g }

// Func is the body of a native whose cost does not depend on its
// arguments.
type Func func(h Host, args []value.Value) (value.Value, *fault.Fault)

// WorkFunc is the body of a native whose work grows with its arguments
// (comparing, sorting, rendering): it also returns the work done, in
// elements visited or bytes produced, which the VM charges as reductions
// (docs/reference/runtime.md#execution-model: no instruction does unbounded work without charging for
// it).
type WorkFunc func(h Host, args []value.Value) (value.Value, *fault.Fault, int64)

// Native is one Go function of the standard library.
type Native struct {
	Name  string       // qualified name, e.g. "List.len"
	Arity int          // exact number of arguments
	Args  []value.Kind // expected kind of each argument (KAny: anything)
	Flags Flags
	// Exactly one of Fn and FnWork is set.
	Fn     Func
	FnWork WorkFunc
	// Size, when set, makes the native long: its work can grow without
	// bound with its arguments, and Size measures it in O(1) before the
	// call (in slots, see OffloadMin). From OffloadMin on, CallWork runs
	// the body off the schedulers (Host.Offload), with a host that only
	// collects its output: a long native's body uses nothing of its Host
	// but Stdout and Stderr. The builtin registry marks the same natives
	// (builtins.Long).
	Size func(args []value.Value) int64
}

// Check reports a malformed native: no name, an Args table of the wrong
// length, or not exactly one body.
func (n *Native) Check() error {
	switch {
	case n == nil || n.Name == "":
		return fmt.Errorf("native without a name")
	case len(n.Args) != n.Arity:
		return fmt.Errorf("native %s has an Args table of the wrong length", n.Name)
	case (n.Fn == nil) == (n.FnWork == nil):
		return fmt.Errorf("native %s needs exactly one of Fn and FnWork", n.Name)
	}
	return nil
}

// Call checks the argument count and kinds, then runs the native. A
// mismatch (possible only for hand-made bytecode) and any Go panic inside
// the native become an internal-error fault instead of crashing the
// process.
func (n *Native) Call(h Host, args []value.Value) (value.Value, *fault.Fault) {
	res, f, _ := n.CallWork(h, args)
	return res, f
}

// CallWork is Call that also returns the native's work (0 for natives
// whose cost does not depend on their arguments).
func (n *Native) CallWork(h Host, args []value.Value) (res value.Value, f *fault.Fault, work int64) {
	if len(args) != n.Arity {
		return value.Unit, fault.Internalf("%s expects %d arguments, got %d", n.Name, n.Arity, len(args)), 0
	}
	for i, k := range n.Args {
		if k != KAny && args[i].Kind() != k {
			return value.Unit, fault.Internalf("%s argument %d: expected %s, found %s", n.Name, i+1, k, args[i].Kind()), 0
		}
	}
	defer func() {
		if r := recover(); r != nil {
			res, f, work = value.Unit, fault.Internalf("%s: %v", n.Name, r), 0
		}
	}()
	if n.Size != nil && n.Size(args) >= offloadMin.Load() {
		if res, f, work, handled := n.offload(h, args); handled {
			return res, f, work
		}
	}
	return n.body(h, args)
}

// body runs the native's Go function.
func (n *Native) body(h Host, args []value.Value) (value.Value, *fault.Fault, int64) {
	if n.FnWork != nil {
		return n.FnWork(h, args)
	}
	res, f := n.Fn(h, args)
	return res, f, 0
}

// offloaded is the outcome of a body run off the schedulers: what it
// returns and what it wrote, carried back to the caller as an opaque
// value through Host.Offload.
type offloaded struct {
	res            value.Value
	f              *fault.Fault
	work           int64
	stdout, stderr bytes.Buffer
}

// offload runs the body off the schedulers (Host.Offload). handled is
// false when the host computes in place. When the caller resumes, the
// body's output is written as it would have been in place: each of
// stdout and stderr in one Write.
func (n *Native) offload(h Host, args []value.Value) (res value.Value, f *fault.Fault, work int64, handled bool) {
	// The caller's args may be a view of its stack, which is not the
	// goroutine's to read once the caller is gone.
	args = slices.Clone(args)
	v, f, handled := h.Offload(func() value.Value {
		o := &offloaded{}
		func() {
			defer func() {
				if r := recover(); r != nil {
					o.res, o.f, o.work = value.Unit, fault.Internalf("%s: %v", n.Name, r), 0
				}
			}()
			o.res, o.f, o.work = n.body(outputOnly{o: o}, args)
		}()
		return value.Opaque(value.KOpaque, 0, o)
	})
	if !handled || f != nil {
		return value.Unit, f, 0, handled
	}
	o, ok := v.Ref().(*offloaded)
	if !ok {
		return value.Unit, fault.Internalf("%s: the offloaded call answered %s", n.Name, v.Kind()), 0, true
	}
	if o.stdout.Len() > 0 {
		_, _ = h.Stdout().Write(o.stdout.Bytes())
	}
	if o.stderr.Len() > 0 {
		_, _ = h.Stderr().Write(o.stderr.Bytes())
	}
	return o.res, o.f, o.work, true
}

// outputOnly is the Host of a body that runs off the schedulers: its
// output is kept for the caller to write; it runs no process operation
// (Detached's fault 11).
type outputOnly struct {
	Detached
	o *offloaded
}

func (h outputOnly) Stdout() io.Writer { return &h.o.stdout }
func (h outputOnly) Stderr() io.Writer { return &h.o.stderr }

// Table maps qualified names to the natives a program may call.
type Table map[string]*Native

// NewTable merges lists of natives into a Table. It refuses a malformed
// native and a name listed twice.
func NewTable(lists ...[]*Native) (Table, error) {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	t := make(Table, n)
	for _, l := range lists {
		for _, n := range l {
			if err := n.Check(); err != nil {
				return nil, err
			}
			if _, dup := t[n.Name]; dup {
				return nil, fmt.Errorf("native %s is listed twice", n.Name)
			}
			t[n.Name] = n
		}
	}
	return t, nil
}

// Lookup returns the native called name.
func (t Table) Lookup(name string) (*Native, bool) {
	n, ok := t[name]
	return n, ok
}

// Names returns the qualified names in t, sorted.
func (t Table) Names() []string {
	out := make([]string, 0, len(t))
	for name := range t {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Sorted returns the natives of t sorted by name.
func (t Table) Sorted() []*Native {
	out := make([]*Native, 0, len(t))
	for _, name := range t.Names() {
		out = append(out, t[name])
	}
	return out
}

// Detached is a Host for running natives outside any process (tests,
// tools): output goes to W (discarded when nil) and every Process
// operation is fault 11 (invalid actor execution descriptor:
// docs/reference/actors.md#fault-codes's infrastructure fault), since no process runs.
type Detached struct{ W io.Writer }

var _ Host = Detached{}

// Stdout returns W, or io.Discard.
func (d Detached) Stdout() io.Writer {
	if d.W == nil {
		return io.Discard
	}
	return d.W
}

func noProcess() *fault.Fault { return fault.New(fault.Descriptor) }

// Monitor is fault 11: no process runs.
func (Detached) Monitor(value.Value) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Demonitor is fault 11: no process runs.
func (Detached) Demonitor(value.Value, bool, bool) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Link is fault 11: no process runs.
func (Detached) Link(value.Value) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Unlink is fault 11: no process runs.
func (Detached) Unlink(value.Value) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// TrapExit is fault 11: no process runs.
func (Detached) TrapExit(bool) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// SignalExit is fault 11: no process runs.
func (Detached) SignalExit(value.Value, value.Value) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Exit is fault 11: no process runs.
func (Detached) Exit(value.Value) *fault.Fault { return noProcess() }

// SupervisedCurrent is fault 11: no process runs.
func (Detached) SupervisedCurrent(value.Value) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Register is fault 11: there is no process runtime.
func (Detached) Register(string, value.Value, string) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Whereis is fault 11: there is no process runtime.
func (Detached) Whereis(string, string) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Unregister is fault 11: there is no process runtime.
func (Detached) Unregister(string) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Supervise is fault 11: no process runs.
func (Detached) Supervise(*SupRequest) (value.Value, *fault.Fault) {
	return value.Unit, noProcess()
}

// Stderr returns W, or io.Discard.
func (d Detached) Stderr() io.Writer { return d.Stdout() }

// World is nil: a detached host has no outside world.
func (Detached) World() *world.World { return nil }

// Sockets is a fresh, empty set: no process owns anything.
func (Detached) Sockets() *world.Owned { return &world.Owned{} }

// SocketsOf is nil: no process runs.
func (Detached) SocketsOf(value.Value) *world.Owned { return nil }

// Await runs op at once.
func (Detached) Await(_ bool, op func(ctx context.Context) value.Value) (value.Value, *fault.Fault) {
	return op(context.Background()), nil
}

// Resume reports no open operation: Await never parks here.
func (Detached) Resume() (value.Value, *fault.Fault, bool) { return value.Unit, nil, false }

// Halt is fault 11: there is no invocation to end.
func (Detached) Halt(int) *fault.Fault { return noProcess() }

// Offload declines: without a process runtime the native computes in
// place.
func (Detached) Offload(func() value.Value) (value.Value, *fault.Fault, bool) {
	return value.Unit, nil, false
}
