package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// Protocol tests of the language features: each request goes through the
// server's stdin and its answer is read from stdout, as an editor does.

const featProg = testrun.Shapes

// request sends a request and returns its reply, skipping notifications.
func (c *lspClient) request(id any, method string, params any) map[string]any {
	c.t.Helper()
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		m := c.next()
		if _, isNote := m["method"]; isNote {
			continue
		}
		if fmt.Sprint(m["id"]) != fmt.Sprint(id) {
			c.t.Fatalf("reply to %v: got %v", id, m)
		}
		return m
	}
}

func (c *lspClient) result(id any, method string, params any) any {
	c.t.Helper()
	m := c.request(id, method, params)
	if m["error"] != nil {
		c.t.Fatalf("%s: error %v", method, m["error"])
	}
	return m["result"]
}

// posOf returns the LSP position (UTF-16) of the n-th occurrence of sub
// in text, plus delta characters.
func posOf(t *testing.T, text, sub string, n, delta int) map[string]any {
	t.Helper()
	off := testrun.Offset(t, text, sub, n)
	line := strings.Count(text[:off], "\n")
	ls := strings.LastIndex(text[:off], "\n") + 1
	return map[string]any{"line": line, "character": utf16Len(text[ls:off]) + delta}
}

func tdp(uri string, pos map[string]any) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// everyPosition sends each of methods at every position of text, open
// as uri (each character of each line and one past its end, in UTF-16
// units), with the parameters references and rename need. An error reply
// fails the test, but for a refused rename (RequestFailed); where names
// the document in the message. check, when not nil, looks at each reply.
// The ids used follow id; it returns the last.
func (c *lspClient) everyPosition(id int, where, uri, text string, methods []string, check func(m string, l, ch int, reply map[string]any)) int {
	c.t.Helper()
	for l, line := range strings.Split(text, "\n") {
		for ch := 0; ch <= utf16Len(line)+1; ch++ {
			for _, m := range methods {
				id++
				p := tdp(uri, map[string]any{"line": l, "character": ch})
				p["newName"] = "zz"
				p["context"] = map[string]any{"includeDeclaration": true}
				reply := c.request(id, m, p)
				if e, ok := reply["error"].(map[string]any); ok && (e["code"] != float64(rpcRequestFailed) || !strings.HasSuffix(strings.ToLower(m), "rename")) {
					c.t.Fatalf("%s at %d:%d of %s: %v", m, l, ch, where, reply)
				}
				if check != nil {
					check(m, l, ch, reply)
				}
			}
		}
	}
	return id
}

func openFeat(t *testing.T, uri, text string) *lspClient {
	c := startLSP(t)
	c.initialize()
	c.open(uri, text, 1)
	c.diagnostics(uri)
	return c
}

func hoverText(r any) string {
	m, _ := r.(map[string]any)
	cont, _ := m["contents"].(map[string]any)
	s, _ := cont["value"].(string)
	return s
}

func TestLSPHover(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	cases := []struct {
		sub   string
		n     int
		delta int
		want  string
	}{
		{"shapes", 2, 1, "shapes: List(Shape)"},
		{"area", 2, 1, "fn area(s: Shape) -> Float"},
		{"area", 2, 1, "The area of a shape."},
		{"Circle", 1, 1, "Circle(Float) -> Shape"},
		{"List.map", 0, 6, "fn List.map("},
		{"dx", 1, 0, "dx: Int"},
		{"p.x", 1, 2, "Point.x: Int"},
		{"total", 1, 0, "total: List(Float)"},
		{"Shape)", 0, 0, "type Shape:"},
		{"Point(1", 0, 1, "Point(x: Int, y: Int) -> Point"},
		{"Point,", 0, 1, "type Point:"},
		{"3.0", 0, 0, "Float"},
	}
	for i, tc := range cases {
		r := c.result(i+10, "textDocument/hover", tdp(uri, posOf(t, featProg, tc.sub, tc.n, tc.delta)))
		if got := hoverText(r); !strings.Contains(got, tc.want) || !strings.HasPrefix(got, "```morrow\n") {
			t.Errorf("hover %s#%d: %q, want %q", tc.sub, tc.n, got, tc.want)
		}
	}
	// The range of the hovered name is in UTF-16 units: `p` after the emoji.
	r := c.result(50, "textDocument/hover", tdp(uri, posOf(t, featProg, "p.x}", 0, 0))).(map[string]any)
	if want := posOf(t, featProg, "p.x}", 0, 0); jsonString(r["range"].(map[string]any)["start"]) != jsonString(want) {
		t.Errorf("hover range %v, want start %v", r["range"], want)
	}
	// Whitespace, a comment: nothing.
	if r := c.result(51, "textDocument/hover", tdp(uri, map[string]any{"line": 0, "character": 3})); r != nil {
		t.Errorf("hover in a comment: %v", r)
	}
	c.shutdownAndExit(0)
}

