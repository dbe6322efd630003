// Package udiff writes unified diffs of two texts, for `morrowc fmt
// --diff`.
//
// The line sequences are compared with Myers' O(ND) greedy algorithm
// (E. Myers, "An O(ND) Difference Algorithm and Its Variations", 1986):
// for d = 0, 1, … it extends the furthest-reaching path on every diagonal
// k with d differences, following runs of equal lines ("snakes") for
// free, until a path reaches the end of both texts; the edit script is
// then recovered by walking the saved frontiers backwards. The common
// prefix and suffix are removed first, and each frontier is saved only
// for the diagonals it can reach, so memory is O(D²) for D differing
// lines. Beyond maxD differences (files that share almost nothing) the
// differing middle is reported as one deletion and one insertion, which
// is still a correct diff, only not a minimal one.
//
// The output follows the format of `diff -u` and `git diff`: `---`/`+++`
// headers, `@@ -a,b +c,d @@` hunks with three lines of context, and a
// `\ No newline at end of file` marker when a text does not end with one.
package udiff

import (
	"fmt"
	"strings"
)

const (
	context = 3
	maxD    = 1000
)

type opKind byte

const (
	opEqual  opKind = ' '
	opDelete opKind = '-'
	opInsert opKind = '+'
)

type op struct {
	kind opKind
	a, b int // line index in a (equal, delete) and in b (equal, insert)
}

// splitLines splits text into lines that keep their "\n".
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// Unified returns the unified diff that turns a (named aName) into b
// (named bName), or "" when they are equal.
func Unified(aName, bName string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	al, bl := splitLines(string(a)), splitLines(string(b))
	ops := diff(al, bl)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", aName, bName)
	for i := 0; i < len(ops); {
		// find the next change
		for i < len(ops) && ops[i].kind == opEqual {
			i++
		}
		if i == len(ops) {
			break
		}
		start := i - context
		if start < 0 {
			start = 0
		}
		// extend the hunk while changes are within 2*context of each other
		end := i
		for {
			for end < len(ops) && ops[end].kind != opEqual {
				end++
			}
			eq := end
			for eq < len(ops) && ops[eq].kind == opEqual {
				eq++
			}
			if eq < len(ops) && eq-end <= 2*context {
				end = eq
				continue
			}
			end += context
			if end > len(ops) {
				end = len(ops)
			}
			break
		}
		writeHunk(&sb, ops[start:end], al, bl)
		i = end
	}
	return sb.String()
}

func writeHunk(sb *strings.Builder, ops []op, al, bl []string) {
	aStart, bStart, aLen, bLen := -1, -1, 0, 0
	for _, o := range ops {
		if o.kind != opInsert {
			if aStart < 0 {
				aStart = o.a
			}
			aLen++
		}
		if o.kind != opDelete {
			if bStart < 0 {
				bStart = o.b
			}
			bLen++
		}
	}
	// an empty side is reported at the line before the change
	if aStart < 0 {
		aStart = ops[0].a - 1
	}
	if bStart < 0 {
		bStart = ops[0].b - 1
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", rangeText(aStart, aLen), rangeText(bStart, bLen))
	for _, o := range ops {
		line := ""
		switch o.kind {
		case opInsert:
			line = bl[o.b]
		default:
			line = al[o.a]
		}
		sb.WriteByte(byte(o.kind))
		sb.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			sb.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func rangeText(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// diff returns the edit script from al to bl. Every op carries both
// positions: for an insert, a is the index of the next line of al; for a
// delete, b is the index of the next line of bl.
func diff(al, bl []string) []op {
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{opEqual, i, i})
	}
	ops = append(ops, middle(al[pre:len(al)-suf], bl[pre:len(bl)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		ops = append(ops, op{opEqual, len(al) - suf + i, len(bl) - suf + i})
	}
	return ops
}

// middle runs Myers' algorithm on a and b, whose first lines are lines
// aOff and bOff of the whole texts.
func middle(a, b []string, aOff, bOff int) []op {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(n, m, aOff, bOff)
	}
	maxd := n + m
	if maxd > maxD {
		maxd = maxD
	}
	// v[k+off] is the furthest x on diagonal k; trace[d] is v after step d
	off := maxd + 1
	v := make([]int, 2*maxd+3)
	var trace [][]int
	found := -1
	for d := 0; d <= maxd && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an insertion
			} else {
				x = v[off+k-1] + 1 // right: a deletion
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[off-d:off+d+1])
		trace = append(trace, snap)
	}
	if found < 0 {
		return replaceAll(n, m, aOff, bOff)
	}
	// walk back from (n, m): at each step, undo the snake, then the one
	// insertion or deletion that step d added
	var rev []op
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // frontier after step d-1, indexed by k+d-1
		k := x - y
		pk := k - 1
		if k == -d || (k != d && prev[k-1+d-1] < prev[k+1+d-1]) {
			pk = k + 1
		}
		px := prev[pk+d-1]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, op{opEqual, aOff + x, bOff + y})
		}
		if pk == k+1 {
			y--
			rev = append(rev, op{opInsert, aOff + x, bOff + y})
		} else {
			x--
			rev = append(rev, op{opDelete, aOff + x, bOff + y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, op{opEqual, aOff + x, bOff + y})
	}
	out := make([]op, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

func replaceAll(n, m, aOff, bOff int) []op {
	var ops []op
	for i := 0; i < n; i++ {
		ops = append(ops, op{opDelete, aOff + i, bOff})
	}
	for j := 0; j < m; j++ {
		ops = append(ops, op{opInsert, aOff + n, bOff + j})
	}
	return ops
}
