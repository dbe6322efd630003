package value

import (
	"hash/maphash"
	"math/bits"
	"unsafe"
)

// # Maps and sets
//
// A Map value (kind KMap) and a Set value (kind KSet) share one
// persistent, insertion-ordered structure (docs/maps.md): every update
// returns a new *Map that shares all but O(log n) of its nodes with the
// old one, which stays valid. It is two trees over the same entries:
//
//   - a hash array mapped trie (HAMT) from a key's hash to its entry
//     (key, value and insertion sequence number), 32 children per node,
//     for get, contains, put and delete in O(log32 n);
//   - an AVL tree from the insertion sequence number to the entry, for
//     iteration in insertion order and for moving a re-inserted key to
//     the end, each step O(log n) and none O(n).
//
// A Map records its entry count and its exact logical size (a slot for
// the map plus each key's and value's size), updated at each step, so
// len and the message accounting are O(1). Keys are the values the map
// key rule allows (Int, Bool, String, and newtypes of them); keyEqual
// agrees with the structural == of stdlib/core on them.

// MaxMapEntries is the most entries a map or set may hold
// (docs/maps.md); Put refuses to grow past it.
const MaxMapEntries = 1 << 24

// Map is a persistent insertion-ordered map or set (see above).
type Map struct {
	h    header
	root *hnode // the hash trie; nil when empty
	ord  *onode // the order tree; nil when empty
	n    int
	next int64 // the next insertion sequence number
	size wideSize
}

// entry is one key with its value, its hash and its insertion sequence
// number. Entries are immutable and shared by both trees (and by every
// version of a map that holds them).
type entry struct {
	key, val Value
	hash     uint64
	seq      int64
}

// hnode is a HAMT node. An inner node has kids: bitmap says which of the
// 32 slots for this level's five hash bits are present, kids holds them
// in bit order. A leaf (kids nil) holds an entry e, and in coll the
// other entries whose keys have the same full hash (almost never any).
type hnode struct {
	kids   []*hnode
	bitmap uint32
	e      *entry
	coll   []*entry
}

const hbits = 5

var mapSeed = maphash.MakeSeed()

// EmptyMap returns the empty map (set: the empty set).
func EmptyMap(set bool) Value {
	k := KMap
	if set {
		k = KSet
	}
	return (&Map{h: header{kind: k}, size: wideSize{lo: SlotSize}}).value()
}

func (m *Map) value() Value { return Value{p: unsafe.Pointer(m)} }

// IsSet reports whether m is a set.
func (m *Map) IsSet() bool { return m.h.kind == KSet }

// Value returns m as a value.
func (m *Map) Value() Value { return m.value() }

// Len returns the number of entries.
func (m *Map) Len() int { return m.n }

// Size returns the logical size.
func (m *Map) Size() int64 { return m.size.capped() }

// Map returns the structure of a Map or Set value.
func (v Value) Map() (*Map, bool) {
	if k := v.Kind(); k != KMap && k != KSet {
		return nil, false
	}
	return (*Map)(v.p), true
}

// AsMap returns the structure of a Map or Set value; it panics on
// another kind.
func (v Value) AsMap() *Map {
	m, ok := v.Map()
	if !ok {
		wrongKind(KMap, v)
	}
	return m
}

// KeyHash is the hash of a map key; keys that keyEqual calls equal hash
// alike.
func KeyHash(k Value) uint64 {
	switch k.Kind() {
	case KInt, KBool:
		return mix64(uint64(k.n) ^ uint64(k.Kind())<<56)
	case KString:
		return maphash.String(mapSeed, k.AsString())
	case KData:
		d := k.AsData()
		h := mix64(uint64(d.Tag) + 0x9e37)
		for _, f := range d.Fields {
			h = mix64(h ^ KeyHash(f))
		}
		return h
	case KUnit:
		return 0
	}
	return mix64(uint64(k.n) ^ uint64(k.Kind())<<56)
}

