package repl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestTranscripts feeds each testdata/NAME.repl to a session through the
// pipe reader and compares everything written with NAME.golden
// (GOLDIE_UPDATE=1 go test ./internal/repl rewrites them).
func TestTranscripts(t *testing.T) {
	for _, tr := range transcripts(t) {
		t.Run(tr.name, func(t *testing.T) {
			var out bytes.Buffer
			New(&out).Run(NewPipeReader(bytes.NewReader(tr.in)), nil)
			goldie.New(t, goldie.WithFixtureDir("testdata")).Assert(t, tr.name, out.Bytes())
		})
	}
}

// TestDeterministic: a session's output depends only on its input.
func TestDeterministic(t *testing.T) {
	in, err := os.ReadFile("testdata/actors.repl")
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 0; i < 3; i++ {
		var out bytes.Buffer
		New(&out).Run(NewPipeReader(bytes.NewReader(in)), nil)
		if i == 0 {
			first = out.String()
		} else if out.String() != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, out.String(), first)
		}
	}
}

// TestCancel: a cancelled context stops the running entry and every
// actor (their defers run), and the session goes on.
func TestCancel(t *testing.T) {
	var out bytes.Buffer
	s := New(&out)
	s.Eval(context.Background(), "fn waiter():\n    defer println(\"waiter cleanup\")\n    receive:\n        0 -> ()")
	s.Eval(context.Background(), "let w = spawn(waiter)")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.Eval(ctx, "fn spin(n: Int) -> Int:\n    spin(n + 1)")
	s.Eval(ctx, "spin(0)")
	s.Eval(context.Background(), "send(w, 0)")
	s.Eval(context.Background(), "1 + 1")
	want := "waiter cleanup\nerror: interrupted\nErr(3) : Result((), Int)\n2 : Int\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestContinues: the rule that decides whether an entry goes on after a
// line.
func TestContinues(t *testing.T) {
	for line, want := range map[string]bool{
		"1 + 2":               false,
		"if x:":               true,
		"fn(a) ->":            true,
		"[1,":                 true,
		"f(g(1)":              true,
		"f(g(1))":             false,
		`"(" + x`:             false,
		`"a:"`:                false,
		"x  # note:":          false,
		`let s = """start`:    true,
		`let s = """one"""`:   false,
		`let d = "\"(" + "x"`: false,
		":":                   true,
	} {
		var sc scanState
		sc.line(line)
		if got := sc.continues(); got != want {
			t.Errorf("%q: continues = %v, want %v", line, got, want)
		}
	}
}

// TestImport: an import entry resolves from the current directory; its
// names are usable in later entries; a missing module is an error; an
// error inside a module names its file.
func TestImport(t *testing.T) {
	dir := testrun.WriteTree(t, map[string]string{
		"geo/shapes.mr": "pub type Shape derive(Show):\n    Circle(Int)\n\npub fn grow(s: Shape) -> Shape:\n    match s:\n        Circle(r) -> Circle(r + 1)\n",
		"bad.mr":        "pub fn f() -> Int: \"no\"\n",
	})
	t.Chdir(dir)
	var out bytes.Buffer
	s := New(&out)
	for _, e := range []string{
		"import geo.shapes as g",
		"g.grow(g.Circle(1))",
		"import geo.shapes.{grow, Circle}",
		"grow(Circle(5))",
		"let c = g.Circle(7)",
		"grow(c)",
		"import nowhere",
		"import bad",
	} {
		s.Eval(context.Background(), e)
	}
	want := "Circle(2) : geo.shapes.Shape\nCircle(6) : geo.shapes.Shape\nCircle(8) : geo.shapes.Shape\nerror: module nowhere not found\n" +
		"error: bad.mr:1: function return: expected Int, found String\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestManyBindings: the bindings are not limited by the function
// parameter limit (255): after 300 of them every entry still works, the
// first and the last are still there, a binding whose type is still open
// (weak) keeps working, and so does one that holds a function.
func TestManyBindings(t *testing.T) {
	var out bytes.Buffer
	s := New(&out)
	ctx := context.Background()
	s.Eval(ctx, "fn idle():\n    receive:\n        [] -> ()\n        _ -> ()")
	s.Eval(ctx, "let sink = spawn(idle)")
	s.Eval(ctx, "let inc = (n: Int) -> n + 1")
	for i := 0; i < 300; i++ {
		s.Eval(ctx, fmt.Sprintf("let v%d = %d", i, i))
		if i%50 == 0 {
			s.Eval(ctx, fmt.Sprintf("let (s%d, t%d) = (\"s\", [%d])", i, i, i))
		}
	}
	if strings.Contains(out.String(), "error") {
		t.Fatalf("binding failed:\n%s", out.String())
	}
	out.Reset()
	s.Eval(ctx, "1 + 1")
	s.Eval(ctx, "v0 + v299 + inc(v150)")
	s.Eval(ctx, "t250")
	s.Eval(ctx, "send(sink, [1])")
	s.Eval(ctx, "sink")
	s.Eval(ctx, "let v0 = \"again\"")
	s.Eval(ctx, "v0")
	want := "2 : Int\n450 : Int\n[250] : List(Int)\nOk(()) : Result((), Int)\n"
	got := out.String()
	if !strings.HasPrefix(got, want) || !strings.Contains(got, ": Pid(List(Int))\n") || !strings.HasSuffix(got, "\"again\" : String\n") {
		t.Fatalf("got\n%s\nwant a start of\n%s", got, want)
	}
	s.Close()
}
