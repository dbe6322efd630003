package sched_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/runtime/sched"
)

// timed matches programs whose output may depend on when timers fire.
var timed = regexp.MustCompile(`\bafter\b|Process\.sleep|# ERROR|# WARNING`)

// TestFIFOIsOneScheduler runs every process and actor fixture without
// timers, and the trace test programs, once at one scheduler and once
// deterministically under sched.FIFO: the output, the result and the
// trace (messages included) must be identical, because FIFO is the
// concurrent runtime's order at one scheduler as a policy.
func TestFIFOIsOneScheduler(t *testing.T) {
	var files []string
	for _, dir := range []string{"process", "actors"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "fixtures", dir, "*.mr"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	files = append(files, "testdata/trace.mr", "testdata/trace_messages.mr")
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if timed.Match(src) || bytes.Contains(src, []byte("pub fn start")) {
			continue
		}
		checked++
		img := load(t, string(src))
		var tr1, tr2 bytes.Buffer
		out1, res1, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Trace: &tr1, TraceMessages: true, ReportDeadlock: true})
		out2, res2, _ := run(t, context.Background(), img, sched.Config{Schedulers: 4, Steal: true, Trace: &tr2, TraceMessages: true, Policy: &sched.FIFO{}})
		if out1 != out2 || res1.Report != res2.Report || res1.RootDone != res2.RootDone {
			t.Errorf("%s: one scheduler printed\n%s%s\nFIFO printed\n%s%s", f, out1, res1.Report, out2, res2.Report)
		}
		if tr1.String() != tr2.String() {
			t.Errorf("%s: the traces differ:\n%s\n--- FIFO:\n%s", f, tr1.String(), tr2.String())
		}
		if res2.Decisions == 0 || res2.Steps == 0 {
			t.Errorf("%s: a deterministic run counted %d decisions and %d steps", f, res2.Decisions, res2.Steps)
		}
	}
	if checked < 40 {
		t.Fatalf("only %d programs checked", checked)
	}
}

// TestVirtualClock: a deterministic run does not wait for timers; the
// clock jumps to the next deadline when every process waits.
func TestVirtualClock(t *testing.T) {
	img := load(t, `
fn sleeper(ms: Int):
    let own: Pid(Int) = Process.self()
    receive:
        n -> println("got {n}")
        _ after ms -> println("slept {ms}")

fn main():
    match Process.spawn(() -> sleeper(600000)):
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
    match Process.spawn(() -> sleeper(250000)):
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`)
	start := time.Now()
	out, res, rt := run(t, context.Background(), img, sched.Config{Policy: &sched.FIFO{}})
	if out != "slept 250000\nslept 600000\n" || res.Report != "" || res.Deadlock {
		t.Fatalf("output %q, result %+v", out, res)
	}
	if d := rt.Now().Sub(sched.VirtualEpoch); d != 600*time.Second {
		t.Errorf("the virtual clock moved %v, want 10m0s", d)
	}
	if time.Since(start) > time.Minute {
		t.Errorf("the run waited in real time")
	}
}

// TestDetDeadlock: when every process waits and no timer is pending a
// deterministic run ends; with isolated processes (which the concurrent
// runtime would wait for forever) it reports Deadlock without a fault,
// a legacy-only program gets fault 10 as usual.
func TestDetDeadlock(t *testing.T) {
	isolated := load(t, `
fn waiter():
    let own: Pid(Int) = Process.self()
    receive:
        n -> println("got {n}")

fn main():
    match Process.spawn(waiter):
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`)
	var tr bytes.Buffer
	_, res, _ := run(t, context.Background(), isolated, sched.Config{Policy: &sched.FIFO{}, Trace: &tr})
	want := "morrow: deadlock: 1 processes are waiting and nothing can wake them\n" +
		"  <pid 2> in waiter (t.mr:4): waiting in receive, mailbox empty\n"
	if !res.Deadlock || res.Report != want || !res.RootDone {
		t.Errorf("isolated: result %+v, want the report %q", res, want)
	}
	if !strings.HasSuffix(tr.String(), "deadlock\n") {
		t.Errorf("isolated: trace %q", tr.String())
	}
	legacy := load(t, `
fn waiter():
    receive:
        n: Int -> println("got {n}")

fn main():
    let a: Pid(Int) = spawn(waiter)
`)
	_, res, _ = run(t, context.Background(), legacy, sched.Config{Policy: &sched.FIFO{}})
	if !res.Deadlock || !strings.Contains(res.Report, "actor deadlock") {
		t.Errorf("legacy: result %+v", res)
	}
}

// recorder is a policy that records the agents it is given and picks
// them by a rule.
type recorder struct {
	ready   []sched.Agent
	pick    func([]sched.Agent) int // index into ready
	preempt bool
	ops     []sched.Op
}

