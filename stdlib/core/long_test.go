package core_test

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/core"
)

func ints(n int) value.Value {
	xs := make([]value.Value, n)
	for i := range xs {
		xs[i] = value.Int(int64(i))
	}
	return value.NewList(xs)
}

// TestLongMeasures: the measures of long natives (long.go, and
// native.Length and native.Logical by default) count what the call will
// do.
func TestLongMeasures(t *testing.T) {
	measure := func(name string, args ...value.Value) int64 {
		n, ok := stdlib.Natives().Lookup(name)
		if !ok || n.Size == nil {
			t.Fatalf("%s has no measure", name)
		}
		return n.Size(args)
	}
	big := ints(1000)
	push, _ := core.Lookup("List.push")
	grown, f := push.Call(nil, []value.Value{big, value.Int(1)}) // copies: room at the end
	if f != nil {
		t.Fatal(f)
	}
	for _, c := range []struct {
		name string
		args []value.Value
		want int64
	}{
		{"List.range", []value.Value{value.Int(-5), value.Int(100)}, 105},
		{"List.range", []value.Value{value.Int(7), value.Int(3)}, 0},
		{"List.range", []value.Value{value.Int(-1 << 63), value.Int(1<<63 - 1)}, value.SizeCap},
		{"String.repeat", []value.Value{value.String("abcd"), value.Int(1000)}, 250},
		{"String.repeat", []value.Value{value.String(""), value.Int(1 << 40)}, 0},
		{"String.repeat", []value.Value{value.String("ab"), value.Int(1<<63 - 1)}, value.SizeCap / value.SlotSize},
		{"String.pad_left", []value.Value{value.String("x"), value.Int(160), value.String(".")}, 11},
		{"List.push", []value.Value{big, value.Int(1)}, 1001}, // a copy
		{"List.push", []value.Value{grown, value.Int(1)}, 1},  // in place
		{"List.push", []value.Value{grown, ints(3)}, 1},       // one element, a list
		{"List.concat", []value.Value{grown, ints(10)}, 10},   // in place
		{"List.concat", []value.Value{big, ints(10)}, 1010},   // a copy
		{"List.concat", []value.Value{big, ints(0)}, 0},       // the first list
		{"List.drop", []value.Value{big, value.Int(1)}, 1},
		{"List.drop", []value.Value{big, value.Int(-3)}, 0},
		{"List.take", []value.Value{big, value.Int(600)}, 400},
		{"List.take", []value.Value{big, value.Int(5000)}, 0},
		{"List.reverse", []value.Value{big}, 1000}, // native.Length
		{"String.to_upper", []value.Value{value.String(strings.Repeat("a", 320))}, 21},
		{"List.sort", []value.Value{big}, 1001}, // native.Logical
	} {
		if got := measure(c.name, c.args...); got != c.want {
			t.Errorf("%s measure %d, want %d", c.name, got, c.want)
		}
	}
}
