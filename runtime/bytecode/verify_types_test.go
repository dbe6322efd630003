package bytecode_test

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// exitWith is a program that exits its process with variant 4 (Failure)
// of whatever Process.ExitReason its type table declares.
const exitWith = `
func main
    UNIT
    RETURN
func worker
    CONST "forged"
    DATA Process.ExitReason 4
    CALL_NATIVE Process.exit 1
    RETURN
`

// TestProcessTypesComeFromTheRuntime: a .mrb file cannot define its own
// Process.* types. An exact copy of the runtime's descriptor (what the
// compiler writes) is accepted; a redefinition (fewer fields, other
// variants, other traits) or an unknown Process.* name is refused, also
// after an encode/decode round trip.
func TestProcessTypesComeFromTheRuntime(t *testing.T) {
	const real = "type Process.ExitReason sum show eq ord Normal Shutdown ShutdownDetail(_) Fault(_) Failure(_) Kill Killed NoProcess\n"
	cases := []struct {
		name, decl, want string
	}{
		{"fewer fields", "type Process.ExitReason sum show eq ord Normal Shutdown ShutdownDetail Fault Failure(_) Kill Killed NoProcess\n", "redefines the runtime's type"},
		{"other variants", "type Process.ExitReason sum show eq ord Normal Shutdown ShutdownDetail(_) Fault(_) Failure(_) Kill Killed Oops\n", "redefines the runtime's type"},
		{"other traits", "type Process.ExitReason sum Normal Shutdown ShutdownDetail(_) Fault(_) Failure(_) Kill Killed NoProcess\n", "redefines the runtime's type"},
		{"a record", "type Process.ExitReason record show eq ord Normal Shutdown ShutdownDetail(_) Fault(_) Failure(_) Kill Killed NoProcess\n", "redefines the runtime's type"},
		{"unknown name", "type Process.Secret sum A\n" + real, "no such type"},
	}
	for _, c := range cases {
		p, err := vmtest.Assemble(c.decl + exitWith)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, q := range []*bytecode.Program{p, roundTrip(t, p)} {
			if err := bytecode.Verify(q); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: verify = %v, want %q", c.name, err, c.want)
			}
		}
	}
	p, err := vmtest.Assemble(real + exitWith)
	if err != nil {
		t.Fatal(err)
	}
	if err := bytecode.Verify(roundTrip(t, p)); err != nil {
		t.Errorf("an exact copy of Process.ExitReason: %v", err)
	}
}

func roundTrip(t *testing.T, p *bytecode.Program) *bytecode.Program {
	t.Helper()
	q, err := bytecode.Decode(bytecode.Encode(p))
	if err != nil {
		t.Fatal(err)
	}
	return q
}
