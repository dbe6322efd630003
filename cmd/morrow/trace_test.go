package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

const pingSrc = `fn echo():
    receive:
        (from, n) ->
            match send(from, n + 1):
                Ok(()) -> ()
                Err(_) -> ()

fn asker():
    let own: Pid(Int) = Process.self()
    let e: Result(Pid((Pid(Int), Int)), Process.Error) = Process.spawn(echo)
    let Ok(pid) = e else: Process.exit(Process.Failure("spawn"))
    match send(pid, (own, 41)):
        Ok(()) -> ()
        Err(_) -> ()
    receive:
        n -> println("got {n}")

fn main():
    let a: Result(Pid(Int), Process.Error) = Process.spawn(asker)
    match a:
        Ok(_) -> ()
        Err(_) -> ()
`

// TestTraceRender: run --trace --trace-messages, then trace render to a
// file, to stdout, as Mermaid, with the message options.
func TestTraceRender(t *testing.T) {
	dir := t.TempDir()
	src := testrun.WriteFile(t, dir, "ping.mr", pingSrc)
	tr := filepath.Join(dir, "ping.trace")
	if r := runCLI(t, nil, "run", "--trace", tr, "--trace-messages", src); r.code != 0 || r.stdout != "got 42\n" {
		t.Fatalf("run: %+v", r)
	}
	raw, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := "spawn 1 root\nspawn 2 by 1 asker\nretire 1 Normal\nspawn 3 by 2 echo\nsend 2 -> 3\nrecv 3 <- 2\nsend 3 -> 2\nretire 3 Normal\nrecv 2 <- 3\nretire 2 Normal\n"
	if string(raw) != want {
		t.Fatalf("trace:\n%s\nwant:\n%s", raw, want)
	}
	out := filepath.Join(dir, "ping.svg")
	if r := runCLI(t, nil, "trace", "render", tr, "-o", out); r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("render: %+v", r)
	}
	svg, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	testrun.XMLTokens(t, svg)
	if !bytes.Contains(svg, []byte(">ping.trace</text>")) || !bytes.Contains(svg, []byte("2 processes and the root, 2 messages, 0 faults")) || !bytes.Contains(svg, []byte(">3 echo<")) {
		t.Errorf("picture lacks the title, summary or a lifeline name:\n%s", svg)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("picture mode %v %v", fi.Mode(), err)
	}
	// Standard output, the same picture.
	r := runCLI(t, nil, "trace", "render", tr)
	if r.code != 0 || r.stdout != string(svg) {
		t.Errorf("render to stdout differs from -o (%d, %q)", r.code, r.stderr)
	}
	r = runCLI(t, nil, "trace", "render", tr, "-o", "-", "--format", "mermaid", "--title", "Ping")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "sequenceDiagram\n    participant P1 as 1 root\n    participant P2 as 2 asker\n    participant P3 as 3 echo\n    Note over P1,P3: Ping: ") || !strings.Contains(r.stdout, "P3->>P2: message\n") {
		t.Errorf("mermaid: %+v", r)
	}
	r = runCLI(t, nil, "trace", "render", tr, "--format", "mermaid", "--messages", "none")
	if r.code != 0 || strings.Contains(r.stdout, "message\n") || !strings.Contains(r.stdout, "2 messages (not drawn)") {
		t.Errorf("--messages none: %+v", r)
	}
	r = runCLI(t, nil, "trace", "render", tr, "--format", "mermaid", "--max-messages", "1")
	if r.code != 0 || strings.Count(r.stdout, ": message\n") != 1 || !strings.Contains(r.stdout, "(first 1 drawn)") {
		t.Errorf("--max-messages 1: %+v", r)
	}
}

