package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// tool builds a root "tool" with a subcommand "sub" whose RunE returns err.
func tool(err error) *cobra.Command {
	root := NewRoot("tool", "A tool", "tool does things.", "missing command (sub)")
	root.AddCommand(&cobra.Command{
		Use:  "sub",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return err },
	})
	return root
}

func TestExecute(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		err        error
		wantStatus int
		wantStdout string
		wantStderr string
	}{
		{"success", []string{"sub"}, nil, ExitOK, "", ""},
		{"exit status is forwarded silently", []string{"sub"}, ExitStatus(7), 7, "", ""},
		{"wrapped exit status", []string{"sub"}, fmt.Errorf("wrapped: %w", ExitStatus(ExitError)), ExitError, "", ""},
		{"own usage error is flattened", []string{"sub"}, errors.New("bad\n  value"), ExitUsage, "",
			"tool: bad value\nRun 'tool sub --help' for usage.\n"},
		{"missing subcommand", nil, nil, ExitUsage, "",
			"tool: missing command (sub)\nRun 'tool --help' for usage.\n"},
		{"unknown flag", []string{"sub", "--nope"}, nil, ExitUsage, "",
			"tool: unknown flag: --nope\nRun 'tool sub --help' for usage.\n"},
		{"version", []string{"--version"}, nil, ExitOK, "tool version " + Version + "\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			got := Execute(tool(tc.err), tc.args, &bytes.Buffer{}, &stdout, &stderr)
			if got != tc.wantStatus {
				t.Errorf("status = %d, want %d", got, tc.wantStatus)
			}
			if stdout.String() != tc.wantStdout {
				t.Errorf("stdout = %q, want %q", stdout.String(), tc.wantStdout)
			}
			if stderr.String() != tc.wantStderr {
				t.Errorf("stderr = %q, want %q", stderr.String(), tc.wantStderr)
			}
		})
	}
}

func TestNewRootHasCompletionCommand(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		var stdout, stderr bytes.Buffer
		if got := Execute(tool(nil), []string{"completion", shell}, &bytes.Buffer{}, &stdout, &stderr); got != ExitOK || !strings.Contains(stdout.String(), "tool") {
			t.Errorf("completion %s: status %d, stderr %q", shell, got, stderr.String())
		}
	}
}

// flagTool has a subcommand with flags of several kinds and ExactFiles(1).
func flagTool() *cobra.Command {
	root := NewRoot("tool", "A tool", "tool does things.", "missing command (sub)")
	var n int
	var b bool
	var c string
	sub := &cobra.Command{Use: "sub FILE", Args: ExactFiles(1), RunE: func(*cobra.Command, []string) error { return nil }}
	sub.Flags().IntVar(&n, "count", 1, "how many, 1..9")
	sub.Flags().BoolVar(&b, "fast", false, "go fast")
	ColorFlag(sub.Flags(), &c)
	root.AddCommand(sub)
	return root
}

func TestUsageMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sbu"}, `tool: unknown command "sbu" for "tool"; did you mean 'sub'?`},
		{[]string{"zzzzzz"}, `tool: unknown command "zzzzzz" for "tool"`},
		{[]string{"sub", "--count", "abc", "f"}, `tool: invalid value "abc" for --count: want an integer (how many, 1..9)`},
		{[]string{"sub", "--count", "99999999999999999999", "f"}, `tool: invalid value "99999999999999999999" for --count: want an integer in range (how many, 1..9)`},
		{[]string{"sub", "--fast=maybe", "f"}, `tool: invalid value "maybe" for --fast: want true or false (go fast)`},
		{[]string{"sub", "--cuont", "3", "f"}, `tool: unknown flag: --cuont; did you mean --count?`},
		{[]string{"sub", "--color", "never", "f"}, `tool: want one file, got 2: never f (--color takes its value with '=': --color=never)`},
		{[]string{"sub"}, `tool: want one file, got 0`},
	} {
		var stderr bytes.Buffer
		got := Execute(flagTool(), tc.args, &bytes.Buffer{}, &bytes.Buffer{}, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if got != ExitUsage || first != tc.want {
			t.Errorf("%v: status %d, first line\n%s\nwant\n%s", tc.args, got, first, tc.want)
		}
	}
	var stderr bytes.Buffer
	if got := Execute(flagTool(), []string{"sub", "--color", "f"}, &bytes.Buffer{}, &bytes.Buffer{}, &stderr); got != ExitOK {
		t.Errorf("bare --color before the file: status %d, %s", got, stderr.String())
	}
}

func TestExitStatusError(t *testing.T) {
	if got := ExitStatus(3).Error(); got != "exit status 3" {
		t.Errorf("Error() = %q", got)
	}
}

func TestOneLine(t *testing.T) {
	if got := OneLine("  a\n\tb  c \n"); got != "a b c" {
		t.Errorf("OneLine = %q", got)
	}
}
