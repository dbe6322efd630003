// Package vm is Morrow's bytecode interpreter.
//
// # Model
//
// A running Morrow computation (the root context or a process) is a
// *State: a heap object holding the call frames, one contiguous value
// stack and the pending fault, never anything on the Go stack between
// calls. Run executes a State for a budget of steps and returns an
// Outcome: Yield (budget spent; call Run again to continue), Done (the
// entry function returned a value), Fault (a checked runtime fault, with
// code, message, Morrow source line and a backtrace of function names), or
// Park (waiting on a mailbox or timer; see actor.go). A new State's
// value stack starts at what its entry function needs and grows on
// calls, so a parked process stays small; a State that recursed deeply
// shrinks its arrays again when a Run stops with it shallow (stack.go).
// Because the whole state is on the heap, a scheduler can interleave many
// States on few goroutines.
//
// # Frames and the value stack
//
// Every frame owns a window of the shared value stack: Locals slots
// starting at base (the caller's pushed arguments become locals
// 0..Params-1 in place, with no copy) followed by its operand stack, at
// most MaxStack values deep (the verifier guarantees the bound, so the
// stack is grown only on calls). A frame records retSP, the caller's stack
// top to restore when it returns (base for CALL, base-1 for CALL_VALUE,
// which also pops the function value).
//
// # Returns, defers and faults
//
// A frame is in one of three modes. Normal frames execute instructions.
// RETURN in a frame with registered defers saves the result, switches the
// frame to "returning" and calls the most recently registered defer as an
// ordinary Morrow call; when that call returns to a returning frame its
// result is discarded and the next defer runs, until none is left and the
// saved result goes to the caller. A fault (division by zero, a native's
// fault, an internal error) records the first fault, switches every frame
// to "unwinding" and then, one step at a time, drops the top frame's
// operand stack, runs its remaining defers (LIFO) and pops it, until no
// frame is left and Run returns the Fault outcome. A defer that faults
// while unwinding keeps the first fault and unwinding continues, so
// cleanup runs on every exit path exactly once (docs/reference/actors.md#cleanup-in-processes). Defer
// calls are Morrow calls executed by the same loop, so cleanup is also
// preemptible and resumable.
//
// Tail calls (TAIL_CALL, TAIL_CALL_VALUE) reuse the current frame; the
// verifier forbids them in functions with defers, so no cleanup is lost.
//
// # Loading
//
// Load takes a verified program (bytecode.Verified: the compiler or the
// .mrb loader verified it, once), resolves its natives by qualified name
// against the native.Table its caller passes (the engine's is the
// standard library's, stdlib.Natives), refusing unknown names and wrong
// arities, precomputes the function values of FUNC and NATIVE and the
// shared values of payload-free variants, and rewrites each function's
// code with fused instructions for the commonest sequences (fuse.go). The
// rewrite keeps pcs, results and step counts identical to the original
// code.
//
// # Safety
//
// The verifier (runtime/bytecode.Verify) checks operand ranges and stack
// depths, so the interpreter does not re-check them. The dynamic tags of
// values cannot be verified statically: operations on the wrong kinds
// (possible only in hand-made bytecode) raise an internal-error fault. As
// a last resort Run recovers Go panics and turns them into internal-error
// faults, so no program can crash the host process.
//
// # The world
//
// The VM reaches the outside world only through Host (host.go), one
// interface with every operation it or a native may ask of the runtime:
// output, the Process operations behind natives, the receive cursor and
// its timer, spawn, send and self. Faults are runtime/fault's one Fault
// type, whose table holds every code and text.
package vm

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Limits of one State.
const (
	// DefaultMaxDepth is the default limit on nested (non-tail) calls;
	// exceeding it is fault 9 (fault.Resource).
	DefaultMaxDepth = 1 << 19
	// MaxDefers is the limit on registered cleanup entries (see
	// docs/reference/actors.md#limits: 4,096 cleanup entries per actor); exceeding it is fault 9.
	MaxDefers = 4096
	// DefaultMaxStackSlots bounds the value stack of one State (locals
	// and operands of every active frame, 16 bytes each: 128 MiB); a call
	// that would exceed it is fault 9, so hostile bytecode with huge
	// frames cannot exhaust memory by recursing.
	DefaultMaxStackSlots = 1 << 23
)

