package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestReplPipe: from a pipe, `morrow repl` prints no banner and no
// prompts, only results and errors, on stdout; errors leave the exit
// status 0.
func TestReplPipe(t *testing.T) {
	in := "let x = 40\nx + 2\nprintln(\"hi\")\nnope\nfn f(n: Int) -> Int:\n    n * 2\n\nf(x)\n:q\n1\n"
	var out, errb bytes.Buffer
	code := run([]string{"repl"}, strings.NewReader(in), &out, &errb)
	want := "42 : Int\nhi\nerror: unknown name 'nope'\n80 : Int\n"
	if code != 0 || out.String() != want || errb.Len() != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s", code, out.String(), want, errb.String())
	}
	if code := run([]string{"repl", "extra"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Errorf("repl with an argument: exit %d, want 2", code)
	}
}

// ptyOutput collects what the REPL writes to its terminal.
type ptyOutput struct {
	testrun.Buffer
}

// waitFor waits until the output holds want n times.
func (o *ptyOutput) waitFor(t *testing.T, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Count(o.String(), want) >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %d× %q in the terminal output:\n%q", n, want, o.String())
}

// TestReplTerminal drives the real binary through a pseudo-terminal: the
// banner and prompts, the history (arrow up, Ctrl-R search, the history
// file), Ctrl-C at the prompt dropping the line, and Ctrl-D leaving with
// the actors' defers run.
func TestReplTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "morrow")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	config := filepath.Join(dir, "config")
	cmd := exec.Command(bin, "repl")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config, "HOME="+dir, "TERM=xterm")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		// A container without /dev/ptmx has no pseudo-terminals to give.
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	out := &ptyOutput{}
	copied := make(chan struct{})
	go func() {
		io.Copy(out, tty)
		close(copied)
	}()
	send := func(s string) {
		t.Helper()
		if _, err := tty.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	// The session, step by step: each step waits a moment first when
	// settle is set, types send, then waits until the terminal shows want
	// n times in all.
	type step struct {
		send, want string
		n          int
		settle     bool
	}
	script := []step{
		{want: "Morrow REPL", n: 1},
		{want: "morrow> ", n: 1},
		{send: "println(\"found by search\")\r", want: "found by search\r\n", n: 1},
		{send: "let x = 41\r", want: "morrow> ", n: 3},
		{send: "x + 1\r", want: "42 : Int", n: 1},

		// Arrow up recalls the last entry.
		{send: "\x1b[A\r", want: "42 : Int", n: 2},

		// Ctrl-R searches the history backwards.
		{send: "\x12found by", want: "bck-i-search: found by", n: 1},
		{send: "\r\r", want: "found by search\r\n", n: 2},

		// Ctrl-C while an entry runs cancels it (each turn of heavy runs a
		// few hundred slow native calls, so it takes many seconds in all).
		{send: "fn heavy(n: Int) -> Int:\r    if n == 0:\r        0\r    else:\r        List.len(List.range(0, 50000)) + heavy(n - 1)\r\r"},
		{send: "fn slow():\r    println(\"slow starts\")\r    println(heavy(10000))\r\r"},
		{send: "slow()\r", want: "slow starts\r\n", n: 1},
		{send: "\x03", want: "error: interrupted", n: 1, settle: true},

		// Ctrl-C at the prompt drops the line being typed.
		{send: "1 + "},
		{send: "\x03", want: "^C", n: 1},
		{send: "\"after ctrl-c\"\r", want: "\"after ctrl-c\" : String", n: 1},

		// A continued entry shows the continuation prompt.
		{send: "if x > 1:\r", want: "...> ", n: 1},
		{send: "    \"big\"\r"},
		{send: "else:\r"},
		{send: "    \"small\"\r"},
		{send: "\r", want: "\"big\" : String", n: 1},

		// An actor waiting at the end: Ctrl-D leaves and runs its defer.
		{send: "fn w():\r    defer println(\"w cleanup\")\r    receive:\r        0 -> ()\r\r"},
		{send: "let p = spawn(w)\r"},
		{send: ":actors\r", want: "in w: waiting in receive", n: 1},
		{send: "\x04", want: "w cleanup", n: 1},
	}
	for _, st := range script {
		if st.settle {
			time.Sleep(100 * time.Millisecond)
		}
		if st.send != "" {
			send(st.send)
		}
		if st.want != "" {
			out.waitFor(t, st.want, st.n)
		}
	}
	exited, err := testrun.Wait(cmd, 30*time.Second)
	if !exited {
		t.Fatalf("repl did not exit on Ctrl-D:\n%q", out.String())
	}
	if err != nil {
		t.Fatalf("repl exited with %v\n%q", err, out.String())
	}
	hist, err := os.ReadFile(filepath.Join(config, "morrow", "repl_history"))
	if err != nil {
		t.Fatalf("history file: %v", err)
	}
	for _, want := range []string{"let x = 41", "x + 1", "let p = spawn(w)"} {
		if !strings.Contains(string(hist), want) {
			t.Errorf("history file lacks %q:\n%s", want, hist)
		}
	}
}
