package core

import (
	"math"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

func TestFormatFloat(t *testing.T) {
	cases := []struct {
		f    float64
		want string
	}{
		{1.0, "1"},
		{2.0, "2"},
		{2.5, "2.5"},
		{3.14, "3.1400000000000001"},
		{0.1, "0.10000000000000001"},
		{1.5e3, "1500"},
		{-1.5, "-1.5"},
		{0, "0"},
		{negZero, "-0"},
		{1e20, "1e+20"},
		{1e-5, "1.0000000000000001e-05"},
		{1e16, "10000000000000000"},
		{1e17, "1e+17"},
		{0.0001, "0.0001"},
		{123456789.125, "123456789.125"},
		{1e100, "1e+100"},
		{5e-324, "4.9406564584124654e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{-2.5e-7, "-2.4999999999999999e-07"},
		{math.NaN(), "nan"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
	}
	for _, tc := range cases {
		if got := FormatFloat(tc.f); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
	// 0.1 + 0.2 computed at run time, not folded as an exact constant.
	a, b := 0.1, 0.2
	if got := FormatFloat(a + b); got != "0.30000000000000004" {
		t.Errorf("FormatFloat(0.1+0.2) = %q", got)
	}
}

func TestShowAndDisplay(t *testing.T) {
	a, b := 0.1, 0.2
	nested := value.NewData(value.OptionType, value.TagSome, value.Ok(Strs("a")))
	cases := []struct {
		v             value.Value
		show, display string
	}{
		{I(42), "42", "42"},
		{I(math.MinInt64), "-9223372036854775808", "-9223372036854775808"},
		{F(2), "2", "2"},
		{F(a + b), "0.30000000000000004", "0.30000000000000004"},
		{F(negZero), "-0", "-0"},
		{B(true), "true", "true"},
		{B(false), "false", "false"},
		{S("hi"), `"hi"`, "hi"},
		{S(""), `""`, ""},
		{S("say \"x\"\n"), `"say \"x\"\n"`, "say \"x\"\n"},
		{value.Unit, "()", "()"},
		{Ints(1, 2), "[1, 2]", "[1, 2]"},
		{L(), "[]", "[]"},
		{Strs("a", ""), `["a", ""]`, `["a", ""]`},
		{L(L(F(1.5)), L()), "[[1.5], []]", "[[1.5], []]"},
		{value.Some(I(3)), "Some(3)", "Some(3)"},
		{value.None(), "None", "None"},
		{value.Ok(I(1)), "Ok(1)", "Ok(1)"},
		{value.Err(S("x")), `Err("x")`, `Err("x")`},
		{nested, `Some(Ok(["a"]))`, `Some(Ok(["a"]))`},
		{T(I(1), S("one")), `(1, "one")`, `(1, "one")`},
		{T(I(7)), "(7,)", "(7,)"},
		{T(T(I(1)), value.Unit), "((1,), ())", "((1,), ())"},
		{user("Ada", 36), `User(name: "Ada", age: 36)`, `User(name: "Ada", age: 36)`},
		{circle(I(1)), "Circle(1)", "Circle(1)"},
		{rect(I(2), F(3.5)), "Rectangle(2, 3.5)", "Rectangle(2, 3.5)"},
		{point(), "Point", "Point"},
		{userID(1), "UserId(1)", "UserId(1)"},
		{L(userID(1), circle(S("r"))), `[UserId(1), Circle("r")]`, `[UserId(1), Circle("r")]`},
		{Ordering(-1), "Less", "Less"},
		{Ordering(0), "Equal", "Equal"},
		{Ordering(1), "Greater", "Greater"},
		{value.NewRange(0, 3, false), "0..3", "0..3"},
		{value.NewRange(-1, 3, true), "-1..=3", "-1..=3"},
		{value.NewClosure(0, nil), "<function>", "<function>"},
		{value.Opaque(value.KPid, 3, nil), "<pid 3>", "<pid 3>"},
		{value.Opaque(value.KProcID, 3, nil), "<process 3>", "<process 3>"},
		{value.Opaque(value.KMonRef, 7, nil), "<monitor 7>", "<monitor 7>"},
		{L(value.Opaque(value.KPid, 12, nil)), "[<pid 12>]", "[<pid 12>]"},
	}
	for _, tc := range cases {
		if got := Show(tc.v); got != tc.show {
			t.Errorf("Show = %q, want %q", got, tc.show)
		}
		if got := Display(tc.v); got != tc.display {
			t.Errorf("Display = %q, want %q", got, tc.display)
		}
	}
}

func TestQuote(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{"plain é 🌿", `"plain é 🌿"`},
		{`a"b`, `"a\"b"`},
		{`a\b`, `"a\\b"`},
		{"l1\nl2\r\tx", `"l1\nl2\r\tx"`},
		{"{x}", `"{x}"`},
		{"\x00\v", "\"\x00\v\""},
	}
	for _, tc := range cases {
		if got := Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
