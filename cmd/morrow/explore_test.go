package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/explore"
	"github.com/morrow-lang/morrow/runtime/trace"
)

// A program whose outcome depends on the schedule in several ways: the
// order of two senders, a timeout racing a message, and a deadlock when
// the timeout wins. The timeout can win only with eager timeouts
// (--explore-timeouts=eager); by default a timer fires only when nothing
// else can happen.
const racySrc = `type Msg:
    Hello(String)

fn greeter(to: Pid(Msg), name: String):
    match send(to, Hello(name)):
        Ok(()) -> ()
        Err(code) -> println("{name}: send failed with {code}")

fn started(r: Result(Pid(()), Process.Error)):
    match r:
        Ok(_) -> ()
        Err(_) -> println("spawn failed")

fn listener():
    let own: Pid(Msg) = Process.self()
    started(Process.spawn(() -> greeter(own, "ann")))
    started(Process.spawn(() -> greeter(own, "bob")))
    receive:
        Hello(a) ->
            receive:
                Hello(b) -> println("{a} then {b}")
                _ after 50 ->
                    println("{a} alone")
                    receive:
                        Hello(_) if false -> ()

fn main():
    match Process.spawn(listener):
        Ok(_) -> ()
        Err(_) -> println("no listener")
`

type jsonOut struct {
	File      string `json:"file"`
	Schedules int    `json:"schedules"`
	Steps     int64  `json:"steps"`
	Outcomes  []struct {
		Schedules  int    `json:"schedules"`
		Replay     uint64 `json:"replay"`
		ExitStatus int    `json:"exit_status"`
		Stdout     string `json:"stdout"`
		Stderr     string `json:"stderr"`
		Deadlock   bool   `json:"deadlock"`
		StepLimit  bool   `json:"step_limit"`
	} `json:"outcomes"`
}

// TestExploreReplay explores programs with several outcomes and replays
// the first seed of each: the replay writes exactly what the explored
// run wrote, and exits with its status. The racy program is explored
// and replayed with eager timeouts.
func TestExploreReplay(t *testing.T) {
	dir := t.TempDir()
	racy := testrun.WriteFile(t, dir, "racy.mr", racySrc)
	kinds := map[string]bool{}
	for _, file := range []string{racy, "../../examples/ordering/lost_update.mr", "../../examples/ordering/reply_or_down.mr"} {
		mode := "--explore-timeouts=lazy"
		if file == racy {
			mode = "--explore-timeouts=eager"
		}
		r := runCLI(t, nil, "run", "--explore", "300", "--format", "json", mode, file)
		var rep jsonOut
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%s: %v\n%s%s", file, err, r.stdout, r.stderr)
		}
		if r.code != 1 || len(rep.Outcomes) < 2 || rep.Schedules != 300 || rep.Steps < 1 || r.stderr != "" {
			t.Fatalf("%s: exit %d, report %+v, stderr %q", file, r.code, rep, r.stderr)
		}
		total := 0
		for _, o := range rep.Outcomes {
			total += o.Schedules
			seed := strconv.FormatUint(o.Replay, 10)
			again := runCLI(t, nil, "run", "--replay", seed, mode, file)
			if again.code != o.ExitStatus || again.stdout != o.Stdout || again.stderr != o.Stderr {
				t.Errorf("%s --replay %s: exit %d, stdout %q, stderr %q; explored: exit %d, stdout %q, stderr %q",
					file, seed, again.code, again.stdout, again.stderr, o.ExitStatus, o.Stdout, o.Stderr)
			}
			if o.Deadlock {
				kinds["deadlock"] = true
				if !strings.Contains(o.Stderr, "deadlock") {
					t.Errorf("%s: a deadlock outcome without its message: %q", file, o.Stderr)
				}
			}
			if o.ExitStatus != 0 {
				kinds["status"] = true
			}
			// A traced replay runs the same schedule, and its trace keeps
			// the model's guarantees.
			tf := filepath.Join(dir, "run.trace")
			traced := runCLI(t, nil, "run", "--replay", seed, mode, "--trace", tf, "--trace-messages", file)
			if traced.stdout != o.Stdout || traced.code != o.ExitStatus {
				t.Errorf("%s --replay %s --trace: stdout %q, exit %d", file, seed, traced.stdout, traced.code)
			}
			data, err := os.ReadFile(tf)
			if err != nil {
				t.Fatal(err)
			}
			evs, err := trace.Parse(strings.NewReader(string(data)))
			if err != nil {
				t.Fatalf("%s --replay %s: trace: %v", file, seed, err)
			}
			if bad := explore.CheckTrace(evs, 3); len(bad) > 0 {
				t.Errorf("%s --replay %s: %v", file, seed, bad)
			}
			kinds["outcome"] = true
		}
		if total != 300 {
			t.Errorf("%s: the outcomes count %d schedules, want 300", file, total)
		}
	}
	if !kinds["deadlock"] || !kinds["status"] {
		t.Errorf("no outcome of these kinds was replayed: %v", kinds)
	}
}

