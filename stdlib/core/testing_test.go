package core

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

func TestEqualMessage(t *testing.T) {
	long := func(prefix string) value.Value {
		var b strings.Builder
		b.WriteString("same\n")
		for i := range 3000 {
			b.WriteString(prefix + itoa(i) + "\n")
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
		{value.String("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk"), value.String("a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nK"),
			"strings differ (-expected +actual):\n@@ -1,5 +1,5 @@\n a\n-B\n+b\n c\n d\n e\n@@ -8,4 +8,4 @@\n h\n i\n j\n-K\n+k"},
		{value.String("x\n"), value.String("x"), `expected "x", got "x\n"`},
		{value.String("x\ny"), value.String("x"), "strings differ (-expected +actual):\n@@ -1 +1,2 @@\n x\n+y"},
		// Texts too different to diff give their first differing line.
		{long("a"), long("e"), "strings differ (-expected +actual):\nfirst difference at line 2:\n-e0\n+a0"},
	} {
		got, f := equalMessage(tc.actual, tc.expected)
		if f != nil || got != tc.want {
			t.Errorf("equalMessage(%v, %v) = %q, %v; want %q", tc.actual, tc.expected, got, f, tc.want)
		}
	}
}
