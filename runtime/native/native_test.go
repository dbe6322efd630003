package native

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

func echo(name string, kinds ...value.Kind) *Native {
	return &Native{Name: name, Arity: len(kinds), Args: kinds, Fn: func(_ Host, a []value.Value) (value.Value, *fault.Fault) {
		return a[0], nil
	}}
}

func TestNewTable(t *testing.T) {
	tab, err := NewTable([]*Native{echo("A.x", KAny)}, []*Native{echo("B.y", value.KInt)})
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := tab.Lookup("B.y"); !ok || n.Name != "B.y" {
		t.Error("lookup")
	}
	if got := strings.Join(tab.Names(), ","); got != "A.x,B.y" {
		t.Errorf("names %s", got)
	}
	if s := tab.Sorted(); len(s) != 2 || s[0].Name != "A.x" || s[1].Name != "B.y" {
		t.Errorf("sorted %v", s)
	}
	bad := map[string][]*Native{
		"listed twice":          {echo("A.x", KAny), echo("A.x", KAny)},
		"wrong length":          {{Name: "C", Arity: 2, Args: []value.Kind{KAny}, Fn: echo("C", KAny).Fn}},
		"exactly one of Fn":     {{Name: "D"}},
		"native without a name": {{Fn: echo("E", KAny).Fn}},
	}
	for want, list := range bad {
		if _, err := NewTable(list); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("NewTable: %v, want an error about %q", err, want)
		}
	}
}

// TestCallChecks: a wrong count, a wrong kind and a panic become internal
// errors, never a crash.
func TestCallChecks(t *testing.T) {
	n := echo("A.x", value.KInt)
	if v, f := n.Call(Detached{}, []value.Value{value.Int(3)}); f != nil || v.AsInt() != 3 {
		t.Fatalf("call: %v %v", v, f)
	}
	if _, f := n.Call(Detached{}, nil); f == nil || !f.Internal {
		t.Errorf("wrong count: %v", f)
	}
	if _, f := n.Call(Detached{}, []value.Value{value.String("s")}); f == nil || !f.Internal {
		t.Errorf("wrong kind: %v", f)
	}
	boom := &Native{Name: "B", Arity: 0, Fn: func(Host, []value.Value) (value.Value, *fault.Fault) { panic("boom") }}
	if _, f := boom.Call(Detached{}, nil); f == nil || !f.Internal || !strings.Contains(f.Msg, "boom") {
		t.Errorf("panic: %v", f)
	}
	work := &Native{Name: "W", Arity: 0, FnWork: func(Host, []value.Value) (value.Value, *fault.Fault, int64) { return value.Unit, nil, 7 }}
	if _, _, w := work.CallWork(Detached{}, nil); w != 7 {
		t.Errorf("work %d", w)
	}
}

// TestDetached: output goes to W; every Process operation is fault 11.
func TestDetached(t *testing.T) {
	var b bytes.Buffer
	d := Detached{W: &b}
	d.Stdout().Write([]byte("x"))
	if b.String() != "x" || (Detached{}).Stdout() == nil {
		t.Error("Stdout")
	}
	id := value.Opaque(value.KProcID, 0, nil)
	faults := []*fault.Fault{d.Exit(id)}
	for _, op := range []func() (value.Value, *fault.Fault){
		func() (value.Value, *fault.Fault) { return d.Monitor(id) },
		func() (value.Value, *fault.Fault) { return d.Demonitor(id, true, true) },
		func() (value.Value, *fault.Fault) { return d.Link(id) },
		func() (value.Value, *fault.Fault) { return d.Unlink(id) },
		func() (value.Value, *fault.Fault) { return d.TrapExit(true) },
		func() (value.Value, *fault.Fault) { return d.SignalExit(id, id) },
		func() (value.Value, *fault.Fault) { return d.SupervisedCurrent(id) },
	} {
		_, f := op()
		faults = append(faults, f)
	}
	for i, f := range faults {
		if f == nil || f.Code != fault.Descriptor {
			t.Errorf("operation %d: %v, want fault 11", i, f)
		}
	}
}
