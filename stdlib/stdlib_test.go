package stdlib_test

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/builtins"
	"github.com/morrow-lang/morrow/stdlib/core"
	"github.com/morrow-lang/morrow/stdlib/process"
	"github.com/morrow-lang/morrow/stdlib/sys"
)

// implemented returns the registry's names implemented as impl, sorted.
func implemented(impl builtins.Impl) []string {
	var out []string
	for _, e := range builtins.All() {
		if e.Impl == impl {
			out = append(out, e.Name)
		}
	}
	return out
}

// TestEveryConsumerAgrees: each consumer of the builtin registry has
// exactly the registry's builtins: the checker, the native table, the Go
// bodies of stdlib/core and stdlib/process, and the prelude. (The code
// generator's lowerings and the checker's did-you-mean lists are checked
// in their packages: TestEveryBuiltinCompiles, TestHelpListsMatchRegistry.)
func TestEveryConsumerAgrees(t *testing.T) {
	all := builtins.Names()
	if got := types.BuiltinNames(); !slices.Equal(got, all) {
		t.Errorf("the checker knows %v\nthe registry has  %v", got, all)
	}
	natives := implemented(builtins.ImplNative)
	if got := stdlib.Natives().Names(); !slices.Equal(got, natives) {
		t.Errorf("the native table has %v\nthe registry's natives are %v", got, natives)
	}
	bodies := slices.Sorted(slices.Values(append(append(core.Names(), process.Names()...), sysNames()...)))
	if !slices.Equal(bodies, natives) {
		t.Errorf("Go bodies exist for %v\nthe registry's natives are %v", bodies, natives)
	}
	defined := preludeFunctions(t)
	for _, name := range implemented(builtins.ImplPrelude) {
		e := builtins.Lookup(name)
		if n, ok := defined[e.PreludeFn]; !ok {
			t.Errorf("the prelude does not define %s (for %s)", e.PreludeFn, name)
		} else if n != e.Arity() {
			t.Errorf("prelude %s has %d parameters, %s takes %d", e.PreludeFn, n, name, e.Arity())
		}
	}
	for _, name := range all {
		e := builtins.Lookup(name)
		sig := types.LookupBuiltin(name)
		if sig == nil || len(sig.Params) != e.Arity() {
			t.Errorf("%s: the checker's signature does not take %d arguments", name, e.Arity())
		}
	}
}

// preludeFunctions returns the top-level functions of the prelude source
// with their number of parameters.
func preludeFunctions(t *testing.T) map[string]int {
	decl := regexp.MustCompile(`(?m)^fn ([a-z_]+)\(([^)]*)\):$`)
	defined := map[string]int{}
	for _, m := range decl.FindAllStringSubmatch(core.Prelude, -1) {
		if _, dup := defined[m[1]]; dup {
			t.Errorf("the prelude defines %s twice", m[1])
		}
		defined[m[1]] = len(strings.Split(m[2], ","))
	}
	if len(defined) == 0 {
		t.Fatal("found no functions in the prelude")
	}
	return defined
}

// TestNativeKinds: each native's argument kinds fit the registry's
// signature (a generic or structured parameter may be checked as KAny).
func TestNativeKinds(t *testing.T) {
	kindOf := map[string]value.Kind{
		"Int": value.KInt, "Float": value.KFloat, "Bool": value.KBool, "String": value.KString,
		"List": value.KList, "Map": value.KMap, "Set": value.KSet, "Pid": value.KPid, "ProcessId": value.KProcID, "MonitorRef": value.KMonRef,
		"Option": value.KData, "Result": value.KData, "Ordering": value.KData,
	}
	for _, n := range stdlib.Natives().Sorted() {
		e := builtins.Lookup(n.Name)
		for i, p := range e.Type().Args {
			want, ok := kindOf[p.Name]
			if td := builtins.LookupType(p.Name); td != nil {
				want, ok = value.KData, true
				if td.Info() == nil {
					want = value.KOpaque // an opaque library type
				}
			}
			if p.Ret != nil {
				want, ok = value.KFunc, true
			}
			if n.Args[i] != native.KAny && (!ok || n.Args[i] != want) {
				t.Errorf("%s argument %d: the native checks %s, the signature says %s", n.Name, i+1, n.Args[i], p)
			}
		}
	}
}

// TestNatives: the table holds each body once, as a copy carrying the
// registry's flags.
func TestNatives(t *testing.T) {
	tab := stdlib.Natives()
	for _, body := range append(core.Natives(), process.Natives()...) {
		got, ok := tab.Lookup(body.Name)
		if !ok || got.Arity != body.Arity || fmt.Sprint(got.Args) != fmt.Sprint(body.Args) {
			t.Errorf("%s is missing or differs from its body", body.Name)
			continue
		}
		actor := builtins.Lookup(body.Name).Context == builtins.ActorOnly
		if got.Flags.Has(native.ActorOnly) != actor {
			t.Errorf("%s: ActorOnly %v, the registry says %v", body.Name, got.Flags.Has(native.ActorOnly), actor)
		}
	}
	if n, _ := tab.Lookup("Process.monitor"); n == nil || !n.Flags.Has(native.ActorOnly) {
		t.Error("Process.monitor is not flagged ActorOnly")
	}
}

