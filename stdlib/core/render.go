package core

import (
	"math"
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Display renders a value the way print writes it and string
// interpolation inserts it: Int, Float, Bool and String as their raw text,
// everything else in its Show form.
func Display(v value.Value) string {
	switch v.K {
	case value.KInt:
		return strconv.FormatInt(v.N, 10)
	case value.KFloat:
		return FormatFloat(v.AsFloat())
	case value.KBool:
		return strconv.FormatBool(v.AsBool())
	case value.KString:
		return v.AsString()
	}
	return Show(v)
}

// Show renders the `show` text of a value (STDLIB.md "How values render"):
// strings quoted as String.quote does, lists `[1, 2]`, tuples `(1, "one")`
// and `(7,)`, records `Name(field: v)`, sum variants positionally
// `Circle(1)`, payload-free variants bare `Point`, newtypes `UserId(1)`,
// unit `()`.
func Show(v value.Value) string {
	var b strings.Builder
	writeShow(&b, v)
	return b.String()
}

func writeShow(b *strings.Builder, v value.Value) {
	switch v.K {
	case value.KUnit:
		b.WriteString("()")
	case value.KInt:
		b.WriteString(strconv.FormatInt(v.N, 10))
	case value.KFloat:
		b.WriteString(FormatFloat(v.AsFloat()))
	case value.KBool:
		b.WriteString(strconv.FormatBool(v.AsBool()))
	case value.KString:
		writeQuoted(b, v.AsString())
	case value.KTuple:
		t, _ := v.R.(*value.Tuple)
		if t == nil || len(t.Elems) == 0 {
			b.WriteString("()")
			return
		}
		b.WriteByte('(')
		for i, e := range t.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeShow(b, e)
		}
		if len(t.Elems) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case value.KList:
		b.WriteByte('[')
		if l, _ := v.R.(*value.List); l != nil {
			for i, e := range l.Items {
				if i > 0 {
					b.WriteString(", ")
				}
				writeShow(b, e)
			}
		}
		b.WriteByte(']')
	case value.KData:
		d, _ := v.R.(*value.Data)
		if d == nil {
			b.WriteString("<data>")
			return
		}
		writeData(b, d)
	case value.KRange:
		r, _ := v.R.(*value.Range)
		if r == nil {
			b.WriteString("<range>")
			return
		}
		b.WriteString(strconv.FormatInt(r.Lo, 10))
		if r.Inclusive {
			b.WriteString("..=")
		} else {
			b.WriteString("..")
		}
		b.WriteString(strconv.FormatInt(r.Hi, 10))
	case value.KFunc:
		b.WriteString("<function>")
	case value.KPid:
		b.WriteString("<pid>")
	case value.KProcID:
		b.WriteString("<process-id>")
	case value.KMonRef:
		b.WriteString("<monitor-ref>")
	default:
		b.WriteString("<" + v.K.String() + ">")
	}
}

// writeData renders a nominal value: records with field names, everything
// else (sum variants, newtypes, Option, Result) positionally.
func writeData(b *strings.Builder, d *value.Data) {
	var vi *value.VariantInfo
	if d.Type != nil && d.Tag >= 0 && d.Tag < len(d.Type.Variants) {
		vi = &d.Type.Variants[d.Tag]
	}
	name := "?"
	switch {
	case vi != nil && vi.Name != "":
		name = vi.Name
	case d.Type != nil:
		name = d.Type.Name
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	b.WriteString(name)
	if len(d.Fields) == 0 {
		return
	}
	record := d.Type != nil && d.Type.Kind == value.TRecord
	b.WriteByte('(')
	for i, f := range d.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		if record && vi != nil && i < len(vi.Fields) && vi.Fields[i] != "" {
			b.WriteString(vi.Fields[i])
			b.WriteString(": ")
		}
		writeShow(b, f)
	}
	b.WriteByte(')')
}

// FormatFloat renders a Float like C's `%.17g`: up to 17 significant
// digits with trailing zeros and a trailing `.` removed, exponent form
// (`1e+20`, `1.0000000000000001e-05`, at least two exponent digits) when
// the decimal exponent is below -4 or at least 17, and `nan`, `inf`,
// `-inf` for the non-finite values. `-0.0` renders as `-0`.
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	// Go's 'g' verb with an explicit precision follows the same rules as
	// C's %g: %e form when exp < -4 || exp >= precision, trailing zeros
	// removed, two-digit minimum exponent.
	return strconv.FormatFloat(f, 'g', 17, 64)
}

// Quote renders a string as a Morrow literal in double quotes, escaping
// only `"`, `\`, newline, carriage return and tab (String.quote).
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	writeQuoted(&b, s)
	return b.String()
}

func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			continue
		}
		b.WriteString(s[start:i])
		b.WriteString(esc)
		start = i + 1
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