// Image is a loaded program: a verified bytecode.Program with its natives
// resolved and some per-program values precomputed. An Image is immutable
// and may be shared by any number of States, concurrently.
type Image struct {
	Prog *bytecode.Program
	// timeoutLimit, when not 0, replaces MaxTimeout as the largest
	// receive or call timeout (SetTimeoutLimit).
	timeoutLimit int64
	// fns are the functions the interpreter runs: Prog.Functions with
	// their internal code (fuse.go).
	fns     []*function
	natives []*native.Native
	// types is the program's type table with the Process.* types replaced
	// by the runtime's descriptors.
	types []*value.TypeInfo
	// funcVals[i] is the capture-free closure of function i (FUNC).
	funcVals []value.Value
	// nativeVals[i] is native i as a function value (NATIVE).
	nativeVals []value.Value
	// nullary[t][v] is the shared value of payload-free variant v of type
	// t (DATA with no fields allocates nothing).
	nullary [][]value.Value
}

// Load resolves the natives of a verified program against natives and
// prepares the program for running. It refuses a program that names a
// native that natives does not have, or calls a native with the wrong
// number of arguments.
func Load(v *bytecode.Verified, natives native.Table) (*Image, error) {
	p := v.Program()
	img := &Image{Prog: p}
	img.natives = make([]*native.Native, len(p.Natives))
	img.nativeVals = make([]value.Value, len(p.Natives))
	for i, name := range p.Natives {
		n, ok := natives.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("program uses unknown native %q", name)
		}
		img.natives[i] = n
		img.nativeVals[i] = value.NewNative(i, name)
	}
	for fi, f := range p.Functions {
		for pc, in := range f.Code {
			if in.Op == bytecode.CALL_NATIVE {
				if n := img.natives[in.A]; int(in.B) != n.Arity {
					return nil, fmt.Errorf("function %d (%s) pc %d: native %s takes %d arguments, called with %d", fi, f.Name, pc, n.Name, n.Arity, in.B)
				}
			}
		}
	}
	img.fns = functions(p)
	img.funcVals = make([]value.Value, len(p.Functions))
	for i := range p.Functions {
		img.funcVals[i] = value.NewClosure(i, nil)
	}
	// The Process.* types are the runtime's own descriptors (the verifier
	// checked that the program's copies are identical), so values the
	// program builds and values the runtime builds share one descriptor.
	img.types = make([]*value.TypeInfo, len(p.Types))
	for i, t := range p.Types {
		if rt := ptype.TypeByName(t.Name); rt != nil {
			t = rt
		}
		img.types[i] = t
	}
	img.nullary = make([][]value.Value, len(p.Types))
	for ti, t := range img.types {
		img.nullary[ti] = make([]value.Value, len(t.Variants))
		for vi, v := range t.Variants {
			if len(v.Fields) == 0 {
				img.nullary[ti][vi] = value.NewData(t, vi)
			}
		}
	}
	return img, nil
}

// function is a function of the program as the interpreter runs it: the
// program's own function (its Code is what the general path executes and
// what faults point into) with the internal code of the fast loop.
type function struct {
	*bytecode.Function
	code   []instr // Code with fused instructions and resolved callees (fuse.go)
	locals int     // Locals, here to save the fast loop's calls an indirection
	need   int     // Locals + MaxStack: the stack slots a call needs
}

// functions returns the interpreter's functions for p's, with their
// internal code.
func functions(p *bytecode.Program) []*function {
	fs := p.Functions
	fns := make([]*function, len(fs))
	for i, f := range fs {
		fns[i] = &function{Function: f, locals: f.Locals, need: f.Locals + f.MaxStack}
	}
	for _, f := range fns {
		f.code = fuse(f.Code, fns, p)
	}
	return fns
}