func TestLSPDefinitionAndReferences(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	cases := []struct {
		sub  string
		n    int
		decl string // the declaration's text at the definition
		dn   int
		refs int
	}{
		{"shapes", 2, "shapes", 1, 2},
		{"area", 2, "area", 1, 2},
		{"Circle", 2, "Circle", 0, 3},
		{"dx", 1, "dx", 0, 2},
		{"x +", 0, "x:", 0, 4},
		{"by:", 0, "by", 0, 2},
		{"Point(1", 0, "Point:", 0, 4},
		{"r * r", 0, "r)", 0, 3},
	}
	for i, tc := range cases {
		pos := posOf(t, featProg, tc.sub, tc.n, 0)
		r, _ := c.result(i+10, "textDocument/definition", tdp(uri, pos)).(map[string]any)
		want := posOf(t, featProg, tc.decl, tc.dn, 0)
		if r == nil || r["uri"] != uri || jsonString(r["range"].(map[string]any)["start"]) != jsonString(want) {
			t.Errorf("definition of %s#%d: %v, want %v", tc.sub, tc.n, r, want)
		}
		p := tdp(uri, pos)
		p["context"] = map[string]any{"includeDeclaration": true}
		refs, _ := c.result(i+100, "textDocument/references", p).([]any)
		if len(refs) != tc.refs {
			t.Errorf("references of %s#%d: %d, want %d: %v", tc.sub, tc.n, len(refs), tc.refs, refs)
		}
		p["context"] = map[string]any{"includeDeclaration": false}
		refs, _ = c.result(i+200, "textDocument/references", p).([]any)
		if len(refs) != tc.refs-1 {
			t.Errorf("references of %s#%d without the declaration: %d, want %d", tc.sub, tc.n, len(refs), tc.refs-1)
		}
	}
	// A builtin has no definition in the document.
	if r := c.result(300, "textDocument/definition", tdp(uri, posOf(t, featProg, "println", 0, 1))); r != nil {
		t.Errorf("definition of println: %v", r)
	}
	c.shutdownAndExit(0)
}

// applyEdits applies a WorkspaceEdit's edits of uri to text.
func applyEdits(t *testing.T, text string, edits []any) string {
	t.Helper()
	type ed struct {
		s, e int
		txt  string
	}
	var es []ed
	for _, e := range edits {
		m := e.(map[string]any)
		r := m["range"].(map[string]any)
		off := func(p any) int {
			pm := p.(map[string]any)
			o, _ := utf16Offset(text, lspPosition{Line: int(pm["line"].(float64)), Character: int(pm["character"].(float64))})
			return o
		}
		es = append(es, ed{off(r["start"]), off(r["end"]), m["newText"].(string)})
	}
	for i := len(es) - 1; i >= 0; i-- { // edits come in document order
		for j := 0; j < i; j++ {
			if es[j].s > es[j+1].s {
				es[j], es[j+1] = es[j+1], es[j]
			}
		}
	}
	for i := len(es) - 1; i >= 0; i-- {
		text = text[:es[i].s] + es[i].txt + text[es[i].e:]
	}
	return text
}

