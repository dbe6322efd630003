package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// waiterSrc leaves one isolated process waiting in receive for ever.
const waiterSrc = `
fn waiter():
    receive:
        n -> println("got {n}")

fn main():
    let started: Result(Pid(Int), Process.Error) = Process.spawn(waiter)
    match started:
        Ok(_) -> println("started")
        Err(e) -> println("spawn failed: {show(e)}")
`

// TestDeadlockReport: with ReportDeadlock (morrow run's rule) a program
// whose isolated processes can never be woken ends with the deadlock
// line and the process table, exactly, and exit status 1, at every
// scheduler configuration.
func TestDeadlockReport(t *testing.T) {
	p := testrun.Compile(t, "w.mr", waiterSrc)
	want := "morrow: deadlock: 1 processes are waiting and nothing can wake them\n" +
		"  <pid 2> in waiter (w.mr:3): waiting in receive, mailbox empty\n"
	for _, c := range []struct {
		n     int
		steal bool
	}{{1, false}, {2, false}, {4, true}} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		code, stdout, stderr := testrun.Run(ctx, p, engine.Options{Schedulers: c.n, Steal: c.steal, ReportDeadlock: true})
		cancel()
		if code != engine.ExitFault || stdout != "started\n" || stderr != want {
			t.Errorf("%d schedulers: status %d, stdout %q, stderr %q; want 1, %q, %q", c.n, code, stdout, stderr, "started\n", want)
		}
	}
}

// TestNoDeadlockReportWhileSomethingCanWake: embedders (no
// ReportDeadlock) and a program with a host port (library mode) keep
// waiting, as the reference does: after a while the run is still going,
// and it ends only when the host cancels it.
func TestNoDeadlockReportWhileSomethingCanWake(t *testing.T) {
	library := `
fn waiter():
    receive:
        n -> println("got {n}")

pub fn start(port: Pid(String)) -> ():
    let started: Result(Pid(Int), Process.Error) = Process.spawn(waiter)
    let Ok(_) = started else: return ()
    match send(port, "started"):
        Ok(()) -> ()
        Err(code) -> println("send failed {code}")
`
	for _, c := range []struct {
		name, src string
		report    bool
	}{
		{"embedder", waiterSrc, false},
		{"library mode", library, true},
	} {
		p := testrun.Compile(t, "w.mr", c.src)
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		begin := time.Now()
		code, stdout, stderr := testrun.Run(ctx, p, engine.Options{ReportDeadlock: c.report})
		cancel()
		if code != engine.ExitInterrupted || stdout != "started\n" || stderr != "" || time.Since(begin) < 250*time.Millisecond {
			t.Errorf("%s: status %d after %v, stdout %q, stderr %q; want it waiting until cancelled (130)", c.name, code, time.Since(begin), stdout, stderr)
		}
	}
}

// TestProbeTable: an embedder reads the process table of a running
// program through a Probe.
func TestProbeTable(t *testing.T) {
	p := testrun.Compile(t, "w.mr", waiterSrc)
	probe := &engine.Probe{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		code, _, _ := testrun.Run(ctx, p, engine.Options{Probe: probe})
		done <- code
	}()
	want := "  <pid 2> in waiter (w.mr:3): waiting in receive, mailbox empty\n"
	deadline := time.Now().Add(20 * time.Second)
	got := ""
	for time.Now().Before(deadline) {
		if got = probe.Text(); got == want {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != engine.ExitInterrupted {
		t.Errorf("status %d, want 130", code)
	}
	if got != want {
		t.Errorf("table %q, want %q", got, want)
	}
	if tb := probe.Table(); tb != nil {
		t.Errorf("after the run the probe still has a table: %v", tb)
	}
}

// TestProbeWhileBusy reads the table over and over while processes run,
// send, receive with timeouts and retire, at four schedulers with
// stealing: each process is read under its own lock only when its
// scheduler is not running it (go test -race checks that).
func TestProbeWhileBusy(t *testing.T) {
	src := `
fn relay(next: Pid(Int)):
    receive:
        0 ->
            match send(next, 0):
                Ok(()) -> ()
                Err(_) -> ()
        n ->
            match send(next, n):
                Ok(()) -> ()
                Err(_) -> ()
            relay(next)
        _ after 60000 -> ()

fn last(done: Pid(Int), sum: Int):
    receive:
        0 ->
            match send(done, sum):
                Ok(()) -> ()
                Err(_) -> ()
        n -> last(done, sum + n)

fn chain(done: Pid(Int), n: Int) -> Pid(Int):
    if n == 0:
        let Ok(p) = Process.spawn(() -> last(done, 0)) else: return done
        p
    else:
        let next = chain(done, n - 1)
        let Ok(p) = Process.spawn(() -> relay(next)) else: return done
        p

fn feed(first: Pid(Int), i: Int):
    match send(first, i):
        Ok(()) -> ()
        Err(_) -> ()
    if i > 0:
        feed(first, i - 1)

fn driver():
    let own: Pid(Int) = Process.self()
    let first = chain(own, 20)
    feed(first, 2000)
    receive:
        sum -> println("sum {sum}")

fn main():
    match Process.spawn(driver):
        Ok(_) -> ()
        Err(_) -> println("spawn failed")
`
	p := testrun.Compile(t, "chain.mr", src)
	probe := &engine.Probe{}
	finished := make(chan struct{})
	done := make(chan int)
	go func() {
		reads := 0
		defer func() { done <- reads }()
		for {
			for _, pi := range probe.Table() {
				if pi.Pid == 0 || pi.Wait == "" {
					t.Errorf("a table line without a pid or a wait: %+v", pi)
					return
				}
			}
			reads++
			select {
			case <-finished:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	}()
	code, stdout, stderr := testrun.Run(context.Background(), p, engine.Options{Schedulers: 4, Steal: true, Probe: probe, ReportDeadlock: true})
	close(finished)
	reads := <-done
	if code != 0 || stderr != "" || stdout != "sum 2001000\n" {
		t.Errorf("status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	t.Logf("%d table reads", reads)
}
