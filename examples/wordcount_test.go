package examples

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// TestWordcount feeds examples/wordcount.mr a text on standard input
// (the golden run has an empty one).
func TestWordcount(t *testing.T) {
	p := testrun.CompileFile(t, "wordcount.mr").Program
	in := "The cat sat\non the  mat\r\nthe end"
	out := runExample(t, p, engine.Options{World: &engine.World{Stdin: strings.NewReader(in)}}, 0)
	want := "8 words, 6 different\n3 the\n1 cat\n1 end\n1 mat\n1 on\n1 sat\n"
	if out != want {
		t.Errorf("stdout %q; want %q", out, want)
	}
}
