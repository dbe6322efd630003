// Package codegen lowers checked Morrow programs to bytecode.
// PLACEHOLDER: replaced by the code generator.
package codegen

import (
	"errors"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Compile lowers a file that checked without errors. It never reports
// user errors; an error here is an internal compiler bug.
func Compile(f *ast.File, info *types.Info) (*bytecode.Program, error) {
	return nil, errors.New("codegen not implemented yet")
}
