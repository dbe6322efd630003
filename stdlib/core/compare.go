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
	// An explicit stack of pending pairs instead of recursion, so that
	// arbitrarily deep values cannot exhaust the Go stack.
	type pair struct{ x, y value.Value }
	stack := []pair{{a, b}}
	pushAll := func(xs, ys []value.Value) bool {
		if len(xs) != len(ys) {
			return false
		}
		for i := len(xs) - 1; i >= 0; i-- {
			stack = append(stack, pair{xs[i], ys[i]})
		}
		return true
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		a, b := p.x, p.y
		if a.K != b.K {
			return false
		}
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
			if !pushAll(tupleElems(a), tupleElems(b)) {
				return false
			}
		case value.KList:
			if !pushAll(listItems(a), listItems(b)) {
				return false
			}
		case value.KData:
			x, _ := a.R.(*value.Data)
			y, _ := b.R.(*value.Data)
			if x == nil || y == nil {
				if x != y {
					return false
				}
				continue
			}
			if !sameType(x.Type, y.Type) || x.Tag != y.Tag || !pushAll(x.Fields, y.Fields) {
				return false
			}
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
//   - nominal data by variant tag, then fields in order;
//   - ranges by start, end, then exclusive before inclusive.
//
// Values of different kinds are ordered by kind. Compare(a, b) == 0 implies
// Equal(a, b) except for floats: NaN compares equal to an identical NaN,
// and -0.0 sorts before 0.0 although they are `==`.
func Compare(a, b value.Value) int {
	// Depth-first over an explicit stack of value pairs; the first
	// nonzero result decides. For two sequences the element pairs are
	// pushed in reverse order, and, when the lengths differ, below them
	// the pair (Int(len x), Int(len y)), which decides only if the common
	// prefix compares equal: exactly lexicographic order.
	type pair struct{ x, y value.Value }
	stack := []pair{{a, b}}
	pushSeq := func(xs, ys []value.Value) {
		if len(xs) != len(ys) {
			stack = append(stack, pair{value.Int(int64(len(xs))), value.Int(int64(len(ys)))})
		}
		for i := min(len(xs), len(ys)) - 1; i >= 0; i-- {
			stack = append(stack, pair{xs[i], ys[i]})
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c := compareShallow(t.x, t.y); c != 0 {
			return c
		}
		switch t.x.K {
		case value.KTuple:
			pushSeq(tupleElems(t.x), tupleElems(t.y))
		case value.KList:
			pushSeq(listItems(t.x), listItems(t.y))
		case value.KData:
			x, _ := t.x.R.(*value.Data)
			y, _ := t.y.R.(*value.Data)
			if x != nil && y != nil && x != y {
				pushSeq(x.Fields, y.Fields)
			}
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
		return cmpInt(int64(x.Tag), int64(y.Tag))
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
	// Iterative: each node is allocated when first reached, with its
	// slice of children sized but empty, and a pending task fills each
	// child slot. Slots are addressed by pointer into slices that never
	// grow, so they stay valid. No recursion, so depth is unbounded.
	seen := map[any]value.Value{}
	type task struct {
		dst *value.Value
		src value.Value
	}
	var out value.Value
	stack := []task{{&out, v}}
	children := func(dst []value.Value, src []value.Value) {
		for i := len(src) - 1; i >= 0; i-- {
			stack = append(stack, task{&dst[i], src[i]})
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		src := t.src
		switch src.K {
		case value.KTuple, value.KList, value.KData, value.KFunc, value.KRange:
		default:
			*t.dst = src
			continue
		}
		if src.R == nil || !reflect.TypeOf(src.R).Comparable() {
			*t.dst = src
			continue
		}
		if done, ok := seen[src.R]; ok {
			*t.dst = done
			continue
		}
		cp := src
		switch r := src.R.(type) {
		case *value.Tuple:
			n := &value.Tuple{Elems: makeLike(r.Elems)}
			cp.R = n
			children(n.Elems, r.Elems)
		case *value.List:
			n := &value.List{Items: makeLike(r.Items)}
			cp.R = n
			children(n.Items, r.Items)
		case *value.Data:
			n := &value.Data{Type: r.Type, Tag: r.Tag, Fields: makeLike(r.Fields)}
			cp.R = n
			children(n.Fields, r.Fields)
		case *value.Closure:
			n := &value.Closure{Fn: r.Fn, Free: makeLike(r.Free)}
			cp.R = n
			children(n.Free, r.Free)
		case *value.Range:
			rg := *r
			cp.R = &rg
		}
		seen[src.R] = cp
		*t.dst = cp
	}
	return out
}

// makeLike returns a slice of the same length as xs (nil for nil), with
// no spare capacity.
func makeLike(xs []value.Value) []value.Value {
	if xs == nil {
		return nil
	}
	return make([]value.Value, len(xs))
}
