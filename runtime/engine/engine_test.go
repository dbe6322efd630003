package engine

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

func runAsm(t *testing.T, ctx context.Context, src string) (int, string, string) {
	t.Helper()
	p, err := vmtest.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := Run(ctx, p, Options{Stdout: &out, Stderr: &errb, Reductions: 100})
	return code, out.String(), errb.String()
}

func TestExitStatus(t *testing.T) {
	cases := []struct {
		body   string
		code   int
		stderr string
	}{
		{"UNIT", 0, ""},
		{"INT 3", 3, ""},
		{"INT 255", 255, ""},
		{"INT 256", 0, "morrow: warning: main returned 256, outside 0..255; the exit status is 0 (its low 8 bits)\n"},
		{"INT -1", 255, "morrow: warning: main returned -1, outside 0..255; the exit status is 255 (its low 8 bits)\n"},
		{"UNIT\n DATA Result 0", 0, ""},
		{"CONST \"bad\"\n DATA Result 1", 1, "morrow: main returned Err(\"bad\")\n"},
		{"INT 7\n DATA Result 1", 1, "morrow: main returned Err(7)\n"},
	}
	for _, c := range cases {
		code, _, stderr := runAsm(t, context.Background(), "func main\n "+c.body+"\n RETURN\n")
		if code != c.code || stderr != c.stderr {
			t.Errorf("%q: status %d stderr %q, want %d %q", c.body, code, stderr, c.code, c.stderr)
		}
	}
}

func TestFaultReportAfterOutput(t *testing.T) {
	src := `
source demo.mr
func main
    @4
    CONST "before"
    CALL_NATIVE println 1
    POP
    @5
    CALL f 0
    RETURN
func f
    @2
    LIST 0
    CALL_NATIVE List.head 1
    RETURN
`
	code, out, stderr := runAsm(t, context.Background(), src)
	if code != 1 || out != "before\n" {
		t.Fatalf("status %d stdout %q", code, out)
	}
	want := "morrow: runtime error: head of empty list\n  at demo.mr:2\n  in f (demo.mr:2)\n  in main (demo.mr:5)\n"
	if stderr != want {
		t.Fatalf("stderr %q, want %q", stderr, want)
	}
}

func TestLibraryModeWritesPortLines(t *testing.T) {
	src := `library
entry start
func start params=1
    LOAD 0
    CONST "one"
    SEND
    POP
    LOAD 0
    CONST "two"
    SEND
    POP
    UNIT
    RETURN
`
	code, out, stderr := runAsm(t, context.Background(), src)
	if code != 0 || out != "one\ntwo\n" || stderr != "" {
		t.Fatalf("status %d stdout %q stderr %q", code, out, stderr)
	}
}

func TestUnknownNativeIsRefused(t *testing.T) {
	code, _, stderr := runAsm(t, context.Background(), "func main\n UNIT\n CALL_NATIVE Nope.nope 1\n RETURN\n")
	if code != 1 || !strings.Contains(stderr, "Nope.nope") {
		t.Fatalf("status %d stderr %q", code, stderr)
	}
}

func TestErrTextIsBounded(t *testing.T) {
	long := value.Err(value.String(strings.Repeat("日", 3000)))
	s := errText(long)
	if !strings.HasPrefix(s, `Err("日`) || !strings.HasSuffix(s, "…") || len(s) > maxErrText+len("…") || !utf8.ValidString(s) {
		t.Errorf("errText of a long value: %d bytes, %q...", len(s), s[:20])
	}
}
