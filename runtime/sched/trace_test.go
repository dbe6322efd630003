package sched_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/sched"
)

var updateTrace = flag.Bool("update-trace", false, "rewrite testdata/trace.golden")

// TestTraceGolden checks the --trace lines of docs/cli.md (spawn,
// link, unlink, monitor, demonitor, exit signal, down, retire with
// reason; logical process numbers) at one scheduler, where the schedule
// and therefore the trace are deterministic.
func TestTraceGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/trace.mr")
	if err != nil {
		t.Fatal(err)
	}
	img := load(t, string(src))
	var first string
	for i := 0; i < 3; i++ {
		var tr bytes.Buffer
		out, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Trace: &tr})
		if res.Report != "" {
			t.Fatalf("report %q", res.Report)
		}
		if want := "down Shutdown\nexit Killed\ndown of a dead process NoProcess\nexit Failure(\"boom\")\nself demonitor false\n"; out != want {
			t.Fatalf("stdout %q, want %q", out, want)
		}
		if i == 0 {
			first = tr.String()
		} else if tr.String() != first {
			t.Fatalf("trace differs between runs:\n%s\n---\n%s", first, tr.String())
		}
	}
	if *updateTrace {
		if err := os.WriteFile("testdata/trace.golden", []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/trace.golden")
	if err != nil {
		t.Fatal(err)
	}
	if first != string(want) {
		t.Errorf("trace:\n%s\nwant:\n%s", first, want)
	}
}

// TestTraceMessagesGolden checks the lines that Config.TraceMessages adds
// (send, recv, a refused send), the entry names of spawn lines (a
// forwarding lambda is named after the function it calls) and the trap
// lines, at one scheduler.
func TestTraceMessagesGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/trace_messages.mr")
	if err != nil {
		t.Fatal(err)
	}
	img := load(t, string(src))
	var tr bytes.Buffer
	out, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Trace: &tr, TraceMessages: true})
	if res.Report != "" {
		t.Fatalf("report %q", res.Report)
	}
	if want := "got 42\nsend to the dead worker: Err(3)\n"; out != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
	if *updateTrace {
		if err := os.WriteFile("testdata/trace_messages.golden", tr.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/trace_messages.golden")
	if err != nil {
		t.Fatal(err)
	}
	if tr.String() != string(want) {
		t.Errorf("trace:\n%s\nwant:\n%s", tr.String(), want)
	}
	// Without TraceMessages the same run has no message lines.
	tr.Reset()
	run(t, context.Background(), img, sched.Config{Schedulers: 1, Trace: &tr})
	for _, line := range strings.Split(tr.String(), "\n") {
		if strings.HasPrefix(line, "send ") || strings.HasPrefix(line, "recv ") {
			t.Errorf("message line %q without TraceMessages", line)
		}
	}
}

// TestTraceFatal checks the "fatal" line of a legacy actor's fault (which
// ends the program without a retire line) and the "deadlock" line.
func TestTraceFatal(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"fault", `
fn divider():
    receive:
        n -> println("{10 / n}")

fn main():
    let d: Pid(Int) = spawn(divider)
    match send(d, 0):
        Ok(()) -> ()
        Err(_) -> ()
`, "fatal 2 Fault(1)\n"},
		{"deadlock", `
fn waiter():
    receive:
        n -> println("{n}")

fn main():
    let w: Pid(Int) = spawn(waiter)
`, "deadlock\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tr bytes.Buffer
			_, res, _ := run(t, context.Background(), load(t, c.src), sched.Config{Schedulers: 1, Trace: &tr})
			if res.Report == "" {
				t.Fatal("no fatal report")
			}
			if !strings.HasSuffix(tr.String(), c.want) {
				t.Errorf("trace does not end with %q:\n%s", c.want, tr.String())
			}
		})
	}
}

// TestTraceRetireAfterCancel: when the run is cancelled (SIGINT), every
// process still alive gets its retire line (Killed) once its cleanup has
// run, so a trace of an interrupted run still ends each lifeline.
func TestTraceRetireAfterCancel(t *testing.T) {
	img := load(t, `
fn waiter(n: Int):
    defer println("cleanup {n}")
    receive:
        0 -> ()

fn start(n: Int):
    if n > 0:
        let r: Result(Pid(Int), Process.Error) = Process.spawn(() -> waiter(n))
        match r:
            Ok(_) -> start(n - 1)
            Err(_) -> println("spawn failed")

fn main():
    start(3)
`)
	for _, cfg := range []sched.Config{{Schedulers: 1}, {Schedulers: 2, Steal: true}, {Schedulers: 4}} {
		tr := &testrun.Buffer{}
		cfg.Trace = tr
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for !strings.Contains(tr.String(), "spawn 4 ") {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
			cancel()
		}()
		out, res, _ := run(t, ctx, img, cfg)
		cancel()
		if !res.Cancelled {
			t.Fatalf("%+v: not cancelled: %+v", cfg, res)
		}
		for _, n := range []string{"2", "3", "4"} {
			if !strings.Contains(tr.String(), "retire "+n+" Killed\n") {
				t.Errorf("%d schedulers: no retire line for %s after the cancellation:\n%s", cfg.Schedulers, n, tr.String())
			}
		}
		if strings.Count(out, "cleanup") != 3 {
			t.Errorf("cleanups: %q", out)
		}
	}
}
