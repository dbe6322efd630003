package cli

import (
	"bytes"
	"errors"
	"fmt"
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

func TestNewRootHasNoCompletionCommand(t *testing.T) {
	var stderr bytes.Buffer
	if got := Execute(tool(nil), []string{"completion", "bash"}, &bytes.Buffer{}, &bytes.Buffer{}, &stderr); got != ExitUsage {
		t.Fatalf("status = %d, want %d (stderr %q)", got, ExitUsage, stderr.String())
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