// TestExploreTimeouts: by default a timer fires only when nothing else
// can happen, so the racy program's timeout never wins (no deadlock
// outcome, only the two orders of the senders); the JSON report says
// which timeouts it ran with.
func TestExploreTimeouts(t *testing.T) {
	racy := testrun.WriteFile(t, t.TempDir(), "racy.mr", racySrc)
	for _, c := range []struct {
		args     []string
		timeouts string
		deadlock bool
	}{
		{nil, "lazy", false},
		{[]string{"--explore-timeouts=eager"}, "eager", true},
	} {
		r := runCLI(t, nil, append([]string{"run", "--explore", "200", "--format", "json", racy}, c.args...)...)
		var rep struct {
			jsonOut
			Timeouts string `json:"timeouts"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, r.stdout)
		}
		deadlock := false
		for _, o := range rep.Outcomes {
			deadlock = deadlock || o.Deadlock
		}
		if rep.Timeouts != c.timeouts || deadlock != c.deadlock || (!c.deadlock && len(rep.Outcomes) != 2) {
			t.Errorf("%v: timeouts %q, %d outcomes, deadlock %v; want %q, deadlock %v", c.args, rep.Timeouts, len(rep.Outcomes), deadlock, c.timeouts, c.deadlock)
		}
	}
}

// TestExploreText checks the text report and the exit status: 0 when
// every schedule agrees, 1 when they do not.
func TestExploreText(t *testing.T) {
	dir := t.TempDir()
	one := testrun.WriteFile(t, dir, "one.mr", helloSrc)
	r := runCLI(t, nil, "run", "--explore", "5", one)
	seed := explore.SeedFor(0, 0)
	want := "explored 5 schedules of " + filepath.ToSlash(one) + " (seed 0): 1 outcome\n\n" +
		"outcome 1: 5 of 5 schedules, first with --replay " + strconv.FormatUint(seed, 10) + "\n" +
		"  exit status 0\n  stdout:\n    hello\n"
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	racy := testrun.WriteFile(t, dir, "racy.mr", racySrc)
	r = runCLI(t, nil, "run", "--explore", "200", "--seed", "7", "--explore-timeouts=eager", racy)
	if r.code != 1 || !strings.HasPrefix(r.stdout, "explored 200 schedules of "+filepath.ToSlash(racy)+" (seed 7): ") ||
		!strings.Contains(r.stdout, "\noutcome 2: ") || !strings.Contains(r.stdout, "  stderr:\n    morrow: deadlock:") {
		t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
	}
	// The same seed gives the same report.
	if again := runCLI(t, nil, "run", "--explore", "200", "--seed", "7", "--explore-timeouts=eager", racy); again.stdout != r.stdout {
		t.Errorf("two explorations with one seed differ:\n%s\n---\n%s", r.stdout, again.stdout)
	}
	noNewline := testrun.WriteFile(t, dir, "nonl.mr", "fn main():\n    print(\"a\\nb\")\n")
	r = runCLI(t, nil, "run", "--explore", "1", noNewline)
	if !strings.Contains(r.stdout, "  stdout:\n    a\n    b\n    (no newline at the end)\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	quiet := testrun.WriteFile(t, dir, "quiet.mr", "fn main():\n    ()\n")
	r = runCLI(t, nil, "run", "--explore", "1", quiet)
	if !strings.Contains(r.stdout, "  stdout: (empty)\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

func TestExploreUsage(t *testing.T) {
	dir := t.TempDir()
	f := testrun.WriteFile(t, dir, "one.mr", helloSrc)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--explore", "0"}, "--explore must be between 1 and"},
		{[]string{"--explore", "5", "--replay", "3"}, "cannot be used together"},
		{[]string{"--explore", "5", "--format", "xml"}, "--format must be text or json"},
		{[]string{"--format", "json"}, "--format needs --explore"},
		{[]string{"--explore", "5", "--schedulers", "4"}, "one scheduler"},
		{[]string{"--replay", "5", "--steal"}, "one scheduler"},
		{[]string{"--explore", "5", "--trace", "x.trace"}, "--replay SEED --trace FILE"},
		{[]string{"--explore", "5", "--cpuprofile", "x.prof"}, "cannot be profiled"},
		{[]string{"--replay", "x"}, "replay"},
		{[]string{"--explore-timeouts=eager"}, "--explore-timeouts needs --explore or --replay"},
		{[]string{"--explore", "5", "--explore-timeouts=soon"}, "--explore-timeouts must be lazy or eager"},
	} {
		r := runCLI(t, nil, append(append([]string{"run"}, c.args...), f)...)
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", c.args, r.code, r.stderr, c.want)
		}
	}
	// --schedulers 1 is fine.
	if r := runCLI(t, nil, "run", "--explore", "2", "--schedulers", "1", f); r.code != 0 {
		t.Errorf("--schedulers 1: exit %d, %s", r.code, r.stderr)
	}
}

// TestExploreInterrupted: SIGINT during an exploration still prints the
// report of the schedules that ran to their end, says how many of those
// asked for ran, and exits with 130.
func TestExploreInterrupted(t *testing.T) {
	dir := t.TempDir()
	racy := testrun.WriteFile(t, dir, "racy.mr", racySrc)
	var out, errb testrun.Buffer
	sigs := make(chan os.Signal, 1)
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }, signals: sigs}
	done := make(chan int, 1)
	go func() { done <- runEnv([]string{"run", "--explore", "10000000", racy}, e) }()
	time.Sleep(2 * time.Second)
	sigs <- syscall.SIGINT
	var code int
	select {
	case code = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the exploration did not stop")
	}
	got := out.String()
	if code != 130 || !strings.HasPrefix(got, "explored ") || !strings.Contains(got, " of the 10000000 schedules asked for ran\n") ||
		!strings.Contains(got, "\noutcome 1: ") {
		t.Errorf("exit %d, stdout:\n%s\nstderr %q", code, got, errb.String())
	}
}
