package main

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestCLIDocCoversEveryFlag keeps docs/cli.md in step with `morrow run`.
func TestCLIDocCoversEveryFlag(t *testing.T) {
	doc := testrun.ReadDoc(t, "cli.md")
	if !strings.Contains(doc, "## morrow run") {
		t.Error("docs/cli.md has no section for morrow run")
	}
	usage := newRun(&env{getenv: func(string) string { return "" }}).Flags().FlagUsages()
	names := testrun.FlagNames(usage)
	if len(names) < 5 {
		t.Fatalf("could not read the flags from:\n%s", usage)
	}
	for _, name := range names {
		if !strings.Contains(doc, "--"+name) {
			t.Errorf("docs/cli.md does not mention morrow run --%s", name)
		}
	}
	for _, v := range []string{"MORROW_SCHEDULERS", "MORROW_WORK_STEALING", "MORROW_REDUCTIONS", "MORROW_MAX_PROCESSES", "MORROW_MEMORY_BUDGET"} {
		if !strings.Contains(doc, v) {
			t.Errorf("docs/cli.md does not mention %s", v)
		}
	}
}
