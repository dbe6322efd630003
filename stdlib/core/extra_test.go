package core

import (
	"math"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

func TestFloatToIntAndRound(t *testing.T) {
	for _, tc := range []struct {
		f            float64
		trunc, round int64
	}{
		{2.7, 2, 3},
		{-2.7, -2, -3},
		{2.5, 2, 3},
		{-2.5, -2, -3},
		{0.49999999999999994, 0, 0},
		{-0.0, 0, 0},
		{math.NaN(), 0, 0},
		{math.Inf(1), math.MaxInt64, math.MaxInt64},
		{math.Inf(-1), math.MinInt64, math.MinInt64},
		{1e19, math.MaxInt64, math.MaxInt64},
		{-1e19, math.MinInt64, math.MinInt64},
		{-9223372036854775808.0, math.MinInt64, math.MinInt64},
		{9223372036854774784.0, 9223372036854774784, 9223372036854774784}, // the largest float below 2^63
	} {
		if got := FloatToInt(tc.f); got != tc.trunc {
			t.Errorf("FloatToInt(%v) = %d, want %d", tc.f, got, tc.trunc)
		}
		if got := RoundFloat(tc.f); got != tc.round {
			t.Errorf("RoundFloat(%v) = %d, want %d", tc.f, got, tc.round)
		}
	}
}

func TestPad(t *testing.T) {
	for _, tc := range []struct {
		text      string
		width     int64
		pad       string
		left, rgt string
	}{
		{"7", 3, "0", "007", "700"},
		{"abc", 2, "*", "abc", "abc"},
		{"ab", 7, "xyz", "xyzxyab", "abxyzxy"},
		{"日本", 4, "·", "··日本", "日本··"}, // code points, not bytes
		{"x", 3, "", "x", "x"},
		{"x", -5, "-", "x", "x"},
		{"", 2, "ab", "ab", "ab"},
	} {
		l, f := Pad(tc.text, tc.width, tc.pad, true)
		r, g := Pad(tc.text, tc.width, tc.pad, false)
		if f != nil || g != nil || l != tc.left || r != tc.rgt {
			t.Errorf("Pad(%q, %d, %q) = %q, %q (%v %v), want %q, %q", tc.text, tc.width, tc.pad, l, r, f, g, tc.left, tc.rgt)
		}
	}
	if _, f := Pad("x", math.MaxInt64, "ab", true); f == nil || f.Code != fault.StringSize {
		t.Errorf("a huge width must be fault 5, got %v", f)
	}
	if _, f := Pad("x", MaxStringBytes/2+1, "日", true); f == nil || f.Code != fault.StringSize {
		t.Errorf("a result over 16 MiB in bytes must be fault 5, got %v", f)
	}
	if s, f := Pad("", MaxStringBytes, "a", true); f != nil || len(s) != MaxStringBytes || strings.Trim(s, "a") != "" {
		t.Errorf("exactly 16 MiB is allowed: %d bytes, %v", len(s), f)
	}
}

func TestListMaxMin(t *testing.T) {
	I := value.Int
	pair := func(a, b int64) value.Value { return value.NewTuple(I(a), I(b)) }
	if got := Show(extreme(nil, 1)); got != "None" {
		t.Errorf("max of [] = %s", got)
	}
	xs := []value.Value{I(3), I(9), I(-2), I(9)}
	if got := Show(extreme(xs, 1)); got != "Some(9)" {
		t.Errorf("max = %s", got)
	}
	if got := Show(extreme(xs, -1)); got != "Some(-2)" {
		t.Errorf("min = %s", got)
	}
	// Ties keep the first of the equal elements; tuples compare
	// lexicographically.
	ps := []value.Value{pair(1, 5), pair(2, 0), pair(2, 0), pair(1, 9)}
	if got := extreme(ps, 1); !value.Same(got.AsData().Fields[0], ps[1]) {
		t.Errorf("max of equal elements must be the first one")
	}
	// Floats use the total order of List.sort: NaN above +inf.
	fs := []value.Value{value.Float(1), value.Float(math.NaN()), value.Float(math.Inf(1))}
	if got := Show(extreme(fs, 1)); got != "Some(nan)" {
		t.Errorf("max with NaN = %s", got)
	}
}
