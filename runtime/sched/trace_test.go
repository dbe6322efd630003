package sched_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/morrow-lang/morrow/runtime/sched"
)

var updateTrace = flag.Bool("update-trace", false, "rewrite testdata/trace.golden")

// TestTraceGolden checks the --trace lines of LANGUAGE.md §10 (spawn,
// link, unlink, monitor, demonitor, exit signal, down, retire with
// reason; logical process numbers) at one scheduler, where the schedule
// and therefore the trace are deterministic.
func TestTraceGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/trace.mr")
	if err != nil {
		t.Fatal(err)
	}
	img := load(t, string(src))
	var first string
	for i := 0; i < 3; i++ {
		var tr bytes.Buffer
		out, res, _ := run(t, context.Background(), img, sched.Config{Schedulers: 1, Trace: &tr})
		if res.Report != "" {
			t.Fatalf("report %q", res.Report)
		}
		if want := "down Shutdown\nexit Killed\ndown of a dead process NoProcess\nexit Failure(\"boom\")\nself demonitor false\n"; out != want {
			t.Fatalf("stdout %q, want %q", out, want)
		}
		if i == 0 {
			first = tr.String()
		} else if tr.String() != first {
			t.Fatalf("trace differs between runs:\n%s\n---\n%s", first, tr.String())
		}
	}
	if *updateTrace {
		if err := os.WriteFile("testdata/trace.golden", []byte(first), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/trace.golden")
	if err != nil {
		t.Fatal(err)
	}
	if first != string(want) {
		t.Errorf("trace:\n%s\nwant:\n%s", first, want)
	}
}
