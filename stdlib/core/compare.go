package core

import (
	"math"
	"reflect"
	"strings"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Equal is structural equality, the meaning of `==`, `in`, List.contains
// and derived Eq:
//   - Int, Bool, String (by bytes) and Unit by value;
//   - Float by IEEE `==`: NaN is unequal to everything, `-0.0 == 0.0`;
//   - tuples and lists element-wise with equal lengths;
//   - nominal data by type, variant tag and fields;
//   - ranges by bounds and inclusiveness;
//   - maps and sets as sets of entries, whatever their insertion order;
//   - Pid, ProcessId, MonitorRef and function values by identity.
//
// Values of different kinds are unequal (a checked program never compares
// them).
func Equal(a, b value.Value) bool {
	eq, _ := EqualWork(a, b)
	return eq
}

// memoMin is the logical size from which a pair of nodes found equal (or,
// for Compare, in order 0) is remembered, so that a value with internal
// sharing is compared in time proportional to its distinct nodes instead
// of its unfolding. Smaller nodes are cheaper to compare again than to
// look up.
const memoMin = 64 * value.SlotSize

// pairKey identifies a pair of compound nodes by their pointers.
type pairKey struct{ x, y any }

// seqFrame is one open pair of sequences of a walk over two values: the
// elements still to compare, and the node pair to remember once they are
// all done (memo set).
type seqFrame struct {
	xs, ys []value.Value
	next   int
	key    pairKey
	memo   bool
}

// EqualWork is Equal that also reports its work: the number of element
// pairs it visited, for the reductions a caller charges (docs/reference/runtime.md#execution-model).
//
// The walk keeps an explicit stack of open sequence pairs instead of
// recursing, so arbitrarily deep values cannot exhaust the Go stack; it
// grows with the depth of the values, not their width. Equal values have
// equal logical sizes (value.Value.Size), so a pair of nodes of different
// sizes is unequal without a look inside; a pair of large nodes found
// equal is remembered and never walked again, which makes comparing two
// shared values (DAGs) linear in their distinct nodes.
func EqualWork(a, b value.Value) (bool, int64) {
	if a.Kind() != b.Kind() {
		return false, 1
	}
	switch a.Kind() {
	case value.KInt, value.KBool, value.KFloat, value.KString:
		eq, _, _, _ := equalNode(a, b)
		return eq, 1
	}
	root := [2]value.Value{a, b}
	var buf [8]seqFrame
	stack := append(buf[:0], seqFrame{xs: root[:1], ys: root[1:]})
	var memo pairMemo
	work := int64(0)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.xs) {
			memo.done(f)
			stack = stack[:len(stack)-1]
			continue
		}
		a, b := f.xs[f.next], f.ys[f.next]
		f.next++
		work++
		if a.Kind() != b.Kind() {
			return false, work
		}
		eq, xs, ys, looked := equalNode(a, b)
		work += looked
		if !eq || len(xs) != len(ys) {
			return false, work
		}
		if len(xs) == 0 {
			continue
		}
		size := a.Size()
		if size != b.Size() {
			return false, work
		}
		if fr, open := memo.frame(a, b, xs, ys, size >= memoMin); open {
			stack = append(stack, fr)
		}
	}
	return true, work
}

// pairMemo is the set of large node pairs a walk has found equal (or in
// order 0); it is made on first use.
type pairMemo map[pairKey]struct{}

// done remembers the node pair of a finished frame, if it is marked.
func (m *pairMemo) done(f *seqFrame) {
	if !f.memo {
		return
	}
	if *m == nil {
		*m = pairMemo{}
	}
	(*m)[f.key] = struct{}{}
}

// frame returns the frame that compares the sequences xs and ys of nodes
// a and b, marked to be remembered when large; open is false when the
// pair is already known.
func (m pairMemo) frame(a, b value.Value, xs, ys []value.Value, large bool) (fr seqFrame, open bool) {
	fr = seqFrame{xs: xs, ys: ys}
	if large {
		fr.key, fr.memo = pairKey{a.Node(), b.Node()}, true
		if _, known := m[fr.key]; known {
			return fr, false
		}
	}
	return fr, true
}

