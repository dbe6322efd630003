package types_test

import (
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// TestOpcodeBuiltinsAreNotValues: exactly the builtins that code
// generation compiles to instructions or passes a hidden mailbox key (and
// so cannot load as a function value) are rejected as values by the checker (E3046); they used to pass
// the checker and fail in code generation with an internal error.
func TestOpcodeBuiltinsAreNotValues(t *testing.T) {
	for _, name := range types.BuiltinNames() {
		_, _, d := check(t, "fn main():\n    let f = "+name+"\n    println(1)\n")
		got := false
		for _, x := range d {
			if x.Code == types.ErrBuiltinValue {
				got = true
			}
		}
		opcode := builtins.Lookup(name).CallOnly()
		if got != opcode {
			t.Errorf("%s as a value: E3046 reported %v, want %v (%v)", name, got, opcode, codes(d))
		}
	}
}
