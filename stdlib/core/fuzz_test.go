package core

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/value"
)

// FuzzStringNatives calls every String native and Int.parse with arbitrary
// text and indices. No call may panic or raise an internal fault, and the
// documented invariants hold: slices of valid UTF-8 stay valid, split then
// join round-trips, Int.parse agrees with show.
func FuzzStringNatives(f *testing.F) {
	f.Add("aé🌿z", ",", int64(1), int64(7))
	f.Add("", "", int64(-9), int64(99))
	f.Add("a,,b", ",", int64(0), int64(1))
	f.Add("-9223372036854775808", "8", int64(3), int64(2))
	f.Add(" \t x \r\n", "x", int64(2), int64(-1))
	f.Add("\xff\xfe", "", int64(1), int64(2))
	f.Fuzz(func(t *testing.T, s, sep string, i, j int64) {
		if len(s) > 512 || len(sep) > 16 {
			return // long inputs find nothing new and make minimising slow
		}
		for _, name := range Names() {
			if !strings.HasPrefix(name, "String.") && name != "Int.parse" {
				continue
			}
			n, _ := Lookup(name)
			args := make([]value.Value, n.Arity)
			ints, strs := []int64{i, j}, []string{s, sep, "<" + sep}
			for k, kind := range n.Args {
				switch kind {
				case value.KInt:
					args[k] = I(ints[0] % 64)
					ints = ints[1:]
				case value.KString:
					args[k] = S(strs[0])
					strs = strs[1:]
				case value.KList:
					args[k] = Strs(s, sep)
				}
			}
			res, f := n.Call(&testCtx{}, args)
			if f != nil && f.Internal {
				t.Fatalf("%s: %s", name, f.Msg)
			}
			if name == "String.slice" && f == nil && utf8.ValidString(s) && !utf8.ValidString(res.AsString()) {
				t.Fatalf("slice of valid UTF-8 is invalid: %q", res.AsString())
			}
		}
		if sep != "" {
			parts, _ := Split(s, sep)
			joined, _ := call(t, "String.join", parts, S(sep))
			if joined.AsString() != s {
				t.Fatalf("join(split(%q, %q)) = %q", s, sep, joined.AsString())
			}
		} else if utf8.ValidString(s) {
			parts, fault := Split(s, "")
			if fault != nil || len(listItems(parts)) != utf8.RuneCountInString(s) {
				t.Fatalf("split(%q, \"\") = %s, %v", s, Show(parts), fault)
			}
		}
		if n, ok := ParseInt(s); ok {
			if back, ok2 := ParseInt(Display(I(n))); !ok2 || back != n {
				t.Fatalf("Int.parse(%q) = %d does not round-trip", s, n)
			}
		}
	})
}
