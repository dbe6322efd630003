package core

import (
	"io"
	"math"
	"strconv"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// ParseInt is Int.parse: exactly `[+-]?[0-9]+` (ASCII digits) within the
// i64 range; anything else, including whitespace, `_`, `0x`, exponents and
// overflow, is not a number.
func ParseInt(s string) (int64, bool) {
	digits := s
	if digits != "" && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	if !IsDecimal(digits) {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// CheckedAdd returns a+b and whether it did not overflow.
func CheckedAdd(a, b int64) (int64, bool) {
	r := a + b
	return r, (r > a) == (b > 0)
}

// CheckedSub returns a-b and whether it did not overflow.
func CheckedSub(a, b int64) (int64, bool) {
	r := a - b
	return r, (r < a) == (b > 0)
}

// CheckedMul returns a*b and whether it did not overflow.
func CheckedMul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || r/b != a {
		return r, false
	}
	return r, true
}

// CheckedDiv returns a/b truncated toward zero, failing for a zero divisor
// and for Int.min / -1.
func CheckedDiv(a, b int64) (int64, bool) {
	if b == 0 || (a == math.MinInt64 && b == -1) {
		return 0, false
	}
	return a / b, true
}

// CheckedRem returns a%b with the dividend's sign, failing for a zero
// divisor and for Int.min % -1.
func CheckedRem(a, b int64) (int64, bool) {
	if b == 0 || (a == math.MinInt64 && b == -1) {
		return 0, false
	}
	return a % b, true
}

func optInt(n int64, good bool) value.Value {
	if !good {
		return value.None()
	}
	return value.Some(value.Int(n))
}

// dataTag returns the variant tag of an Option or Result value.
func dataTag(v value.Value) (int, *fault.Fault) {
	d, _ := v.Data()
	if d == nil {
		return 0, fault.Internalf("expected an Option or Result value")
	}
	return d.Tag, nil
}

// payload returns the single field of Some/Ok/Err.
func payload(v value.Value) value.Value {
	d := v.AsData()
	return d.Fields[0]
}

func checked(name string, op func(a, b int64) (int64, bool)) *native.Native {
	return fn(name, kinds(value.KInt, value.KInt), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return ok(optInt(op(a[0].AsInt(), a[1].AsInt())))
	})
}

// tagIs builds a Bool-returning predicate on an Option or Result tag.
func tagIs(name string, tag int) *native.Native {
	return fn(name, kinds(value.KData), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		t, f := dataTag(a[0])
		if f != nil {
			return value.Unit, f
		}
		return ok(value.Bool(t == tag))
	})
}

// unwrapOr builds Option.unwrap_or / Result.unwrap_or: the payload when the
// tag is good, else the fallback.
func unwrapOr(name string, good int) *native.Native {
	return fn(name, kinds(value.KData, native.KAny), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		t, f := dataTag(a[0])
		if f != nil {
			return value.Unit, f
		}
		if t == good {
			return ok(payload(a[0]))
		}
		return ok(a[1])
	})
}

func init() {
	A := native.KAny
	register(
		fnWork("print", kinds(A), func(ctx native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, f := RenderDisplay(a[0])
			if f != nil {
				return value.Unit, f, MaxStringBytes / renderBytesPerWork
			}
			_, _ = io.WriteString(ctx.Stdout(), s)
			return value.Unit, nil, int64(len(s) / renderBytesPerWork)
		}),
		fnWork("println", kinds(A), func(ctx native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, f := RenderDisplay(a[0])
			if f != nil {
				return value.Unit, f, MaxStringBytes / renderBytesPerWork
			}
			_, _ = io.WriteString(ctx.Stdout(), s+"\n")
			return value.Unit, nil, int64(len(s) / renderBytesPerWork)
		}),
		fnWork("show", kinds(A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, f := RenderShow(a[0])
			if f != nil {
				return value.Unit, f, MaxStringBytes / renderBytesPerWork
			}
			return value.String(s), nil, int64(len(s) / renderBytesPerWork)
		}),
		fnWork("eq", kinds(A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			eq, work := EqualWork(a[0], a[1])
			return value.Bool(eq), nil, work
		}),
		fnWork("compare", kinds(A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			c, work := CompareWork(a[0], a[1])
			return Ordering(c), nil, work
		}),

		fn("Int.parse", kinds(value.KString), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(optInt(ParseInt(a[0].AsString())))
		}),
		checked("Int.checked_add", CheckedAdd),
		checked("Int.checked_sub", CheckedSub),
		checked("Int.checked_mul", CheckedMul),
		checked("Int.checked_div", CheckedDiv),
		checked("Int.checked_rem", CheckedRem),
		fn("Int.checked_neg", kinds(value.KInt), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(optInt(-a[0].AsInt(), a[0].AsInt() != math.MinInt64))
		}),

		tagIs("Option.is_some", value.TagSome),
		tagIs("Option.is_none", value.TagNone),
		unwrapOr("Option.unwrap_or", value.TagSome),
		tagIs("Result.is_ok", value.TagOk),
		tagIs("Result.is_err", value.TagErr),
		unwrapOr("Result.unwrap_or", value.TagOk),
	)
}
