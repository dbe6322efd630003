package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/source"
)

// FuzzRender renders arbitrary spans over arbitrary text in every format:
// nothing may panic, colour must not change the text, the short form is
// one line, and the JSON is valid with positions inside the file.
func FuzzRender(f *testing.F) {
	f.Add("fn main():\n    println(x)\n", 20, 21, "label", "note")
	f.Add("é\tü\r\n🌿\n", 1, 9, "", "")
	f.Add("", 0, 0, "l", "")
	f.Add("x\x1b[31mred\x07\n", 0, 5, "\x1b]0;title\x07", "\x9b2J")
	f.Add("a\nb\nc\nd\ne\nf\ng\nh\n", 0, 15, "long", "n\nm")
	f.Fuzz(func(t *testing.T, src string, start, end int, label, note string) {
		file := source.NewFile("f.mr", []byte(src))
		d := &Diagnostic{Code: "E0001", Message: "m\nn" + label, File: file, Span: source.Span{Start: start, End: end},
			Label: label, Notes: []string{note}, Hint: note,
			Related: []Related{{Span: source.Span{Start: end, End: start}, Message: label}}}
		l := List{d, {Code: "E0002", Message: "no file"}}
		var plain, colored, short, js bytes.Buffer
		if err := Render(&plain, l, RenderOptions{Format: FormatText}); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(plain.String(), "\x1b\x07") {
			t.Fatalf("control characters reach the terminal: %q", plain.String())
		}
		Render(&colored, l, RenderOptions{Format: FormatText, Color: true})
		if stripANSI(colored.String()) != plain.String() {
			t.Fatalf("colour changes the text")
		}
		Render(&short, l, RenderOptions{Format: FormatShort})
		if n := strings.Count(short.String(), "\n"); n != 2 {
			t.Fatalf("short format: %d lines for 2 diagnostics: %q", n, short.String())
		}
		if err := Render(&js, l, RenderOptions{Format: FormatJSON}); err != nil {
			t.Fatal(err)
		}
		var doc JSONDocument
		if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
			t.Fatalf("invalid JSON: %v", err)
		}
		sp := doc.Diagnostics[0].Span
		if sp.Start.Offset < 0 || sp.End.Offset > len(src) || sp.End.Offset < sp.Start.Offset || sp.Start.Line < 1 || sp.Start.Column < 1 {
			t.Fatalf("span out of the file: %+v (len %d)", sp, len(src))
		}
	})
}
