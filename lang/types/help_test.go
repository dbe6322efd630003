package types

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

func TestBoundedDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		max  int
		want int
	}{
		{"printn", "println", 2, 1},
		{"lenght", "length", 2, 1}, // a transposition is one edit
		{"abc", "abc", 2, 0},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3}, // over the bound: max+1
		{"", "ab", 2, 2},
		{"abcdef", "uvwxyz", 2, 3},
	} {
		if got := boundedDistance(tc.a, tc.b, tc.max); got != tc.want {
			t.Errorf("boundedDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.max, got, tc.want)
		}
	}
}

// TestSuggestionWorkIsBounded: thousands of unknown names among thousands
// of functions spend the budget and then get no suggestion, instead of
// costing names x candidates comparisons; the first ones still get theirs.
func TestSuggestionWorkIsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "fn helper_%05d() -> Int: %d\n", i, i)
	}
	b.WriteString("fn main():\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "    println(helpr_%05d())\n", i)
	}
	f, pd := parser.Parse(source.NewFile("t.mr", []byte(b.String())))
	if pd.HasErrors() {
		t.Fatalf("syntax errors: %v", pd.Err())
	}
	_, diags := Check(f)
	if len(diags) != 3000 {
		t.Fatalf("want 3000 diagnostics, got %d", len(diags))
	}
	if h := diags[0].Hint; h != "did you mean 'helper_00000'?" {
		t.Errorf("first unknown name: hint %q", h)
	}
	if h := diags[len(diags)-1].Hint; h != "" {
		t.Errorf("after the budget is spent, no suggestion is expected, got %q", h)
	}
	c := &Checker{suggestWork: suggestBudget}
	if s := c.newSuggester("abc"); s.try("abd") || s.result() != "" || c.suggestWork != suggestBudget {
		t.Errorf("a spent budget must stop the lookup")
	}
}

func TestClosestMember(t *testing.T) {
	c := &Checker{types: map[string]*typeEntry{}}
	for _, tc := range []struct{ module, member, want string }{
		{"List", "lenght", "len"},
		{"List", "length", "len"},
		{"List", "size", "len"},
		{"List", "mapp", "map"},
		{"String", "uppercase", "to_upper"},
		{"String", "to_uper", "to_upper"},
		{"List", "zzzzzz", ""},
	} {
		if got := c.closestMember(tc.module, tc.member); got != tc.want {
			t.Errorf("closestMember(%s, %s) = %q, want %q", tc.module, tc.member, got, tc.want)
		}
	}
	for _, tc := range []struct{ parts, want string }{
		{"Lst.len", "did you mean 'List.len'?"},
		{"Lst.lenght", "did you mean 'List.len'?"},
		{"Strng.nope", "did you mean the module 'String'?"},
		{"Qqqqqq.len", ""},
	} {
		if got := c.qualifiedHint(strings.Split(tc.parts, ".")); got != tc.want {
			t.Errorf("qualifiedHint(%s) = %q, want %q", tc.parts, got, tc.want)
		}
	}
}

// TestHelpListsMatchRegistry: the did-you-mean lists hold exactly the
// registry's builtins and modules.
func TestHelpListsMatchRegistry(t *testing.T) {
	n := len(lib().top)
	for _, ms := range lib().members {
		n += len(ms)
	}
	if n != len(builtins.All()) {
		t.Errorf("the help lists hold %d builtins, the registry %d", n, len(builtins.All()))
	}
	for _, e := range builtins.All() {
		list := lib().top
		if e.Module() != "" {
			list = lib().members[e.Module()]
			if !slices.Contains(lib().moduleNames, e.Module()) {
				t.Errorf("module %s is not suggested", e.Module())
			}
		}
		if !slices.Contains(list, e.Member()) && !slices.Contains(list, e.Name) {
			t.Errorf("%s is not suggested", e.Name)
		}
	}
	if len(lib().moduleNames) != len(lib().members) {
		t.Errorf("suggested modules %v, modules with members %d", lib().moduleNames, len(lib().members))
	}
}
