package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// A project of three modules, driven through the server's pipes: main
// imports geo.shapes under an alias and total_area through geo, which
// re-exports it.
var modFiles = map[string]string{
	"main.mr": `import geo.shapes as s
import geo.{total_area}

fn main():
    let shapes = [s.Circle(1.0), s.Square(2.0)]
    println(total_area(shapes))
    println(s.describe(s.Circle(2.0)))
`,
	"geo/mod.mr": `module geo

pub import geo.shapes.{Shape, total_area}
`,
	"geo/shapes.mr": `module geo.shapes

pub type Shape derive(Show, Eq):
    Circle(Float)
    Square(Float)

fn area(sh: Shape) -> Float:
    match sh:
        Circle(r) -> 3.0 * r * r
        Square(side) -> side * side

pub fn total_area(shapes: List(Shape)) -> Float:
    List.fold(shapes, 0.0, (acc, sh) -> acc + area(sh))

pub fn describe(sh: Shape) -> String:
    "a shape of area {area(sh)}"
`,
}

// openAndDrain opens a document and reads the diagnostics published for
// it (and for the files it imports).
func (c *lspClient) openAndDrain(uri, text string) []map[string]any {
	c.t.Helper()
	c.open(uri, text, 1)
	var mine []map[string]any
	for {
		m := c.next()
		p, _ := m["params"].(map[string]any)
		if m["method"] != "textDocument/publishDiagnostics" {
			c.t.Fatalf("want diagnostics, got %v", m)
		}
		if p["uri"] == uri {
			for _, d := range p["diagnostics"].([]any) {
				mine = append(mine, d.(map[string]any))
			}
			// The document's own list comes first, then its imports'.
			c.drainNotes()
			return mine
		}
	}
}

// drainNotes consumes notifications until a ping request is answered.
func (c *lspClient) drainNotes() {
	c.t.Helper()
	c.send(map[string]any{"id": "ping", "method": "textDocument/hover", "params": tdp("file:///nowhere.mr", map[string]any{"line": 0, "character": 0})})
	for {
		m := c.next()
		if m["id"] == "ping" {
			return
		}
	}
}

