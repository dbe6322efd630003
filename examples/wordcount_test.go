package examples

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// TestWordcount feeds examples/wordcount.mr a text on standard input
// (the golden run has an empty one).
func TestWordcount(t *testing.T) {
	src, err := os.ReadFile("wordcount.mr")
	if err != nil {
		t.Fatal(err)
	}
	p := testrun.Compile(t, "examples/wordcount.mr", string(src))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	in := "The cat sat\non the  mat\r\nthe end"
	code, out, errb := testrun.Run(ctx, p, engine.Options{World: &engine.World{Stdin: strings.NewReader(in)}})
	want := "8 words, 6 different\n3 the\n1 cat\n1 end\n1 mat\n1 on\n1 sat\n"
	if code != 0 || out != want || errb != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errb, want)
	}
}
