package types

import (
	"fmt"
	"testing"
)

// TestSuggestWorkIsBounded: 8,000 unknown names among 8,000 candidates
// used to cost 64 million full edit-distance computations (14 s in
// `check`); one Check call now visits at most suggestBudget candidates,
// and hints stop when the budget is spent. Counted, not timed.
func TestSuggestWorkIsBounded(t *testing.T) {
	c := &Checker{funcs: map[string]*FuncSig{}, ctors: map[string]*Ctor{}}
	for i := 0; i < 8000; i++ {
		c.funcs[fmt.Sprintf("fn%d", i)] = &FuncSig{}
	}
	hints := 0
	for i := 0; i < 8000; i++ {
		if h := c.closestValueName(fmt.Sprintf("fm%d", i)); h != "" {
			hints++
		}
	}
	if c.suggestWork > suggestBudget {
		t.Errorf("%d candidates visited, budget %d", c.suggestWork, suggestBudget)
	}
	if hints == 0 || hints >= 8000 {
		t.Errorf("%d hints: want some, then none once the budget is spent", hints)
	}
}
