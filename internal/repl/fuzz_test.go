package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// FuzzSession feeds arbitrary input to a session: whatever it reads, it
// must not panic and must come to the end of its input. (What a failing
// entry prints, one `error: ` line, is checked by the transcripts in
// testdata: arbitrary input may print any text itself.)
func FuzzSession(f *testing.F) {
	for _, tr := range transcripts(f) {
		if !strings.Contains(tr.name, "limits") {
			f.Add(string(tr.in))
		}
	}
	f.Add("let (a, b) = (1, [])\nb\n:t b\nlet f = fn(x) -> (x, a)\nf(b)\n")
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		s := New(&out)
		s.Run(NewPipeReader(strings.NewReader(in)), func() (context.Context, func()) { return ctx, func() {} })
	})
}
