package compiler

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/diag"
)

const (
	codesBegin = "<!-- codes:begin -->"
	codesEnd   = "<!-- codes:end -->"
	docPath    = "../../docs/diagnostics.md"
)

// codeTable renders the registered codes as the Markdown table that
// docs/diagnostics.md carries between its markers.
func codeTable() string {
	var b strings.Builder
	b.WriteString("| code | reported when |\n| --- | --- |\n")
	for _, c := range diag.Codes() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Code, strings.ReplaceAll(c.Summary, "|", `\|`))
	}
	return b.String()
}

// TestDiagnosticsDocListsEveryCode keeps the code table of
// docs/diagnostics.md in step with diag.Codes(). GOLDIE_UPDATE=1 (make
// golden) rewrites the table.
func TestDiagnosticsDocListsEveryCode(t *testing.T) {
	if len(diag.Codes()) == 0 {
		t.Fatal("no diagnostic codes are registered")
	}
	raw, err := os.ReadFile(filepath.FromSlash(docPath))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	i, j := strings.Index(doc, codesBegin), strings.Index(doc, codesEnd)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %s ... %s markers", docPath, codesBegin, codesEnd)
	}
	want := codeTable()
	got := doc[i+len(codesBegin) : j]
	if strings.TrimSpace(got) == strings.TrimSpace(want) {
		return
	}
	if u := os.Getenv("GOLDIE_UPDATE"); u == "1" || u == "true" {
		updated := doc[:i+len(codesBegin)] + "\n" + want + doc[j:]
		if err := os.WriteFile(filepath.FromSlash(docPath), []byte(updated), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the code table in docs/diagnostics.md is out of date; run `make golden` (GOLDIE_UPDATE=1 go test ./lang/compiler/)\nwant:\n%s", want)
}
