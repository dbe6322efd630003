package format

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkFormatPrelude formats the standard prelude, the largest Morrow
// file of the repository.
func BenchmarkFormatPrelude(b *testing.B) {
	src, err := os.ReadFile("../../stdlib/core/prelude.mr")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, _, err := Format(src, "prelude.mr"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFormatLarge formats a file near the 65,536-token source limit made of
// every repository program that parses, renamed apart.
func BenchmarkFormatLarge(b *testing.B) {
	var sb strings.Builder
	n := 0
	for sb.Len() < 200<<10 {
		for _, p := range repoFiles(b) {
			src, _ := os.ReadFile(p)
			if _, dl, err := Format(src, p); err != nil || dl.HasErrors() || strings.Contains(string(src), "import") || strings.Contains(string(src), "\t") {
				continue
			}
			n++
			sb.WriteString(strings.ReplaceAll(string(src), "fn ", "fn x"+strings.Repeat("y", n%7)+"_"))
			sb.WriteString("\n")
			if sb.Len() >= 200<<10 {
				break
			}
		}
	}
	src := []byte(sb.String())
	if _, dl, _ := Format(src, "large.mr"); dl.HasErrors() {
		b.Skipf("the concatenation does not parse: %v", dl[0])
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := Format(src, "large.mr"); err != nil {
			b.Fatal(err)
		}
	}
}
