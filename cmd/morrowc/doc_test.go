package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// flagNames lists the long flag names of a command (from its usage text,
// so the test needs nothing beyond cobra).
func flagNames(c *cobra.Command) []string {
	var names []string
	for _, m := range flagRE.FindAllStringSubmatch(c.Flags().FlagUsages(), -1) {
		if m[1] != "help" {
			names = append(names, m[1])
		}
	}
	return names
}

var flagRE = regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([\w-]+)`)

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
		if c.Name() == "check" && strings.Join(flagNames(c), ",") != "color,deny-warnings,format" {
			t.Errorf("flags of check read as %v", flagNames(c))
		}
	}
}

func checkFlags(t *testing.T, doc string, c *cobra.Command) {
	for _, name := range flagNames(c) {
		if !strings.Contains(doc, "--"+name) && !(name == "output" && strings.Contains(doc, "-o OUT")) {
			t.Errorf("docs/cli.md does not mention %s --%s", c.CommandPath(), name)
		}
	}
}
