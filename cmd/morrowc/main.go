// Command morrowc is the Morrow compiler: it checks source files, builds
// them into bytecode (.mrb) files and disassembles programs.
//
//	morrowc check FILE... [--format text|short|json] [--color auto|always|never]
//	morrowc build FILE [-o OUT.mrb]
//	morrowc disasm FILE.mrb|FILE.mr
//	morrowc lsp
//
// Exit status: 0 when clean, 1 when any error was reported (or a file could
// not be read or written), 2 on usage errors. main only calls run, so the
// whole command is tested in-process.
//
// Diagnostics of `check` go to stdout (they are the command's output, so
// `--format json` can be piped); `build` and `disasm` report them on stderr.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses (shared with cmd/morrow through internal/cli).
const (
	exitOK    = cli.ExitOK
	exitError = cli.ExitError
	exitUsage = cli.ExitUsage
)

// exitStatus is returned by a command that has already reported its
// outcome and only needs to set the process status.
type exitStatus = cli.ExitStatus

// usageError is a command-line mistake detected by our own validation;
// cli.Execute reports it with the usage hint and exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// env holds the process environment the commands see; tests replace
// getenv to control NO_COLOR and friends.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// run executes one morrowc invocation and returns its exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runEnv(args, &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv})
}

func runEnv(args []string, e *env) int {
	return cli.Execute(newRoot(e), args, e.stdin, e.stdout, e.stderr)
}

// oneLine flattens a message onto a single line.
func oneLine(s string) string { return cli.OneLine(s) }

func newRoot(e *env) *cobra.Command {
	root := cli.NewRoot("morrowc", "The Morrow compiler",
		"morrowc checks Morrow source files (.mr), compiles them to bytecode (.mrb)\n"+
			"and shows the bytecode. Run programs with `morrow run`.",
		"missing command (check, build, disasm or lsp)")
	root.AddCommand(newCheck(e), newBuild(e), newDisasm(e), newLSP(e))
	return root
}

// renderFlags are the --format/--color flags shared by commands that
// print diagnostics.
type renderFlags struct {
	format, color string
}

func (r *renderFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&r.format, "format", "text", "diagnostic format: text, short or json")
	cmd.Flags().StringVar(&r.color, "color", "auto", "colour diagnostics: auto, always or never (auto honours NO_COLOR)")
}

// options validates the flags and decides colour for output going to w.
func (r *renderFlags) options(e *env, w io.Writer) (diag.RenderOptions, error) {
	f, err := diag.ParseFormat(r.format)
	if err != nil {
		return diag.RenderOptions{}, &usageError{"--format: " + err.Error()}
	}
	m, err := diag.ParseColorMode(r.color)
	if err != nil {
		return diag.RenderOptions{}, &usageError{"--color: " + err.Error()}
	}
	return diag.RenderOptions{Format: f, Color: f == diag.FormatText && m.Enabled(w, e.getenv)}, nil
}

// readSource reads a file argument; "-" is standard input.
// At most one byte past the 1 MiB source limit is read: that is enough
// for the parser to refuse the file (E0019), and /dev/zero ends there.
func readSource(e *env, path string) (name string, src []byte, err error) {
	if path == "-" {
		src, err = source.ReadLimited(e.stdin, source.MaxBytes)
		return "<stdin>", src, err
	}
	src, err = source.ReadFileLimited(path, source.MaxBytes)
	return path, src, err
}

// reportInternal prints a compiler bug; it is never the user's fault.
func reportInternal(e *env, err error) {
	fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
	var ie *compiler.InternalError
	if errors.As(err, &ie) && len(ie.Stack) > 0 && e.getenv("MORROW_DEBUG") != "" {
		e.stderr.Write(ie.Stack)
	}
}
