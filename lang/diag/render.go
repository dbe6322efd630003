package diag

// Rendering: one Diagnostic value, three presentations.
//
//   - text: a headline, the location, the source line(s) with a caret
//     underline and the label, related locations with a dash underline,
//     then "= note:" and "= hint:" lines. Colour is optional and decided by
//     the caller (see ColorMode); without colour the output is plain ASCII
//     apart from the user's own source text.
//   - short: one line per diagnostic, path:line:col: error[CODE]: message.
//   - json: one versioned document for a whole list (see jsonDoc and
//     docs/diagnostics.md, which a test keeps in step with these types).
//
// Columns are 1-based and count Unicode code points. In the text snippet
// the carets are placed by display width, as a terminal draws the line: a
// tab is shown as tabWidth spaces, East Asian wide characters and most
// emoji take two cells, combining marks none (grapheme clusters and UAX #11
// widths from github.com/rivo/uniseg), so the underline lands under the
// text it marks.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/rivo/uniseg"

	"github.com/morrow-lang/morrow/lang/source"
)

// Format selects a diagnostic rendering.
type Format int

// The renderings a user can ask for with --format.
const (
	FormatText Format = iota
	FormatShort
	FormatJSON
)

var formatNames = [...]string{FormatText: "text", FormatShort: "short", FormatJSON: "json"}

func (f Format) String() string { return enumName(formatNames[:], f, "Format") }

// ParseFormat maps a --format value ("text", "short", "json") to a Format.
func ParseFormat(s string) (Format, error) {
	return parseEnum[Format](formatNames[:], s, "format", "text, short or json")
}

// ColorMode is the user's --color choice.
type ColorMode int

// The --color values.
const (
	ColorAuto ColorMode = iota
	ColorAlways
	ColorNever
)

var colorModeNames = [...]string{ColorAuto: "auto", ColorAlways: "always", ColorNever: "never"}

func (m ColorMode) String() string { return enumName(colorModeNames[:], m, "ColorMode") }

// ParseColorMode maps a --color value ("auto", "always", "never") to a
// ColorMode.
func ParseColorMode(s string) (ColorMode, error) {
	return parseEnum[ColorMode](colorModeNames[:], s, "color mode", "auto, always or never")
}

// enumName is the flag spelling of v, an index into names, or
// "Type(v)" for a value outside the table.
func enumName[T ~int](names []string, v T, typ string) string {
	if v >= 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, int(v))
}

