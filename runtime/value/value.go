// Package value is the runtime representation of Morrow values, shared by
// the interpreter (runtime/vm) and the native standard library
// (stdlib/core).
//
// A Value is a small tagged struct: scalars live in N (Int, Bool as 0/1,
// Float as IEEE bits) and everything else behind R. Values are immutable
// once built, so any number of processes may share them: a message is
// handed to its receiver as it is (RUNTIME.md §1, "logically copied").
// The one exception is frame-local iterator state (KIter), which the
// bytecode verifier keeps inside its frame.
//
// # Logical size
//
// Every compound node (Tuple, List, Data, Closure) carries its logical
// size, computed when it is built: SlotSize bytes for the node plus the
// sizes of its children, where a scalar, an opaque value or a range is
// one slot and a string is one slot plus its bytes. This is the size the
// limits of LANGUAGE.md §7.5 charge for a message. It is the size of the
// value's unfolding: a node reachable along two paths counts twice, so a
// value with internal sharing (a DAG of n nodes) can have a size of order
// 2^n. Sizes saturate at SizeCap, far above any budget, so such a value
// is measured in O(1) and refused, never walked. Nodes must be built with
// the constructors of this package (NewTuple, NewList, NewData,
// NewClosure, ...), which compute the size; a test in this package keeps
// struct literals of these types out of the runtime's code.
//
// # Lists
//
// A List is a window on a backing array. Lists built by Append may share
// one array with spare capacity at its end: Append claims the next free
// slots in place with an atomic compare-and-swap on the array's claim
// counter, so that two lists (even in two processes) that end at the same
// slot cannot both extend the array; the loser copies. Repeated appends
// to the newest list are therefore amortised O(1), and a shared list is
// safe to extend from any process.
package value

import (
	"math"
	"math/bits"
	"sync/atomic"
)

// Kind is the dynamic tag of a value.
type Kind uint8

const (
	KUnit Kind = iota
	KInt
	KFloat
	KBool
	KString // R: string
	KTuple  // R: *Tuple
	KList   // R: *List
	KData   // R: *Data (sum variants, records, newtypes, Option, Result, ...)
	KFunc   // R: *Closure or *NativeFunc
	KRange  // R: *Range
	KPid    // R: opaque process address (runtime-defined)
	KProcID // R: opaque process identity (runtime-defined)
	KMonRef // R: opaque monitor reference (runtime-defined)
	KIter   // R: iterator state used by `for` (never escapes a frame)
	KOpaque // R: anything else the runtime needs on the stack
)

var kindNames = [...]string{"Unit", "Int", "Float", "Bool", "String", "Tuple", "List", "Data", "Func", "Range", "Pid", "ProcessId", "MonitorRef", "Iter", "Opaque"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind?"
}

// Value is one Morrow value.
type Value struct {
	K Kind
	N int64
	R any
}

// SlotSize is the logical size of one value slot (LANGUAGE.md §7.5
// charges messages by it); SizeCap is where logical sizes saturate.
const (
	SlotSize = 16
	SizeCap  = int64(1) << 62
)

// AddSize adds two logical sizes, saturating at SizeCap.
func AddSize(a, b int64) int64 {
	if a >= SizeCap-b {
		return SizeCap
	}
	return a + b
}

// Tuple is an immutable tuple.
type Tuple struct {
	Elems []Value
	size  int64
}

// List is an immutable list: a window Items on a backing array.
type List struct {
	Items []Value
	// size is the exact sum of the list's slot and its elements' sizes,
	// wider than 64 bits so that it never saturates (each element's size
	// is at most SizeCap and a list has at most 2^32 elements): a window
	// on the list (Drop, Take) can subtract the elements it leaves out,
	// however large the list is. Size reports it capped at SizeCap.
	size wideSize
	// arr is the claim state of a backing array built by Append (nil:
	// the list's capacity is never written in place).
	arr *backing
}

// backing is the claim state of an array built by Append: total is its
// length (the capacity every full-capacity window ends at) and used the
// number of slots claimed from its start.
type backing struct {
	total int
	used  atomic.Int64
}

// Range is a lazy integer range [Lo, Hi) or [Lo, Hi] when Inclusive.
type Range struct {
	Lo, Hi    int64
	Inclusive bool
}

// TypeKind says how a nominal type prints and compares.
type TypeKind uint8

const (
	TSum TypeKind = iota
	TRecord
	TNewtype
)

// TypeInfo describes a nominal type at run time: its name and variants,
// with field names for records (Show prints `Name(field: v)` for records
// and positional `Ctor(v)` for sums and newtypes).
type TypeInfo struct {
	Name     string // last dotted segment is what Show prints for variants
	Kind     TypeKind
	Variants []VariantInfo
	Show     bool // derive(Show) or built-in
	Eq       bool
	Ord      bool
}

