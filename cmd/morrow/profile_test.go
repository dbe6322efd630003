package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// readProfile checks that path holds a pprof profile (a gzip-compressed
// protocol buffer, as runtime/pprof writes it) whose string table has
// every one of want, and returns its decompressed bytes.
func readProfile(t *testing.T, path string, want ...string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
		t.Fatalf("%s is not gzip data (%d bytes)", path, len(raw))
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	pb, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(pb) == 0 {
		t.Fatalf("%s: empty profile", path)
	}
	for _, s := range want {
		if !bytes.Contains(pb, []byte(s)) {
			t.Errorf("%s: the profile has no %q", path, s)
		}
	}
	return pb
}

// TestProfileFlags runs a program with --cpuprofile and --memprofile and
// checks both files are pprof profiles of the right kind; the heap profile
// names the interpreter among its allocation sites.
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	src := testrun.WriteFile(t, dir, "busy.mr", `
fn count(n: Int, acc: List(Int)) -> Int:
    if n == 0: List.len(acc) else: count(n - 1, List.push(acc, n))

fn main():
    println(count(200_000, []))
`)
	cpu, mem := filepath.Join(dir, "cpu.pprof"), filepath.Join(dir, "mem.pprof")
	r := runCLI(t, nil, "run", "--cpuprofile", cpu, "--memprofile", mem, src)
	if r.code != 0 || r.stdout != "200000\n" || r.stderr != "" {
		t.Fatalf("run: %+v", r)
	}
	readProfile(t, cpu, "samples", "cpu", "nanoseconds")
	readProfile(t, mem, "alloc_space", "inuse_space", "bytes", "runtime/vm")

	// the program's exit status is kept, and the profiles are written
	// when it faults too
	bad := testrun.WriteFile(t, dir, "bad.mr", "fn main():\n    let xs: List(Int) = []\n    println(List.head(xs))\n")
	r = runCLI(t, nil, "run", "--cpuprofile", cpu, "--memprofile", mem, bad)
	if r.code != 1 || !strings.Contains(r.stderr, "runtime error") {
		t.Errorf("faulting run: %+v", r)
	}
	readProfile(t, cpu, "samples")
	readProfile(t, mem, "alloc_space")
}

func TestProfileFlagErrors(t *testing.T) {
	dir := t.TempDir()
	hello := testrun.WriteFile(t, dir, "hello.mr", helloSrc)
	missing := filepath.Join(dir, "no", "such", "dir", "p.pprof")
	for _, flag := range []string{"--cpuprofile", "--memprofile"} {
		r := runCLI(t, nil, "run", flag, missing, hello)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "cannot create") || !strings.Contains(r.stderr, "p.pprof") {
			t.Errorf("%s into a missing directory: %+v", flag, r)
		}
	}
	r := runCLI(t, nil, "run", "--help")
	if !strings.Contains(r.stdout, "--cpuprofile") || !strings.Contains(r.stdout, "--memprofile") {
		t.Errorf("run --help does not list the profile flags:\n%s", r.stdout)
	}
}
