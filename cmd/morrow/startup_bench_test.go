package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// BenchmarkStartupRunBytecode is the part of `morrow run hello.mrb`'s
// start-up that happens after package initialisation, in-process: the
// command line, reading, decoding and verifying the .mrb file, loading it
// against the native table, the engine and world set-up, running main
// and tearing down. Its allocs/op are exact whatever the machine's load;
// its time is to be taken on a quiet machine:
//
//	go test ./cmd/morrow/ -run '^$' -bench Startup -benchmem
//
// Package initialisation itself is measured on the binary with
// GODEBUG=inittrace=1 (docs/performance.md, "Start-up").
func BenchmarkStartupRunBytecode(b *testing.B) {
	mrb := bytecode.Encode(testrun.Compile(b, "hello.mr", helloSrc))
	benchRunHello(b, testrun.WriteFile(b, b.TempDir(), "hello.mrb", string(mrb)))
}

// BenchmarkStartupRunSource is the same for `morrow run hello.mr`: the
// front end (parse, check, generate, verify) on the smallest program
// added to the above.
func BenchmarkStartupRunSource(b *testing.B) {
	benchRunHello(b, testrun.WriteFile(b, b.TempDir(), "hello.mr", helloSrc))
}

// benchRunHello measures `morrow run path`, which must print hello.
func benchRunHello(b *testing.B, path string) {
	b.ReportAllocs()
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := run([]string{"run", path}, strings.NewReader(""), &out, &errb); code != 0 || out.String() != "hello\n" {
			b.Fatalf("exit %d: %q %q", code, out.String(), errb.String())
		}
	}
}