func TestLSPModuleFeatures(t *testing.T) {
	dir := testrun.WriteTree(t, modFiles)
	mainURI := fileURI(filepath.Join(dir, "main.mr"))
	shapesURI := fileURI(filepath.Join(dir, "geo", "shapes.mr"))
	modURI := fileURI(filepath.Join(dir, "geo", "mod.mr"))
	mainText := modFiles["main.mr"]
	c := startLSP(t)
	c.initialize()
	if ds := c.openAndDrain(mainURI, mainText); len(ds) != 0 {
		t.Fatalf("main.mr has diagnostics: %v", ds)
	}
	at := func(sub string, n, delta int) map[string]any { return tdp(mainURI, posOf(t, mainText, sub, n, delta)) }

	// Hover: an imported function (through a re-export) and a local.
	if h := hoverText(c.result(1, "textDocument/hover", at("total_area(shapes)", 0, 2))); !strings.Contains(h, "fn total_area(shapes: List(geo.shapes.Shape)) -> Float") || !strings.Contains(h, "from module geo.shapes") {
		t.Errorf("hover of an imported function: %q", h)
	}
	if h := hoverText(c.result(2, "textDocument/hover", at("shapes)", 0, 1))); !strings.Contains(h, "shapes: List(geo.shapes.Shape)") {
		t.Errorf("hover of a local: %q", h)
	}
	if h := hoverText(c.result(3, "textDocument/hover", at("describe", 0, 2))); !strings.Contains(h, "fn describe(sh: geo.shapes.Shape) -> String") {
		t.Errorf("hover through an alias: %q", h)
	}

	// Definition across the re-export: in geo/shapes.mr.
	r, _ := c.result(4, "textDocument/definition", at("total_area(shapes)", 0, 1)).(map[string]any)
	shapesText := modFiles["geo/shapes.mr"]
	if r == nil || r["uri"] != shapesURI || jsonString(r["range"].(map[string]any)["start"]) != jsonString(posOf(t, shapesText, "total_area", 0, 0)) {
		t.Errorf("definition across a re-export: %v (want %s)", r, shapesURI)
	}
	r, _ = c.result(5, "textDocument/definition", at("Circle", 0, 1)).(map[string]any)
	if r == nil || r["uri"] != shapesURI || jsonString(r["range"].(map[string]any)["start"]) != jsonString(posOf(t, shapesText, "Circle", 0, 0)) {
		t.Errorf("definition of an imported constructor: %v", r)
	}

	// Completion after the alias: public names only.
	c.change(mainURI, 2, map[string]any{"text": mainText + "    let q = s.\n"})
	c.drainNotes()
	end := map[string]any{"line": strings.Count(mainText, "\n"), "character": len("    let q = s.")}
	got := labels(t, c.result(6, "textDocument/completion", tdp(mainURI, end)))
	for _, w := range []string{"total_area", "describe", "Shape", "Circle", "Square"} {
		if got[w] == nil {
			t.Errorf("completion after s.: no %s in %v", w, got)
		}
	}
	if got["area"] != nil {
		t.Errorf("completion after s. offers the private area")
	}
	if d, _ := got["describe"]["detail"].(string); d != "fn describe(sh: geo.shapes.Shape) -> String" {
		t.Errorf("describe detail: %q", d)
	}
	c.change(mainURI, 3, map[string]any{"text": mainText})
	c.drainNotes()

	// References across files: open geo/shapes.mr too.
	c.openAndDrain(shapesURI, shapesText)
	p := at("describe", 0, 1)
	p["context"] = map[string]any{"includeDeclaration": true}
	refs := c.result(7, "textDocument/references", p).([]any)
	uris := map[string]int{}
	for _, x := range refs {
		uris[x.(map[string]any)["uri"].(string)]++
	}
	if uris[mainURI] != 1 || uris[shapesURI] != 1 || len(refs) != 2 {
		t.Errorf("references of describe: %v", refs)
	}
	// From the declaring file, the uses in main.mr (an importer) too.
	p = tdp(shapesURI, posOf(t, shapesText, "total_area", 0, 1))
	p["context"] = map[string]any{"includeDeclaration": false}
	refs = c.result(8, "textDocument/references", p).([]any)
	uris = map[string]int{}
	for _, x := range refs {
		uris[x.(map[string]any)["uri"].(string)]++
	}
	// main.mr's import and use, geo/mod.mr's re-export.
	if len(refs) != 3 || uris[mainURI] != 2 || uris[modURI] != 1 {
		t.Errorf("references of total_area from its module: %v", refs)
	}
	// Renaming it renames the import names too.
	p = tdp(shapesURI, posOf(t, shapesText, "total_area", 0, 1))
	p["newName"] = "sum_area"
	ws0 := c.result(81, "textDocument/rename", p).(map[string]any)["changes"].(map[string]any)
	want := map[string]string{mainURI: "import geo.{sum_area}", modURI: "pub import geo.shapes.{Shape, sum_area}", shapesURI: "pub fn sum_area(shapes"}
	texts := map[string]string{mainURI: mainText, modURI: modFiles["geo/mod.mr"], shapesURI: shapesText}
	for u, w := range want {
		edits, _ := ws0[u].([]any)
		if got := applyEdits(t, texts[u], edits); !strings.Contains(got, w) || strings.Contains(got, "total_area") {
			t.Errorf("rename total_area in %s:\n%s", u, got)
		}
	}

	// Rename a public function: every file that uses it.
	p = at("describe", 0, 1)
	p["newName"] = "explain"
	ws := c.result(9, "textDocument/rename", p).(map[string]any)["changes"].(map[string]any)
	if len(ws) != 2 || ws[mainURI] == nil || ws[shapesURI] == nil {
		t.Errorf("rename across files: %v", ws)
	} else {
		if got := applyEdits(t, shapesText, ws[shapesURI].([]any)); !strings.Contains(got, "pub fn explain(sh: Shape)") {
			t.Errorf("renamed geo/shapes.mr:\n%s", got)
		}
		if got := applyEdits(t, mainText, ws[mainURI].([]any)); !strings.Contains(got, "println(s.explain(s.Circle(2.0)))") {
			t.Errorf("renamed main.mr:\n%s", got)
		}
	}

	// Renaming describe (from main.mr) to the name of a private function
	// of its module clashes there.
	p = at("describe", 0, 1)
	p["newName"] = "area"
	if m := c.request(91, "textDocument/rename", p); m["error"] == nil {
		t.Errorf("rename describe -> area (a function of geo.shapes) not refused: %v", m)
	}

	// Symbols of main.mr: its own declarations only.
	syms := c.result(10, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": mainURI}}).([]any)
	if len(syms) != 1 || syms[0].(map[string]any)["name"] != "main" {
		t.Errorf("symbols: %v", syms)
	}

	// Signature help in a call through the alias.
	sh := c.result(11, "textDocument/signatureHelp", at("s.Circle(2.0)", 0, 0)).(map[string]any)
	if sig := sh["signatures"].([]any)[0].(map[string]any); sig["label"] != "fn describe(sh: geo.shapes.Shape) -> String" {
		t.Errorf("signature help: %v", sh)
	}

	// Semantic tokens: the imported function is a function.
	data := c.result(12, "textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": mainURI}}).(map[string]any)["data"].([]any)
	if len(data) == 0 || len(data)%5 != 0 {
		t.Errorf("semantic tokens: %v", data)
	}

	// A bad request in between.
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":13,"method":"textDocument/hover","params":[}`))
	c.errorReply(nil, -32700)

	// An edit of geo/shapes.mr re-checks main.mr (an importer): renaming
	// describe there breaks main.
	c.change(shapesURI, 2, map[string]any{"text": strings.Replace(shapesText, "pub fn describe", "pub fn depict", 1)})
	var mainDiags []any
	for i := 0; i < 2; i++ {
		m := c.next()
		if m["method"] == "textDocument/publishDiagnostics" && m["params"].(map[string]any)["uri"] == mainURI {
			mainDiags = m["params"].(map[string]any)["diagnostics"].([]any)
		}
	}
	if len(mainDiags) == 0 || !strings.Contains(jsonString(mainDiags), "describe") {
		t.Errorf("main.mr not re-checked after its import changed: %v", mainDiags)
	}
	c.drainNotes()

	// Hover in a file with a syntax error: the declarations that parse
	// still answer, imported names included.
	broken := mainText + "\nfn broken(:\n    let = 1\n\nfn more() -> Float:\n    total_area([s.Circle(1.0)])\n"
	c.change(mainURI, 4, map[string]any{"text": broken})
	c.drainNotes()
	if h := hoverText(c.result(14, "textDocument/hover", tdp(mainURI, posOf(t, broken, "total_area", 2, 1)))); !strings.Contains(h, "fn total_area(") {
		t.Errorf("hover of an imported name in a broken file: %q", h)
	}
	if h := hoverText(c.result(15, "textDocument/hover", tdp(mainURI, posOf(t, broken, "shapes)", 0, 1)))); !strings.Contains(h, "shapes: List(geo.shapes.Shape)") {
		t.Errorf("hover of a local in a broken file: %q", h)
	}
	_ = modURI
	c.shutdownAndExit(0)
}