func (r *recorder) Defer() bool         { return true }
func (r *recorder) Ready(a sched.Agent) { r.ready = append(r.ready, a) }
func (r *recorder) Quantum(uint64) int  { return 0 }
func (r *recorder) Preempt(_ uint64, op sched.Op) bool {
	r.ops = append(r.ops, op)
	return r.preempt
}
func (r *recorder) Next(timer bool) (sched.Agent, bool) {
	if len(r.ready) == 0 {
		return sched.Agent{}, false
	}
	i := r.pick(r.ready)
	a := r.ready[i]
	r.ready = slices.Delete(r.ready, i, i+1)
	return a, true
}

const twoSenders = `
type Msg:
    Item(String, Int)
    Done

fn sent(r: Result((), Int)):
    match r:
        Ok(()) -> ()
        Err(code) -> println("send failed: {code}")

fn started(r: Result(Pid(()), Process.Error)):
    match r:
        Ok(_) -> ()
        Err(_) -> println("spawn failed")

fn sender(to: Pid(Msg), name: String):
    for i in 1..=3:
        sent(send(to, Item(name, i)))

fn collect(left: Int, seen: String) -> String:
    if left == 0:
        seen
    else:
        receive:
            Item(name, i) -> collect(left - 1, "{seen} {name}{i}")
            Done -> seen

fn collector():
    let own: Pid(Msg) = Process.self()
    started(Process.spawn(() -> sender(own, "a")))
    started(Process.spawn(() -> sender(own, "b")))
    println(collect(6, "got"))

fn main():
    match Process.spawn(collector):
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`

// TestInFlight: with cells in flight the policy orders the channels; one
// sender's messages keep their order whatever the policy does.
func TestInFlight(t *testing.T) {
	img := load(t, twoSenders)
	// Newest agent first: b's channel delivers before a's, and each
	// delivers its cells one at a time, newest channel first.
	lifo := &recorder{pick: func(a []sched.Agent) int { return len(a) - 1 }}
	out, res, _ := run(t, context.Background(), img, sched.Config{Policy: lifo})
	if res.Report != "" || out != "got b1 b2 b3 a1 a2 a3\n" {
		t.Fatalf("LIFO: output %q, result %+v", out, res)
	}
	// Channels chosen alternately: the senders' messages interleave.
	turn := 0
	alt := &recorder{pick: func(a []sched.Agent) int {
		var chans []int
		for i, x := range a {
			if x.Kind == sched.AgentChannel {
				chans = append(chans, i)
			}
		}
		if len(chans) < 2 {
			return 0
		}
		turn++
		return chans[turn%2]
	}}
	out, _, _ = run(t, context.Background(), img, sched.Config{Policy: alt})
	pos := func(w string) int { return strings.Index(out, w) }
	if pos("a1") > pos("a2") || pos("a2") > pos("a3") || pos("b1") > pos("b2") || pos("b2") > pos("b3") ||
		pos("a1") < 0 || pos("b1") < 0 || (pos("b3") < pos("a1") || pos("a3") < pos("b1")) {
		t.Fatalf("alternating: output %q: each sender's order kept, the senders interleaved", out)
	}
	// Without a policy that defers, b's messages come after a's (a runs
	// first and sends at once).
	out, _, _ = run(t, context.Background(), img, sched.Config{Policy: &sched.FIFO{}})
	if out != "got a1 a2 a3 b1 b2 b3\n" {
		t.Fatalf("FIFO: output %q", out)
	}
}

// TestPreemptAfterVisibleOps: a policy that preempts after every visible
// operation interleaves two processes' prints line by line (print is a
// native call: vm.State.Preempt ends the turn after it), and sees the
// visible operations of each kind.
func TestPreemptAfterVisibleOps(t *testing.T) {
	img := load(t, `
fn started(r: Result(Pid(()), Process.Error)):
    match r:
        Ok(_) -> ()
        Err(_) -> println("spawn failed")

fn talker(name: String):
    println("{name} 1")
    println("{name} 2")
    println("{name} 3")

fn main():
    started(Process.spawn(() -> talker("a")))
    started(Process.spawn(() -> talker("b")))
`)
	fifo := func(a []sched.Agent) int { return 0 }
	p := &recorder{pick: fifo, preempt: true}
	out, _, _ := run(t, context.Background(), img, sched.Config{Policy: p})
	// The root is preempted after each spawn too: a prints, the root
	// spawns b, a prints, b prints, ...
	if out != "a 1\na 2\nb 1\na 3\nb 2\nb 3\n" {
		t.Fatalf("output %q", out)
	}
	q := &recorder{pick: fifo}
	out, _, _ = run(t, context.Background(), img, sched.Config{Policy: q})
	if out != "a 1\na 2\na 3\nb 1\nb 2\nb 3\n" {
		t.Fatalf("without preemption: output %q", out)
	}
	r := &recorder{pick: fifo}
	run(t, context.Background(), load(t, twoSenders), sched.Config{Policy: r})
	for _, op := range []sched.Op{sched.OpSend, sched.OpSpawn, sched.OpRecv, sched.OpPrint} {
		if !slices.Contains(r.ops, op) {
			t.Errorf("the policy was never asked after a %s", op)
		}
	}
}