// Native returns the resolved native with index i of the program's native
// table.
func (img *Image) Native(i int) *native.Native { return img.natives[i] }

// Status says how a call of Run ended.
type Status uint8

// Run statuses.
const (
	// StatusYield: the step budget was spent; Run may be called again.
	StatusYield Status = iota
	// StatusDone: the entry function returned Outcome.Value.
	StatusDone
	// StatusFault: a runtime fault ended the computation after its
	// cleanup ran; Outcome.Fault describes it.
	StatusFault
	// StatusPark: the computation waits for a message or a timer (a
	// receive); Run may be called again once the host has something for
	// it.
	StatusPark
)

var statusNames = [...]string{"yield", "done", "fault", "park"}

// String returns the status name.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Outcome is the result of one call of Run.
type Outcome struct {
	Status Status
	Value  value.Value  // StatusDone: the returned value
	Fault  *fault.Fault // StatusFault
	Steps  int          // steps executed by this call
}

// frameMode is what a frame is doing (see the package comment).
type frameMode uint8

const (
	modeNormal    frameMode = iota // executing instructions
	modeReturning                  // RETURN ran; running defers, then returning ret
	modeUnwinding                  // a fault is unwinding; running defers, then popping
)

// frame is one activation. It lives in State.frames, never on the Go
// stack, and is kept small because every call pushes one.
type frame struct {
	fn    *function
	pc    int // next instruction to execute
	base  int // first local slot in State.stack
	retSP int // caller's stack top to restore on return
	free  []value.Value
	cl    *cleanup // registered defers; nil until the first DEFER
	mode  frameMode
	// slowRet says that the frame's return needs the general path: the
	// bottom frame (its return ends the computation), the frame of a
	// defer body (its caller is running cleanup) and a frame that has
	// registered a defer (cl set). It is all the fast return has to
	// check.
	slowRet bool
}

// The frame slots above the top of State.frames (up to its capacity)
// are kept with no defers, no captured values, mode normal and slowRet
// false by every pop, so the fast loop's push writes only fn, pc, base,
// retSP (and free for a closure).

// cleanup holds a frame's registered defers (LIFO) and, while the frame
// is returning, the value it will return once they have run.
type cleanup struct {
	defers []value.Value
	ret    value.Value
}

func (fr *frame) hasDefers() bool { return fr.cl != nil && len(fr.cl.defers) > 0 }

// State is the complete, resumable execution state of one computation.
type State struct {
	img    *Image
	frames []frame
	stack  []value.Value
	sp     int // stack top: stack[sp] is the first free slot

	fault    *fault.Fault // the first fault, while unwinding
	finished bool
	final    Outcome // the terminal outcome once finished

	defers int   // registered cleanup entries not yet run
	steps  int64 // total steps executed
	limit  int64 // the step count at which the current Run's budget is spent

	// generalOnly makes run execute every instruction with step, never
	// the fast loop (tests compare the two).
	generalOnly bool
	maxDepth    int
	maxSlots    int

	budget  *StackBudget // shared stack budget (stack.go), or nil
	charged int64        // bytes of stack memory st holds
	// frameCap is the capacity of the frame table's array: cap(frames)
	// may be cut to the depth limit, the memory held is not.
	frameCap int

	// preempt is set by Preempt: the Run in progress returns StatusYield
	// after the actor operation or native call that asked for it.
	preempt bool

	// host is the Host of the Run in progress: the fast loop runs the
	// common actor instructions through it (actorFromLoop).
	host Host
	// exit says why exec returned true after an actor instruction it
	// ran stopped the loop (exitYield is also the budget's yield).
	exit uint8
}

// EntryName returns the name of the function st was started with ("" once
// it has returned).
func (st *State) EntryName() string {
	if len(st.frames) == 0 {
		return ""
	}
	return st.frames[0].fn.Name
}

