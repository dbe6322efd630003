package core

import (
	"math"
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Display renders a value the way print writes it and string
// interpolation inserts it: Int, Float, Bool and String as their raw text,
// everything else in its Show form. It has no size limit: the runtime
// uses RenderDisplay or WriteDisplay.
func Display(v value.Value) string {
	if v.Kind() == value.KString {
		return v.AsString()
	}
	s, _ := render(v, -1)
	return s
}

// Show renders the `show` text of a value (docs/stdlib.md "How values render"),
// without a size limit (the runtime's show uses RenderShow):
// strings quoted as String.quote does, lists `[1, 2]`, tuples `(1, "one")`
// and `(7,)`, records `Name(field: v)`, sum variants positionally
// `Circle(1)`, payload-free variants bare `Point`, newtypes `UserId(1)`,
// unit `()`, process values by their number: `<pid 3>`, `<process 3>`
// (the process's generation, as the trace numbers it) and `<monitor 7>`
// (the monitor's serial).
func Show(v value.Value) string {
	var b strings.Builder
	renderTo(&b, v, -1)
	return b.String()
}

// RenderShow is Show with the 16 MiB rendering limit: a text longer than
// MaxStringBytes is not built, and fault 14 (terminal rendering exceeds
// 16 MiB) is returned instead. show, print and println use it.
func RenderShow(v value.Value) (string, *fault.Fault) {
	var b strings.Builder
	if !renderTo(&b, v, MaxStringBytes) {
		return "", fault.New(fault.RenderSize)
	}
	return b.String(), nil
}

// renderBytesPerWork is how many rendered bytes count as one unit of
// work (Native.FnWork).
const renderBytesPerWork = 16

// WriteDisplay appends the Display text of v to b unless that would make
// b longer than limit bytes; it reports whether it fit. Rendering stops as
// soon as the limit is passed, so a value whose text is astronomically
// long (a shared value, a DAG) costs at most about limit bytes of work.
// String interpolation builds its result with it.
func WriteDisplay(b *strings.Builder, v value.Value, limit int) bool {
	switch v.Kind() {
	case value.KString:
		s := v.AsString()
		if b.Len()+len(s) > limit {
			return false
		}
		b.WriteString(s)
		return true
	case value.KInt, value.KFloat, value.KBool:
		s, _ := render(v, -1)
		if b.Len()+len(s) > limit {
			return false
		}
		b.WriteString(s)
		return true
	}
	return renderTo(b, v, limit)
}

// RenderDisplay is Display with the same limit as RenderShow.
func RenderDisplay(v value.Value) (string, *fault.Fault) {
	if v.Kind() == value.KString {
		return v.AsString(), nil
	}
	s, ok := render(v, MaxStringBytes)
	if !ok {
		return "", fault.New(fault.RenderSize)
	}
	return s, nil
}

// render is the Display text of a non-string value.
func render(v value.Value, limit int) (string, bool) {
	switch v.Kind() {
	case value.KInt:
		return strconv.FormatInt(v.AsInt(), 10), true
	case value.KFloat:
		return FormatFloat(v.AsFloat()), true
	case value.KBool:
		return strconv.FormatBool(v.AsBool()), true
	}
	var b strings.Builder
	ok := renderTo(&b, v, limit)
	return b.String(), ok
}

// showFrame is one open sequence of a rendering in progress: the elements
// of a list, tuple or data value, the index of the next one, optional
// field names, and the text that closes the sequence.
type showFrame struct {
	elems []value.Value
	names []string
	next  int
	close string
	pairs bool // elems alternate keys and values (a map)
}

// renderTo writes the Show form of v. It keeps its own stack of open
// sequences instead of recursing, so arbitrarily deep values (a list
// nested a million times) cannot exhaust the Go stack, and the stack
// grows with the depth of the value, not its width. With limit >= 0 it
// stops and returns false as soon as the text exceeds limit bytes.
func renderTo(b *strings.Builder, v value.Value, limit int) bool {
	s := shower{b: b}
	for {
		if limit >= 0 && b.Len() > limit {
			return false
		}
		s.write(v)
		var more bool
		if v, more = s.next(); !more {
			return limit < 0 || b.Len() <= limit
		}
	}
}

// shower is the state of one renderTo: the text so far and the stack of
// open sequences.
type shower struct {
	b     *strings.Builder
	stack []showFrame
}

// open writes the opening text of a sequence and pushes its frame.
func (s *shower) open(text string, elems []value.Value, names []string, close string) *showFrame {
	s.b.WriteString(text)
	s.stack = append(s.stack, showFrame{elems: elems, names: names, close: close})
	return &s.stack[len(s.stack)-1]
}

// next closes the finished sequences and writes the separator and field
// name before the next element, which it returns; more is false when
// every sequence is closed.
func (s *shower) next() (v value.Value, more bool) {
	for len(s.stack) > 0 {
		f := &s.stack[len(s.stack)-1]
		if f.next == len(f.elems) {
			s.b.WriteString(f.close)
			s.stack = s.stack[:len(s.stack)-1]
			continue
		}
		switch {
		case f.pairs && f.next%2 == 1:
			s.b.WriteString(": ")
		case f.next > 0:
			s.b.WriteString(", ")
		}
		if f.next < len(f.names) && f.names[f.next] != "" {
			s.b.WriteString(f.names[f.next])
			s.b.WriteString(": ")
		}
		f.next++
		return f.elems[f.next-1], true
	}
	return value.Value{}, false
}

// write writes v when it has no elements, else opens the sequence of its
// elements.
func (s *shower) write(v value.Value) {
	switch v.Kind() {
	case value.KTuple:
		switch elems := tupleElems(v); len(elems) {
		case 0:
			s.b.WriteString("()")
		case 1:
			s.open("(", elems, nil, ",)")
		default:
			s.open("(", elems, nil, ")")
		}
	case value.KList:
		s.open("[", listItems(v), nil, "]")
	case value.KData:
		s.data(v)
	case value.KMap:
		s.mapEntries(v.AsMap())
	case value.KSet:
		s.open("Set([", v.AsMap().Keys(), nil, "])")
	default:
		writeLeaf(s.b, v)
	}
}

// data writes a data value's name, opening its fields when it has some.
func (s *shower) data(v value.Value) {
	d, _ := v.Data()
	if d == nil {
		s.b.WriteString("<data>")
		return
	}
	name, fields := dataNames(d)
	if len(d.Fields) == 0 {
		s.b.WriteString(name)
		return
	}
	s.open(name+"(", d.Fields, fields, ")")
}

// mapEntries opens a map's keys and values, alternating, in its order.
func (s *shower) mapEntries(m *value.Map) {
	if m.Len() == 0 {
		s.b.WriteString("%{}")
		return
	}
	kv := make([]value.Value, 0, 2*m.Len())
	m.Each(func(k, x value.Value) bool {
		kv = append(kv, k, x)
		return true
	})
	s.open("%{", kv, nil, "}").pairs = true
}

// handlePrefix is the opening text of the Show form of a runtime handle,
// followed by its number and `>`.
var handlePrefix = map[value.Kind]string{value.KPid: "<pid ", value.KProcID: "<process ", value.KMonRef: "<monitor "}

// writeLeaf writes the Show form of a value without elements: a scalar,
// a range, a function or a runtime handle.
func writeLeaf(b *strings.Builder, v value.Value) {
	if prefix, ok := handlePrefix[v.Kind()]; ok {
		b.WriteString(prefix)
		b.WriteString(strconv.FormatInt(v.AsInt(), 10))
		b.WriteByte('>')
		return
	}
	switch v.Kind() {
	case value.KUnit:
		b.WriteString("()")
	case value.KInt:
		b.WriteString(strconv.FormatInt(v.AsInt(), 10))
	case value.KFloat:
		b.WriteString(FormatFloat(v.AsFloat()))
	case value.KBool:
		b.WriteString(strconv.FormatBool(v.AsBool()))
	case value.KString:
		writeQuoted(b, v.AsString())
	case value.KRange:
		writeRange(b, v)
	case value.KFunc:
		b.WriteString("<function>")
	default:
		b.WriteString("<" + v.Kind().String() + ">")
	}
}

// writeRange writes a range as lo..hi or lo..=hi.
func writeRange(b *strings.Builder, v value.Value) {
	r, _ := v.Range()
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
}

// dataNames returns the name Show prints for a nominal value (the last
// dotted segment of its variant name) and, for records, the field names.
func dataNames(d *value.Data) (string, []string) {
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
	var fields []string
	if d.Type != nil && d.Type.Kind == value.TRecord && vi != nil {
		fields = vi.Fields
	}
	return name, fields
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

// quotedLen is the length of Quote(s).
func quotedLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '\n', '\r', '\t':
			n++
		}
	}
	return n
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
