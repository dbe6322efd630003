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
//   - Pid, ProcessId, MonitorRef and function values by identity.
//
// Values of different kinds are unequal (a checked program never compares
// them).
func Equal(a, b value.Value) bool {
	if a.K != b.K {
		return false
	}
	switch a.K {
	case value.KInt, value.KBool:
		return a.N == b.N
	case value.KFloat:
		return a.AsFloat() == b.AsFloat()
	case value.KString:
		return a.AsString() == b.AsString()
	}
	// An explicit stack of open sequence pairs instead of recursion, so
	// arbitrarily deep values cannot exhaust the Go stack; it grows with
	// the depth of the values, not their width.
	type frame struct {
		xs, ys []value.Value
		next   int
	}
	root := [2]value.Value{a, b}
	var buf [8]frame
	stack := append(buf[:0], frame{xs: root[:1], ys: root[1:]})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.xs) {
			stack = stack[:len(stack)-1]
			continue
		}
		a, b := f.xs[f.next], f.ys[f.next]
		f.next++
		if a.K != b.K {
			return false
		}
		var xs, ys []value.Value
		switch a.K {
		case value.KUnit:
		case value.KInt, value.KBool:
			if a.N != b.N {
				return false
			}
		case value.KFloat:
			if a.AsFloat() != b.AsFloat() {
				return false
			}
		case value.KString:
			if a.AsString() != b.AsString() {
				return false
			}
		case value.KTuple:
			xs, ys = tupleElems(a), tupleElems(b)
		case value.KList:
			xs, ys = listItems(a), listItems(b)
		case value.KData:
			x, _ := a.R.(*value.Data)
			y, _ := b.R.(*value.Data)
			if x == nil || y == nil {
				if x != y {
					return false
				}
				continue
			}
			if !sameType(x.Type, y.Type) || x.Tag != y.Tag {
				return false
			}
			xs, ys = x.Fields, y.Fields
		case value.KRange:
			x, _ := a.R.(*value.Range)
			y, _ := b.R.(*value.Range)
			if x == nil || y == nil {
				if x != y {
					return false
				}
				continue
			}
			if *x != *y {
				return false
			}
		default:
			if a.N != b.N || !sameIdentity(a.R, b.R) {
				return false
			}
		}
		if len(xs) != len(ys) {
			return false
		}
		if len(xs) > 0 {
			stack = append(stack, frame{xs: xs, ys: ys})
		}
	}
	return true
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

func tupleElems(v value.Value) []value.Value {
	if t, _ := v.R.(*value.Tuple); t != nil {
		return t.Elems
	}
	return nil
}

func listItems(v value.Value) []value.Value {
	if l, _ := v.R.(*value.List); l != nil {
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
	switch a.K {
	case value.KInt, value.KBool, value.KFloat, value.KString, value.KUnit, value.KRange:
		return compareShallow(a, b)
	}
	// Depth-first over an explicit stack of open sequence pairs; the first
	// nonzero result decides. When a sequence pair runs out of common
	// elements, the shorter sequence comes first: lexicographic order.
	type frame struct {
		xs, ys []value.Value
		next   int
	}
	root := [2]value.Value{a, b}
	var buf [8]frame
	stack := append(buf[:0], frame{xs: root[:1], ys: root[1:]})
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.xs) || f.next == len(f.ys) {
			if c := cmpInt(int64(len(f.xs)), int64(len(f.ys))); c != 0 {
				return c
			}
			stack = stack[:len(stack)-1]
			continue
		}
		x, y := f.xs[f.next], f.ys[f.next]
		f.next++
		if c := compareShallow(x, y); c != 0 {
			return c
		}
		var xs, ys []value.Value
		switch x.K {
		case value.KTuple:
			xs, ys = tupleElems(x), tupleElems(y)
		case value.KList:
			xs, ys = listItems(x), listItems(y)
		case value.KData:
			dx, _ := x.R.(*value.Data)
			dy, _ := y.R.(*value.Data)
			if dx != nil && dy != nil && dx != dy {
				xs, ys = dx.Fields, dy.Fields
			}
		}
		if len(xs) > 0 || len(ys) > 0 {
			stack = append(stack, frame{xs: xs, ys: ys})
		}
	}
	return 0
}

