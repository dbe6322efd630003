package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, vars map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	if vars == nil {
		// The real entry point, as main calls it (the test environment has
		// no MORROW_* variables set).
		code := run(args, strings.NewReader(""), &out, &errb)
		return result{code, out.String(), errb.String()}
	}
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}
	code := runEnv(args, e)
	return result{code, out.String(), errb.String()}
}

const helloSrc = "fn main():\n    println(\"hello\")\n"

func TestHelpAndUsage(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"run", "--help"}} {
		r := runCLI(t, nil, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
			t.Errorf("%v: %+v", args, r)
		}
	}
	r := runCLI(t, nil, "run", "--help")
	for _, flag := range []string{"--schedulers", "--steal", "--seed", "--trace", "--color", "MORROW_SCHEDULERS"} {
		if !strings.Contains(r.stdout, flag) {
			t.Errorf("run --help does not mention %s", flag)
		}
	}
	hello := testrun.WriteFile(t, t.TempDir(), "hello.mr", helloSrc)
	for _, args := range [][]string{
		{},
		{"walk"},
		{"run"},
		{"run", hello, hello},
		{"run", "--schedulers", "0", hello},
		{"run", "--schedulers", "65", hello},
		{"run", "--schedulers", "two", hello},
		{"run", "--reductions", "0", hello},
		{"run", "--color=sometimes", hello},
		{"run", "--nope", hello},
	} {
		r := runCLI(t, nil, args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, "morrow: ") || r.stdout != "" {
			t.Errorf("%v: want usage error, got %+v", args, r)
		}
	}
}

func TestRunSource(t *testing.T) {
	hello := testrun.WriteFile(t, t.TempDir(), "hello.mr", helloSrc)
	r := runCLI(t, nil, "run", hello)
	if r.code != 0 || r.stdout != "hello\n" || r.stderr != "" {
		t.Errorf("run hello: %+v", r)
	}
	var out, errb bytes.Buffer
	code := runEnv([]string{"run", "-"}, &env{stdin: strings.NewReader(helloSrc), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	if code != 0 || out.String() != "hello\n" {
		t.Errorf("run from stdin: %d %q %q", code, out.String(), errb.String())
	}
}

func TestRunReportsCheckErrors(t *testing.T) {
	bad := testrun.WriteFile(t, t.TempDir(), "bad.mr", "fn main():\n    println(nope)\n")
	r := runCLI(t, nil, "run", bad)
	if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "error[E") || !strings.Contains(r.stderr, bad+":2:") {
		t.Errorf("run of a bad file: %+v", r)
	}
	if strings.Contains(r.stderr, "\x1b[") {
		t.Error("diagnostics coloured on a buffer")
	}
	if r := runCLI(t, nil, "run", "--color", bad); !strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("bare --color must mean always: %q", r.stderr)
	}
	if r := runCLI(t, nil, "run", filepath.Join(t.TempDir(), "missing.mr")); r.code != 1 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("missing file: %+v", r)
	}
	if !strings.HasSuffix(r.stderr, "\n\n1 error\n") {
		t.Errorf("diagnostics do not end with the summary line: %q", r.stderr)
	}
	two := testrun.WriteFile(t, t.TempDir(), "two.mr", "fn main():\n    println(nope)\n    println(nada)\n")
	if r := runCLI(t, nil, "run", two); r.code != 1 || !strings.HasSuffix(r.stderr, "\n\n2 errors\n") {
		t.Errorf("two errors: %+v", r)
	}
}

// TestRunUsageMessages: a flag value of the wrong kind names what was
// expected, and --color behaves as in morrowc (value only with '=').
func TestRunUsageMessages(t *testing.T) {
	hello := testrun.WriteFile(t, t.TempDir(), "hello.mr", helloSrc)
	r := runCLI(t, nil, "run", "--schedulers", "abc", hello)
	if r.code != 2 || !strings.HasPrefix(r.stderr, `morrow: invalid value "abc" for --schedulers: want an integer (number of schedulers, 1..64`) || strings.Contains(r.stderr, "strconv") {
		t.Errorf("--schedulers abc: %+v", r)
	}
	r = runCLI(t, nil, "run", "--color", hello)
	if r.code != 0 || r.stdout != "hello\n" {
		t.Errorf("run --color hello.mr must run the file: %+v", r)
	}
	r = runCLI(t, nil, "run", "--color", "never", hello)
	if r.code != 2 || !strings.Contains(r.stderr, "--color=never") {
		t.Errorf("run --color never hello.mr: %+v", r)
	}
	r = runCLI(t, nil, "rnu", hello)
	if r.code != 2 || !strings.Contains(r.stderr, "did you mean 'run'?") {
		t.Errorf("rnu: %+v", r)
	}
}

