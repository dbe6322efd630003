// Package core is Morrow's core standard library: the Go natives behind
// `print`, `show`, `List.*`, `String.*`, `Int.*`, `Option.*` and `Result.*`,
// the rendering, equality, ordering and copying rules every other part of
// the runtime shares, and the Morrow-source prelude that implements the
// higher-order library functions.
//
// # Data flow
//
// The code generator turns a call of a first-order library function
// (`List.len(xs)`) into a native call by qualified name. The loader resolves
// each name once with Lookup, so a program naming an unknown native is
// refused before it runs, and the VM then calls (*Native).Call with the
// evaluated arguments. A native returns either a result value or a *Fault,
// a checked runtime fault with one of the numbered codes of LANGUAGE.md
// §6.6; the VM turns that into `morrow: runtime error: <text>`.
//
// Higher-order functions (`List.map`, `List.sort_by`, `Option.map`, ...)
// call back into Morrow closures. A Go native cannot do that without holding
// a Morrow call on the Go stack, which would stop a process from parking or
// being preempted, so they are Morrow code in prelude.mr (see Prelude and
// PreludeFuncs), built only from the first-order natives below.
//
// # Values
//
// Natives work on runtime/value values and never mutate their inputs: every
// list operation returns a new list or an immutable window on the input.
// List.push and List.concat are amortised O(1) per element
// (value.List.Append claims spare capacity with an atomic compare-and-swap,
// so a list shared by processes stays safe to extend). Every native that
// can build a list longer than its input enforces the 2^24 element limit
// (fault 15), and every native that builds a string the 16 MiB limit
// (fault 5; fault 14 for rendering).
//
// # Rendering and comparison
//
// Display is what print writes and what string interpolation inserts; Show
// is the `show` text (strings quoted, floats in C `%.17g` style);
// RenderShow and RenderDisplay add the 16 MiB rendering limit (fault 14).
// Equal is structural equality with IEEE semantics for floats (it is `==`);
// Compare is the total order used by List.sort and `compare`, with floats
// in IEEE total order. All of them walk values with an explicit stack of
// open sequences (one entry per level of nesting) instead of Go recursion:
// a Morrow loop can build a value nested millions of levels deep, and
// overflowing the Go stack is a fatal error that recover cannot catch.
// Values may share structure (a message is shared with its receiver, and
// a program can build a DAG whose unfolding is astronomically large):
// Equal and Compare remember large node pairs already compared, so their
// work is proportional to distinct nodes, rendering stops at its 16 MiB
// limit, and the natives report their work (Native.FnWork) so the VM
// charges it as reductions.
package core

