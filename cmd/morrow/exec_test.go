package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestBinary builds the real morrow binary and checks what in-process tests
// cannot: main's os.Exit wiring, a real SIGINT from outside (and the count
// of processes it prints) and a real SIGQUIT (the process table, exit 131).
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "morrow")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	exitSrc := testrun.WriteFile(t, dir, "exit.mr", "fn main() -> Int:\n    println(\"x\")\n    5\n")
	out, err := exec.Command(bin, "run", exitSrc).Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 5 || string(out) != "x\n" {
		t.Errorf("exit forwarding through os.Exit: out %q err %v", out, err)
	}

	spin := testrun.WriteFile(t, dir, "spin.mr", spinSrc)
	stderr := signalled(t, bin, spin, os.Interrupt, exitSIGINT)
	if want := "morrow: interrupted: 1 process was still alive\n"; stderr != want {
		t.Errorf("after SIGINT: stderr %q, want %q", stderr, want)
	}

	// A long sleeper and a server waiting for a message: SIGQUIT shows
	// both, with where and how they wait, and exits 131 at once.
	sleepers := testrun.WriteFile(t, dir, "sleepers.mr", sleepersSrc)
	stderr = signalled(t, bin, sleepers, syscall.SIGQUIT, exitSIGQUIT)
	want := "morrow: SIGQUIT: 2 processes alive\n" +
		"  <pid 2> in sleeper (" + sleepers + ":2): sleeping in Process.sleep, mailbox empty\n" +
		"  <pid 3> \"server\" in server (" + sleepers + ":9): waiting in receive (a timeout is pending), 1 queued message " +
		"(hint: the queued message matches none of the receive's patterns)\n"
	if stderr != want {
		t.Errorf("after SIGQUIT: stderr\n%s\nwant\n%s", stderr, want)
	}
}

// sleepersSrc leaves a process sleeping for ten minutes and a registered
// server waiting in a receive with a timeout, one message it does not
// match queued, once it has printed "started".
const sleepersSrc = `fn sleeper():
    Process.sleep(600000)

fn server():
    let own: Pid(Int) = Process.self()
    match Process.register("server", own):
        Ok(()) -> ()
        Err(_) -> println("register failed")
    receive:
        n if n > 100 -> println("server: {n}")
        _ after 600000 -> println("server: idle")

fn main():
    let a: Result(Pid(()), Process.Error) = Process.spawn(sleeper)
    let b: Result(Pid(Int), Process.Error) = Process.spawn(server)
    match b:
        Ok(s) ->
            match send(s, 1):
                Ok(()) -> ()
                Err(_) -> println("send failed")
        Err(_) -> println("spawn failed")
    match a:
        Ok(_) -> println("started")
        Err(_) -> println("spawn failed")
`

// signalled runs the program src with the binary bin, sends it sig once
// it has printed its first line ("started") and some time has passed,
// checks that it exits with want (handling the signal, not killed by it)
// and returns its standard error.
func signalled(t *testing.T, bin, src string, sig os.Signal, want int) string {
	t.Helper()
	cmd := exec.Command(bin, "run", src)
	var errb strings.Builder
	cmd.Stderr = &errb
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	started := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		started <- line
	}()
	select {
	case line := <-started:
		if strings.TrimSpace(line) != "started" {
			t.Fatalf("unexpected first line %q", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("program did not start")
	}
	// Let the other processes reach their waits.
	time.Sleep(200 * time.Millisecond)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	exited, err := testrun.Wait(cmd, 15*time.Second)
	if !exited {
		t.Fatalf("the runner did not stop after %v", sig)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != want {
		t.Errorf("after %v: %v, want exit status %d", sig, err, want)
	}
	if ee != nil {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Errorf("the runner was killed by %v instead of handling it", sig)
		}
	}
	return errb.String()
}
