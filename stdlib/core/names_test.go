package core_test

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// actorBuiltin reports whether a checker builtin belongs to the process
// runtime (stdlib/process and the actor opcodes) rather than to core.
func actorBuiltin(name string) bool {
	switch name {
	case "send", "spawn", "supervise", "supervised_current":
		return true
	}
	return strings.HasPrefix(name, "Process.")
}

// TestCheckerAndRuntimeAgree checks that the checker's builtin table and
// the core library (natives plus prelude functions) name the same
// functions, so every call the checker accepts has an implementation.
func TestCheckerAndRuntimeAgree(t *testing.T) {
	checker := map[string]bool{}
	for _, name := range types.BuiltinNames() {
		checker[name] = true
	}
	lib := map[string]bool{}
	for _, name := range core.LibraryNames() {
		lib[name] = true
		if !checker[name] {
			t.Errorf("core implements %s, which the checker does not know", name)
		}
	}
	for name := range checker {
		if !lib[name] && !actorBuiltin(name) {
			t.Errorf("the checker accepts %s, which core does not implement", name)
		}
	}
}
