package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/format"
)

const (
	messySrc = "fn main( ):\n  let x=1+2\n  println( x )\n"
	tidySrc  = "fn main():\n    let x = 1 + 2\n    println(x)\n"
	// undefinedSrc does not type-check, but it parses.
	undefinedSrc = "fn main():\n  nowhere( 1,2 )\n"
	brokenSrc    = "fn main():\n    println(1 +\n"
)

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFmtDirectoryInPlace(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755)
	os.MkdirAll(filepath.Join(dir, ".hidden"), 0o755)
	a := testrun.WriteFile(t, dir, "a.mr", messySrc)
	b := testrun.WriteFile(t, filepath.Join(dir, "sub", "deeper"), "b.mr", undefinedSrc)
	clean := testrun.WriteFile(t, dir, "clean.mr", tidySrc)
	other := testrun.WriteFile(t, dir, "notes.txt", messySrc)
	hidden := testrun.WriteFile(t, filepath.Join(dir, ".hidden"), "h.mr", messySrc)
	if err := os.Chmod(a, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", nil, "fmt", dir)
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if got := readFile(t, a); got != tidySrc {
		t.Errorf("a.mr:\n%s", got)
	}
	if got := readFile(t, b); got != "fn main():\n    nowhere(1, 2)\n" {
		t.Errorf("a file calling an undefined function must still format:\n%s", got)
	}
	if readFile(t, clean) != tidySrc || readFile(t, other) != messySrc || readFile(t, hidden) != messySrc {
		t.Error("fmt touched a clean file, a non-.mr file or a hidden directory")
	}
	if info, _ := os.Stat(a); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", info.Mode().Perm())
	}
	// an explicitly named file is formatted whatever its extension
	if r := runCLI(t, "", nil, "fmt", other); r.code != 0 || readFile(t, other) != tidySrc {
		t.Errorf("explicit file: exit %d, %s", r.code, readFile(t, other))
	}
	// the second run changes nothing
	if r := runCLI(t, "", nil, "fmt", "--check", dir); r.code != 0 || r.stderr != "" {
		t.Errorf("after formatting, --check: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestFmtCheck(t *testing.T) {
	dir := t.TempDir()
	a := testrun.WriteFile(t, dir, "a.mr", messySrc)
	testrun.WriteFile(t, dir, "b.mr", tidySrc)
	c := testrun.WriteFile(t, dir, "c.mr", undefinedSrc)
	r := runCLI(t, "", nil, "fmt", "--check", dir)
	want := a + ": formatting changes required\n" + c + ": formatting changes required\n"
	if r.code != 1 || r.stdout != "" || r.stderr != want {
		t.Fatalf("exit %d, stdout %q, stderr %q, want stderr %q", r.code, r.stdout, r.stderr, want)
	}
	if readFile(t, a) != messySrc {
		t.Error("--check wrote a file")
	}
	r = runCLI(t, tidySrc, nil, "fmt", "--check", "-")
	if r.code != 0 || r.stdout != "" || r.stderr != "" {
		t.Errorf("clean stdin: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, messySrc, nil, "fmt", "--check", "-")
	if r.code != 1 || r.stderr != "<stdin>: formatting changes required\n" {
		t.Errorf("messy stdin: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := t.TempDir()
	a := testrun.WriteFile(t, dir, "a.mr", messySrc)
	r := runCLI(t, "", nil, "fmt", "--diff", a)
	want := "--- " + a + "\n+++ " + a + " (formatted)\n@@ -1,3 +1,3 @@\n" +
		"-fn main( ):\n-  let x=1+2\n-  println( x )\n+fn main():\n+    let x = 1 + 2\n+    println(x)\n"
	if r.code != 0 || r.stdout != want || r.stderr != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nwant:\n%s\nstderr %q", r.code, r.stdout, want, r.stderr)
	}
	if readFile(t, a) != messySrc {
		t.Error("--diff wrote the file")
	}
	r = runCLI(t, "", nil, "fmt", "--diff", "--check", a)
	if r.code != 1 || r.stdout != want || r.stderr != a+": formatting changes required\n" {
		t.Errorf("--diff --check: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

func TestFmtStdin(t *testing.T) {
	r := runCLI(t, messySrc, nil, "fmt", "-")
	if r.code != 0 || r.stdout != tidySrc || r.stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
}

// A syntax error anywhere means no file is written at all.
func TestFmtSyntaxErrorWritesNothing(t *testing.T) {
	dir := t.TempDir()
	a := testrun.WriteFile(t, dir, "a.mr", messySrc)
	bad := testrun.WriteFile(t, dir, "bad.mr", brokenSrc)
	r := runCLI(t, "", map[string]string{}, "fmt", dir)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1", r.code)
	}
	if !strings.Contains(r.stderr, "error[E0018]") || !strings.Contains(r.stderr, bad) || !strings.Contains(r.stderr, "no file was written") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if readFile(t, a) != messySrc {
		t.Error("a file was written although another one has a syntax error")
	}
	r = runCLI(t, "", map[string]string{}, "fmt", "--format", "short", bad)
	if r.code != 1 || !strings.HasPrefix(r.stderr, bad+":2:12: error[E0018]") {
		t.Errorf("short diagnostics: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestFmtInvalidUTF8(t *testing.T) {
	dir := t.TempDir()
	p := testrun.WriteFile(t, dir, "u.mr", "# caf\xe9\nfn main():\n  println(1)\n")
	r := runCLI(t, "", map[string]string{}, "fmt", p)
	if r.code != 1 || !strings.Contains(r.stderr, "E0021") || !strings.Contains(r.stderr, "UTF-8") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if readFile(t, p) != "# caf\xe9\nfn main():\n  println(1)\n" {
		t.Error("a file with invalid UTF-8 was rewritten")
	}
}

func TestFmtUsage(t *testing.T) {
	for _, args := range [][]string{{"fmt"}, {"fmt", "--bogus", "x.mr"}, {"fmt", "--format", "xml", "-"}} {
		if r := runCLI(t, "", nil, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
	}
	if r := runCLI(t, "", nil, "fmt", filepath.Join(t.TempDir(), "missing.mr")); r.code != 1 || !strings.Contains(r.stderr, "cannot read") {
		t.Errorf("missing file: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := runCLI(t, "", nil, "fmt", "--help"); r.code != 0 || !strings.Contains(r.stdout, "--check") {
		t.Errorf("help: exit %d, stdout %q", r.code, r.stdout)
	}
}

func TestLSPFormatting(t *testing.T) {
	c := startLSP(t)
	res := c.initialize()
	if caps := res["capabilities"].(map[string]any); caps["documentFormattingProvider"] != true {
		t.Fatalf("documentFormattingProvider not advertised: %v", caps)
	}
	// é and 😀 make the end position count UTF-16 units
	messy := "fn main( ):\n  println( \"é😀\" )"
	uri := "file:///tmp/messy.mr"
	c.open(uri, messy, 1)
	c.diagnostics(uri)
	c.send(map[string]any{"id": 7, "method": "textDocument/formatting", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}})
	m := c.next()
	edits, ok := m["result"].([]any)
	if m["id"] != float64(7) || !ok || len(edits) != 1 {
		t.Fatalf("formatting reply: %v", m)
	}
	want, _, _ := format.Format([]byte(messy), "/tmp/messy.mr")
	edit := edits[0].(map[string]any)
	if edit["newText"] != string(want) {
		t.Errorf("newText %q, want %q", edit["newText"], want)
	}
	rng := edit["range"].(map[string]any)
	start, end := rng["start"].(map[string]any), rng["end"].(map[string]any)
	if start["line"] != float64(0) || start["character"] != float64(0) || end["line"] != float64(1) || end["character"] != float64(18) {
		t.Errorf("range %v, want the whole document (0:0 to 1:18)", rng)
	}

	// already formatted: no edits
	tidy := "file:///tmp/tidy.mr"
	c.open(tidy, tidySrc, 1)
	c.diagnostics(tidy)
	c.send(map[string]any{"id": 8, "method": "textDocument/formatting", "params": map[string]any{"textDocument": map[string]any{"uri": tidy}}})
	if m := c.next(); m["id"] != float64(8) || len(m["result"].([]any)) != 0 {
		t.Errorf("formatted document: %v", m)
	}
	// a syntax error: null, the diagnostics already say why
	bad := "file:///tmp/bad.mr"
	c.open(bad, brokenSrc, 1)
	c.diagnostics(bad)
	c.send(map[string]any{"id": 9, "method": "textDocument/formatting", "params": map[string]any{"textDocument": map[string]any{"uri": bad}}})
	if m := c.next(); m["id"] != float64(9) || m["result"] != nil || m["error"] != nil {
		t.Errorf("document with a syntax error: %v", m)
	}
	// not open, or no document
	c.send(map[string]any{"id": 10, "method": "textDocument/formatting", "params": map[string]any{"textDocument": map[string]any{"uri": "file:///nope.mr"}}})
	c.errorReply(10, rpcInvalidParams)
	c.send(map[string]any{"id": 11, "method": "textDocument/formatting", "params": map[string]any{}})
	c.errorReply(11, rpcInvalidParams)
	c.shutdownAndExit(0)
}

// TestFmtSymlink: fmt on a symbolic link formats the file it names,
// keeping the link and the file's mode.
func TestFmtSymlink(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "src"), 0o755)
	real := testrun.WriteFile(t, filepath.Join(dir, "src"), "a.mr", messySrc)
	os.Chmod(real, 0o600)
	link := filepath.Join(dir, "a.mr")
	if err := os.Symlink(filepath.Join("src", "a.mr"), link); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, "", nil, "fmt", link); r.code != 0 {
		t.Fatalf("fmt link: %+v", r)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if got := readFile(t, real); got != tidySrc {
		t.Errorf("the real file was not formatted:\n%s", got)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}
