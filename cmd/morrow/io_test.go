package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// ioSrc prints its arguments, an environment variable and its standard
// input, then exits with the status of its first argument.
const ioSrc = `fn echo_stdin():
    match System.read_line():
        Some(l) ->
            println("stdin: {l}")
            echo_stdin()
        None -> ()

fn main():
    println(System.args())
    println(System.env("IO_TEST_VAR"))
    echo_stdin()
    eprintln("bye")
    match Int.parse(List.head(System.args())):
        Some(n) -> System.exit(n)
        None -> ()
`

// TestRunArgsStdinEnv: everything after -- is System.args, stdin is
// System.read_line's, the environment is System.env's, System.exit's
// status is the runner's.
func TestRunArgsStdinEnv(t *testing.T) {
	f := testrun.WriteFile(t, t.TempDir(), "io.mr", ioSrc)
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader("one\ntwo\n"), stdout: &out, stderr: &errb,
		getenv: func(k string) string { return map[string]string{"IO_TEST_VAR": "set"}[k] }}
	code := runEnv([]string{"run", f, "--seed", "1", "--", "7", "--seed", "x y"}, e)
	want := "[\"7\", \"--seed\", \"x y\"]\nSome(\"set\")\nstdin: one\nstdin: two\n"
	if code != 7 || out.String() != want || errb.String() != "bye\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 7, %q, \"bye\\n\"", code, out.String(), errb.String(), want)
	}
	// Without --, no arguments; more than one file before -- is a usage error.
	r := runCLI(t, nil, "run", testrun.WriteFile(t, t.TempDir(), "a.mr", "fn main():\n    println(System.args())\n"))
	if r.code != 0 || r.stdout != "[]\n" {
		t.Errorf("no --: %+v", r)
	}
	if r := runCLI(t, nil, "run", f, "extra", "--", "a"); r.code != 2 || !strings.Contains(r.stderr, "want one file, got 2") {
		t.Errorf("two files: %+v", r)
	}
}

// TestMaxSocketsSetting: --max-sockets and MORROW_MAX_SOCKETS are read
// and checked like the other limits.
func TestMaxSocketsSetting(t *testing.T) {
	f := testrun.WriteFile(t, t.TempDir(), "a.mr", helloSrc)
	if r := runCLI(t, nil, "run", "--max-sockets", "-1", f); r.code != 2 || !strings.Contains(r.stderr, "--max-sockets must be") {
		t.Errorf("--max-sockets -1: %+v", r)
	}
	if r := runCLI(t, map[string]string{"MORROW_MAX_SOCKETS": "many"}, "run", f); r.code != 1 || !strings.Contains(r.stderr, "invalid MORROW_MAX_SOCKETS") {
		t.Errorf("MORROW_MAX_SOCKETS=many: %+v", r)
	}
	if r := runCLI(t, nil, "run", "--max-sockets", "0", f); r.code != 0 || r.stdout != "hello\n" {
		t.Errorf("--max-sockets 0: %+v", r)
	}
}

// TestExploreRefusesOutside: --explore and --replay refuse programs that
// read stdin or use http or Net, with one line; files and clocks are
// fine.
func TestExploreRefusesOutside(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ src, name string }{
		{"fn main():\n    println(System.read_line())\n", "System.read_line"},
		{"fn main():\n    println(http.get(\"http://127.0.0.1:1/\"))\n", "http.get"},
		{"fn main():\n    match Net.connect(\"127.0.0.1\", 1):\n        Ok(_) -> ()\n        Err(c) -> println(c)\n", "Net.connect"},
	} {
		f := testrun.WriteFile(t, dir, "p.mr", c.src)
		for _, flag := range []string{"--explore", "--replay"} {
			r := runCLI(t, nil, "run", flag, "3", f)
			want := "morrow: " + flag + " cannot run a program that uses " + c.name + ": its results come from outside the program and cannot be replayed\n"
			if r.code != 1 || r.stderr != want {
				t.Errorf("%s %s: exit %d, stderr %q; want 1, %q", flag, c.name, r.code, r.stderr, want)
			}
		}
	}
	f := testrun.WriteFile(t, dir, "ok.mr", "fn main():\n    println(fs.exists(\"/\"))\n    println(System.time_ms() > 0)\n")
	if r := runCLI(t, nil, "run", "--explore", "3", f); r.code != 0 {
		t.Errorf("files and clock under --explore: %+v", r)
	}
}

// TestTestExploreRefusesOutside: morrow test --explore and --replay
// refuse a test file that uses Net, with one line.
func TestTestExploreRefusesOutside(t *testing.T) {
	f := testrun.WriteFile(t, t.TempDir(), "net_test.mr", "fn test_listens() -> Result((), String):\n    match Net.listen(\"127.0.0.1\", 0):\n        Ok(_) -> Ok(())\n        Err(c) -> Err(\"listen {c}\")\n")
	for _, flag := range []string{"--explore", "--replay"} {
		r := runCLI(t, nil, "test", flag, "3", f)
		want := "morrow: " + flag + " cannot run a program that uses Net.listen: its results come from outside the program and cannot be replayed (" + f + ")\n"
		if r.code != 2 || r.stderr != want {
			t.Errorf("%s: exit %d, stderr %q; want 2, %q", flag, r.code, r.stderr, want)
		}
	}
	if r := runCLI(t, nil, "test", f); r.code != 0 {
		t.Errorf("without --explore: %+v", r)
	}
}
