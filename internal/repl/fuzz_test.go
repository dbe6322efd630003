package repl

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// FuzzSession feeds arbitrary input to a session: whatever it reads, it
// must not panic, and every line it prints for an entry that fails is
// one `error: ` line.
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
