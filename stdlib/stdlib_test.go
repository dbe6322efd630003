package stdlib

import (
	"testing"

	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
)

// TestNatives: the table is exactly the core natives plus the Process
// natives, each by its own name.
func TestNatives(t *testing.T) {
	tab := Natives()
	want := len(core.Names()) + len(process.Names())
	if len(tab) != want {
		t.Errorf("table has %d natives, want %d", len(tab), want)
	}
	for _, n := range append(core.Natives(), process.Natives()...) {
		if got, ok := tab.Lookup(n.Name); !ok || got != n {
			t.Errorf("%s is missing or another native", n.Name)
		}
	}
}