// compareShallow compares two values without looking inside tuples,
// lists or data fields: kinds, scalars, data types and tags, ranges.
func compareShallow(a, b value.Value) int {
	if a.K != b.K {
		return cmpInt(int64(a.K), int64(b.K))
	}
	switch a.K {
	case value.KUnit, value.KTuple, value.KList:
		return 0
	case value.KInt, value.KBool:
		return cmpInt(a.N, b.N)
	case value.KFloat:
		return cmpInt(floatKey(a.N), floatKey(b.N))
	case value.KString:
		return strings.Compare(a.AsString(), b.AsString())
	case value.KData:
		x, _ := a.R.(*value.Data)
		y, _ := b.R.(*value.Data)
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
	case value.KRange:
		x, _ := a.R.(*value.Range)
		y, _ := b.R.(*value.Range)
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
	return cmpInt(a.N, b.N)
}

// declRank is a variant's position in its type's declaration, which
// derived orders follow (STDLIB.md, List.sort). Tags are declaration
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

// Copy deep-copies a value graph, as a message crossing from one process
// to another needs: tuples, lists, data, closures and ranges are rebuilt,
// and a node reached twice inside the graph is copied once, so sharing is
// preserved. Strings (immutable in Go), function references and the
// opaque process handles are kept as they are. Copied lists have no spare
// capacity.
func Copy(v value.Value) value.Value {
	// Iterative: a node is allocated when first reached, with its slice of
	// children sized but unfilled, and a frame then fills the slots one by
	// one. The stack grows with the depth of the value, not its width, and
	// there is no recursion, so depth is unbounded.
	seen := map[any]value.Value{}
	type frame struct {
		dst, src []value.Value
		next     int
	}
	out := []value.Value{{}}
	stack := []frame{{dst: out, src: []value.Value{v}}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.src) {
			stack = stack[:len(stack)-1]
			continue
		}
		dst, src := &f.dst[f.next], f.src[f.next]
		f.next++
		switch src.K {
		case value.KTuple, value.KList, value.KData, value.KFunc, value.KRange:
		default:
			*dst = src
			continue
		}
		if src.R == nil || !reflect.TypeOf(src.R).Comparable() {
			*dst = src
			continue
		}
		if done, ok := seen[src.R]; ok {
			*dst = done
			continue
		}
		cp := src
		var kids, from []value.Value
		switch r := src.R.(type) {
		case *value.Tuple:
			n := &value.Tuple{Elems: makeLike(r.Elems)}
			cp.R, kids, from = n, n.Elems, r.Elems
		case *value.List:
			n := &value.List{Items: makeLike(r.Items)}
			cp.R, kids, from = n, n.Items, r.Items
		case *value.Data:
			n := &value.Data{Type: r.Type, Tag: r.Tag, Fields: makeLike(r.Fields)}
			cp.R, kids, from = n, n.Fields, r.Fields
		case *value.Closure:
			n := &value.Closure{Fn: r.Fn, Free: makeLike(r.Free)}
			cp.R, kids, from = n, n.Free, r.Free
		case *value.Range:
			rg := *r
			cp.R = &rg
		}
		seen[src.R] = cp
		*dst = cp
		if len(from) > 0 {
			stack = append(stack, frame{dst: kids, src: from})
		}
	}
	return out[0]
}

// makeLike returns a slice of the same length as xs (nil for nil), with
// no spare capacity.
func makeLike(xs []value.Value) []value.Value {
	if xs == nil {
		return nil
	}
	return make([]value.Value, len(xs))
}