// TestRunBytecodeByContent: a bytecode file runs whatever its name; a
// binary file is refused in one line.
func TestRunBytecodeByContent(t *testing.T) {
	dir := t.TempDir()
	img := buildImage(t, helloSrc)
	renamed := testrun.WriteFile(t, dir, "hello.bin", string(img))
	if r := runCLI(t, nil, "run", renamed); r.code != 0 || r.stdout != "hello\n" || r.stderr != "" {
		t.Errorf("bytecode named .bin: %+v", r)
	}
	blob := testrun.WriteFile(t, dir, "blob.mr", "\x7fELF\x02\x01\x01\x00\x00\x00\x00")
	if r := runCLI(t, nil, "run", blob); r.code != 1 || r.stderr != "morrow: "+blob+" is a binary file, not Morrow source\n" {
		t.Errorf("binary file: %+v", r)
	}
}

func TestExitStatusForwarding(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		src    string
		code   int
		stdout string
		stderr string
	}{
		{"fn main() -> Int:\n    println(\"bye\")\n    3\n", 3, "bye\n", ""},
		{"fn main() -> Int: 0\n", 0, "", ""},
		{"fn main() -> Result((), String):\n    Err(\"no\")\n", 1, "", "morrow: main returned Err(\"no\")\n"},
		{"fn main() -> Int: 256\n", 0, "", "morrow: warning: main returned 256, outside 0..255; the exit status is 0 (its low 8 bits)\n"},
		{"fn main() -> Int: 0 - 1\n", 255, "", "morrow: warning: main returned -1, outside 0..255"},
		{"fn main() -> Result((), String):\n    Ok(())\n", 0, "", ""},
		{"fn div(a: Int, b: Int) -> Int: a / b\n\nfn main():\n    println(\"before\")\n    println(div(a: 1, b: 0))\n", 1, "before\n", "morrow: runtime error: integer division by zero"},
	}
	for i, c := range cases {
		p := testrun.WriteFile(t, dir, "p"+string(rune('a'+i))+".mr", c.src)
		r := runCLI(t, nil, "run", p)
		if r.code != c.code || r.stdout != c.stdout || !strings.Contains(r.stderr, c.stderr) || (c.stderr == "" && r.stderr != "") {
			t.Errorf("case %d: got %+v, want code %d stdout %q stderr ~%q", i, r, c.code, c.stdout, c.stderr)
		}
	}
}

// buildImage compiles src the way `morrowc build` does.
func buildImage(t *testing.T, src string) []byte {
	t.Helper()
	return bytecode.Encode(testrun.Compile(t, "prog.mr", src))
}

func TestRunBytecode(t *testing.T) {
	dir := t.TempDir()
	mrb := filepath.Join(dir, "prog.mrb")
	os.WriteFile(mrb, buildImage(t, "fn main() -> Int:\n    println(\"from mrb\")\n    7\n"), 0o644)
	r := runCLI(t, nil, "run", mrb)
	if r.code != 7 || r.stdout != "from mrb\n" || r.stderr != "" {
		t.Errorf("run .mrb: %+v", r)
	}
}

// TestVerifiedOncePerRun: running a .mrb file or a source file verifies
// the program exactly once (the loader or the compiler verifies it, the
// engine and the VM take the proof instead of verifying again).
func TestVerifiedOncePerRun(t *testing.T) {
	dir := t.TempDir()
	mrb := filepath.Join(dir, "prog.mrb")
	os.WriteFile(mrb, buildImage(t, "fn main() -> Int:\n    println(\"once\")\n    3\n"), 0o644)
	src := testrun.WriteFile(t, dir, "prog.mr", "fn main() -> Int:\n    println(\"once\")\n    3\n")
	for _, path := range []string{mrb, src} {
		before := bytecode.Verifications()
		r := runCLI(t, nil, "run", path)
		if r.code != 3 || r.stdout != "once\n" {
			t.Fatalf("run %s: %+v", path, r)
		}
		if n := bytecode.Verifications() - before; n != 1 {
			t.Errorf("run %s verified the program %d times, want 1", filepath.Base(path), n)
		}
	}
}

func TestRunRefusesBadBytecode(t *testing.T) {
	dir := t.TempDir()
	img := buildImage(t, helloSrc)
	bad := map[string][]byte{
		"empty":   nil,
		"garbage": []byte("definitely not a Morrow bytecode file\n"),
		"source":  []byte(helloSrc),
	}
	for n := 0; n < len(img); n++ {
		bad[fmt.Sprintf("truncated-%d", n)] = img[:n]
	}
	for name, data := range bad {
		p := filepath.Join(dir, "bad.mrb")
		os.WriteFile(p, data, 0o644)
		r := runCLI(t, nil, "run", p)
		if r.code != 1 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "morrow: cannot load "+p+": ") {
			t.Errorf("%s: want a one-line refusal, got %+v", name, r)
		}
		if strings.Contains(r.stderr, "panic") {
			t.Errorf("%s: decoder panicked: %s", name, r.stderr)
		}
	}
}

