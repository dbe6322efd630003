package core

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// nativeCase is one call of a native. want is the Show form of the result,
// or "fault:N" when the call must raise fault N.
type nativeCase struct {
	name string
	args []value.Value
	want string
}

func c(name string, want string, args ...value.Value) nativeCase {
	return nativeCase{name: name, args: args, want: want}
}

func runCases(t *testing.T, cases []nativeCase) {
	t.Helper()
	for _, tc := range cases {
		shown := make([]string, len(tc.args))
		for i, a := range tc.args {
			shown[i] = Show(a)
			if len(shown[i]) > 40 {
				shown[i] = shown[i][:40] + "…"
			}
		}
		label := fmt.Sprintf("%s(%s)", tc.name, strings.Join(shown, ", "))
		t.Run(label, func(t *testing.T) {
			got, f := call(t, tc.name, tc.args...)
			if f != nil {
				if g := fmt.Sprintf("fault:%d", f.Code); g != tc.want {
					t.Fatalf("got %s (%q), want %s", g, f.Msg, tc.want)
				}
				if f.Msg != f.Code.Text() {
					t.Fatalf("fault %d text %q, want %q", f.Code, f.Msg, f.Code.Text())
				}
				return
			}
			if g := Show(got); g != tc.want {
				t.Fatalf("got %s, want %s", g, tc.want)
			}
		})
	}
}

