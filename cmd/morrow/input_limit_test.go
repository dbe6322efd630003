package main

import (
	"os"
	"strings"
	"testing"
)

// TestEndlessSourceIsRefused: `morrow run /dev/zero` reads one byte past
// the 1 MiB source limit, not until memory runs out, and refuses it in
// one line as binary input.
func TestEndlessSourceIsRefused(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	r := runCLI(t, nil, "run", "/dev/zero")
	if r.code != 1 || !strings.Contains(r.stderr, "binary file") || len(r.stderr) > 16<<10 || r.stdout != "" {
		t.Fatalf("run /dev/zero: status %d, stdout %q, stderr (%d bytes) %.300q", r.code, r.stdout, len(r.stderr), r.stderr)
	}
}
