package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// kindsSrc has one test of each outcome of docs/testing.md.
const kindsSrc = `type Shape derive(Show, Eq):
    Circle(Int)
    Square(Int)

fn inverse(n: Int) -> Int: 100 / n

fn main():
    println("main must not run")

fn test_unit():
    println("unit output")

fn test_ok() -> Result((), String):
    Test.equal(inverse(50), 2)?
    Test.is_some(List.first([1]))

fn test_err_string() -> Result((), String):
    println("some output")
    Test.equal(inverse(25), 2)

fn test_err_value() -> Result((), Shape):
    Err(Circle(2))

fn test_fault():
    println("before the fault")
    let x = inverse(0)
    println("{x}")

fn test_exit():
    Process.exit(Process.Shutdown)

fn test_exit_normal():
    Process.exit(Process.Normal)

fn spin(n: Int) -> Int:
    spin(n + 1)

fn test_forever():
    let _ = spin(0)

fn test_deadlock():
    let _own: Pid(Int) = Process.self()
    receive:
        n -> println("{n}")

fn waiter(parent: Pid(String)):
    defer println("waiter cleanup ran")
    let _own: Pid(()) = Process.self()
    match send(parent, "ready"):
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        () -> ()

fn test_leaves_a_process():
    let own: Pid(String) = Process.self()
    let r: Result(Pid(()), Process.Error) = Process.spawn(() -> waiter(own))
    match r:
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        s -> println("child is {s}")

type Req:
    Double(Int, Pid(Int))

fn doubler():
    receive:
        Double(n, reply) ->
            match send(reply, n * 2):
                Ok(_) -> doubler()
                Err(_) -> ()

fn test_server() -> Result((), String):
    let r: Result(Pid(Req), Process.Error) = Process.spawn(doubler)
    let Ok(pid) = r else:
        return Err("spawn failed")
    match Process.monitor(Process.id(pid)):
        Ok(_) -> ()
        Err(_) -> return Err("monitor failed")
    match Process.call(pid, (reply) -> Double(21, reply), -1):
        Ok(n) -> Test.equal(n, 42)
        Err(e) -> Err("call failed: {show(e)}")

fn crasher():
    let _ = inverse(0)

fn test_linked_child_faults():
    let r: Result(Pid(()), Process.Error) = Process.spawn_link(crasher)
    match r:
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        () -> ()
`

// runIn runs `morrow ARGS` with the working directory's files given
// relative to dir.
func testCLI(t *testing.T, args ...string) result {
	t.Helper()
	return runCLI(t, map[string]string{}, args...)
}

func TestTestEveryOutcome(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "kinds.mr", kindsSrc)
	// The same verdicts at one scheduler, at four with stealing, and one
	// test at a time.
	// The endless test only once: it takes its whole timeout, which must
	// leave a loaded machine time to run the others.
	r := testCLI(t, "test", "--timeout", "2s", path)
	checkEveryOutcome(t, path, r, true)
	notForever := "^test_(unit|ok|err_string|err_value|fault|exit|exit_normal|deadlock|leaves_a_process|server|linked_child_faults)$"
	for _, flags := range [][]string{{"--schedulers", "4", "--steal"}, {"--parallel", "1"}} {
		r := testCLI(t, append(append([]string{"test", "--timeout", "10s", "--run", notForever}, flags...), path)...)
		checkEveryOutcome(t, path, r, false)
	}
}

func checkEveryOutcome(t *testing.T, path string, r result, forever bool) {
	t.Helper()
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	wantOut := "tests: 5/11 passed\n"
	if forever {
		wantOut = "tests: 5/12 passed\n"
	}
	if r.stdout != wantOut {
		t.Errorf("stdout %q", r.stdout)
	}
	want := fmt.Sprintf(`%[1]s:17: test_err_string failed: expected 2, got 4
    some output
%[1]s:21: test_err_value failed: Circle(2)
%[1]s:24: test_fault failed: runtime error: integer division by zero at %[1]s:5
    before the fault
%[1]s:29: test_exit failed: exited with reason Shutdown
%[1]s:38: test_forever failed: timed out after 2s
%[1]s:41: test_deadlock failed: deadlock: every process is waiting and nothing can wake them
%[1]s:88: test_linked_child_faults failed: exited with reason Fault(1)
`, path)
	if !forever {
		want = strings.Replace(want, path+":38: test_forever failed: timed out after 2s\n", "", 1)
	}
	if r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	if strings.Contains(r.stdout+r.stderr, "main must not run") {
		t.Error("main ran")
	}
}