func TestListNatives(t *testing.T) {
	big := Ints(1, 2, 3)
	runCases(t, []nativeCase{
		c("List.head", "1", big),
		c("List.head", `"a"`, Strs("a", "b")),
		c("List.head", "fault:4", L()),
		c("List.get", "1", big, I(0)),
		c("List.get", "3", big, I(2)),
		c("List.get", "fault:3", big, I(3)),
		c("List.get", "fault:3", big, I(-1)),
		c("List.get", "fault:3", big, I(math.MinInt64)),
		c("List.get", "fault:3", L(), I(0)),
		c("List.tail", "[2, 3]", big),
		c("List.tail", "[]", Ints(1)),
		c("List.tail", "[]", L()),
		c("List.len", "3", big),
		c("List.len", "0", L()),
		c("List.is_empty", "true", L()),
		c("List.is_empty", "false", big),
		c("List.first", "Some(1)", big),
		c("List.first", "None", L()),
		c("List.last", "Some(3)", big),
		c("List.last", "None", L()),
		c("List.at", "Some(2)", big, I(1)),
		c("List.at", "None", big, I(3)),
		c("List.at", "None", big, I(-1)),
		c("List.at", "None", L(), I(0)),
		c("List.push", "[1, 2, 3, 4]", big, I(4)),
		c("List.push", `["x"]`, L(), S("x")),
		c("List.concat", "[1, 2, 3, 1, 2, 3]", big, big),
		c("List.concat", "[1, 2, 3]", L(), big),
		c("List.concat", "[1, 2, 3]", big, L()),
		c("List.concat", "[]", L(), L()),
		c("List.reverse", "[3, 2, 1]", big),
		c("List.reverse", "[]", L()),
		c("List.take", "[1, 2]", big, I(2)),
		c("List.take", "[]", big, I(0)),
		c("List.take", "[]", big, I(-5)),
		c("List.take", "[1, 2, 3]", big, I(3)),
		c("List.take", "[1, 2, 3]", big, I(99)),
		c("List.take", "[1, 2, 3]", big, I(math.MaxInt64)),
		c("List.take", "[]", big, I(math.MinInt64)),
		c("List.drop", "[3]", big, I(2)),
		c("List.drop", "[1, 2, 3]", big, I(0)),
		c("List.drop", "[1, 2, 3]", big, I(-5)),
		c("List.drop", "[]", big, I(3)),
		c("List.drop", "[]", big, I(99)),
		c("List.drop", "[]", big, I(math.MaxInt64)),
		c("List.range", "[0, 1, 2]", I(0), I(3)),
		c("List.range", "[-2, -1]", I(-2), I(0)),
		c("List.range", "[]", I(3), I(3)),
		c("List.range", "[]", I(5), I(1)),
		c("List.range", "[9223372036854775806]", I(math.MaxInt64-1), I(math.MaxInt64)),
		c("List.range", "fault:15", I(0), I(1<<24+1)),
		c("List.range", "fault:15", I(math.MinInt64), I(math.MaxInt64)),
		c("List.range", "fault:15", I(-1), I(math.MaxInt64)),
		c("List.range", "[]", I(math.MaxInt64), I(math.MinInt64)),
		c("List.zip", `[(1, "a"), (2, "b")]`, big, Strs("a", "b")),
		c("List.zip", `[(1, "a"), (2, "b")]`, Ints(1, 2), Strs("a", "b", "c")),
		c("List.zip", "[]", L(), big),
		c("List.contains", "true", big, I(2)),
		c("List.contains", "false", big, I(4)),
		c("List.contains", "false", L(), I(4)),
		c("List.contains", "true", Strs("ab", "c"), S("ab")),
		c("List.contains", "false", Strs("ab", "c"), S("a")),
		c("List.contains", "true", L(B(false)), B(false)),
		c("List.contains", "true", L(F(1.5), F(2.5)), F(2.5)),
		c("List.contains", "false", L(F(math.NaN())), F(math.NaN())),
		c("List.contains", "true", L(F(negZero)), F(0)),
		c("List.contains", "true", L(F(0)), F(negZero)),
		c("List.contains", "true", L(userID(1), userID(2)), userID(2)),
		c("List.contains", "false", L(userID(1), userID(2)), userID(3)),
		c("List.sum", "6", big),
		c("List.sum", "0", L()),
		c("List.sum", "-9223372036854775808", Ints(math.MaxInt64, 1)),
		c("List.sum", "9223372036854775807", Ints(math.MinInt64, -1)),
		c("List.enumerate", `[(0, "a"), (1, "b")]`, Strs("a", "b")),
		c("List.enumerate", "[]", L()),
		c("List.sort", "[1, 2, 3]", Ints(3, 1, 2)),
		c("List.sort", "[]", L()),
		c("List.sort", "[-9223372036854775808, -1, 0, 9223372036854775807]", Ints(0, math.MaxInt64, -1, math.MinInt64)),
		c("List.sort", "[false, false, true]", L(B(true), B(false), B(false))),
		c("List.sort", `["", "B", "a", "ab", "b", "é"]`, Strs("b", "é", "ab", "a", "", "B")),
		c("List.sort", "[-inf, -1, -0, 0, 1, inf, nan]", L(F(math.NaN()), F(1), F(0), F(math.Inf(1)), F(negZero), F(-1), F(math.Inf(-1)))),
		c("List.sort", "[[], [1], [1, 2], [2]]", L(Ints(2), Ints(1, 2), L(), Ints(1))),
		c("List.sort", `[(1, "b"), (2, "a"), (2, "b")]`, L(T(I(2), S("b")), T(I(1), S("b")), T(I(2), S("a")))),
		c("List.sort", "[Some(1), Some(2), None]", L(value.Some(I(2)), value.None(), value.Some(I(1)))),
		c("List.sort", `[Ok(1), Ok(2), Err("a")]`, L(value.Err(S("a")), value.Ok(I(2)), value.Ok(I(1)))),
		c("List.sort", "[Circle(2), Circle(10), Rectangle(1, 1), Point]", L(point(), rect(I(1), I(1)), circle(I(10)), circle(I(2)))),
		c("List.sort", "[UserId(1), UserId(5), UserId(7)]", L(userID(7), userID(1), userID(5))),
	})
}

