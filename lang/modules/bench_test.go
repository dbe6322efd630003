package modules_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
)

// The scaling workload of docs/modules.md: a program of n modules, each
// with a public type, public functions and private helpers, imported by
// main in every form; and the same declarations in one file. Checking
// the modules should cost about as much as checking the one file.

const benchFuncs = 4 // functions per module (the one-file form stays under the token limit)

// moduleBody is the text of one module; suffix makes its names unique
// when all modules share one file.
func moduleBody(i int, suffix string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pub type Item%s derive(Show, Eq):\n    Small%s(Int)\n    Big%s(Int, String)\n\n", suffix, suffix, suffix)
	for k := 0; k < benchFuncs; k++ {
		fmt.Fprintf(&b, "fn helper%d%s(x: Int) -> Int:\n    let y = x * %d + %d\n    if y > 100:\n        y - 100\n    else:\n        y\n\n", k, suffix, k+1, i)
		fmt.Fprintf(&b, "pub fn step%d%s(it: Item%s) -> Int:\n    match it:\n        Small%s(n) -> helper%d%s(n)\n        Big%s(n, s) -> helper%d%s(n + String.len(s))\n\n", k, suffix, suffix, suffix, k, suffix, suffix, k, suffix)
	}
	return b.String()
}

// writeModules writes the n-module program under dir and returns its
// entry: main imports half the modules qualified and half under an alias.
func writeModules(t testing.TB, dir string, n int) string {
	var main, body strings.Builder
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("m%03d", i)
		if err := os.WriteFile(filepath.Join(dir, name+".mr"), []byte(moduleBody(i, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		q := name
		if i%2 == 0 {
			fmt.Fprintf(&main, "import %s\n", name)
		} else {
			q = fmt.Sprintf("a%d", i)
			fmt.Fprintf(&main, "import %s as %s\n", name, q)
		}
		fmt.Fprintf(&body, "    let total = total + %s.step%d(%s.Big(%d, \"x\"))\n", q, i%benchFuncs, q, i)
	}
	return writeMain(t, dir, main.String(), body.String())
}

func writeMain(t testing.TB, dir, head, body string) string {
	src := head + "\nfn main():\n    let total = 0\n" + body + "    println(total)\n"
	entry := filepath.Join(dir, "main.mr")
	if err := os.WriteFile(entry, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return entry
}

// writeOneFile writes the same declarations as one file.
func writeOneFile(t testing.TB, dir string, n int) string {
	var decls, body strings.Builder
	for i := 0; i < n; i++ {
		sfx := fmt.Sprintf("_%d", i)
		decls.WriteString(moduleBody(i, sfx))
		fmt.Fprintf(&body, "    let total = total + step%d%s(Big%s(%d, \"x\"))\n", i%benchFuncs, sfx, sfx, i)
	}
	return writeMain(t, dir, decls.String(), body.String())
}

func check(t testing.TB, entry string) {
	src, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := compiler.Check(entry, src)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
}

// TestScalingWorkload: both forms of the workload check cleanly.
func TestScalingWorkload(t *testing.T) {
	check(t, writeModules(t, t.TempDir(), 100))
	check(t, writeOneFile(t, t.TempDir(), 100))
}

// BenchmarkCheck100Modules and BenchmarkCheckOneFile compare checking 100
// modules with checking their declarations in one file of the same size
// (reading, parsing, resolving and checking included).
func BenchmarkCheck100Modules(b *testing.B) {
	entry := writeModules(b, b.TempDir(), 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check(b, entry)
	}
}

func BenchmarkCheckOneFile(b *testing.B) {
	entry := writeOneFile(b, b.TempDir(), 100)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		check(b, entry)
	}
}
