package types

import (
	"fmt"
	"math/rand"
	"testing"
)

// levenshtein is the textbook full-table distance, the reference for
// boundedDistance.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestBoundedDistance(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	word := func() string {
		b := make([]byte, r.Intn(9))
		for i := range b {
			b[i] = "abc"[r.Intn(3)]
		}
		return string(b)
	}
	for i := 0; i < 20000; i++ {
		a, b := word(), word()
		for limit := 0; limit <= 3; limit++ {
			want := min(levenshtein(a, b), limit+1)
			if got := boundedDistance(a, b, limit); got != want {
				t.Fatalf("boundedDistance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
			}
		}
	}
}

// TestSuggestWorkIsBounded: 8,000 unknown names among 8,000 candidates
// used to cost 64 million full edit-distance computations (14 s in
// `check`); one Check call now makes at most suggestBudget comparisons,
// and hints stop when the budget is spent. Counted, not timed.
func TestSuggestWorkIsBounded(t *testing.T) {
	c := &Checker{funcs: map[string]*FuncSig{}, ctors: map[string]*Ctor{}}
	for i := 0; i < 8000; i++ {
		c.funcs[fmt.Sprintf("f%d", i)] = &FuncSig{}
	}
	hints := 0
	for i := 0; i < 8000; i++ {
		if h := c.suggest(fmt.Sprintf("g%d", i)); h != "" {
			hints++
			if want := fmt.Sprintf("f%d", i); h != want {
				t.Fatalf("hint for g%d is %q, want %q", i, h, want)
			}
		}
	}
	if c.sugg.compared > suggestBudget {
		t.Errorf("%d comparisons, budget %d", c.sugg.compared, suggestBudget)
	}
	perHint := 8000 + len(plainBuiltins)
	if want := suggestBudget / perHint; hints != want {
		t.Errorf("%d hints, want %d (the budget divided by %d candidates)", hints, want, perHint)
	}
}
