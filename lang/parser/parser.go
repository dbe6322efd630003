// Package parser turns Morrow source into an *ast.File.
// PLACEHOLDER: replaced by the parser implementation.
package parser

import (
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Parse parses one file. It always returns a (possibly partial) tree and
// every syntax diagnostic it found.
func Parse(f *source.File) (*ast.File, diag.List) {
	var l diag.List
	l.Add(f, "E1000", source.Span{}, "parser not implemented yet")
	return &ast.File{Src: f}, l
}
