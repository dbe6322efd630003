package value

import (
	"fmt"
	"math/rand"
	"testing"
)

// model is the simple reference a map is checked against: a slice of
// keys in insertion order and the bindings.
type model struct {
	order []string
	vals  map[string]int64
}

func (md *model) put(k string, v int64) {
	if _, ok := md.vals[k]; !ok {
		md.order = append(md.order, k)
	}
	md.vals[k] = v
}

func (md *model) del(k string) {
	if _, ok := md.vals[k]; !ok {
		return
	}
	delete(md.vals, k)
	for i, o := range md.order {
		if o == k {
			md.order = append(md.order[:i:i], md.order[i+1:]...)
			break
		}
	}
}

// keyOf returns one of a few kinds of key for i (strings, Ints, Bools
// and a newtype of String), so that each test sticks to one key type.
func keyOf(kind, i int) Value {
	switch kind {
	case 0:
		return String(fmt.Sprintf("k%d", i))
	case 1:
		return Int(int64(i) - 50)
	case 2:
		return Bool(i%2 == 1)
	}
	return NewData(newtypeInfo, 0, String(fmt.Sprintf("n%d", i)))
}

var newtypeInfo = &TypeInfo{Name: "UserId", Kind: TNewtype, Variants: []VariantInfo{{Name: "UserId", Fields: []string{""}}}}

// check compares m with md: length, lookups, order, size.
func check(t *testing.T, m *Map, md *model, keys map[string]Value) {
	t.Helper()
	if m.Len() != len(md.order) {
		t.Fatalf("len %d, model %d", m.Len(), len(md.order))
	}
	var got []string
	size := int64(SlotSize)
	m.Each(func(k, v Value) bool {
		got = append(got, k.String())
		size += k.Size() + v.Size()
		return true
	})
	want := make([]string, len(md.order))
	for i, k := range md.order {
		want[i] = keys[k].String()
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("order %v, model %v", got, want)
	}
	if m.Size() != size {
		t.Fatalf("size %d, recomputed %d", m.Size(), size)
	}
	for name, k := range keys {
		v, ok := m.Get(k)
		mv, mok := md.vals[name]
		if ok != mok || (ok && v.AsInt() != mv) || m.Has(k) != mok {
			t.Fatalf("get %s: %v %v, model %v %v", name, v, ok, mv, mok)
		}
	}
}

// TestMapModel runs random operation sequences on maps of each key kind
// and checks every version, including old ones kept aside (persistence).
func TestMapModel(t *testing.T) {
	for kind := 0; kind < 4; kind++ {
		for seed := int64(0); seed < 30; seed++ {
			r := rand.New(rand.NewSource(seed*7 + int64(kind)))
			span := 1 + r.Intn(200)
			if kind == 2 {
				span = 2
			}
			keys := map[string]Value{}
			for i := 0; i < span; i++ {
				keys[keyOf(kind, i).String()] = keyOf(kind, i)
			}
			m := EmptyMap(false).AsMap()
			md := &model{vals: map[string]int64{}}
			type saved struct {
				m  *Map
				md *model
			}
			var olds []saved
			steps := 400
			if seed < 3 {
				steps = 4000 // sequence numbers past 1024: a deeper order trie
			}
			for step := 0; step < steps; step++ {
				k := keyOf(kind, r.Intn(span))
				switch op := r.Intn(10); {
				case op < 6:
					v := r.Int63n(1000)
					m, _ = m.Put(k, Int(v))
					md.put(k.String(), v)
				default:
					m = m.Delete(k)
					md.del(k.String())
				}
				if step%(steps/8) == 0 {
					cp := &model{order: append([]string(nil), md.order...), vals: map[string]int64{}}
					for a, b := range md.vals {
						cp.vals[a] = b
					}
					olds = append(olds, saved{m, cp})
				}
				check(t, m, md, keys)
			}
			for _, o := range olds {
				check(t, o.m, o.md, keys)
			}
		}
	}
}

