package supervisor

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPure keeps the package a pure state machine: its non-test files may
// import only formatting packages (no runtime packages, no time, no sync,
// no goroutines).
func TestPure(t *testing.T) {
	allowed := map[string]bool{"fmt": true, "strconv": true, "strings": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !allowed[p] {
				t.Errorf("%s imports %s; the state machine must stay pure", name, p)
			}
		}
	}
}
