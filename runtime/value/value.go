// Package value is the runtime representation of Morrow values, shared by
// the interpreter (runtime/vm) and the native standard library
// (stdlib/core).
//
// # Representation
//
// A Value is two machine words, 16 bytes: a pointer p and a payload n.
// The kind is recovered from p alone:
//
//   - Unit is the zero Value (p nil), so a cleared slot holds Unit;
//   - Int, Float and Bool point p at a static descriptor of their kind
//     (one per kind) and keep their bits in n (Float as IEEE bits, Bool
//     as 0 or 1); testing "is this an Int" is one pointer comparison;
//   - every other kind points p at a heap object whose first field is a
//     header holding the kind: a boxed string, Tuple, List, Data,
//     Closure, NativeFunc, Range, or a Handle (Pid, ProcessId,
//     MonitorRef, the VM's iterators and other opaque runtime objects,
//     whose n carries a serial number), or a *Map (Map and Set values,
//     pmap.go).
//
// p is an unsafe.Pointer, so the garbage collector sees a real pointer
// (to a static descriptor or to the object); no pointer arithmetic is
// done: an object pointer is converted to its header and back to the
// object type it was made from, and every accessor checks the kind in the
// header before converting, so a Value of the wrong kind makes an
// accessor panic (the interpreter recovers that as an internal error)
// instead of reading memory as the wrong type. Values can only be built
// by this package's constructors, which set the header.
//
// Values are immutable once built, so any number of processes may share
// them: a message is handed to its receiver as it is (docs/reference/runtime.md#execution-model,
// "logically copied"). The one exception is frame-local iterator state
// (KIter), which the bytecode verifier keeps inside its frame. Values are
// compared with == only for identity (Same); strings are boxed, so two
// equal strings are two different Values: structural equality is
// stdlib/core.Equal.
//
// # Logical size
//
// Every compound node (Tuple, List, Data, Closure) carries its logical
// size, computed when it is built: SlotSize bytes for the node plus the
// sizes of its children, where a scalar, an opaque value or a range is
// one slot and a string is one slot plus its bytes. This is the size the
// limits of docs/reference/actors.md#limits charge for a message. It is the size of the
// value's unfolding: a node reachable along two paths counts twice, so a
// value with internal sharing (a DAG of n nodes) can have a size of order
// 2^n. Sizes saturate at SizeCap, far above any budget, so such a value
// is measured in O(1) and refused, never walked. (A Data node stores its
// size in 48 bits and reports SizeCap from 2^48-1 bytes up: over, never
// under its size, and the same decision for any budget below 256 TiB.) Nodes must be built with
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
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"sync/atomic"
	"unsafe"
)

// Kind is the dynamic tag of a value.
type Kind uint8

const (
	KUnit   Kind = iota // the zero Value
	KInt                // n: the Int
	KFloat              // n: the IEEE bits
	KBool               // n: 0 or 1
	KString             // a boxed string
	KTuple              // *Tuple
	KList               // *List
	KData               // *Data (sum variants, records, newtypes, Option, Result, ...)
	KFunc               // *Closure or *NativeFunc
	KRange              // *Range
	KPid                // Handle: opaque process address (runtime-defined); n: serial
	KProcID             // Handle: opaque process identity (runtime-defined); n: serial
	KMonRef             // Handle: opaque monitor reference (runtime-defined); n: serial
	KIter               // Handle: iterator state used by `for` (never escapes a frame)
	KOpaque             // Handle: anything else the runtime needs on the stack
	KMap                // *Map (pmap.go)
	KSet                // *Map holding a set (pmap.go)
)

var kindNames = [...]string{"Unit", "Int", "Float", "Bool", "String", "Tuple", "List", "Data", "Func", "Range", "Pid", "ProcessId", "MonitorRef", "Iter", "Opaque", "Map", "Set"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind?"
}

// isHandle reports whether values of kind k are Handles.
func (k Kind) isHandle() bool { return k >= KPid && k <= KOpaque }