func TestStringNatives(t *testing.T) {
	runCases(t, []nativeCase{
		c("String.len", "11", S("Morrow 🌿")),
		c("String.len", "0", S("")),
		c("String.len", "2", S("é")),
		c("String.concat", `"ab"`, S("a"), S("b")),
		c("String.concat", `""`, S(""), S("")),
		c("String.concat", "fault:5", S(strings.Repeat("a", 8<<20)), S(strings.Repeat("b", 8<<20+1))),
		c("String.eq", "true", S("é"), S("é")),
		c("String.eq", "false", S("a"), S("A")),
		c("String.compare", "-1", S("a"), S("b")),
		c("String.compare", "0", S("a"), S("a")),
		c("String.compare", "1", S("b"), S("a")),
		c("String.compare", "-1", S("Z"), S("a")),
		c("String.compare", "-1", S("a"), S("ab")),
		c("String.compare", "1", S("é"), S("z")),
		c("String.repeat", `"ababab"`, S("ab"), I(3)),
		c("String.repeat", `""`, S("ab"), I(0)),
		c("String.repeat", `""`, S("ab"), I(-3)),
		c("String.repeat", `""`, S(""), I(math.MaxInt64)),
		c("String.repeat", "fault:5", S("ab"), I(8<<20+1)),
		c("String.repeat", "fault:5", S("x"), I(16<<20+1)),
		c("String.repeat", "fault:5", S("xyz"), I(math.MaxInt64)),
		c("String.slice", `"é🌿"`, S("aé🌿z"), I(1), I(7)),
		c("String.slice", `"é"`, S("é"), I(-9), I(99)),
		c("String.slice", `""`, S("é"), I(99), I(-9)),
		c("String.slice", `"bc"`, S("abcd"), I(1), I(3)),
		c("String.slice", `""`, S("abcd"), I(3), I(1)),
		c("String.slice", `"abcd"`, S("abcd"), I(math.MinInt64), I(math.MaxInt64)),
		c("String.slice", `""`, S("abcd"), I(4), I(4)),
		c("String.slice", `""`, S(""), I(0), I(0)),
		c("String.slice", "fault:6", S("é"), I(0), I(1)),
		c("String.slice", "fault:6", S("é"), I(1), I(2)),
		c("String.slice", "fault:6", S("a🌿"), I(2), I(99)),
		c("String.slice", `"🌿"`, S("a🌿"), I(1), I(99)),
		c("String.split", `["a", "", "b"]`, S("a,,b"), S(",")),
		c("String.split", `[""]`, S(""), S(",")),
		c("String.split", `["", "a", ""]`, S(",a,"), S(",")),
		c("String.split", `["a", "b"]`, S("a::b"), S("::")),
		c("String.split", `["abc"]`, S("abc"), S(",")),
		c("String.split", `["a", "é", "🌿"]`, S("aé🌿"), S("")),
		c("String.split", "[]", S(""), S("")),
		c("String.split", "fault:7", S("a\xffb"), S("")),
		c("String.join", `"a, b"`, Strs("a", "b"), S(", ")),
		c("String.join", `""`, L(), S(", ")),
		c("String.join", `"a"`, Strs("a"), S("-")),
		c("String.join", `"abc"`, Strs("a", "b", "c"), S("")),
		c("String.join", "fault:5", Strs(strings.Repeat("a", 8<<20), strings.Repeat("b", 8<<20)), S("-")),
		c("String.contains", "true", S("hello"), S("ell")),
		c("String.contains", "false", S("hello"), S("x")),
		c("String.contains", "true", S("hello"), S("")),
		c("String.contains", "true", S(""), S("")),
		c("String.starts_with", "true", S("hello"), S("he")),
		c("String.starts_with", "false", S("hello"), S("lo")),
		c("String.starts_with", "true", S("hello"), S("")),
		c("String.ends_with", "true", S("hello"), S("lo")),
		c("String.ends_with", "false", S("hello"), S("he")),
		c("String.ends_with", "true", S("hello"), S("")),
		c("String.trim", `"a b"`, S(" \t\r\n a b \n\t")),
		c("String.trim", `""`, S(" \t ")),
		c("String.trim", "\"\u00a0a\u3000\"", S(" \u00a0a\u3000 ")),
		c("String.trim", "\"\va\f\"", S("\va\f")),
		c("String.trim_start", `"a "`, S("  a ")),
		c("String.trim_end", `"  a"`, S("  a \r\n")),
		c("String.to_upper", `"HELLO, ÉTÉ 1"`, S("Hello, ÉtÉ 1")),
		c("String.to_upper", `"ÀÉ"`, S("ÀÉ")),
		c("String.to_upper", `"éA"`, S("éa")),
		c("String.to_lower", `"hello é"`, S("HeLLo é")),
		c("String.to_lower", `"É"`, S("É")),
		c("String.replace", `"b-b-b"`, S("a-a-a"), S("a"), S("b")),
		c("String.replace", `"xa"`, S("aaa"), S("aa"), S("x")),
		c("String.replace", `"abc"`, S("abc"), S(""), S("x")),
		c("String.replace", `"ac"`, S("abc"), S("b"), S("")),
		c("String.replace", `"abc"`, S("abc"), S("z"), S("y")),
		c("String.replace", "fault:5", S(strings.Repeat("a", 1024)), S("a"), S(strings.Repeat("b", 16<<10+1))),
		c("String.quote", `"\"a\\\"b\\\\c\\nd\\re\\tf{g}é\""`, S("a\"b\\c\nd\re\tf{g}é")),
		c("String.quote", `"\"\""`, S("")),
		c("String.is_empty", "true", S("")),
		c("String.is_empty", "false", S(" ")),
		c("String.index_of", "Some(2)", S("abcabc"), S("c")),
		c("String.index_of", "Some(0)", S("abc"), S("")),
		c("String.index_of", "Some(2)", S("é🌿"), S("🌿")),
		c("String.index_of", "None", S("abc"), S("d")),
		c("String.char_at", "Some(98)", S("abc"), I(1)),
		c("String.char_at", "Some(195)", S("é"), I(0)),
		c("String.char_at", "None", S("abc"), I(3)),
		c("String.char_at", "None", S("abc"), I(-1)),
		c("String.lines", `["a", "b", "", "c"]`, S("a\nb\r\n\nc")),
		c("String.lines", `["a"]`, S("a\n")),
		c("String.lines", `[""]`, S("\n")),
		c("String.lines", "[]", S("")),
		c("String.is_decimal", "true", S("0123")),
		c("String.is_decimal", "false", S("")),
		c("String.is_decimal", "false", S("-1")),
		c("String.is_decimal", "false", S("1_000")),
		c("String.is_decimal", "false", S("١٢")),
	})
}

