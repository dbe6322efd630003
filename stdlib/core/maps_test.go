package core

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// TestEveryMapBuilderHasTheLimit: every native that adds entries faults
// with 17 (MapSize) past the limit, and not at it.
func TestEveryMapBuilderHasTheLimit(t *testing.T) {
	defer func(old int) { mapLimit = old }(mapLimit)
	mapLimit = 100
	pairs := make([]value.Value, mapLimit)
	elems := make([]value.Value, mapLimit)
	for i := range pairs {
		pairs[i] = value.NewTuple(I(int64(i)), I(int64(i)))
		elems[i] = I(int64(i))
	}
	full, f := call(t, "Map.from_list", value.NewList(pairs))
	if f != nil || full.AsMap().Len() != mapLimit {
		t.Fatalf("from_list of exactly the limit: %v", f)
	}
	if _, f := call(t, "Map.put", full, I(0), I(1)); f != nil {
		t.Errorf("replacing a value at the limit: %v", f)
	}
	check := func(what string, f *fault.Fault) {
		t.Helper()
		if f == nil || f.Code != fault.MapSize || f.Code.Text() != "map size limit exceeded" {
			t.Errorf("%s past the limit: fault %v", what, f)
		}
	}
	_, f = call(t, "Map.put", full, I(-1), I(1))
	check("Map.put", f)
	_, f = call(t, "Map.from_list", value.NewList(append(pairs[:mapLimit:mapLimit], value.NewTuple(I(-1), I(0)))))
	check("Map.from_list", f)
	one, _ := call(t, "Map.put", emptyMap, I(-1), I(0))
	_, f = call(t, "Map.merge", full, one)
	check("Map.merge", f)
	set, f := call(t, "Set.from_list", value.NewList(elems))
	if f != nil {
		t.Fatalf("Set.from_list of exactly the limit: %v", f)
	}
	_, f = call(t, "Set.insert", set, I(-1))
	check("Set.insert", f)
	_, f = call(t, "Set.from_list", value.NewList(append(elems[:mapLimit:mapLimit], I(-1))))
	check("Set.from_list", f)
	other, _ := call(t, "Set.insert", emptySet, I(-1))
	_, f = call(t, "Set.union", set, other)
	check("Set.union", f)
}

// TestMapEqualityIgnoresOrder: Equal compares entries, not order, and
// values structurally; Show follows insertion order.
func TestMapEqualityIgnoresOrder(t *testing.T) {
	a, _ := call(t, "Map.from_list", value.NewList([]value.Value{value.NewTuple(S("a"), Ints(1)), value.NewTuple(S("b"), Ints(2))}))
	b, _ := call(t, "Map.from_list", value.NewList([]value.Value{value.NewTuple(S("b"), Ints(2)), value.NewTuple(S("a"), Ints(1))}))
	c, _ := call(t, "Map.from_list", value.NewList([]value.Value{value.NewTuple(S("b"), Ints(2)), value.NewTuple(S("a"), Ints(3))}))
	if !Equal(a, b) || Equal(a, c) || Equal(a, emptyMap) {
		t.Errorf("map equality: a==b %v, a==c %v", Equal(a, b), Equal(a, c))
	}
	if Show(a) != `%{"a": [1], "b": [2]}` || Show(b) != `%{"b": [2], "a": [1]}` || Show(emptyMap) != "%{}" {
		t.Errorf("Show: %s, %s", Show(a), Show(b))
	}
	s, _ := call(t, "Set.from_list", Ints(2, 1, 2))
	if Show(s) != "Set([2, 1])" || Show(emptySet) != "Set([])" {
		t.Errorf("Show of sets: %s", Show(s))
	}
	if a.Size() != b.Size() {
		t.Errorf("equal maps of different logical sizes: %d, %d", a.Size(), b.Size())
	}
}