// parseEnum maps a flag value to its index in names; an unknown value
// is an error that lists the valid ones (want) and yields index 0.
func parseEnum[T ~int](names []string, s, what, want string) (T, error) {
	for i, n := range names {
		if s == n {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("invalid %s %q (want %s)", what, s, want)
}

// Enabled decides whether output written to w should be coloured. "always"
// and "never" are final. "auto" colours only when NO_COLOR is unset or
// empty (https://no-color.org), TERM is not "dumb", and w is a terminal.
// getenv is usually os.Getenv; tests pass their own.
func (m ColorMode) Enabled(w io.Writer, getenv func(string) string) bool {
	switch m {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice != 0
}

// RenderOptions configures Render.
type RenderOptions struct {
	Format Format
	Color  bool // text only: ANSI colour and bold
}

// Render writes every diagnostic of l in the chosen format. Text
// diagnostics are separated by a blank line; JSON is one document (also
// for an empty list).
func Render(w io.Writer, l List, opts RenderOptions) error {
	bw := bufio.NewWriter(w)
	switch opts.Format {
	case FormatJSON:
		if err := RenderJSON(bw, l); err != nil {
			return err
		}
	case FormatShort:
		for _, d := range l {
			writeShort(bw, d)
		}
	default:
		for i, d := range l {
			if i > 0 {
				bw.WriteByte('\n')
			}
			writeText(bw, d, opts.Color)
		}
	}
	return bw.Flush()
}

// RenderText writes one diagnostic in the text format.
func RenderText(w io.Writer, d *Diagnostic, useColor bool) error {
	bw := bufio.NewWriter(w)
	writeText(bw, d, useColor)
	return bw.Flush()
}

// RenderShort writes one diagnostic as a single line.
func RenderShort(w io.Writer, d *Diagnostic) error {
	bw := bufio.NewWriter(w)
	writeShort(bw, d)
	return bw.Flush()
}

// ---------------------------------------------------------------- short

func writeShort(w *bufio.Writer, d *Diagnostic) {
	if d.File != nil {
		p := d.File.Position(d.Span.Start)
		fmt.Fprintf(w, "%s:%d:%d: ", d.File.Name, p.Line, p.Column)
	}
	fmt.Fprintf(w, "%s[%s]: %s\n", d.Severity, d.Code, sanitize(oneLine(d.Message), false))
}

// oneLine keeps a message on one line for the short format.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

// ---------------------------------------------------------------- text

// tabWidth is how many spaces a tab occupies in a snippet.
const tabWidth = 4

// maxSnippetLines bounds the lines shown for a multi-line span; longer
// spans show their first and last lines around a "..." marker.
const maxSnippetLines = 6

// palette holds the colours of one rendering; with colour off every entry
// prints plain text.
type palette struct {
	severity, message, gutter, primary, secondary, label *color.Color
}

func newPalette(sev Severity, on bool) palette {
	sevColor := color.FgRed
	if sev == Warning {
		sevColor = color.FgYellow
	}
	p := palette{
		severity:  color.New(sevColor, color.Bold),
		message:   color.New(color.Bold),
		gutter:    color.New(color.FgBlue, color.Bold),
		primary:   color.New(sevColor, color.Bold),
		secondary: color.New(color.FgBlue, color.Bold),
		label:     color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.severity, p.message, p.gutter, p.primary, p.secondary, p.label} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

// snippetLine is one source line to print, with the columns (in display
// cells) to underline.
type snippetLine struct {
	line       int // 1-based; 0 marks an elision ("...")
	text       string
	from, to   int // underline cells [from, to); to > from
	label      string
	underlineC byte // '^' for the primary span, '-' for related spans
}

// writeText writes d in the text rendering: headline, snippets of the
// primary and related spans, then notes and hint.
func writeText(w *bufio.Writer, d *Diagnostic, useColor bool) {
	pal := newPalette(d.Severity, useColor)
	fmt.Fprintf(w, "%s%s\n", pal.severity.Sprintf("%s[%s]", d.Severity, d.Code), pal.message.Sprint(": "+sanitize(d.Message, true)))

	blocks, locs := textBlocks(d)
	width := gutterWidth(blocks)
	pad := strings.Repeat(" ", width)
	bar := pal.gutter.Sprint(pad + " |")
	for i, b := range blocks {
		arrow := "-->"
		if i > 0 {
			arrow = ":::"
		}
		fmt.Fprintf(w, "%s%s %s\n", pad, pal.gutter.Sprint(arrow), locs[i])
		fmt.Fprintln(w, bar)
		for _, sl := range b {
			writeSnippetLine(w, pal, sl, width, bar)
		}
	}
	if len(d.Notes) > 0 || d.Hint != "" {
		if len(blocks) > 0 {
			fmt.Fprintln(w, bar)
		}
		for _, n := range d.Notes {
			fmt.Fprintf(w, "%s %s %s\n", pad, pal.label.Sprint("= note:"), indentRest(sanitize(n, true), pad+"         "))
		}
		if d.Hint != "" {
			fmt.Fprintf(w, "%s %s %s\n", pad, pal.label.Sprint("= hint:"), indentRest(sanitize(d.Hint, true), pad+"         "))
		}
	}
}

// textBlocks returns the snippet of d's primary span and of each related
// span, with each one's location (none when d has no file).
func textBlocks(d *Diagnostic) (blocks [][]snippetLine, locs []string) {
	if d.File == nil {
		return nil, nil
	}
	loc := func(off int) string {
		p := d.File.Position(off)
		return fmt.Sprintf("%s:%d:%d", d.File.Name, p.Line, p.Column)
	}
	blocks = append(blocks, snippet(d.File, d.Span, d.Label, '^'))
	locs = append(locs, loc(d.Span.Start))
	for _, r := range d.Related {
		blocks = append(blocks, snippet(d.File, r.Span, r.Message, '-'))
		locs = append(locs, loc(r.Span.Start))
	}
	return blocks, locs
}

// gutterWidth is the width of the widest line number in blocks (at least 1).
func gutterWidth(blocks [][]snippetLine) int {
	width := 1
	for _, b := range blocks {
		for _, sl := range b {
			width = max(width, len(fmt.Sprint(sl.line)))
		}
	}
	return width
}

// writeSnippetLine writes one snippet line ("..." for an elision) with
// its line number and, when it has one, its underline and label.
func writeSnippetLine(w *bufio.Writer, pal palette, sl snippetLine, width int, bar string) {
	if sl.line == 0 {
		fmt.Fprintln(w, pal.gutter.Sprint("..."))
		return
	}
	num := fmt.Sprintf("%*d |", width, sl.line)
	if sl.text == "" {
		fmt.Fprintln(w, pal.gutter.Sprint(num))
	} else {
		fmt.Fprintf(w, "%s %s\n", pal.gutter.Sprint(num), sl.text)
	}
	if sl.to <= sl.from {
		return
	}
	mark := pal.primary
	if sl.underlineC == '-' {
		mark = pal.secondary
	}
	under := strings.Repeat(" ", sl.from) + mark.Sprint(strings.Repeat(string(sl.underlineC), sl.to-sl.from))
	if sl.label != "" {
		under += " " + mark.Sprint(sanitize(sl.label, false))
	}
	fmt.Fprintf(w, "%s %s\n", bar, under)
}

// indentRest indents the continuation lines of a multi-line note.
func indentRest(s, indent string) string {
	return strings.ReplaceAll(s, "\n", "\n"+indent)
}

// snippet lays out the lines covered by span with their underlines. The
// label goes on the last underlined line.
func snippet(f *source.File, span source.Span, label string, mark byte) []snippetLine {
	start, end := clampSpan(f, span)
	first := f.Line(start)
	last := first
	if end > start {
		last = f.Line(end - 1)
	}
	var lines []snippetLine
	for ln := first; ln <= last; ln++ {
		text := f.LineText(ln)
		ls := f.LineStart(ln)
		lineEnd := ls + len(text)
		from, to := 0, 0
		if ln == first {
			from = cells(text[:min(start-ls, len(text))])
		} else {
			from = cells(leadingSpace(text))
		}
		if ln == last {
			e := min(end, lineEnd) - ls
			if e < 0 {
				e = 0
			}
			to = cells(text[:e])
		} else {
			to = cells(strings.TrimRight(text, " \t"))
		}
		if to <= from {
			to = from + 1 // an empty span or an empty line still gets one mark
		}
		shown, from, to := window(expandTabs(text), from, to)
		lines = append(lines, snippetLine{line: ln, text: shown, from: from, to: to, underlineC: mark})
	}
	if len(lines) > maxSnippetLines {
		head := lines[:maxSnippetLines-2]
		tail := lines[len(lines)-1:]
		lines = append(append(append([]snippetLine{}, head...), snippetLine{}), tail...)
	}
	lines[len(lines)-1].label = label
	return lines
}

// maxSnippetCells bounds the cells of one snippet line; snippetContext
// is how many cells before the underline a cut line keeps.
const (
	maxSnippetCells = 4096
	snippetContext  = 512
)

// window cuts a long display line (one cell per code point) to at most
// maxSnippetCells cells around the underline [from, to), marking the cut
// ends with "...", and moves the underline with it. A diagnostic about a
// file with a megabyte-long line (or one that is all NUL bytes) therefore
// echoes a bounded amount of it.
func window(text string, from, to int) (string, int, int) {
	n := utf8.RuneCountInString(text)
	if n <= maxSnippetCells {
		return text, from, to
	}
	start := max(0, min(from-snippetContext, n-maxSnippetCells))
	end := min(n, start+maxSnippetCells)
	var b strings.Builder
	if start > 0 {
		b.WriteString("...")
	}
	i := 0
	for _, r := range text {
		if i >= end {
			break
		}
		if i >= start {
			b.WriteRune(r)
		}
		i++
	}
	if end < n {
		b.WriteString("...")
	}
	shift := start
	if start > 0 {
		shift -= 3
	}
	from, to = from-shift, min(to, end)-shift
	if to <= from {
		to = from + 1
	}
	return b.String(), from, to
}

// clampSpan keeps a span inside the file, backs a start that falls in the
// middle of a UTF-8 sequence up to the rune start, and makes End >= Start.
func clampSpan(f *source.File, s source.Span) (int, int) {
	n := len(f.Src)
	start, end := s.Start, s.End
	if start < 0 {
		start = 0
	}
	if start > n {
		start = n
	}
	for start > 0 && start < n && !utf8.RuneStart(f.Src[start]) {
		start--
	}
	if end < start {
		end = start
	}
	if end > n {
		end = n
	}
	return start, end
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// cells is the display width of s as a snippet shows it (expandTabs): a
// tab is tabWidth cells, a control character one (it is shown as U+FFFD),
// an invalid UTF-8 byte one, and other text as wide as a terminal draws
// it (two cells for wide characters, none for combining marks).
func cells(s string) int {
	return uniseg.StringWidth(expandTabs(s))
}

// expandTabs prepares a source line for display: tabs become tabWidth
// spaces and other control characters become U+FFFD, so a hostile file
// cannot send escape sequences to the terminal.
func expandTabs(s string) string {
	s = sanitize(s, false)
	if !strings.Contains(s, "\t") {
		return s
	}
	return strings.ReplaceAll(s, "\t", strings.Repeat(" ", tabWidth))
}

// sanitize replaces C0 and C1 control characters (other than tab, and
// newline when keepNewline is set) with U+FFFD.
func sanitize(s string, keepNewline bool) string {
	clean := true
	for _, r := range s {
		if isControl(r, keepNewline) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r, keepNewline) {
			return utf8.RuneError
		}
		return r
	}, s)
}

func isControl(r rune, keepNewline bool) bool {
	switch {
	case r == '\t', keepNewline && r == '\n':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	}
	return false
}

// ---------------------------------------------------------------- json

// JSONVersion is the version number of the JSON document. It changes only
// when a field is removed or changes meaning; adding fields keeps it.
const JSONVersion = 1

// JSONDocument is the top-level JSON rendering of a diagnostic list.
type JSONDocument struct {
	Version     int              `json:"version"`
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
}

// JSONDiagnostic is one diagnostic in the JSON rendering. Every field is
// always present: empty strings and empty arrays stand for "none".
type JSONDiagnostic struct {
	Severity string        `json:"severity"`
	Code     string        `json:"code"`
	Message  string        `json:"message"`
	File     string        `json:"file"`
	Span     JSONSpan      `json:"span"`
	Label    string        `json:"label"`
	Related  []JSONRelated `json:"related"`
	Notes    []string      `json:"notes"`
	Hint     string        `json:"hint"`
}

// JSONRelated is a secondary location of a diagnostic.
type JSONRelated struct {
	File    string   `json:"file"`
	Span    JSONSpan `json:"span"`
	Message string   `json:"message"`
}

// JSONSpan is a resolved half-open source range.
type JSONSpan struct {
	Start JSONPosition `json:"start"`
	End   JSONPosition `json:"end"`
}

// JSONPosition is a byte offset with its 1-based line and 1-based column
// in Unicode code points.
type JSONPosition struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

// ToJSON converts a list to the JSON document value.
func ToJSON(l List) JSONDocument {
	doc := JSONDocument{Version: JSONVersion, Diagnostics: make([]JSONDiagnostic, 0, len(l))}
	for _, d := range l {
		jd := JSONDiagnostic{
			Severity: d.Severity.String(),
			Code:     string(d.Code),
			Message:  d.Message,
			Label:    d.Label,
			Related:  []JSONRelated{},
			Notes:    append([]string{}, d.Notes...),
			Hint:     d.Hint,
		}
		if d.File != nil {
			jd.File = d.File.Name
			jd.Span = jsonSpan(d.File, d.Span)
			for _, r := range d.Related {
				jd.Related = append(jd.Related, JSONRelated{File: d.File.Name, Span: jsonSpan(d.File, r.Span), Message: r.Message})
			}
		} else {
			jd.Span = JSONSpan{Start: JSONPosition{Line: 1, Column: 1}, End: JSONPosition{Line: 1, Column: 1}}
			for _, r := range d.Related {
				jd.Related = append(jd.Related, JSONRelated{Span: jd.Span, Message: r.Message})
			}
		}
		doc.Diagnostics = append(doc.Diagnostics, jd)
	}
	return doc
}

func jsonSpan(f *source.File, s source.Span) JSONSpan {
	start, end := clampSpan(f, s)
	for end < len(f.Src) && end > start && !utf8.RuneStart(f.Src[end]) {
		end++
	}
	ps, pe := f.Position(start), f.Position(end)
	return JSONSpan{
		Start: JSONPosition{Offset: ps.Offset, Line: ps.Line, Column: ps.Column},
		End:   JSONPosition{Offset: pe.Offset, Line: pe.Line, Column: pe.Column},
	}
}

// RenderJSON writes the list as one JSON document followed by a newline.
// Characters such as <, > and & are written as themselves, not as \u
// escapes (the document is not embedded in HTML).
func RenderJSON(w io.Writer, l List) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ToJSON(l)); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
