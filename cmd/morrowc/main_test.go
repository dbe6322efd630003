package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
)

const helloSrc = "fn main():\n    println(\"hello\")\n"

// writeHello writes helloSrc to hello.mr in a new directory and returns
// both paths.
func writeHello(t *testing.T) (dir, hello string) {
	t.Helper()
	dir = t.TempDir()
	return dir, testrun.WriteFile(t, dir, "hello.mr", helloSrc)
}

// badSrc has two independent errors: an unknown name and a mismatch.
const badSrc = "fn main():\n    println(nope)\n    let x: Int = \"five\"\n    println(x)\n"

type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, stdin string, vars map[string]string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	if vars == nil {
		// The real entry point, as main calls it.
		code := run(args, strings.NewReader(stdin), &out, &errb)
		return result{code, out.String(), errb.String()}
	}
	getenv := func(k string) string { return vars[k] }
	code := runEnv(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: getenv})
	return result{code, out.String(), errb.String()}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"check", "--help"}, {"build", "--help"}, {"disasm", "--help"}, {"help", "check"}} {
		r := runCLI(t, "", nil, args...)
		if r.code != 0 {
			t.Errorf("%v: exit %d, stderr %s", args, r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "Usage:") {
			t.Errorf("%v: no usage in help output:\n%s", args, r.stdout)
		}
	}
	r := runCLI(t, "", nil, "--help")
	for _, c := range []string{"check", "build", "disasm"} {
		if !strings.Contains(r.stdout, c) {
			t.Errorf("root help does not list %s", c)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	_, hello := writeHello(t)
	cases := [][]string{
		{},
		{"frobnicate"},
		{"check"},
		{"check", "--format", "xml", hello},
		{"check", "--color=sometimes", hello},
		{"chekc", hello},
		{"check", "--bogus", hello},
		{"build"},
		{"build", hello, hello},
		{"build", "-"},
		{"disasm"},
	}
	for _, args := range cases {
		r := runCLI(t, "", nil, args...)
		if r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
		if !strings.HasPrefix(r.stderr, "morrowc: ") || !strings.Contains(r.stderr, "--help") {
			t.Errorf("%v: usage error not reported: %q", args, r.stderr)
		}
	}
}

func TestCheckClean(t *testing.T) {
	_, hello := writeHello(t)
	r := runCLI(t, "", nil, "check", hello)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("clean check: %+v", r)
	}
	r = runCLI(t, helloSrc, nil, "check", "-")
	if r.code != 0 {
		t.Errorf("check from stdin: %+v", r)
	}
	r = runCLI(t, "", nil, "check", "--format", "json", hello)
	if r.code != 0 || strings.TrimSpace(r.stdout) != `{"version":1,"diagnostics":[]}` {
		t.Errorf("clean json check: %+v", r)
	}
}

func TestCheckFormats(t *testing.T) {
	dir := t.TempDir()
	bad := testrun.WriteFile(t, dir, "bad.mr", badSrc)
	hello := testrun.WriteFile(t, dir, "hello.mr", helloSrc)

	text := runCLI(t, "", nil, "check", hello, bad)
	if text.code != 1 || text.stdout != "" {
		t.Fatalf("exit %d, want 1, and nothing on stdout: %+v", text.code, text)
	}
	for _, want := range []string{"error[E", "--> " + bad + ":2:", "--> " + bad + ":3:", "  |", "^"} {
		if !strings.Contains(text.stderr, want) {
			t.Errorf("text output lacks %q:\n%s", want, text.stderr)
		}
	}
	if !strings.HasSuffix(text.stderr, "\n\n2 errors\n") {
		t.Errorf("text output does not end with a summary line:\n%s", text.stderr)
	}
	if strings.Contains(text.stderr, "\x1b[") {
		t.Errorf("auto colour coloured a buffer")
	}
	if strings.Contains(text.stderr, hello) {
		t.Errorf("diagnostics for the clean file:\n%s", text.stderr)
	}

	short := runCLI(t, "", nil, "check", "--format=short", bad)
	lineRE := regexp.MustCompile(`^` + regexp.QuoteMeta(bad) + `:\d+:\d+: error\[E\d{4}\]: \S`)
	lines := strings.Split(strings.TrimSuffix(short.stderr, "\n"), "\n")
	if short.code != 1 || short.stdout != "" || len(lines) != 3 || lines[2] != "2 errors" {
		t.Fatalf("short: %+v", short)
	}
	for _, l := range lines[:2] {
		if !lineRE.MatchString(l) {
			t.Errorf("short line %q does not match %s", l, lineRE)
		}
	}

	js := runCLI(t, "", nil, "check", "--format", "json", bad)
	if js.code != 1 {
		t.Fatalf("json: %+v", js)
	}
	checkDiagnosticsJSON(t, js.stdout)
	if strings.Count(js.stdout, "\n") != 1 || js.stderr != "" {
		t.Errorf("json output must be one document on one line, and nothing on stderr:\n%s\n%s", js.stdout, js.stderr)
	}

	colored := runCLI(t, "", nil, "check", "--color=always", bad)
	if !strings.Contains(colored.stderr, "\x1b[") {
		t.Errorf("--color=always did not colour")
	}
	never := runCLI(t, "", map[string]string{"NO_COLOR": ""}, "check", "--color=never", bad)
	if strings.Contains(never.stderr, "\x1b[") {
		t.Errorf("--color=never coloured")
	}
}

// TestColorFlagTakesValueWithEquals: a bare --color means always and never
// swallows the next argument; a value is attached with '='. A file named
// like a value gets a reminder.
func TestColorFlagTakesValueWithEquals(t *testing.T) {
	dir := t.TempDir()
	bad := testrun.WriteFile(t, dir, "bad.mr", badSrc)
	ok := testrun.WriteFile(t, dir, "ok.mr", helloSrc)
	if r := runCLI(t, "", nil, "check", "--color", ok); r.code != 0 || r.stderr != "" {
		t.Errorf("check --color ok.mr: %+v", r)
	}
	r := runCLI(t, "", map[string]string{"NO_COLOR": "1"}, "check", "--color", bad)
	if r.code != 1 || !strings.Contains(r.stderr, "\x1b[") {
		t.Errorf("bare --color must mean always (even with NO_COLOR): %+v", r)
	}
	r = runCLI(t, "", nil, "check", "--color", "never", ok)
	if r.code != 1 || r.stderr != "morrowc: cannot read never: no such file or directory (--color takes its value with '=': --color=never)\n" {
		t.Errorf("check --color never ok.mr: %+v", r)
	}
	r = runCLI(t, "", nil, "build", "--color", "always", ok)
	if r.code != 2 || !strings.Contains(r.stderr, "--color=always") {
		t.Errorf("build --color always ok.mr: %+v", r)
	}
}

// TestCheckReadErrorsInJSON: files that cannot be read are diagnostics of
// the JSON document, next to the diagnostics of the files that can.
func TestCheckReadErrorsInJSON(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.mr")
	ok := testrun.WriteFile(t, dir, "ok.mr", helloSrc)
	bad := testrun.WriteFile(t, dir, "bad.mr", badSrc)
	r := runCLI(t, "", nil, "check", "--format", "json", missing, ok, bad)
	if r.code != 1 || r.stderr != "" {
		t.Fatalf("json with a missing file: %+v", r)
	}
	ds := checkDiagnosticsJSON(t, r.stdout)
	if len(ds) != 3 {
		t.Fatalf("want the read error and two diagnostics of bad.mr:\n%s", r.stdout)
	}
	d := ds[0]
	if d.Code != "E0023" || d.File != missing || d.Message != "cannot read "+missing+": no such file or directory" {
		t.Errorf("read error diagnostic: %+v", d)
	}
}

// TestCheckRefusesBytecodeAndBinary: one line for a .mrb or binary file,
// in every command that reads source; disasm lists bytecode whatever the
// file is called.
func TestCheckRefusesBytecodeAndBinary(t *testing.T) {
	dir, hello := writeHello(t)
	if r := runCLI(t, "", nil, "build", hello); r.code != 0 {
		t.Fatalf("build: %+v", r)
	}
	mrb := filepath.Join(dir, "hello.mrb")
	img, _ := os.ReadFile(mrb)
	renamed := testrun.WriteFile(t, dir, "renamed.mr", string(img))
	bin := testrun.WriteFile(t, dir, "blob.mr", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00")
	for _, args := range [][]string{{"check", mrb}, {"check", renamed}, {"build", "-o", filepath.Join(dir, "x.mrb"), renamed}, {"check", "--format=short", bin}} {
		r := runCLI(t, "", nil, args...)
		path := args[len(args)-1]
		want := "morrowc: " + path + " is a Morrow bytecode file (.mrb), not source\n"
		if path == bin {
			want = "morrowc: " + path + " is a binary file, not Morrow source\n"
		}
		if r.code != 1 || r.stdout != "" || r.stderr != want {
			t.Errorf("%v: %+v, want stderr %q", args, r, want)
		}
	}
	r := runCLI(t, "", nil, "check", "--format=json", mrb)
	if r.code != 1 || !strings.Contains(r.stdout, `"code":"E0023"`) || !strings.Contains(r.stdout, "morrow run "+mrb) {
		t.Errorf("json: %+v", r)
	}
	if r := runCLI(t, "", nil, "disasm", renamed); r.code != 0 || !strings.Contains(r.stdout, "main") {
		t.Errorf("disasm of renamed bytecode: %+v", r)
	}
}

// TestMistypedCommandsAndFlags: "did you mean" for commands and flags.
func TestMistypedCommandsAndFlags(t *testing.T) {
	r := runCLI(t, "", nil, "chekc", "x.mr")
	if r.code != 2 || !strings.HasPrefix(r.stderr, `morrowc: unknown command "chekc" for "morrowc"; did you mean 'check'?`+"\n") {
		t.Errorf("chekc: %+v", r)
	}
	r = runCLI(t, "", nil, "dissasm", "x.mr")
	if r.code != 2 || !strings.Contains(r.stderr, "did you mean 'disasm'?") {
		t.Errorf("dissasm: %+v", r)
	}
	r = runCLI(t, "", nil, "check", "--formt", "json", "x.mr")
	if r.code != 2 || !strings.Contains(r.stderr, "unknown flag: --formt; did you mean --format?") {
		t.Errorf("--formt: %+v", r)
	}
	r = runCLI(t, "", nil, "frobnicate")
	if r.code != 2 || strings.Contains(r.stderr, "did you mean") {
		t.Errorf("no suggestion for a name close to nothing: %+v", r)
	}
}

// TestCompletion: cobra's completion scripts for bash, zsh and fish.
func TestCompletion(t *testing.T) {
	for shell, marker := range map[string]string{"bash": "__start_morrowc", "zsh": "#compdef morrowc", "fish": "complete -c morrowc"} {
		r := runCLI(t, "", nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, marker) {
			t.Errorf("completion %s: exit %d, stdout lacks %q (stderr %q)", shell, r.code, marker, r.stderr)
		}
	}
	r := runCLI(t, "", nil, "__complete", "ch")
	if r.code != 0 || !strings.Contains(r.stdout, "check") {
		t.Errorf("dynamic completion of 'ch': %+v", r)
	}
}

func TestCheckUnreadableFile(t *testing.T) {
	r := runCLI(t, "", nil, "check", filepath.Join(t.TempDir(), "missing.mr"))
	if r.code != 1 || !strings.Contains(r.stderr, "cannot read") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("missing file: %+v", r)
	}
}

func TestBuildAndDisasm(t *testing.T) {
	dir, hello := writeHello(t)
	r := runCLI(t, "", nil, "build", hello)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("build must be silent on success: %+v", r)
	}
	mrb := filepath.Join(dir, "hello.mrb")
	img, err := os.ReadFile(mrb)
	if err != nil || len(img) == 0 {
		t.Fatalf("no bytecode written: %v", err)
	}
	out := filepath.Join(dir, "sub.mrb")
	if r := runCLI(t, "", nil, "build", "-o", out, hello); r.code != 0 {
		t.Fatalf("build -o: %+v", r)
	}
	if img2, _ := os.ReadFile(out); !bytes.Equal(img, img2) {
		t.Errorf("building twice gives different bytes")
	}
	if r := runCLI(t, helloSrc, nil, "build", "-o", filepath.Join(dir, "stdin.mrb"), "-"); r.code != 0 {
		t.Errorf("build from stdin: %+v", r)
	}

	fromSrc := runCLI(t, "", nil, "disasm", hello)
	if fromSrc.code != 0 || !strings.Contains(fromSrc.stdout, "main") {
		t.Errorf("disasm of source: %+v", fromSrc)
	}
	if !strings.Contains(fromSrc.stdout, `println("hello")`) {
		t.Errorf("disasm of source does not show source lines:\n%s", fromSrc.stdout)
	}
	fromMrb := runCLI(t, "", nil, "disasm", mrb)
	if fromMrb.code != 0 || !strings.Contains(fromMrb.stdout, "main") {
		t.Errorf("disasm of bytecode: %+v", fromMrb)
	}
	if !strings.Contains(fromMrb.stdout, `println("hello")`) {
		t.Errorf("disasm of bytecode does not find the recorded source:\n%s", fromMrb.stdout)
	}
	// A source edited after the build no longer matches: no source lines.
	future := time.Now().Add(time.Hour)
	os.WriteFile(hello, []byte("fn main():\n    println(\"changed\")\n"), 0o644)
	os.Chtimes(hello, future, future)
	stale := runCLI(t, "", nil, "disasm", mrb)
	if stale.code != 0 || strings.Contains(stale.stdout, "changed") {
		t.Errorf("disasm used a source newer than the bytecode:\n%s", stale.stdout)
	}
}

