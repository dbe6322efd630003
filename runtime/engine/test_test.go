package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/sched"
)

const testsSrc = `fn main():
    println("main")

fn test_pass() -> Result((), String):
    Ok(())

fn test_err() -> Result((), Int):
    Err(7)

fn test_fault():
    let _ = List.head([])

fn test_exit():
    Process.exit(Process.Kill)

fn test_deadlock():
    let _own: Pid(Int) = Process.self()
    receive:
        n -> println("{n}")

fn child(parent: Pid(String)):
    defer println("child cleanup")
    match send(parent, "up"):
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        () -> ()

fn test_leaves():
    let own: Pid(String) = Process.self()
    let r: Result(Pid(()), Process.Error) = Process.spawn(() -> child(own))
    match r:
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        s -> println(s)
`

// Options.Test runs a test function as the one process of an invocation
// and judges it (test.go); main does not run.
func TestRunTestVerdicts(t *testing.T) {
	p := testrun.Compile(t, "t.mr", testsSrc)
	v, err := bytecode.Check(p)
	if err != nil {
		t.Fatal(err)
	}
	img, err := engine.Load(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, reason, out string
	}{
		{"test_pass", "", ""},
		{"test_err", "7", ""},
		{"test_fault", "runtime error: head of empty list at t.mr:11", ""},
		{"test_exit", "exited with reason Kill", ""},
		{"test_deadlock", "deadlock: every process is waiting and nothing can wake them", ""},
		{"test_leaves", "", "up\nchild cleanup\n"},
		{"test_missing", "no test function test_missing", ""},
	} {
		for _, policy := range []sched.Policy{nil, &sched.FIFO{InFlight: true}} {
			var out testrun.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			o := engine.RunOutcome(ctx, v, engine.Options{Test: tc.name, Image: img, Policy: policy, Stdout: &out, KeepGoSettings: true})
			cancel()
			if o.Test == nil || o.Test.Pass != (tc.reason == "") || o.Test.Reason != tc.reason {
				t.Errorf("%s (policy %v): %+v", tc.name, policy, o.Test)
			}
			if tc.out != "" && out.String() != tc.out {
				t.Errorf("%s (policy %v): output %q, want %q", tc.name, policy, out.String(), tc.out)
			}
			if wantStatus := 0; tc.reason != "" && o.Status == wantStatus || tc.reason == "" && o.Status != 0 {
				t.Errorf("%s: status %d", tc.name, o.Status)
			}
		}
	}
}
