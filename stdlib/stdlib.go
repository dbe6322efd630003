// Package stdlib assembles Morrow's standard library for the runtime: the
// one native table (runtime/native.Table) that the engine hands to
// vm.Load.
//
// The table is built from the builtin registry (stdlib/builtins): each
// entry implemented as a native is joined, by its qualified name, to the
// Go body registered under that name by stdlib/core (lists, strings,
// numbers, rendering, printing) or stdlib/process (the Process operations
// that are ordinary calls), and takes its flags from the entry. An entry
// without a body, a body without an entry, a body registered twice, a
// size measure on a native the registry does not mark long
// (builtins.Long; the long natives without one are measured by
// native.Length) and
// an arity that differs from the entry's signature are programming
// errors: the table is built once, by the first call of Natives (when
// the first program is loaded), and such an error panics there. The
// table is built from the registry's entries as declared
// (builtins.Entries): it needs no signature parsed, so a program run
// from bytecode never has the registry validated (its tests do that).
package stdlib

import (
	"fmt"
	"sync"

	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/stdlib/builtins"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
	"github.com/morrow-lang/morrow/stdlib/sys"
)

var natives = sync.OnceValue(func() native.Table {
	t, err := Build(builtins.Entries(), core.Natives(), process.Natives(), sys.Natives())
	if err != nil {
		panic("stdlib: " + err.Error())
	}
	return t
})

// Natives returns the standard library's native table, built on the first
// call. It is shared: callers must not modify it (a caller that wants
// another set builds its own with native.NewTable).
func Natives() native.Table { return natives() }

// Build joins the native entries of a registry with their bodies: the
// table holds one native per entry implemented as a native, a copy of
// its body with the entry's flags. It fails when an entry has no body, a
// body has no native entry, a name has two bodies, or a body's arity is
// not the entry's.
func Build(entries []*builtins.Entry, bodies ...[]*native.Native) (native.Table, error) {
	byName, err := native.NewTable(bodies...)
	if err != nil {
		return nil, err
	}
	var out []*native.Native
	for _, e := range entries {
		if e.Impl != builtins.ImplNative {
			if _, ok := byName[e.Name]; ok {
				return nil, fmt.Errorf("%s has a Go body but the registry implements it as %s", e.Name, e.Impl)
			}
			continue
		}
		body, ok := byName[e.Name]
		if !ok {
			return nil, fmt.Errorf("the registry's native %s has no Go body", e.Name)
		}
		if body.Arity != e.NativeArity() {
			return nil, fmt.Errorf("%s: the Go body takes %d arguments, the signature %d", e.Name, body.Arity, e.NativeArity())
		}
		n := *body
		n.Flags = 0
		switch {
		case e.Has(builtins.Long) && n.Size == nil:
			n.Size = native.Length
		case !e.Has(builtins.Long) && n.Size != nil:
			return nil, fmt.Errorf("%s has a size measure but the registry does not mark it long", e.Name)
		}
		if e.Context == builtins.ActorOnly {
			n.Flags |= native.ActorOnly
		}
		out = append(out, &n)
		delete(byName, e.Name)
	}
	if left := byName.Names(); len(left) > 0 {
		return nil, fmt.Errorf("the Go body %s has no entry in the registry", left[0])
	}
	return native.NewTable(out)
}
