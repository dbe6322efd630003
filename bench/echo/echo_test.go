package echo

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestMorrowEcho runs the Morrow server in this process under the load
// generator at 1 and 20 connections for a moment: it runs, echoes
// exactly, and ends on an interrupt. (No figure is taken.)
func TestMorrowEcho(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb testrun.Buffer
	done := make(chan int, 1)
	go func() { done <- ServeMorrow(ctx, 1, &out, &errb) }()
	addr := ""
	for deadline := time.Now().Add(10 * time.Second); addr == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := listeningRE.FindStringSubmatch(out.String()); m != nil {
			addr = "127.0.0.1:" + m[1]
		}
	}
	if addr == "" {
		cancel()
		t.Fatalf("no port: %q %q", out.String(), errb.String())
	}
	for _, n := range []int{1, 20} {
		lines, err := Load(addr, n, 200*time.Millisecond)
		if err != nil || lines == 0 {
			t.Errorf("%d connections: %d lines, %v", n, lines, err)
		}
	}
	cancel()
	if code := <-done; code != 130 {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestErlangEcho does the same with the BEAM server, when Erlang is
// installed.
func TestErlangEcho(t *testing.T) {
	erl, err1 := exec.LookPath("erl")
	erlc, err2 := exec.LookPath("erlc")
	if err1 != nil || err2 != nil {
		t.Skip("Erlang/OTP is not installed")
	}
	cmd, err := ErlangCommand(erl, erlc, t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	for _, n := range []int{1, 20} {
		lines, err := Load(s.Addr, n, 200*time.Millisecond)
		if err != nil || lines == 0 {
			t.Errorf("%d connections: %d lines, %v", n, lines, err)
		}
	}
}
