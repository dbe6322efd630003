package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// fullWriter fails every write, as a full device does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteErrorsReported: a profile, a trace file or standard output
// that cannot be written is reported on standard error and makes the
// exit status 1 (docs/cli.md); an empty --trace, --cpuprofile or
// --memprofile is a usage error.
func TestWriteErrorsReported(t *testing.T) {
	dir := t.TempDir()
	src := testrun.WriteFile(t, dir, "hello.mr", helloSrc)
	if _, err := os.Stat("/dev/full"); err == nil {
		for _, c := range []struct{ flag, msg string }{
			{"--cpuprofile", "morrow: cannot write profile /dev/full:"},
			{"--memprofile", "morrow: cannot write profile /dev/full:"},
			{"--trace", "morrow: cannot write trace file /dev/full:"},
		} {
			r := runCLI(t, nil, "run", c.flag, "/dev/full", src)
			if r.code != 1 || r.stdout != "hello\n" || !strings.Contains(r.stderr, c.msg) {
				t.Errorf("%s /dev/full: %+v, want exit 1 and %q", c.flag, r, c.msg)
			}
		}
	}
	var errb strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: fullWriter{}, stderr: &errb, getenv: func(string) string { return "" }}
	if code := runEnv([]string{"run", src}, e); code != 1 || !strings.Contains(errb.String(), "morrow: cannot write standard output: no space left on device") {
		t.Errorf("full standard output: exit %d, stderr %q", code, errb.String())
	}
	for _, flag := range []string{"--trace", "--cpuprofile", "--memprofile"} {
		r := runCLI(t, nil, "run", flag, "", src)
		if r.code != 2 || !strings.Contains(r.stderr, flag+" needs a file name") {
			t.Errorf("%s '': %+v", flag, r)
		}
	}
}
