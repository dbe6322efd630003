package diag

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/source"
)

// spanOf returns the span of the first occurrence of sub in src.
func spanOf(t *testing.T, src, sub string) source.Span {
	t.Helper()
	i := strings.Index(src, sub)
	if i < 0 {
		t.Fatalf("%q not in source", sub)
	}
	return source.Span{Start: i, End: i + len(sub)}
}

func TestRenderTextPlain(t *testing.T) {
	src := "fn main():\n    send(p, 1)\n    println(\"x\")\n"
	f := source.NewFile("demo/a.mr", []byte(src))
	d := &Diagnostic{
		Code:    "E5101",
		Message: "Result value must be handled; bind, return, or match it",
		File:    f,
		Span:    spanOf(t, src, "send(p, 1)"),
		Label:   "this Result is discarded",
		Notes:   []string{"send returns Result((), Int)"},
		Hint:    "match on it, or bind it with let",
	}
	var b bytes.Buffer
	if err := RenderText(&b, d, false); err != nil {
		t.Fatal(err)
	}
	want := `error[E5101]: Result value must be handled; bind, return, or match it
 --> demo/a.mr:2:5
  |
2 |     send(p, 1)
  |     ^^^^^^^^^^ this Result is discarded
  |
  = note: send returns Result((), Int)
  = hint: match on it, or bind it with let
`
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestRenderTextColor(t *testing.T) {
	src := "let x = 1\n"
	f := source.NewFile("a.mr", []byte(src))
	d := &Diagnostic{Code: "E3001", Message: "boom", File: f, Span: spanOf(t, src, "x")}
	var plain, colored bytes.Buffer
	RenderText(&plain, d, false)
	RenderText(&colored, d, true)
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("plain output has escape codes: %q", plain.String())
	}
	if !strings.Contains(colored.String(), "\x1b[31") || !strings.Contains(colored.String(), "\x1b[1") {
		t.Errorf("coloured output lacks red/bold: %q", colored.String())
	}
	if stripANSI(colored.String()) != plain.String() {
		t.Errorf("colour changes the text:\n%q\n%q", stripANSI(colored.String()), plain.String())
	}
}

// stripANSI removes SGR escape sequences.
func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && s[j] != 'm' {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestRenderTextEdgeCases(t *testing.T) {
	cases := []struct {
		name string
		src  string
		span func(src string) source.Span
		want string
	}{
		{
			name: "unicode columns",
			src:  "let é = \"ü\" + 1\n",
			span: func(src string) source.Span { i := strings.Index(src, "1"); return source.Span{Start: i, End: i + 1} },
			want: "error[E1]: m\n --> f.mr:1:15\n  |\n1 | let é = \"ü\" + 1\n  |               ^\n",
		},
		{
			name: "tab expands",
			src:  "\tx\n",
			span: func(string) source.Span { return source.Span{Start: 1, End: 2} },
			want: "error[E1]: m\n --> f.mr:1:2\n  |\n1 |     x\n  |     ^\n",
		},
		{
			name: "empty span at end of file",
			src:  "abc",
			span: func(string) source.Span { return source.Span{Start: 3, End: 3} },
			want: "error[E1]: m\n --> f.mr:1:4\n  |\n1 | abc\n  |    ^\n",
		},
		{
			name: "span past the end is clamped",
			src:  "abc\n",
			span: func(string) source.Span { return source.Span{Start: 2, End: 400} },
			want: "error[E1]: m\n --> f.mr:1:3\n  |\n1 | abc\n  |   ^\n",
		},
		{
			name: "inverted span",
			src:  "abc\n",
			span: func(string) source.Span { return source.Span{Start: 2, End: 0} },
			want: "error[E1]: m\n --> f.mr:1:3\n  |\n1 | abc\n  |   ^\n",
		},
		{
			name: "multi-line span",
			src:  "f(\n  a,\n  b)\n",
			span: func(string) source.Span { return source.Span{Start: 0, End: 12} },
			want: "error[E1]: m\n --> f.mr:1:1\n  |\n1 | f(\n  | ^^\n2 |   a,\n  |   ^^\n3 |   b)\n  |   ^^\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := source.NewFile("f.mr", []byte(c.src))
			d := &Diagnostic{Code: "E1", Message: "m", File: f, Span: c.span(c.src)}
			var b bytes.Buffer
			RenderText(&b, d, false)
			if b.String() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), c.want)
			}
		})
	}
}

