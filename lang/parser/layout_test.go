package parser

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// layoutString lexes src and renders the token stream compactly: layout
// tokens as NL, IN and DE, '|' where a top-level declaration starts, and
// other tokens by their text.
func layoutString(src string) (string, diag.List) {
	var dl diag.List
	f := source.NewFile("t.mr", []byte(src))
	s := &scanner{f: f, src: f.Src, diags: &dl}
	raw := s.lexAll()
	l := &layout{f: f, diags: &dl}
	l.run(raw)
	chunk := map[int]bool{}
	for _, c := range l.chunks {
		chunk[c] = true
	}
	var parts []string
	for i, t := range l.out {
		if chunk[i] && i > 0 {
			parts = append(parts, "|")
		}
		switch int(t.Type) {
		case tNewline:
			parts = append(parts, "NL")
		case tIndent:
			parts = append(parts, "IN")
		case tDedent:
			parts = append(parts, "DE")
		default:
			parts = append(parts, t.Value)
		}
	}
	return strings.Join(parts, " "), dl
}

func TestLayout(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"simple block", "fn f():\n    a\n    b\n",
			"fn f ( ) : NL IN a NL b NL DE NL"},
		{"two decls", "fn f(): 1\nfn g(): 2\n",
			"fn f ( ) : 1 NL | fn g ( ) : 2 NL"},
		{"nested dedent", "fn f():\n    if a:\n        b\n    c\n",
			"fn f ( ) : NL IN if a : NL IN b NL DE NL c NL DE NL"},
		{"else after block", "fn f():\n    if a:\n        b\n    else:\n        c\n",
			"fn f ( ) : NL IN if a : NL IN b NL DE else : NL IN c NL DE NL DE NL"},
		{"else after inline body", "fn f():\n    if a: b\n    else: c\n",
			"fn f ( ) : NL IN if a : b else : c NL DE NL"},
		{"else two levels up", "fn f():\n    if a:\n        if b:\n            c\n    else:\n        d\n",
			"fn f ( ) : NL IN if a : NL IN if b : NL IN c NL DE NL DE else : NL IN d NL DE NL DE NL"},
		{"blank and comment lines", "fn f():\n\n    a  # c\n        # deeper comment\n# col0 comment\n    b\n",
			"fn f ( ) : NL IN a NL b NL DE NL"},
		{"brackets join lines", "fn f():\n    g(1,\n  2,\n        3)\n",
			"fn f ( ) : NL IN g ( 1 , 2 , 3 ) NL DE NL"},
		{"embedded lambda suite", "fn f():\n    spawn(() ->\n        defer a\n        b\n    )\n",
			"fn f ( ) : NL IN spawn ( ( ) -> NL IN defer a NL b NL DE ) NL DE NL"},
		{"embedded suite closed by comma", "fn f():\n    g((x) ->\n        x\n    , 2)\n",
			"fn f ( ) : NL IN g ( ( x ) -> NL IN x NL DE , 2 ) NL DE NL"},
		{"embedded suite with nested block", "fn f():\n    g((x) ->\n        if x:\n            1\n        else:\n            2\n    )\n",
			"fn f ( ) : NL IN g ( ( x ) -> NL IN if x : NL IN 1 NL DE else : NL IN 2 NL DE NL DE ) NL DE NL"},
		{"embedded suite closed by dedent to header", "fn f():\n    g((x) ->\n        x\n    )\n",
			"fn f ( ) : NL IN g ( ( x ) -> NL IN x NL DE ) NL DE NL"},
		{"header colon inside brackets", "fn f():\n    g(if c:\n        1\n    else:\n        2\n    )\n",
			"fn f ( ) : NL IN g ( if c : NL IN 1 NL DE else : NL IN 2 NL DE ) NL DE NL"},
		{"label colon inside brackets is not a suite", "fn f():\n    g(name:\n        1)\n",
			"fn f ( ) : NL IN g ( name : 1 ) NL DE NL"},
		{"pipe continuation", "fn f():\n    xs\n        |> g\n        |> h(1)\n    y\n",
			"fn f ( ) : NL IN xs |> g |> h ( 1 ) NL y NL DE NL"},
		{"tabs are multiples of 8", "fn f():\n\ta\n\tb\n",
			"fn f ( ) : NL IN a NL b NL DE NL"},
		{"triple string spans lines", "fn f():\n    let s = \"\"\"a\n  b\"\"\"\n    c\n",
			"fn f ( ) : NL IN let s = \"\"\"a\n  b\"\"\" NL c NL DE NL"},
		{"statement starting with a triple string", "fn f():\n    a\n    \"\"\"x\ny\"\"\"\n    c\n",
			"fn f ( ) : NL IN a NL \"\"\"x\ny\"\"\" NL c NL DE NL"},
		{"else before the first declaration starts a chunk", "else: 1\nfn f(): 2\n",
			"else : 1 NL | fn f ( ) : 2 NL"},
		{"block comment spans lines", "fn f():\n    a /* x\n y */ + b\n    c\n",
			"fn f ( ) : NL IN a + b NL c NL DE NL"},
		{"with do else", "fn f():\n    with\n        x <- a,\n        y <- b\n    do\n        x\n    else\n        e -> e\n",
			"fn f ( ) : NL IN with NL IN x <- a , NL y <- b NL DE do NL IN x NL DE else NL IN e -> e NL DE NL DE NL"},
		{"tuple index digits only", "fn f(): t.0.1\n",
			"fn f ( ) : t . 0 . 1 NL"},
		{"range is not a float", "fn f(): 1..2\n",
			"fn f ( ) : 1 .. 2 NL"},
		{"unclosed bracket recovers at next decl", "fn f(): g(1\nfn h(): 2\n",
			"fn f ( ) : g ( 1 NL | fn h ( ) : 2 NL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := layoutString(tc.src)
			if got != tc.want {
				t.Errorf("layout of %q\n got: %s\nwant: %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestLayoutErrors(t *testing.T) {
	tests := []struct {
		name, src string
		code      diag.Code
		msg       string
		line      int
	}{
		{"inconsistent dedent", "fn f():\n    if a:\n        b\n      c\n", ErrInconsistentDent, "inconsistent indentation", 4},
		{"mixed tabs and spaces", "fn f():\n\ta\nfn g():\n    b\n", ErrMixedIndent, "mixed tabs and spaces in indentation", 4},
		{"indented first line", "  fn f(): 1\n", ErrUnexpectedIndent, "unexpected indentation", 1},
		{"unmatched closer", "fn f(): 1)\n", ErrUnmatched, "unmatched ')'", 1},
		{"wrong closer", "fn f(): g(1]\n", ErrUnmatched, "does not close", 1},
		{"unclosed call", "fn f():\n    g(1,\n", ErrUnclosed, "expected ')' to close the call", 2},
		{"unclosed list", "fn f(): [1\n", ErrUnclosed, "expected ']' to close the list", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, dl := layoutString(tc.src)
			found := false
			for _, d := range dl {
				if d.Code == tc.code && strings.Contains(d.Message, tc.msg) && d.File.Line(d.Span.Start) == tc.line {
					found = true
				}
			}
			if !found {
				t.Errorf("%q: want %s %q on line %d, got %v", tc.src, tc.code, tc.msg, tc.line, dl)
			}
		})
	}
}
