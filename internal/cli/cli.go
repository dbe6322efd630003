// Package cli holds what the morrow and morrowc commands share about
// running a cobra command tree: the exit statuses of the tools, the
// ExitStatus error a command returns when it has already reported its
// outcome, the root command both binaries start from (with cobra's
// `completion bash|zsh|fish|powershell` command and "did you mean" for
// mistyped commands), the --color flag, Execute, which runs the tree
// and turns its result into the process exit status, and Main, the
// binaries' common main.
//
// Any error other than an ExitStatus is a usage error: cobra's own
// (unknown command or flag, wrong argument count, a flag value of the
// wrong kind) or one of the command's own validation. Execute prints it on
// one line as "NAME: message" followed by "Run 'COMMAND PATH --help' for
// usage." and returns ExitUsage. Messages name what was expected: a
// mistyped command or flag gets the closest known one (cobra's
// Levenshtein suggestions, distance at most 2, or a prefix), and a flag
// value that does not parse says which kind of value the flag takes
// instead of quoting strconv.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/runtime/gotune"
)

// Main is a tool's main: it sets the Go runtime's GC target (gotune.SetGC:
// GC percent 400 unless GOGC is set, docs/performance.md), runs run on the
// process's arguments and standard streams and exits with its status.
func Main(run func(args []string, stdin io.Reader, stdout, stderr io.Writer) int) {
	gotune.SetGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses of the tools themselves.
const (
	ExitOK    = 0
	ExitError = 1
	ExitUsage = 2
)

// Version is the version both tools report with --version.
const Version = "0.1.0"

// UsageError is a command-line mistake a tool's own validation found
// (cobra finds the others); Execute reports it with the usage hint and
// ExitUsage, like any error that is not an ExitStatus.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// ExitStatus is returned by a command that has already reported its
// outcome and only needs to set the process status.
type ExitStatus int

func (e ExitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// NewRoot returns the root command of a tool: it takes no arguments of
// its own (an unknown command is a usage error that suggests the closest
// command), fails with the usage error missing when run without a
// subcommand, leaves error reporting to Execute, and has cobra's
// `completion` command for bash, zsh, fish and powershell.
func NewRoot(use, short, long, missing string) *cobra.Command {
	root := &cobra.Command{
		Use:           use,
		Short:         short,
		Long:          long,
		Version:       Version,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          unknownCommand,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New(missing)
		},
	}
	root.SuggestionsMinimumDistance = 2
	return root
}

// unknownCommand rejects arguments to the root: the first one is a
// command that does not exist.
func unknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean '" + s[0] + "'?"
	}
	return errors.New(msg)
}

// ExactFiles is the argument check of a command that takes n file
// arguments. When the count is wrong and an argument is a --color value
// written without '=' (`--color never x.mr`), the message says so.
func ExactFiles(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == n {
			return nil
		}
		want := "one file"
		if n != 1 {
			want = fmt.Sprintf("%d files", n)
		}
		msg := fmt.Sprintf("want %s, got %d", want, len(args))
		if len(args) > 0 {
			msg += ": " + strings.Join(args, " ")
		}
		for _, a := range args {
			if h := ColorValueHint(a); h != "" && len(args) > n {
				msg += h
				break
			}
		}
		return errors.New(msg)
	}
}

// DenyWarningsFlag registers --deny-warnings on fs: warnings then fail
// the command (exit status 1; build writes nothing, run does not run).
func DenyWarningsFlag(fs *pflag.FlagSet, p *bool) {
	fs.BoolVar(p, "deny-warnings", false, "treat warnings as errors: they make the command fail")
}

// Summary is the closing line after diagnostics in the text and short
// formats: "2 errors", "1 error, 1 warning", "1 warning (denied by
// --deny-warnings)"; "" for no diagnostics.
func Summary(l diag.List, deny bool) string {
	s := l.Summary()
	if _, w := l.Count(); deny && w > 0 {
		s += " (denied by --deny-warnings)"
	}
	return s
}

// ColorFlag registers the --color flag of both tools on fs: --color=WHEN
// with WHEN auto (the default), always or never; a bare --color means
// always. The value must be attached with '=' (like GNU ls and grep), so
// `--color FILE` never takes FILE as the value.
func ColorFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "color", "auto", "colour diagnostics: --color=auto|always|never (auto honours NO_COLOR; bare --color means always)")
	fs.Lookup("color").NoOptDefVal = "always"
}

// ColorValueHint explains a file argument that is really a --color value
// given without '=' (`--color never x.mr` reads "never" as a file): it
// returns " (--color takes its value with '=': --color=never)" for the
// names auto, always and never, and "" for anything else.
func ColorValueHint(path string) string {
	switch path {
	case "auto", "always", "never":
		return " (--color takes its value with '=': --color=" + path + ")"
	}
	return ""
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
	fmt.Fprintf(stderr, "%s: %s\n", root.Name(), OneLine(usageMessage(cmd, err)))
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return ExitUsage
}

// OneLine flattens a message onto a single line.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// usageMessage words a usage error: a flag value that does not parse
// names the kind of value the flag takes, and an unknown flag suggests the
// closest flag of the command.
func usageMessage(cmd *cobra.Command, err error) string {
	var iv *pflag.InvalidValueError
	if errors.As(err, &iv) {
		f := iv.GetFlag()
		want := "a valid value"
		switch f.Value.Type() {
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
			want = "an integer"
			var ne *strconv.NumError
			if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
				want = "an integer in range"
			}
		case "bool":
			want = "true or false"
		case "duration":
			want = "a duration such as 500ms or 2s"
		}
		return fmt.Sprintf("invalid value %q for --%s: want %s (%s)", iv.GetValue(), f.Name, want, f.Usage)
	}
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && strings.HasPrefix(err.Error(), "unknown flag: --") {
		name := ne.GetSpecifiedName()
		best, bestD := "", 3
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if d := levenshtein(name, f.Name); d < bestD || d == bestD && f.Name < best {
				best, bestD = f.Name, d
			}
		})
		if best != "" {
			return err.Error() + "; did you mean --" + best + "?"
		}
	}
	return err.Error()
}

// levenshtein is the edit distance of two short strings (flag names).
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