func TestReplaceLimitBoundary(t *testing.T) {
	// Exactly 16 MiB is allowed; one byte more faults.
	s := strings.Repeat("a", 1024)
	if _, f := Replace(s, "a", strings.Repeat("b", 16<<10)); f != nil {
		t.Fatalf("16 MiB result faulted: %v", f)
	}
	if _, f := call(t, "String.concat", S(strings.Repeat("a", 8<<20)), S(strings.Repeat("b", 8<<20))); f != nil {
		t.Fatalf("String.concat of exactly 16 MiB faulted: %v", f)
	}
	if _, f := call(t, "String.join", Strs(strings.Repeat("a", 8<<20), strings.Repeat("b", 8<<20-1)), S("-")); f != nil {
		t.Fatalf("String.join of exactly 16 MiB faulted: %v", f)
	}
	if _, f := Repeat("ab", 8<<20); f != nil {
		t.Fatalf("String.repeat of exactly 16 MiB faulted: %v", f)
	}
}

func TestIntNatives(t *testing.T) {
	const maxI, minI = math.MaxInt64, math.MinInt64
	runCases(t, []nativeCase{
		c("Int.parse", "Some(42)", S("42")),
		c("Int.parse", "Some(42)", S("+42")),
		c("Int.parse", "Some(-42)", S("-42")),
		c("Int.parse", "Some(7)", S("007")),
		c("Int.parse", "Some(0)", S("-0")),
		c("Int.parse", "Some(9223372036854775807)", S("9223372036854775807")),
		c("Int.parse", "Some(-9223372036854775808)", S("-9223372036854775808")),
		c("Int.parse", "None", S("9223372036854775808")),
		c("Int.parse", "None", S("-9223372036854775809")),
		c("Int.parse", "None", S("99999999999999999999999")),
		c("Int.parse", "None", S("")),
		c("Int.parse", "None", S("+")),
		c("Int.parse", "None", S("-")),
		c("Int.parse", "None", S(" 1")),
		c("Int.parse", "None", S("1 ")),
		c("Int.parse", "None", S("1\n")),
		c("Int.parse", "None", S("1_000")),
		c("Int.parse", "None", S("_1")),
		c("Int.parse", "None", S("0x10")),
		c("Int.parse", "None", S("1e3")),
		c("Int.parse", "None", S("1.0")),
		c("Int.parse", "None", S("--1")),
		c("Int.parse", "None", S("+-1")),
		c("Int.parse", "None", S("١٢")),
		c("Int.parse", "None", S("１")),
		c("Int.checked_add", "Some(3)", I(1), I(2)),
		c("Int.checked_add", "None", I(maxI), I(1)),
		c("Int.checked_add", "None", I(minI), I(-1)),
		c("Int.checked_add", "Some(-1)", I(maxI), I(minI)),
		c("Int.checked_add", "Some(9223372036854775807)", I(maxI), I(0)),
		c("Int.checked_sub", "Some(-1)", I(1), I(2)),
		c("Int.checked_sub", "None", I(minI), I(1)),
		c("Int.checked_sub", "None", I(0), I(minI)),
		c("Int.checked_sub", "None", I(maxI), I(-1)),
		c("Int.checked_sub", "Some(-9223372036854775808)", I(-1), I(maxI)),
		c("Int.checked_mul", "Some(6)", I(2), I(3)),
		c("Int.checked_mul", "Some(0)", I(minI), I(0)),
		c("Int.checked_mul", "None", I(minI), I(-1)),
		c("Int.checked_mul", "None", I(-1), I(minI)),
		c("Int.checked_mul", "Some(-9223372036854775808)", I(minI), I(1)),
		c("Int.checked_mul", "None", I(1<<32), I(1<<31)),
		c("Int.checked_mul", "Some(-9223372036854775808)", I(-(1 << 32)), I(1<<31)),
		c("Int.checked_mul", "None", I(maxI), I(2)),
		c("Int.checked_mul", "Some(9223372036854775807)", I(maxI), I(1)),
		c("Int.checked_div", "Some(-3)", I(-7), I(2)),
		c("Int.checked_div", "Some(3)", I(7), I(2)),
		c("Int.checked_div", "None", I(7), I(0)),
		c("Int.checked_div", "None", I(minI), I(-1)),
		c("Int.checked_div", "Some(-9223372036854775808)", I(minI), I(1)),
		c("Int.checked_rem", "Some(-1)", I(-7), I(2)),
		c("Int.checked_rem", "Some(1)", I(7), I(-2)),
		c("Int.checked_rem", "None", I(7), I(0)),
		c("Int.checked_rem", "None", I(minI), I(-1)),
		c("Int.checked_rem", "Some(0)", I(minI), I(2)),
		c("Int.checked_neg", "Some(-5)", I(5)),
		c("Int.checked_neg", "Some(-9223372036854775807)", I(maxI)),
		c("Int.checked_neg", "None", I(minI)),
		c("Int.checked_neg", "Some(0)", I(0)),
	})
}

