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
	case value.KUnit:
		return true
	case value.KInt, value.KBool:
		return a.N == b.N
	case value.KFloat:
		return a.AsFloat() == b.AsFloat()
	case value.KString:
		return a.AsString() == b.AsString()
	case value.KTuple:
		x, y := tupleElems(a), tupleElems(b)
		return equalSlices(x, y)
	case value.KList:
		return equalSlices(listItems(a), listItems(b))
	case value.KData:
		x, _ := a.R.(*value.Data)
		y, _ := b.R.(*value.Data)
		if x == nil || y == nil {
			return x == y
		}
		if x == y {
			return true
		}
		return sameType(x.Type, y.Type) && x.Tag == y.Tag && equalSlices(x.Fields, y.Fields)
	case value.KRange:
		x, _ := a.R.(*value.Range)
		y, _ := b.R.(*value.Range)
		if x == nil || y == nil {
			return x == y
		}
		return *x == *y
	}
	return a.N == b.N && sameIdentity(a.R, b.R)
}

func equalSlices(x, y []value.Value) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if !Equal(x[i], y[i]) {
			return false
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
	if a.K != b.K {
		return cmpInt(int64(a.K), int64(b.K))
	}
	switch a.K {
	case value.KUnit:
		return 0
	case value.KInt, value.KBool:
		return cmpInt(a.N, b.N)
	case value.KFloat:
		return cmpInt(floatKey(a.N), floatKey(b.N))
	case value.KString:
		return strings.Compare(a.AsString(), b.AsString())
	case value.KTuple:
		return compareSlices(tupleElems(a), tupleElems(b))
	case value.KList:
		return compareSlices(listItems(a), listItems(b))
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
		if c := cmpInt(int64(x.Tag), int64(y.Tag)); c != 0 {
			return c
		}
		return compareSlices(x.Fields, y.Fields)
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

func compareSlices(x, y []value.Value) int {
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := Compare(x[i], y[i]); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(x)), int64(len(y)))
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
	c := copier{seen: map[any]value.Value{}}
	return c.copy(v)
}

type copier struct{ seen map[any]value.Value }

func (c *copier) copy(v value.Value) value.Value {
	switch v.K {
	case value.KTuple, value.KList, value.KData, value.KFunc, value.KRange:
	default:
		return v
	}
	if v.R == nil || !reflect.TypeOf(v.R).Comparable() {
		return v
	}
	if done, ok := c.seen[v.R]; ok {
		return done
	}
	out := v
	switch r := v.R.(type) {
	case *value.Tuple:
		t := &value.Tuple{}
		out.R = t
		c.seen[v.R] = out
		t.Elems = c.copySlice(r.Elems)
	case *value.List:
		l := &value.List{}
		out.R = l
		c.seen[v.R] = out
		l.Items = c.copySlice(r.Items)
	case *value.Data:
		d := &value.Data{Type: r.Type, Tag: r.Tag}
		out.R = d
		c.seen[v.R] = out
		d.Fields = c.copySlice(r.Fields)
	case *value.Closure:
		cl := &value.Closure{Fn: r.Fn}
		out.R = cl
		c.seen[v.R] = out
		cl.Free = c.copySlice(r.Free)
	case *value.Range:
		rg := *r
		out.R = &rg
		c.seen[v.R] = out
	}
	return out
}

func (c *copier) copySlice(xs []value.Value) []value.Value {
	if xs == nil {
		return nil
	}
	out := make([]value.Value, len(xs))
	for i, x := range xs {
		out[i] = c.copy(x)
	}
	return out
}
