package core_test

// End-to-end tests of the prelude: Morrow programs that call the prelude
// functions go through the real pipeline (parse, check, codegen, VM) and
// their output is compared with the same computation done in Go.

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// run compiles and runs a program, returning stdout and the exit status.
func run(t *testing.T, src string) (string, int) {
	t.Helper()
	status, out, errOut := testrun.Run(context.Background(), testrun.Compile(t, "e2e.mr", src), engine.Options{})
	if status != 0 {
		t.Logf("stderr: %s", errOut)
	}
	return out, status
}

func TestPreludeParses(t *testing.T) {
	f, diags := parser.Parse(source.NewFile(core.PreludeFile, []byte(core.Prelude)))
	if diags.HasErrors() {
		t.Fatalf("prelude does not parse: %v", diags.Err())
	}
	if len(f.Decls) == 0 {
		t.Fatal("prelude has no declarations")
	}
}

// TestPreludeChecksAsMorrow type-checks the prelude as an ordinary
// program, so it stays valid Morrow (not merely something codegen
// accepts), and calls each function once.
func TestPreludeChecksAsMorrow(t *testing.T) {
	src := core.Prelude + `
fn main():
    println(list_map([1, 2], (x) -> x + 1))
    println(list_filter([1, 2, 3], (x) -> x != 2))
    println(list_fold([1, 2, 3], 10, (acc, x) -> acc - x))
    println(list_find([1, 2, 3], (x) -> x > 1))
    println(list_any([1, 2, 3], (x) -> x > 2))
    println(list_all([1, 2, 3], (x) -> x > 2))
    println(list_sort_by(["b", "a"], (a, b) -> if a == b: Equal else: if String.compare(a, b) < 0: Less else: Greater))
    println(option_map(Some(1), (x) -> x * 3))
    let r: Result(Int, String) = Ok(1)
    println(result_map(r, (x) -> x + 1))
    println(result_and_then(r, (x) -> if x > 0: Ok(x) else: Err("neg")))
    println(result_unwrap_or_else(r, (e) -> String.len(e)))
`
	out, status := run(t, src)
	want := "[2, 3]\n[1, 3]\n4\nSome(2)\ntrue\nfalse\n[\"a\", \"b\"]\nSome(3)\nOk(2)\nOk(1)\n1\n"
	if status != 0 || out != want {
		t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
	}
}

// TestSortByIsStableMergeSort sorts many lists of (key, id) pairs by key
// only, with many ties, and compares with Go's stable sort; a descending
// comparator checks that Greater puts the left element after the right.
func TestSortByIsStableMergeSort(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	type pair struct{ key, id int }
	var lists [][]pair
	for n := 0; n <= 40; n++ {
		lists = append(lists, nil)
		for i := 0; i < n; i++ {
			lists[n] = append(lists[n], pair{rng.Intn(5), i})
		}
	}
	for _, n := range []int{100, 257, 1000} {
		var ps []pair
		for i := 0; i < n; i++ {
			ps = append(ps, pair{rng.Intn(50), i})
		}
		lists = append(lists, ps)
	}
	var src, want strings.Builder
	src.WriteString(`fn by_key(a: (Int, Int), b: (Int, Int)) -> Ordering:
    if a.0 < b.0:
        Less
    else:
        if a.0 > b.0: Greater else: Equal

fn show_ids(ps: List((Int, Int))) -> String:
    String.join(List.map(ps, (p) -> "{p.0}:{p.1}"), " ")

fn main():
    let none: List((Int, Int)) = []
`)
	render := func(ps []pair) string {
		parts := make([]string, len(ps))
		for i, p := range ps {
			parts[i] = fmt.Sprintf("%d:%d", p.key, p.id)
		}
		return strings.Join(parts, " ")
	}
	for _, ps := range lists {
		lit := "none"
		if len(ps) > 0 {
			parts := make([]string, len(ps))
			for i, p := range ps {
				parts[i] = fmt.Sprintf("(%d, %d)", p.key, p.id)
			}
			lit = "[" + strings.Join(parts, ", ") + "]"
		}
		fmt.Fprintf(&src, "    println(show_ids(List.sort_by(%s, by_key)))\n", lit)
		fmt.Fprintf(&src, "    println(show_ids(List.sort_by(%s, (a, b) -> by_key(a: b, b: a))))\n", lit)
		asc := slices.Clone(ps)
		slices.SortStableFunc(asc, func(a, b pair) int { return a.key - b.key })
		desc := slices.Clone(ps)
		slices.SortStableFunc(desc, func(a, b pair) int { return b.key - a.key })
		fmt.Fprintf(&want, "%s\n%s\n", render(asc), render(desc))
	}
	out, status := run(t, src.String())
	if status != 0 {
		t.Fatalf("exit status %d", status)
	}
	gotLines, wantLines := strings.Split(out, "\n"), strings.Split(want.String(), "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("got %d lines, want %d", len(gotLines), len(wantLines))
	}
	for i := range wantLines {
		if gotLines[i] != wantLines[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, gotLines[i], wantLines[i])
		}
	}
}

