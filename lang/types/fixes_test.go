package types

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
)

// applyFixes applies the first fix of every diagnostic with code.
func applyFixes(t *testing.T, src string, ds diag.List, code diag.Code) string {
	var edits []diag.Edit
	for _, d := range ds {
		if d.Code == code {
			if len(d.Fixes) == 0 {
				t.Fatalf("%s has no fix: %v", code, d)
			}
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	if len(edits) == 0 {
		t.Fatalf("no %s diagnostic in %v", code, ds)
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start > edits[j].Span.Start })
	for _, e := range edits {
		src = src[:e.Span.Start] + e.New + src[e.Span.End:]
	}
	return src
}

func checkSrc(src string) diag.List {
	f, pd := parser.Parse(source.NewFile("fix.mr", []byte(src)))
	if pd.HasErrors() {
		return pd
	}
	info, ds := Check(f)
	if !ds.HasErrors() {
		ds = append(ds, Warnings(f, info)...)
	}
	return ds
}

func TestFixesResolveTheirDiagnostics(t *testing.T) {
	cases := []struct {
		code diag.Code
		src  string
		want string // a piece of the fixed text
	}{
		{ErrUnknownName, "fn main():\n    let total = 3\n    println(totl + 1)\n", "println(total + 1)"},
		{ErrUnknownMember, "fn main():\n    println(List.lenn([1]))\n", "List.len([1])"},
		{ErrNoField, "type P:\n    xpos: Int\n\nfn main():\n    let p = P(1)\n    println(p.xpox)\n", "p.xpos"},
		{WarnUnusedLet, "fn main():\n    let unused = 3\n    println(1)\n", "let _unused = 3"},
		{ErrNonExhaustive, "type Shape:\n    Circle(Float)\n    Rect(Float, Float)\n    Dot\n\nfn area(s: Shape) -> Float:\n    match s:\n        Circle(r) -> r\n\nfn main():\n    println(area(Dot))\n",
			"        Rect(_, _) -> 0.0\n        Dot -> 0.0"},
		{ErrNonExhaustive, "type T:\n    A\n    B(Int)\n\nfn name(t: T) -> (String, Option(T)):\n    match t:\n        A -> (\"a\", None)\n\nfn main():\n    println(name(A).0)\n",
			"B(_) -> (\"\", None)"},
	}
	for _, c := range cases {
		ds := checkSrc(c.src)
		fixed := applyFixes(t, c.src, ds, c.code)
		if !strings.Contains(fixed, c.want) {
			t.Errorf("%s: fixed text lacks %q:\n%s", c.code, c.want, fixed)
		}
		if after := checkSrc(fixed); len(after) > 0 {
			t.Errorf("%s: the fixed program still has diagnostics: %v\n%s", c.code, after, fixed)
		}
	}
}

// TestFixableCodesDocumented keeps the list in docs/diagnostics.md in step
// with the codes marked by diag.RegisterFix.
func TestFixableCodesDocumented(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "diagnostics.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, "<!-- fixes:begin -->"), strings.Index(doc, "<!-- fixes:end -->")
	if i < 0 || j < i {
		t.Fatal("docs/diagnostics.md lacks the fixes markers")
	}
	var want []string
	for _, c := range diag.Codes() {
		if diag.Fixable(c.Code) {
			want = append(want, "`"+string(c.Code)+"`")
		}
	}
	if got := doc[i+len("<!-- fixes:begin -->") : j]; got != strings.Join(want, ", ") {
		t.Errorf("docs/diagnostics.md lists %s; the registry marks %s", got, strings.Join(want, ", "))
	}
}