// TestBuildRefuses: Build fails on every way the registry and the bodies
// can disagree.
func TestBuildRefuses(t *testing.T) {
	body := func(name string, arity int) *native.Native {
		return &native.Native{Name: name, Arity: arity, Args: make([]value.Kind, arity),
			Fn: func(native.Host, []value.Value) (value.Value, *fault.Fault) { return value.Unit, nil }}
	}
	entry := func(name, sig string, impl builtins.Impl) *builtins.Entry {
		e := &builtins.Entry{Name: name, Sig: sig, Impl: impl, Doc: "d"}
		if impl == builtins.ImplPrelude {
			e.PreludeFn = "f"
		}
		if err := builtins.Validate([]*builtins.Entry{e}, nil); err != nil {
			t.Fatal(err)
		}
		return e
	}
	good := entry("M.f", "(Int) -> Int", builtins.ImplNative)
	if tab, err := stdlib.Build([]*builtins.Entry{good}, []*native.Native{body("M.f", 1)}); err != nil || len(tab) != 1 || tab["M.f"].Size != nil {
		t.Fatalf("a matching table: %v", err)
	}
	// A long native gets native.Length unless its body has a measure;
	// a body with a measure needs the Long flag.
	long := entry("M.f", "(Int) -> Int", builtins.ImplNative)
	long.Flags |= builtins.Long
	if tab, err := stdlib.Build([]*builtins.Entry{long}, []*native.Native{body("M.f", 1)}); err != nil || tab["M.f"].Size == nil {
		t.Fatalf("a long native: %v", err)
	}
	measured := body("M.f", 1)
	measured.Size = native.Logical
	for name, c := range map[string]struct {
		entries []*builtins.Entry
		bodies  []*native.Native
	}{
		"no body":           {[]*builtins.Entry{good}, nil},
		"no entry":          {[]*builtins.Entry{good}, []*native.Native{body("M.f", 1), body("M.g", 1)}},
		"two bodies":        {[]*builtins.Entry{good}, []*native.Native{body("M.f", 1), body("M.f", 1)}},
		"arity":             {[]*builtins.Entry{good}, []*native.Native{body("M.f", 2)}},
		"prelude native":    {[]*builtins.Entry{entry("M.p", "(Int) -> Int", builtins.ImplPrelude)}, []*native.Native{body("M.p", 1)}},
		"measure, not long": {[]*builtins.Entry{good}, []*native.Native{measured}},
	} {
		if _, err := stdlib.Build(c.entries, c.bodies); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestProcessTypes: stdlib/process's descriptors are the registry's (the
// Process and Supervisor modules' types), and the checker's constructors
// of them have the same tags.
func TestProcessTypes(t *testing.T) {
	var names []string
	for _, td := range builtins.Types() {
		if td.Info() == nil {
			continue // opaque: no descriptor
		}
		names = append(names, td.Name)
		if ptype.TypeByName(td.Name) != td.Info() {
			t.Errorf("%s: stdlib/process has another descriptor", td.Name)
		}
	}
	if len(ptype.Types) != len(names) {
		t.Errorf("stdlib/process has %d types, the registry %v", len(ptype.Types), names)
	}
}

// TestContextsMatchProcessDoc: the context column of the Process API
// table in docs/process.md is each operation's registry context.
func TestContextsMatchProcessDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/process.md")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile("`(Process\\.[a-z_]+)\\(")
	seen := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`Process.") {
			continue
		}
		ctx := strings.TrimSpace(cells[3])
		for _, m := range name.FindAllStringSubmatch(cells[1], -1) {
			e := builtins.Lookup(m[1])
			if e == nil {
				t.Errorf("docs/process.md lists %s, which the registry lacks", m[1])
				continue
			}
			seen[m[1]] = true
			if want := e.Context.String(); !strings.HasPrefix(ctx, want) {
				t.Errorf("%s: docs/process.md says context %q, the registry %q", m[1], ctx, want)
			}
		}
	}
	for _, e := range builtins.All() {
		if e.Module() == builtins.ProcessModule && !seen[e.Name] {
			t.Errorf("the Process API table of docs/process.md does not list %s", e.Name)
		}
	}
}

func sysNames() []string {
	var out []string
	for _, n := range sys.Natives() {
		out = append(out, n.Name)
	}
	return out
}

// BenchmarkBuild joins the registry's native entries to their Go bodies,
// the work of the first Natives call (allocs/op are exact; time is to
// be taken on a quiet machine):
//
//	go test ./stdlib/ -run '^$' -bench Build -benchmem
func BenchmarkBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := stdlib.Build(builtins.Entries(), core.Natives(), process.Natives(), sys.Natives()); err != nil {
			b.Fatal(err)
		}
	}
}
