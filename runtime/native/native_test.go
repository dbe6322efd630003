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

// goHost offloads as the scheduler's host does: the first call starts
// the work on a goroutine and parks; the call made again takes the
// result.
type goHost struct {
	Detached
	ch chan value.Value
}

func (h *goHost) Offload(work func() value.Value) (value.Value, *fault.Fault, bool) {
	if h.ch != nil {
		return <-h.ch, nil, true
	}
	h.ch = make(chan value.Value, 1)
	go func() { h.ch <- work() }()
	return value.Unit, fault.NewPark(), true
}

// TestCallWorkOffloads: a native with a Size measure runs off the caller
// from OffloadMin on (the caller sees fault.Park, then the result); its
// output is written when the caller takes the result; a panic off the
// caller is an internal fault of the call, not a crash.
func TestCallWorkOffloads(t *testing.T) {
	long := &Native{Name: "L", Arity: 1, Args: []value.Kind{value.KInt},
		Size: func(a []value.Value) int64 { return a[0].AsInt() },
		FnWork: func(h Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			if a[0].AsInt() < 0 {
				panic("boom")
			}
			_, _ = h.Stdout().Write([]byte("out"))
			return value.Int(a[0].AsInt() + 1), nil, 7
		}}
	var buf bytes.Buffer
	for _, n := range []int64{OffloadMin - 1, OffloadMin} {
		buf.Reset()
		h := &goHost{Detached: Detached{W: &buf}}
		v, f, w := long.CallWork(h, []value.Value{value.Int(n)})
		if n >= OffloadMin {
			if f == nil || !f.IsPark() || buf.Len() != 0 {
				t.Fatalf("%d: %v %v, output %q before the result", n, v, f, buf.String())
			}
			v, f, w = long.CallWork(h, []value.Value{value.Int(n)})
		} else if h.ch != nil {
			t.Errorf("%d: offloaded below OffloadMin", n)
		}
		if f != nil || v.AsInt() != n+1 || w != 7 || buf.String() != "out" {
			t.Errorf("%d: %v %v %d %q", n, v, f, w, buf.String())
		}
	}
	restore := SetOffloadMinForTest(-10)
	defer restore()
	h := &goHost{}
	_, f, _ := long.CallWork(h, []value.Value{value.Int(-1)})
	if f == nil || !f.IsPark() {
		t.Fatalf("a panicking body: %v before it ran", f)
	}
	if _, f, _ = long.CallWork(h, []value.Value{value.Int(-1)}); f == nil || !f.Internal || !strings.Contains(f.Msg, "boom") {
		t.Errorf("a panic off the caller: %v", f)
	}
}
