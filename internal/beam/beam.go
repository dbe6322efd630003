// Package beam runs Erlang/OTP for the code that compares Morrow with it:
// the benchmarks (bench) and the conformance suite (conformance). It finds
// erl and erlc, compiles Erlang modules, and runs erl with a time limit.
package beam

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Find returns the paths of erl and erlc, looked up in PATH ("erl" and
// "erlc" when empty).
func Find(erl, erlc string) (string, string, error) {
	if erl == "" {
		erl = "erl"
	}
	if erlc == "" {
		erlc = "erlc"
	}
	for _, exe := range []*string{&erl, &erlc} {
		p, err := exec.LookPath(*exe)
		if err != nil {
			return "", "", fmt.Errorf("%s not found (install Erlang/OTP: apt-get install erlang-nox): %w", *exe, err)
		}
		*exe = p
	}
	return erl, erlc, nil
}

// Compile compiles the Erlang sources srcs with erlc into dir, flags
// (e.g. -Werror) before them, and stops erlc after timeout. The error
// holds what erlc wrote.
func Compile(erlc, dir string, timeout time.Duration, flags []string, srcs ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := append(append(append([]string{}, flags...), "-o", dir), srcs...)
	out, err := exec.CommandContext(ctx, erlc, args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("erlc: %v\n%s", err, out)
	}
	return nil
}

// Run runs erl with args in dir (the current directory when ""), its
// standard output and error written to stdout and stderr, and stops it
// after timeout: the error then says so.
func Run(erl, dir string, timeout time.Duration, stdout, stderr io.Writer, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, erl, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("erl timed out after %v", timeout)
	}
	return err
}

// Eval evaluates the Erlang expression expr (which ends with halt()) in a
// fresh erl and returns what it printed.
func Eval(erl string, timeout time.Duration, expr string) (string, error) {
	var out strings.Builder
	err := Run(erl, "", timeout, &out, io.Discard, "-noshell", "-eval", expr)
	return out.String(), err
}
