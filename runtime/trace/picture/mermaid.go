package picture

import (
	"bufio"
	"fmt"
	"io"
)

// mermaid writes the rows as a Mermaid sequenceDiagram. It uses only
// long-standing syntax (participant, the ->> -->> -) --) -x --x arrows,
// Note, loop, rect), so it renders in Markdown viewers with an older
// Mermaid: lifelines therefore span the whole diagram, and a process's
// spawn and end are notes.
func (d *diagram) mermaid(out io.Writer) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("sequenceDiagram\n")
	for _, l := range d.lines {
		p("    participant P%d as %s\n", l.num, mmText(l.label()))
	}
	sum := d.summary()
	if d.opt.Title != "" {
		sum = d.opt.Title + ": " + sum
	}
	if len(d.lines) > 0 {
		p("    Note over %s: %s\n", d.span(), mmText(sum))
	}
	for _, it := range d.items {
		indent := "    "
		if it.count > 1 {
			p("    loop ×%d\n", it.count)
			indent = "        "
		}
		for j := range it.rows {
			d.mermaidRow(p, indent, &it.rows[j])
		}
		if it.count > 1 {
			p("    end\n")
		}
	}
	return w.Flush()
}

// span is the participant range of a note over every lifeline.
func (d *diagram) span() string {
	first, last := d.lines[0].num, d.lines[len(d.lines)-1].num
	if first == last {
		return fmt.Sprintf("P%d", first)
	}
	return fmt.Sprintf("P%d,P%d", first, last)
}

// mermaidRow writes one row as a Mermaid message or note, inside a
// colored rect for a fault or trapped exit.
func (d *diagram) mermaidRow(p func(string, ...any), indent string, r *row) {
	if color := mmColor(r); color != "" {
		p("%srect %s\n", indent, color)
		defer p("%send\n", indent)
		indent += "    "
	}
	if r.kind == rowGlobal {
		if len(d.lines) == 0 {
			// No participant to put a note on.
			p("%s%%%% %s\n", indent, mmText(r.label))
		} else {
			p("%sNote over %s: %s\n", indent, d.span(), mmText(r.label))
		}
		return
	}
	from := d.lines[r.from].num
	switch r.kind {
	case rowArrow, rowSpawn:
		to := d.lines[r.to].num
		label := r.label
		if r.has(clsMsg) && label == "" {
			label = "message"
		}
		p("%sP%d%sP%d: %s\n", indent, from, mmArrow(r), to, mmText(label))
	case rowNote:
		p("%sNote over P%d: %s\n", indent, from, mmText(r.label))
	case rowEnd:
		p("%sNote over P%d: end: %s\n", indent, from, mmText(r.label))
	}
}

// mmColor is the background of a fault or trapped exit row ("" for
// others).
func mmColor(r *row) string {
	switch {
	case r.has(clsFault):
		return "rgb(255, 221, 221)"
	case r.has(clsTrapped):
		return "rgb(240, 228, 250)"
	}
	return ""
}

// mmArrow is the Mermaid arrow for an arrow or spawn row.
func mmArrow(r *row) string {
	switch {
	case r.has(clsLost), r.has(clsUnreceived):
		return "-x"
	case r.has(clsExit):
		return "-)"
	case r.has(clsDown):
		return "--)"
	case r.has(clsMonitor), r.has(clsUnlink):
		return "-->>"
	}
	return "->>"
}

// mmEscapes are the characters Mermaid gives a meaning in message and
// note text, with their entity codes.
var mmEscapes = map[rune]string{
	'#': "#35;", ';': "#59;", '<': "#lt;", '>': "#gt;", '"': "#quot;",
	'%': "#37;", '{': "#123;", '}': "#125;",
}

// mmText makes s safe as Mermaid message or note text: the characters
// Mermaid gives a meaning there become entity codes, control characters
// become U+FFFD.
func mmText(s string) string {
	return escapeRunes(s, mmEscapes, mmAllowed)
}

// mmAllowed reports whether r may stand as itself in Mermaid text (no
// control character).
func mmAllowed(r rune) bool { return r >= 0x20 && r != 0x7f }
