// Package testrun is support code for the tests of the toolchain, imported
// only by _test.go files (internal/archtest keeps it so): it compiles a
// Morrow program from source or from a file and runs it through the
// engine with its stdout and stderr captured in goroutine-safe buffers.
// It also holds the small chores that several packages' tests repeat:
// writing a temporary file or a tree of them, checking how a command
// writes its output to a link or a FIFO, decoding XML, finding the n-th
// occurrence of a text, reading a command's flag names, waiting for a
// command with a deadline, and reading a page of docs/; and Shapes and
// Park, Morrow source that the tests of several packages share.
//
// The buffers are locked because every scheduler of a run may write at
// once, and because a test that gives up on a run (a watchdog, a
// cancelled context) may read them while the abandoned engine still
// writes.
package testrun

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// Shapes is the program that the tests of lang/query and of the language
// server ask about: a comment, a sum type and a record, a documented
// function with a match, a labelled parameter, a record update, a
// function passed as a value, and a string with a character outside the
// Basic Multilingual Plane (two UTF-16 units, for the server's positions).
const Shapes = `# shapes
type Shape:
    Circle(Float)
    Rect(Float, Float)

type Point:
    x: Int
    y: Int

@doc "The area of a shape."
fn area(s: Shape) -> Float:
    match s:
        Circle(r) -> 3.0 * r * r
        Rect(w, h) -> w * h

fn shift(p: Point, by dx: Int) -> Point:
    %{ p | x: p.x + dx }

fn main():
    let shapes = [Circle(1.0), Rect(2.0, 3.0)]
    let total = List.map(shapes, area)
    let p = shift(Point(1, 2), by: 3)
    println("🌿 {List.len(total)} {p.x}")
`

// Park is what the programs of the process-limit tests (runtime/engine,
// cmd/morrow) share: parked, an actor that waits for one message, and
// release, which sends it to each of a list of them.
const Park = `
fn parked():
    receive:
        () -> ()

fn release(ps: List(Pid(()))):
    match ps:
        [] -> ()
        [p, ..rest] ->
            match send(p, ()):
                Ok(()) -> release(rest)
                Err(_) -> release(rest)
`

// Buffer is a bytes.Buffer that several goroutines may write and read.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p to the buffer.
func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what has been written so far.
func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Compile compiles src (as the file name) to a verified program, failing
// t with the diagnostics when it does not compile.
func Compile(t testing.TB, name, src string) *bytecode.Program {
	t.Helper()
	return build(t, name, []byte(src)).Program
}

// CompileFile reads the Morrow file at path and builds it, failing t when
// it cannot be read or does not compile; the unit's Program and Verified
// are then set.
func CompileFile(t testing.TB, path string) *compiler.Unit {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return build(t, path, src)
}

func build(t testing.TB, name string, src []byte) *compiler.Unit {
	t.Helper()
	u, err := compiler.Build(name, src)
	if err != nil {
		t.Fatalf("%s: internal compiler error: %v", name, err)
	}
	if u.Verified == nil {
		var b strings.Builder
		diag.Render(&b, u.Diags, diag.RenderOptions{})
		t.Fatalf("%s does not compile:\n%s", name, b.String())
	}
	return u
}

// Offset returns the byte offset in s of the n-th (0-based) occurrence
// of sub, failing t when there are not that many.
func Offset(t testing.TB, s, sub string, n int) int {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(s[off+1:], sub)
		if j < 0 {
			t.Fatalf("%q #%d not in the text", sub, n)
		}
		off += 1 + j
	}
	return off
}

// Run runs p with opts, its stdout and stderr captured, and returns the
// exit status, stdout and stderr.
func Run(ctx context.Context, p *bytecode.Program, opts engine.Options) (int, string, string) {
	var out, errb Buffer
	opts.Stdout, opts.Stderr = &out, &errb
	code := engine.Run(ctx, p, opts)
	return code, out.String(), errb.String()
}

// RunFor runs p as Run does, cancelling the run once limit has passed.
func RunFor(p *bytecode.Program, opts engine.Options, limit time.Duration) (int, string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	return Run(ctx, p, opts)
}

// WriteFile writes content to the file name in dir and returns its path,
// failing t when it cannot.
func WriteFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// WriteTree writes files (slash-separated names, their directories made
// as needed) under a new temporary directory and returns that directory,
// failing t when it cannot.
func WriteTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		WriteFile(t, filepath.Dir(p), filepath.Base(p), content)
	}
	return dir
}

// CheckSpecialOutput checks how a command writes its output file when
// that is a special file: it follows a symbolic link to its file (the
// link stays), and writes a FIFO in place instead of replacing it with a
// regular file. write runs the command with its output at path and
// returns its exit status and a result to show when that is not 0; good
// reports whether the bytes written are the command's output. The link
// is named with ext, the FIFO has no extension.
func CheckSpecialOutput(t testing.TB, dir, ext string, write func(path string) (int, any), good func([]byte) bool) {
	t.Helper()
	real := WriteFile(t, dir, "real"+ext, "old")
	link := filepath.Join(dir, "link"+ext)
	if err := os.Symlink("real"+ext, link); err != nil {
		t.Fatal(err)
	}
	if code, r := write(link); code != 0 {
		t.Fatalf("-o link: %+v", r)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
	if b, _ := os.ReadFile(real); !good(b) {
		t.Fatalf("the link's file holds %.40q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- b
	}()
	code, r := write(fifo)
	if fi, _ := os.Lstat(fifo); fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced by a regular file")
	}
	select {
	case b := <-got:
		if code != 0 || !good(b) {
			t.Fatalf("-o fifo: %+v, the reader got %.40q", r, b)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nothing was written to the FIFO")
	}
}

// XMLTokens returns the tokens of the XML document b (copies, so they
// stay valid), failing t when b is not well-formed.
func XMLTokens(t testing.TB, b []byte) []xml.Token {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	var toks []xml.Token
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return toks
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		toks = append(toks, xml.CopyToken(tok))
	}
}

// Wait waits up to limit for the started cmd to exit. It returns true and
// what cmd.Wait returned, or false once the limit has passed, having then
// killed the process.
func Wait(cmd *exec.Cmd, limit time.Duration) (bool, error) {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return true, err
	case <-time.After(limit):
		cmd.Process.Kill()
		return false, nil
	}
}

// flagRE reads a long flag name from a line of a command's flag usage.
var flagRE = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+)`)

// FlagNames lists the long flag names in usage, a command's flag usage
// text (cobra's FlagUsages), but for help.
func FlagNames(usage string) []string {
	var names []string
	for _, m := range flagRE.FindAllStringSubmatch(usage, -1) {
		if m[1] != "help" {
			names = append(names, m[1])
		}
	}
	return names
}

// ReadDoc returns the text of the repository's docs/name, failing t when
// it cannot be read. The repository is found from this file's own path,
// so the tests of any package may call it.
func ReadDoc(t testing.TB, name string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the repository")
	}
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