func TestOptionResultNatives(t *testing.T) {
	some, none := value.Some(I(3)), value.None()
	okV, errV := value.Ok(I(1)), value.Err(S("x"))
	runCases(t, []nativeCase{
		c("Option.is_some", "true", some),
		c("Option.is_some", "false", none),
		c("Option.is_none", "false", some),
		c("Option.is_none", "true", none),
		c("Option.unwrap_or", "3", some, I(9)),
		c("Option.unwrap_or", "9", none, I(9)),
		c("Result.is_ok", "true", okV),
		c("Result.is_ok", "false", errV),
		c("Result.is_err", "false", okV),
		c("Result.is_err", "true", errV),
		c("Result.unwrap_or", "1", okV, I(9)),
		c("Result.unwrap_or", "9", errV, I(9)),
	})
}

func TestEqCompareNatives(t *testing.T) {
	runCases(t, []nativeCase{
		c("eq", "true", user("Ada", 36), user("Ada", 36)),
		c("eq", "false", user("Ada", 36), user("Ada", 37)),
		c("eq", "true", userID(1), userID(1)),
		c("eq", "false", circle(I(1)), point()),
		c("compare", "Less", I(1), I(2)),
		c("compare", "Equal", userID(4), userID(4)),
		c("compare", "Greater", rect(I(1), I(2)), circle(I(9))),
		c("compare", "Less", rect(I(1), I(2)), rect(I(1), I(3))),
		c("compare", "Greater", S("b"), S("a")),
	})
}

