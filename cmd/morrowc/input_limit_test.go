package main

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes (standard input tied to
// /dev/zero); it counts what was read.
// zeros is an endless reader of one repeated byte (NUL unless set).
type zeros struct {
	n int64
	b byte
}

func (z *zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = z.b
	}
	z.n += int64(len(p))
	return len(p), nil
}

// TestEndlessSourceIsRefused: a source that never ends (/dev/zero, or
// an endless standard input) is read only up to one byte past the 1 MiB
// limit. Endless text is refused with E0019, whose report echoes a
// bounded part of the first line; endless NUL bytes are refused in one
// line as binary input.
func TestEndlessSourceIsRefused(t *testing.T) {
	for _, z := range []*zeros{{b: 'a'}, {b: 0}} {
		var out, errb bytes.Buffer
		code := runEnv([]string{"check", "-"}, &env{stdin: z, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
		report := out.String() + errb.String()
		want := "E0019"
		if z.b == 0 {
			want = "binary file"
		}
		if code != 1 || !strings.Contains(report, want) || len(report) > 16<<10 || z.n > 2<<20 {
			t.Fatalf("check of endless stdin (%q): status %d, read %d bytes, report (%d bytes) %.300q", z.b, code, z.n, len(report), report)
		}
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	r := runCLI(t, "", nil, "check", "/dev/zero")
	if report := r.stdout + r.stderr; r.code != 1 || !strings.Contains(report, "binary file") || len(report) > 16<<10 {
		t.Fatalf("check /dev/zero: status %d, report (%d bytes) %.300q", r.code, len(report), report)
	}
}

// TestLSPLongHeaderLineIsSkipped: a header line far longer than any
// message is skipped without being held in memory (the server reads it
// in buffer-sized pieces), reported as a parse error, and the next frame
// is served.
func TestLSPLongHeaderLineIsSkipped(t *testing.T) {
	const junk = 64 << 20
	good := rawFrame(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	in := io.MultiReader(io.LimitReader(&ones{}, junk), strings.NewReader("\r\n"+good))
	var out bytes.Buffer
	s := newLSPServer(in, &out)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := s.read()
	runtime.ReadMemStats(&after)
	if fe, ok := err.(*frameError); !ok || !strings.Contains(fe.msg, "header line longer") {
		t.Fatalf("long header line: %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("skipping a %d-byte line allocated %d bytes", junk, grew)
	}
	body, err := s.read()
	if err != nil || !strings.Contains(string(body), `"shutdown"`) {
		t.Fatalf("the frame after the long line: %q, %v", body, err)
	}
	// A long line at the end of the input.
	s = newLSPServer(io.LimitReader(&ones{}, 4<<20), &out)
	if _, err := s.read(); err == nil {
		t.Fatal("a long last line read without error")
	}
	if _, err := s.read(); err != io.EOF {
		t.Fatalf("after the long last line: %v", err)
	}
}

// ones is an endless stream of 'x' bytes.
type ones struct{}

func (ones) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}
