// Package cli holds what the morrow and morrowc commands share about
// running a cobra command tree: the exit statuses of the tools, the
// ExitStatus error a command returns when it has already reported its
// outcome, the root command both binaries start from, and Execute, which
// runs the tree and turns its result into the process exit status.
//
// Any error other than an ExitStatus is a usage error: cobra's own
// (unknown command or flag, wrong argument count) or one of the command's
// own validation. Execute prints it on one line as "NAME: message"
// followed by "Run 'COMMAND PATH --help' for usage." and returns
// ExitUsage.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit statuses of the tools themselves.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Version is the version both tools report with --version.
const Version = "0.1.0"

// ExitStatus is returned by a command that has already reported its
// outcome and only needs to set the process status.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// NewRoot returns the root command of a tool: it takes no arguments of
// its own, fails with the usage error missing when run without a
// subcommand, leaves error reporting to Execute and has no completion
// command.
func NewRoot(use, short, long, missing string) *cobra.Command {
	root := &cobra.Command{
		Use:           use,
		Short:         short,
		Long:          long,
		Version:       Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New(missing)
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	return root
}

// Execute runs root with args and the given streams and returns the exit
// status: ExitOK on success, the status of an ExitStatus error, and
// ExitUsage (after reporting the error on stderr) for anything else.
func Execute(root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var st ExitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "%s: %s\n", root.Name(), OneLine(err.Error()))
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return ExitUsage
}

// OneLine flattens a message onto a single line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
