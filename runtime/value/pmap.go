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
// old one, which stays valid. It is two tries over the same entries:
//
//   - a hash array mapped trie (HAMT) from a key's hash to its entry
//     (key, value and insertion sequence number), 32 children per node,
//     for get, contains, put and delete in O(log32 n);
//   - a radix trie from the insertion sequence number to the entry
//     (order, below), for iteration in insertion order: appending is
//     O(1) amortised, replacing or deleting one path copy, and no step
//     is O(n).
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
	ord  order  // the entries in insertion order
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

// hnode is a HAMT node. Each of the 32 slots for this level's five hash
// bits is empty, an entry (its bit set in datamap) or a subtree (its bit
// in nodemap); ents and kids hold them in bit order. Entries sit in their
// parent node, so a lookup costs one node and one entry per level. A
// collision node (coll set), reached only when two keys share all 64 bits
// of their hash, holds those entries in ents.
type hnode struct {
	ents    []*entry
	kids    []*hnode
	datamap uint32
	nodemap uint32
	coll    bool
}

const hbits = 5

var mapSeed = maphash.MakeSeed()

// EmptyMap returns the empty map (set: the empty set).
func EmptyMap(set bool) Value {
	k := KMap
	if set {
		k = KSet
	}
	return (&Map{h: header{kind: k}, ord: order{shift: hbits}, size: wideSize{lo: SlotSize}}).value()
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
		return dataKeyEqual(a.AsData(), b.AsData())
	}
	return a == b
}

