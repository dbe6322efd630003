package builtins

import "testing"

// TestSigArity: the arity read without parsing agrees with the parse on
// the shapes of signature the language has (validation checks it for
// every entry of the table).
func TestSigArity(t *testing.T) {
	for sig, want := range map[string]int{
		"() -> Unit":                                          0,
		"( ) -> Unit":                                         0,
		"(Int) -> Int":                                        1,
		"((Int, Int)) -> Int":                                 1,
		"(() -> Unit) -> Pid(m)":                              1,
		"(List(a), (a, b) -> c) -> List(c)":                   2,
		"(Map(k, v), k, v) -> Map(k, v)":                      3,
		"(Pid(m), (Pid(r)) -> m, Int) -> r":                   3,
		"(Result(a, e), (e) -> Result(a, f)) -> Result(a, f)": 2,
	} {
		parsed, err := ParseType(sig)
		if err != nil {
			t.Fatal(err)
		}
		if got := sigArity(sig); got != want || got != len(parsed.Args) {
			t.Errorf("sigArity(%q) = %d, want %d (parsed: %d)", sig, got, want, len(parsed.Args))
		}
	}
	for _, e := range table {
		if e.Arity() != len(e.Type().Args) {
			t.Errorf("%s: Arity %d, signature %d", e.Name, e.Arity(), len(e.Type().Args))
		}
	}
}

// BenchmarkIndex validates and indexes the table's entries, the work the
// first All or Lookup of a process does and that package initialisation
// no longer does (allocs/op are exact; time is to be taken on a quiet
// machine):
//
//	go test ./stdlib/builtins/ -run '^$' -bench . -benchmem
func BenchmarkIndex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if x := newIndex(); len(x.sorted) != len(table) {
			b.Fatal("incomplete index")
		}
	}
}

// BenchmarkValidate validates the whole registry, types and entries.
func BenchmarkValidate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(table, typeTable); err != nil {
			b.Fatal(err)
		}
	}
}