func TestLSPRename(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	// prepareRename gives the name's range and text.
	r := c.result(1, "textDocument/prepareRename", tdp(uri, posOf(t, featProg, "shapes", 2, 2))).(map[string]any)
	if r["placeholder"] != "shapes" || jsonString(r["range"].(map[string]any)["start"]) != jsonString(posOf(t, featProg, "shapes", 2, 0)) {
		t.Errorf("prepareRename: %v", r)
	}
	cases := []struct {
		sub, newName string
		n            int
		want         []string // pieces of the renamed text
	}{
		{"shapes", "figures", 2, []string{"let figures = [", "List.map(figures, area)"}},
		{"area", "surface", 1, []string{"fn surface(s: Shape)", "List.map(shapes, surface)"}},
		{"Shape", "Figure", 1, []string{"type Figure:", "fn area(s: Figure)"}},
		{"Circle", "Round", 1, []string{"    Round(Float)", "        Round(r) ->", "[Round(1.0)"}},
		{"x +", "xpos", 0, []string{"    xpos: Int", "%{ p | xpos: p.xpos + dx }", "{p.xpos}"}},
		{"dx", "delta", 1, []string{"by delta: Int", "p.x + delta"}},
		{"s:", "shape", 0, []string{"fn area(shape: Shape)", "match shape:"}},
	}
	for i, tc := range cases {
		p := tdp(uri, posOf(t, featProg, tc.sub, tc.n, 0))
		p["newName"] = tc.newName
		res := c.result(i+10, "textDocument/rename", p).(map[string]any)
		edits := res["changes"].(map[string]any)[uri].([]any)
		got := applyEdits(t, featProg, edits)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("rename %s -> %s: %q missing in\n%s", tc.sub, tc.newName, w, got)
			}
		}
	}
	// Refusals: a clash, a capture, a builtin, a bad name.
	refused := []struct{ sub, newName string }{
		{"total", "shapes"}, // another local in scope
		{"area", "shift"},   // another function
		{"Circle", "Rect"},  // another constructor
		{"shapes", "Bad"},   // wrong case
		{"shapes", "let"},   // keyword
		{"println", "say"},  // builtin
		{"x +", "y"},        // another field
	}
	for i, tc := range refused {
		n := 1
		if tc.sub == "x +" || tc.sub == "println" {
			n = 0
		}
		p := tdp(uri, posOf(t, featProg, tc.sub, n, 0))
		p["newName"] = tc.newName
		m := c.request(i+50, "textDocument/rename", p)
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != float64(-32803) || e["message"] == "" {
			t.Errorf("rename %s -> %s not refused: %v", tc.sub, tc.newName, m)
		}
	}
	// Renaming `r` to `s` would capture nothing here (s is the parameter
	// of area, which `r`'s arm is in): refused as a clash in scope.
	p := tdp(uri, posOf(t, featProg, "r * r", 0, 0))
	p["newName"] = "s"
	if m := c.request(80, "textDocument/rename", p); m["error"] == nil {
		t.Errorf("rename r -> s would capture the parameter s: %v", m)
	}
	c.shutdownAndExit(0)
}

func labels(t *testing.T, r any) map[string]map[string]any {
	t.Helper()
	m, ok := r.(map[string]any)
	if !ok {
		t.Fatalf("completion result: %v", r)
	}
	items := m["items"].([]any)
	out := map[string]map[string]any{}
	for _, it := range items {
		im := it.(map[string]any)
		out[im["label"].(string)] = im
	}
	if len(items) > maxCompletions {
		t.Errorf("%d completion items, more than %d", len(items), maxCompletions)
	}
	return out
}

