// Package core is Morrow's core standard library: the Go natives behind
// `print`, `show`, `List.*`, `String.*`, `Int.*`, `Option.*` and `Result.*`,
// the rendering, equality, ordering and copying rules every other part of
// the runtime shares, and the Morrow-source prelude that implements the
// higher-order library functions.
//
// # Data flow
//
// The code generator turns a call of a first-order library function
// (`List.len(xs)`) into a native call by qualified name. The builtin
// registry (stdlib/builtins) declares each one, with its signature; this
// package holds the bodies, registered under the same names and
// following runtime/native's calling convention. stdlib joins the
// registry's entries with these bodies and stdlib/process's into the one
// table vm.Load resolves each name against once (stdlib.Natives), so a
// program naming an unknown native is refused before it runs, and the VM
// then calls (*native.Native).Call with the evaluated arguments. A native
// returns either a result value or a *fault.Fault, a checked runtime
// fault with one of the numbered codes of runtime/fault's table; the VM
// turns that into `morrow: runtime error: <text>`.
//
// Higher-order functions (`List.map`, `List.sort_by`, `Option.map`, ...)
// call back into Morrow closures. A Go native cannot do that without holding
// a Morrow call on the Go stack, which would stop a process from parking or
// being preempted, so they are Morrow code in prelude.mr (see Prelude; the
// builtin registry, stdlib/builtins, says which builtin each prelude
// function implements), built only from the first-order natives below.
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
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Limits enforced by the natives.
const (
	// MaxStringBytes is the 16 MiB string size limit (fault 5).
	MaxStringBytes = 16 << 20
	// MaxListLen is the 2^24 element limit of List.range and List.zip.
	MaxListLen = 1 << 24
)

var registry = native.Table{}

// register adds natives at package initialisation; a malformed native or
// a duplicate name is a programming error.
func register(ns ...*native.Native) {
	for _, n := range ns {
		if err := n.Check(); err != nil {
			panic("core: " + err.Error())
		}
		if _, dup := registry[n.Name]; dup {
			panic("core: native registered twice: " + n.Name)
		}
		n.Size = measures[n.Name]
		registry[n.Name] = n
	}
}

// fn builds a Native from a name, argument kinds and a body.
func fn(name string, args []value.Kind, body native.Func) *native.Native {
	return &native.Native{Name: name, Arity: len(args), Args: args, Fn: body}
}

// fnWork builds a Native whose body reports its work (Native.FnWork).
func fnWork(name string, args []value.Kind, body native.WorkFunc) *native.Native {
	return &native.Native{Name: name, Arity: len(args), Args: args, FnWork: body}
}

// kinds is shorthand for an argument kind list.
func kinds(ks ...value.Kind) []value.Kind { return ks }

// Natives returns the bodies of the core natives, sorted by name: stdlib
// joins them with the registry's entries into the table vm.Load resolves
// against.
func Natives() []*native.Native {
	return registry.Sorted()
}

// Lookup returns the core native with the given qualified name.
func Lookup(name string) (*native.Native, bool) { return registry.Lookup(name) }

// Names returns the qualified names of all core natives, sorted.
func Names() []string { return registry.Names() }
