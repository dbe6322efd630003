package diag

import (
	"bytes"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/source"
)

// TestLongLinesAreCut: a snippet shows a bounded window of a long line
// around its underline, so a diagnostic about a file made of one 5 MB
// line (say, of NUL bytes) prints a few kilobytes, not 15 MB.
func TestLongLinesAreCut(t *testing.T) {
	nul := source.NewFile("zero.mr", make([]byte, 5<<20))
	var b bytes.Buffer
	d := &Diagnostic{Severity: Error, Code: "E0019", Message: "source file is larger than the 1 MiB limit", File: nul}
	if err := RenderText(&b, d, false); err != nil {
		t.Fatal(err)
	}
	if b.Len() > 16<<10 {
		t.Fatalf("a diagnostic on a 5 MB line rendered %d bytes", b.Len())
	}
	// A span in the middle of a long line keeps its text and underline.
	line := strings.Repeat("a", 10000) + "BAD" + strings.Repeat("b", 10000)
	f := source.NewFile("long.mr", []byte(line+"\n"))
	b.Reset()
	d = &Diagnostic{Severity: Error, Code: "E1001", Message: "bad", File: f, Span: source.Span{Start: 10000, End: 10003}}
	if err := RenderText(&b, d, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	var text, under string
	for i, l := range lines {
		if strings.HasPrefix(l, "1 | ") {
			text, under = l[len("1 | "):], lines[i+1][len("  | "):]
		}
	}
	col := strings.Index(under, "^^^")
	if text == "" || col < 0 || text[col:col+3] != "BAD" || !strings.HasPrefix(text, "...") || !strings.HasSuffix(text, "...") || len(text) > maxSnippetCells+6 {
		t.Fatalf("cut line:\n%s", out)
	}
	// Short lines are untouched.
	if got, from, to := window("short", 1, 2); got != "short" || from != 1 || to != 2 {
		t.Errorf("window of a short line: %q %d %d", got, from, to)
	}
}