// Image returns the program st runs.
func (st *State) Image() *Image { return st.img }

// NewState prepares a State that calls function fn of img with args.
func NewState(img *Image, fn int, args []value.Value) (*State, error) {
	if img == nil || fn < 0 || fn >= len(img.fns) {
		return nil, fmt.Errorf("vm: no function %d", fn)
	}
	f := img.fns[fn]
	if f.Captures != 0 {
		return nil, fmt.Errorf("vm: function %s needs captured values", f.Name)
	}
	return newState(img, fn, nil, args)
}

// NewClosureState prepares a State that calls the closure f with args;
// the host's Spawn uses it for a process's entry.
func NewClosureState(img *Image, f value.Value, args []value.Value) (*State, error) {
	c, ok := f.Closure()
	if f.Kind() != value.KFunc || !ok || c.Fn < 0 || c.Fn >= len(img.fns) {
		return nil, fmt.Errorf("vm: entry is not a compiled closure")
	}
	if len(c.Free) != img.fns[c.Fn].Captures {
		return nil, fmt.Errorf("vm: closure has %d captured values, want %d", len(c.Free), img.fns[c.Fn].Captures)
	}
	return newState(img, c.Fn, c.Free, args)
}

func newState(img *Image, fn int, free, args []value.Value) (*State, error) {
	f := img.fns[fn]
	if len(args) != f.Params {
		return nil, fmt.Errorf("vm: %s takes %d arguments, got %d", f.Name, f.Params, len(args))
	}
	// Start with exactly what the entry function needs (a parked process
	// should cost little memory); ensure doubles the stack when a call
	// needs more.
	size := max(f.Locals+f.MaxStack, 1)
	st := &State{img: img, stack: allocSlots(size), maxDepth: DefaultMaxDepth, maxSlots: DefaultMaxStackSlots}
	copy(st.stack, args)
	st.frames = append(allocFrames(1), frame{fn: f, free: free, slowRet: true})
	st.frameCap = cap(st.frames)
	st.charged = int64(len(st.stack))*slotBytes + int64(st.frameCap)*frameBytes
	st.sp = f.Locals
	return st, nil
}

// SetMaxDepth changes the limit on nested calls (at least 1).
func (st *State) SetMaxDepth(n int) {
	if n < 1 {
		n = 1
	}
	st.maxDepth = n
	// The frame table never has more room than the depth limit, so the
	// fast loop's room check is also the depth check.
	if k := len(st.frames); cap(st.frames) > max(k, n) {
		st.frames = st.frames[:k:max(k, n)]
	}
}

// SetMaxStackSlots changes the limit on value-stack slots (at least
// 1,024).
func (st *State) SetMaxStackSlots(n int) {
	if n < 1024 {
		n = 1024
	}
	st.maxSlots = n
}

// Preempt asks the Run in progress to return StatusYield after the
// operation being executed, an actor operation (send, spawn, a receive
// taking a message) or a native call (print, the Process operations):
// the host calls it from inside that operation. A deterministic
// scheduler uses it to end a turn at a point its policy chose
// (runtime/sched, Policy.Preempt). Run clears a request left from an
// earlier turn when it starts.
func (st *State) Preempt() { st.preempt = true }

// Steps returns the total number of steps the State has executed.
func (st *State) Steps() int64 { return st.steps }

// Finished reports whether the computation has ended (done or faulted).
func (st *State) Finished() bool { return st.finished }

// Depth returns the number of active frames.
func (st *State) Depth() int { return len(st.frames) }

// Abort starts unwinding the computation with fault f, as if it had
// faulted at its current instruction: every active frame's cleanup still
// runs (the scheduler uses it when the run is cancelled; terminal exit
// signals use AbortAfterCleanup). If a fault is already unwinding, the
// first one is kept. The next Run calls perform the unwinding.
func (st *State) Abort(f *fault.Fault) {
	if st.finished || f == nil {
		return
	}
	st.raise(f)
}
