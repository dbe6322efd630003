package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/proc"
)

// governorSrc parks up to WANT actors with the given spawn kind, reports
// how many it got and how the first refusal looked, then releases them.
// The spawn_monitor and spawn_link kinds need a mailbox, so a legacy
// "boss" actor does the parking for them.
const governorSrc = testrun.Park + `
fn spawn_one(kind: String) -> Result(Pid(()), Process.Error):
    if kind == "spawn":
        Process.spawn(parked)
    else:
        if kind == "monitor":
            match Process.spawn_monitor(parked):
                Ok((p, _)) -> Ok(p)
                Err(e) -> Err(e)
        else:
            Process.spawn_link(parked)

fn park(kind: String, n: Int, acc: List(Pid(()))) -> List(Pid(())):
    if n == 0:
        acc
    else:
        match spawn_one(kind):
            Ok(p) -> park(kind, n - 1, List.push(acc, p))
            Err(e) ->
                println("{kind}: Err({show(e)})")
                acc

fn boss(kind: String, want: Int):
    let ps = park(kind, want, [])
    println("{kind}: parked {List.len(ps)}")
    release(ps)

fn main():
    let b: Pid(()) = spawn(() -> boss(KIND, WANT))
`

// legacySrc parks WANT actors with the legacy spawn, which faults with
// code 9 past the limit.
const legacySrc = testrun.Park + `
fn park(n: Int, acc: List(Pid(()))) -> List(Pid(())):
    if n == 0:
        acc
    else:
        let p: Pid(()) = spawn(parked)
        park(n - 1, List.push(acc, p))

fn main():
    let ps = park(WANT, [])
    println("legacy: parked {List.len(ps)}")
    release(ps)
`

// runWith compiles src and runs it with opts.
func runWith(t *testing.T, src string, opts engine.Options) (int, string, string) {
	t.Helper()
	return testrun.Run(context.Background(), testrun.Compile(t, "e2e.mr", src), opts)
}

// TestMaxProcesses checks Options.MaxProcesses on every spawn kind
// (Process.spawn, spawn_monitor, spawn_link; the legacy spawn below): the
// default is the reference limit (1,024 live actors, the boss counting
// as one), a set limit is exact, Unlimited has none.
func TestMaxProcesses(t *testing.T) {
	cases := []struct {
		max, want, got int // got: the number parked by the boss
		refused        bool
	}{
		{max: 0, want: 1100, got: engine.DefaultMaxProcesses - 1, refused: true},
		{max: 10, want: 50, got: 9, refused: true},
		{max: 10, want: 9, got: 9},
		{max: engine.Unlimited, want: 3000, got: 3000},
	}
	for _, kind := range []string{"spawn", "monitor", "link"} {
		for _, c := range cases {
			if kind != "spawn" && c.want > proc.MaxProcReservations {
				// A monitor or link also takes one of the boss's 256
				// lifecycle reservations (docs/reference/actors.md#limits), which would
				// refuse first.
				continue
			}
			src := strings.NewReplacer("KIND", fmt.Sprintf("%q", kind), "WANT", fmt.Sprint(c.want)).Replace(governorSrc)
			for _, scheds := range []int{1, 2} {
				code, out, stderr := runWith(t, src, engine.Options{Schedulers: scheds, MaxProcesses: c.max})
				want := fmt.Sprintf("%s: parked %d\n", kind, c.got)
				if c.refused {
					want = fmt.Sprintf("%s: Err(ResourceLimit)\n", kind) + want
				}
				if code != 0 || out != want || stderr != "" {
					t.Errorf("%s max=%d want=%d schedulers=%d: status %d stdout %q stderr %q, want stdout %q",
						kind, c.max, c.want, scheds, code, out, stderr, want)
				}
			}
		}
	}
}

// TestMaxProcessesLegacyFault checks that the legacy spawn faults with
// code 9 past the limit and succeeds when the limit is raised or removed.
func TestMaxProcessesLegacyFault(t *testing.T) {
	src := strings.ReplaceAll(legacySrc, "WANT", "20")
	code, out, stderr := runWith(t, src, engine.Options{MaxProcesses: 10})
	if code != 1 || out != "" || !strings.Contains(stderr, "morrow: runtime error: actor resource limit exceeded") {
		t.Errorf("limit 10: status %d stdout %q stderr %q", code, out, stderr)
	}
	for _, max := range []int{20, engine.Unlimited} {
		code, out, stderr = runWith(t, src, engine.Options{MaxProcesses: max})
		if code != 0 || out != "legacy: parked 20\n" || stderr != "" {
			t.Errorf("limit %d: status %d stdout %q stderr %q", max, code, out, stderr)
		}
	}
	src = strings.ReplaceAll(legacySrc, "WANT", "1025")
	code, _, stderr = runWith(t, src, engine.Options{})
	if code != 1 || !strings.Contains(stderr, "actor resource limit exceeded") {
		t.Errorf("default limit: status %d stderr %q", code, stderr)
	}
}