func TestLSPCompletion(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	// The document is being edited: the last line is half-written, so
	// main does not parse; completion still works.
	text := featProg + "    let q = List.\n"
	c := openFeat(t, uri, text)
	end := map[string]any{"line": strings.Count(text, "\n") - 1, "character": len("    let q = List.")}
	got := labels(t, c.result(1, "textDocument/completion", tdp(uri, end)))
	// completeAt makes line the document's last line (version v) and
	// returns the completions at its end.
	completeAt := func(v int, line string) map[string]map[string]any {
		t.Helper()
		c.change(uri, v, map[string]any{"text": featProg + line + "\n"})
		c.diagnostics(uri)
		end["character"] = len(line)
		return labels(t, c.result(v, "textDocument/completion", tdp(uri, end)))
	}
	if got["map"] == nil || !strings.Contains(got["map"]["detail"].(string), "List.map(") || got["len"] == nil {
		t.Errorf("after List.: %v", got)
	}
	if got["println"] != nil || got["shapes"] != nil {
		t.Errorf("after List.: unrelated names offered")
	}
	// A type's constructors after `Shape.`.
	got = completeAt(2, "    let q = Shape.")
	if got["Circle"] == nil || got["Rect"] == nil || len(got) != 2 {
		t.Errorf("after Shape.: %v", got)
	}
	// Fields after `p.` (p a record local), with a prefix.
	got = completeAt(3, "    let q = p.")
	if got["x"] == nil || got["y"] == nil || got["x"]["detail"] != "x: Int" {
		t.Errorf("after p.: %v", got)
	}
	// Plain names: locals in scope, functions, keywords; with a prefix.
	got = completeAt(4, "    let q = sh")
	if got["shapes"] == nil || got["shift"] == nil || got["shapes"]["detail"] != "shapes: List(Shape)" {
		t.Errorf("prefix sh: %v", got)
	}
	if got["total"] != nil {
		t.Errorf("prefix sh: total offered")
	}
	if !strings.HasPrefix(got["shift"]["detail"].(string), "fn shift(p: Point, by dx: Int) -> Point") {
		t.Errorf("shift detail: %v", got["shift"])
	}
	end["character"] = len("    let q = ")
	got = labels(t, c.result(5, "textDocument/completion", tdp(uri, end)))
	for _, w := range []string{"shapes", "total", "p", "area", "main", "println", "List", "match", "Circle"} {
		if got[w] == nil {
			t.Errorf("no completion %q", w)
		}
	}
	if got["dx"] != nil || got["r"] != nil {
		t.Errorf("locals of other functions offered")
	}
	// Missing labels in a call.
	got = completeAt(6, "    let q = shift(p, ")
	if got["by:"] == nil || got["p:"] == nil {
		t.Errorf("labels in shift(: %v", got)
	}
	// A builtin called with labels, one label already written.
	got = completeAt(7, "    let q = eq(left: 1, ")
	if got["right:"] == nil || got["left:"] != nil || got["right:"]["detail"] != "right: a" {
		t.Errorf("labels in eq(: %v", got["right:"])
	}
	c.shutdownAndExit(0)
}

func TestLSPSignatureHelp(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	text := featProg + "    let q = shift(p, by: \n"
	c := openFeat(t, uri, text)
	end := map[string]any{"line": strings.Count(text, "\n") - 1, "character": len("    let q = shift(p, by: ")}
	r := c.result(1, "textDocument/signatureHelp", tdp(uri, end)).(map[string]any)
	sig := r["signatures"].([]any)[0].(map[string]any)
	if sig["label"] != "fn shift(p: Point, by dx: Int) -> Point" || r["activeParameter"] != float64(1) {
		t.Errorf("signature help: %v", r)
	}
	ps := sig["parameters"].([]any)
	if len(ps) != 2 || jsonString(ps[1].(map[string]any)["label"]) != "[19,29]" {
		t.Errorf("parameters: %v", ps)
	}
	// A builtin.
	c.change(uri, 2, map[string]any{"text": featProg + "    let q = List.map(shapes, \n"})
	c.diagnostics(uri)
	end["character"] = len("    let q = List.map(shapes, ")
	r = c.result(2, "textDocument/signatureHelp", tdp(uri, end)).(map[string]any)
	sig = r["signatures"].([]any)[0].(map[string]any)
	if !strings.HasPrefix(sig["label"].(string), "fn List.map(") || r["activeParameter"] != float64(1) || sig["documentation"] == nil {
		t.Errorf("builtin signature help: %v", r)
	}
	// Outside a call: null.
	if r := c.result(3, "textDocument/signatureHelp", tdp(uri, map[string]any{"line": 1, "character": 0})); r != nil {
		t.Errorf("outside a call: %v", r)
	}
	c.shutdownAndExit(0)
}

func TestLSPDocumentSymbols(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	r := c.result(1, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}).([]any)
	var names []string
	for _, s := range r {
		m := s.(map[string]any)
		n := m["name"].(string)
		if kids, ok := m["children"].([]any); ok {
			var ks []string
			for _, k := range kids {
				ks = append(ks, k.(map[string]any)["name"].(string))
			}
			n += "(" + strings.Join(ks, ",") + ")"
		}
		names = append(names, n)
	}
	if got := strings.Join(names, " "); got != "Shape(Circle,Rect) Point(x,y) area shift main" {
		t.Errorf("symbols: %s", got)
	}
	if d := r[2].(map[string]any)["detail"]; d != "fn area(s: Shape) -> Float" {
		t.Errorf("area detail: %v", d)
	}
	c.shutdownAndExit(0)
}

