package process_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
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

// TestActorOnlyFlags: a native is flagged ActorOnly exactly when the
// Process API table of docs/process.md gives it the "actor" context.
func TestActorOnlyFlags(t *testing.T) {
	doc, err := os.ReadFile("../../docs/process.md")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile("`(Process\\.[a-z_]+)\\(")
	seen := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`Process.") {
			continue
		}
		ctx := strings.TrimSpace(cells[3])
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			n, ok := process.Lookup(m[1])
			if !ok {
				continue // an opcode-lowered operation
			}
			seen++
			want := ctx != "root or actor"
			if got := n.Flags.Has(native.ActorOnly); got != want {
				t.Errorf("%s: ActorOnly %v, docs/process.md says context %q", m[1], got, ctx)
			}
		}
	}
	if seen < 8 {
		t.Errorf("found %d natives in the docs/process.md table, want at least 8", seen)
	}
}

// TestProcessID: Process.id keeps the identity of a Pid and changes only
// its kind.
func TestProcessID(t *testing.T) {
	id, _ := process.Lookup("Process.id")
	r := &struct{ x int }{}
	pid := value.Opaque(value.KPid, 4, r)
	got, f := id.Call(native.Detached{}, []value.Value{pid})
	if f != nil || got.Kind() != value.KProcID || got.Payload() != 4 || got.Ref() != any(r) {
		t.Errorf("Process.id(pid) = %v, %v", got, f)
	}
	if !core.Equal(got, value.Opaque(value.KProcID, 4, r)) {
		t.Error("a ProcessId differs from itself")
	}
}

// TestNativesWithoutProcess: outside a process the Process natives are
// fault 11, the infrastructure fault, not a crash.
func TestNativesWithoutProcess(t *testing.T) {
	mon, _ := process.Lookup("Process.monitor")
	if _, f := mon.Call(native.Detached{}, []value.Value{value.Opaque(value.KProcID, 1, nil)}); f == nil || f.Code != fault.Descriptor {
		t.Errorf("Process.monitor without a process: %v", f)
	}
}