// TestLSPModuleQualifier: the module qualifier of an imported name is a
// namespace for hover and highlighting.
func TestLSPModuleQualifier(t *testing.T) {
	dir := testrun.WriteTree(t, modFiles)
	mainURI := fileURI(filepath.Join(dir, "main.mr"))
	mainText := modFiles["main.mr"]
	c := startLSP(t)
	c.initialize()
	c.openAndDrain(mainURI, mainText)
	if h := hoverText(c.result(1, "textDocument/hover", tdp(mainURI, posOf(t, mainText, "s.describe", 0, 0)))); !strings.Contains(h, "module geo.shapes") {
		t.Errorf("hover of a module alias: %q", h)
	}
	r, _ := c.result(2, "textDocument/definition", tdp(mainURI, posOf(t, mainText, "geo.shapes as", 0, 2))).(map[string]any)
	if r == nil || r["uri"] != fileURI(filepath.Join(dir, "geo", "shapes.mr")) {
		t.Errorf("definition of an imported module: %v", r)
	}
	c.shutdownAndExit(0)
}

// TestLSPModuleEveryPosition sends every position request at every
// position of each file of the project, with all of them open: no
// internal error, every location in a file of the project.
func TestLSPModuleEveryPosition(t *testing.T) {
	dir := testrun.WriteTree(t, modFiles)
	c := startLSP(t)
	c.initialize()
	uris := map[string]string{}
	for _, name := range []string{"geo/shapes.mr", "geo/mod.mr", "main.mr"} {
		uri := fileURI(filepath.Join(dir, filepath.FromSlash(name)))
		uris[uri] = modFiles[name]
		c.openAndDrain(uri, modFiles[name])
	}
	id := 0
	for uri, text := range uris {
		id = c.everyPosition(id, uri, uri, text, []string{"textDocument/hover", "textDocument/definition", "textDocument/references",
			"textDocument/completion", "textDocument/signatureHelp", "textDocument/rename"}, func(m string, l, ch int, reply map[string]any) {
			if s := jsonString(reply["result"]); strings.Contains(s, `"uri"`) && !strings.Contains(s, dir) {
				t.Fatalf("%s at %s %d:%d: a location outside the project: %s", m, uri, l, ch, s)
			}
		})
	}
	c.shutdownAndExit(0)
}

