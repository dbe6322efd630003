package core

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

func TestEqualMessage(t *testing.T) {
	long := func(change int) value.Value {
		var b strings.Builder
		for i := range maxDiffLines + 10 {
			if i == change {
				b.WriteString("changed\n")
			} else {
				b.WriteString("line\n")
			}
		}
		return value.String(b.String())
	}
	for _, tc := range []struct {
		actual, expected value.Value
		want             string
	}{
		{value.Int(4), value.Int(3), "expected 3, got 4"},
		{value.String("a"), value.String("b"), `expected "b", got "a"`},
		{value.String("x\ny\n"), value.String("x\nz\n"), "strings differ (-expected +actual):\n@@ -1,2 +1,2 @@\n x\n-z\n+y"},
		// A text too long to diff gives its first differing line.
		{long(7), long(-1), "strings differ (-expected +actual):\nfirst difference at line 8:\n-line\n+changed"},
	} {
		got, f := equalMessage(tc.actual, tc.expected)
		if f != nil || got != tc.want {
			t.Errorf("equalMessage(%v, %v) = %q, %v; want %q", tc.actual, tc.expected, got, f, tc.want)
		}
	}
}