// mix64 is a 64-bit finalizer (an avalanche mix of the bits).
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// keyEqual is structural equality on map keys (Int, Bool, String and
// newtypes of them, as stdlib/core.Equal decides it).
func keyEqual(a, b Value) bool {
	if a.p != b.p {
		if a.Kind() != b.Kind() {
			return false
		}
	} else if a.n == b.n {
		return true // the same scalar descriptor and payload, or the same object
	}
	switch a.Kind() {
	case KUnit:
		return true
	case KInt, KBool, KFloat:
		return a.n == b.n
	case KString:
		return a.AsString() == b.AsString()
	case KData:
		x, y := a.AsData(), b.AsData()
		if x.Tag != y.Tag || len(x.Fields) != len(y.Fields) {
			return false
		}
		if x.Type != y.Type && (x.Type == nil || y.Type == nil || x.Type.Name != y.Type.Name) {
			return false
		}
		for i := range x.Fields {
			if !keyEqual(x.Fields[i], y.Fields[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// lookup returns the entry of key k in leaf n (hash already matched).
func (n *hnode) lookup(k Value) (*entry, bool) {
	if keyEqual(n.e.key, k) {
		return n.e, true
	}
	for _, e := range n.coll {
		if keyEqual(e.key, k) {
			return e, true
		}
	}
	return nil, false
}

// find returns the entry of key k.
func (m *Map) find(k Value) (*entry, bool) {
	h := KeyHash(k)
	n := m.root
	for shift := uint(0); n != nil; shift += hbits {
		if n.kids == nil {
			if n.e.hash != h {
				return nil, false
			}
			return n.lookup(k)
		}
		bit := uint32(1) << ((h >> shift) & 31)
		if n.bitmap&bit == 0 {
			return nil, false
		}
		n = n.kids[bits.OnesCount32(n.bitmap&(bit-1))]
	}
	return nil, false
}

// Get returns the value of key k.
func (m *Map) Get(k Value) (Value, bool) {
	if e, ok := m.find(k); ok {
		return e.val, true
	}
	return Unit, false
}

// Has reports whether key k is present.
func (m *Map) Has(k Value) bool {
	_, ok := m.find(k)
	return ok
}

// inner returns an inner node of bitmap and kids.
func inner(bitmap uint32, kids []*hnode) *hnode { return &hnode{bitmap: bitmap, kids: kids} }

// hput returns n (a subtree at shift, nil when empty) with e stored,
// replacing the entry of an equal key, and reports whether the key was
// new.
func hput(n *hnode, shift uint, e *entry) (*hnode, bool) {
	if n == nil {
		return &hnode{e: e}, true
	}
	if n.kids == nil {
		if n.e.hash == e.hash {
			// The same full hash: replace the equal key or add to coll.
			all := append([]*entry{n.e}, n.coll...)
			for i, o := range all {
				if keyEqual(o.key, e.key) {
					all[i] = e
					return &hnode{e: all[0], coll: all[1:]}, false
				}
			}
			return &hnode{e: n.e, coll: append(all[1:len(all):len(all)], e)}, true
		}
		// Two hashes meet: push the old leaf one level down.
		old := uint32(1) << ((n.e.hash >> shift) & 31)
		sub := inner(old, []*hnode{n})
		r, _ := hput(sub, shift, e)
		return r, true
	}
	bit := uint32(1) << ((e.hash >> shift) & 31)
	i := bits.OnesCount32(n.bitmap & (bit - 1))
	if n.bitmap&bit == 0 {
		kids := make([]*hnode, len(n.kids)+1)
		copy(kids, n.kids[:i])
		kids[i] = &hnode{e: e}
		copy(kids[i+1:], n.kids[i:])
		return inner(n.bitmap|bit, kids), true
	}
	kid, added := hput(n.kids[i], shift+hbits, e)
	kids := make([]*hnode, len(n.kids))
	copy(kids, n.kids)
	kids[i] = kid
	return inner(n.bitmap, kids), added
}

// hdel returns n without key k (hash h); nil when nothing is left. The
// key is present.
func hdel(n *hnode, shift uint, h uint64, k Value) *hnode {
	if n.kids == nil {
		var rest []*entry
		for _, e := range append([]*entry{n.e}, n.coll...) {
			if !keyEqual(e.key, k) {
				rest = append(rest, e)
			}
		}
		if len(rest) == 0 {
			return nil
		}
		return &hnode{e: rest[0], coll: rest[1:]}
	}
	bit := uint32(1) << ((h >> shift) & 31)
	i := bits.OnesCount32(n.bitmap & (bit - 1))
	kid := hdel(n.kids[i], shift+hbits, h, k)
	if kid == nil {
		if len(n.kids) == 1 {
			return nil
		}
		if len(n.kids) == 2 && n.kids[1-i].kids == nil {
			return n.kids[1-i] // a lone leaf moves up
		}
		kids := make([]*hnode, len(n.kids)-1)
		copy(kids, n.kids[:i])
		copy(kids[i:], n.kids[i+1:])
		return inner(n.bitmap&^bit, kids)
	}
	if len(n.kids) == 1 && kid.kids == nil {
		return kid // a lone leaf moves up
	}
	kids := make([]*hnode, len(n.kids))
	copy(kids, n.kids)
	kids[i] = kid
	return inner(n.bitmap, kids)
}

// entrySize is the logical size an entry adds to its map.
func (m *Map) entrySize(k, v Value) int64 {
	if m.IsSet() {
		return k.Size()
	}
	return AddSize(k.Size(), v.Size())
}

// Put returns m with key k bound to v: an existing key keeps its
// position, a new one goes last. It reports false (and returns m) when
// the key is new and m already holds MaxMapEntries entries.
func (m *Map) Put(k, v Value) (*Map, bool) {
	if old, ok := m.find(k); ok {
		e := &entry{key: old.key, val: v, hash: old.hash, seq: old.seq}
		root, _ := hput(m.root, 0, e)
		size := m.size.sub(m.entrySize(old.key, old.val)).add(m.entrySize(old.key, v))
		return &Map{h: m.h, root: root, ord: oset(m.ord, e), n: m.n, next: m.next, size: size}, true
	}
	if m.n >= MaxMapEntries {
		return m, false
	}
	e := &entry{key: k, val: v, hash: KeyHash(k), seq: m.next}
	root, _ := hput(m.root, 0, e)
	return &Map{h: m.h, root: root, ord: oappend(m.ord, e), n: m.n + 1, next: m.next + 1,
		size: m.size.add(m.entrySize(k, v))}, true
}

// Delete returns m without key k (m itself when k is absent).
func (m *Map) Delete(k Value) *Map {
	old, ok := m.find(k)
	if !ok {
		return m
	}
	return &Map{h: m.h, root: hdel(m.root, 0, old.hash, k), ord: odel(m.ord, old.seq), n: m.n - 1,
		next: m.next, size: m.size.sub(m.entrySize(old.key, old.val))}
}

// Each calls f on each entry in insertion order until f returns false.
func (m *Map) Each(f func(k, v Value) bool) {
	oeach(m.ord, f)
}

// Keys returns the keys in insertion order.
func (m *Map) Keys() []Value {
	out := make([]Value, 0, m.n)
	m.Each(func(k, _ Value) bool { out = append(out, k); return true })
	return out
}

// Values returns the values in insertion order.
func (m *Map) Values() []Value {
	out := make([]Value, 0, m.n)
	m.Each(func(_, v Value) bool { out = append(out, v); return true })
	return out
}

// Pairs returns the entries as (key, value) tuples in insertion order.
func (m *Map) Pairs() []Value {
	out := make([]Value, 0, m.n)
	m.Each(func(k, v Value) bool { out = append(out, NewTuple(k, v)); return true })
	return out
}

// onode is a node of the AVL order tree, keyed by seq.
type onode struct {
	e           *entry
	left, right *onode
	height      int8
}

func oheight(n *onode) int8 {
	if n == nil {
		return 0
	}
	return n.height
}

func omk(e *entry, l, r *onode) *onode {
	return &onode{e: e, left: l, right: r, height: max(oheight(l), oheight(r)) + 1}
}

// obal builds a node of e over l and r, rotating when their heights
// differ by two.
func obal(e *entry, l, r *onode) *onode {
	hl, hr := oheight(l), oheight(r)
	switch {
	case hl > hr+1:
		if oheight(l.left) >= oheight(l.right) {
			return omk(l.e, l.left, omk(e, l.right, r))
		}
		return omk(l.right.e, omk(l.e, l.left, l.right.left), omk(e, l.right.right, r))
	case hr > hl+1:
		if oheight(r.right) >= oheight(r.left) {
			return omk(r.e, omk(e, l, r.left), r.right)
		}
		return omk(r.left.e, omk(e, l, r.left.left), omk(r.e, r.left.right, r.right))
	}
	return omk(e, l, r)
}

// oappend returns n with e, whose seq is above every other, added last.
func oappend(n *onode, e *entry) *onode {
	if n == nil {
		return &onode{e: e, height: 1}
	}
	return obal(n.e, n.left, oappend(n.right, e))
}

// oset returns n with e stored at e.seq (replaced or inserted).
func oset(n *onode, e *entry) *onode {
	if n == nil {
		return &onode{e: e, height: 1}
	}
	switch {
	case e.seq < n.e.seq:
		return obal(n.e, oset(n.left, e), n.right)
	case e.seq > n.e.seq:
		return obal(n.e, n.left, oset(n.right, e))
	}
	return &onode{e: e, left: n.left, right: n.right, height: n.height}
}

// odel returns n without the entry at seq.
func odel(n *onode, seq int64) *onode {
	if n == nil {
		return nil
	}
	switch {
	case seq < n.e.seq:
		return obal(n.e, odel(n.left, seq), n.right)
	case seq > n.e.seq:
		return obal(n.e, n.left, odel(n.right, seq))
	}
	if n.left == nil {
		return n.right
	}
	if n.right == nil {
		return n.left
	}
	m := n.right
	for m.left != nil {
		m = m.left
	}
	return obal(m.e, n.left, odel(n.right, m.e.seq))
}

// oeach visits n in order until f returns false; it reports whether
// the visit ran to the end.
func oeach(n *onode, f func(k, v Value) bool) bool {
	for n != nil {
		if !oeach(n.left, f) || !f(n.e.key, n.e.val) {
			return false
		}
		n = n.right
	}
	return true
}
