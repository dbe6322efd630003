package query

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/modules"
)

const prog = testrun.Shapes

func TestQueryIndex(t *testing.T) {
	a := Analyze("shapes.mr", []byte(prog), modules.Options{})
	if !a.ParseOK || a.Info == nil || a.Diags.HasErrors() {
		t.Fatalf("analysis failed: %v", a.Diags)
	}
	cases := []struct {
		sub   string
		n     int
		kind  Kind
		name  string
		uses  int
		hover string
	}{
		{"shapes", 2, KLocal, "shapes", 2, "shapes: List(Shape)"},
		{"area", 2, KFunc, "area", 2, "fn area(s: Shape) -> Float"},
		{"Circle", 1, KCtor, "Circle", 3, "Circle(Float) -> Shape"},
		{"Shape", 1, KType, "Shape", 2, "type Shape:"},
		{"dx", 1, KParam, "dx", 2, "dx: Int"},
		{"by", 1, KLabel, "by", 2, "by dx: Int"},
		{".x", 0, KField, "x", 4, "Point.x: Int"},
		{"List.map", 0, KBuiltin, "List.map", 1, "fn List.map("},
		{"r)", 0, KLocal, "r", 3, "r: Float"},
		{"Point(1", 0, KType, "Point", 4, "Point(x: Int, y: Int) -> Point"},
	}
	for _, c := range cases {
		off := testrun.Offset(t, prog, c.sub, c.n)
		if strings.HasPrefix(c.sub, ".") {
			off++
		}
		if c.sub == "List.map" {
			off += 5
		}
		o := a.At(off + 1)
		if o == nil {
			t.Errorf("%s#%d: no occurrence", c.sub, c.n)
			continue
		}
		if o.Target.Kind != c.kind || o.Target.Name != c.name {
			t.Errorf("%s#%d: got %v %q, want %v %q", c.sub, c.n, o.Target.Kind, o.Target.Name, c.kind, c.name)
		}
		if n := len(a.References(o.Target)); n != c.uses {
			t.Errorf("%s#%d: %d references, want %d", c.sub, c.n, n, c.uses)
		}
		code, _ := a.Describe(o.Target, o.Span)
		if !strings.HasPrefix(code, c.hover) {
			t.Errorf("%s#%d: hover %q, want prefix %q", c.sub, c.n, code, c.hover)
		}
	}
}

func TestQueryTypeParam(t *testing.T) {
	src := "type Box(a):\n    item: a\n\nfn first(xs: List(b), d: b) -> b:\n    match xs:\n        [x, ..] -> x\n        [] -> d\n\nfn main():\n    println(first([Box(1).item], d: 2))\n"
	a := Analyze("tp.mr", []byte(src), modules.Options{})
	for _, c := range []struct {
		sub      string
		n, decl  int
		declSub  string
		wantRefs int
	}{{"a\n", 0, 0, "a)", 2}, {"b) ->", 0, 0, "b), d", 3}} {
		o := a.At(testrun.Offset(t, src, c.sub, c.n))
		if o == nil || o.Target.Kind != KTypeParam {
			t.Fatalf("%s: %+v", c.sub, o)
		}
		if want := testrun.Offset(t, src, c.declSub, c.decl); o.Target.DeclSpan.Start != want {
			t.Errorf("%s: declared at %d, want %d", c.sub, o.Target.DeclSpan.Start, want)
		}
		if n := len(a.References(o.Target)); n != c.wantRefs {
			t.Errorf("%s: %d references, want %d", c.sub, n, c.wantRefs)
		}
	}
}

func TestQueryScope(t *testing.T) {
	a := Analyze("shapes.mr", []byte(prog), modules.Options{})
	names := func(off int) string {
		var ns []string
		for _, o := range a.Scope(off) {
			ns = append(ns, o.Name)
		}
		return strings.Join(ns, " ")
	}
	if got := names(testrun.Offset(t, prog, "let total", 0)); got != "shapes" {
		t.Errorf("scope before total: %q", got)
	}
	if got := names(testrun.Offset(t, prog, "println", 0)); got != "p shapes total" {
		t.Errorf("scope at println: %q", got)
	}
	if got := names(testrun.Offset(t, prog, "3.0 *", 0)); got != "r s" {
		t.Errorf("scope in Circle arm: %q", got)
	}
}

func TestQuerySyntaxError(t *testing.T) {
	src := prog + "\nfn broken(:\n    let = 1\n\nfn tail(n: Int) -> Int:\n    n + 1\n"
	a := Analyze("broken.mr", []byte(src), modules.Options{})
	if a.ParseOK || !a.Diags.HasErrors() {
		t.Fatalf("want syntax errors")
	}
	o := a.At(testrun.Offset(t, src, "n + 1", 0))
	if o == nil || o.Target.Kind != KParam {
		t.Fatalf("no parameter after the broken declaration: %+v", o)
	}
	code, _ := a.Describe(o.Target, o.Span)
	if code != "n: Int" {
		t.Errorf("hover %q", code)
	}
}