func TestLSPSemanticTokens(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	res := c.initializeLegend()
	r := c.result(1, "textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}).(map[string]any)
	data := r["data"].([]any)
	if len(data)%5 != 0 || len(data) == 0 {
		t.Fatalf("data: %d numbers", len(data))
	}
	// Decode to "line:char:len type" and look for some of them.
	line, char := 0, 0
	got := map[string]bool{}
	lines := strings.Split(featProg, "\n")
	for i := 0; i < len(data); i += 5 {
		dl, dc, n, tt := int(data[i].(float64)), int(data[i+1].(float64)), int(data[i+2].(float64)), int(data[i+3].(float64))
		if dl > 0 {
			line, char = line+dl, dc
		} else {
			char += dc
		}
		u := []rune(lines[line])
		_ = u
		text := utf16Slice(lines[line], char, char+n)
		got[text+" "+res[tt]] = true
	}
	for _, w := range []string{"# shapes comment", "type keyword", "Shape type", "Circle enumMember", "area function",
		"s parameter", "shapes variable", "3.0 number", `"🌿 { string`, "total variable", "x property", `}" string`, "List namespace", "map function", "match keyword"} {
		if !got[w] {
			t.Errorf("no semantic token %q", w)
		}
	}
	c.shutdownAndExit(0)
}

// initializeLegend returns the token legend the server announced. It is
// the same for every server, so a fresh one is asked.
func (c *lspClient) initializeLegend() []string {
	c2 := startLSP(c.t)
	res := c2.initialize()
	c2.shutdownAndExit(0)
	leg := res["capabilities"].(map[string]any)["semanticTokensProvider"].(map[string]any)["legend"].(map[string]any)
	var out []string
	for _, s := range leg["tokenTypes"].([]any) {
		out = append(out, s.(string))
	}
	return out
}

func utf16Slice(s string, from, to int) string {
	n := 0
	start, end := -1, len(s)
	for i, r := range s {
		if n == from && start < 0 {
			start = i
		}
		if n == to {
			end = i
			break
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	if start < 0 {
		return ""
	}
	return s[start:end]
}

func TestLSPCodeActions(t *testing.T) {
	const uri = "file:///w/fix.mr"
	text := "type Shape:\n    Circle(Float)\n    Rect(Float, Float)\n\nfn area(s: Shape) -> Float:\n    match s:\n        Circle(r) -> r\n\nfn main():\n    let unused  =  3\n    println(area(Circle(1.0)))\n"
	c := openFeat(t, uri, text)
	all := map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 20, "character": 0}}
	r := c.result(1, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": all, "context": map[string]any{"diagnostics": []any{}}}).([]any)
	titles := map[string]map[string]any{}
	for _, a := range r {
		m := a.(map[string]any)
		titles[m["title"].(string)] = m
	}
	fix := titles["Add the missing match arms"]
	if fix == nil || fix["kind"] != "quickfix" {
		t.Fatalf("no missing-arms fix: %v", r)
	}
	fixed := applyEdits(t, text, fix["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any))
	if !strings.Contains(fixed, "        Circle(r) -> r\n        Rect(_, _) -> 0.0\n") {
		t.Errorf("missing arms fix:\n%s", fixed)
	}
	// Only the quick fixes: the unused binding needs no match fix first.
	r = c.result(2, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 9, "character": 8}, "end": map[string]any{"line": 9, "character": 8}},
		"context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}}}).([]any)
	// The match error hides the warnings (warnings come for a file
	// without errors), so fix the match first, then ask again.
	c.change(uri, 2, map[string]any{"text": fixed})
	c.diagnostics(uri)
	r = c.result(3, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 10, "character": 8}, "end": map[string]any{"line": 10, "character": 8}},
		"context": map[string]any{"diagnostics": []any{}}}).([]any)
	var got []string
	for _, a := range r {
		got = append(got, a.(map[string]any)["title"].(string))
	}
	if strings.Join(got, "|") != "Rename to '_unused'|Format the file (morrowc fmt)" {
		t.Fatalf("actions on the unused binding: %v", got)
	}
	renamed := applyEdits(t, fixed, r[0].(map[string]any)["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any))
	if !strings.Contains(renamed, "let _unused  =  3") {
		t.Errorf("unused fix:\n%s", renamed)
	}
	formatted := applyEdits(t, fixed, r[1].(map[string]any)["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any))
	if !strings.Contains(formatted, "let unused = 3") {
		t.Errorf("fixAll:\n%s", formatted)
	}
	// A client that resolves edits gets the fix-all action without its
	// edit, and the edit from codeAction/resolve.
	c2 := startLSP(t)
	c2.send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{
		"textDocument": map[string]any{"codeAction": map[string]any{"resolveSupport": map[string]any{"properties": []string{"edit"}}}}}}})
	c2.next()
	c2.open(uri, fixed, 7)
	c2.diagnostics(uri)
	r = c2.result(2, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": all,
		"context": map[string]any{"only": []string{"source.fixAll"}}}).([]any)
	if len(r) != 1 || r[0].(map[string]any)["edit"] != nil || r[0].(map[string]any)["data"] == nil {
		t.Fatalf("fix-all to resolve: %v", r)
	}
	res := c2.result(3, "codeAction/resolve", r[0]).(map[string]any)
	formatted = applyEdits(t, fixed, res["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any))
	if !strings.Contains(formatted, "let unused = 3") {
		t.Errorf("resolved fixAll:\n%s", formatted)
	}
	c2.change(uri, 8, map[string]any{"text": fixed + "\n"})
	c2.diagnostics(uri)
	c2.send(map[string]any{"id": 4, "method": "codeAction/resolve", "params": r[0]})
	c2.errorReply(4, -32801)
	c2.shutdownAndExit(0)

	// Did-you-mean.
	c.change(uri, 3, map[string]any{"text": "fn main():\n    let total = 3\n    println(totl)\n"})
	c.diagnostics(uri)
	r = c.result(4, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": all, "context": map[string]any{"only": []string{"quickfix"}}}).([]any)
	if len(r) != 1 || r[0].(map[string]any)["title"] != "Replace with 'total'" {
		t.Errorf("did-you-mean: %v", r)
	}
	c.shutdownAndExit(0)
}

// TestLSPSyntaxErrorRecovery: a document whose one function does not
// parse still answers for the declarations that do.
func TestLSPSyntaxErrorRecovery(t *testing.T) {
	const uri = "file:///w/broken.mr"
	text := featProg + "\nfn broken(:\n    let = 1\n\nfn tail(n: Int) -> Int:\n    area(Circle(1.0)) > 1.0\n    n + 1\n"
	c := openFeat(t, uri, text)
	if h := hoverText(c.result(1, "textDocument/hover", tdp(uri, posOf(t, text, "n + 1", 0, 0)))); !strings.Contains(h, "n: Int") {
		t.Errorf("hover after a broken function: %q", h)
	}
	if h := hoverText(c.result(2, "textDocument/hover", tdp(uri, posOf(t, text, "area", 3, 1)))); !strings.Contains(h, "fn area(s: Shape) -> Float") {
		t.Errorf("hover of a function: %q", h)
	}
	r, _ := c.result(3, "textDocument/definition", tdp(uri, posOf(t, text, "area(Circle(1.0)) >", 0, 0))).(map[string]any)
	if r == nil || jsonString(r["range"].(map[string]any)["start"]) != jsonString(posOf(t, text, "area", 1, 0)) {
		t.Errorf("definition in a broken document: %v", r)
	}
	got := labels(t, c.result(4, "textDocument/completion", tdp(uri, posOf(t, text, "n + 1", 0, 0))))
	if got["n"] == nil || got["area"] == nil || got["tail"] == nil {
		t.Errorf("completion in a broken document: %v", got)
	}
	c.shutdownAndExit(0)
}

func TestLSPFeatureRobustness(t *testing.T) {
	const uri = "file:///w/shapes.mr"
	c := openFeat(t, uri, featProg)
	far := map[string]any{"line": 100000, "character": 100000}
	unknown := "file:///w/not-open.mr"
	for i, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/references",
		"textDocument/completion", "textDocument/signatureHelp", "textDocument/prepareRename"} {
		// A position past the end of the document: an empty result or a
		// refusal, never a crash.
		reply := c.request(i+10, m, tdp(uri, far))
		if e, ok := reply["error"].(map[string]any); ok && e["code"] != float64(-32803) {
			t.Errorf("%s past the end: %v", m, reply)
		}
		// A document that is not open: an empty result.
		reply = c.request(i+20, m, tdp(unknown, far))
		if reply["error"] != nil {
			t.Errorf("%s of an unknown document: %v", m, reply)
		}
		// Bad params: InvalidParams.
		reply = c.request(i+30, m, map[string]any{"textDocument": 5})
		if e, ok := reply["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
			t.Errorf("%s with bad params: %v", m, reply)
		}
		reply = c.request(i+40, m, map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": -1, "character": 0}})
		if e, ok := reply["error"].(map[string]any); !ok || e["code"] != float64(-32602) {
			t.Errorf("%s with a negative position: %v", m, reply)
		}
	}
	for i, m := range []string{"textDocument/documentSymbol", "textDocument/semanticTokens/full"} {
		if reply := c.request(i+50, m, map[string]any{"textDocument": map[string]any{"uri": unknown}}); reply["error"] != nil {
			t.Errorf("%s of an unknown document: %v", m, reply)
		}
	}
	// Malformed JSON in between; the session goes on.
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":60,"method":"textDocument/hover","params":{`))
	c.errorReply(nil, -32700)
	// A request right after a change (during the re-check) answers for
	// the new text.
	c.change(uri, 2, map[string]any{"text": "fn main():\n    let renamed = 1\n    println(renamed)\n"})
	c.send(map[string]any{"id": 61, "method": "textDocument/hover", "params": tdp(uri, map[string]any{"line": 2, "character": 13})})
	c.diagnostics(uri)
	if h := hoverText(c.next()["result"]); !strings.Contains(h, "renamed: Int") {
		t.Errorf("hover after a change: %q", h)
	}
	// A 1 MiB document (over the limit): diagnostics, empty answers.
	big := "fn main():\n" + strings.Repeat("    println(1)\n", (1<<20)/15+1)
	c.open("file:///w/big.mr", big, 1)
	if ds, _ := c.diagnostics("file:///w/big.mr"); len(ds) == 0 {
		t.Errorf("no diagnostic for a document over 1 MiB")
	}
	c.result(62, "textDocument/hover", tdp("file:///w/big.mr", map[string]any{"line": 1, "character": 5}))
	c.result(63, "textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": "file:///w/big.mr"}})
	c.shutdownAndExit(0)
}

func TestLSPManyDocuments(t *testing.T) {
	c := startLSP(t)
	c.initialize()
	for i := 0; i < maxLSPDocs; i++ {
		uri := fmt.Sprintf("file:///w/m%d.mr", i)
		c.open(uri, fmt.Sprintf("fn main():\n    let v%d = %d\n    println(v%d)\n", i, i, i), 1)
		c.diagnostics(uri)
	}
	// One more is refused with a log message; the others still answer.
	c.open("file:///w/extra.mr", "fn main():\n    println(1)\n", 1)
	if m := c.next(); m["method"] != "window/logMessage" || !strings.Contains(fmt.Sprint(m["params"]), "128") {
		t.Errorf("the 129th document: %v", m)
	}
	h := hoverText(c.result(1, "textDocument/hover", tdp("file:///w/m127.mr", map[string]any{"line": 2, "character": 13})))
	if !strings.Contains(h, "v127: Int") {
		t.Errorf("hover in the last document: %q", h)
	}
	c.shutdownAndExit(0)
}

// TestLSPEveryPosition sends every position request at every position of
// a document, clean and with a syntax error: no request may fail with an
// internal error (a handler bug), and every answer is well formed.
func TestLSPEveryPosition(t *testing.T) {
	const uri = "file:///w/every.mr"
	broken := strings.Replace(featProg, "    let total = List.map(shapes, area)\n", "    let total = List.map(shapes, \n    let q = p.\n", 1) + "fn tail(n: Int) -> Int: n +\n"
	c := startLSP(t)
	c.initialize()
	id := 0
	for v, text := range []string{featProg, broken} {
		c.open(uri, text, v+1)
		c.diagnostics(uri)
		id = c.everyPosition(id, fmt.Sprintf("version %d", v+1), uri, text, []string{"textDocument/hover", "textDocument/definition", "textDocument/references",
			"textDocument/completion", "textDocument/signatureHelp", "textDocument/prepareRename", "textDocument/rename"}, nil)
		for _, m := range []string{"textDocument/documentSymbol", "textDocument/semanticTokens/full"} {
			id++
			if reply := c.request(id, m, map[string]any{"textDocument": map[string]any{"uri": uri}}); reply["error"] != nil {
				t.Fatalf("%s of version %d: %v", m, v+1, reply)
			}
		}
	}
	c.shutdownAndExit(0)
}
