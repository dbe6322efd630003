package process_test

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

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
