package sched_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// fnState makes a State calling the function named fn of img.
func fnState(t *testing.T, img *vm.Image, fn string, args ...value.Value) *vm.State {
	t.Helper()
	for i, f := range img.Prog.Functions {
		if f.Name == fn {
			st, err := vm.NewState(img, i, args)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
	t.Fatalf("no function %s", fn)
	return nil
}

func session(cfg sched.Config) (*sched.Runtime, *bytes.Buffer) {
	var out bytes.Buffer
	cfg.Session = true
	return sched.New(nil, sched.NewDirectOutput(&out), cfg), &out
}

const sessionA = `
fn waiter(name: String):
    defer println("{name} cleanup")
    serve(name)

fn serve(name: String):
    receive:
        n -> println("{name} got {n}")
    serve(name)

fn start() -> Pid(Int):
    spawn(() -> waiter("w"))

fn main():
    ()
`

const sessionB = `
fn poke(p: Pid(Int)) -> Result((), Int):
    send(p, 1)

fn crash(p: Pid(Int)) -> Int:
    match send(p, 2):
        Ok(_) -> 1 / 0
        Err(_) -> 0

fn main():
    ()
`

// TestSessionKeepsProcesses: a process left waiting by one entry is
// still there for the next one, which may come from another program;
// a fault of the root ends only that entry; StopAll runs the cleanup.
func TestSessionKeepsProcesses(t *testing.T) {
	a, b := load(t, sessionA), load(t, sessionB)
	rt, out := session(sched.Config{})
	res := rt.RunEntry(context.Background(), fnState(t, a, "start"))
	if !res.RootDone || res.Report != "" || res.Deadlock || res.RootValue.Kind() != value.KPid {
		t.Fatalf("entry 1: %+v", res)
	}
	pid := res.RootValue
	if n := len(rt.Live()); n != 1 {
		t.Fatalf("%d live processes after entry 1, want 1", n)
	}
	res = rt.RunEntry(context.Background(), fnState(t, b, "poke", pid))
	if res.Report != "" || out.String() != "w got 1\n" {
		t.Fatalf("entry 2: %+v, output %q", res, out.String())
	}
	res = rt.RunEntry(context.Background(), fnState(t, b, "crash", pid))
	if !res.RootFault || res.Fatal || !strings.Contains(res.Report, "division by zero") {
		t.Fatalf("entry 3: %+v", res)
	}
	if out.String() != "w got 1\nw got 2\n" || len(rt.Live()) != 1 {
		t.Fatalf("after a root fault: output %q, %d live", out.String(), len(rt.Live()))
	}
	if n := rt.StopAll(); n != 1 || out.String() != "w got 1\nw got 2\nw cleanup\n" || len(rt.Live()) != 0 {
		t.Fatalf("StopAll stopped %d, output %q", n, out.String())
	}
	res = rt.RunEntry(context.Background(), fnState(t, b, "poke", pid))
	if d, ok := res.RootValue.Data(); res.Report != "" || !ok || d.Tag != value.TagErr {
		t.Fatalf("entry after StopAll: %+v", res)
	}
}

const sessionTimers = `
fn burn(n: Int) -> Int:
    if n == 0:
        0
    else:
        burn(n - 1)

fn busy():
    println("busy starts")
    let _ = burn(25000)
    println("busy ends")

fn short_wait():
    receive:
        0 -> ()
        _ after 3 -> println("timeout")

fn start():
    let _ = spawn(short_wait)
    let _: Pid(Int) = spawn(busy)

fn main():
    ()
`

// TestSessionTurnTick: with TurnTick the virtual clock moves with the
// busy actor's turns, so the 3 ms timer fires while it still runs;
// without, only when nothing else can run.
func TestSessionTurnTick(t *testing.T) {
	img := load(t, sessionTimers)
	for _, c := range []struct {
		tick time.Duration
		want string
	}{
		{time.Millisecond, "busy starts\ntimeout\nbusy ends\n"},
		{0, "busy starts\nbusy ends\ntimeout\n"},
	} {
		rt, out := session(sched.Config{TurnTick: c.tick})
		if res := rt.RunEntry(context.Background(), fnState(t, img, "start")); res.Report != "" {
			t.Fatal(res.Report)
		}
		if out.String() != c.want {
			t.Errorf("tick %v: output %q, want %q", c.tick, out.String(), c.want)
		}
	}
}

// TestSessionStepLimit: MaxSteps bounds each entry, not the session;
// the entry that passes it ends with Fatal.
func TestSessionStepLimit(t *testing.T) {
	img := load(t, sessionTimers+"\nfn small() -> Int:\n    burn(100)\n\nfn big() -> Int:\n    burn(100000)\n")
	rt, _ := session(sched.Config{MaxSteps: 10000})
	for i := 0; i < 5; i++ {
		if res := rt.RunEntry(context.Background(), fnState(t, img, "small")); res.Report != "" || !res.RootDone {
			t.Fatalf("small entry %d: %+v", i, res)
		}
	}
	res := rt.RunEntry(context.Background(), fnState(t, img, "big"))
	if !res.Fatal || !strings.Contains(res.Report, "step limit") {
		t.Fatalf("big entry: %+v", res)
	}
	if res := rt.RunEntry(context.Background(), fnState(t, img, "small")); res.Report != "" || !res.RootDone {
		t.Fatalf("entry after the limit: %+v", res)
	}
}