// header is the first field of every object a Value points to, and the
// whole of the static descriptors of the scalar kinds.
type header struct {
	kind   Kind
	native bool // KFunc: a *NativeFunc, not a *Closure
}

// The static descriptors of the scalar kinds.
var (
	intDesc   = header{kind: KInt}
	floatDesc = header{kind: KFloat}
	boolDesc  = header{kind: KBool}
)

// Value is one Morrow value (see the package comment).
type Value struct {
	p unsafe.Pointer
	n int64
}

// Kind returns the value's dynamic tag.
func (v Value) Kind() Kind {
	if v.p == nil {
		return KUnit
	}
	return (*header)(v.p).kind
}

// IsInt reports whether v is an Int (one pointer comparison).
func (v Value) IsInt() bool { return v.p == unsafe.Pointer(&intDesc) }

// Same reports whether a and b are the same value by identity: equal
// scalars, or the same object. Structural equality is core.Equal.
func Same(a, b Value) bool { return a == b }

// String renders v for debugging (fault messages and tests); Morrow's
// own rendering is stdlib/core's Show and Display.
func (v Value) String() string {
	switch k := v.Kind(); k {
	case KTuple:
		return fmt.Sprintf("Tuple%v", v.AsTuple().Elems)
	case KList:
		return fmt.Sprintf("List%v", v.AsList().Items)
	case KData:
		d := v.AsData()
		name := "?"
		if d.Type != nil && d.Tag >= 0 && d.Tag < len(d.Type.Variants) {
			name = d.Type.Variants[d.Tag].Name
		}
		return fmt.Sprintf("%s%v", name, d.Fields)
	case KMap:
		return fmt.Sprintf("Map%v", v.AsMap().Pairs())
	case KSet:
		return fmt.Sprintf("Set%v", v.AsMap().Keys())
	}
	return v.scalarString()
}

// scalarString is String for Unit, Int, Float, Bool, String and the
// kinds without a rendering of their own.
func (v Value) scalarString() string {
	switch k := v.Kind(); k {
	case KUnit:
		return "()"
	case KInt:
		return strconv.FormatInt(v.n, 10)
	case KFloat:
		return strconv.FormatFloat(v.AsFloat(), 'g', -1, 64)
	case KBool:
		return strconv.FormatBool(v.n != 0)
	case KString:
		return strconv.Quote(v.AsString())
	default:
		return fmt.Sprintf("<%s %d>", k, v.n)
	}
}

// SlotSize is the logical size of one value slot (docs/reference/actors.md#limits
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

// str is a boxed string.
type str struct {
	h header
	s string
}

// Tuple is an immutable tuple.
type Tuple struct {
	h     header
	Elems []Value
	size  int64
}

