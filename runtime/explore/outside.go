package explore

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Unreplayable returns the first builtin that p calls whose results come
// from outside the program (System.read_line, http, Net: the registry's
// Unreplayable flag), or "" when there is none. Exploring or replaying
// such a program would not reproduce its runs (docs/io.md), so `morrow
// run --explore` and `--replay` refuse it; files and the clock are
// allowed.
func Unreplayable(p *bytecode.Program) string {
	for _, name := range p.Natives {
		if e := builtins.Lookup(name); e != nil && e.Has(builtins.Unreplayable) {
			return name
		}
	}
	return ""
}

// Refusal is the one line a tool writes when it refuses to explore or
// replay a program that calls name.
func Refusal(tool, name string) string {
	return fmt.Sprintf("morrow: %s cannot run a program that uses %s: its results come from outside the program and cannot be replayed", tool, name)
}
