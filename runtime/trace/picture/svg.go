package picture

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Layout of the SVG, in pixels.
const (
	colW    = 124 // lifeline pitch
	rowH    = 26  // row pitch
	marginL = 64  // room for fold brackets
	marginR = 40
	headW   = colW - 14
	headH   = 22
	charW   = 6.6 // average width of a 12px sans-serif character
	topY    = 26  // baseline of the first header line
)

// style is the picture's only CSS; the SVG uses no external resources.
const style = `
text{font-family:sans-serif;font-size:12px;fill:#222}
.title{font-size:15px;font-weight:bold}
.summary{font-size:13px}
.head rect{fill:#eef2f7;stroke:#556;stroke-width:1}
.head.root rect,.head.port rect{fill:#f4f4f4;stroke-dasharray:4 2}
.head text{text-anchor:middle;font-weight:bold}
.life{stroke:#99a;stroke-width:1.2;stroke-dasharray:6 3}
.trapping{stroke:#7b3fa0;stroke-width:4;opacity:.35}
.row line,.row path{fill:none;stroke-width:1.4}
.row text{text-anchor:middle}
.spawn line{stroke:#2b6cb0}
.link line{stroke:#2f855a;stroke-width:2}
.unlink line{stroke:#2f855a;stroke-dasharray:3 3}
.monitor line,.monitor path{stroke:#555;stroke-dasharray:1 3}
.exit line,.exit path{stroke:#b7791f}
.down line,.down path{stroke:#555;stroke-dasharray:7 3}
.msg line,.msg path{stroke:#3182ce}
.trapped line,.trapped path{stroke:#7b3fa0;stroke-width:2}
.trapped text{fill:#7b3fa0;font-weight:bold}
.ignored line{stroke:#999}
.ignored text{fill:#777}
.lost line,.lost path,.unreceived line,.unreceived path{stroke:#c53030;stroke-dasharray:5 4}
.lost text,.unreceived text{fill:#c53030}
.row.fault line,.row.fault path{stroke:#d00}
.row.fault text,.lifeline.fault .head text{fill:#d00;font-weight:bold}
.lifeline.fault .head rect{stroke:#d00}
.row.abnormal text,.lifeline.abnormal .head text{fill:#b7791f}
.note rect,.trap rect{fill:#fffbe6;stroke:#b7a24a}
.trap rect{fill:#f3e8fa;stroke:#7b3fa0}
.end line{stroke-width:2.4}
.end.normal line{stroke:#444}
.end.abnormal line{stroke:#b7791f}
.end.fault line{stroke:#d00}
.end text{text-anchor:start}
.global rect{fill:#fde8e8;stroke:#d00}
.fold rect{fill:#f0f4ff;stroke:none}
.fold path{fill:none;stroke:#3a4a8a;stroke-width:1.5}
.fold text{fill:#3a4a8a;font-weight:bold;text-anchor:end}
.legend text{font-size:11px}
`

// markers are the arrow heads, one colour each.
var markers = []struct{ id, color string }{
	{"a-spawn", "#2b6cb0"}, {"a-link", "#2f855a"}, {"a-monitor", "#555"}, {"a-exit", "#b7791f"},
	{"a-down", "#555"}, {"a-msg", "#3182ce"}, {"a-trapped", "#7b3fa0"}, {"a-fault", "#d00"},
	{"a-lost", "#c53030"}, {"a-ignored", "#999"},
}

// marker picks the arrow head of a row.
func marker(r *row) string {
	for _, c := range []string{clsFault, clsLost, clsUnreceived, clsTrapped, clsIgnored} {
		if r.has(c) {
			if c == clsUnreceived {
				c = clsLost
			}
			return "a-" + c
		}
	}
	switch r.classes[0] {
	case clsUnlink:
		return "a-link"
	case clsSpawn, clsLink, clsMonitor, clsExit, clsDown, clsMsg:
		return "a-" + r.classes[0]
	}
	return "a-msg"
}

// svgWriter accumulates output and remembers the first write error.
type svgWriter struct {
	w   *bufio.Writer
	err error
}

