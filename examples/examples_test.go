// Package examples holds the runnable programs that README.md and
// docs/tour.md show. The test runs each one and compares its stdout with
// NAME.out.golden (written by hand; GOLDIE_UPDATE=1 rewrites them), and
// checks that every code and output block of the tour is the current text
// of the file it names.
package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sebdah/goldie/v2"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

var exitRE = regexp.MustCompile(`(?m)^#!\s*exit\s+(\d+)\s*$`)

// servesRE marks a server that runs until stopped: echo_test.go runs it
// against clients instead of comparing its output with a golden.
var servesRE = regexp.MustCompile(`(?m)^#!\s*serves\s*$`)

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.mr")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	// A program of several files is a directory with its entry main.mr
	// (docs/modules.md).
	projects, err := filepath.Glob("*/main.mr")
	if err != nil {
		t.Fatal(err)
	}
	return append(files, projects...)
}

func TestExamplesRun(t *testing.T) {
	for _, file := range examples(t) {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(file, ".mr")
			if servesRE.Match(src) {
				t.Skip("a server: see echo_test.go")
			}
			if _, err := os.Stat(name + ".out.golden"); err != nil && os.Getenv("GOLDIE_UPDATE") == "" {
				t.Fatalf("missing %s.out.golden (write the expected output by hand)", name)
			}
			want := 0
			if m := exitRE.FindSubmatch(src); m != nil {
				want, _ = strconv.Atoi(string(m[1]))
			}
			// A project's entry is compiled by its path, so that its
			// imports resolve from its directory.
			var p *bytecode.Program
			if strings.Contains(file, "/") {
				p = testrun.CompileFile(t, file).Program
			} else {
				p = testrun.Compile(t, "examples/"+file, string(src))
			}
			// Every example behaves the same at 1, 2 and 4 schedulers, with
			// and without work stealing; the first run is compared with the
			// golden, the others with the first.
			var first string
			for i, sched := range []int{1, 2, 4} {
				for _, steal := range []bool{false, true} {
					out := runExample(t, p, engine.Options{Schedulers: sched, Steal: steal}, want)
					if i == 0 && !steal {
						first = out
						goldie.New(t, goldie.WithFixtureDir("."), goldie.WithNameSuffix(".out.golden")).Assert(t, name, []byte(out))
					} else if out != first {
						t.Errorf("output at %d schedulers (steal %v) differs:\n%s", sched, steal, out)
					}
				}
			}
		})
	}
}

// runExample runs a program once and checks its exit status and that it
// wrote nothing to stderr; it returns stdout.
func runExample(t *testing.T, p *bytecode.Program, opts engine.Options, want int) string {
	t.Helper()
	code, stdout, stderr := testrun.RunFor(p, opts, 30*time.Second)
	if code != want || stderr != "" {
		t.Errorf("schedulers %d steal %v: exit status %d (want %d), stderr:\n%s", opts.Schedulers, opts.Steal, code, want, stderr)
	}
	return stdout
}

// tourBlock is a fenced block in docs/tour.md introduced by a marker
// comment naming the file it shows: <!-- example: examples/x.mr --> for
// the source, <!-- output: examples/x.mr --> for its output.
type tourBlock struct {
	kind, file, body string
}

var markerRE = regexp.MustCompile("(?s)<!-- (example|output): (\\S+) -->\\s*```[a-z]*\\n(.*?)```")

func TestTourMatchesExamples(t *testing.T) {
	raw, err := os.ReadFile("../docs/tour.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []tourBlock
	for _, m := range markerRE.FindAllStringSubmatch(string(raw), -1) {
		blocks = append(blocks, tourBlock{m[1], m[2], m[3]})
	}
	if len(blocks) == 0 {
		t.Fatal("docs/tour.md has no example blocks")
	}
	shown := map[string]bool{}
	for _, b := range blocks {
		path := strings.TrimPrefix(b.file, "examples/")
		if b.kind == "output" {
			path = strings.TrimSuffix(path, ".mr") + ".out.golden"
		} else {
			shown[path] = true
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("tour names %s: %v", b.file, err)
			continue
		}
		if b.body != string(want) {
			t.Errorf("tour %s block for %s differs from %s:\n--- tour\n%s--- file\n%s", b.kind, b.file, path, b.body, want)
		}
	}
	for _, file := range examples(t) {
		if !shown[file] {
			t.Errorf("examples/%s is not shown in docs/tour.md", file)
		}
	}
}