func TestTestVerboseShowsPassingOutput(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "kinds.mr", kindsSrc)
	r := testCLI(t, "test", "-v", "--run", "unit|leaves|server|linked", path)
	// A linked child's fault kills the test with the child's reason.
	if r.code != 1 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	okLine := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(path) + `:(\d+): (test_\w+) ok \([0-9.]+[µm]?s\)$`)
	var passed []string
	for _, m := range okLine.FindAllStringSubmatch(r.stdout, -1) {
		passed = append(passed, m[2])
	}
	if got := strings.Join(passed, " "); got != "test_unit test_leaves_a_process test_server" {
		t.Errorf("passing tests listed: %q\n%s", got, r.stdout)
	}
	for _, s := range []string{"    unit output\n", "    child is ready\n    waiter cleanup ran\n", "tests: 3/4 passed\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	wantErr := path + ":88: test_linked_child_faults failed: exited with reason Fault(1)\n"
	if r.stderr != wantErr {
		t.Errorf("stderr %q, want %q", r.stderr, wantErr)
	}
}

func TestTestJSON(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "kinds.mr", kindsSrc)
	r := testCLI(t, "test", "--format", "json", "--run", "^test_(unit|err_string|fault)$", path)
	if r.code != 1 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 3 tests and a summary:\n%s", r.stdout)
	}
	type obj struct {
		Type     string   `json:"type"`
		Name     string   `json:"name"`
		File     string   `json:"file"`
		Line     int      `json:"line"`
		Status   string   `json:"status"`
		Duration *float64 `json:"duration"`
		Reason   *string  `json:"reason"`
		Output   string   `json:"output"`
		Seed     *uint64  `json:"seed"`
		Passed   int      `json:"passed"`
		Failed   int      `json:"failed"`
		Total    int      `json:"total"`
	}
	var got []obj
	for _, l := range lines {
		var o obj
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		got = append(got, o)
	}
	if o := got[0]; o.Type != "test" || o.Name != "test_unit" || o.File != path || o.Line != 10 || o.Status != "pass" ||
		o.Reason != nil || o.Output != "unit output\n" || o.Duration == nil || o.Seed != nil {
		t.Errorf("first object %+v", o)
	}
	if o := got[1]; o.Name != "test_err_string" || o.Status != "fail" || o.Reason == nil || *o.Reason != "expected 2, got 4" {
		t.Errorf("second object %+v", o)
	}
	if o := got[2]; o.Name != "test_fault" || o.Reason == nil || !strings.HasPrefix(*o.Reason, "runtime error: integer division by zero at ") {
		t.Errorf("third object %+v", o)
	}
	if o := got[3]; o.Type != "summary" || o.Passed != 1 || o.Failed != 2 || o.Total != 3 {
		t.Errorf("summary %+v", o)
	}
}

func TestTestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"good", "bad", "typo"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	good := testrun.WriteFile(t, dir, "good/ok.mr", "fn test_fine():\n    ()\n")
	// A directory: files are found recursively, a main is not needed.
	r := testCLI(t, "test", filepath.Dir(good))
	if r.code != 0 || r.stdout != "tests: 1/1 passed\n" || r.stderr != "" {
		t.Errorf("passing: %+v", r)
	}
	// A directory reached through a symbolic link is searched too.
	link := filepath.Join(dir, "link")
	if err := os.Symlink(filepath.Dir(good), link); err != nil {
		t.Fatal(err)
	}
	if r := testCLI(t, "test", link); r.code != 0 || r.stdout != "tests: 1/1 passed\n" {
		t.Errorf("symbolic link: %+v", r)
	}
	// No test at all: 0/0, status 0.
	r = testCLI(t, "test", "--run", "nothing", filepath.Dir(good))
	if r.code != 0 || r.stdout != "tests: 0/0 passed\n" {
		t.Errorf("none selected: %+v", r)
	}
	// A test_ function with the wrong signature does not compile: 2.
	bad := testrun.WriteFile(t, dir, "bad/sig.mr", "fn test_takes(n: Int):\n    println(n)\n")
	r = testCLI(t, "test", filepath.Dir(good), filepath.Dir(bad))
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "error[E3080]: test function 'test_takes' must take no parameters") {
		t.Errorf("bad signature: %+v", r)
	}
	// Any other compile error: 2, with the diagnostics of morrowc check.
	typo := testrun.WriteFile(t, dir, "typo/typo.mr", "fn test_typo():\n    let x: Int = \"s\"\n")
	r = testCLI(t, "test", typo)
	if r.code != 2 || !strings.Contains(r.stderr, "error[E3001]") || !strings.HasSuffix(r.stderr, "\n1 error\n") {
		t.Errorf("type error: %+v", r)
	}
	// A missing path.
	r = testCLI(t, "test", filepath.Join(dir, "missing"))
	if r.code != 2 || !strings.Contains(r.stderr, "cannot read") {
		t.Errorf("missing path: %+v", r)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"test", "--run", "(", good},
		{"test", "--timeout", "0s", good},
		{"test", "--parallel", "0", good},
		{"test", "--format", "xml", good},
		{"test", "--explore", "3", "--replay", "5", good},
		{"test", "--explore", "3", "--schedulers", "2", good},
	} {
		if r := testCLI(t, args...); r.code != 2 {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

// raceSrc loses an update in some schedules only: two clients each read
// the counter and write it back plus one.
const raceSrc = `type Store:
    Get(Pid(Int))
    Put(Int, Pid(Int))

fn sent(r: Result((), Int)):
    match r:
        Ok(()) -> ()
        Err(code) -> println("send failed: {code}")

fn store(value: Int):
    receive:
        Get(reply) ->
            sent(send(reply, value))
            store(value)
        Put(v, reply) ->
            sent(send(reply, v))
            store(v)

fn warm_up(n: Int) -> Int:
    if n == 0: 0 else: warm_up(n - 1)

fn client(st: Pid(Store), done: Pid(String), work: Int):
    let own: Pid(Int) = Process.self()
    let _ = warm_up(work)
    sent(send(st, Get(own)))
    let v = receive:
        n -> n
    sent(send(st, Put(v + 1, own)))
    receive:
        _ -> sent(send(done, "done"))

fn test_two_increments() -> Result((), String):
    let own: Pid(String) = Process.self()
    let st: Pid(Store) = spawn(() -> store(0))
    let _a: Pid(Int) = spawn(() -> client(st, own, 0))
    let _b: Pid(Int) = spawn(() -> client(st, own, 5000))
    receive:
        _ -> ()
    receive:
        _ -> ()
    match Process.call(st, (reply) -> Get(reply), -1):
        Ok(total) -> Test.equal(total, 2)
        Err(e) -> Err("call failed: {show(e)}")
`

func TestTestExploreFindsLostUpdate(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "counter.mr", raceSrc)
	if r := testCLI(t, "test", path); r.code != 0 {
		t.Fatalf("an ordinary run should pass: %+v", r)
	}
	r := testCLI(t, "test", "--explore", "300", path)
	if r.code != 1 || r.stdout != "tests: 0/1 passed\n" {
		t.Fatalf("explore: %+v", r)
	}
	m := regexp.MustCompile(`^` + regexp.QuoteMeta(path) + `:32: test_two_increments failed: expected 2, got 1\n` +
		`    rerun with: morrow test --run '\^test_two_increments\$' --replay (\d+) ` + regexp.QuoteMeta(shellQuote(path)) + "\n$").FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("stderr:\n%s", r.stderr)
	}
	r = testCLI(t, "test", "--run", "^test_two_increments$", "--replay", m[1], path)
	if r.code != 1 || !strings.Contains(r.stderr, "failed: expected 2, got 1") {
		t.Errorf("replay: %+v", r)
	}
	// The same schedule is replayed every time.
	if again := testCLI(t, "test", "--run", "^test_two_increments$", "--replay", m[1], path); again != r {
		t.Errorf("replays differ: %+v and %+v", r, again)
	}
}

