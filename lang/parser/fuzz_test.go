package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// seedPrograms are realistic Morrow programs (plus a few broken ones) used
// as the fuzz seed corpus, together with every fixture in the repository.
var seedPrograms = []string{
	"fn main():\n    println(\"hello\")\n",
	"type Shape derive(Show, Eq):\n    Circle(Float)\n    Rect(w: Float, h: Float)\n\nfn area(s: Shape) -> Float:\n    match s:\n        Circle(r) -> 3.14 * r * r\n        Rect(w, h) if w > 0.0 -> w * h\n        _ -> 0.0\n",
	"fn main():\n    let xs = [1, 2, 3]\n    let ys = xs\n        |> List.map((x) -> x * 2)\n        |> List.filter(fn(x) -> x > 2)\n    for (i, y) in List.enumerate(ys):\n        println(\"{i}: {y}\")\n",
	"fn worker():\n    receive:\n        n if n > 0 -> println(n)\n        _ after 100 -> println(\"timeout\")\n\nfn main():\n    let p: Pid(Int) = spawn(worker)\n    match send(p, 5):\n        Ok(()) -> ()\n        Err(_) -> ()\n",
	"fn observer():\n    let started: Result(Pid(()), Process.Error) = Process.spawn(() ->\n        defer println(\"child cleanup\")\n        Process.exit(Process.Failure(\"boom\"))\n    )\n    let Ok(child) = started else: Process.exit(Process.Normal)\n    receive_event:\n        Process.Down(r, id, Process.Failure(text)) -> println(text)\n        after 1000 -> ()\n",
	"fn f(x) -> if x < 0: -x else: x\nfn g(label name: String) -> String: \"{name}\"\nnewtype Id = Id(Int)\ntype V = Int | String\n",
	"fn main():\n    let r = %{ u | age: 3 }\n    let t = ((1, 2), 3).0.1\n    let n = -9223372036854775808\n    let s = \"\"\"multi\nline {n}\"\"\"\n    let b = 0xFF &&& ~~~0b1010 <<< 2\n",
	"fn total(a: String) -> Result(Int, String):\n    with\n        x <- parse(a),\n        y <- parse(a)\n    do\n        Ok(x + y)\n    else\n        Err(e) -> Err(e)\n",
	"fn main():\n    let x = (1 +\n    foo(\"abc\n    /* unterminated\n",
	"fn main():\n\tif a:\n        b\n      c\n@bad\n  fn g(: 1..2..3 |> _\n",
	"fn main():\n    match:\n        x < 0 -> \"neg\"\n        _ -> \"pos\"\n    let Some(v) = first(xs) else:\n        return 0\n    print(v) if v > 1\n",
}

func addSeeds(f *testing.F) {
	for _, s := range seedPrograms {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob("../../fixtures/*/*.mr")
	more, _ := filepath.Glob("../../fixtures/*/*/*.mr")
	for _, p := range append(paths, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
}

// FuzzLex runs the base lexer and the layout pass on arbitrary bytes: they
// must not panic, and every diagnostic span must lie inside the file.
func FuzzLex(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		var dl diag.List
		file := source.NewFile("fuzz.mr", src)
		s := &scanner{f: file, src: src, diags: &dl}
		raw := s.lexAll()
		l := &layout{f: file, diags: &dl}
		l.run(raw)
		for _, tk := range raw {
			if tk.start < 0 || tk.end > len(src) || tk.start > tk.end {
				t.Fatalf("token %q has bad span [%d,%d)", tk.text, tk.start, tk.end)
			}
		}
		checkDiags(t, dl, len(src))
		depth := 0
		for _, tk := range l.out {
			switch int(tk.Type) {
			case tIndent:
				depth++
			case tDedent:
				depth--
			}
			if depth < 0 {
				t.Fatal("more DEDENT than INDENT tokens")
			}
		}
	})
}

// FuzzParse runs the whole front end on arbitrary bytes: it must not panic,
// must return a tree, and diagnostics must have codes and in-file spans.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		// a watchdog turns a hang into a crash the fuzzer records
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("Parse hangs on %q", src)) })
		file, dl := Parse(source.NewFile("fuzz.mr", src))
		watchdog.Stop()
		if file == nil {
			t.Fatal("nil file")
		}
		checkDiags(t, dl, len(src))
		for _, d := range file.Decls {
			checkSpans(t, d, len(src))
		}
	})
}

func checkDiags(t *testing.T, dl diag.List, n int) {
	t.Helper()
	for _, d := range dl {
		if d.Code == "" || d.Message == "" {
			t.Fatalf("diagnostic without code or message: %+v", d)
		}
		if d.Span.Start < 0 || d.Span.End > n || d.Span.Start > d.Span.End {
			t.Fatalf("diagnostic %s has bad span %+v (file %d bytes)", d.Error(), d.Span, n)
		}
		if d.Message == "internal parser error" || len(d.Message) > 20 && d.Message[:20] == "internal parser erro" {
			t.Fatalf("internal error: %s", d.Message)
		}
	}
}

func checkSpans(t *testing.T, n ast.Node, size int) {
	t.Helper()
	s := n.Span()
	if s.Start < 0 || s.End > size || s.Start > s.End {
		t.Fatalf("node %T has bad span %+v (file %d bytes)", n, s, size)
	}
}