func TestBuildErrorsWriteNothing(t *testing.T) {
	dir := t.TempDir()
	bad := testrun.WriteFile(t, dir, "bad.mr", badSrc)
	r := runCLI(t, "", nil, "build", bad)
	if r.code != 1 || !strings.Contains(r.stderr, "error[E") || r.stdout != "" {
		t.Errorf("build of a bad file: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.mrb")); err == nil {
		t.Error("a .mrb was written for a file with errors")
	}
	r = runCLI(t, "", nil, "build", "--format", "short", bad)
	if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(bad) + `:\d+:\d+: error\[E`).MatchString(r.stderr) {
		t.Errorf("build --format short: %q", r.stderr)
	}
	r = runCLI(t, "", nil, "build", "-o", filepath.Join(dir, "no", "such", "dir.mrb"), testrun.WriteFile(t, dir, "ok.mr", helloSrc))
	if r.code != 1 || !strings.Contains(r.stderr, "cannot write") {
		t.Errorf("unwritable output: %+v", r)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestDisasmRefusesBadBytecode(t *testing.T) {
	dir, hello := writeHello(t)
	if r := runCLI(t, "", nil, "build", hello); r.code != 0 {
		t.Fatalf("build: %+v", r)
	}
	img, _ := os.ReadFile(filepath.Join(dir, "hello.mrb"))
	for name, data := range map[string][]byte{
		"empty":     nil,
		"garbage":   []byte("this is not bytecode at all"),
		"truncated": img[:len(img)/2],
	} {
		p := filepath.Join(dir, name+".mrb")
		os.WriteFile(p, data, 0o644)
		r := runCLI(t, "", nil, "disasm", p)
		if r.code != 1 || strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "morrowc: cannot load") {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

func TestDefaultOutput(t *testing.T) {
	for in, want := range map[string]string{"a.mr": "a.mrb", "dir/b.fn": "dir/b.mrb", "c": "c.mrb", "d.txt": "d.txt.mrb"} {
		if got := defaultOutput(in); got != want {
			t.Errorf("defaultOutput(%q) = %q, want %q", in, got, want)
		}
	}
}

const warnSrc = "fn main():\n    let unused = 1\n    println(\"hi\")\n"

// TestWarnings: warnings are rendered as warning[CODE] in every format,
// do not change the exit status, and fail the command under
// --deny-warnings (build then writes nothing).
func TestWarnings(t *testing.T) {
	dir := t.TempDir()
	w := testrun.WriteFile(t, dir, "w.mr", warnSrc)
	r := runCLI(t, "", nil, "check", w)
	if r.code != 0 || !strings.Contains(r.stderr, "warning[W0001]: unused variable 'unused'") || !strings.HasSuffix(r.stderr, "\n\n1 warning\n") {
		t.Errorf("check with a warning: %+v", r)
	}
	r = runCLI(t, "", nil, "check", "--format=short", w)
	if r.code != 0 || r.stderr != w+":2:9: warning[W0001]: unused variable 'unused'\n1 warning\n" {
		t.Errorf("short: %+v", r)
	}
	r = runCLI(t, "", nil, "check", "--format=json", w)
	if r.code != 0 || !strings.Contains(r.stdout, `"severity":"warning","code":"W0001"`) {
		t.Errorf("json: %+v", r)
	}
	checkDiagnosticsJSON(t, r.stdout)
	r = runCLI(t, "", nil, "check", "--deny-warnings", w)
	if r.code != 1 || !strings.HasSuffix(r.stderr, "\n\n1 warning (denied by --deny-warnings)\n") {
		t.Errorf("check --deny-warnings: %+v", r)
	}
	out := filepath.Join(dir, "w.mrb")
	r = runCLI(t, "", nil, "build", w)
	if _, err := os.Stat(out); r.code != 0 || err != nil || !strings.Contains(r.stderr, "warning[W0001]") {
		t.Errorf("build with a warning must write the .mrb: %+v (%v)", r, err)
	}
	os.Remove(out)
	r = runCLI(t, "", nil, "build", "--deny-warnings", w)
	if _, err := os.Stat(out); r.code != 1 || err == nil {
		t.Errorf("build --deny-warnings wrote %s: %+v", out, r)
	}
}

// TestBuildOutputSpecial: -o follows a symbolic link to its file (the
// link stays) and writes a FIFO in place instead of replacing it with a
// regular file; a directory is refused.
func TestBuildOutputSpecial(t *testing.T) {
	dir, hello := writeHello(t)
	testrun.CheckSpecialOutput(t, dir, ".mrb", func(out string) (int, any) {
		r := runCLI(t, "", nil, "build", "-o", out, hello)
		return r.code, r
	}, func(b []byte) bool { return len(b) >= 10 })
	r := runCLI(t, "", nil, "build", "-o", dir, hello)
	if r.code != 1 || !strings.Contains(r.stderr, "cannot write "+dir+": is a directory") {
		t.Errorf("build -o DIR: %+v", r)
	}
}