func (s *svgWriter) f(format string, args ...any) {
	if s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

func (d *diagram) x(col int) int { return marginL + col*colW + colW/2 }

// rowY is the y of drawn row i.
func (d *diagram) rowY(i int) int { return d.firstY() + i*rowH }

// firstY is the y of the first row: below the header and the heads of
// the lifelines that start at the top.
func (d *diagram) firstY() int {
	y := topY + 22 + 14 // summary line, gap
	if d.opt.Title != "" {
		y += 22
	}
	return y + headH + rowH
}

// svg writes the picture.
func (d *diagram) svg(out io.Writer) error {
	s := &svgWriter{w: bufio.NewWriter(out)}
	var rows []drawnRow
	for _, it := range d.items {
		for j := range it.rows {
			rows = append(rows, drawnRow{r: &it.rows[j]})
		}
	}
	width := d.svgWidth()
	bottom := d.rowY(len(rows)) // where lifelines still alive stop
	height := bottom + 60
	d.svgHeader(s, width, height)
	d.drawFolds(s, width) // first, so everything else is drawn over them
	for c, l := range d.lines {
		d.drawLifeline(s, c, l, bottom)
	}
	for i, dr := range rows {
		d.drawRow(s, dr.r, d.rowY(i), width)
	}
	drawLegend(s, height-22)
	s.f("</svg>\n")
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// svgWidth is the picture's width: the lifelines', or more for a long
// summary line or the legend.
func (d *diagram) svgWidth() int {
	width := marginL + max(len(d.lines), 1)*colW + marginR
	if w := int(float64(utf8.RuneCountInString(d.summary()))*7.2) + 2*marginL; w > width {
		width = w
	}
	return max(width, legendWidth()+24)
}

// svgHeader writes the document's start: the svg element, title, style,
// arrow markers, background, the optional title line and the summary.
func (d *diagram) svgHeader(s *svgWriter, width, height int) {
	s.f(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", width, height, width, height)
	title := d.opt.Title
	if title == "" {
		title = "Morrow lifecycle trace"
	}
	s.f("<title>%s</title>\n", esc(title))
	s.f("<style>%s</style>\n<defs>\n", style)
	for _, m := range markers {
		s.f(`<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n", m.id, m.color)
	}
	s.f("</defs>\n")
	s.f(`<rect width="%d" height="%d" fill="#fff"/>`+"\n", width, height)
	y := topY
	if d.opt.Title != "" {
		s.f(`<text class="title" x="12" y="%d">%s</text>`+"\n", y, esc(d.opt.Title))
		y += 22
	}
	s.f(`<text class="summary" x="12" y="%d">%s</text>`+"\n", y, esc(d.summary()))
}

// drawFolds draws the background and count of each folded group of rows.
func (d *diagram) drawFolds(s *svgWriter, width int) {
	i := 0
	for _, it := range d.items {
		if it.count > 1 {
			y0, y1 := d.rowY(i)-rowH/2+2, d.rowY(i+len(it.rows)-1)+rowH/2-2
			s.f(`<g class="fold"><rect x="%d" y="%d" width="%d" height="%d"/>`, marginL-6, y0, width-marginL-10, y1-y0)
			s.f(`<path d="M%d,%d h-8 V%d h8"/>`, marginL-4, y0, y1)
			s.f(`<text x="%d" y="%d">×%d</text><title>%d rows repeated %d times</title></g>`+"\n", marginL-16, (y0+y1)/2+4, it.count, len(it.rows), it.count)
		}
		i += len(it.rows)
	}
}

// drawLifeline draws lifeline c: the head, the line, trapping spans and
// the end (bottom is where lines still alive stop).
func (d *diagram) drawLifeline(s *svgWriter, c int, l *lifeline, bottom int) {
	x := d.x(c)
	y0 := d.firstY() - rowH - headH/2 - 4 // the head of a line alive from the top
	if !l.top {
		y0 = d.rowY(l.start) - headH/2
	}
	lineTop := y0 + headH
	yEnd := bottom
	if l.end >= 0 {
		yEnd = d.rowY(l.end)
	}
	cls := "lifeline"
	if l.endClass != "" {
		cls += " " + l.endClass
	}
	s.f(`<g class="%s" id="p%d">`, cls, l.num)
	if yEnd > lineTop {
		s.f(`<line class="life" x1="%d" y1="%d" x2="%d" y2="%d"/>`, x, lineTop, x, yEnd)
	}
	for _, sp := range l.trap {
		ya, yb := d.rowY(sp.from), yEnd
		if sp.to >= 0 {
			yb = d.rowY(sp.to)
		}
		if yb > ya {
			s.f(`<line class="trapping" x1="%d" y1="%d" x2="%d" y2="%d"><title>%d traps exits</title></line>`, x, ya, x, yb, l.num)
		}
	}
	s.f(`<g class="%s"><rect x="%d" y="%d" width="%d" height="%d" rx="4"/><text x="%d" y="%d">%s</text><title>%s</title></g>`,
		l.headClass(), x-headW/2, y0, headW, headH, x, y0+15, esc(fit(l.label(), headW)), esc(l.label()))
	s.f("</g>\n")
}

// headClass is the CSS class of a lifeline's head.
func (l *lifeline) headClass() string {
	switch {
	case l.isRoot:
		return "head root"
	case l.isPort:
		return "head port"
	}
	return "head"
}

// drawLegend draws the arrow styles' legend at y.
func drawLegend(s *svgWriter, ly int) {
	s.f(`<g class="legend">`)
	lx := 12
	for _, e := range legend {
		s.f(`<g class="row %s"><line x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#%s)"/><text x="%d" y="%d" style="text-anchor:start">%s</text></g>`,
			e.cls, lx, ly-4, lx+26, ly-4, marker(&row{classes: []string{e.cls}}), lx+32, ly, e.text)
		lx += legendItemWidth(e.text)
	}
	s.f("</g>\n")
}

type drawnRow struct{ r *row }

// legend explains the arrow styles at the bottom of the picture.
var legend = []struct{ cls, text string }{
	{"spawn", "spawn"}, {"link", "link"}, {"monitor", "monitor"}, {"msg", "message"},
	{"exit", "exit signal"}, {"trapped", "trapped exit"}, {"down", "Down"}, {"fault", "fault"},
	{"unreceived", "lost or never received"},
}

func legendItemWidth(text string) int { return 44 + int(float64(len(text))*charW) }

func legendWidth() int {
	w := 12
	for _, e := range legend {
		w += legendItemWidth(e.text)
	}
	return w
}

// drawRow draws one row at y.
func (d *diagram) drawRow(s *svgWriter, r *row, y, width int) {
	cls := "row " + strings.Join(r.classes, " ")
	switch r.kind {
	case rowEnd:
		cls = "row end " + strings.Join(r.classes, " ")
	case rowGlobal:
		cls = "row global " + strings.Join(r.classes, " ")
	}
	s.f(`<g class="%s">`, cls)
	s.f("<title>%s</title>", esc(tooltip(r)))
	switch r.kind {
	case rowArrow, rowSpawn:
		d.drawArrow(s, r, y)
	case rowNote:
		x := d.x(r.from)
		text := fit(r.label, colW*3/2)
		w := int(float64(utf8.RuneCountInString(text))*charW) + 12
		s.f(`<rect x="%d" y="%d" width="%d" height="18" rx="3"/><text x="%d" y="%d">%s</text>`, x-w/2, y-9, w, x, y+4, esc(text))
	case rowEnd:
		x := d.x(r.from)
		s.f(`<line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/>`, x-6, y-6, x+6, y+6, x-6, y+6, x+6, y-6)
		s.f(`<text x="%d" y="%d">%s</text>`, x+10, y+4, esc(fit(r.label, colW*2)))
	case rowGlobal:
		s.f(`<rect x="%d" y="%d" width="%d" height="20" rx="3"/><text x="%d" y="%d">%s</text>`, marginL, y-10, width-marginL-marginR/2, width/2, y+4, esc(r.label))
	}
	s.f("</g>\n")
}

// drawArrow draws an arrow or spawn row at y and its label.
func (d *diagram) drawArrow(s *svgWriter, r *row, y int) {
	x1, x2 := d.x(r.from), d.x(r.to)
	if r.from == r.to {
		// A self-arrow: a loop on the right of the lifeline.
		s.f(`<path d="M%d,%d h28 v10 h-26" marker-end="url(#%s)"/>`, x1, y-5, marker(r))
		s.f(`<text x="%d" y="%d" style="text-anchor:start">%s</text>`, x1+32, y+4, esc(fit(r.label, colW-36)))
		return
	}
	if r.kind == rowSpawn {
		// The arrow stops at the child's head.
		if x2 > x1 {
			x2 -= headW / 2
		} else {
			x2 += headW / 2
		}
	}
	extra := ""
	if r.has(clsLink) || r.has(clsUnlink) {
		extra = fmt.Sprintf(` marker-start="url(#%s)"`, marker(r))
	}
	s.f(`<line x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#%s)"%s/>`, x1, y, x2, y, marker(r), extra)
	drawArrowLabel(s, r.label, x1, x2, y)
}

// drawArrowLabel writes the label of an arrow from x1 to x2 at y.
func drawArrowLabel(s *svgWriter, label string, x1, x2, y int) {
	span := x2 - x1
	if span < 0 {
		span = -span
	}
	switch {
	case label == "":
	case span > 3*colW && x2 < x1:
		// A long arrow: the label sits by the lifeline it reaches.
		s.f(`<text x="%d" y="%d" style="text-anchor:start">%s</text>`, x2+10, y-4, esc(fit(label, 3*colW)))
	case span > 3*colW:
		s.f(`<text x="%d" y="%d" style="text-anchor:end">%s</text>`, x2-10, y-4, esc(fit(label, 3*colW)))
	default:
		// One event per row: a label may run past its arrow.
		s.f(`<text x="%d" y="%d">%s</text>`, (x1+x2)/2, y-4, esc(fit(label, max(span-8, 2*colW))))
	}
}

// tooltip is a row's trace lines: the first line's text and the line
// numbers (shortened when a folded row stands for many).
func tooltip(r *row) string {
	var b strings.Builder
	b.WriteString(strings.Join(r.text, "; "))
	if r.received {
		b.WriteString(" (received)")
	}
	b.WriteString(" — trace line")
	if len(r.lines) > 1 {
		b.WriteString("s")
	}
	for i, n := range r.lines {
		if i == 6 && len(r.lines) > 8 {
			fmt.Fprintf(&b, " … and %d more", len(r.lines)-6)
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", n)
	}
	return b.String()
}

// fit cuts s to what fits in px pixels, ending it with "…".
func fit(s string, px int) string {
	n := int(float64(px) / charW)
	if n < 4 {
		n = 4
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// xmlEscapes are the characters esc writes as entities or spaces.
var xmlEscapes = map[rune]string{
	'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&apos;",
	'\t': " ", '\n': " ", '\r': " ",
}

// esc escapes text for XML content and attributes. Characters XML 1.0
// does not allow (most control characters, invalid UTF-8) become U+FFFD.
func esc(s string) string { return escapeRunes(s, xmlEscapes, xmlAllowed) }

// xmlAllowed reports whether XML 1.0 allows r in a document (tab and
// line breaks aside, which esc turns into spaces).
func xmlAllowed(r rune) bool {
	return r >= 0x20 && r != 0xFFFE && r != 0xFFFF && !(r >= 0xD800 && r < 0xE000) && r != utf8.RuneError
}

// escapeRunes writes each rune of s as its entry in escapes, as itself
// when allowed says so, or else as U+FFFD.
func escapeRunes(s string, escapes map[rune]string, allowed func(rune) bool) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := escapes[r]; ok {
			b.WriteString(e)
		} else if allowed(r) {
			b.WriteRune(r)
		} else {
			b.WriteRune('\uFFFD')
		}
	}
	return b.String()
}