import (
	"fmt"
	"io"
	"sort"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Ctx is what natives need from the VM host that calls them.
type Ctx interface {
	// Stdout is where print and println write. Each call of print or
	// println issues exactly one Write.
	Stdout() io.Writer
}

// Fault is a checked runtime fault raised by a native. Code is one of the
// numbered codes of LANGUAGE.md §6.6 (or FaultListSize, this project's
// choice for the list size limit); Msg is the text printed after
// `morrow: runtime error: `.
type Fault struct {
	Code int
	Msg  string
}

// Error makes a Fault usable as a Go error.
func (f *Fault) Error() string { return f.Msg }

// Numbered fault codes raised by the core natives (LANGUAGE.md §6.6).
const (
	// FaultInternal is not a Morrow fault code: it marks a native called
	// with arguments that a checked program can never produce (wrong arity
	// or value kind, which only hand-made bytecode can cause). The VM
	// should report it as an internal error.
	FaultInternal   = 0
	FaultDivZero    = 1  // integer division by zero
	FaultNegExp     = 2  // negative integer exponent
	FaultIndex      = 3  // list index out of bounds
	FaultEmptyHead  = 4  // head of empty list
	FaultStringSize = 5  // string size limit exceeded
	FaultSliceUTF8  = 6  // String.slice indices must be UTF-8 character boundaries
	FaultSplitUTF8  = 7  // String.split requires valid UTF-8 input
	FaultRenderSize = 14 // terminal rendering exceeds 16 MiB
	FaultListSize   = 15 // list size limit exceeded (this project's choice; docs/stdlib.md)
)

// FaultText maps each numbered fault code that core raises (and the other
// codes of LANGUAGE.md §6.6) to its message text.
var FaultText = map[int]string{
	1:  "integer division by zero",
	2:  "negative integer exponent",
	3:  "list index out of bounds",
	4:  "head of empty list",
	5:  "string size limit exceeded",
	6:  "String.slice indices must be UTF-8 character boundaries",
	7:  "String.split requires valid UTF-8 input",
	8:  "actor timeout must be between 0 and 600000 milliseconds",
	9:  "actor resource limit exceeded",
	10: "actor deadlock: no runnable actor or pending timeout",
	11: "invalid actor execution descriptor",
	12: "actor monotonic clock failure",
	13: "regex replacement exceeds 16 MiB",
	14: "terminal rendering exceeds 16 MiB",
	15: "list size limit exceeded",
}

// NewFault returns the fault with the given numbered code and its standard
// text.
func NewFault(code int) *Fault {
	return &Fault{Code: code, Msg: FaultText[code]}
}

// Limits enforced by the natives.
const (
	// MaxStringBytes is the 16 MiB string size limit (fault 5).
	MaxStringBytes = 16 << 20
	// MaxListLen is the 2^24 element limit of List.range and List.zip.
	MaxListLen = 1 << 24
)

// KAny in Native.Args accepts a value of any kind.
const KAny value.Kind = 255

// Native is one Go function of the standard library.
type Native struct {
	Name  string       // qualified name, e.g. "List.len"
	Arity int          // exact number of arguments
	Args  []value.Kind // expected kind of each argument (KAny: anything)
	Fn    func(ctx Ctx, args []value.Value) (value.Value, *Fault)
	// FnWork replaces Fn for a native whose work grows with its
	// arguments (comparing, sorting, rendering): it also returns the work
	// done, in elements visited or bytes produced, which the VM charges
	// as reductions (RUNTIME.md §1: no instruction does unbounded work
	// without charging for it).
	FnWork func(ctx Ctx, args []value.Value) (value.Value, *Fault, int64)
}

// Call checks the argument count and kinds, then runs the native. A
// mismatch (possible only for hand-made bytecode) and any Go panic inside
// the native become a FaultInternal fault instead of crashing the process.
func (n *Native) Call(ctx Ctx, args []value.Value) (value.Value, *Fault) {
	res, f, _ := n.CallWork(ctx, args)
	return res, f
}

// CallWork is Call that also returns the native's work (0 for natives
// whose cost does not depend on their arguments).
func (n *Native) CallWork(ctx Ctx, args []value.Value) (res value.Value, fault *Fault, work int64) {
	if len(args) != n.Arity {
		return value.Unit, internalf("%s expects %d arguments, got %d", n.Name, n.Arity, len(args)), 0
	}
	for i, k := range n.Args {
		if k != KAny && args[i].K != k {
			return value.Unit, internalf("%s argument %d: expected %s, found %s", n.Name, i+1, k, args[i].K), 0
		}
	}
	defer func() {
		if r := recover(); r != nil {
			res, fault, work = value.Unit, internalf("%s: %v", n.Name, r), 0
		}
	}()
	if n.FnWork != nil {
		return n.FnWork(ctx, args)
	}
	res, fault = n.Fn(ctx, args)
	return res, fault, 0
}

func internalf(format string, args ...any) *Fault {
	return &Fault{Code: FaultInternal, Msg: "internal error: " + fmt.Sprintf(format, args...)}
}

var registry = map[string]*Native{}

// register adds natives at package initialisation; a duplicate name or an
// Args table of the wrong length is a programming error.
func register(ns ...*Native) {
	for _, n := range ns {
		if _, dup := registry[n.Name]; dup {
			panic("core: native registered twice: " + n.Name)
		}
		if len(n.Args) != n.Arity {
			panic("core: native " + n.Name + " has an Args table of the wrong length")
		}
		if (n.Fn == nil) == (n.FnWork == nil) {
			panic("core: native " + n.Name + " needs exactly one of Fn and FnWork")
		}
		registry[n.Name] = n
	}
}

// fn builds a Native from a name, argument kinds and a body.
func fn(name string, args []value.Kind, body func(ctx Ctx, args []value.Value) (value.Value, *Fault)) *Native {
	return &Native{Name: name, Arity: len(args), Args: args, Fn: body}
}

// fnWork builds a Native whose body reports its work (Native.FnWork).
func fnWork(name string, args []value.Kind, body func(ctx Ctx, args []value.Value) (value.Value, *Fault, int64)) *Native {
	return &Native{Name: name, Arity: len(args), Args: args, FnWork: body}
}

// kinds is shorthand for an argument kind list.
func kinds(ks ...value.Kind) []value.Kind { return ks }

// Lookup returns the native with the given qualified name.
func Lookup(name string) (*Native, bool) {
	n, ok := registry[name]
	return n, ok
}

// Names returns the qualified names of all natives, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for name := range registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// LibraryNames returns every library function name the core provides: the
// natives and the prelude functions (PreludeFuncs keys), sorted. This is
// the set the checker's builtin table should match.
func LibraryNames() []string {
	out := Names()
	for name := range PreludeFuncs {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}
