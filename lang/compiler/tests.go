package compiler

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
)

// Files of tests (`morrow test`, docs/testing.md). A file that declares
// test_ functions needs no main: the checker accepts it without one, so
// `morrowc check` and the editor are content, but it is not a program,
// and Build says so (testsOnly). BuildTests compiles it for the test
// runner: every file the runner finds is checked, a missing main is no
// error, and a file with tests is compiled (its first test stands as the
// program's entry when it has no main; the runner starts each test by
// name).

// BuildTests is Build for `morrow test`: a file without main is no
// error, and a file without tests is checked but not compiled
// (u.Program is nil and u.Diags has no error).
func BuildTests(name string, src []byte) (*Unit, error) {
	u, err := Analyze(name, src)
	if err != nil {
		return u, err
	}
	u.Diags = dropMissingMain(u.Diags)
	if u.Diags.HasErrors() || u.AST == nil || !hasTests(u.AST) {
		return u, nil
	}
	return u, generate(u, name)
}

// dropMissingMain removes the "program requires a main function" error:
// the test runner runs tests, not main.
func dropMissingMain(l diag.List) diag.List {
	var out diag.List
	for _, d := range l {
		if d.Code != types.ErrNoMain {
			out = append(out, d)
		}
	}
	return out
}

// testsOnly reports, for a checked unit without errors, that it is a file
// of tests without main and cannot be built as a program; it adds the
// diagnostic that says so.
func testsOnly(u *Unit) bool {
	if u.Info == nil || u.Info.Library || u.AST == nil || hasMain(u.AST) || !hasTests(u.AST) {
		return false
	}
	d := u.Diags.Add(u.File, types.ErrNoMain, source.Span{}, "program requires a main function")
	d.Hint = "this file has tests: run them with `morrow test " + u.File.Name + "`, or add `fn main():` to run it as a program"
	return true
}

// hasMain reports whether f declares main.
func hasMain(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && fd.Name == "main" {
			return true
		}
	}
	return false
}

// hasTests reports whether f declares a test function.
func hasTests(f *ast.File) bool {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && types.IsTest(fd) && !strings.Contains(fd.Name, ast.ModuleSep) {
			return true
		}
	}
	return false
}
