// Package archtest enforces the import edges of docs/architecture.md with
// `go list` (each package's transitive .Deps, as `go list -deps` prints): the compiler front end never reaches into the process
// runtime, the VM never reaches into the scheduler or process table (it
// calls back through its Host interface), and running a .mrb file never
// needs the front end. It also keeps the package lists of README.md and
// docs/architecture.md complete, and keeps the test-support packages
// (testOnly) out of everything but tests.
package archtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/morrow-lang/morrow"

// rule forbids packages matching From from depending (transitively) on
// packages matching any of Deny. Patterns are module-relative; a trailing
// "/..." matches the package and everything below it.
type rule struct {
	From   string
	Deny   []string
	Reason string
}

var rules = []rule{
	{From: "lang/...", Deny: []string{"runtime/vm/...", "runtime/sched/...", "runtime/proc/..."},
		Reason: "the front end produces bytecode; it must not depend on the process runtime"},
	{From: "runtime/vm/...", Deny: []string{"runtime/proc/...", "runtime/sched/..."},
		Reason: "the VM reaches the world only through its Host interface"},
	{From: "cmd/morrow/internal/load", Deny: []string{"lang/parser/...", "lang/types/...", "lang/codegen/...", "lang/compiler/..."},
		Reason: "loading a .mrb file must not need the front end"},
	{From: "runtime/engine/...", Deny: []string{"lang/parser/...", "lang/types/...", "lang/codegen/...", "lang/compiler/..."},
		Reason: "running a .mrb file must not need the front end"},
	{From: "runtime/fault", Deny: []string{"runtime/...", "stdlib/...", "lang/..."},
		Reason: "the fault table is a leaf: everything that faults imports it"},
	{From: "runtime/native", Deny: []string{"runtime/vm/...", "runtime/proc/...", "runtime/sched/...", "runtime/bytecode/...", "stdlib/...", "lang/..."},
		Reason: "the natives' calling convention sits below the VM and the standard library"},
	{From: "stdlib/...", Deny: []string{"runtime/vm/...", "runtime/proc/...", "runtime/sched/...", "runtime/engine/...", "lang/..."},
		Reason: "natives reach the runtime only through native.Host"},
	{From: "runtime/...", Deny: []string{"internal/...", "cmd/..."},
		Reason: "the runtime is a library under the commands: what it shares with them lives in runtime/ (runtime/gotune)"},
	{From: "lang/...", Deny: []string{"internal/...", "cmd/..."},
		Reason: "the front end is a library under the commands"},
	{From: "stdlib/...", Deny: []string{"internal/...", "cmd/..."},
		Reason: "the standard library is a library under the commands"},
	{From: "runtime/ptype", Deny: []string{"runtime/vm/...", "runtime/proc/...", "runtime/sched/...", "runtime/engine/...", "runtime/native", "runtime/bytecode/...", "stdlib/core", "stdlib/process", "stdlib/sys", "lang/..."},
		Reason: "the Process types' run-time form is a leaf that every runtime layer shares"},
	{From: "runtime/bytecode/...", Deny: []string{"stdlib/process"},
		Reason: "the verifier, VM, process table and scheduler read the Process types from runtime/ptype, never the natives' bodies"},
	{From: "runtime/vm/...", Deny: []string{"stdlib/process"},
		Reason: "the verifier, VM, process table and scheduler read the Process types from runtime/ptype, never the natives' bodies"},
	{From: "runtime/proc/...", Deny: []string{"stdlib/process"},
		Reason: "the verifier, VM, process table and scheduler read the Process types from runtime/ptype, never the natives' bodies"},
	{From: "runtime/sched/...", Deny: []string{"stdlib/process"},
		Reason: "the verifier, VM, process table and scheduler read the Process types from runtime/ptype, never the natives' bodies"},
	{From: "stdlib/builtins", Deny: []string{"runtime/vm/...", "runtime/proc/...", "runtime/sched/...", "runtime/engine/...",
		"runtime/bytecode/...", "runtime/native", "stdlib/core", "stdlib/process", "lang/..."},
		Reason: "the builtin registry is data that the checker, the code generator and the runtime read: it names implementations, it does not import them"},
}

