package types

import "testing"

// BenchmarkLibTables builds the checker's tables of the builtin registry
// (lib), the work the first check of a process does and that package
// initialisation no longer does (allocs/op are exact; time is to be
// taken on a quiet machine):
//
//	go test ./lang/types/ -run '^$' -bench LibTables -benchmem
func BenchmarkLibTables(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if l := newLibTables(); l.event == nil || len(l.sigs) == 0 {
			b.Fatal("incomplete tables")
		}
	}
}

// TestLibTablesOnce: every check shares the one set of tables, and a
// rebuild gives the same names, so building them on first use is the
// same as building them at start-up.
func TestLibTablesOnce(t *testing.T) {
	if lib() != lib() {
		t.Fatal("lib() built its tables twice")
	}
	l, fresh := lib(), newLibTables()
	if len(l.sigs) != len(fresh.sigs) || len(l.typeDefs) != len(fresh.typeDefs) || len(l.labeled) != len(fresh.labeled) ||
		len(l.modules) != len(fresh.modules) || len(l.reserved) != len(fresh.reserved) || len(l.reqs) != len(fresh.reqs) {
		t.Errorf("a rebuild differs: %d/%d sigs, %d/%d types", len(l.sigs), len(fresh.sigs), len(l.typeDefs), len(fresh.typeDefs))
	}
	if l.event == nil || l.event.Name != "Process.Event" {
		t.Errorf("event def %v", l.event)
	}
}
