package core

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// TestPushNeverMutates builds lists that share backing arrays in every way
// the natives allow (push twice onto one list, push onto a tail, a drop, a
// take, concat onto a shared prefix) and checks that no list ever changes.
func TestPushNeverMutates(t *testing.T) {
	push := func(xs value.Value, x int64) value.Value {
		v, f := call(t, "List.push", xs, I(x))
		if f != nil {
			t.Fatal(f)
		}
		return v
	}
	op := func(name string, args ...value.Value) value.Value {
		v, f := call(t, name, args...)
		if f != nil {
			t.Fatal(f)
		}
		return v
	}
	base := L()
	for i := int64(1); i <= 5; i++ {
		base = push(base, i)
	}
	type snap struct {
		v    value.Value
		want string
	}
	var all []snap
	keep := func(v value.Value, want string) value.Value {
		if got := Show(v); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		all = append(all, snap{v, want})
		return v
	}
	keep(base, "[1, 2, 3, 4, 5]")
	a := keep(push(base, 6), "[1, 2, 3, 4, 5, 6]")
	b := keep(push(base, 7), "[1, 2, 3, 4, 5, 7]") // slot 5 is taken by a: must copy
	keep(push(a, 8), "[1, 2, 3, 4, 5, 6, 8]")
	keep(push(b, 9), "[1, 2, 3, 4, 5, 7, 9]")
	tail := keep(op("List.tail", base), "[2, 3, 4, 5]")
	keep(push(tail, 10), "[2, 3, 4, 5, 10]")
	dropped := keep(op("List.drop", a, I(3)), "[4, 5, 6]")
	keep(push(dropped, 11), "[4, 5, 6, 11]")
	taken := keep(op("List.take", a, I(2)), "[1, 2]")
	keep(push(taken, 12), "[1, 2, 12]")
	keep(op("List.concat", base, Ints(13, 14)), "[1, 2, 3, 4, 5, 13, 14]")
	c2 := keep(op("List.concat", a, Ints(15)), "[1, 2, 3, 4, 5, 6, 15]")
	keep(op("List.concat", c2, Ints(16, 17, 18, 19, 20, 21, 22, 23, 24)), "[1, 2, 3, 4, 5, 6, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24]")
	keep(push(c2, 25), "[1, 2, 3, 4, 5, 6, 15, 25]")
	// A list that did not come from push (a VM literal with spare
	// capacity holding ordinary values) is never written in place.
	raw := make([]value.Value, 2, 4)
	raw[0], raw[1] = I(1), I(2)
	full := raw[:4]
	full[2], full[3] = value.Unit, value.Unit
	lit := keep(value.NewList(raw), "[1, 2]")
	keep(push(lit, 26), "[1, 2, 26]")
	if full[2].Kind() != value.KUnit {
		t.Error("push wrote into a foreign backing array")
	}
	for _, s := range all {
		if got := Show(s.v); got != s.want {
			t.Errorf("list changed: now %s, was %s", got, s.want)
		}
	}
}

// TestPushAmortised checks that a chain of pushes reuses its backing array
// (linear, not quadratic, total copying).
func TestPushAmortised(t *testing.T) {
	xs := L()
	allocs := 0
	var last *value.Value
	for i := 0; i < 10000; i++ {
		xs = listOf(xs).Append(I(int64(i)))
		first := &xs.AsList().Items[0]
		if first != last {
			allocs++
			last = first
		}
	}
	if allocs > 20 {
		t.Errorf("10000 pushes reallocated %d times", allocs)
	}
	if n := len(listItems(xs)); n != 10000 || listItems(xs)[9999].AsInt() != 9999 {
		t.Errorf("wrong result after pushes: len %d", n)
	}
}

func TestListSizeLimit(t *testing.T) {
	if MaxListLen != 1<<24 {
		t.Fatalf("MaxListLen = %d, want 2^24", MaxListLen)
	}
	defer func(old int) { listLimit = old }(listLimit)
	listLimit = 1000
	big := make([]value.Value, listLimit+1)
	for i := range big {
		big[i] = I(1)
	}
	if _, f := call(t, "List.zip", value.NewList(big), value.NewList(big)); f == nil || f.Code != fault.ListSize {
		t.Errorf("zip above 2^24: fault %v, want %d", f, fault.ListSize)
	}
	if _, f := call(t, "List.zip", value.NewList(big), Ints(1)); f != nil {
		t.Errorf("zip with a short list faulted: %v", f)
	}
	if _, f := call(t, "List.zip", value.NewList(big[1:]), value.NewList(big)); f != nil {
		t.Errorf("zip of exactly the limit faulted: %v", f)
	}
	got, f := call(t, "List.range", I(-5), I(995))
	if f != nil || len(listItems(got)) != 1000 {
		t.Errorf("range of exactly the limit: fault %v", f)
	}
	if _, f := call(t, "List.range", I(-5), I(996)); f == nil || f.Code != fault.ListSize {
		t.Errorf("range above the limit: fault %v", f)
	}
}
