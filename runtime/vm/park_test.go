package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// parkHost answers Supervise with fault.Park until it has been called
// `parks` times, then with Int(42).
type parkHost struct {
	testHost
	calls, parks int
}

func (h *parkHost) Supervise(*native.SupRequest) (value.Value, *fault.Fault) {
	h.calls++
	if h.calls <= h.parks {
		return value.Unit, fault.NewPark()
	}
	return value.Int(42), nil
}

// TestNativeParks: a native that returns fault.Park parks the State with
// its pc on the call (CALL_NATIVE, and CALL_VALUE of a native value); the
// next Run calls it again with the same arguments, and its answer is the
// call's result.
func TestNativeParks(t *testing.T) {
	for _, src := range []string{
		"func main\n CALL_NATIVE Process.init_ack 0\n RETURN\n",
		"func main\n NATIVE Process.init_ack\n CALL_VALUE 0\n RETURN\n",
	} {
		p := vmtest.MustAssemble(src)
		st := mustState(t, p)
		h := &parkHost{parks: 2}
		for i := 0; i < 2; i++ {
			if o := Run(st, h, 100); o.Status != StatusPark {
				t.Fatalf("%q run %d: %+v, want a park", src, i, o)
			}
		}
		o := Run(st, h, 100)
		if o.Status != StatusDone || !o.Value.IsInt() || o.Value.AsInt() != 42 || h.calls != 3 {
			t.Fatalf("%q: %+v after %d calls, want Done 42 after 3", src, o, h.calls)
		}
	}
}
