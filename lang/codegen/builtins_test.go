package codegen

import (
	"testing"

	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// TestEveryBuiltinCompiles: the code generator can compile a call of
// every builtin of the registry (stdlib/builtins): a prelude builtin
// resolves to its prelude function, an instruction builtin has its
// lowering, and a native is neither; and it lowers nothing the registry
// lacks.
func TestEveryBuiltinCompiles(t *testing.T) {
	c := newCompiler("t")
	used := map[builtins.Lowering]bool{}
	for _, e := range builtins.All() {
		_, prelude := preludeFunction(e.Name)
		_, lowered := lowerings[e.Lower]
		switch e.Impl {
		case builtins.ImplPrelude:
			if _, ok, err := c.preludeFunc(e.Name); !ok || err != nil {
				t.Errorf("%s: no prelude function %s (%v)", e.Name, e.PreludeFn, err)
			}
		case builtins.ImplOpcode:
			if !lowered {
				t.Errorf("%s: no lowering %d", e.Name, e.Lower)
			}
			used[e.Lower] = true
		case builtins.ImplNative:
			if prelude || e.Lower != builtins.LowerNone {
				t.Errorf("%s: a native compiled as a prelude function or instructions", e.Name)
			}
		}
	}
	for l := range lowerings {
		if !used[l] {
			t.Errorf("lowering %d is used by no builtin of the registry", l)
		}
	}
}