func TestTestBadInput(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "bad.mr", `fn idle():
    receive:
        () -> ()

fn test_million_processes():
    spawn_all(1000000)

fn spawn_all(n: Int):
    if n > 0:
        let _p: Pid(()) = spawn(idle)
        spawn_all(n - 1)

fn test_million_isolated() -> Result((), String):
    spawn_isolated(1000000)

fn spawn_isolated(n: Int) -> Result((), String):
    if n == 0:
        return Ok(())
    let r: Result(Pid(()), Process.Error) = Process.spawn(idle)
    match r:
        Ok(_) -> spawn_isolated(n - 1)
        Err(e) -> Err("spawn refused after {1000000 - n} processes: {show(e)}")

fn test_fills_mailbox() -> Result((), String):
    let own: Pid(Int) = Process.self()
    fill(own, 0)

fn fill(own: Pid(Int), n: Int) -> Result((), String):
    match send(own, n):
        Ok(_) -> fill(own, n + 1)
        Err(code) -> Err("send {n} refused with {code}")

fn test_still_fine():
    println("fine")
`)
	r := testCLI(t, "test", "--timeout", "5s", path)
	want := fmt.Sprintf(`%[1]s:5: test_million_processes failed: runtime error: actor resource limit exceeded at %[1]s:10
%[1]s:13: test_million_isolated failed: spawn refused after 1023 processes: ResourceLimit
%[1]s:24: test_fills_mailbox failed: send 4096 refused with 4
`, path)
	if r.code != 1 || r.stdout != "tests: 1/4 passed\n" || !strings.HasPrefix(r.stderr, want[:strings.Index(want, "\n")+1]) {
		t.Fatalf("%+v", r)
	}
	// The legacy fault's report is the test's output, indented.
	got := regexp.MustCompile(`(?m)^    .*\n`).ReplaceAllString(r.stderr, "")
	if got != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
}

// TestTestSystemExit: a test that calls System.exit fails with that
// reason; the runner and the other tests go on.
func TestTestSystemExit(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "exit.mr", `fn test_exits():
    println("leaving")
    System.exit(3)

fn test_after():
    println("still here")
`)
	r := testCLI(t, "test", path)
	want := path + ":1: test_exits failed: called System.exit(3)\n    leaving\n"
	if r.code != 1 || r.stdout != "tests: 1/2 passed\n" || r.stderr != want {
		t.Fatalf("%+v\nwant stderr %q", r, want)
	}
}

// The tests of examples/ pass, in ordinary runs, at four schedulers with
// stealing, and under explored schedules.
func TestTestExamples(t *testing.T) {
	for _, args := range [][]string{
		{"test", "../../examples"},
		{"test", "--schedulers", "4", "--steal", "../../examples"},
		{"test", "--explore", "50", "../../examples/testing"},
	} {
		r := testCLI(t, args...)
		if r.code != 0 || r.stderr != "" || !regexp.MustCompile(`^tests: (\d+)/(\d+) passed\n$`).MatchString(r.stdout) ||
			strings.HasPrefix(r.stdout, "tests: 0/") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

// A process a test leaves behind whose cleanup never ends does not keep
// the test (or the runner) from ending.
func TestTestEndlessLeftoverCleanup(t *testing.T) {
	dir := t.TempDir()
	path := testrun.WriteFile(t, dir, "leftover.mr", `fn spin(n: Int) -> Int:
    spin(n + 1)

fn stubborn(parent: Pid(String)):
    defer println("cleanup {spin(0)}")
    match send(parent, "started"):
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        () -> ()

fn test_leaves_a_stubborn_process():
    let own: Pid(String) = Process.self()
    let r: Result(Pid(()), Process.Error) = Process.spawn(() -> stubborn(own))
    match r:
        Ok(_) -> ()
        Err(_) -> ()
    receive:
        s -> println(s)

fn test_other():
    println("other")
`)
	start := time.Now()
	r := testCLI(t, "test", "--timeout", "5s", path)
	if r.code != 0 || r.stdout != "tests: 2/2 passed\n" {
		t.Errorf("%+v", r)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("took %s", d)
	}
}
