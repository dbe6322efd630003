package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// TestArenaClears: a struct handed out again after a reset is the same
// memory, cleared, with its slices emptied.
func TestArenaClears(t *testing.T) {
	var a arena
	x := a.expr()
	x.Rest = append(x.Rest, a.binop())
	x.First = a.unary()
	x.First.Ops = append(x.First.Ops, "-")
	a.reset()
	y := a.expr()
	if y != x {
		t.Fatalf("reset did not reuse the first gExpr")
	}
	if y.First != nil || len(y.Rest) != 0 || cap(y.Rest) == 0 {
		t.Errorf("reused gExpr not cleared (or its slice not kept): %+v", y)
	}
	if u := a.unary(); len(u.Ops) != 0 {
		t.Errorf("reused gUnary keeps its operators: %v", u.Ops)
	}
	// More than a chunk: distinct structs, and a reset goes back to the start.
	seen := map[*gPrimary]bool{}
	for i := 0; i < 1000; i++ {
		p := a.primary()
		if seen[p] {
			t.Fatalf("primary %d handed out twice", i)
		}
		seen[p] = true
	}
	a.reset()
	if p := a.primary(); !seen[p] {
		t.Errorf("reset did not reuse the primaries")
	}
}

// TestArenaReuseKeepsTrees: every declaration of a multi-declaration file
// (parsed with the arena reused from one declaration to the next) lowers
// to the same tree as the declaration parsed alone.
func TestArenaReuseKeepsTrees(t *testing.T) {
	paths, _ := filepath.Glob("../../fixtures/run/*/*.mr")
	decls := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil || bytes.Contains(src, []byte("\n\t")) {
			continue
		}
		f, dl := Parse(source.NewFile(p, src))
		if dl.HasErrors() || len(f.Decls) < 2 {
			continue
		}
		for _, d := range f.Decls {
			if _, ok := d.(*ast.UnsupportedDecl); ok {
				continue
			}
			sp := d.Span()
			alone, dl := Parse(source.NewFile("alone.mr", src[sp.Start:sp.End]))
			if dl.HasErrors() || len(alone.Decls) != 1 {
				t.Errorf("%s: declaration at %d does not parse alone: %v", p, sp.Start, dl.Err())
				continue
			}
			if got, want := sexpr(d), sexpr(alone.Decls[0]); got != want {
				t.Errorf("%s: declaration at %d differs in the file:\n%s\nalone:\n%s", p, sp.Start, got, want)
			}
			decls++
		}
	}
	if decls < 100 {
		t.Fatalf("only %d declarations compared", decls)
	}
}
