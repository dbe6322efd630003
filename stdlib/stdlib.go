// Package stdlib assembles Morrow's standard library for the runtime: the
// one native table (runtime/native.Table) that the engine hands to
// vm.Load, merged from the packages that implement the natives
// (stdlib/core: lists, strings, numbers, rendering, printing;
// stdlib/process: the Process operations that are ordinary calls).
//
// The table is built once, when the package is initialised; a name
// provided twice is a programming error and panics at start-up.
package stdlib

import (
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

var natives = func() native.Table {
	t, err := native.NewTable(core.Natives(), process.Natives())
	if err != nil {
		panic("stdlib: " + err.Error())
	}
	return t
}()

// Natives returns the standard library's native table. It is shared:
// callers must not modify it (a caller that wants another set builds its
// own with native.NewTable).
func Natives() native.Table { return natives }