func TestRenderTextLongSpanElided(t *testing.T) {
	src := strings.Repeat("x\n", 12)
	f := source.NewFile("f.mr", []byte(src))
	d := &Diagnostic{Code: "E1", Message: "m", File: f, Span: source.Span{Start: 0, End: len(src) - 1}, Label: "here"}
	var b bytes.Buffer
	RenderText(&b, d, false)
	out := b.String()
	if !strings.Contains(out, "\n...\n") || !strings.Contains(out, "12 | x\n   | ^ here\n") || strings.Contains(out, " 6 | x") {
		t.Errorf("long span not elided as expected:\n%s", out)
	}
}

func TestRenderTextRelatedAndNoFile(t *testing.T) {
	src := "fn f(x, x): x\n"
	f := source.NewFile("f.mr", []byte(src))
	d := &Diagnostic{Code: "E2001", Message: "duplicate parameter 'x'", File: f,
		Span:    source.Span{Start: 8, End: 9},
		Related: []Related{{Span: source.Span{Start: 5, End: 6}, Message: "first declared here"}}}
	var b bytes.Buffer
	RenderText(&b, d, false)
	want := "error[E2001]: duplicate parameter 'x'\n --> f.mr:1:9\n  |\n1 | fn f(x, x): x\n  |         ^\n ::: f.mr:1:6\n  |\n1 | fn f(x, x): x\n  |      - first declared here\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	RenderText(&b, &Diagnostic{Code: "E9", Message: "no file", Notes: []string{"n"}}, false)
	if b.String() != "error[E9]: no file\n  = note: n\n" {
		t.Errorf("no-file rendering: %q", b.String())
	}
}

func TestRenderShort(t *testing.T) {
	src := "a\nbb ü x\n"
	f := source.NewFile("dir/f.mr", []byte(src))
	l := List{
		{Code: "E3001", Message: "two\nlines", File: f, Span: spanOf(t, src, "x")},
		{Code: "E0001", Severity: Warning, Message: "w", File: f, Span: source.Span{}},
	}
	var b bytes.Buffer
	if err := Render(&b, l, RenderOptions{Format: FormatShort}); err != nil {
		t.Fatal(err)
	}
	want := "dir/f.mr:2:6: error[E3001]: two lines\ndir/f.mr:1:1: warning[E0001]: w\n"
	if b.String() != want {
		t.Errorf("got %q want %q", b.String(), want)
	}
}

