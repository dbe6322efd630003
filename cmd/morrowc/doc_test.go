package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestCLIDocCoversEveryFlag keeps docs/cli.md in step with the commands:
// every command and flag of morrowc must be mentioned there.
func TestCLIDocCoversEveryFlag(t *testing.T) {
	doc := testrun.ReadDoc(t, "cli.md")
	root := newRoot(&env{getenv: func(string) string { return "" }})
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" {
			continue
		}
		if !strings.Contains(doc, "## morrowc "+c.Name()) {
			t.Errorf("docs/cli.md has no section for morrowc %s", c.Name())
		}
		checkFlags(t, doc, c)
		if c.Name() == "check" && strings.Join(testrun.FlagNames(c.Flags().FlagUsages()), ",") != "color,deny-warnings,format" {
			t.Errorf("flags of check read as %v", testrun.FlagNames(c.Flags().FlagUsages()))
		}
	}
}

func checkFlags(t *testing.T, doc string, c *cobra.Command) {
	for _, name := range testrun.FlagNames(c.Flags().FlagUsages()) {
		if !strings.Contains(doc, "--"+name) && !(name == "output" && strings.Contains(doc, "-o OUT")) {
			t.Errorf("docs/cli.md does not mention %s --%s", c.CommandPath(), name)
		}
	}
}
