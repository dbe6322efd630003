package codegen

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// nestedLambdas returns a program whose main binds depth nested one-line
// lambdas. When capture is set the innermost body reads the outermost
// parameter, so every level captures one value.
func nestedLambdas(depth int, capture bool) string {
	var b strings.Builder
	b.WriteString("fn main():\n    let f = ")
	for i := 0; i < depth; i++ {
		if i == 0 {
			b.WriteString("(a) -> ")
		} else {
			b.WriteString("(b) -> ")
		}
	}
	if capture {
		b.WriteString("a")
	} else {
		b.WriteString("1")
	}
	b.WriteString("\n    println(1)\n")
	return b.String()
}

// TestNestedLambdaOutputIsLinear checks that the encoded program grows by
// a bounded number of bytes per nesting level. Lambda names used to repeat
// every ancestor's name, so 3,200 levels gave a 46 MB .mrb.
func TestNestedLambdaOutputIsLinear(t *testing.T) {
	const perLevel = 64 // bytes one more nesting level may add
	for _, capture := range []bool{false, true} {
		size := func(depth int) int {
			return len(bytecode.Encode(compileSource(t, nestedLambdas(depth, capture))))
		}
		small, large := size(500), size(2000)
		grow := large - small
		if grow > perLevel*1500 {
			t.Errorf("capture=%v: 1,500 more levels added %d bytes (%d per level), want at most %d per level",
				capture, grow, grow/1500, perLevel)
		}
		if small > perLevel*500+4096 {
			t.Errorf("capture=%v: 500 levels encode to %d bytes, want at most %d", capture, small, perLevel*500+4096)
		}
	}
}

// TestNestedLambdaNames checks the naming scheme: a lambda is named after
// its top-level function and line, however deep it nests.
func TestNestedLambdaNames(t *testing.T) {
	p := compileSource(t, nestedLambdas(5, false))
	n := 0
	for _, f := range p.Functions {
		if strings.Contains(f.Name, "lambda") {
			n++
			if f.Name != "main.lambda@2" {
				t.Errorf("lambda named %q, want main.lambda@2", f.Name)
			}
		}
	}
	if n != 5 {
		t.Errorf("found %d lambdas, want 5", n)
	}
}
