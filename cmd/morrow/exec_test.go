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
// cannot: main's os.Exit wiring and a real SIGINT from outside.
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
	cmd := exec.Command(bin, "run", spin)
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
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	exited, err := testrun.Wait(cmd, 15*time.Second)
	if !exited {
		t.Fatal("the runner did not stop after SIGINT")
	}
	if !errors.As(err, &ee) || ee.ExitCode() != exitSIGINT {
		t.Errorf("after SIGINT: %v, want exit status 130", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		t.Errorf("the runner was killed by the signal instead of handling it")
	}
}