// VariantInfo is one constructor.
type VariantInfo struct {
	Name   string
	Fields []string // field names (records), or "" entries for positional fields
}

// Data is a value of a nominal type: Type and the variant Tag select the
// constructor; Fields are positional.
type Data struct {
	Type   *TypeInfo
	Tag    int
	Fields []Value
	size   int64
}

// Closure is a function value: a compiled function index and captured
// values.
type Closure struct {
	Fn   int
	Free []Value
	size int64
}

// NativeFunc is a native function used as a value (for example a builtin
// passed where a function is expected).
type NativeFunc struct {
	ID   int
	Name string
}

// Built-in nominal types. Their tags are fixed by the language.
var (
	OptionType = &TypeInfo{Name: "Option", Kind: TSum, Show: true, Eq: true, Ord: true,
		Variants: []VariantInfo{{Name: "None"}, {Name: "Some", Fields: []string{""}}}}
	ResultType = &TypeInfo{Name: "Result", Kind: TSum, Show: true, Eq: true, Ord: true,
		Variants: []VariantInfo{{Name: "Ok", Fields: []string{""}}, {Name: "Err", Fields: []string{""}}}}
	OrderingType = &TypeInfo{Name: "Ordering", Kind: TSum, Eq: true,
		Variants: []VariantInfo{{Name: "Less"}, {Name: "Equal"}, {Name: "Greater"}}}
)

// Tags of the built-in types.
const (
	TagNone = 0
	TagSome = 1
	TagOk   = 0
	TagErr  = 1
)

// Constructors for common values.

var Unit = Value{K: KUnit}

func Int(n int64) Value     { return Value{K: KInt, N: n} }
func Float(f float64) Value { return Value{K: KFloat, N: int64(math.Float64bits(f))} }
func Bool(b bool) Value {
	if b {
		return Value{K: KBool, N: 1}
	}
	return Value{K: KBool}
}
func String(s string) Value { return Value{K: KString, R: s} }

// NewTuple returns the tuple of elems (which it keeps, not copies).
func NewTuple(elems ...Value) Value {
	return Value{K: KTuple, R: &Tuple{Elems: elems, size: sumSizes(elems)}}
}

// NewList returns the list of items (which it keeps, not copies); its
// capacity is never written in place.
func NewList(items []Value) Value {
	return Value{K: KList, R: &List{Items: items, size: sumWide(items)}}
}

// NewData returns variant tag of type t with fields (kept, not copied).
func NewData(t *TypeInfo, tag int, fields ...Value) Value {
	return Value{K: KData, R: &Data{Type: t, Tag: tag, Fields: fields, size: sumSizes(fields)}}
}

// NewClosure returns the closure of compiled function fn capturing free
// (kept, not copied).
func NewClosure(fn int, free []Value) Value {
	return Value{K: KFunc, R: &Closure{Fn: fn, Free: free, size: sumSizes(free)}}
}

// sumSizes is the logical size of a node with children vs.
func sumSizes(vs []Value) int64 {
	n := int64(SlotSize)
	for i := range vs {
		n = AddSize(n, vs[i].Size())
	}
	return n
}

// Size returns the logical size of v in O(1) (see the package comment).
func (v Value) Size() int64 {
	switch v.K {
	case KString:
		s, _ := v.R.(string)
		return SlotSize + int64(len(s))
	case KTuple:
		if t, ok := v.R.(*Tuple); ok && t != nil {
			return t.Size()
		}
	case KList:
		if l, ok := v.R.(*List); ok && l != nil {
			return l.Size()
		}
	case KData:
		if d, ok := v.R.(*Data); ok && d != nil {
			return d.Size()
		}
	case KFunc:
		if c, ok := v.R.(*Closure); ok && c != nil {
			return c.Size()
		}
	}
	return SlotSize
}

// Size methods of the compound nodes. A node built without its
// constructor (a struct literal in a test) has no size yet; it is then
// computed from the children, which is not O(1) but always correct.

// Size returns the tuple's logical size.
func (t *Tuple) Size() int64 {
	if t.size == 0 {
		return sumSizes(t.Elems)
	}
	return t.size
}

// Size returns the list's logical size.
func (l *List) Size() int64 {
	return l.wide().capped()
}

// wide returns the list's exact size (computed for a list built without
// its constructor).
func (l *List) wide() wideSize {
	if l.size == (wideSize{}) {
		return sumWide(l.Items)
	}
	return l.size
}

