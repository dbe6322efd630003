package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// buildDAG is a function returning a tuple DAG with 62 distinct nodes
// whose unfolding has 2^61 leaves (each call builds a new one).
const buildDAG = `
func build locals=2
    INT 0
    STORE 0
    INT 61
    STORE 1
loop:
    LOAD 1
    INT 0
    LE
    JUMP_IF_TRUE done
    LOAD 0
    LOAD 0
    TUPLE 2
    STORE 0
    LOAD 1
    INT 1
    SUB
    STORE 1
    JUMP loop
done:
    LOAD 0
    RETURN
`

// TestSharedValuesInOneInstruction: EQ, NE, IN and INTERP on values with 2^61 leaves finish (by distinct nodes, or at
// the 16 MiB limit) instead of walking the unfolding.
func TestSharedValuesInOneInstruction(t *testing.T) {
	cases := []struct {
		name, code string
		want       bool
	}{
		{"eq", "CALL build 0\n CALL build 0\n EQ", true},
		{"ne", "CALL build 0\n CALL build 0\n NE", false},
		{"in", "CALL build 0\n CALL build 0\n LIST 1\n IN", true},
		{"in a longer list", "CALL build 0\n INT 1\n CALL build 0\n LIST 2\n IN", true},
	}
	for _, c := range cases {
		o, _ := run(t, "func main\n "+c.code+"\n RETURN\n"+buildDAG, 1<<20)
		if o.Status != StatusDone || o.Value.Kind() != value.KBool || o.Value.AsBool() != c.want {
			t.Errorf("%s: outcome %+v", c.name, o)
		}
	}
	o, _ := run(t, "func main\n CALL build 0\n INTERP 1\n RETURN\n"+buildDAG, 1<<20)
	if o.Status != StatusFault || o.Fault.Code != 5 {
		t.Errorf("interpolation of a shared value: outcome %+v", o)
	}
}

// TestLongComparisonsChargeSteps: an EQ over long lists charges one step
// per element pair, so the State yields at the next charged instruction
// (here the call right after it) instead of running a whole budget more.
func TestLongComparisonsChargeSteps(t *testing.T) {
	p := vmtest.MustAssemble(`
func main
    INT 0
    INT 5000
    CALL_NATIVE List.range 2
    INT 0
    INT 5000
    CALL_NATIVE List.range 2
    EQ
    CALL id 1
    RETURN
func id params=1
    LOAD 0
    RETURN
`)
	st := mustState(t, p)
	o := Run(st, &testHost{}, 100)
	if o.Status != StatusYield || o.Steps < 5000 {
		t.Fatalf("after the comparison: status %s, %d steps", o.Status, o.Steps)
	}
	if o = Run(st, &testHost{}, 100); o.Status != StatusDone || !o.Value.AsBool() {
		t.Fatalf("result %+v", o)
	}
}
