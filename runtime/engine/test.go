package engine

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"context"
	"fmt"
	"io"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Tests (`morrow test`, docs/testing.md): with Options.Test set, a run
// starts the named test function as an isolated process of a fresh
// invocation instead of running main in the root context
// (sched.Runtime.RunTest), and Outcome.Test says whether it passed.

// TestResult is the verdict on one run of a test function.
type TestResult struct {
	Pass bool
	// Reason says why the test failed, in one line: the Err it returned
	// (a String as it is, any other value as show renders it), the fault
	// that retired it with its position, the reason it exited with, a
	// deadlock, or the failure that ended its whole invocation.
	Reason string
}

// Load loads a verified program with the standard library's natives: the
// image that Options.Image lets many runs of one program share.
func Load(v *bytecode.Verified) (*vm.Image, error) { return vm.Load(v, stdlib.Natives()) }

// TestFunction returns the index of the user function named name that can
// be started as a test (no parameters, no captured values), or -1.
func TestFunction(p *bytecode.Program, name string) int {
	for i, f := range p.Functions {
		if f.Name == name && f.Params == 0 && f.Captures == 0 && f.Flags&bytecode.FlagPrelude == 0 {
			return i
		}
	}
	return -1
}

// runTest runs opts.Test on rt and judges how it ended.
func runTest(ctx context.Context, rt *sched.Runtime, img *vm.Image, opts Options, out *sched.Output, stderr io.Writer) Outcome {
	fail := Outcome{Status: ExitFault}
	fn := TestFunction(img.Prog, opts.Test)
	if fn < 0 {
		fmt.Fprintf(stderr, "morrow: cannot run the test: no test function %s\n", opts.Test)
		fail.Test = &TestResult{Reason: "no test function " + opts.Test}
		return fail
	}
	st, err := vm.NewState(img, fn, nil)
	if err != nil {
		fmt.Fprintf(stderr, "morrow: cannot run the test: %v\n", err)
		fail.Test = &TestResult{Reason: err.Error()}
		return fail
	}
	res := rt.RunTest(ctx, st)
	out.Flush()
	o := Outcome{Deadlock: res.Deadlock, Decisions: res.Decisions, Steps: res.Steps,
		StepLimit: opts.MaxSteps > 0 && strings.HasPrefix(res.Report, stepLimitPrefix)}
	if res.Report != "" {
		io.WriteString(stderr, res.Report)
	}
	o.Test = judge(res)
	if !o.Test.Pass {
		o.Status = ExitFault
	}
	if res.Cancelled && !res.Test.Ended {
		o.Status = ExitInterrupted
	}
	return o
}

// judge decides whether a test passed (docs/testing.md): its process
// retired Normal after returning () or Ok(()).
func judge(res sched.Result) *TestResult {
	end := res.Test
	switch {
	case end.Fault != nil:
		r := "runtime error: " + end.Fault.Msg
		if loc := end.Fault.Location(); loc != "" {
			r += " at " + loc
		}
		return &TestResult{Reason: r}
	case end.Ended && !isNormal(end.Reason):
		return &TestResult{Reason: "exited with reason " + core.Show(end.Reason)}
	case end.Ended && !end.Returned:
		return &TestResult{Pass: true} // Process.exit(Process.Normal)
	case end.Returned:
		if d, ok := end.Value.Data(); ok && end.Value.Kind() == value.KData && d.Type == value.ResultType && d.Tag == value.TagErr {
			return &TestResult{Reason: errReason(d.Fields[0])}
		}
		return &TestResult{Pass: true}
	case res.Halted:
		// System.exit ends the test's own invocation only.
		return &TestResult{Reason: fmt.Sprintf("called System.exit(%d)", res.HaltStatus)}
	case res.Deadlock:
		// A deterministic run's deadlock also has the report of morrow
		// run (the process table) in res.Report.
		return &TestResult{Reason: "deadlock: every process is waiting and nothing can wake them"}
	case res.Report != "":
		return &TestResult{Reason: reportReason(res.Report)}
	case res.Cancelled:
		return &TestResult{Reason: "interrupted"}
	}
	return &TestResult{Reason: "its invocation stopped before the test process ended"}
}

// isNormal reports whether an exit reason is Normal.
func isNormal(r value.Value) bool {
	d, ok := r.Data()
	return ok && r.Kind() == value.KData && d.Tag == ptype.ReasonNormal
}

// errReason renders the payload of the Err a test returned: a String as
// it is (the Test assertions' messages), anything else as show does, cut
// as main's Err is.
func errReason(v value.Value) string {
	if v.Kind() == value.KString {
		s := v.AsString()
		if len(s) > maxErrText {
			return errText(v)
		}
		return s
	}
	return errText(v)
}

// reportReason is the first line of a fatal report without the
// "morrow: " prefix, with the position of its "  at" line.
func reportReason(report string) string {
	lines := strings.Split(strings.TrimRight(report, "\n"), "\n")
	r := strings.TrimPrefix(lines[0], "morrow: ")
	for _, l := range lines[1:] {
		if loc, ok := strings.CutPrefix(l, "  at "); ok {
			r += " at " + loc
			break
		}
	}
	return r
}
