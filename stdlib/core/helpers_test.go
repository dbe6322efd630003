package core

import (
	"bytes"
	"io"
	"math"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Short constructors for test values.

func I(n int64) value.Value   { return value.Int(n) }
func F(f float64) value.Value { return value.Float(f) }
func B(b bool) value.Value    { return value.Bool(b) }
func S(s string) value.Value  { return value.String(s) }
func L(xs ...value.Value) value.Value {
	return value.NewList(xs)
}
func T(xs ...value.Value) value.Value { return value.NewTuple(xs...) }
func Ints(ns ...int64) value.Value {
	out := make([]value.Value, len(ns))
	for i, n := range ns {
		out[i] = I(n)
	}
	return L(out...)
}
func Strs(ss ...string) value.Value {
	out := make([]value.Value, len(ss))
	for i, s := range ss {
		out[i] = S(s)
	}
	return L(out...)
}

var negZero = math.Copysign(0, -1)

// Test nominal types.
var (
	shapeType = &value.TypeInfo{Name: "geometry.Shape", Kind: value.TSum, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{
			{Name: "Circle", Fields: []string{"radius"}},
			{Name: "Shape.Rectangle", Fields: []string{"w", "h"}},
			{Name: "Point"},
		}}
	userType = &value.TypeInfo{Name: "User", Kind: value.TRecord, Show: true, Eq: true,
		Variants: []value.VariantInfo{{Name: "User", Fields: []string{"name", "age"}}}}
	userIDType = &value.TypeInfo{Name: "UserId", Kind: value.TNewtype, Show: true, Eq: true, Ord: true,
		Variants: []value.VariantInfo{{Name: "UserId", Fields: []string{""}}}}
)

func circle(r value.Value) value.Value { return value.NewData(shapeType, 0, r) }
func rect(w, h value.Value) value.Value {
	return value.NewData(shapeType, 1, w, h)
}
func point() value.Value                   { return value.NewData(shapeType, 2) }
func user(n string, age int64) value.Value { return value.NewData(userType, 0, S(n), I(age)) }
func userID(n int64) value.Value           { return value.NewData(userIDType, 0, I(n)) }

// testCtx is a native.Host writing to a buffer, with no process.
type testCtx struct {
	native.Detached
	out bytes.Buffer
}

func (c *testCtx) Stdout() io.Writer { return &c.out }

// call runs a registered native through Call.
func call(t *testing.T, name string, args ...value.Value) (value.Value, *fault.Fault) {
	t.Helper()
	n, found := Lookup(name)
	if !found {
		t.Fatalf("native %s is not registered", name)
	}
	return n.Call(&testCtx{}, args)
}
