// Package gosrc is test support for the tests that check rules of the
// code itself (every host operation settles first; every opcode has an
// interpreter case; only arm and disarm change a receive timer's armed
// state): it parses the Go files of a package and hands back their
// function declarations. It imports only the standard library, so the
// internal tests of any package may use it (internal/testrun, which
// runs programs through the engine, cannot be imported by the runtime's
// own internal tests), and only _test.go files import it
// (internal/archtest keeps it so).
package gosrc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Funcs parses the Go files of the package in dir, test files excepted,
// and returns every function and method declaration that has a body,
// with the file set of their positions. It fails t when a file cannot be
// read or parsed, or when there is none.
func Funcs(t testing.TB, dir string) (*token.FileSet, []*ast.FuncDecl) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var fns []*ast.FuncDecl
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				fns = append(fns, fd)
			}
		}
	}
	if len(fns) == 0 {
		t.Fatalf("no Go function found in %s", dir)
	}
	return fset, fns
}
