package core

// Natives beyond docs/stdlib.md that a first program needs: Int/Float
// conversions, rounding, List.max/List.min and string padding. The
// decisions (saturation, tie-breaking, what a width counts) are in
// docs/stdlib.md.

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// twoTo63 is 2^63 as a float: the first float above Int.max.
const twoTo63 = 9223372036854775808.0

// FloatToInt is Float.to_int: the value truncated toward zero, saturated
// at Int.min and Int.max (the infinities and finite values outside the
// Int range give the nearer bound), and 0 for NaN, as Rust's `as i64`
// does. It never faults.
func FloatToInt(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= twoTo63:
		return math.MaxInt64
	case f < -twoTo63:
		return math.MinInt64
	}
	return int64(f)
}

// RoundFloat is Float.round: the nearest Int, halves away from zero
// (2.5 -> 3, -2.5 -> -3), saturated like FloatToInt.
func RoundFloat(f float64) int64 { return FloatToInt(math.Round(f)) }

// Pad is String.pad_left (left) and String.pad_right: text widened to at
// least width Unicode code points by repeating pad (cut after the last
// code point that fits) before or after it. A text already that wide, or
// an empty pad, comes back unchanged; a result over 16 MiB is fault 5.
func Pad(text string, width int64, pad string, left bool) (string, *fault.Fault) {
	have := int64(utf8.RuneCountInString(text))
	if width <= have || pad == "" {
		return text, nil
	}
	need := width - have
	if need > MaxStringBytes {
		return "", fault.New(fault.StringSize)
	}
	padRunes := int64(utf8.RuneCountInString(pad))
	full, rest := need/padRunes, need%padRunes
	cut := 0
	for i := int64(0); i < rest; i++ {
		_, size := utf8.DecodeRuneInString(pad[cut:])
		cut += size
	}
	size := full*int64(len(pad)) + int64(cut) + int64(len(text))
	if size > MaxStringBytes {
		return "", fault.New(fault.StringSize)
	}
	var b strings.Builder
	b.Grow(int(size))
	if !left {
		b.WriteString(text)
	}
	for i := int64(0); i < full; i++ {
		b.WriteString(pad)
	}
	b.WriteString(pad[:cut])
	if left {
		b.WriteString(text)
	}
	return b.String(), nil
}

// extreme returns the first element of xs that no other element is
// greater than (want = 1) or less than (want = -1), in the order of
// Compare (the order List.sort uses), or None for an empty list.
func extreme(xs []value.Value, want int) value.Value {
	if len(xs) == 0 {
		return value.None()
	}
	best := xs[0]
	for _, x := range xs[1:] {
		if Compare(x, best)*want > 0 {
			best = x
		}
	}
	return value.Some(best)
}

func init() {
	I, F, S, L := value.KInt, value.KFloat, value.KString, value.KList
	toFloat := func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return ok(value.Float(float64(a[0].AsInt())))
	}
	register(
		fn("Int.to_float", kinds(I), toFloat),
		fn("Float.from_int", kinds(I), toFloat),
		fn("Float.to_int", kinds(F), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(FloatToInt(a[0].AsFloat())))
		}),
		fn("Float.round", kinds(F), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(RoundFloat(a[0].AsFloat())))
		}),
		fn("List.max", kinds(L), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(extreme(listItems(a[0]), 1))
		}),
		fn("List.min", kinds(L), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(extreme(listItems(a[0]), -1))
		}),
		fn("String.pad_left", kinds(S, I, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, f := Pad(str(a[0]), a[1].AsInt(), str(a[2]), true)
			return value.String(s), f
		}),
		fn("String.pad_right", kinds(S, I, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s, f := Pad(str(a[0]), a[1].AsInt(), str(a[2]), false)
			return value.String(s), f
		}),
	)
}