func TestRenderJSON(t *testing.T) {
	src := "é\nab x\n"
	f := source.NewFile("f.mr", []byte(src))
	l := List{{Code: "E3001", Message: "m", File: f, Span: spanOf(t, src, "x"), Label: "lbl",
		Related: []Related{{Span: source.Span{Start: 0, End: 2}, Message: "r"}},
		Notes:   []string{"n1"}, Hint: "h"}}
	var b bytes.Buffer
	if err := Render(&b, l, RenderOptions{Format: FormatJSON}); err != nil {
		t.Fatal(err)
	}
	want := `{"version":1,"diagnostics":[{"severity":"error","code":"E3001","message":"m","file":"f.mr",` +
		`"span":{"start":{"offset":6,"line":2,"column":4},"end":{"offset":7,"line":2,"column":5}},"label":"lbl",` +
		`"related":[{"file":"f.mr","span":{"start":{"offset":0,"line":1,"column":1},"end":{"offset":2,"line":1,"column":2}},"message":"r"}],` +
		`"notes":["n1"],"hint":"h"}]}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
	b.Reset()
	Render(&b, nil, RenderOptions{Format: FormatJSON})
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if ds, ok := doc["diagnostics"].([]any); !ok || len(ds) != 0 {
		t.Errorf("empty list must render an empty array, got %s", b.String())
	}
}

func TestParseFormatAndColor(t *testing.T) {
	for _, s := range []string{"text", "short", "json"} {
		f, err := ParseFormat(s)
		if err != nil || f.String() != s {
			t.Errorf("ParseFormat(%q) = %v, %v", s, f, err)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("ParseFormat accepted xml")
	}
	for _, s := range []string{"auto", "always", "never"} {
		m, err := ParseColorMode(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseColorMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseColorMode("yes"); err == nil {
		t.Error("ParseColorMode accepted yes")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	var buf bytes.Buffer
	if !ColorAlways.Enabled(&buf, env(map[string]string{"NO_COLOR": "1"})) {
		t.Error("always must win over NO_COLOR")
	}
	if ColorNever.Enabled(os.Stdout, env(nil)) {
		t.Error("never must disable colour")
	}
	if ColorAuto.Enabled(&buf, env(nil)) {
		t.Error("auto must not colour a buffer")
	}
	// A character device stands in for a terminal.
	tty, err := os.OpenFile("/dev/null", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/null")
	}
	defer tty.Close()
	if !ColorAuto.Enabled(tty, env(nil)) {
		t.Error("auto must colour a character device")
	}
	if ColorAuto.Enabled(tty, env(map[string]string{"NO_COLOR": "1"})) {
		t.Error("auto must honour NO_COLOR")
	}
	if ColorAuto.Enabled(tty, env(map[string]string{"TERM": "dumb"})) {
		t.Error("auto must not colour TERM=dumb")
	}
}

func TestRenderNeutralisesControlCharacters(t *testing.T) {
	src := "let s = \"\x1b[2J\" + 1\n"
	f := source.NewFile("f.mr", []byte(src))
	d := &Diagnostic{Code: "E1", Message: "bad \x07 char", File: f, Span: spanOf(t, src, "1"), Label: "\x1b]0;x"}
	var b bytes.Buffer
	RenderText(&b, d, false)
	out := b.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Fatalf("control characters in output: %q", out)
	}
	want := "error[E1]: bad \uFFFD char\n --> f.mr:1:18\n  |\n1 | let s = \"\uFFFD[2J\" + 1\n  |                  ^ \uFFFD]0;x\n"
	if out != want {
		t.Errorf("got:\n%q\nwant:\n%q", out, want)
	}
}

// TestRenderTextWideCharacters: carets are placed by display width, so
// they land under the text after wide characters, combining marks and
// emoji (columns in the location stay code points).
func TestRenderTextWideCharacters(t *testing.T) {
	cases := []struct {
		line, mark, under string
	}{
		{`let s = "日本語" + 1`, `1`, "                   ^"},
		{`let s = "日本語" + 1`, `"日本語"`, "        ^^^^^^^^"},
		{"let e = \"e\u0301\" + x", `x`, "              ^"},
		{`let e = "👍" + y`, `y`, "               ^"},
	}
	for _, tc := range cases {
		src := tc.line + "\n"
		f := source.NewFile("w.mr", []byte(src))
		d := &Diagnostic{Code: "E3016", Message: "m", File: f, Span: spanOf(t, src, tc.mark)}
		var b bytes.Buffer
		RenderText(&b, d, false)
		lines := strings.Split(b.String(), "\n")
		if got := strings.TrimPrefix(lines[4], "  | "); got != tc.under {
			t.Errorf("%s: underline\n%q\nwant\n%q\n%s", tc.line, got, tc.under, b.String())
		}
	}
}

func TestSummary(t *testing.T) {
	e := &Diagnostic{Severity: Error}
	w := &Diagnostic{Severity: Warning}
	for _, tc := range []struct {
		l    List
		want string
	}{
		{nil, ""},
		{List{e}, "1 error"},
		{List{e, e}, "2 errors"},
		{List{w}, "1 warning"},
		{List{e, w, w, e, e}, "3 errors, 2 warnings"},
		{List{e, w}, "1 error, 1 warning"},
	} {
		if got := tc.l.Summary(); got != tc.want {
			t.Errorf("Summary = %q, want %q", got, tc.want)
		}
	}
}
