package ptype_test

import (
	"slices"
	"testing"

	"github.com/morrow-lang/morrow/runtime/ptype"
	"github.com/morrow-lang/morrow/runtime/value"
)

// TestTagOrders pins the variant orders of docs/reference/types.md#built-in-types.
func TestTagOrders(t *testing.T) {
	names := func(ti *value.TypeInfo) []string {
		var out []string
		for _, v := range ti.Variants {
			out = append(out, v.Name)
		}
		return out
	}
	want := map[*value.TypeInfo][]string{
		ptype.ExitReasonType:       {"Normal", "Shutdown", "ShutdownDetail", "Fault", "Failure", "Kill", "Killed", "NoProcess"},
		ptype.ErrorType:            {"ResourceLimit", "ForeignInvocation", "WrongMonitorOwner", "UnsupportedTarget", "InvalidOptions"},
		ptype.EventType:            {"Message", "Down", "Exit"},
		ptype.DemonitorOptionsType: {"DemonitorOptions"},
	}
	for ti, w := range want {
		if got := names(ti); !slices.Equal(got, w) {
			t.Errorf("%s variants %v, want %v", ti.Name, got, w)
		}
	}
	if ptype.ReasonFault != 3 || ptype.ReasonNoProcess != 7 || ptype.ErrInvalidOptions != 4 || ptype.EventExit != 2 {
		t.Error("tag constants out of order")
	}
	if f := ptype.DemonitorOptionsType.Variants[0].Fields; !slices.Equal(f, []string{"flush", "info"}) {
		t.Errorf("DemonitorOptions fields %v", f)
	}
}
