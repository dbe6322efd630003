package vm

import (
	"cmp"
	"math"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// arith implements the binary arithmetic and bitwise opcodes on their
// dynamically tagged operands (docs/reference/syntax.md#operators): Int arithmetic wraps,
// `/` truncates toward zero, `%` takes the dividend's sign, Int.min / -1
// wraps to Int.min (Go defines exactly that), division by zero is fault 1,
// a negative Int exponent fault 2, shift counts are masked with & 63;
// Float follows IEEE-754; `+` concatenates Strings (fault 5 past 16 MiB).
func arith(op bytecode.Opcode, x, y value.Value) (value.Value, *fault.Fault) {
	if x.Kind() != y.Kind() {
		return value.Unit, internalFault("%s of %s and %s", op, x.Kind(), y.Kind())
	}
	switch x.Kind() {
	case value.KInt:
		a, b := x.AsInt(), y.AsInt()
		if r, ok := ringOp(op, a, b); ok {
			return value.Int(r), nil
		}
		switch op {
		case bytecode.DIV:
			if b == 0 {
				return value.Unit, fault.New(fault.DivZero)
			}
			return value.Int(a / b), nil
		case bytecode.MOD:
			if b == 0 {
				return value.Unit, fault.New(fault.DivZero)
			}
			return value.Int(a % b), nil
		case bytecode.POW:
			if b < 0 {
				return value.Unit, fault.New(fault.NegExp)
			}
			return value.Int(ipow(a, b)), nil
		case bytecode.BITAND:
			return value.Int(a & b), nil
		case bytecode.BITOR:
			return value.Int(a | b), nil
		case bytecode.BITXOR:
			return value.Int(a ^ b), nil
		case bytecode.SHL:
			return value.Int(a << (uint64(b) & 63)), nil
		case bytecode.SHR:
			return value.Int(a >> (uint64(b) & 63)), nil
		}
	case value.KFloat:
		a, b := x.AsFloat(), y.AsFloat()
		if r, ok := ringOp(op, a, b); ok {
			return value.Float(r), nil
		}
		switch op {
		case bytecode.DIV:
			return value.Float(a / b), nil
		case bytecode.POW:
			return value.Float(math.Pow(a, b)), nil
		}
	case value.KString:
		if op == bytecode.ADD {
			a, b := x.AsString(), y.AsString()
			if len(a)+len(b) > core.MaxStringBytes {
				return value.Unit, fault.New(fault.StringSize)
			}
			return value.String(a + b), nil
		}
	}
	return value.Unit, internalFault("%s of %s values", op, x.Kind())
}

// ringOp applies ADD, SUB or MUL, the operators Int and Float share
// (Int wrapping, Float by IEEE-754); ok is false for any other op.
func ringOp[T int64 | float64](op bytecode.Opcode, a, b T) (r T, ok bool) {
	switch op {
	case bytecode.ADD:
		return a + b, true
	case bytecode.SUB:
		return a - b, true
	case bytecode.MUL:
		return a * b, true
	}
	return 0, false
}

// ipow is wrapping integer exponentiation by squaring; b >= 0.
func ipow(a, b int64) int64 {
	r := int64(1)
	for b > 0 {
		if b&1 == 1 {
			r *= a
		}
		a *= a
		b >>= 1
	}
	return r
}

// equal is `==`: a fast path for scalars, core.EqualWork (structural,
// linear in the distinct nodes of shared values) for the rest. It also
// returns the steps to charge for the comparison beyond the instruction's
// own (one per element pair visited; docs/reference/runtime.md#execution-model).
func equal(x, y value.Value) (bool, int) {
	if x.Kind() != y.Kind() {
		return false, 0
	}
	switch x.Kind() {
	case value.KInt, value.KBool:
		return x.AsInt() == y.AsInt(), 0
	case value.KString:
		return x.AsString() == y.AsString(), 0
	}
	eq, work := core.EqualWork(x, y)
	return eq, int(min(work, maxCharge))
}

// maxCharge bounds the steps one instruction charges (a budget is far
// smaller, so this only keeps the arithmetic in range).
const maxCharge = 1 << 30

// order implements < <= > >= on Floats and Strings (Ints take the fast
// path in the loop). Comparisons with NaN are false, as IEEE says.
func order(op bytecode.Opcode, x, y value.Value) (bool, *fault.Fault) {
	if x.Kind() != y.Kind() {
		return false, internalFault("%s of %s and %s", op, x.Kind(), y.Kind())
	}
	switch x.Kind() {
	case value.KInt:
		return compareOrdered(op, x.AsInt(), y.AsInt()), nil
	case value.KFloat:
		return compareOrdered(op, x.AsFloat(), y.AsFloat()), nil
	case value.KString:
		return compareOrdered(op, x.AsString(), y.AsString()), nil
	}
	return false, internalFault("%s of %s values", op, x.Kind())
}

// compareOrdered applies the ordering op (LT, LE, GT, otherwise GE) to
// a and b with Go's operators, so a NaN operand makes every comparison
// false.
func compareOrdered[T cmp.Ordered](op bytecode.Opcode, a, b T) bool {
	switch op {
	case bytecode.LT:
		return a < b
	case bytecode.LE:
		return a <= b
	case bytecode.GT:
		return a > b
	}
	return a >= b
}

// member is `x in xs` for a List (by ==), a Set or an Int Range, with the steps
// to charge as for equal.
func member(x, xs value.Value) (bool, int, *fault.Fault) {
	switch xs.Kind() {
	case value.KList:
		found, work := core.ContainsWork(xs, x)
		return found, int(min(work, maxCharge)), nil
	case value.KSet:
		return xs.AsMap().Has(x), 1, nil
	case value.KRange:
		c := xs.AsRange()
		if x.Kind() != value.KInt {
			return false, 0, internalFault("IN of a %s value in a Range", x.Kind())
		}
		if c.Inclusive {
			return c.Lo <= x.AsInt() && x.AsInt() <= c.Hi, 0, nil
		}
		return c.Lo <= x.AsInt() && x.AsInt() < c.Hi, 0, nil
	}
	return false, 0, internalFault("IN on a %s value", xs.Kind())
}

// elem is ELEM: tuple element i or positional field i of a data value.
func elem(x value.Value, i int) (value.Value, *fault.Fault) {
	switch x.Kind() {
	case value.KTuple:
		if c := x.AsTuple(); i < len(c.Elems) {
			return c.Elems[i], nil
		}
	case value.KData:
		if c := x.AsData(); i < len(c.Fields) {
			return c.Fields[i], nil
		}
	}
	return value.Unit, internalFault("ELEM %d of a %s value", i, x.Kind())
}

// fieldIndex finds a named field of a data value's variant.
func fieldIndex(d *value.Data, name string) int {
	if d.Type == nil || d.Tag < 0 || d.Tag >= len(d.Type.Variants) {
		return -1
	}
	for i, f := range d.Type.Variants[d.Tag].Fields {
		if f == name && i < len(d.Fields) {
			return i
		}
	}
	return -1
}

// field is FIELD: the field called name of a record value.
func field(x value.Value, name string) (value.Value, *fault.Fault) {
	if d, ok := x.Data(); ok {
		if i := fieldIndex(d, name); i >= 0 {
			return d.Fields[i], nil
		}
	}
	return value.Unit, internalFault("no field %q in a %s value", name, x.Kind())
}

// update is UPDATE: a copy of record r with field name set to v.
func update(r value.Value, name string, v value.Value) (value.Value, *fault.Fault) {
	if d, ok := r.Data(); ok {
		if i := fieldIndex(d, name); i >= 0 {
			fields := make([]value.Value, len(d.Fields))
			copy(fields, d.Fields)
			fields[i] = v
			return value.NewData(d.Type, d.Tag, fields...), nil
		}
	}
	return value.Unit, internalFault("no field %q to update in a %s value", name, r.Kind())
}

// iter is the state of a `for` loop (a value.KIter value); it never
// escapes its frame, so ITER_NEXT advances it in place.
type iter struct {
	h       value.Handle // the iterator as a KIter value
	items   []value.Value
	i       int
	isRange bool
	next_   int64 // next Int of a range
	hi      int64
	incl    bool
	done    bool
}

func newIter(x value.Value) (*iter, *fault.Fault) {
	switch x.Kind() {
	case value.KList:
		return &iter{items: x.AsList().Items}, nil
	case value.KMap:
		// The entries as (key, value) tuples, in insertion order.
		return &iter{items: x.AsMap().Pairs()}, nil
	case value.KSet:
		return &iter{items: x.AsMap().Keys()}, nil
	case value.KRange:
		c := x.AsRange()
		it := &iter{isRange: true, next_: c.Lo, hi: c.Hi, incl: c.Inclusive}
		if c.Lo > c.Hi || (!c.Inclusive && c.Lo == c.Hi) {
			it.done = true
		}
		return it, nil
	}
	return nil, internalFault("cannot iterate over a %s value", x.Kind())
}

// value returns the iterator as a value.
func (it *iter) value() value.Value {
	it.h.Init(value.KIter, it)
	return it.h.Value(0)
}

// next returns the next item, or false when the iteration is over.
func (it *iter) next() (value.Value, bool) {
	if !it.isRange {
		if it.i >= len(it.items) {
			return value.Unit, false
		}
		v := it.items[it.i]
		it.i++
		return v, true
	}
	if it.done {
		return value.Unit, false
	}
	v := it.next_
	last := it.hi
	if !it.incl {
		last = it.hi - 1
	}
	if v >= last {
		it.done = true
	} else {
		it.next_++
	}
	return value.Int(v), true
}

// interp is INTERP: the display text of each value, concatenated; fault 5
// when it would exceed 16 MiB. Rendering stops at the limit, so a value
// with an astronomically long text (a shared value) costs bounded work.
// It also returns the steps to charge (one per 16 bytes built).
func interp(vs []value.Value) (string, int, *fault.Fault) {
	var b strings.Builder
	for _, v := range vs {
		if !core.WriteDisplay(&b, v, core.MaxStringBytes) {
			return "", core.MaxStringBytes / 16, fault.New(fault.StringSize)
		}
	}
	return b.String(), b.Len() / 16, nil
}
