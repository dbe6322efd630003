package core

import (
	"slices"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// listOf returns the list behind v (an empty one for a malformed value,
// which only hand-made bytecode produces).
func listOf(v value.Value) *value.List {
	if l, _ := v.List(); l != nil {
		return l
	}
	return emptyList.AsList()
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

func ok(v value.Value) (value.Value, *fault.Fault) { return v, nil }

func init() {
	L, I, A := value.KList, value.KInt, native.KAny
	register(
		fn("List.head", kinds(L), listHead),
		fn("List.get", kinds(L, I), listGet),
		fn("List.tail", kinds(L), listTail),
		fn("List.len", kinds(L), listLen),
		fn("List.is_empty", kinds(L), listIsEmpty),
		fn("List.first", kinds(L), listFirst),
		fn("List.last", kinds(L), listLast),
		fn("List.at", kinds(L, I), listAt),
		fn("List.push", kinds(L, A), listPush),
		fn("List.concat", kinds(L, L), listConcat),
		fn("List.reverse", kinds(L), listReverse),
		fn("List.take", kinds(L, I), listTake),
		fn("List.drop", kinds(L, I), listDrop),
		fn("List.range", kinds(I, I), listRange),
		fn("List.zip", kinds(L, L), listZip),
		fnWork("List.contains", kinds(L, A), listContains),
		fn("List.sum", kinds(L), listSum),
		fnWork("List.sort", kinds(L), listSort),
		fn("List.enumerate", kinds(L), listEnumerate),
	)
}

// listHead is the native List.head.
func listHead(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listItems(a[0])
	if len(xs) == 0 {
		return value.Unit, fault.New(fault.EmptyHead)
	}
	return ok(xs[0])
}

// listGet is the native List.get.
func listGet(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs, i := listItems(a[0]), a[1].AsInt()
	if i < 0 || i >= int64(len(xs)) {
		return value.Unit, fault.New(fault.Index)
	}
	return ok(xs[i])
}

// listTail is the native List.tail.
func listTail(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listOf(a[0])
	if len(xs.Items) == 0 {
		return ok(emptyList)
	}
	return ok(xs.Drop(1))
}

// listLen is the native List.len.
func listLen(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	return ok(value.Int(int64(len(listItems(a[0])))))
}

// listIsEmpty is the native List.is_empty.
func listIsEmpty(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	return ok(value.Bool(len(listItems(a[0])) == 0))
}

// listFirst is the native List.first.
func listFirst(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listItems(a[0])
	if len(xs) == 0 {
		return ok(value.None())
	}
	return ok(value.Some(xs[0]))
}

// listLast is the native List.last.
func listLast(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listItems(a[0])
	if len(xs) == 0 {
		return ok(value.None())
	}
	return ok(value.Some(xs[len(xs)-1]))
}

// listAt is the native List.at.
func listAt(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs, i := listItems(a[0]), a[1].AsInt()
	if i < 0 || i >= int64(len(xs)) {
		return ok(value.None())
	}
	return ok(value.Some(xs[i]))
}

// listPush is the native List.push.
func listPush(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listOf(a[0])
	if len(xs.Items) >= listLimit {
		return value.Unit, fault.New(fault.ListSize)
	}
	return ok(xs.Append(a[1]))
}

// listConcat is the native List.concat.
func listConcat(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs, ys := listOf(a[0]), listOf(a[1])
	if len(xs.Items)+len(ys.Items) > listLimit {
		return value.Unit, fault.New(fault.ListSize)
	}
	switch {
	case len(ys.Items) == 0:
		return ok(a[0])
	case len(xs.Items) == 0:
		return ok(a[1])
	}
	return ok(xs.Append(ys.Items...))
}

// listReverse is the native List.reverse.
func listReverse(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listItems(a[0])
	out := make([]value.Value, len(xs))
	for i, x := range xs {
		out[len(xs)-1-i] = x
	}
	return ok(value.NewList(out))
}

// listTake is the native List.take.
func listTake(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listOf(a[0])
	return ok(xs.Take(clampCount(a[1].AsInt(), len(xs.Items))))
}

// listDrop is the native List.drop.
func listDrop(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listOf(a[0])
	return ok(xs.Drop(clampCount(a[1].AsInt(), len(xs.Items))))
}

// listRange is the native List.range.
func listRange(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	lo, hi := a[0].AsInt(), a[1].AsInt()
	if hi <= lo {
		return ok(emptyList)
	}
	count := uint64(hi) - uint64(lo) // exact: hi > lo
	if count > uint64(listLimit) {
		return value.Unit, fault.New(fault.ListSize)
	}
	out := make([]value.Value, count)
	for i := range out {
		out[i] = value.Int(lo + int64(i))
	}
	return ok(value.NewList(out))
}

// listZip is the native List.zip.
func listZip(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs, ys := listItems(a[0]), listItems(a[1])
	n := min(len(xs), len(ys))
	if n > listLimit {
		return value.Unit, fault.New(fault.ListSize)
	}
	out := make([]value.Value, n)
	for i := range out {
		out[i] = value.NewTuple(xs[i], ys[i])
	}
	return ok(value.NewList(out))
}

// listContains is the native List.contains.
func listContains(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
	found, work := ContainsWork(a[0], a[1])
	return value.Bool(found), nil, work
}

// listSum is the native List.sum.
func listSum(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	var sum int64
	for _, x := range listItems(a[0]) {
		if x.Kind() != value.KInt {
			return value.Unit, fault.Internalf("List.sum element: expected Int, found %s", x.Kind())
		}
		sum += x.AsInt() // wraps on overflow, as Int + does
	}
	return ok(value.Int(sum))
}

// listSort is the native List.sort.
func listSort(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
	v, work := sortItems(listItems(a[0]))
	return v, nil, work
}

// listEnumerate is the native List.enumerate.
func listEnumerate(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
	xs := listItems(a[0])
	out := make([]value.Value, len(xs))
	for i, x := range xs {
		out[i] = value.NewTuple(value.Int(int64(i)), x)
	}
	return ok(value.NewList(out))
}

// Contains reports whether x is an element of the list xs by Equal; it is
// List.contains and the `in` operator on lists. Floats compare with IEEE
// `==`, so a NaN is never found and 0.0 finds -0.0.
func Contains(xs, x value.Value) bool {
	found, _ := ContainsWork(xs, x)
	return found
}

// ContainsWork is Contains that also reports its work (element pairs
// visited by the comparisons, at least one per element).
func ContainsWork(xs, x value.Value) (bool, int64) {
	work := int64(0)
	for _, y := range listItems(xs) {
		eq, w := EqualWork(y, x)
		work += w
		if eq {
			return true, work
		}
	}
	return false, work
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

// sortItems is List.sort: a stable sort of a copy of xs, and its work
// (the elements, plus the element pairs visited by the comparisons).
func sortItems(xs []value.Value) (value.Value, int64) {
	out := slices.Clone(xs)
	work := int64(len(out))
	slices.SortStableFunc(out, func(x, y value.Value) int {
		c, w := CompareWork(x, y)
		work += w
		return c
	})
	return value.NewList(out), work
}
