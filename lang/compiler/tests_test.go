package compiler

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
)

func TestFilesOfTests(t *testing.T) {
	tests := "fn test_one():\n    println(1)\n"
	// The checker accepts a file of tests without main.
	if ds, err := Check("t.mr", []byte(tests)); err != nil || len(ds) != 0 {
		t.Fatalf("check: %v %v", ds, err)
	}
	// Building it as a program says to run its tests.
	u, err := Build("t.mr", []byte(tests))
	if err != nil || u.Program != nil || len(u.Diags) != 1 || u.Diags[0].Code != types.ErrNoMain ||
		!strings.Contains(u.Diags[0].Hint, "morrow test t.mr") {
		t.Fatalf("build: %v %v", u.Diags, err)
	}
	// BuildTests compiles it; the entry is its test.
	u, err = BuildTests("t.mr", []byte(tests))
	if err != nil || u.Verified == nil || u.Program.Functions[u.Program.Entry].Name != "test_one" {
		t.Fatalf("build tests: %v %v", u.Diags, err)
	}
	// A file without main and without tests is checked, not compiled.
	u, err = BuildTests("lib.mr", []byte("fn helper() -> Int: 1\n"))
	if err != nil || u.Diags.HasErrors() || u.Program != nil {
		t.Fatalf("no tests: %v %v", u.Diags, err)
	}
	// Its other errors are reported.
	u, err = BuildTests("bad.mr", []byte("fn test_bad(n: Int):\n    println(n)\n"))
	if err != nil || len(u.Diags) != 1 || u.Diags[0].Code != types.ErrTestSignature {
		t.Fatalf("bad signature: %v %v", u.Diags, err)
	}
	// A program with main and tests builds and runs main.
	u, err = Build("p.mr", []byte("fn main():\n    println(0)\n\n"+tests))
	if err != nil || u.Program == nil || u.Program.Functions[u.Program.Entry].Name != "main" {
		t.Fatalf("program: %v %v", u.Diags, err)
	}
}
