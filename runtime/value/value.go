// Package value is the runtime representation of Morrow values, shared by
// the interpreter (runtime/vm) and the native standard library
// (stdlib/core).
//
// A Value is a small tagged struct: scalars live in N (Int, Bool as 0/1,
// Float as IEEE bits) and everything else behind R. Values are immutable
// once built; lists and tuples are never mutated after construction, so
// sharing them inside one process is safe. Messages between processes are
// deep-copied (Copy) so no two processes share structure.
package value

import "math"

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

// Tuple is an immutable tuple.
type Tuple struct{ Elems []Value }

// List is an immutable list.
type List struct{ Items []Value }

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
}

// Closure is a function value: a compiled function index and captured
// values.
type Closure struct {
	Fn   int
	Free []Value
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
func String(s string) Value         { return Value{K: KString, R: s} }
func NewTuple(elems ...Value) Value { return Value{K: KTuple, R: &Tuple{Elems: elems}} }
func NewList(items []Value) Value   { return Value{K: KList, R: &List{Items: items}} }
func NewData(t *TypeInfo, tag int, fields ...Value) Value {
	return Value{K: KData, R: &Data{Type: t, Tag: tag, Fields: fields}}
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
