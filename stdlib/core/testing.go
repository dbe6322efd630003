package core

import (
	"strings"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// The Test module (docs/testing.md): assertions for `morrow test`. Each
// returns Ok(()) or Err(message), so that `?` chains them in a test
// returning Result((), String).
//
// Test.equal(actual, expected) says "expected E, got A" with both values
// as show renders them. When the values are multi-line strings, or lists
// whose one-line text is long, the message is instead a line diff of the
// expected text against the actual one (lineDiff): strings line by line,
// lists one element per line.

// Limits of Test.equal's diff.
const (
	// longList is the length of a list's one-line Show text above which
	// Test.equal shows a diff of its elements.
	longList = 60
)

// testOk is Ok(()).
var testOk = value.Ok(value.Unit)

func testErr(msg string) value.Value { return value.Err(value.String(msg)) }

// showBoth renders two values with show; a fault for a text past the
// rendering limit.
func showBoth(a, b value.Value) (string, string, *fault.Fault) {
	sa, f := RenderShow(a)
	if f != nil {
		return "", "", f
	}
	sb, f := RenderShow(b)
	return sa, sb, f
}

// equalMessage is Test.equal's message for unequal values.
func equalMessage(actual, expected value.Value) (string, *fault.Fault) {
	if d := stringLineDiff(actual, expected); d != "" {
		return "strings differ (-expected +actual):\n" + d, nil
	}
	sa, se, f := showBoth(actual, expected)
	if f != nil {
		return "", f
	}
	if actual.Kind() == value.KList && expected.Kind() == value.KList && (len(sa) > longList || len(se) > longList) {
		return listMessage(actual, expected)
	}
	return "expected " + se + ", got " + sa, nil
}

// stringLineDiff is the line diff of two strings of which one has more
// than one line; "" for other values, and for strings whose lines are
// equal (they differ in a final newline, which show tells).
func stringLineDiff(actual, expected value.Value) string {
	if actual.Kind() != value.KString || expected.Kind() != value.KString {
		return ""
	}
	a, e := actual.AsString(), expected.AsString()
	if !strings.Contains(a, "\n") && !strings.Contains(e, "\n") {
		return ""
	}
	return lineDiff(e, a)
}

// listMessage is Test.equal's message for long unequal lists: the diff of
// their elements, one a line.
func listMessage(actual, expected value.Value) (string, *fault.Fault) {
	ea, f := elementLines(actual)
	if f != nil {
		return "", f
	}
	ee, f := elementLines(expected)
	if f != nil {
		return "", f
	}
	return "lists differ (-expected +actual):\n" + lineDiff(ee, ea), nil
}

// elementLines is a list's elements as show renders them, one a line.
func elementLines(v value.Value) (string, *fault.Fault) {
	var b strings.Builder
	for _, x := range listOf(v).Items {
		s, f := RenderShow(x)
		if f != nil {
			return "", f
		}
		if b.Len()+len(s) > MaxStringBytes {
			return "", fault.New(fault.RenderSize)
		}
		b.WriteString(s)
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// lineDiff is a unified diff without file header from expected to
// actual (one "@@ -a,n +b,m @@" header per hunk, three lines of context),
// or the first differing line when the texts differ in too many lines
// to compare every pair. (The standard library may not import the
// commands' internal/udiff; this is the same format.)
func lineDiff(expected, actual string) string {
	el, al := splitLines(expected), splitLines(actual)
	ops, ok := diffLines(el, al)
	if !ok {
		i := 0
		for i < len(el) && i < len(al) && el[i] == al[i] {
			i++
		}
		var e, a string
		if i < len(el) {
			e = el[i]
		}
		if i < len(al) {
			a = al[i]
		}
		return "first difference at line " + itoa(i+1) + ":\n-" + e + "\n+" + a
	}
	return strings.TrimSuffix(hunks(ops, el, al), "\n")
}

// splitLines splits a text into lines without their "\n".
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// diffOp is one line of an edit script: ' ' kept, '-' only in expected,
// '+' only in actual; e and a index the lines.
type diffOp struct {
	kind byte
	e, a int
}

// maxDiffCells bounds the table of the longest common subsequence of
// the lines between the common prefix and suffix.
const maxDiffCells = 1 << 22

// diffLines is an edit script from el to al with a longest common
// subsequence of lines; false when the differing middle is too large.
func diffLines(el, al []string) ([]diffOp, bool) {
	p, s := commonEnds(el, al)
	em, am := el[p:len(el)-s], al[p:len(al)-s]
	if len(em) > 0 && len(am) > 0 && len(em)*len(am) > maxDiffCells {
		return nil, false
	}
	ops := make([]diffOp, 0, len(el)+len(am))
	for k := 0; k < p; k++ {
		ops = append(ops, diffOp{' ', k, k})
	}
	ops = appendMiddle(ops, em, am, p)
	for k := 0; k < s; k++ {
		ops = append(ops, diffOp{' ', len(el) - s + k, len(al) - s + k})
	}
	return ops, true
}

// commonEnds returns the lengths of the common prefix and of the common
// suffix (after the prefix) of el and al.
func commonEnds(el, al []string) (p, s int) {
	for p < len(el) && p < len(al) && el[p] == al[p] {
		p++
	}
	for s < len(el)-p && s < len(al)-p && el[len(el)-1-s] == al[len(al)-1-s] {
		s++
	}
	return p, s
}

// appendMiddle appends the edit script from em to am (the lines after a
// common prefix of p lines) along a longest common subsequence.
func appendMiddle(ops []diffOp, em, am []string, p int) []diffOp {
	lcs, w := lcsTable(em, am)
	i, j := 0, 0
	for i < len(em) || j < len(am) {
		switch {
		case i < len(em) && j < len(am) && em[i] == am[j]:
			ops = append(ops, diffOp{' ', p + i, p + j})
			i, j = i+1, j+1
		case i < len(em) && (j == len(am) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]):
			ops = append(ops, diffOp{'-', p + i, p + j})
			i++
		default:
			ops = append(ops, diffOp{'+', p + i, p + j})
			j++
		}
	}
	return ops
}

// lcsTable returns the table lcs[i*w+j]: the length of the longest common
// subsequence of em[i:] and am[j:], and its row width w.
func lcsTable(em, am []string) ([]int32, int) {
	w := len(am) + 1
	lcs := make([]int32, (len(em)+1)*w)
	for i := len(em) - 1; i >= 0; i-- {
		for j := len(am) - 1; j >= 0; j-- {
			if em[i] == am[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	return lcs, w
}

// diffContext is the number of unchanged lines around a change.
const diffContext = 3

// hunks renders an edit script as unified-diff hunks.
func hunks(ops []diffOp, el, al []string) string {
	var b strings.Builder
	for i := 0; i < len(ops); {
		i = skipSame(ops, i)
		if i == len(ops) {
			break
		}
		end := hunkEnd(ops, i)
		writeHunk(&b, ops[max(i-diffContext, 0):end], el, al)
		i = end
	}
	return b.String()
}

// skipSame returns the position of the first change at or after i
// (len(ops) if none).
func skipSame(ops []diffOp, i int) int {
	for i < len(ops) && ops[i].kind == ' ' {
		i++
	}
	return i
}

// hunkEnd returns the end of the hunk whose first change is at i: it
// takes in every later change separated by at most twice the context,
// then the context after the last one.
func hunkEnd(ops []diffOp, i int) int {
	end := i
	for {
		for end < len(ops) && ops[end].kind != ' ' {
			end++
		}
		eq := skipSame(ops, end)
		if eq < len(ops) && eq-end <= 2*diffContext {
			end = eq
			continue
		}
		return min(end+diffContext, len(ops))
	}
}

// writeHunk writes one hunk: its header with both line ranges, then its
// lines.
func writeHunk(b *strings.Builder, h []diffOp, el, al []string) {
	var en, an int
	for _, o := range h {
		if o.kind != '+' {
			en++
		}
		if o.kind != '-' {
			an++
		}
	}
	b.WriteString("@@ -" + rangeText(h[0].e, en) + " +" + rangeText(h[0].a, an) + " @@\n")
	for _, o := range h {
		b.WriteByte(o.kind)
		if o.kind == '+' {
			b.WriteString(al[o.a])
		} else {
			b.WriteString(el[o.e])
		}
		b.WriteByte('\n')
	}
}

// rangeText is a hunk range: "start,n" (1-based), "start" for one line,
// "start-1,0" for none.
func rangeText(start, n int) string {
	switch n {
	case 0:
		return itoa(start) + ",0"
	case 1:
		return itoa(start + 1)
	}
	return itoa(start+1) + "," + itoa(n)
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

func init() {
	A := native.KAny
	register(
		fnWork("Test.equal", kinds(A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			eq, work := EqualWork(a[0], a[1])
			if eq {
				return testOk, nil, work
			}
			msg, f := equalMessage(a[0], a[1])
			if f != nil {
				return value.Unit, f, MaxStringBytes / renderBytesPerWork
			}
			return testErr(msg), nil, work + int64(len(msg)/renderBytesPerWork)
		}),
		fnWork("Test.not_equal", kinds(A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			eq, work := EqualWork(a[0], a[1])
			if !eq {
				return testOk, nil, work
			}
			s, f := RenderShow(a[0])
			if f != nil {
				return value.Unit, f, MaxStringBytes / renderBytesPerWork
			}
			return testErr("expected a value other than " + s), nil, work + int64(len(s)/renderBytesPerWork)
		}),
		fn("Test.is_true", kinds(value.KBool, value.KString), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			if a[0].AsBool() {
				return testOk, nil
			}
			return testErr(a[1].AsString()), nil
		}),
		testTag("Test.is_ok", value.TagOk, "expected Ok, got "),
		testTag("Test.is_err", value.TagErr, "expected Err, got "),
		testTag("Test.is_some", value.TagSome, "expected Some, got "),
		testTag("Test.is_none", value.TagNone, "expected None, got "),
		fn("Test.fail", kinds(value.KString), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return testErr(a[0].AsString()), nil
		}),
	)
}

// testTag builds an assertion that an Option or Result has the variant
// tag: Err(prefix + show(value)) when it has another.
func testTag(name string, tag int, prefix string) *native.Native {
	return fnWork(name, kinds(value.KData), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
		t, f := dataTag(a[0])
		if f != nil {
			return value.Unit, f, 1
		}
		if t == tag {
			return testOk, nil, 1
		}
		s, f := RenderShow(a[0])
		if f != nil {
			return value.Unit, f, MaxStringBytes / renderBytesPerWork
		}
		return testErr(prefix + s), nil, int64(len(s) / renderBytesPerWork)
	})
}
