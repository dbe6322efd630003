package core

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// TestPreludeLayout: the embedded prelude is written in the plain layout
// the parser expects. (stdlib's TestEveryConsumerAgrees checks that it
// defines the function of each prelude builtin of the registry.)
func TestPreludeLayout(t *testing.T) {
	for i, line := range strings.Split(Prelude, "\n") {
		if strings.ContainsRune(line, '\t') {
			t.Errorf("prelude line %d has a tab", i+1)
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent%4 != 0 {
			t.Errorf("prelude line %d is not indented by a multiple of 4", i+1)
		}
		if strings.TrimRight(line, " ") != line {
			t.Errorf("prelude line %d has trailing spaces", i+1)
		}
	}
}

func TestOrderingValues(t *testing.T) {
	for c, tag := range map[int]int{-5: 0, -1: 0, 0: 1, 1: 2, 9: 2} {
		o := Ordering(c)
		if o.Kind() != value.KData || o.AsData().Type != value.OrderingType || o.AsData().Tag != tag {
			t.Errorf("Ordering(%d) = %s", c, Show(o))
		}
	}
}
