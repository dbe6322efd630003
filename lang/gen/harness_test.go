package gen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/gen"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/fault"
)

// runTimeout bounds one run. Generated programs finish in milliseconds;
// the bound only catches hangs, and is generous for a loaded machine.
const runTimeout = 20 * time.Second

// documentedFaults are the docs/reference/actors.md#fault-codes faults a well-typed program
// may end with. 8 (timeout range) and 10 (legacy deadlock) cannot happen
// in generated programs (timeouts are 0–15 ms, every receive has one), 11
// and 12 are infrastructure faults: all four are failures here.
var documentedFaults = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 9: true, 15: true}

// result is what happened to one program.
type result struct {
	failure string // empty when the program behaved
	stage   string // where it failed
	fault   int    // documented fault code it ended with, 0 for none
	status  int
}

// trace prints each seed before it runs when MORROW_GEN_TRACE=1, so a
// crash of the whole test binary (a panic in a scheduler goroutine)
// still names the program.
var trace = os.Getenv("MORROW_GEN_TRACE") == "1"

// checkWellTyped runs one generated program through the whole pipeline:
// check, compile, verify, encode, decode, verify, run (the decoded
// program; programs without processes also run in memory and must
// behave the same).
func checkWellTyped(p *gen.Program) (res result) {
	if trace {
		fmt.Fprintf(os.Stderr, "gen: seed %d\n", p.Seed)
	}
	defer func() {
		if r := recover(); r != nil {
			res = result{failure: fmt.Sprintf("Go panic: %v\n%s", r, debug.Stack()), stage: "panic"}
		}
	}()
	name := fmt.Sprintf("gen%d.mr", p.Seed)
	u, err := compiler.Build(name, []byte(p.Source))
	if err != nil {
		return result{failure: "internal compiler error: " + err.Error(), stage: stageOf(err)}
	}
	if u.Diags.HasErrors() {
		return result{failure: "check rejected a well-typed program:\n" + u.Diags.Err().Error(), stage: "check"}
	}
	prog := u.Program
	if err := bytecode.Verify(prog); err != nil {
		return result{failure: "verifier: " + err.Error(), stage: "verify"}
	}
	enc := bytecode.Encode(prog)
	dec, err := bytecode.Decode(enc)
	if err != nil {
		return result{failure: "decode of the encoded program: " + err.Error(), stage: "decode"}
	}
	if err := bytecode.Verify(dec); err != nil {
		return result{failure: "verifier after decode: " + err.Error(), stage: "verify"}
	}
	if !bytes.Equal(bytecode.Encode(dec), enc) {
		return result{failure: "encode(decode(encode(p))) differs from encode(p)", stage: "decode"}
	}
	out, status, failure := run(dec, p.Seed)
	if failure != "" {
		return result{failure: failure, stage: "run", status: status}
	}
	res = result{status: status, fault: out.fault}
	if !p.Actors {
		out2, status2, failure2 := run(prog, p.Seed)
		if failure2 != "" {
			return result{failure: "in-memory program: " + failure2, stage: "run"}
		}
		if out2.stdout != out.stdout || status2 != status || out2.stderr != out.stderr {
			return result{failure: fmt.Sprintf("decoded and in-memory programs differ:\n--- decoded (status %d)\n%s%s--- in memory (status %d)\n%s%s",
				status, out.stdout, out.stderr, status2, out2.stdout, out2.stderr), stage: "run"}
		}
	}
	return res
}

type runOut struct {
	stdout, stderr string
	fault          int
}

// run executes prog and classifies its stderr.
func run(prog *bytecode.Program, seed int64) (runOut, int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	opts := engine.Options{Stdout: &stdout, Stderr: &stderr, Seed: seed, Schedulers: 1 + int(uint64(seed)%2), Steal: seed%3 == 0}
	status := engine.Run(ctx, prog, opts)
	out := runOut{stdout: stdout.String(), stderr: stderr.String()}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || status == engine.ExitInterrupted {
		return out, status, fmt.Sprintf("did not finish within %s (status %d); stdout so far:\n%s", runTimeout, status, tail(out.stdout))
	}
	if msg := badStderr(out.stderr, &out.fault); msg != "" {
		return out, status, msg + "\nstdout:\n" + tail(out.stdout)
	}
	return out, status, ""
}

// badStderr accepts an empty stderr, `morrow: main returned Err`, and a
// documented fault report; anything else is a failure.
func badStderr(stderr string, found *int) string {
	// The runner's warnings (an exit status outside 0..255) are not faults.
	for strings.HasPrefix(stderr, "morrow: warning:") {
		_, stderr, _ = strings.Cut(stderr, "\n")
	}
	if stderr == "" {
		return ""
	}
	if strings.Contains(stderr, "internal error") || strings.Contains(stderr, "panic") {
		return "run-time internal error:\n" + stderr
	}
	first, _, _ := strings.Cut(stderr, "\n")
	if strings.HasPrefix(first, "morrow: main returned Err") {
		return ""
	}
	if msg, ok := strings.CutPrefix(first, "morrow: runtime error: "); ok {
		for i, info := range fault.Table {
			code, text := i+1, info.Text
			if msg == text {
				if documentedFaults[code] {
					*found = code
					return ""
				}
				return fmt.Sprintf("fault %d (%s):\n%s", code, text, stderr)
			}
		}
	}
	return "unexpected stderr:\n" + stderr
}

func stageOf(err error) string {
	var ie *compiler.InternalError
	if errors.As(err, &ie) {
		return ie.Stage.String()
	}
	return "compile"
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// report formats a failure with everything needed to reproduce it.
func report(p *gen.Program, res result) string {
	return fmt.Sprintf("seed %d: %s (stage %s)\n--- program (reproduce: go test ./lang/gen -run TestWellTyped -gen.seed=%d -v) ---\n%s",
		p.Seed, res.failure, res.stage, p.Seed, numbered(p.Source))
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

// reportFailures reports each failure in sorted order: the first three in
// full, the others only up to marker (the line that starts the program
// listing), so that a broken generator does not print thousands of
// programs.
func reportFailures(t *testing.T, failures []string, marker string) {
	t.Helper()
	sort.Strings(failures)
	for i, f := range failures {
		if i < 3 {
			t.Error(f)
			continue
		}
		first, _, _ := strings.Cut(f, marker)
		t.Error(first)
	}
}
