package format

import (
	"os"
	"testing"
)

// FuzzFormat formats mutated programs (seeded with every .mr file of the
// repository and the layout cases of the unit tests). A program that
// parses must format without an internal error, and the result must keep
// every guarantee checkGuarantees tests: same tree, same comments,
// idempotent, same bytecode when it compiles.
func FuzzFormat(f *testing.F) {
	for _, p := range repoFiles(f) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, c := range layoutCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkGuarantees(t, "fuzz.mr", src)
	})
}