// testOnly lists the packages that hold test support: only _test.go files
// import them, so no package of the module may depend on them (.Deps
// leaves test imports out). lang/gen is the checker's random program
// generator and mutator; runtime/vm/vmtest the VM's bytecode assembler;
// internal/gosrc the parsed Go source of a package.
var testOnly = []string{"internal/testrun", "lang/gen", "runtime/vm/vmtest", "internal/gosrc"}

func match(pattern, pkg string) bool {
	if strings.HasSuffix(pattern, "/...") {
		base := strings.TrimSuffix(pattern, "/...")
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// moduleRoot is the repository root, two levels above this file.
func moduleRoot(t *testing.T) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot locate the test file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// deps maps every package of the module to its transitive module-local
// dependencies. One `go list` call reports each package's .Deps, the same
// closure `go list -deps PKG` prints, without a process per package.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}:{{join .Deps \" \"}}", "./...")
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	result := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, list, ok := strings.Cut(line, ":")
		if !ok || !strings.HasPrefix(pkg, module) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		result[rel] = nil
		for _, d := range strings.Fields(list) {
			if strings.HasPrefix(d, module+"/") {
				result[rel] = append(result[rel], strings.TrimPrefix(d, module+"/"))
			}
		}
	}
	return result
}

func TestImportEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list for every package")
	}
	graph := deps(t)
	for _, must := range []string{"lang/parser", "lang/compiler", "cmd/morrow/internal/load", "runtime/engine"} {
		if _, ok := graph[must]; !ok {
			t.Errorf("package %s not found; the rules below would be vacuous", must)
		}
	}
	var pkgs []string
	for p := range graph {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, r := range rules {
		for _, p := range pkgs {
			if !match(r.From, p) {
				continue
			}
			for _, d := range graph[p] {
				for _, deny := range r.Deny {
					if match(deny, d) {
						t.Errorf("%s depends on %s: %s", p, d, r.Reason)
					}
				}
			}
		}
	}
}

// TestTestOnlyPackages: the test-support packages exist, and nothing but
// tests imports them.
func TestTestOnlyPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list for every package")
	}
	graph := deps(t)
	for _, tp := range testOnly {
		if _, ok := graph[tp]; !ok {
			t.Errorf("test-support package %s not found; the check below would be vacuous", tp)
		}
		for p, ds := range graph {
			for _, d := range ds {
				if d == tp {
					t.Errorf("%s depends on %s, which only tests may import", p, tp)
				}
			}
		}
	}
}

// TestEveryPackageListed: the README's layout table and the package list
// of docs/architecture.md name every package of the module (as `path`).
func TestEveryPackageListed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list for every package")
	}
	var pkgs []string
	for p := range deps(t) {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, doc := range []string{"README.md", "docs/architecture.md"} {
		b, err := os.ReadFile(filepath.Join(moduleRoot(t), doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			if p != "" && !strings.Contains(string(b), "`"+p+"`") {
				t.Errorf("%s does not list the package %s", doc, p)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, pkg string
		want         bool
	}{
		{"lang/...", "lang", true},
		{"lang/...", "lang/types", true},
		{"lang/...", "language", false},
		{"runtime/vm/...", "runtime/vmx", false},
		{"cmd/morrow/internal/load", "cmd/morrow/internal/load", true},
		{"cmd/morrow/internal/load", "cmd/morrow/internal/loader", false},
	}
	for _, c := range cases {
		if got := match(c.pattern, c.pkg); got != c.want {
			t.Errorf("match(%q, %q) = %v", c.pattern, c.pkg, got)
		}
	}
}
