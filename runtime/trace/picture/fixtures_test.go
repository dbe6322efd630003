package picture

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/trace"
)

const repo = "../../.."

// traceOf runs a program at one scheduler with lifecycle and message
// tracing, as `morrow run --trace F --trace-messages` does (a deadlocked
// program ends with the report, as under morrow run, instead of waiting
// like an embedding).
func traceOf(t *testing.T, path string) string {
	return traceWith(t, path, nil)
}

// traceWith is traceOf under a scheduling policy (nil: none).
func traceWith(t *testing.T, path string, pol sched.Policy) string {
	t.Helper()
	u := testrun.CompileFile(t, path)
	var tr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	engine.Run(ctx, u.Program, engine.Options{Schedulers: 1, Stdout: io.Discard, Stderr: io.Discard, Trace: &tr, TraceMessages: true, Policy: pol, ReportDeadlock: true})
	return tr.String()
}

// TestFixtureTraces runs every process and actor fixture with tracing,
// parses every line the runtime writes, renders each trace in both
// formats, and checks that together they use every kind of line, and
// that docs/process.md documents each kind with an example that parses.
func TestFixtureTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every process and actor fixture")
	}
	var files []string
	for _, dir := range []string{"process", "actors"} {
		m, err := filepath.Glob(filepath.Join(repo, "fixtures", dir, "*.mr"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	// Lines no fixture provokes.
	files = append(files, filepath.Join("testdata", "discard.mr"))
	if len(files) < 50 {
		t.Fatalf("only %d fixtures found", len(files))
	}
	emitted := map[trace.Kind]string{}
	// Arrive lines come only from runs that keep cells in flight (the
	// schedules of --explore and --replay): doc_events.mr once more so.
	files = append(files, filepath.Join(repo, "fixtures", "process", "doc_events.mr"))
	for i, f := range files {
		var pol sched.Policy
		if i == len(files)-1 {
			pol = &sched.FIFO{InFlight: true}
		}
		text := traceWith(t, f, pol)
		evs, err := trace.Parse(strings.NewReader(text))
		if err != nil {
			t.Errorf("%s: the runtime wrote a trace that does not parse: %v", f, err)
			continue
		}
		lines := strings.Split(text, "\n")
		for _, e := range evs {
			if _, ok := emitted[e.Kind]; !ok {
				emitted[e.Kind] = filepath.Base(f)
			}
			if e.String() != lines[e.Line-1] {
				t.Errorf("%s:%d: %q renders as %q", f, e.Line, lines[e.Line-1], e.String())
			}
		}
		parseSVG(t, render(t, evs, Options{}))
		render(t, evs, Options{Format: Mermaid})
	}
	for _, k := range trace.Kinds() {
		if _, ok := emitted[k]; !ok {
			t.Errorf("no fixture makes the runtime write a %q line", k)
		}
	}
	documented := docKinds(t)
	for _, k := range trace.Kinds() {
		if !documented[k] {
			t.Errorf("docs/process.md (Trace lines) has no example of a %q line", k)
		}
	}
}

// docRow is a row of the "Trace lines" table: | `SYNTAX` | `EXAMPLE` | …
var docRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| `([^`]+)` \\|")

// docKinds parses the example of each row of the table in the "Trace
// lines" part of docs/process.md.
func docKinds(t *testing.T) map[trace.Kind]bool {
	b, err := os.ReadFile(filepath.Join(repo, "docs", "process.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "### Trace lines")
	if i < 0 {
		t.Fatal(`docs/process.md has no "### Trace lines" section`)
	}
	doc = doc[i:]
	if j := strings.Index(doc[4:], "\n## "); j >= 0 {
		doc = doc[:j+4]
	}
	out := map[trace.Kind]bool{}
	for _, m := range docRow.FindAllStringSubmatch(doc, -1) {
		e, err := trace.ParseLine(m[2])
		if err != nil {
			t.Errorf("docs/process.md: the example %q of %q does not parse: %v", m[2], m[1], err)
			continue
		}
		out[e.Kind] = true
	}
	return out
}

// TestDocPictures keeps the pictures in docs/pictures equal to what the
// tool draws for their fixtures. Regenerate them with
// GOLDIE_UPDATE=1 go test ./runtime/trace/picture -run TestDocPictures.
func TestDocPictures(t *testing.T) {
	for _, name := range []string{"doc_links", "doc_events"} {
		src := filepath.Join("fixtures", "process", name+".mr")
		evs, err := trace.Parse(strings.NewReader(traceOf(t, filepath.Join(repo, src))))
		if err != nil {
			t.Fatal(err)
		}
		got := render(t, evs, Options{Title: src})
		path := filepath.Join(repo, "docs", "pictures", name+".svg")
		if os.Getenv("GOLDIE_UPDATE") != "" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (GOLDIE_UPDATE=1 creates it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("docs/pictures/%s.svg is stale: run GOLDIE_UPDATE=1 go test ./runtime/trace/picture -run TestDocPictures", name)
		}
	}
}
