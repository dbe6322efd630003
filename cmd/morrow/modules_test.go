package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// TestRunProject: `morrow run` follows the entry's imports, and a .mrb
// built from a project runs from another directory without its sources;
// a fault in an imported module names its file and the module-qualified
// function.
func TestRunProject(t *testing.T) {
	dir := testrun.WriteTree(t, map[string]string{
		"proj/main.mr":      "import calc.ops\n\nfn main():\n    println(calc.ops.half(10))\n    println(calc.ops.half(0))\n",
		"proj/calc/ops.mr":  "pub fn half(n: Int) -> Int:\n    let d = if n == 0: 0 else: 2\n    n / d\n",
		"elsewhere/keep.md": "",
	})
	entry := filepath.Join(dir, "proj", "main.mr")
	r := runCLI(t, nil, "run", entry)
	if r.code != 1 || r.stdout != "5\n" || !strings.Contains(r.stderr, "calc/ops.mr:3") || !strings.Contains(r.stderr, "in calc.ops.half") {
		t.Fatalf("run the project: %+v", r)
	}
	u := testrun.CompileFile(t, entry)
	mrb := filepath.Join(dir, "elsewhere", "prog.mrb")
	if err := os.WriteFile(mrb, bytecode.Encode(u.Program), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "proj")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "elsewhere"))
	r = runCLI(t, nil, "run", "prog.mrb")
	if r.code != 1 || r.stdout != "5\n" || !strings.Contains(r.stderr, "calc/ops.mr:3") || !strings.Contains(r.stderr, "in calc.ops.half") {
		t.Fatalf("run the .mrb without sources: %+v", r)
	}
}

// TestTestProject: `morrow test` follows imports; a file's tests are its
// own (an imported module's tests run when its file is tested), and an
// error in a module that several tested files import is reported once.
func TestTestProject(t *testing.T) {
	dir := t.TempDir()
	testrun.WriteFile(t, dir, "util.mr", "pub fn double(x: Int) -> Int: x * 2\n\nfn test_double() -> Result((), String):\n    Test.equal(double(2), 4)\n")
	testrun.WriteFile(t, dir, "a_test.mr", "import util\n\nfn test_a() -> Result((), String):\n    Test.equal(util.double(3), 6)\n")
	r := runCLI(t, nil, "test", filepath.Join(dir, "a_test.mr"))
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "1/1 passed") {
		t.Fatalf("one file: %+v", r)
	}
	r = runCLI(t, nil, "test", dir)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "2/2 passed") {
		t.Fatalf("the directory: %+v", r)
	}
	testrun.WriteFile(t, dir, "util.mr", "pub fn double(x: Int) -> Int: \"no\"\n")
	testrun.WriteFile(t, dir, "b_test.mr", "import util\n\nfn test_b() -> Result((), String):\n    Test.equal(util.double(1), 2)\n")
	r = runCLI(t, nil, "test", dir)
	if r.code == 0 || strings.Count(r.stderr, "error[E3001]") != 1 {
		t.Fatalf("a broken module: %+v", r)
	}
}
