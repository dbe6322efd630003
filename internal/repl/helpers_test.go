package repl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// transcript is the input of a testdata/NAME.repl transcript.
type transcript struct {
	name string
	in   []byte
}

// transcripts reads the testdata/NAME.repl transcripts, failing t when
// there are none or one cannot be read.
func transcripts(t testing.TB) []transcript {
	t.Helper()
	files, err := filepath.Glob("testdata/*.repl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	var trs []transcript
	for _, f := range files {
		in, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		trs = append(trs, transcript{strings.TrimSuffix(filepath.Base(f), ".repl"), in})
	}
	return trs
}
