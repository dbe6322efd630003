package process_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

// actorBuiltin mirrors stdlib/core's split of the checker's builtins.
func actorBuiltin(name string) bool {
	switch name {
	case "send", "spawn", "supervise", "supervised_current":
		return true
	}
	return strings.HasPrefix(name, "Process.")
}

// TestCheckerAndRuntimeAgree: the checker's Process builtins (and the
// legacy actor builtins) are exactly the ones the runtime implements,
// as natives or as opcodes.
func TestCheckerAndRuntimeAgree(t *testing.T) {
	var checker []string
	for _, n := range types.BuiltinNames() {
		if actorBuiltin(n) {
			checker = append(checker, n)
		}
	}
	if got := process.Implemented(); !slices.Equal(got, checker) {
		t.Errorf("runtime implements %v\nchecker knows     %v", got, checker)
	}
	for _, n := range process.Names() {
		if _, ok := process.OpcodeBuiltins[n]; ok {
			t.Errorf("%s is both a native and an opcode", n)
		}
		if _, clash := core.Lookup(n); clash {
			t.Errorf("%s is also a core native", n)
		}
	}
}

// TestOpcodeBuiltinsAreCallOnly: the builtins lowered to opcodes have no
// function value, and the checker rejects using them as one.
func TestOpcodeBuiltinsAreCallOnly(t *testing.T) {
	for _, n := range types.BuiltinNames() {
		_, opcode := process.OpcodeBuiltins[n]
		if types.CallOnly(n) != opcode {
			t.Errorf("%s: checker call-only %v, lowered to an opcode %v", n, types.CallOnly(n), opcode)
		}
	}
}

// TestNativeArities: each native's arity is its checker signature's.
func TestNativeArities(t *testing.T) {
	for _, n := range process.Names() {
		sig := types.LookupBuiltin(n)
		if sig == nil {
			t.Errorf("checker has no signature for %s", n)
			continue
		}
		nat, _ := process.Lookup(n)
		if len(sig.Params) != nat.Arity {
			t.Errorf("%s: checker takes %d arguments, native %d", n, len(sig.Params), nat.Arity)
		}
	}
}

// TestTagOrders pins the variant orders of LANGUAGE.md §4.1.
func TestTagOrders(t *testing.T) {
	names := func(ti *value.TypeInfo) []string {
		var out []string
		for _, v := range ti.Variants {
			out = append(out, v.Name)
		}
		return out
	}
	want := map[*value.TypeInfo][]string{
		process.ExitReasonType:       {"Normal", "Shutdown", "ShutdownDetail", "Fault", "Failure", "Kill", "Killed", "NoProcess"},
		process.ErrorType:            {"ResourceLimit", "ForeignInvocation", "WrongMonitorOwner", "UnsupportedTarget", "InvalidOptions"},
		process.EventType:            {"Message", "Down", "Exit"},
		process.DemonitorOptionsType: {"DemonitorOptions"},
	}
	for ti, w := range want {
		if got := names(ti); !slices.Equal(got, w) {
			t.Errorf("%s variants %v, want %v", ti.Name, got, w)
		}
	}
	if process.ReasonFault != 3 || process.ReasonNoProcess != 7 || process.ErrInvalidOptions != 4 || process.EventExit != 2 {
		t.Error("tag constants out of order")
	}
	if f := process.DemonitorOptionsType.Variants[0].Fields; !slices.Equal(f, []string{"flush", "info"}) {
		t.Errorf("DemonitorOptions fields %v", f)
	}
}

// TestOpaqueIdentity: pids and ids compare by process, not by wrapper.
func TestOpaqueIdentity(t *testing.T) {
	a := &process.Handle{Epoch: 1, Gen: 1}
	b := &process.Handle{Epoch: 1, Gen: 2}
	if !core.Equal(process.PidValue(a), process.PidValue(a)) || core.Equal(process.PidValue(a), process.PidValue(b)) {
		t.Error("Pid equality is not identity")
	}
	if !core.Equal(process.IDValue(a), process.IDValue(a)) {
		t.Error("a ProcessId differs from itself")
	}
	if process.HandleOf(process.IDValue(b)) != b || process.HandleOf(value.Int(3)) != nil {
		t.Error("HandleOf")
	}
}
