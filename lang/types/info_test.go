package types

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
)

// TestInfoCoversEveryExpression checks the side-table invariant that later
// stages rely on: in a program that checks cleanly, every expression has a
// recorded type without unbound variables left in place of known types,
// and every identifier and path in expression position has a resolution.
func TestInfoCoversEveryExpression(t *testing.T) {
	n := 0
	for _, root := range []string{filepath.Join("..", "..", "fixtures"), filepath.Join("..", "..", "examples"), filepath.Join("..", "..", "conformance")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".mr") {
				return nil
			}
			src, _ := os.ReadFile(p)
			af, pd := parser.Parse(source.NewFile(p, src))
			if pd.HasErrors() {
				return nil
			}
			info, diags := Check(af)
			if len(diags) > 0 {
				return nil
			}
			n++
			for _, decl := range af.Decls {
				fd, ok := decl.(*ast.FnDecl)
				if !ok {
					continue
				}
				walk(fd.Body, func(node ast.Node) {
					e, ok := node.(ast.Expr)
					if !ok {
						return
					}
					if _, ok := info.Types[e]; !ok {
						t.Errorf("%s: %T at %d has no type", p, e, e.Span().Start)
					}
					switch x := e.(type) {
					case *ast.Ident, *ast.Path:
						if info.Uses[x] == nil {
							t.Errorf("%s: %T at %d has no resolution", p, e, e.Span().Start)
						}
					case *ast.Call:
						if _, ok := info.Types[x.Fn]; !ok {
							t.Errorf("%s: callee at %d has no type", p, x.Fn.Span().Start)
						}
					}
				})
			}
			return nil
		})
	}
	if n == 0 {
		t.Skip("no run fixtures parsed")
	}
}
