package core

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// specNatives is every first-order function of LANGUAGE.md §8 and
// STDLIB.md with its arity.
var specNatives = map[string]int{
	"print": 1, "println": 1, "show": 1, "eq": 2, "compare": 2,

	"List.head": 1, "List.get": 2, "List.tail": 1, "List.len": 1, "List.is_empty": 1,
	"List.first": 1, "List.last": 1, "List.at": 2, "List.push": 2, "List.concat": 2,
	"List.reverse": 1, "List.take": 2, "List.drop": 2, "List.range": 2, "List.zip": 2,
	"List.contains": 2, "List.sum": 1, "List.sort": 1, "List.enumerate": 1,

	"String.len": 1, "String.concat": 2, "String.eq": 2, "String.compare": 2,
	"String.repeat": 2, "String.slice": 3, "String.split": 2, "String.join": 2,
	"String.contains": 2, "String.starts_with": 2, "String.ends_with": 2,
	"String.trim": 1, "String.trim_start": 1, "String.trim_end": 1,
	"String.to_upper": 1, "String.to_lower": 1, "String.replace": 3, "String.quote": 1,
	"String.is_empty": 1, "String.index_of": 2, "String.char_at": 2, "String.lines": 1,
	"String.is_decimal": 1,

	"Int.parse": 1, "Int.checked_add": 2, "Int.checked_sub": 2, "Int.checked_mul": 2,
	"Int.checked_div": 2, "Int.checked_rem": 2, "Int.checked_neg": 1,

	"Option.is_some": 1, "Option.is_none": 1, "Option.unwrap_or": 2,
	"Result.is_ok": 1, "Result.is_err": 1, "Result.unwrap_or": 2,

	// Beyond the spec: conversions and helpers a first program needs
	// (extra.go, docs/stdlib.md).
	"Int.to_float": 1, "Float.from_int": 1, "Float.to_int": 1, "Float.round": 1,
	"List.max": 1, "List.min": 1, "String.pad_left": 3, "String.pad_right": 3,
}

var specPrelude = []string{
	"List.map", "List.filter", "List.fold", "List.find", "List.any", "List.all", "List.sort_by",
	"Option.map", "Result.map", "Result.and_then", "Result.unwrap_or_else",
}

func TestRegistryMatchesSpec(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Error("Names is not sorted")
	}
	for _, name := range names {
		if _, ok := specNatives[name]; !ok {
			t.Errorf("native %s is not in the spec list", name)
		}
	}
	for name, arity := range specNatives {
		n, ok := Lookup(name)
		if !ok {
			t.Errorf("spec function %s is not registered", name)
			continue
		}
		if n.Arity != arity || n.Name != name || len(n.Args) != arity || (n.Fn == nil) == (n.FnWork == nil) {
			t.Errorf("%s: arity %d, want %d", name, n.Arity, arity)
		}
	}
	if _, ok := Lookup("List.map"); ok {
		t.Error("List.map must be a prelude function, not a native")
	}
	if _, ok := Lookup("Option.unwrap"); ok {
		t.Error("Option.unwrap must not exist")
	}
	want := slices.Sorted(slices.Values(append(slices.Clone(specPrelude), names...)))
	if got := LibraryNames(); !slices.Equal(got, want) {
		t.Errorf("LibraryNames = %v, want %v", got, want)
	}
}

// TestPreludeDefinesItsFunctions checks that PreludeFuncs names exactly
// the spec's higher-order functions and that each target is a top-level
// function of the embedded prelude with the right number of parameters,
// written in the plain layout the parser expects.
func TestPreludeDefinesItsFunctions(t *testing.T) {
	if len(PreludeFuncs) != len(specPrelude) {
		t.Errorf("PreludeFuncs has %d entries, want %d", len(PreludeFuncs), len(specPrelude))
	}
	arity := map[string]int{
		"List.map": 2, "List.filter": 2, "List.fold": 3, "List.find": 2, "List.any": 2,
		"List.all": 2, "List.sort_by": 2, "Option.map": 2, "Result.map": 2,
		"Result.and_then": 2, "Result.unwrap_or_else": 2,
	}
	decl := regexp.MustCompile(`(?m)^fn ([a-z_]+)\(([^)]*)\):$`)
	defined := map[string]int{}
	for _, m := range decl.FindAllStringSubmatch(Prelude, -1) {
		if _, dup := defined[m[1]]; dup {
			t.Errorf("prelude defines %s twice", m[1])
		}
		defined[m[1]] = len(strings.Split(m[2], ","))
	}
	for _, lib := range specPrelude {
		fn, ok := PreludeFuncs[lib]
		if !ok {
			t.Errorf("PreludeFuncs lacks %s", lib)
			continue
		}
		if n, ok := defined[fn]; !ok {
			t.Errorf("prelude does not define %s (for %s)", fn, lib)
		} else if n != arity[lib] {
			t.Errorf("prelude %s has %d parameters, want %d", fn, n, arity[lib])
		}
	}
	for i, line := range strings.Split(Prelude, "\n") {
		if strings.ContainsRune(line, '\t') {
			t.Errorf("prelude line %d has a tab", i+1)
		}
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent%4 != 0 {
			t.Errorf("prelude line %d is not indented by a multiple of 4", i+1)
		}
		if strings.TrimRight(line, " ") != line {
			t.Errorf("prelude line %d has trailing spaces", i+1)
		}
	}
}

func TestOrderingValues(t *testing.T) {
	for c, tag := range map[int]int{-5: 0, -1: 0, 0: 1, 1: 2, 9: 2} {
		o := Ordering(c)
		if o.Kind() != value.KData || o.AsData().Type != value.OrderingType || o.AsData().Tag != tag {
			t.Errorf("Ordering(%d) = %s", c, Show(o))
		}
	}
}
