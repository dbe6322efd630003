package core

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// nest wraps v in depth one-element lists, alternating with Some and
// one-element tuples so every container kind is exercised.
func nest(v value.Value, depth int) value.Value {
	for i := 0; i < depth; i++ {
		switch i % 3 {
		case 0:
			v = L(v)
		case 1:
			v = value.Some(v)
		default:
			v = T(v, I(int64(i)))
		}
	}
	return v
}

// TestDeepValues runs Show, Equal, Compare and Copy on a value nested
// 150,000 levels deep with the Go stack limited to 4 MiB. A recursive
// implementation would exhaust the stack (a fatal error, not a recoverable
// panic); with the default 1 GB limit it would take a few million levels,
// which a Morrow loop can build.
func TestDeepValues(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(4 << 20))
	const depth = 150_000
	a, b := nest(I(1), depth), nest(I(1), depth)
	c := nest(I(2), depth)
	if !Equal(a, b) || Equal(a, c) {
		t.Error("Equal on deep values")
	}
	if Compare(a, b) != 0 || Compare(a, c) != -1 || Compare(c, a) != 1 {
		t.Error("Compare on deep values")
	}
	s := Show(a)
	// Level i is a list, Some or tuple by i % 3; the outermost level is
	// 149,999 (a tuple), then 149,998 (Some), then 149,997 (a list).
	if !strings.HasPrefix(s, "(Some([(Some([") || !strings.HasSuffix(s, ", 149996)]), 149999)") ||
		!strings.Contains(s, "[(Some([1]), 2)]") {
		t.Errorf("Show on deep values: %q ... %q", s[:20], s[len(s)-20:])
	}
	if got, f := RenderShow(a); f != nil || got != s {
		t.Errorf("RenderShow on deep values differs from Show: %v", f)
	}
}

func TestShowNestingShapes(t *testing.T) {
	v := nest(S("x"), 7)
	// Built from the inside out: L, Some, T(_, 2), L, Some, T(_, 5), L.
	want := `[(Some([(Some(["x"]), 2)]), 5)]`
	if got := Show(v); got != want {
		t.Errorf("Show = %s, want %s", got, want)
	}
}

func TestRenderLimit(t *testing.T) {
	// 600,000 strings of 30 bytes, quoted and separated: over 16 MiB.
	items := make([]value.Value, 600_000)
	for i := range items {
		items[i] = S("abcdefghijklmnopqrstuvwxyz0123")
	}
	big := value.NewList(items)
	if _, f := RenderShow(big); f == nil || f.Code != fault.RenderSize {
		t.Errorf("RenderShow of a huge list: fault %v, want 14", f)
	}
	if _, f := RenderDisplay(big); f == nil || f.Code != fault.RenderSize {
		t.Errorf("RenderDisplay of a huge list: fault %v, want 14", f)
	}
	for _, name := range []string{"show", "print", "println"} {
		ctx := &testCtx{}
		n, _ := Lookup(name)
		if _, f := n.Call(ctx, []value.Value{big}); f == nil || f.Code != fault.RenderSize {
			t.Errorf("%s of a huge list: fault %v, want 14", name, f)
		}
		if ctx.out.Len() != 0 {
			t.Errorf("%s wrote %d bytes before faulting", name, ctx.out.Len())
		}
	}
	// A 16 MiB string prints raw (it is within the string limit already).
	s := S(strings.Repeat("x", MaxStringBytes))
	if got, f := RenderDisplay(s); f != nil || len(got) != MaxStringBytes {
		t.Errorf("RenderDisplay of a 16 MiB string: %v", f)
	}
	// Its quoted Show form is two bytes too long.
	if _, f := RenderShow(s); f == nil || f.Code != fault.RenderSize {
		t.Errorf("RenderShow of a 16 MiB string: fault %v, want 14", f)
	}
	small := Ints(1, 2)
	if got, f := RenderShow(small); f != nil || got != "[1, 2]" {
		t.Errorf("RenderShow([1, 2]) = %q, %v", got, f)
	}
	if got, f := RenderDisplay(F(2.5)); f != nil || got != "2.5" {
		t.Errorf("RenderDisplay(2.5) = %q, %v", got, f)
	}
}