// wideSize is an exact logical size of up to 96 bits: lo + hi<<64.
type wideSize struct {
	lo uint64
	hi uint32
}

func (w wideSize) add(n int64) wideSize {
	lo, carry := bits.Add64(w.lo, uint64(n), 0)
	return wideSize{lo, w.hi + uint32(carry)}
}

func (w wideSize) sub(n int64) wideSize {
	lo, borrow := bits.Sub64(w.lo, uint64(n), 0)
	return wideSize{lo, w.hi - uint32(borrow)}
}

func (w wideSize) capped() int64 {
	if w.hi > 0 || w.lo >= uint64(SizeCap) {
		return SizeCap
	}
	return int64(w.lo)
}

// sumWide is the exact size of a list of vs.
func sumWide(vs []Value) wideSize {
	w := wideSize{lo: SlotSize}
	for i := range vs {
		w = w.add(vs[i].Size())
	}
	return w
}

// Size returns the data value's logical size.
func (d *Data) Size() int64 {
	if d.size == 0 {
		return sumSizes(d.Fields)
	}
	return d.size
}

// Size returns the closure's logical size (its captured values count).
func (c *Closure) Size() int64 {
	if c.size == 0 {
		return sumSizes(c.Free)
	}
	return c.size
}

// Drop returns the list without its first n elements (0 <= n <= len), a
// window on the same array. Its exact size is computed from the shorter
// side: the dropped prefix is subtracted, or the kept suffix summed.
func (l *List) Drop(n int) Value {
	items := l.Items[n:]
	var size wideSize
	if n <= len(items) {
		size = l.wide()
		for i := range l.Items[:n] {
			size = size.sub(l.Items[i].Size())
		}
	} else {
		size = sumWide(items)
	}
	return Value{K: KList, R: &List{Items: items, size: size, arr: l.arr}}
}

// Take returns the first n elements (0 <= n <= len) as a list whose
// capacity is cut, so that appending to it always copies.
func (l *List) Take(n int) Value {
	if n == len(l.Items) && l.arr == nil && cap(l.Items) == n {
		return Value{K: KList, R: l}
	}
	items := l.Items[:n:n]
	var size wideSize
	if len(l.Items)-n < n {
		size = l.wide()
		for i := range l.Items[n:] {
			size = size.sub(l.Items[n+i].Size())
		}
	} else {
		size = sumWide(items)
	}
	return Value{K: KList, R: &List{Items: items, size: size}}
}

// Append returns a new list holding l's items followed by extra; l is
// unchanged. When l ends at the first unclaimed slot of an array built
// by Append with room for extra, the slots are claimed (atomically) and
// filled in place; otherwise the items are copied into a new array with
// twice the room. Repeated appends are amortised O(1).
func (l *List) Append(extra ...Value) Value {
	items := l.Items
	n, m := len(items), len(extra)
	size := l.wide()
	for i := range extra {
		size = size.add(extra[i].Size())
	}
	if m == 0 {
		return Value{K: KList, R: l}
	}
	if a := l.arr; a != nil && n+m <= cap(items) {
		end := int64(a.total - cap(items) + n) // l's end as an index of the array
		if a.used.CompareAndSwap(end, end+int64(m)) {
			ext := items[:n+m]
			copy(ext[n:], extra)
			return Value{K: KList, R: &List{Items: ext, size: size, arr: a}}
		}
	}
	c := max(2*(n+m), 4)
	buf := make([]Value, c)
	copy(buf, items)
	copy(buf[n:], extra)
	a := &backing{total: c}
	a.used.Store(int64(n + m))
	return Value{K: KList, R: &List{Items: buf[:n+m], size: size, arr: a}}
}
func Some(v Value) Value { return NewData(OptionType, TagSome, v) }
func None() Value        { return NewData(OptionType, TagNone) }
func Ok(v Value) Value   { return NewData(ResultType, TagOk, v) }
func Err(v Value) Value  { return NewData(ResultType, TagErr, v) }

// Accessors. They assume the kind is right; the checker guarantees it for
// verified programs.

func (v Value) AsInt() int64     { return v.N }
func (v Value) AsFloat() float64 { return math.Float64frombits(uint64(v.N)) }
func (v Value) AsBool() bool     { return v.N != 0 }
func (v Value) AsString() string {
	s, _ := v.R.(string)
	return s
}
func (v Value) AsTuple() *Tuple { return v.R.(*Tuple) }
func (v Value) AsList() *List   { return v.R.(*List) }
func (v Value) AsData() *Data   { return v.R.(*Data) }
func (v Value) AsRange() *Range { return v.R.(*Range) }
