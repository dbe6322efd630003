package codegen

import (
	"fmt"
	"sync"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// The prelude is parsed once per process: its tree is immutable and
// shared by every compilation.
var (
	preludeOnce sync.Once
	preludeAST  *ast.File
	preludeErr  error
)

func parsePrelude() (*ast.File, error) {
	preludeOnce.Do(func() {
		src := source.NewFile(core.PreludeFile, []byte(core.Prelude))
		f, diags := parser.Parse(src)
		if diags.HasErrors() {
			preludeErr = fmt.Errorf("codegen: the prelude does not parse: %v", diags.Err())
			return
		}
		preludeAST = f
	})
	return preludeAST, preludeErr
}

// preludeFunction returns the prelude function that implements the
// library function qualified ("List.map" -> "list_map"), as the builtin
// registry says.
func preludeFunction(qualified string) (string, bool) {
	b := builtins.Lookup(qualified)
	if b == nil || b.Impl != builtins.ImplPrelude {
		return "", false
	}
	return b.PreludeFn, true
}

// preludeUnit returns the prelude's compilation unit, parsing it on first
// use. Its functions are declared lazily, as the program reaches them.
func (c *compiler) preludeUnit() (*unit, error) {
	if c.prelude != nil {
		return c.prelude, nil
	}
	f, err := parsePrelude()
	if err != nil {
		return nil, err
	}
	u := &unit{src: f.Src, prelude: true, decls: map[string]*ast.FnDecl{}, index: map[string]int{}, aliases: map[string]ast.TypeExpr{}}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FnDecl); ok {
			u.decls[fd.Name] = fd
		}
	}
	c.prelude = u
	return u, nil
}
