package types_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/lang/types"
)

// doublings returns a program whose n nested lets double a tuple:
// `let a1 = (a0, a0)` … The type of a_n has 2^n leaves as a tree but
// n+1 distinct nodes; use adds statements that use a_n.
func doublings(n int, use string) string {
	var b strings.Builder
	b.WriteString("fn id(x) -> x\n\nfn same(x: a, y: a) -> a: x\n\nfn main():\n    let a0 = 1\n    let b0 = 2\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "    let a%d = (a%d, a%d)\n    let b%d = (b%d, b%d)\n", i, i-1, i-1, i, i-1, i-1)
	}
	b.WriteString(strings.ReplaceAll(use, "$n", fmt.Sprint(n)))
	return b.String()
}

// TestSharedTypesBounded checks programs whose types are exponential as
// trees (issue 8): checking must allocate memory proportional to the
// program, not to the tree. The bound is generous (the program is a few
// KB); without sharing, 26 doublings already need gigabytes. With 64
// doublings a walk that is exponential without allocating would not
// finish either.
func TestSharedTypesBounded(t *testing.T) {
	cases := map[string]string{
		"lets only": "    println(a$n.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0)\n",
		"compare":   "    println(a$n == b$n)\n    println(eq(left: a$n, right: b$n))\n",
		"unify":     "    let xs = [a$n, b$n]\n    let (p, q) = id(a$n)\n    println(List.len(xs))\n    println(p == q)\n    println(same(x: a$n, y: b$n) == a$n)\n",
		"show":      "    let s = show(a$n)\n    println(String.len(s) > 0)\n",
		"sort":      "    println(List.len(List.sort([a$n, b$n])))\n",
		"mismatch":  "    let bad: Int = a$n\n",
	}
	for name, use := range cases {
		t.Run(name, func(t *testing.T) {
			d, _, alloc := types.CheckMeasured(t, "doubling.mr", doublings(64, use))
			if alloc > 64<<20 {
				t.Errorf("checking allocated %d MB; types are not shared", alloc>>20)
			}
			if name == "mismatch" {
				if len(d) != 1 || !strings.Contains(d[0].Message, "expected Int, found ((((") {
					t.Fatalf("diagnostics: %v", d)
				}
				if n := utf8.RuneCountInString(d[0].Message); n > 1200 || !strings.Contains(d[0].Message, "…") {
					t.Errorf("the printed type is not truncated (%d runes)", n)
				}
				return
			}
			if len(d) != 0 {
				t.Fatalf("diagnostics: %v", d)
			}
		})
	}
}
