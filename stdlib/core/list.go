package core

import (
	"slices"

	"github.com/morrow-lang/morrow/runtime/value"
)

// spareMark marks unused capacity of a list built by List.push or
// List.concat. It is never visible to a program: slots holding it lie
// beyond every list's length.
type spareMark struct{ _ byte }

var spare = &spareMark{}

var spareVal = value.Value{K: value.KOpaque, R: spare}

func isSpare(v value.Value) bool { return v.K == value.KOpaque && v.R == any(spare) }

// appendValues returns a new list holding items followed by extra, without
// changing any existing list.
//
// Invariant: in a backing array made here, the slots after the last one
// claimed hold the spare sentinel, and spare slots form a suffix of the
// array (every list sharing the array ends at a claimed slot or, for
// List.take, has its capacity cut). So if slot len(items) is spare, the
// new elements can be written in place: no existing list can see them.
// Otherwise (another list already claimed that slot, or the array did not
// come from here) the elements are copied into a new array with doubled
// capacity. This makes repeated push amortised O(1).
func appendValues(items []value.Value, extra ...value.Value) value.Value {
	n, m := len(items), len(extra)
	if m == 0 {
		return value.NewList(items)
	}
	if n+m <= cap(items) {
		ext := items[:n+m]
		free := true
		for _, v := range ext[n:] {
			if !isSpare(v) {
				free = false
				break
			}
		}
		if free {
			copy(ext[n:], extra)
			return value.NewList(ext)
		}
	}
	c := 2 * (n + m)
	if c < 4 {
		c = 4
	}
	buf := make([]value.Value, c)
	copy(buf, items)
	copy(buf[n:], extra)
	for i := n + m; i < c; i++ {
		buf[i] = spareVal
	}
	return value.NewList(buf[:n+m])
}

// exactList returns a list with exactly the given items and no spare
// capacity, so a later push always copies.
func exactList(items []value.Value) value.Value {
	return value.NewList(items[:len(items):len(items)])
}

var emptyList = value.NewList(nil)

// listLimit is MaxListLen; tests lower it to exercise the limit cheaply.
var listLimit = MaxListLen

var (
	orderLess    = value.NewData(value.OrderingType, 0)
	orderEqual   = value.NewData(value.OrderingType, 1)
	orderGreater = value.NewData(value.OrderingType, 2)
)

// Ordering returns the prelude Ordering value (Less, Equal, Greater) for a
// comparison result -1, 0 or 1.
func Ordering(c int) value.Value {
	switch {
	case c < 0:
		return orderLess
	case c > 0:
		return orderGreater
	}
	return orderEqual
}

func ok(v value.Value) (value.Value, *Fault) { return v, nil }

func init() {
	L, I, A := value.KList, value.KInt, KAny
	register(
		fn("List.head", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			if len(xs) == 0 {
				return value.Unit, NewFault(FaultEmptyHead)
			}
			return ok(xs[0])
		}),
		fn("List.get", kinds(L, I), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs, i := listItems(a[0]), a[1].N
			if i < 0 || i >= int64(len(xs)) {
				return value.Unit, NewFault(FaultIndex)
			}
			return ok(xs[i])
		}),
		fn("List.tail", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			if len(xs) == 0 {
				return ok(emptyList)
			}
			return ok(value.NewList(xs[1:]))
		}),
		fn("List.len", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			return ok(value.Int(int64(len(listItems(a[0])))))
		}),
		fn("List.is_empty", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			return ok(value.Bool(len(listItems(a[0])) == 0))
		}),
		fn("List.first", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			if len(xs) == 0 {
				return ok(value.None())
			}
			return ok(value.Some(xs[0]))
		}),
		fn("List.last", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			if len(xs) == 0 {
				return ok(value.None())
			}
			return ok(value.Some(xs[len(xs)-1]))
		}),
		fn("List.at", kinds(L, I), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs, i := listItems(a[0]), a[1].N
			if i < 0 || i >= int64(len(xs)) {
				return ok(value.None())
			}
			return ok(value.Some(xs[i]))
		}),
		fn("List.push", kinds(L, A), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			return ok(appendValues(listItems(a[0]), a[1]))
		}),
		fn("List.concat", kinds(L, L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs, ys := listItems(a[0]), listItems(a[1])
			if len(ys) == 0 {
				return ok(value.NewList(xs))
			}
			if len(xs) == 0 {
				return ok(value.NewList(ys))
			}
			return ok(appendValues(xs, ys...))
		}),
		fn("List.reverse", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			out := make([]value.Value, len(xs))
			for i, x := range xs {
				out[len(xs)-1-i] = x
			}
			return ok(value.NewList(out))
		}),
		fn("List.take", kinds(L, I), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			n := clampCount(a[1].N, len(xs))
			return ok(exactList(xs[:n]))
		}),
		fn("List.drop", kinds(L, I), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			n := clampCount(a[1].N, len(xs))
			return ok(value.NewList(xs[n:]))
		}),
		fn("List.range", kinds(I, I), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			lo, hi := a[0].N, a[1].N
			if hi <= lo {
				return ok(emptyList)
			}
			count := uint64(hi) - uint64(lo) // exact: hi > lo
			if count > uint64(listLimit) {
				return value.Unit, NewFault(FaultListSize)
			}
			out := make([]value.Value, count)
			for i := range out {
				out[i] = value.Int(lo + int64(i))
			}
			return ok(value.NewList(out))
		}),
		fn("List.zip", kinds(L, L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs, ys := listItems(a[0]), listItems(a[1])
			n := min(len(xs), len(ys))
			if n > listLimit {
				return value.Unit, NewFault(FaultListSize)
			}
			out := make([]value.Value, n)
			for i := range out {
				out[i] = value.NewTuple(xs[i], ys[i])
			}
			return ok(value.NewList(out))
		}),
		fn("List.contains", kinds(L, A), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			return ok(value.Bool(Contains(a[0], a[1])))
		}),
		fn("List.sum", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			var sum int64
			for _, x := range listItems(a[0]) {
				if x.K != value.KInt {
					return value.Unit, internalf("List.sum element: expected Int, found %s", x.K)
				}
				sum += x.N // wraps on overflow, as Int + does
			}
			return ok(value.Int(sum))
		}),
		fn("List.sort", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			out := slices.Clone(listItems(a[0]))
			slices.SortStableFunc(out, Compare)
			return ok(value.NewList(out))
		}),
		fn("List.enumerate", kinds(L), func(_ Ctx, a []value.Value) (value.Value, *Fault) {
			xs := listItems(a[0])
			out := make([]value.Value, len(xs))
			for i, x := range xs {
				out[i] = value.NewTuple(value.Int(int64(i)), x)
			}
			return ok(value.NewList(out))
		}),
	)
}

// Contains reports whether x is an element of the list xs by Equal; it is
// List.contains and the `in` operator on lists. Floats compare with IEEE
// `==`, so a NaN is never found and 0.0 finds -0.0.
func Contains(xs, x value.Value) bool {
	for _, y := range listItems(xs) {
		if Equal(y, x) {
			return true
		}
	}
	return false
}

// clampCount clamps a take/drop count into 0..=n.
func clampCount(c int64, n int) int {
	switch {
	case c < 0:
		return 0
	case c > int64(n):
		return n
	}
	return int(c)
}
