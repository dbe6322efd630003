// Package types is Morrow's type checker.
// PLACEHOLDER: replaced by the checker implementation.
package types

import (
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
)

// Info holds the checker's results in side tables keyed by node.
type Info struct {
	// Library is true when the file has no main and is run as a library
	// through `pub fn start(port: Pid(String)) -> ()`.
	Library bool
}

// Check type-checks a parsed file and returns its side tables and every
// diagnostic found.
func Check(f *ast.File) (*Info, diag.List) {
	return &Info{}, nil
}
