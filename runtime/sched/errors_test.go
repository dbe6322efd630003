package sched

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

func testImage(t *testing.T) *vm.Image {
	t.Helper()
	p, _, err := compiler.Compile("t.mr", []byte("fn main():\n    println(1)\n"))
	if err != nil || p == nil {
		t.Fatalf("compile: %v", err)
	}
	v, err := bytecode.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := vm.Load(v, stdlib.Natives())
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// noFault returns a function that checks a host operation's fault is nil
// and returns its value.
func noFault(t *testing.T) func(value.Value, *fault.Fault) value.Value {
	return func(v value.Value, f *fault.Fault) value.Value {
		t.Helper()
		if f != nil {
			t.Fatal(f)
		}
		return v
	}
}

func wantErr(t *testing.T, what string, got value.Value, e int) {
	t.Helper()
	want := ptype.ErrProcess(e)
	if !core.Equal(got, want) {
		t.Errorf("%s = %s, want %s", what, core.Show(got), core.Show(want))
	}
}

// Identities and monitor references of one invocation are refused by
// another with ForeignInvocation (two invocations in one Go process);
// a send to a foreign Pid does not resolve (Err(3)).
func TestForeignInvocation(t *testing.T) {
	img := testImage(t)
	var sb strings.Builder
	a := New(img, NewOutput(&sb), Config{})
	b := New(img, NewOutput(&sb), Config{})
	pa := a.Inv.NewProcess(proc.KindIsolated, nil, 0)
	qa := a.Inv.NewProcess(proc.KindIsolated, nil, 0)
	pb := b.Inv.NewProcess(proc.KindIsolated, nil, 0)
	ha := &host{s: a.scheds[0], p: pa}
	hb := &host{s: b.scheds[0], p: pb}

	foreign := pa.ID()
	wantErr(t, "monitor", noFault(t)(hb.Monitor(foreign)), ptype.ErrForeignInvocation)
	r, f := hb.Link(foreign)
	if f != nil {
		t.Fatal(f)
	}
	wantErr(t, "link", r, ptype.ErrForeignInvocation)
	wantErr(t, "unlink", noFault(t)(hb.Unlink(foreign)), ptype.ErrForeignInvocation)
	r, f = hb.SignalExit(foreign, ptype.Reason(ptype.ReasonKill, value.Unit))
	if f != nil {
		t.Fatal(f)
	}
	wantErr(t, "signal_exit", r, ptype.ErrForeignInvocation)
	if pa.Reason().Kind() != value.KUnit {
		t.Error("a foreign signal had an effect")
	}
	ref := noFault(t)(ha.Monitor(qa.ID()))
	d, _ := ref.Data()
	if d == nil || d.Tag != 0 {
		t.Fatalf("monitor in its own invocation = %s", core.Show(ref))
	}
	wantErr(t, "demonitor", noFault(t)(hb.Demonitor(d.Fields[0], true, true)), ptype.ErrForeignInvocation)
	if s, _ := hb.Send(pa.Pid(), value.Int(1)); !core.Equal(s, value.Err(value.Int(3))) {
		t.Errorf("send to a foreign pid = %s", core.Show(s))
	}
	if n := pa.Queued(); n != 0 {
		t.Errorf("foreign send queued %d cells", n)
	}
	if c, _ := b.Inv.Reservations(); c != 0 {
		t.Errorf("refused operations left %d reservations", c)
	}
}

// InvalidOptions is reachable only through the ABI: a demonitor whose
// options are not a DemonitorOptions(Bool, Bool), or whose reference is
// not a MonitorRef; an oversized or non-reason signal_exit reason.
func TestInvalidOptions(t *testing.T) {
	img := testImage(t)
	var sb strings.Builder
	rt := New(img, NewOutput(&sb), Config{})
	p := rt.Inv.NewProcess(proc.KindIsolated, nil, 0)
	q := rt.Inv.NewProcess(proc.KindIsolated, nil, 0)
	h := &host{s: rt.scheds[0], p: p}
	ref := noFault(t)(h.Monitor(q.ID())).AsData().Fields[0]
	dm, ok := process.Lookup("Process.demonitor")
	if !ok {
		t.Fatal("no demonitor native")
	}
	bad := []value.Value{
		value.NewData(ptype.DemonitorOptionsType, 0, value.Int(1), value.Bool(true)),
		value.NewData(ptype.DemonitorOptionsType, 0, value.Bool(true)),
		value.NewData(ptype.ExitReasonType, ptype.ReasonShutdown),
	}
	for _, o := range bad {
		r, f := dm.Fn(h, []value.Value{ref, o})
		if f != nil {
			t.Fatal(f)
		}
		wantErr(t, "demonitor "+core.Show(o), r, ptype.ErrInvalidOptions)
	}
	wantErr(t, "demonitor of a non-reference", noFault(t)(h.Demonitor(value.Int(3), false, false)), ptype.ErrInvalidOptions)
	// The monitor is still active after the refused calls.
	if r := noFault(t)(h.Demonitor(ref, false, true)); !core.Equal(r, value.Ok(value.Bool(true))) {
		t.Errorf("demonitor after refused calls = %s", core.Show(r))
	}
	big := ptype.Reason(ptype.ReasonFailure, value.String(strings.Repeat("x", 4097)))
	r, f := h.SignalExit(q.ID(), big)
	if f != nil {
		t.Fatal(f)
	}
	wantErr(t, "signal_exit with 4,097 bytes", r, ptype.ErrInvalidOptions)
	r, _ = h.SignalExit(q.ID(), value.Int(1))
	wantErr(t, "signal_exit with a non-reason", r, ptype.ErrInvalidOptions)
	ok4096 := ptype.Reason(ptype.ReasonFailure, value.String(strings.Repeat("x", 4096)))
	if r, _ := h.SignalExit(q.ID(), ok4096); !core.Equal(r, value.Ok(value.Unit)) {
		t.Errorf("signal_exit with 4,096 bytes = %s", core.Show(r))
	}
}

// A local Process.exit reason that the logical budget cannot admit is a
// checked Fault(9), like an oversized text; nothing is committed.
func TestUnadmittedExitReason(t *testing.T) {
	img := testImage(t)
	var sb strings.Builder
	rt := New(img, NewOutput(&sb), Config{})
	p := rt.Inv.NewProcess(proc.KindIsolated, nil, 0)
	h := &host{s: rt.scheds[0], p: p}
	rt.Inv.MemoryBudget = 600
	st, err := vm.NewState(img, img.Prog.Entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	p.State = st
	if f := h.Exit(ptype.Reason(ptype.ReasonFailure, value.String("short"))); f != nil {
		t.Fatalf("admitted reason refused: %v", f)
	}
	q := rt.Inv.NewProcess(proc.KindIsolated, st, 0)
	hq := &host{s: rt.scheds[0], p: q}
	f := hq.Exit(ptype.Reason(ptype.ReasonFailure, value.String(strings.Repeat("x", 100))))
	if f == nil || f.Code != fault.Resource {
		t.Fatalf("unadmitted reason = %v, want Fault(9)", f)
	}
	f = hq.Exit(ptype.Reason(ptype.ReasonShutdownDetail, value.String(strings.Repeat("x", 4097))))
	if f == nil || f.Code != fault.Resource {
		t.Fatalf("oversized reason = %v, want Fault(9)", f)
	}
	if q.Reason().Kind() != value.KUnit {
		t.Fatal("a refused reason was committed")
	}
}
