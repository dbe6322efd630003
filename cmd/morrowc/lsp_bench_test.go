package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// benchProgram is a program of about lines lines: a sum type, a record,
// and functions that bind locals, match, call each other and builtins.
func benchProgram(lines int) string {
	var b strings.Builder
	b.WriteString("type Shape:\n    Circle(Float)\n    Rect(Float, Float)\n\ntype Point:\n    x: Int\n    y: Int\n\n")
	n := 0
	for i := 0; strings.Count(b.String(), "\n") < lines-12; i++ {
		fmt.Fprintf(&b, "fn f%d(s: Shape, p: Point) -> Float:\n", i)
		fmt.Fprintf(&b, "    let scale%d = p.x + p.y * %d\n", i, i)
		b.WriteString("    let xs = List.map([1, 2, 3], (v) -> v * 2)\n")
		b.WriteString("    let total = List.len(xs) + scale" + fmt.Sprint(i) + "\n")
		b.WriteString("    match s:\n")
		b.WriteString("        Circle(r) -> r * r * Int.to_float(total)\n")
		if i > 0 {
			fmt.Fprintf(&b, "        Rect(w, h) -> w * h + f%d(Circle(1.0), p)\n\n", i-1)
		} else {
			b.WriteString("        Rect(w, h) -> w * h\n\n")
		}
		n = i
	}
	fmt.Fprintf(&b, "fn main():\n    let p = Point(1, 2)\n    println(f%d(Rect(1.0, 2.0), p))\n", n)
	return b.String()
}

// BenchmarkLSPRequests measures each request on a 5,000-line document
// after the first check, and an edit followed by a hover (the re-check).
// The figures mean something only on a quiet machine.
func BenchmarkLSPRequests(b *testing.B) {
	text := benchProgram(5000)
	const uri = "file:///bench/big.mr"
	s, send := benchServer(uri, text)
	if d := s.docs[uri]; d == nil || d.an.Diags.HasErrors() || d.an.Info == nil {
		b.Fatalf("the benchmark program does not check: %v", d.an.Diags)
	}
	lines := strings.Split(text, "\n")
	mid := len(lines) / 2
	for !strings.Contains(lines[mid], "let total") {
		mid++
	}
	pos := func(line int, sub string) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": line, "character": strings.Index(lines[line], sub) + 1}}
	}
	refs := pos(mid, "scale")
	refs["context"] = map[string]any{"includeDeclaration": true}
	rename := pos(mid, "total")
	rename["newName"] = "sum"
	doc := map[string]any{"textDocument": map[string]any{"uri": uri}}
	benchRequests(b, send, uri, text, pos(mid, "total"), []benchRequest{
		{"hover", "textDocument/hover", pos(mid, "total")},
		{"definition", "textDocument/definition", pos(mid, "scale")},
		{"references", "textDocument/references", refs},
		{"completion", "textDocument/completion", pos(mid, "total")},
		{"signatureHelp", "textDocument/signatureHelp", pos(mid, "xs)")},
		{"rename", "textDocument/rename", rename},
		{"documentSymbol", "textDocument/documentSymbol", doc},
		{"semanticTokens", "textDocument/semanticTokens/full", doc},
		{"codeAction", "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": map[string]any{"start": map[string]any{"line": mid, "character": 0}, "end": map[string]any{"line": mid, "character": 0}}}},
	})
}

// BenchmarkLSPGraph is BenchmarkLSPRequests over a module graph of about
// 5,000 lines: ten modules of 500 lines, each importing the one before,
// and an entry that imports the last. It measures requests on the entry
// after the first check and the re-check that an edit of the entry
// causes (its whole program). Figures only on a quiet machine.
func BenchmarkLSPGraph(b *testing.B) {
	dir := b.TempDir()
	const mods = 10
	for i := 0; i < mods; i++ {
		var sb strings.Builder
		fmt.Fprintf(&sb, "module m%d\n\n", i)
		if i > 0 {
			fmt.Fprintf(&sb, "import m%d\n\n", i-1)
		}
		for j := 0; strings.Count(sb.String(), "\n") < 500; j++ {
			fmt.Fprintf(&sb, "pub fn f%d(x: Int, ys: List(Int)) -> Int:\n    let a%d = x + List.len(ys) * %d\n", j, j, j)
			if i > 0 && j == 0 {
				fmt.Fprintf(&sb, "    let b = m%d.f0(x, ys)\n    a%d + b\n\n", i-1, j)
			} else {
				fmt.Fprintf(&sb, "    let c = List.len([x, a%d])\n    a%d + c\n\n", j, j)
			}
		}
		testrun.WriteFile(b, dir, fmt.Sprintf("m%d.mr", i), sb.String())
	}
	entry := fmt.Sprintf("import m%d as last\n\nfn main():\n    let total = last.f0(1, [2])\n    println(total)\n", mods-1)
	uri := fileURI(filepath.Join(dir, "main.mr"))
	s, send := benchServer(uri, entry)
	if d := s.docs[uri]; d == nil || d.an.Info == nil || d.an.Diags.HasErrors() || len(d.an.Program.Modules) != mods+1 {
		b.Fatalf("the benchmark graph does not check: %v", d.an.Diags)
	}
	pos := func(line, char int) map[string]any {
		return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
	}
	refs := pos(3, 22)
	refs["context"] = map[string]any{"includeDeclaration": true}
	benchRequests(b, send, uri, entry, pos(3, 22), []benchRequest{
		{"hover", "textDocument/hover", pos(3, 22)},
		{"definition", "textDocument/definition", pos(3, 22)},
		{"references", "textDocument/references", refs},
		{"completion", "textDocument/completion", pos(4, 12)},
	})
}

// benchServer starts a server, initializes it and opens text as uri; send
// hands the server one message (a notification when id is 0) and returns
// once it is handled.
func benchServer(uri, text string) (*lspServer, func(id int, method string, params any)) {
	s := newLSPServer(strings.NewReader(""), io.Discard)
	send := func(id int, method string, params any) {
		m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if id != 0 {
			m["id"] = id
		}
		body, _ := json.Marshal(m)
		s.handle(body)
	}
	send(1, "initialize", map[string]any{})
	send(0, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "text": text, "version": 1}})
	return s, send
}

// benchRequest is one request a benchmark measures.
type benchRequest struct {
	name, method string
	params       any
}

// benchRequests measures each of reqs, then an edit of uri (its text
// again) followed by a hover at hover, which re-checks the document.
func benchRequests(b *testing.B, send func(id int, method string, params any), uri, text string, hover any, reqs []benchRequest) {
	for _, r := range reqs {
		b.Run(r.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				send(2, r.method, r.params)
			}
		})
	}
	b.Run("edit+hover", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			send(0, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": i + 2},
				"contentChanges": []any{map[string]any{"text": text}}})
			send(3, "textDocument/hover", hover)
		}
	})
}
