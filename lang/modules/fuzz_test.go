package modules_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/modules"
)

// FuzzModules runs a program of three modules, given as unsaved buffers
// (the entry, a module it imports and one that module imports), through
// the loader, the join and rewrite of modules and the checker (the
// editor's path, compiler.AnalyzeWith). Any input must give diagnostics
// or a checked program, never a panic (which the compiler reports as an
// internal error).
func FuzzModules(f *testing.F) {
	f.Add([]byte("import geo.shapes as s\nimport util.{twice}\n\nfn main():\n    println(twice(s.area(s.Square(3))))\n"),
		[]byte("import util\n\npub type Shape:\n    Square(Int)\n\npub fn area(x: Shape) -> Int:\n    match x:\n        Square(n) -> util.twice(n)\n"),
		[]byte("pub fn twice(n: Int) -> Int: n * 2\n"))
	f.Add([]byte("import util.{*}\npub import geo.shapes\n\nfn main(): println(twice(1))\n"),
		[]byte("module geo.shapes\nimport main\n"),
		[]byte("fn hidden() -> Int: 1\npub fn twice(n): n\n"))
	f.Add([]byte("import geo.shapes\nfn main():\n    let x: geo.shapes.Shape = geo.shapes.Square(1)\n"),
		[]byte("type Shape:\n    Square(Int)\n"), []byte(""))
	f.Fuzz(func(t *testing.T, entry, shapes, util []byte) {
		dir := t.TempDir()
		overlay := map[string][]byte{
			filepath.Join(dir, "geo", "shapes.mr"): shapes,
			filepath.Join(dir, "util.mr"):          util,
		}
		main := filepath.Join(dir, "main.mr")
		_, err := compiler.AnalyzeWith(main, entry, modules.Options{Overlay: overlay, Root: dir})
		var ie *compiler.InternalError
		if errors.As(err, &ie) {
			t.Fatalf("internal error: %v", err)
		}
	})
}
