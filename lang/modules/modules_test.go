package modules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/modules"
)

// buildTree writes files under a new directory, as testrun.WriteTree does, and
// builds its main.mr.
func buildTree(t *testing.T, files map[string]string) (string, *compiler.Unit) {
	t.Helper()
	dir := testrun.WriteTree(t, files)
	return dir, buildMain(t, dir, files["main.mr"])
}

// buildMain builds src as dir's main.mr, as the compiler driver does,
// failing the test when the build cannot run (diagnostics are the unit's).
func buildMain(t *testing.T, dir, src string) *compiler.Unit {
	t.Helper()
	u, err := compiler.Build(filepath.Join(dir, "main.mr"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func load(t *testing.T, entry string, opts modules.Options) *modules.Program {
	t.Helper()
	p, err := modules.Load(entry, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Resolve()
	return p
}

func codes(l diag.List) string {
	var out []string
	for _, d := range l {
		out = append(out, string(d.Code))
	}
	return strings.Join(out, " ")
}

// TestDiamondLoadsOnce: two modules importing a third load it once, and
// the dependency order puts it before both.
func TestDiamondLoadsOnce(t *testing.T) {
	dir := testrun.WriteTree(t, map[string]string{
		"main.mr": "import a\nimport b\n\nfn main():\n    println(a.f() + b.g())\n",
		"a.mr":    "import c\n\npub fn f() -> Int: c.k()\n",
		"b.mr":    "import c\n\npub fn g() -> Int: c.k()\n",
		"c.mr":    "pub fn k() -> Int: 1\n",
	})
	p := load(t, filepath.Join(dir, "main.mr"), modules.Options{})
	if len(p.Diags) != 0 {
		t.Fatalf("diagnostics: %v", p.Diags)
	}
	var names []string
	for _, m := range p.Modules {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, ","); got != "c,a,b," {
		t.Errorf("dependency order %q, want c,a,b, and the entry", got)
	}
}

// TestOverlay: an unsaved buffer wins over the file on disk, and a buffer
// with no file behind it is a module too.
func TestOverlay(t *testing.T) {
	dir := testrun.WriteTree(t, map[string]string{
		"main.mr": "import a\nimport b\n\nfn main():\n    println(a.f() + b.g())\n",
		"a.mr":    "pub fn f() -> Int: \"broken on disk\"\n",
	})
	overlay := map[string][]byte{
		filepath.Join(dir, "a.mr"): []byte("pub fn f() -> Int: 1\n"),
		filepath.Join(dir, "b.mr"): []byte("pub fn g() -> Int: 2\n"),
	}
	u, err := compiler.AnalyzeWith(filepath.Join(dir, "main.mr"), []byte("import a\nimport b\n\nfn main():\n    println(a.f() + b.g())\n"), modules.Options{Overlay: overlay})
	if err != nil || len(u.Diags) != 0 {
		t.Fatalf("%v %v", err, u.Diags)
	}
}

// TestSymlinkedDirectoryEscapes: a directory under the root that is a
// symlink to somewhere else does not let an import leave the root.
func TestSymlinkedDirectoryEscapes(t *testing.T) {
	outside := testrun.WriteTree(t, map[string]string{"lib/util.mr": "pub fn f() -> Int: 1\n"})
	dir := testrun.WriteTree(t, map[string]string{"main.mr": "import ext.util\n\nfn main():\n    println(ext.util.f())\n"})
	if err := os.Symlink(filepath.Join(outside, "lib"), filepath.Join(dir, "ext")); err != nil {
		t.Skip("no symlinks:", err)
	}
	p := load(t, filepath.Join(dir, "main.mr"), modules.Options{})
	if got := codes(p.Diags); got != "E7007" {
		t.Fatalf("codes %q, want E7007: %v", got, p.Diags)
	}
}

// TestTotalSizeLimit: more than 8 MiB of source in all is refused at the
// import that crosses the limit.
func TestTotalSizeLimit(t *testing.T) {
	files := map[string]string{}
	var main strings.Builder
	big := strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 10_000) + "pub fn f() -> Int: 1\n"
	for i := 0; i < 9; i++ {
		name := "m" + string(rune('a'+i))
		files[name+".mr"] = big
		main.WriteString("import " + name + "\n")
	}
	main.WriteString("\nfn main():\n    println(1)\n")
	files["main.mr"] = main.String()
	dir := testrun.WriteTree(t, files)
	p := load(t, filepath.Join(dir, "main.mr"), modules.Options{})
	if got := codes(p.Diags); got != "E7006" || !strings.Contains(p.Diags[0].Message, "8 MiB") {
		t.Fatalf("codes %q: %v", got, p.Diags)
	}
}

// TestEntryModuleLine: an entry whose module line names it finds the root
// above its directory.
func TestEntryModuleLine(t *testing.T) {
	dir := testrun.WriteTree(t, map[string]string{
		"app/main.mr":  "module app.main\n\nimport lib.util\n\nfn main():\n    println(lib.util.f())\n",
		"lib/util.mr":  "pub fn f() -> Int: 1\n",
		"bad/where.mr": "module bad.here\n\nfn main():\n    println(1)\n",
	})
	p := load(t, filepath.Join(dir, "app", "main.mr"), modules.Options{})
	if len(p.Diags) != 0 || p.Root != dir {
		t.Fatalf("root %s (want %s), diagnostics %v", p.Root, dir, p.Diags)
	}
	p = load(t, filepath.Join(dir, "bad", "where.mr"), modules.Options{Root: dir})
	if got := codes(p.Diags); got != "E7004" {
		t.Fatalf("codes %q: %v", got, p.Diags)
	}
}

// TestShadowingAndNamespaces: locals shadow imported functions; a type
// and a function of the same name live in separate namespaces; the
// diagnostics of an imported file are its own, qualified.
func TestShadowingAndNamespaces(t *testing.T) {
	files := map[string]string{
		"main.mr": "import a.{size, Size}\n\nfn main():\n    let size = 3\n    let s: Size = a.mk(size)\n    println(show(s))\n",
		"a.mr":    "pub type Size derive(Show):\n    Size(Int)\n\npub fn size(s: Size) -> Int:\n    match s:\n        Size(n) -> n\n\npub fn mk(n: Int) -> Size: Size(n)\n",
	}
	dir, u := buildTree(t, files)
	// `a.mk` is not imported qualified: only the selective import is.
	if got := codes(u.Diags); got != "E2001" || !strings.Contains(u.Diags[0].Message, "'a'") {
		t.Fatalf("codes %q: %v", got, u.Diags)
	}
	fixed := strings.Replace(files["main.mr"], "import a.{size, Size}", "import a\nimport a.{size, Size}", 1)
	u = buildMain(t, dir, fixed)
	if u.Program == nil {
		t.Fatalf("%v", u.Diags)
	}
	bad := strings.Replace(fixed, "a.mk(size)", "a.mk(\"no\")", 1)
	u = buildMain(t, dir, bad)
	if got := codes(u.Diags); got != "E3001" {
		t.Fatalf("codes %q: %v", got, u.Diags)
	}
}

func TestQualifiedNames(t *testing.T) {
	g := "area" + modules.Sep + "geo/shapes"
	if got := ast.Qualified("expected " + g + ", found Int"); got != "expected geo.shapes.area, found Int" {
		t.Errorf("Qualified: %q", got)
	}
	if got := ast.PlainName(g); got != "area" {
		t.Errorf("PlainName: %q", got)
	}
}

// TestUppercaseModule: a module whose name starts with an uppercase
// letter is reached through paths (`Geo.f()`, `Geo.T.K(2)`), as the
// parser reads such chains.
func TestUppercaseModule(t *testing.T) {
	_, u := buildTree(t, map[string]string{
		"Geo.mr":  "pub type T derive(Show):\n    K(Int)\n\npub fn f() -> Int: 7\n",
		"main.mr": "import Geo\n\nfn main():\n    println(Geo.f())\n    println(show(Geo.T.K(2)))\n    let t: Geo.T = Geo.K(3)\n    match t:\n        Geo.K(n) -> println(n)\n",
	})
	if u.Program == nil || len(u.Diags) != 0 {
		t.Fatalf("%v", u.Diags)
	}
}