// TestMapCollisions forces many keys into few hash slots by checking a
// large map (deep tries) and keys whose hashes share low bits.
func TestMapCollisions(t *testing.T) {
	m := EmptyMap(true).AsMap()
	for i := 0; i < 20000; i++ {
		m, _ = m.Put(Int(int64(i)), Unit)
	}
	for i := 0; i < 20000; i += 2 {
		m = m.Delete(Int(int64(i)))
	}
	if m.Len() != 10000 {
		t.Fatalf("len %d", m.Len())
	}
	i := int64(1)
	m.Each(func(k, _ Value) bool {
		if k.AsInt() != i {
			t.Fatalf("order: %d, want %d", k.AsInt(), i)
		}
		i += 2
		return true
	})
	// Keys whose hashes are equal in all 64 bits end in a collision node.
	var n *hnode
	var old *entry
	for i := int64(1); i <= 3; i++ {
		n, old, _ = hput(n, 0, 7, Int(i), Int(i), i)
		if old != nil {
			t.Fatalf("key %d was already there", i)
		}
	}
	n, old, _ = hput(n, 0, 7, Int(2), Int(9), 9)
	if old == nil || old.seq != 2 {
		t.Fatalf("replacing a colliding key: old %v", old)
	}
	has := func(k int64) bool { _, ok := hfind(n, 7, Int(k)); return ok }
	if e, ok := hfind(n, 7, Int(2)); !ok || e.val.AsInt() != 9 {
		t.Fatalf("colliding key: %v %v", e, ok)
	}
	n = hdel(n, 0, 7, Int(1))
	n = hdel(n, 0, 7, Int(2))
	if has(1) || has(2) || !has(3) {
		t.Fatal("deleting colliding keys")
	}
	if n.nodemap != 0 || len(n.ents) != 1 {
		t.Fatalf("the last colliding key did not move up to the root: %+v", n)
	}
	if n = hdel(n, 0, 7, Int(3)); n != nil {
		t.Fatal("the empty trie is not nil")
	}
}

// TestMapCanonical: deleting every key but one leaves a root holding
// that one entry, whatever the order of the deletes.
func TestMapCanonical(t *testing.T) {
	m := EmptyMap(false).AsMap()
	for i := 0; i < 5000; i++ {
		m, _ = m.Put(Int(int64(i)), Int(0))
	}
	for i := 4999; i > 0; i-- {
		m = m.Delete(Int(int64(i)))
	}
	if m.root.nodemap != 0 || len(m.root.ents) != 1 || m.root.ents[0].key.AsInt() != 0 {
		t.Fatalf("root after deletes: %+v", m.root)
	}
}

// TestMapReinsert checks the order rules: re-insertion keeps the
// position, delete then put moves the key to the end.
func TestMapReinsert(t *testing.T) {
	m := EmptyMap(false).AsMap()
	for _, k := range []string{"a", "b", "c"} {
		m, _ = m.Put(String(k), Int(1))
	}
	m, _ = m.Put(String("a"), Int(2))
	if got := fmt.Sprint(m.Keys()); got != `["a" "b" "c"]` {
		t.Fatalf("re-insert: %s", got)
	}
	m = m.Delete(String("a"))
	m, _ = m.Put(String("a"), Int(3))
	if got := fmt.Sprint(m.Keys()); got != `["b" "c" "a"]` {
		t.Fatalf("delete then put: %s", got)
	}
	if m.Delete(String("zz")) != m {
		t.Fatal("deleting an absent key made a new map")
	}
}

// TestMapLimit checks that Put refuses a new key past MaxMapEntries.
func TestMapLimit(t *testing.T) {
	m := EmptyMap(false).AsMap()
	m.n = MaxMapEntries // pretend; only the count is consulted
	if _, ok := m.Put(Int(1), Int(1)); ok {
		t.Fatal("put past the limit accepted")
	}
}