// List is an immutable list: a window Items on a backing array.
type List struct {
	h     header
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
	h         header
	Inclusive bool
	Lo, Hi    int64
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
//
// The logical size is kept in 48 bits in the header's word (szLo |
// szHi<<16), where the header's padding would be, so that a node is 48
// bytes and a node built with two fields (data2, the common message)
// falls in the 80-byte size class of Go's allocator instead of the
// 96-byte one. A size of 2^48-1 or more is stored as dataSizeSat and
// read back as SizeCap: it is over-reported, never under-reported, and
// any budget below 2^48 bytes (256 TiB) refuses both alike.
type Data struct {
	h      header
	szLo   uint16
	szHi   uint32
	Tag    int
	Type   *TypeInfo
	Fields []Value
}

// dataSizeSat is the stored size of a Data whose size is 2^48-1 or more.
const dataSizeSat = 1<<48 - 1

// newDataNode returns the node of variant tag of t with fields and
// logical size size.
func newDataNode(t *TypeInfo, tag int, fields []Value, size int64) *Data {
	d := &Data{}
	d.init(t, tag, fields, size)
	return d
}

// init makes d the variant tag of t with fields and logical size size.
func (d *Data) init(t *TypeInfo, tag int, fields []Value, size int64) {
	*d = Data{h: header{kind: KData}, Type: t, Tag: tag, Fields: fields}
	d.setSize(size)
}

// setSize stores the logical size n (>= 0) in 48 bits.
func (d *Data) setSize(n int64) {
	u := uint64(min(n, dataSizeSat))
	d.szLo, d.szHi = uint16(u), uint32(u>>16)
}

// Closure is a function value: a compiled function index and captured
// values.
type Closure struct {
	h    header
	Fn   int
	Free []Value
	size int64
}

// NativeFunc is a native function used as a value (for example a builtin
// passed where a function is expected).
type NativeFunc struct {
	h    header
	ID   int
	Name string
}

// Handle is the object behind an opaque value (Pid, ProcessId,
// MonitorRef, the VM's iterators, KOpaque): a kind and a reference to a
// runtime object that this package never opens. A runtime object that is
// handed out as a value many times embeds its Handle (Init) and builds
// its values with Value, so that no value costs an allocation.
type Handle struct {
	h   header
	ref any
}

// NewHandle returns a new handle of kind k (KPid, KProcID, KMonRef,
// KIter or KOpaque) for ref.
func NewHandle(k Kind, ref any) *Handle {
	h := &Handle{}
	h.Init(k, ref)
	return h
}

// Init makes h a handle of kind k (KPid, KProcID, KMonRef, KIter or
// KOpaque) for ref; it panics for another kind.
func (h *Handle) Init(k Kind, ref any) {
	if !k.isHandle() {
		panic(fmt.Sprintf("value: a handle cannot have kind %s", k))
	}
	h.h, h.ref = header{kind: k}, ref
}

// Value returns the value of h with payload n (a serial number the
// runtime compares and prints).
func (h *Handle) Value(n int64) Value {
	if !h.h.kind.isHandle() {
		panic("value: Value of an uninitialised handle")
	}
	return Value{p: unsafe.Pointer(h), n: n}
}

// Opaque returns a value of handle kind k with payload n and reference
// ref (a new handle each time).
func Opaque(k Kind, n int64, ref any) Value { return NewHandle(k, ref).Value(n) }

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

// Unit is the unit value, the zero Value.
var Unit = Value{}

// emptyStr is the one empty string value (no allocation).
var emptyStr = str{h: header{kind: KString}}

func Int(n int64) Value { return Value{p: unsafe.Pointer(&intDesc), n: n} }
func Float(f float64) Value {
	return Value{p: unsafe.Pointer(&floatDesc), n: int64(math.Float64bits(f))}
}
func Bool(b bool) Value {
	if b {
		return Value{p: unsafe.Pointer(&boolDesc), n: 1}
	}
	return Value{p: unsafe.Pointer(&boolDesc)}
}
func String(s string) Value {
	if s == "" {
		return Value{p: unsafe.Pointer(&emptyStr)}
	}
	return Value{p: unsafe.Pointer(&str{h: header{kind: KString}, s: s})}
}

// NewTuple returns the tuple of elems (which it keeps, not copies).
func NewTuple(elems ...Value) Value {
	return Value{p: unsafe.Pointer(&Tuple{h: header{kind: KTuple}, Elems: elems, size: sumSizes(elems)})}
}

// NewList returns the list of items (which it keeps, not copies); its
// capacity is never written in place.
func NewList(items []Value) Value {
	return listValue(&List{Items: items, size: sumWide(items)})
}

// listValue returns the value of l, setting its header.
func listValue(l *List) Value {
	l.h = header{kind: KList}
	return Value{p: unsafe.Pointer(l)}
}

// NewData returns variant tag of type t with fields (kept, not copied).
func NewData(t *TypeInfo, tag int, fields ...Value) Value {
	return Value{p: unsafe.Pointer(newDataNode(t, tag, fields, sumSizes(fields)))}
}

// A node of up to four fields is allocated together with its fields, in
// one object whose first field is the Data (so the value's pointer is the
// object's start, as for a lone Data): one allocation instead of two for
// the common variants (Ok, Some, Err, a message with a few fields).
type (
	data1 struct {
		d Data
		f [1]Value
	}
	data2 struct {
		d Data
		f [2]Value
	}
	data3 struct {
		d Data
		f [3]Value
	}
	data4 struct {
		d Data
		f [4]Value
	}
)

// NewDataCopy returns a variant value with a copy of fields (which the
// caller may reuse), allocated in one object when it has at most four.
func NewDataCopy(t *TypeInfo, tag int, fields []Value) Value {
	switch len(fields) {
	case 1:
		return newData1(t, tag, fields[0])
	case 2:
		return newData2(t, tag, fields[0], fields[1])
	case 3:
		return newData3(t, tag, fields[0], fields[1], fields[2])
	case 4:
		return newData4(t, tag, fields[0], fields[1], fields[2], fields[3])
	}
	fs := make([]Value, len(fields))
	copy(fs, fields)
	return Value{p: unsafe.Pointer(newDataNode(t, tag, fs, sumSizes(fs)))}
}

// newData1..newData4 build a node of one to four fields in one
// allocation. The sizes are summed before the object is allocated, so
// that no call separates the allocation from the stores that fill it
// (the compiler then needs no write barrier for them), and the fields
// are stored one by one rather than copied from a slice.
func newData1(t *TypeInfo, tag int, v Value) Value {
	size := AddSize(SlotSize, fieldSize(v))
	x := &data1{}
	x.f[0] = v
	x.d.init(t, tag, x.f[:], size)
	return Value{p: unsafe.Pointer(&x.d)}
}

func newData2(t *TypeInfo, tag int, v0, v1 Value) Value {
	size := AddSize(AddSize(SlotSize, fieldSize(v0)), fieldSize(v1))
	x := &data2{}
	x.f[0], x.f[1] = v0, v1
	x.d.init(t, tag, x.f[:], size)
	return Value{p: unsafe.Pointer(&x.d)}
}

func newData3(t *TypeInfo, tag int, v0, v1, v2 Value) Value {
	size := AddSize(AddSize(AddSize(SlotSize, fieldSize(v0)), fieldSize(v1)), fieldSize(v2))
	x := &data3{}
	x.f[0], x.f[1], x.f[2] = v0, v1, v2
	x.d.init(t, tag, x.f[:], size)
	return Value{p: unsafe.Pointer(&x.d)}
}

func newData4(t *TypeInfo, tag int, v0, v1, v2, v3 Value) Value {
	size := AddSize(AddSize(AddSize(AddSize(SlotSize, fieldSize(v0)), fieldSize(v1)), fieldSize(v2)), fieldSize(v3))
	x := &data4{}
	x.f[0], x.f[1], x.f[2], x.f[3] = v0, v1, v2, v3
	x.d.init(t, tag, x.f[:], size)
	return Value{p: unsafe.Pointer(&x.d)}
}

// fieldSize is v.Size() with the scalars (Unit, Int, Float, Bool: one
// slot) answered inline.
func fieldSize(v Value) int64 {
	if v.p == nil || (*header)(v.p).kind <= KBool {
		return SlotSize
	}
	return v.Size()
}

// NewClosure returns the closure of compiled function fn capturing free
// (kept, not copied).
func NewClosure(fn int, free []Value) Value {
	return Value{p: unsafe.Pointer(&Closure{h: header{kind: KFunc}, Fn: fn, Free: free, size: sumSizes(free)})}
}

// NewNative returns native function id (called name) as a value.
func NewNative(id int, name string) Value {
	return Value{p: unsafe.Pointer(&NativeFunc{h: header{kind: KFunc, native: true}, ID: id, Name: name})}
}

// NewRange returns the range lo..hi (lo..=hi when inclusive).
func NewRange(lo, hi int64, inclusive bool) Value {
	return Value{p: unsafe.Pointer(&Range{h: header{kind: KRange}, Lo: lo, Hi: hi, Inclusive: inclusive})}
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
	switch v.Kind() {
	case KString:
		return SlotSize + int64(len((*str)(v.p).s))
	case KTuple:
		return (*Tuple)(v.p).size
	case KList:
		return (*List)(v.p).Size()
	case KData:
		return (*Data)(v.p).Size()
	case KMap, KSet:
		return (*Map)(v.p).Size()
	case KFunc:
		if c, ok := v.Closure(); ok {
			return c.size
		}
	}
	return SlotSize
}

// Size returns the tuple's logical size.
func (t *Tuple) Size() int64 { return t.size }

// Size returns the list's logical size.
func (l *List) Size() int64 {
	return l.size.capped()
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
	n := int64(d.szLo) | int64(d.szHi)<<16
	if n == dataSizeSat {
		return SizeCap
	}
	return n
}

// Size returns the closure's logical size (its captured values count).
func (c *Closure) Size() int64 { return c.size }

// Drop returns the list without its first n elements (0 <= n <= len), a
// window on the same array. Its exact size is computed from the shorter
// side: the dropped prefix is subtracted, or the kept suffix summed.
func (l *List) Drop(n int) Value {
	items := l.Items[n:]
	var size wideSize
	if n <= len(items) {
		size = l.size
		for i := range l.Items[:n] {
			size = size.sub(l.Items[i].Size())
		}
	} else {
		size = sumWide(items)
	}
	return listValue(&List{Items: items, size: size, arr: l.arr})
}

// Take returns the first n elements (0 <= n <= len) as a list whose
// capacity is cut, so that appending to it always copies.
func (l *List) Take(n int) Value {
	if n == len(l.Items) && l.arr == nil && cap(l.Items) == n {
		return Value{p: unsafe.Pointer(l)}
	}
	items := l.Items[:n:n]
	var size wideSize
	if len(l.Items)-n < n {
		size = l.size
		for i := range l.Items[n:] {
			size = size.sub(l.Items[n+i].Size())
		}
	} else {
		size = sumWide(items)
	}
	return listValue(&List{Items: items, size: size})
}

// AppendsInPlace reports whether Append of m elements would, at this
// moment, claim free slots of l's array instead of copying l's items (a
// long native measures its work with it: in place, appending costs m,
// not len + m). Another list may claim the slots meanwhile.
func (l *List) AppendsInPlace(m int) bool {
	a := l.arr
	if a == nil || len(l.Items)+m > cap(l.Items) {
		return false
	}
	return a.used.Load() == int64(a.total-cap(l.Items)+len(l.Items))
}

// Append returns a new list holding l's items followed by extra; l is
// unchanged. When l ends at the first unclaimed slot of an array built
// by Append with room for extra, the slots are claimed (atomically) and
// filled in place; otherwise the items are copied into a new array with
// twice the room. Repeated appends are amortised O(1).
func (l *List) Append(extra ...Value) Value {
	items := l.Items
	n, m := len(items), len(extra)
	size := l.size
	for i := range extra {
		size = size.add(extra[i].Size())
	}
	if m == 0 {
		return Value{p: unsafe.Pointer(l)}
	}
	if a := l.arr; a != nil && n+m <= cap(items) {
		end := int64(a.total - cap(items) + n) // l's end as an index of the array
		if a.used.CompareAndSwap(end, end+int64(m)) {
			ext := items[:n+m]
			copy(ext[n:], extra)
			return listValue(&List{Items: ext, size: size, arr: a})
		}
	}
	c := max(2*(n+m), 4)
	buf := make([]Value, c)
	copy(buf, items)
	copy(buf[n:], extra)
	a := &backing{total: c}
	a.used.Store(int64(n + m))
	return listValue(&List{Items: buf[:n+m], size: size, arr: a})
}
func Some(v Value) Value { return newData1(OptionType, TagSome, v) }
func None() Value        { return NewData(OptionType, TagNone) }
func Ok(v Value) Value   { return newData1(ResultType, TagOk, v) }
func Err(v Value) Value  { return newData1(ResultType, TagErr, v) }

// Accessors. The As accessors assume the kind is right (the checker
// guarantees it for verified programs): the scalar ones read the payload
// whatever the kind, AsString returns "" for a non-string, and the
// object ones panic on a value of another kind. The accessors that
// return (object, ok) report the kind instead.

func (v Value) AsInt() int64     { return v.n }
func (v Value) AsFloat() float64 { return math.Float64frombits(uint64(v.n)) }
func (v Value) AsBool() bool     { return v.n != 0 }

// Payload returns the value's second word: the Int, the Float's bits,
// the Bool as 0 or 1, or the serial number of an opaque value.
func (v Value) Payload() int64 { return v.n }

func (v Value) AsString() string {
	s, _ := v.Str()
	return s
}
func (v Value) AsTuple() *Tuple { return mustNodeOf[Tuple](v, KTuple) }
func (v Value) AsList() *List   { return mustNodeOf[List](v, KList) }
func (v Value) AsData() *Data   { return mustNodeOf[Data](v, KData) }
func (v Value) AsRange() *Range { return mustNodeOf[Range](v, KRange) }

// mustNodeOf returns the node of v as a *T; v must be of kind k.
func mustNodeOf[T any](v Value, k Kind) *T {
	if v.Kind() != k {
		wrongKind(k, v)
	}
	return (*T)(v.p)
}

// wrongKind panics: an accessor was used on a value of another kind.
func wrongKind(want Kind, v Value) {
	panic(fmt.Sprintf("value: %s accessor used on a %s value", want, v.Kind()))
}

// Str returns the string of a String value.
func (v Value) Str() (string, bool) {
	if v.Kind() != KString {
		return "", false
	}
	return (*str)(v.p).s, true
}

// nodeOf returns the node of v as a *T when v is of kind k.
func nodeOf[T any](v Value, k Kind) (*T, bool) {
	if v.Kind() != k {
		return nil, false
	}
	return (*T)(v.p), true
}

// Tuple returns the tuple of a Tuple value.
func (v Value) Tuple() (*Tuple, bool) { return nodeOf[Tuple](v, KTuple) }

// List returns the list of a List value.
func (v Value) List() (*List, bool) { return nodeOf[List](v, KList) }

// Data returns the node of a Data value.
func (v Value) Data() (*Data, bool) { return nodeOf[Data](v, KData) }

// Range returns the range of a Range value.
func (v Value) Range() (*Range, bool) { return nodeOf[Range](v, KRange) }

// Closure returns the closure of a compiled function value.
func (v Value) Closure() (*Closure, bool) {
	if v.p == nil {
		return nil, false
	}
	if h := (*header)(v.p); h.kind != KFunc || h.native {
		return nil, false
	}
	return (*Closure)(v.p), true
}

// NativeFunc returns the native of a native function value.
func (v Value) NativeFunc() (*NativeFunc, bool) {
	if v.p == nil {
		return nil, false
	}
	if h := (*header)(v.p); h.kind != KFunc || !h.native {
		return nil, false
	}
	return (*NativeFunc)(v.p), true
}

// Ref returns the runtime object behind an opaque value (a Handle's
// reference), or nil for a value of another kind.
func (v Value) Ref() any {
	if !v.Kind().isHandle() {
		return nil
	}
	return (*Handle)(v.p).ref
}

// Node returns the object a non-scalar value points to as a comparable
// pointer (*Tuple, *List, *Data, *Closure, *NativeFunc, *Range or
// *Handle), for identity comparisons and memo keys; nil for scalars and
// strings.
func (v Value) Node() any {
	switch v.Kind() {
	case KTuple:
		return (*Tuple)(v.p)
	case KList:
		return (*List)(v.p)
	case KData:
		return (*Data)(v.p)
	case KFunc:
		if c, ok := v.Closure(); ok {
			return c
		}
		return (*NativeFunc)(v.p)
	case KRange:
		return (*Range)(v.p)
	case KPid, KProcID, KMonRef, KIter, KOpaque:
		return (*Handle)(v.p)
	case KMap, KSet:
		return (*Map)(v.p)
	}
	return nil
}