func TestSchedulerSettings(t *testing.T) {
	checkOptions(t, []optionsCase{
		{nil, nil, engine.Options{Schedulers: 1}, ""},
		{map[string]string{"MORROW_SCHEDULERS": "4", "MORROW_WORK_STEALING": "1", "MORROW_REDUCTIONS": "100"}, nil, engine.Options{Schedulers: 4, Steal: true, Reductions: 100}, ""},
		{map[string]string{"MORROW_SCHEDULERS": "4", "MORROW_WORK_STEALING": "1"}, []string{"--schedulers=2", "--steal=false"}, engine.Options{Schedulers: 2}, ""},
		{map[string]string{"MORROW_REDUCTIONS": "5"}, []string{"--reductions=9", "--steal"}, engine.Options{Schedulers: 1, Steal: true, Reductions: 9}, ""},
		{map[string]string{"MORROW_SCHEDULERS": "0"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_SCHEDULERS": "65"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_SCHEDULERS": "many"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_SCHEDULERS": "many"}, []string{"--schedulers=3"}, engine.Options{Schedulers: 3}, ""},
		{map[string]string{"MORROW_REDUCTIONS": "70000"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_WORK_STEALING": "maybe"}, nil, engine.Options{}, "config"},
		{nil, []string{"--schedulers=0"}, engine.Options{}, "usage"},
	}, func(o engine.Options) engine.Options {
		return engine.Options{Schedulers: o.Schedulers, Steal: o.Steal, Reductions: o.Reductions}
	})
	hello := testrun.WriteFile(t, t.TempDir(), "hello.mr", helloSrc)
	r := runCLI(t, map[string]string{"MORROW_SCHEDULERS": "zero"}, "run", hello)
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "morrow: runtime error: actor resource limit exceeded\n") {
		t.Errorf("invalid MORROW_SCHEDULERS: %+v", r)
	}
}

func TestTraceFile(t *testing.T) {
	dir := t.TempDir()
	hello := testrun.WriteFile(t, dir, "hello.mr", helloSrc)
	trace := filepath.Join(dir, "trace.txt")
	if r := runCLI(t, nil, "run", "--trace", trace, hello); r.code != 0 || r.stdout != "hello\n" {
		t.Errorf("run --trace: %+v", r)
	}
	if _, err := os.Stat(trace); err != nil {
		t.Errorf("trace file not created: %v", err)
	}
	if r := runCLI(t, nil, "run", "--trace", filepath.Join(dir, "no", "dir", "t.txt"), hello); r.code != 1 || !strings.Contains(r.stderr, "cannot create trace file") {
		t.Errorf("unwritable trace: %+v", r)
	}
}

// notifyWriter reports the first write on a channel.
type notifyWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first chan struct{}
	once  sync.Once
}

func (w *notifyWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.first) })
	return w.buf.Write(b)
}

// spinSrc prints, then loops forever in a tail call.
const spinSrc = "fn spin(n: Int) -> Int: spin(n + 1)\n\nfn main():\n    println(\"started\")\n    println(spin(0))\n"

func TestSignalsCancel(t *testing.T) {
	old := graceAfterSignal
	graceAfterSignal = 20 * time.Second
	defer func() { graceAfterSignal = old }()
	spin := testrun.WriteFile(t, t.TempDir(), "spin.mr", spinSrc)

	for _, c := range []struct {
		name string
		sig  syscall.Signal
		real bool
		want int
	}{
		{"SIGINT via channel", syscall.SIGINT, false, 130},
		{"SIGTERM via channel", syscall.SIGTERM, false, 143},
		{"real SIGTERM", syscall.SIGTERM, true, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := &notifyWriter{first: make(chan struct{})}
			sigs := make(chan os.Signal, 1)
			e := &env{stdin: strings.NewReader(""), stdout: out, stderr: io.Discard, getenv: func(string) string { return "" }}
			if !c.real {
				e.signals = sigs
			}
			done := make(chan int, 1)
			go func() { done <- runEnv([]string{"run", spin}, e) }()
			select {
			case <-out.first:
			case code := <-done:
				t.Fatalf("program ended early with %d", code)
			case <-time.After(20 * time.Second):
				t.Fatal("program did not start")
			}
			start := time.Now()
			if c.real {
				syscall.Kill(os.Getpid(), c.sig)
			} else {
				sigs <- c.sig
			}
			select {
			case code := <-done:
				if code != c.want {
					t.Errorf("exit %d, want %d", code, c.want)
				}
				if d := time.Since(start); d > 10*time.Second {
					t.Errorf("cancellation took %v: the engine does not honour its context", d)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("run did not return after the signal")
			}
		})
	}
}

