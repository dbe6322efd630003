package bytecode_test

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// TestHostileMapsRefused: a map or set is built only by the Map and Set
// natives, never read from a .mrb file: a program whose constant pool
// holds one is refused by the decoder and by the verifier, and a kind
// test may name the Map and Set kinds but nothing past them.
func TestHostileMapsRefused(t *testing.T) {
	for _, forged := range []value.Value{value.EmptyMap(false), value.EmptyMap(true)} {
		p := assemble(t, samplePrograms[0])
		p.Consts = append(p.Consts, forged)
		if err := bytecode.Verify(p); err == nil || !strings.Contains(err.Error(), "constant") {
			t.Errorf("verify of a %s constant: %v", forged.Kind(), err)
		}
		if _, err := bytecode.Decode(bytecode.Encode(p)); err == nil || !strings.Contains(err.Error(), "constant") {
			t.Errorf("decode of a %s constant: %v", forged.Kind(), err)
		}
	}
	for k, ok := range map[value.Kind]bool{value.KMap: true, value.KSet: true, value.KSet + 1: false} {
		err := tamper(t, samplePrograms[0], func(p *bytecode.Program) {
			c := p.Functions[0].Code
			// INT 2 ; INT 3 (two pushes) become INT 2 ; TEST_KIND k.
			for i := range c {
				if c[i].Op == bytecode.INT && c[i].A == 3 {
					c[i] = bytecode.Instr{Op: bytecode.TEST_KIND, A: int32(k)}
					c[i+1] = bytecode.Instr{Op: bytecode.INT, A: 2}
					break
				}
			}
		})
		if (err == nil) != ok || (!ok && !strings.Contains(err.Error(), "unknown value kind")) {
			t.Errorf("TEST_KIND %d: %v", k, err)
		}
	}
}
