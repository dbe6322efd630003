package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// stuckCleanupSrc prints, then spins; its cleanup prints and then runs
// far longer than the runner's grace period after a signal.
const stuckCleanupSrc = `fn spin(n: Int) -> Int: spin(n + 1)

fn count(n: Int) -> Int:
    if n == 0:
        0
    else:
        count(n - 1)

fn cleanup():
    println("cleaning up")
    println(count(100000000))

fn main():
    defer cleanup()
    println("started")
    println(spin(0))
`

// TestOutputSurvivesGivingUp: when the runner gives up on a cancelled
// program (after its grace period, or at a second signal), everything the
// program printed so far, its cleanup's output included, still reaches
// standard output.
func TestOutputSurvivesGivingUp(t *testing.T) {
	old := graceAfterSignal
	defer func() { graceAfterSignal = old }()
	src := testrun.WriteFile(t, t.TempDir(), "stuck.mr", stuckCleanupSrc)
	for _, second := range []bool{false, true} {
		graceAfterSignal = 300 * time.Millisecond
		if second {
			graceAfterSignal = time.Minute
		}
		out := &notifyWriter{first: make(chan struct{})}
		sigs := make(chan os.Signal, 2)
		e := &env{stdin: strings.NewReader(""), stdout: out, stderr: io.Discard, getenv: func(string) string { return "" }, signals: sigs}
		done := make(chan int, 1)
		go func() { done <- runEnv([]string{"run", src}, e) }()
		select {
		case <-out.first:
		case <-time.After(20 * time.Second):
			t.Fatal("program did not start")
		}
		sigs <- os.Interrupt
		if second {
			// Give the cleanup time to print, then insist.
			time.Sleep(300 * time.Millisecond)
			sigs <- os.Interrupt
		}
		select {
		case code := <-done:
			if code != exitSIGINT {
				t.Errorf("second signal %v: exit %d", second, code)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("the runner did not give up")
		}
		out.mu.Lock()
		got := out.buf.String()
		out.mu.Unlock()
		if got != "started\ncleaning up\n" {
			t.Errorf("second signal %v: stdout %q, want the output printed before the runner gave up", second, got)
		}
	}
}