// dataKeyEqual is keyEqual on two data values: same type name, tag and
// equal fields.
func dataKeyEqual(x, y *Data) bool {
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

// find returns the entry of key k.
func (m *Map) find(k Value) (*entry, bool) { return hfind(m.root, KeyHash(k), k) }

// hfind returns the entry of key k, of hash h, in trie n.
func hfind(n *hnode, h uint64, k Value) (*entry, bool) {
	for shift := uint(0); n != nil; shift += hbits {
		if n.coll {
			for _, e := range n.ents {
				if keyEqual(e.key, k) {
					return e, true
				}
			}
			return nil, false
		}
		bit := uint32(1) << ((h >> shift) & 31)
		if n.datamap&bit != 0 {
			e := n.ents[bits.OnesCount32(n.datamap&(bit-1))]
			if e.hash == h && keyEqual(e.key, k) {
				return e, true
			}
			return nil, false
		}
		if n.nodemap&bit == 0 {
			return nil, false
		}
		n = n.kids[bits.OnesCount32(n.nodemap&(bit-1))]
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

// with returns a copy of s with x at i (replace: instead of inserting
// it there).
func with[T any](s []T, i int, x T, replace bool) []T {
	if replace {
		out := make([]T, len(s))
		copy(out, s)
		out[i] = x
		return out
	}
	out := make([]T, len(s)+1)
	copy(out, s[:i])
	out[i] = x
	copy(out[i+1:], s[i:])
	return out
}

// without returns a copy of s without element i.
func without[T any](s []T, i int) []T {
	out := make([]T, len(s)-1)
	copy(out, s[:i])
	copy(out[i:], s[i+1:])
	return out
}

// pair returns the subtree at shift holding two entries of different keys.
func pair(a, b *entry, shift uint) *hnode {
	if shift >= 64 {
		return &hnode{ents: []*entry{a, b}, coll: true}
	}
	ba, bb := uint32(1)<<((a.hash>>shift)&31), uint32(1)<<((b.hash>>shift)&31)
	switch {
	case ba == bb:
		return &hnode{nodemap: ba, kids: []*hnode{pair(a, b, shift+hbits)}}
	case ba < bb:
		return &hnode{datamap: ba | bb, ents: []*entry{a, b}}
	}
	return &hnode{datamap: ba | bb, ents: []*entry{b, a}}
}

// hput returns n (a subtree at shift, nil when empty) with key k bound
// to v: when k is present its entry is replaced by one with the same
// position (seq), otherwise an entry with sequence number seq is added.
// It returns the new subtree, the entry it replaced (nil: k is new) and
// the entry stored.
func hput(n *hnode, shift uint, h uint64, k, v Value, seq int64) (*hnode, *entry, *entry) {
	if n == nil {
		e := &entry{key: k, val: v, hash: h, seq: seq}
		return &hnode{datamap: 1 << ((h >> shift) & 31), ents: []*entry{e}}, nil, e
	}
	if n.coll {
		for i, o := range n.ents {
			if keyEqual(o.key, k) {
				e := &entry{key: o.key, val: v, hash: h, seq: o.seq}
				return &hnode{ents: with(n.ents, i, e, true), coll: true}, o, e
			}
		}
		e := &entry{key: k, val: v, hash: h, seq: seq}
		return &hnode{ents: with(n.ents, len(n.ents), e, false), coll: true}, nil, e
	}
	bit := uint32(1) << ((h >> shift) & 31)
	switch {
	case n.datamap&bit != 0:
		i := bits.OnesCount32(n.datamap & (bit - 1))
		o := n.ents[i]
		if o.hash == h && keyEqual(o.key, k) {
			e := &entry{key: o.key, val: v, hash: h, seq: o.seq}
			return &hnode{datamap: n.datamap, nodemap: n.nodemap, ents: with(n.ents, i, e, true), kids: n.kids}, o, e
		}
		// Another key in this slot: both move into a new subtree.
		e := &entry{key: k, val: v, hash: h, seq: seq}
		sub := pair(o, e, shift+hbits)
		j := bits.OnesCount32(n.nodemap & (bit - 1))
		return &hnode{datamap: n.datamap &^ bit, nodemap: n.nodemap | bit, ents: without(n.ents, i), kids: with(n.kids, j, sub, false)}, nil, e
	case n.nodemap&bit != 0:
		j := bits.OnesCount32(n.nodemap & (bit - 1))
		sub, old, e := hput(n.kids[j], shift+hbits, h, k, v, seq)
		return &hnode{datamap: n.datamap, nodemap: n.nodemap, ents: n.ents, kids: with(n.kids, j, sub, true)}, old, e
	}
	e := &entry{key: k, val: v, hash: h, seq: seq}
	i := bits.OnesCount32(n.datamap & (bit - 1))
	return &hnode{datamap: n.datamap | bit, nodemap: n.nodemap, ents: with(n.ents, i, e, false), kids: n.kids}, nil, e
}

// lone returns the one entry of a subtree that holds exactly one entry
// and no subtree, or nil.
func (n *hnode) lone() *entry {
	if n.nodemap == 0 && len(n.ents) == 1 {
		return n.ents[0]
	}
	return nil
}

// hdel returns n without key k (hash h), which it holds; nil when
// nothing is left. A subtree left with one entry is folded into its
// parent's slot.
func hdel(n *hnode, shift uint, h uint64, k Value) *hnode {
	if n.coll {
		return hdelColl(n, k)
	}
	bit := uint32(1) << ((h >> shift) & 31)
	if n.datamap&bit != 0 {
		if n.nodemap == 0 && len(n.ents) == 1 {
			return nil
		}
		i := bits.OnesCount32(n.datamap & (bit - 1))
		return &hnode{datamap: n.datamap &^ bit, nodemap: n.nodemap, ents: without(n.ents, i), kids: n.kids}
	}
	j := bits.OnesCount32(n.nodemap & (bit - 1))
	sub := hdel(n.kids[j], shift+hbits, h, k)
	if sub != nil && !sub.coll && sub.lone() == nil || sub != nil && sub.coll && len(sub.ents) > 1 {
		return &hnode{datamap: n.datamap, nodemap: n.nodemap, ents: n.ents, kids: with(n.kids, j, sub, true)}
	}
	return hdelKid(n, shift, bit, j, sub)
}

// hdelColl returns collision node n without key k (nil when nothing is
// left; n itself when k is not there).
func hdelColl(n *hnode, k Value) *hnode {
	for i, o := range n.ents {
		if keyEqual(o.key, k) {
			if len(n.ents) == 1 {
				return nil
			}
			return &hnode{ents: without(n.ents, i), coll: true}
		}
	}
	return n
}

// hdelKid returns n after a deletion left its subtree j (at bit) empty
// (sub nil) or with one entry, which moves up into n's slot.
func hdelKid(n *hnode, shift uint, bit uint32, j int, sub *hnode) *hnode {
	if sub == nil {
		if n.datamap == 0 && len(n.kids) == 1 {
			return nil
		}
		return &hnode{datamap: n.datamap, nodemap: n.nodemap &^ bit, ents: n.ents, kids: without(n.kids, j)}
	}
	e := sub.ents[0]
	if n.datamap == 0 && len(n.kids) == 1 {
		return &hnode{datamap: 1 << ((e.hash >> shift) & 31), ents: []*entry{e}}
	}
	i := bits.OnesCount32(n.datamap & (bit - 1))
	return &hnode{datamap: n.datamap | bit, nodemap: n.nodemap &^ bit, ents: with(n.ents, i, e, false), kids: without(n.kids, j)}
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
	if m.n >= MaxMapEntries && !m.Has(k) {
		return m, false
	}
	root, old, e := hput(m.root, 0, KeyHash(k), k, v, m.next)
	if old != nil {
		size := m.size.sub(m.entrySize(old.key, old.val)).add(m.entrySize(old.key, v))
		return &Map{h: m.h, root: root, ord: m.ord.replaced(e), n: m.n, next: m.next, size: size}, true
	}
	return &Map{h: m.h, root: root, ord: m.ord.appended(e), n: m.n + 1, next: m.next + 1,
		size: m.size.add(m.entrySize(k, v))}, true
}

// Delete returns m without key k (m itself when k is absent).
func (m *Map) Delete(k Value) *Map {
	old, ok := m.find(k)
	if !ok {
		return m
	}
	return &Map{h: m.h, root: hdel(m.root, 0, old.hash, k), ord: m.ord.deleted(old.seq), n: m.n - 1,
		next: m.next, size: m.size.sub(m.entrySize(old.key, old.val))}
}

// Each calls f on each entry in insertion order until f returns false.
func (m *Map) Each(f func(k, v Value) bool) {
	m.ord.each(f)
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

// The order of a map is a radix trie keyed by the entries' insertion
// sequence numbers, 32 ways per level, most significant digit first, so
// that visiting it in slot order visits the entries in insertion order.
// A node's bitmap says which slots are present: a leaf (the level of the
// last five bits) holds entries in ents, an inner node subtrees in kids;
// a deleted entry's slot is removed and an emptied node goes with it, so
// the trie never holds more nodes than entries and no step rebuilds it.
// Its depth grows with the log32 of the largest sequence number.
//
// The block of the 32 newest sequence numbers is kept apart, as the leaf
// tail: an append copies only that leaf (at most 32 pointers), and the
// leaf moves into the trie (one path copy) when the next block begins.
// Appending is therefore O(1) amortised; replacing or deleting an older
// entry copies one path, O(log32 n) of the largest sequence number.
type order struct {
	root  *onode // the blocks before the tail's; nil when none
	shift uint   // the shift of root's level (5 for one level of leaves below it)
	tail  *onode // the leaf of the block [base, base+32); nil when empty
	base  int64  // the first sequence number of the tail's block
}

// onode is a node of the order trie (see order).
type onode struct {
	bitmap uint32
	kids   []*onode
	ents   []*entry
}

// leafWith returns leaf n (nil: empty) with e in its slot (replacing).
func leafWith(n *onode, e *entry) *onode {
	bit := uint32(1) << (e.seq & 31)
	if n == nil {
		return &onode{bitmap: bit, ents: []*entry{e}}
	}
	i := bits.OnesCount32(n.bitmap & (bit - 1))
	return &onode{bitmap: n.bitmap | bit, ents: with(n.ents, i, e, n.bitmap&bit != 0)}
}

// leafWithout returns leaf n without the entry at seq (nil when empty).
func leafWithout(n *onode, seq int64) *onode {
	bit := uint32(1) << (seq & 31)
	if n == nil || n.bitmap&bit == 0 {
		return n
	}
	if n.bitmap == bit {
		return nil
	}
	return &onode{bitmap: n.bitmap &^ bit, ents: without(n.ents, bits.OnesCount32(n.bitmap&(bit-1)))}
}

// trieSet returns trie n at shift (an inner level) with the node of the
// path to seq replaced by what f makes of it (f gets nil for a missing
// one; a nil result removes it).
func trieSet(n *onode, shift uint, seq int64, f func(*onode) *onode) *onode {
	bit := uint32(1) << ((seq >> shift) & 31)
	var kid *onode
	i := 0
	if n != nil {
		i = bits.OnesCount32(n.bitmap & (bit - 1))
		if n.bitmap&bit != 0 {
			kid = n.kids[i]
		}
	}
	var nk *onode
	if shift == 5 {
		nk = f(kid)
	} else {
		nk = trieSet(kid, shift-hbits, seq, f)
	}
	switch {
	case n == nil && nk == nil:
		return nil
	case n == nil:
		return &onode{bitmap: bit, kids: []*onode{nk}}
	case nk == nil && kid == nil:
		return n
	case nk == nil:
		if n.bitmap == bit {
			return nil
		}
		return &onode{bitmap: n.bitmap &^ bit, kids: without(n.kids, i)}
	case kid == nil:
		return &onode{bitmap: n.bitmap | bit, kids: with(n.kids, i, nk, false)}
	}
	return &onode{bitmap: n.bitmap, kids: with(n.kids, i, nk, true)}
}

// appended returns o with e, the newest entry (its seq above every
// other), added last.
func (o order) appended(e *entry) order {
	if e.seq-o.base >= 32 {
		// The tail's block is over: its leaf goes into the trie.
		if o.tail != nil {
			for o.base >= int64(1)<<(o.shift+hbits) {
				if o.root != nil {
					o.root = &onode{bitmap: 1, kids: []*onode{o.root}}
				}
				o.shift += hbits
			}
			leaf := o.tail
			o.root = trieSet(o.root, o.shift, o.base, func(*onode) *onode { return leaf })
		}
		o.tail, o.base = nil, e.seq&^31
	}
	o.tail = leafWith(o.tail, e)
	return o
}

// replaced returns o with the entry of e.seq replaced by e.
func (o order) replaced(e *entry) order {
	if e.seq >= o.base {
		o.tail = leafWith(o.tail, e)
		return o
	}
	o.root = trieSet(o.root, o.shift, e.seq, func(l *onode) *onode { return leafWith(l, e) })
	return o
}

// deleted returns o without the entry at seq.
func (o order) deleted(seq int64) order {
	if seq >= o.base {
		o.tail = leafWithout(o.tail, seq)
		return o
	}
	o.root = trieSet(o.root, o.shift, seq, func(l *onode) *onode { return leafWithout(l, seq) })
	return o
}

// each visits the entries in insertion order until f returns false.
func (o order) each(f func(k, v Value) bool) {
	if oeach(o.root, f) && o.tail != nil {
		oeach(o.tail, f)
	}
}

// oeach visits trie n in slot order until f returns false; it reports
// whether the visit ran to the end.
func oeach(n *onode, f func(k, v Value) bool) bool {
	if n == nil {
		return true
	}
	for _, e := range n.ents {
		if !f(e.key, e.val) {
			return false
		}
	}
	for _, k := range n.kids {
		if !oeach(k, f) {
			return false
		}
	}
	return true
}
