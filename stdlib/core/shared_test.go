package core

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// dag returns a value with n+1 distinct nodes whose unfolding has 2^n
// leaves: the shape `build(n, acc) = build(n-1, N(acc, acc))` of a Morrow
// program (a tuple stands for N).
func dag(n int, leaf value.Value) value.Value {
	acc := leaf
	for i := 0; i < n; i++ {
		acc = T(acc, acc)
	}
	return acc
}

// TestSharedValuesCompareByDistinctNodes: Equal, Compare and Contains on
// two separately built values with 2^61 leaves visit a number of pairs
// proportional to their 62 distinct nodes, not to their unfolding.
func TestSharedValuesCompareByDistinctNodes(t *testing.T) {
	a, b, c := dag(61, I(0)), dag(61, I(0)), dag(61, I(1))
	const bound = 1000 // pairs visited; the unfolding has 2^62
	if eq, w := EqualWork(a, b); !eq || w > bound {
		t.Errorf("Equal(a, b) = %v after %d pairs", eq, w)
	}
	if eq, w := EqualWork(a, c); eq || w > bound {
		t.Errorf("Equal(a, c) = %v after %d pairs", eq, w)
	}
	if c, w := CompareWork(a, b); c != 0 || w > bound {
		t.Errorf("Compare(a, b) = %d after %d pairs", c, w)
	}
	if c, w := CompareWork(a, dag(61, I(1))); c != -1 || w > bound {
		t.Errorf("Compare(a, c) = %d after %d pairs", c, w)
	}
	if found, w := ContainsWork(L(c, b), a); !found || w > 2*bound {
		t.Errorf("Contains = %v after %d pairs", found, w)
	}
	// Sharing inside a list: [a, a, ..., a] against a list of b's.
	xs, ys := make([]value.Value, 1000), make([]value.Value, 1000)
	for i := range xs {
		xs[i], ys[i] = a, b
	}
	if eq, w := EqualWork(L(xs...), L(ys...)); !eq || w > 3000 {
		t.Errorf("Equal on lists of shared values = %v after %d pairs", eq, w)
	}
	// A NaN inside a shared value is still unequal to itself.
	nan := dag(40, F(nanBits()))
	if Equal(nan, nan) {
		t.Error("a value holding NaN equals itself")
	}
	if Compare(nan, nan) != 0 {
		t.Error("Compare of a value with itself is not 0")
	}
}

func nanBits() float64 {
	z := 0.0
	return z / z
}

// TestSharedValueSizeIsSaturated: the logical size of a shared value is
// known without walking it and saturates at value.SizeCap.
func TestSharedValueSizeIsSaturated(t *testing.T) {
	if got := dag(61, I(0)).Size(); got != value.SizeCap {
		t.Errorf("size of a 2^61-leaf value = %d, want the cap %d", got, value.SizeCap)
	}
	if got, want := dag(3, I(0)).Size(), int64(16*15); got != want {
		t.Errorf("size of an 8-leaf value = %d, want %d", got, want)
	}
}

// TestRenderingSharedValuesIsBounded: rendering stops at its limit.
func TestRenderingSharedValuesIsBounded(t *testing.T) {
	big := dag(61, I(0))
	if _, f := RenderShow(big); f == nil || f.Code != fault.RenderSize {
		t.Errorf("RenderShow: fault %v", f)
	}
	var b strings.Builder
	if WriteDisplay(&b, big, 1<<20) || b.Len() > 1<<20+64 {
		t.Errorf("WriteDisplay wrote %d bytes", b.Len())
	}
	b.Reset()
	if !WriteDisplay(&b, T(S("a"), I(1)), 100) || b.String() != `("a", 1)` {
		t.Errorf("WriteDisplay = %q", b.String())
	}
	if !WriteDisplay(&b, S("xyz"), 100) || WriteDisplay(&b, S(strings.Repeat("x", 100)), 100) {
		t.Error("WriteDisplay ignores its limit for strings")
	}
}

// TestEveryListBuilderHasTheLimit: push, concat (doubling) and split
// fault with 15 past the list size limit, instead of growing until the
// Go runtime runs out of memory.
func TestEveryListBuilderHasTheLimit(t *testing.T) {
	defer func(old int) { listLimit = old }(listLimit)
	listLimit = 1000
	xs := Ints(1)
	var f *fault.Fault
	doublings := 0
	for f == nil && doublings < 20 {
		xs, f = call(t, "List.concat", xs, xs)
		doublings++
	}
	if f == nil || f.Code != fault.ListSize || doublings != 10 {
		t.Fatalf("concat doubling: fault %v after %d doublings", f, doublings)
	}
	full := Ints()
	for i := 0; i < listLimit; i++ {
		if full, f = call(t, "List.push", full, I(int64(i))); f != nil {
			t.Fatalf("push %d: %v", i, f)
		}
	}
	if _, f := call(t, "List.push", full, I(0)); f == nil || f.Code != fault.ListSize {
		t.Errorf("push past the limit: fault %v", f)
	}
	if _, f := call(t, "List.concat", full, Ints()); f != nil {
		t.Errorf("concat of exactly the limit: %v", f)
	}
	if _, f := call(t, "String.split", S(strings.Repeat(",", listLimit)), S(",")); f == nil || f.Code != fault.ListSize {
		t.Errorf("split into limit+1 pieces: fault %v", f)
	}
	if _, f := call(t, "String.split", S(strings.Repeat(",", listLimit-1)), S(",")); f != nil {
		t.Errorf("split into exactly the limit: %v", f)
	}
	if _, f := call(t, "String.split", S(strings.Repeat("x", listLimit+1)), S("")); f == nil || f.Code != fault.ListSize {
		t.Errorf("split into limit+1 characters: fault %v", f)
	}
}

// TestQuoteHasTheStringLimit: String.quote doubles a string of quotes;
// past 16 MiB it faults with code 5.
func TestQuoteHasTheStringLimit(t *testing.T) {
	half := strings.Repeat(`"`, MaxStringBytes/2)
	if _, f := call(t, "String.quote", S(half)); f == nil || f.Code != fault.StringSize {
		t.Errorf("quote past 16 MiB: fault %v", f)
	}
	if got, f := call(t, "String.quote", S(`a"b`)); f != nil || got.AsString() != `"a\"b"` {
		t.Errorf("quote = %v, %v", got, f)
	}
}

// TestNativesReportTheirWork: the natives that walk values report work
// proportional to what they visited, for the VM to charge.
func TestNativesReportTheirWork(t *testing.T) {
	n, _ := Lookup("List.contains")
	big := make([]value.Value, 5000)
	for i := range big {
		big[i] = I(int64(i))
	}
	if res, f, w := n.CallWork(&testCtx{}, []value.Value{L(big...), I(-1)}); f != nil || res.AsBool() || w < 5000 {
		t.Errorf("List.contains: %v %v work %d", res, f, w)
	}
	n, _ = Lookup("show")
	if _, f, w := n.CallWork(&testCtx{}, []value.Value{L(big...)}); f != nil || w < 1000 {
		t.Errorf("show: %v work %d", f, w)
	}
	n, _ = Lookup("List.len")
	if _, _, w := n.CallWork(&testCtx{}, []value.Value{L(big...)}); w != 0 {
		t.Errorf("List.len reports work %d", w)
	}
}
