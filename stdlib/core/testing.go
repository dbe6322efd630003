package core

import (
	"strings"

	"github.com/morrow-lang/morrow/internal/udiff"
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
// whose one-line text is long, the message is instead a line diff
// (internal/udiff) of the expected text against the actual one: strings
// line by line, lists one element per line.

// Limits of Test.equal's diff.
const (
	// longList is the length of a list's one-line Show text above which
	// Test.equal shows a diff of its elements.
	longList = 60
	// maxDiffLines bounds the lines of each side that Test.equal diffs;
	// longer texts get the first differing line instead.
	maxDiffLines = 5000
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
	if actual.Kind() == value.KString && expected.Kind() == value.KString {
		a, e := actual.AsString(), expected.AsString()
		if strings.Contains(a, "\n") || strings.Contains(e, "\n") {
			return "strings differ (-expected +actual):\n" + lineDiff(withNewline(e), withNewline(a)), nil
		}
	}
	sa, se, f := showBoth(actual, expected)
	if f != nil {
		return "", f
	}
	if actual.Kind() == value.KList && expected.Kind() == value.KList && (len(sa) > longList || len(se) > longList) {
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
	return "expected " + se + ", got " + sa, nil
}

// withNewline ends a text with a newline, so the last lines of two
// texts compare alike.
func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
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

// lineDiff is the hunks of the unified diff from expected to actual,
// without the file header, or the first differing line when the texts
// are too long to diff.
func lineDiff(expected, actual string) string {
	if strings.Count(expected, "\n") > maxDiffLines || strings.Count(actual, "\n") > maxDiffLines {
		el, al := strings.Split(expected, "\n"), strings.Split(actual, "\n")
		for i := 0; ; i++ {
			if i >= len(el) || i >= len(al) || el[i] != al[i] {
				var e, a string
				if i < len(el) {
					e = el[i]
				}
				if i < len(al) {
					a = al[i]
				}
				return "first difference at line " + itoa(i+1) + ":\n-" + e + "\n+" + a
			}
		}
	}
	d := udiff.Unified("expected", "actual", []byte(expected), []byte(actual))
	_, hunks, _ := strings.Cut(d, "+++ actual\n")
	return strings.TrimSuffix(hunks, "\n")
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