// equalNode compares two values of the same kind without looking inside
// them: false when they differ there; for compound values it returns the
// element sequences still to compare (elements, fields, a map's values).
// work counts the map entries looked up.
func equalNode(a, b value.Value) (eq bool, xs, ys []value.Value, work int64) {
	switch a.Kind() {
	case value.KUnit:
		return true, nil, nil, 0
	case value.KInt, value.KBool:
		return a.AsInt() == b.AsInt(), nil, nil, 0
	case value.KFloat:
		return a.AsFloat() == b.AsFloat(), nil, nil, 0
	case value.KString:
		return a.AsString() == b.AsString(), nil, nil, 0
	case value.KTuple, value.KList:
		xs, ys = children(a, b)
		return true, xs, ys, 0
	case value.KData:
		eq, xs, ys = equalData(a, b)
		return eq, xs, ys, 0
	case value.KRange:
		x, _ := a.Range()
		y, _ := b.Range()
		return x == y || x != nil && y != nil && *x == *y, nil, nil, 0
	case value.KMap, value.KSet:
		return equalEntries(a.AsMap(), b.AsMap())
	}
	return a.Payload() == b.Payload() && sameIdentity(identity(a), identity(b)), nil, nil, 0
}

// equalData compares two data values' types and tags and returns their
// fields.
func equalData(a, b value.Value) (eq bool, xs, ys []value.Value) {
	x, _ := a.Data()
	y, _ := b.Data()
	if x == nil || y == nil {
		return x == y, nil, nil
	}
	if !sameType(x.Type, y.Type) || x.Tag != y.Tag {
		return false, nil, nil
	}
	return true, x.Fields, y.Fields
}

// equalEntries compares two maps (or sets) as sets of entries: every key
// of one is in the other (same length), whatever the insertion order; it
// returns the pairs of values still to compare and the entries it looked
// up.
func equalEntries(x, y *value.Map) (eq bool, xs, ys []value.Value, work int64) {
	if x.Len() != y.Len() {
		return false, nil, nil, 0
	}
	if x == y {
		return true, nil, nil, 0
	}
	found := true
	x.Each(func(k, v value.Value) bool {
		w, ok := y.Get(k)
		if !ok {
			found = false
			return false
		}
		if !x.IsSet() {
			xs, ys = append(xs, v), append(ys, w)
		}
		return true
	})
	return found, xs, ys, int64(x.Len())
}

// children returns the element sequences of two tuples, two lists or two
// data values (nil for other kinds and for a missing node).
func children(x, y value.Value) (xs, ys []value.Value) {
	switch x.Kind() {
	case value.KTuple:
		return tupleElems(x), tupleElems(y)
	case value.KList:
		return listItems(x), listItems(y)
	case value.KData:
		dx, _ := x.Data()
		dy, _ := y.Data()
		if dx != nil && dy != nil {
			return dx.Fields, dy.Fields
		}
	}
	return nil, nil
}

// sameType reports whether two type descriptors denote the same nominal
// type. Built-in types are shared pointers; a decoded program may carry
// its own copy of a user type's descriptor, so names decide otherwise.
func sameType(x, y *value.TypeInfo) bool {
	if x == y {
		return true
	}
	if x == nil || y == nil {
		return false
	}
	return x.Name == y.Name
}

// sameIdentity compares opaque runtime references (pids, monitor
// references, closures) by identity without panicking on uncomparable
// dynamic types.
func sameIdentity(x, y any) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	tx, ty := reflect.TypeOf(x), reflect.TypeOf(y)
	if tx != ty || !tx.Comparable() {
		return false
	}
	return x == y
}

// identity is what makes an opaque value or a function value itself: the
// runtime object behind a handle, or the function node.
func identity(v value.Value) any {
	if v.Kind() == value.KFunc {
		return v.Node()
	}
	return v.Ref()
}

func tupleElems(v value.Value) []value.Value {
	if t, _ := v.Tuple(); t != nil {
		return t.Elems
	}
	return nil
}

func listItems(v value.Value) []value.Value {
	if l, _ := v.List(); l != nil {
		return l.Items
	}
	return nil
}

// Compare is the total order used by List.sort, `compare` and derived
// Ord. It returns -1, 0 or 1:
//   - Int numerically, Bool false before true, String by bytes;
//   - Float by IEEE total order: -NaN < -inf < ... < -0.0 < 0.0 < ... <
//     inf < NaN (a sign-set NaN first, a positive NaN last);
//   - tuples and lists lexicographically, a proper prefix first;
//   - nominal data by variant in declaration order (Some before None, Ok
//     before Err), then fields in order;
//   - ranges by start, end, then exclusive before inclusive.
//
// Values of different kinds are ordered by kind. Compare(a, b) == 0 implies
// Equal(a, b) except for floats: NaN compares equal to an identical NaN,
// and -0.0 sorts before 0.0 although they are `==`.
func Compare(a, b value.Value) int {
	c, _ := CompareWork(a, b)
	return c
}