func TestOutputsKeepOrder(t *testing.T) {
	var both bytes.Buffer
	o := newOutputs(&both, &both)
	io.WriteString(o.stdoutWriter(), "one\n")
	io.WriteString(o.stderrWriter(), "two\n")
	io.WriteString(o.stdoutWriter(), "three\n")
	o.close()
	if both.String() != "one\ntwo\nthree\n" {
		t.Errorf("stdout/stderr interleaving lost: %q", both.String())
	}
}

// TestTraceOrderedWithOutput: with --trace - and both streams on one
// destination, each trace line comes after the output written before its
// event and before the output written after it.
func TestTraceOrderedWithOutput(t *testing.T) {
	src := `fn child():
    println("child runs")

fn main():
    println("before spawn")
    let started: Result(Pid(()), Process.Error) = Process.spawn(child)
    match started:
        Ok(_) -> println("spawned")
        Err(_) -> println("failed")
`
	p := testrun.WriteFile(t, t.TempDir(), "tr.mr", src)
	var both testrun.Buffer // one destination shared by stdout and stderr
	code := runEnv([]string{"run", "--trace", "-", p}, &env{stdin: strings.NewReader(""), stdout: &both, stderr: &both, getenv: func(string) string { return "" }})
	want := "spawn 1 root\nbefore spawn\nspawn 2 by 1 child\nspawned\nretire 1 Normal\nchild runs\nretire 2 Normal\n"
	if code != 0 || both.String() != want {
		t.Errorf("exit %d, combined output:\n%s\nwant:\n%s", code, both.String(), want)
	}
}

// TestRunWarnings: warnings are shown before the program runs; under
// --deny-warnings the program does not run.
func TestRunWarnings(t *testing.T) {
	w := testrun.WriteFile(t, t.TempDir(), "w.mr", "fn main():\n    let unused = 1\n    println(\"hi\")\n")
	r := runCLI(t, nil, "run", w)
	if r.code != 0 || r.stdout != "hi\n" || !strings.Contains(r.stderr, "warning[W0001]: unused variable 'unused'") || !strings.HasSuffix(r.stderr, "\n\n1 warning\n") {
		t.Errorf("run with a warning: %+v", r)
	}
	r = runCLI(t, nil, "run", "--deny-warnings", w)
	if r.code != 1 || r.stdout != "" || !strings.HasSuffix(r.stderr, "1 warning (denied by --deny-warnings)\n") {
		t.Errorf("run --deny-warnings: %+v", r)
	}
}

// optionsCase is a row of the tables of how flags (args) and environment
// variables (vars) of `morrow run` become engine options: err is the kind
// of error wanted ("config", "usage"), or "" for want, the options that
// the table is about.
type optionsCase struct {
	vars map[string]string
	args []string
	want engine.Options
	err  string
}

// checkOptions checks each case; fields keeps the options the table is
// about and zeroes the others.
func checkOptions(t *testing.T, cases []optionsCase, fields func(engine.Options) engine.Options) {
	t.Helper()
	for i, c := range cases {
		opts, err := runOptions(t, i, c.vars, c.args)
		if wantOptionsError(t, i, c.err, err) && (err != nil || fields(opts) != c.want) {
			t.Errorf("case %d: got %+v, %v; want %+v", i, fields(opts), err, c.want)
		}
	}
}

// runOptions parses args, with the environment variables vars, as `morrow
// run` does and returns the engine options they give. i names the case.
func runOptions(t *testing.T, i int, vars map[string]string, args []string) (engine.Options, error) {
	t.Helper()
	e := &env{getenv: func(k string) string { return vars[k] }}
	f := &runFlags{}
	cmd := newRunWith(e, f)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatalf("case %d: %v", i, err)
	}
	return f.options(cmd, e)
}

// wantOptionsError checks that err is of the kind case i wants: "config"
// (a configuration error) or "usage" (a usage error). It returns true
// when the case wants no error, so that the caller compares the options.
func wantOptionsError(t *testing.T, i int, kind string, err error) bool {
	t.Helper()
	switch kind {
	case "config":
		if _, ok := err.(*configError); !ok {
			t.Errorf("case %d: want a configuration error, got %v", i, err)
		}
	case "usage":
		if _, ok := err.(*usageError); !ok {
			t.Errorf("case %d: want a usage error, got %v", i, err)
		}
	}
	return kind == ""
}
