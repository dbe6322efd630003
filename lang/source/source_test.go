package source

import "testing"

// TestLineNear: LineNear agrees with Line for every offset and any hint.
func TestLineNear(t *testing.T) {
	for _, src := range []string{"", "x", "\n", "a\nbb\n\nccc", "a\nb\n", "\n\n\nx\n"} {
		f := NewFile("t.mr", []byte(src))
		lines := f.Line(len(src))
		for off := -1; off <= len(src)+1; off++ {
			want := f.Line(off)
			for near := -1; near <= lines+2; near++ {
				if got := f.LineNear(off, near); got != want {
					t.Errorf("%q: LineNear(%d, %d) = %d, Line = %d", src, off, near, got, want)
				}
			}
		}
	}
}