// budgetSrc queues 1,000-byte strings in an actor that is not receiving
// yet (one scheduler: the root keeps the scheduler for the whole loop)
// and counts the sends the budget admits.
const budgetSrc = `
fn sink():
    receive:
        s -> ()

fn fill(p: Pid(String), msg: String, n: Int, ok: Int) -> Int:
    if n == 0:
        ok
    else:
        match send(p, msg):
            Ok(()) -> fill(p, msg, n: n - 1, ok: ok + 1)
            Err(_) -> fill(p, msg, n: n - 1, ok: ok)

fn main():
    let p: Pid(String) = spawn(sink)
    let msg = String.repeat("x", 1000)
    println("admitted {fill(p, msg, n: 20, ok: 0)}")
`

// TestMemoryBudget checks Options.MemoryBudget: each message is charged
// its header (32) plus its payload (16 + 1,000), so a budget of ten such
// messages admits exactly ten; the default admits all twenty.
func TestMemoryBudget(t *testing.T) {
	per := int64(32 + 16 + 1000)
	for _, c := range []struct {
		budget int64
		want   string
	}{{10 * per, "admitted 10\n"}, {10*per - 1, "admitted 9\n"}, {0, "admitted 20\n"}} {
		code, out, stderr := runWith(t, budgetSrc, engine.Options{Schedulers: 1, MemoryBudget: c.budget})
		if code != 0 || out != c.want || stderr != "" {
			t.Errorf("budget %d: status %d stdout %q stderr %q, want %q", c.budget, code, out, stderr, c.want)
		}
	}
	code, _, stderr := runWith(t, budgetSrc, engine.Options{MemoryBudget: -1})
	if code != 1 || !strings.Contains(stderr, "actor resource limit exceeded") {
		t.Errorf("negative budget: status %d stderr %q", code, stderr)
	}
}

// queuedSrc queues 4,000 messages in each of 20 actors that only take a
// negative number (80,000 in all, past the invocation's 65,536), then
// kills them (a send could not release them while the queue is full).
const queuedSrc = `
fn sink():
    receive:
        n if n < 0 -> ()

fn fill(p: Pid(Int), n: Int, ok: Int) -> Int:
    if n == 0:
        ok
    else:
        match send(p, n):
            Ok(()) -> fill(p, n: n - 1, ok: ok + 1)
            Err(_) -> fill(p, n: n - 1, ok: ok)

fn spawn_all(n: Int, acc: List(Pid(Int))) -> List(Pid(Int)):
    if n == 0:
        acc
    else:
        let p: Pid(Int) = spawn(sink)
        spawn_all(n - 1, List.push(acc, p))

fn fill_all(ps: List(Pid(Int)), ok: Int) -> Int:
    match ps:
        [] -> ok
        [p, ..rest] -> fill_all(rest, ok + fill(p, n: 4000, ok: 0))

fn release(ps: List(Pid(Int))):
    match ps:
        [] -> ()
        [p, ..rest] ->
            match Process.signal_exit(Process.id(p), Process.Kill):
                Ok(()) -> release(rest)
                Err(e) -> println("release: Err({show(e)})")

fn boss():
    let own: Pid(()) = Process.self()
    let ps = spawn_all(20, [])
    println("queued {fill_all(ps, 0)}")
    release(ps)

fn main():
    let b: Pid(()) = spawn(boss)
`

// TestMaxQueued checks Options.MaxQueued: the reference limit admits
// 65,536 queued messages in the invocation, Unlimited all 80,000.
func TestMaxQueued(t *testing.T) {
	for _, c := range []struct {
		max  int64
		want string
	}{{0, "queued 65536\n"}, {1000, "queued 65536\n"}, {engine.Unlimited, "queued 80000\n"}, {70000, "queued 70000\n"}} {
		code, out, stderr := runWith(t, queuedSrc, engine.Options{MaxQueued: c.max})
		if code != 0 || out != c.want || stderr != "" {
			t.Errorf("MaxQueued %d: status %d stdout %q stderr %q, want %q", c.max, code, out, stderr, c.want)
		}
	}
}