// CompareWork is Compare that also reports its work (element pairs
// visited). Like EqualWork it walks an explicit stack and remembers large
// node pairs that compared 0; a node compared with itself is 0 at once
// (Compare is reflexive, NaN included).
func CompareWork(a, b value.Value) (int, int64) {
	switch a.Kind() {
	case value.KInt, value.KBool, value.KFloat, value.KString, value.KUnit, value.KRange:
		return compareShallow(a, b), 1
	}
	// Depth-first over an explicit stack of open sequence pairs; the first
	// nonzero result decides. When a sequence pair runs out of common
	// elements, the shorter sequence comes first: lexicographic order.
	root := [2]value.Value{a, b}
	var buf [8]seqFrame
	stack := append(buf[:0], seqFrame{xs: root[:1], ys: root[1:]})
	var memo pairMemo
	work := int64(0)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.xs) || f.next == len(f.ys) {
			if c := cmpInt(int64(len(f.xs)), int64(len(f.ys))); c != 0 {
				return c, work
			}
			memo.done(f)
			stack = stack[:len(stack)-1]
			continue
		}
		x, y := f.xs[f.next], f.ys[f.next]
		f.next++
		work++
		if c := compareShallow(x, y); c != 0 {
			return c, work
		}
		xs, ys := children(x, y)
		if len(xs) == 0 && len(ys) == 0 || value.Same(x, y) {
			continue
		}
		if fr, open := memo.frame(x, y, xs, ys, x.Size() >= memoMin && y.Size() >= memoMin); open {
			stack = append(stack, fr)
		}
	}
	return 0, work
}

// compareShallow compares two values without looking inside tuples,
// lists or data fields: kinds, scalars, data types and tags, ranges.
func compareShallow(a, b value.Value) int {
	if a.Kind() != b.Kind() {
		return cmpInt(int64(a.Kind()), int64(b.Kind()))
	}
	switch a.Kind() {
	case value.KUnit, value.KTuple, value.KList:
		return 0
	case value.KInt, value.KBool:
		return cmpInt(a.AsInt(), b.AsInt())
	case value.KFloat:
		return cmpInt(floatKey(a.AsInt()), floatKey(b.AsInt()))
	case value.KString:
		return strings.Compare(a.AsString(), b.AsString())
	case value.KData:
		x, _ := a.Data()
		y, _ := b.Data()
		return compareDataHead(x, y)
	case value.KRange:
		x, _ := a.Range()
		y, _ := b.Range()
		return compareRange(x, y)
	}
	return cmpInt(a.AsInt(), b.AsInt())
}

// compareDataHead orders two data values by type name, then by variant in
// declaration order (a missing node first).
func compareDataHead(x, y *value.Data) int {
	switch {
	case x == y:
		return 0
	case x == nil:
		return -1
	case y == nil:
		return 1
	}
	if !sameType(x.Type, y.Type) && x.Type != nil && y.Type != nil {
		if c := strings.Compare(x.Type.Name, y.Type.Name); c != 0 {
			return c
		}
	}
	return cmpInt(declRank(x), declRank(y))
}

// compareRange orders two ranges by start, end, then exclusive before
// inclusive (a missing node first).
func compareRange(x, y *value.Range) int {
	if x == nil || y == nil {
		return cmpBool(x != nil, y != nil)
	}
	if c := cmpInt(x.Lo, y.Lo); c != 0 {
		return c
	}
	if c := cmpInt(x.Hi, y.Hi); c != 0 {
		return c
	}
	return cmpBool(x.Inclusive, y.Inclusive)
}

// declRank is a variant's position in its type's declaration, which
// derived orders follow (docs/stdlib.md, List.sort). Tags are declaration
// positions except for Option, whose runtime tags put None (0) before
// Some (1) while it is declared `Some(a)` then `None`.
func declRank(d *value.Data) int64 {
	if sameType(d.Type, value.OptionType) {
		if d.Tag == value.TagSome {
			return 0
		}
		return 1
	}
	return int64(d.Tag)
}

func cmpInt(x, y int64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func cmpBool(x, y bool) int {
	switch {
	case x == y:
		return 0
	case !x:
		return -1
	}
	return 1
}

// floatKey maps IEEE-754 bits to an integer whose signed order is the IEEE
// total order: negative floats have their magnitude bits flipped.
func floatKey(bits int64) int64 {
	if bits < 0 {
		bits ^= math.MaxInt64
	}
	return bits
}