func TestOutputNatives(t *testing.T) {
	cases := []struct {
		name string
		arg  value.Value
		want string
	}{
		{"print", S("hi \"there\""), "hi \"there\""},
		{"print", I(-3), "-3"},
		{"print", F(2), "2"},
		{"print", B(true), "true"},
		{"print", Strs("a", ""), `["a", ""]`},
		{"println", S("x"), "x\n"},
		{"println", F(0.1), "0.10000000000000001\n"},
		{"println", value.Some(S("s")), "Some(\"s\")\n"},
		{"println", user("Ada", 36), "User(name: \"Ada\", age: 36)\n"},
	}
	for _, tc := range cases {
		n, _ := Lookup(tc.name)
		ctx := &testCtx{}
		res, f := n.Call(ctx, []value.Value{tc.arg})
		if f != nil || res.Kind() != value.KUnit {
			t.Errorf("%s(%s) = %v, %v; want unit", tc.name, Show(tc.arg), res, f)
		}
		if got := ctx.out.String(); got != tc.want {
			t.Errorf("%s(%s) wrote %q, want %q", tc.name, Show(tc.arg), got, tc.want)
		}
	}
	got, f := call(t, "show", S("a\nb"))
	if f != nil || got.AsString() != `"a\nb"` {
		t.Errorf("show(\"a\\nb\") = %q, %v", got.AsString(), f)
	}
	got, _ = call(t, "show", F(3.14))
	if got.AsString() != "3.1400000000000001" {
		t.Errorf("show(3.14) = %q", got.AsString())
	}
}

// TestCallRejectsBadArguments checks that malformed calls (only possible
// from hand-made bytecode) become internal faults, never panics.
func TestCallRejectsBadArguments(t *testing.T) {
	bad := []struct {
		name string
		args []value.Value
	}{
		{"List.len", nil},
		{"List.len", []value.Value{I(1)}},
		{"List.get", []value.Value{Ints(1), S("0")}},
		{"String.len", []value.Value{I(1)}},
		{"String.join", []value.Value{Ints(1, 2), S(",")}},
		{"List.sum", []value.Value{Strs("a")}},
		{"Option.is_some", []value.Value{I(1)}},
		{"Option.unwrap_or", []value.Value{value.NewData(value.OptionType, value.TagSome), I(1)}},
		{"print", []value.Value{I(1), I(2)}},
	}
	for _, tc := range bad {
		n, _ := Lookup(tc.name)
		_, f := n.Call(&testCtx{}, tc.args)
		if f == nil || !f.Internal {
			t.Errorf("%s with bad arguments: fault %v, want an internal fault", tc.name, f)
		}
	}
}