func TestTraceRenderErrors(t *testing.T) {
	dir := t.TempDir()
	bad := testrun.WriteFile(t, dir, "bad.trace", "spawn 1 root\nspawn 2 by 1 worker\nretire 2 Fine\n")
	good := testrun.WriteFile(t, dir, "good.trace", "spawn 1 root\n")
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"trace", "render", bad}, 1, "morrow: " + bad + ":3: column 10: expected an exit reason"},
		{[]string{"trace", "render", filepath.Join(dir, "missing.trace")}, 1, "morrow: cannot read " + filepath.Join(dir, "missing.trace") + ": no such file or directory"},
		{[]string{"trace", "render", good, "-o", filepath.Join(dir, "no", "dir", "x.svg")}, 1, "morrow: cannot write " + filepath.Join(dir, "no", "dir", "x.svg")},
		{[]string{"trace", "render", good, "--format", "png"}, 2, `--format must be svg or mermaid, got "png"`},
		{[]string{"trace", "render", good, "--messages", "some"}, 2, `--messages must be all or none`},
		{[]string{"trace", "render", good, "--max-messages", "-1"}, 2, "--max-messages must be 0 (all) or positive"},
		{[]string{"trace", "render"}, 2, "accepts 1 arg"},
		{[]string{"trace"}, 2, "missing command (render)"},
		{[]string{"run", "--trace-messages", good}, 2, "--trace-messages needs --trace FILE"},
	} {
		r := runCLI(t, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.stderr) {
			t.Errorf("%v: %+v, want status %d and %q", c.args, r, c.code, c.stderr)
		}
	}
	// Standard input.
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader("spawn 1 root\nbogus\n"), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	if code := runEnv([]string{"trace", "render", "-"}, e); code != 1 || !strings.Contains(errb.String(), `morrow: <stdin>:2: unknown event "bogus"`) {
		t.Errorf("stdin: %d %q", code, errb.String())
	}
}

// TestCLIDocCoversTraceRender keeps docs/cli.md in step with `morrow
// trace render`.
func TestCLIDocCoversTraceRender(t *testing.T) {
	doc := testrun.ReadDoc(t, "cli.md")
	i := strings.Index(doc, "## morrow trace render")
	if i < 0 {
		t.Fatal("docs/cli.md has no section for morrow trace render")
	}
	section := doc[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	cmd := newTrace(&env{getenv: func(string) string { return "" }})
	render, _, err := cmd.Find([]string{"render"})
	if err != nil {
		t.Fatal(err)
	}
	names := testrun.FlagNames(render.Flags().FlagUsages())
	if len(names) < 5 {
		t.Fatalf("could not read the flags")
	}
	for _, name := range names {
		if !strings.Contains(section, "--"+name) {
			t.Errorf("docs/cli.md (morrow trace render) does not mention --%s", name)
		}
	}
}

// TestTraceRenderOutputSpecial: -o follows a symbolic link to its file
// (the link stays) and writes a FIFO in place instead of replacing it
// with a regular file.
func TestTraceRenderOutputSpecial(t *testing.T) {
	dir := t.TempDir()
	tr := testrun.WriteFile(t, dir, "t.trace", "spawn 1 root\nretire 1 Normal\n")
	testrun.CheckSpecialOutput(t, dir, ".svg", func(out string) (int, any) {
		r := runCLI(t, nil, "trace", "render", tr, "-o", out)
		return r.code, r
	}, func(b []byte) bool {
		return bytes.HasPrefix(b, []byte("<svg")) || bytes.HasPrefix(b, []byte("<?xml"))
	})
}

// TestTraceRenderRefusesHuge: a trace over 8 MiB is refused with one
// clear line (its picture would take about 80 times its size in memory)
// and nothing is written.
func TestTraceRenderRefusesHuge(t *testing.T) {
	dir := t.TempDir()
	line := "spawn 2 by 1 worker\n"
	var b strings.Builder
	b.WriteString("spawn 1 root\n")
	for b.Len() <= maxRenderBytes {
		b.WriteString(line)
	}
	huge := testrun.WriteFile(t, dir, "huge.trace", b.String())
	r := runCLI(t, nil, "trace", "render", huge, "--format", "mermaid", "-o", filepath.Join(dir, "out.mmd"))
	if r.code != 1 || !strings.Contains(r.stderr, "the trace is larger than 8 MiB") {
		t.Fatalf("render of a %d-byte trace: %+v", b.Len(), r)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.mmd")); err == nil {
		t.Error("a picture was written for a refused trace")
	}
}
