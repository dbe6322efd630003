package vm

import (
	"go/ast"
	"go/token"
	"testing"

	"github.com/morrow-lang/morrow/internal/gosrc"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// interpreted returns, for each function of this package named in fns,
// the opcodes (bytecode.X) its body tests with a case clause or ==.
func interpreted(t *testing.T, fns ...string) map[string]bool {
	t.Helper()
	want := map[string]bool{}
	for _, f := range fns {
		want[f] = true
	}
	seen := map[string]bool{}
	_, decls := gosrc.Funcs(t, ".")
	for _, fd := range decls {
		if !want[fd.Name.Name] {
			continue
		}
		note := func(e ast.Expr) {
			if sel, ok := e.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "bytecode" {
					seen[sel.Sel.Name] = true
				}
			}
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CaseClause:
				for _, e := range n.List {
					note(e)
				}
			case *ast.BinaryExpr:
				if n.Op == token.EQL {
					note(n.X)
					note(n.Y)
				}
			}
			return true
		})
	}
	return seen
}

// TestEveryOpcodeInterpreted: every opcode of bytecode's descriptors has a
// case in the VM's general interpreter: a plain instruction in step, an
// actor instruction (Desc.Actor) in actorStep or actorOp. The fast loop
// (exec) may leave any instruction to them, so these are the cases that
// must exist. It names what is missing.
func TestEveryOpcodeInterpreted(t *testing.T) {
	plain := interpreted(t, "step")
	actor := interpreted(t, "actorStep", "actorOp")
	if len(plain) == 0 || len(actor) == 0 {
		t.Fatal("found no interpreter cases: the functions were renamed?")
	}
	for op := bytecode.Opcode(0); op < bytecode.OpcodeCount; op++ {
		d, _ := op.Desc()
		switch {
		case d.Actor && !actor[d.Name]:
			t.Errorf("%s is an actor instruction with no case in actorStep or actorOp", d.Name)
		case !d.Actor && !plain[d.Name]:
			t.Errorf("%s has no case in step, the general interpreter", d.Name)
		case d.Actor && plain[d.Name]:
			t.Errorf("%s is an actor instruction but step has a case for it (run sends actor instructions to actorStep)", d.Name)
		}
	}
}
