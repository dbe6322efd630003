package core

import (
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Long natives (docs/architecture.md#long-natives). The builtin registry
// marks the natives whose work grows without bound with their arguments
// (builtins.Long); from native.OffloadMin on, a call runs off the
// schedulers (native.Native.CallWork). A long native is measured by its
// arguments' top level (native.Length: elements, entries, text) unless
// measures gives its own measure here, for the natives that walk their
// arguments' contents (native.Logical) and those whose work an Int or
// the state of a list decides. register sets them; stdlib.Build gives
// the other long natives native.Length and refuses a measure on a
// native the registry does not mark. (eprint and eprintln, in
// stdlib/sys, are measured as print.)
var measures = map[string]func(args []value.Value) int64{
	// Rendering, comparing and sorting walk the values' contents.
	"print":            native.Logical,
	"println":          native.Logical,
	"show":             native.Logical,
	"eq":               native.Logical,
	"compare":          native.Logical,
	"List.contains":    native.Logical,
	"List.sort":        native.Logical,
	"List.max":         native.Logical,
	"List.min":         native.Logical,
	"String.join":      native.Logical,
	"Test.equal":       native.Logical,
	"Test.not_equal":   native.Logical,
	"Test.is_ok":       native.Logical,
	"Test.is_err":      native.Logical,
	"Test.is_some":     native.Logical,
	"Test.is_none":     native.Logical,
	"Set.equal":        native.Logical,
	"List.range":       rangeMeasure,
	"String.repeat":    repeatMeasure,
	"String.pad_left":  padMeasure,
	"String.pad_right": padMeasure,
	"List.push":        pushMeasure,
	"List.concat":      concatMeasure,
	"List.take":        windowMeasure,
	"List.drop":        windowMeasure,
	// Union and merge put the right side's entries into the left.
	"Set.union": mergeMeasure,
	"Map.merge": mergeMeasure,
	// Intersection, difference and subset visit the left side.
	"Set.intersection": leftMeasure,
	"Set.difference":   leftMeasure,
	"Set.is_subset":    leftMeasure,
}

// rangeMeasure is List.range's: the number of Ints it builds.
func rangeMeasure(a []value.Value) int64 {
	lo, hi := a[0].AsInt(), a[1].AsInt()
	if hi <= lo {
		return 0
	}
	return int64(min(uint64(hi)-uint64(lo), uint64(value.SizeCap)))
}

// repeatMeasure is String.repeat's: the text it builds, in slots.
func repeatMeasure(a []value.Value) int64 {
	n, count := int64(len(a[0].AsString())), a[1].AsInt()
	if n == 0 || count <= 0 {
		return 0
	}
	if count > value.SizeCap/n {
		return value.SizeCap / value.SlotSize
	}
	return n * count / value.SlotSize
}

// padMeasure is String.pad_left's and pad_right's: the text and the
// width it widens it to (one slot per value.SlotSize code points).
func padMeasure(a []value.Value) int64 {
	return native.Length(a[:1]) + max(a[1].AsInt(), 0)/value.SlotSize
}

// pushMeasure is List.push's: one element, plus the list's when it is
// copied rather than extended in place (value.List.AppendsInPlace).
func pushMeasure(a []value.Value) int64 { return appendMeasure(listOf(a[0]), 1) }

// concatMeasure is List.concat's: the second list's elements, plus the
// first's when they are copied; nothing when either is empty (the other
// is the answer).
func concatMeasure(a []value.Value) int64 {
	xs, m := listOf(a[0]), len(listOf(a[1]).Items)
	if m == 0 || len(xs.Items) == 0 {
		return 0
	}
	return appendMeasure(xs, m)
}

// appendMeasure is the work of appending m elements to xs.
func appendMeasure(xs *value.List, m int) int64 {
	if xs.AppendsInPlace(m) {
		return int64(m)
	}
	return int64(len(xs.Items) + m)
}

// windowMeasure is List.take's and List.drop's: a window on the list
// whose size is computed from the shorter side (value.List.Take, Drop),
// so List.drop(xs, 1) costs one element whatever the list's length.
func windowMeasure(a []value.Value) int64 {
	n := len(listOf(a[0]).Items)
	c := clampCount(a[1].AsInt(), n)
	return int64(min(c, n-c))
}

// mergeMeasure is the right side's entries (none when the left is empty:
// the right is the answer).
func mergeMeasure(a []value.Value) int64 {
	if a[0].AsMap().Len() == 0 {
		return 0
	}
	return int64(a[1].AsMap().Len())
}

// leftMeasure is the left side's entries.
func leftMeasure(a []value.Value) int64 { return native.Length(a[:1]) }