// TestPreludeCallbackOrder records every callback call: map, filter and
// fold visit each element once in order; find, any and all stop at the
// deciding element; Option.map and Result.map skip None and Err.
func TestPreludeCallbackOrder(t *testing.T) {
	src := `
fn seen(tag: String, x: Int) -> Int:
    print("{tag}{x} ")
    x

fn main():
    let xs = [5, 6, 7, 8]
    let m = List.map(xs, (x) -> seen("m", x))
    println(m)
    let f = List.filter(xs, (x) -> seen("f", x) > 6)
    println(f)
    let s = List.fold(xs, 0, (acc, x) -> acc + seen("s", x))
    println(s)
    println(List.find(xs, (x) -> seen("d", x) == 6))
    println(List.any(xs, (x) -> seen("a", x) == 7))
    println(List.all(xs, (x) -> seen("l", x) < 6))
    let none: Option(Int) = None
    println(Option.map(none, (x) -> seen("o", x)))
    let e: Result(Int, String) = Err("e")
    println(Result.map(e, (x) -> seen("r", x)))
    println(Result.unwrap_or_else(Ok(3), (msg) -> seen("u", String.len(msg))))
`
	want := "m5 m6 m7 m8 [5, 6, 7, 8]\n" +
		"f5 f6 f7 f8 [7, 8]\n" +
		"s5 s6 s7 s8 26\n" +
		"d5 d6 Some(6)\n" +
		"a5 a6 a7 true\n" +
		"l5 l6 false\n" +
		"None\n" +
		"Err(\"e\")\n" +
		"3\n"
	out, status := run(t, src)
	if status != 0 || out != want {
		t.Errorf("status %d, output:\n%s\nwant:\n%s", status, out, want)
	}
}

// TestPreludeOnLargeLists checks linear behaviour end to end: a pipeline
// over 300,000 elements must finish well within the test timeout (it
// would take minutes if List.push copied the accumulator every time).
func TestPreludeOnLargeLists(t *testing.T) {
	if testing.Short() {
		t.Skip("large lists")
	}
	src := `
fn main():
    let xs = List.range(0, 300000)
    let ys = List.filter(List.map(xs, (x) -> x * 3), (x) -> x % 2 == 0)
    println(List.len(ys))
    println(List.fold(ys, 0, (acc, x) -> acc + x))
`
	// Even multiples of 3 below 900,000: 0, 6, ..., 899,994.
	n, sum := 0, 0
	for x := 0; x < 300000; x++ {
		if (x*3)%2 == 0 {
			n++
			sum += x * 3
		}
	}
	out, status := run(t, src)
	if want := fmt.Sprintf("%d\n%d\n", n, sum); status != 0 || out != want {
		t.Errorf("status %d, output %q, want %q", status, out, want)
	}
}