// TestLSPBrokenProjects: a cycle, a missing module, a missing name and a
// syntax error in an imported module (its errors go to its own file):
// diagnostics in main.mr where they belong to it, and every request
// answers without an internal error.
func TestLSPBrokenProjects(t *testing.T) {
	projects := []map[string]string{
		{"main.mr": "import a\n\nfn main():\n    let x = a.f(1)\n    println(x)\n", "a.mr": "import b\n\npub fn f(x: Int) -> Int: b.g(x)\n", "b.mr": "import a\n\npub fn g(x: Int) -> Int: a.f(x)\n"},
		{"main.mr": "import nowhere.at_all\n\nfn main():\n    let x = 1\n    println(x)\n"},
		{"main.mr": "import a.{g}\n\nfn main():\n    let x = 1\n    println(x)\n", "a.mr": "pub fn f(x: Int) -> Int: x\n"},
		{"main.mr": "import a\n\nfn main():\n    let x = a.f(1)\n    println(x)\n", "a.mr": "pub fn f(x: Int) -> Int: x\n\nfn broken(:\n"},
	}
	for i, files := range projects {
		dir := testrun.WriteTree(t, files)
		c := startLSP(t)
		c.initialize()
		uri := fileURI(filepath.Join(dir, "main.mr"))
		text := files["main.mr"]
		if ds := c.openAndDrain(uri, text); len(ds) == 0 && (i == 1 || i == 2) {
			t.Errorf("project %d: no diagnostics", i)
		}
		id := c.everyPosition(0, fmt.Sprintf("project %d", i), uri, text, []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion", "textDocument/signatureHelp"}, nil)
		// The local still answers.
		if h := hoverText(c.result(id+1, "textDocument/hover", tdp(uri, posOf(t, text, "x)", 0, 0)))); !strings.Contains(h, "x: Int") {
			t.Errorf("project %d: hover of a local: %q", i, h)
		}
		c.shutdownAndExit(0)
	}
}
