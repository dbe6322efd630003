// Command morrowc is the Morrow compiler: it checks source files, builds
// them into bytecode (.mrb) files and disassembles programs.
//
//	morrowc check FILE... [--format text|short|json] [--color[=auto|always|never]]
//	morrowc build FILE [-o OUT.mrb]
//	morrowc disasm FILE.mrb|FILE.mr
//	morrowc lsp
//	morrowc completion bash|zsh|fish|powershell
//
// Exit status: 0 when clean, 1 when any error was reported (or a file could
// not be read or written), 2 on usage errors. main only calls run, so the
// whole command is tested in-process.
//
// Diagnostics in the text and short formats go to stderr, followed by a
// summary line ("2 errors"), in every command; `check --format json`
// writes its one document to stdout (read errors included, as E0023
// diagnostics). A file that is bytecode or binary data is refused with one
// line.
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

func main() { cli.Main(run) }

// Exit statuses (shared with cmd/morrow through internal/cli).
const (
	exitOK    = cli.ExitOK
	exitError = cli.ExitError
	exitUsage = cli.ExitUsage
)

// exitStatus is returned by a command that has already reported its
// outcome and only needs to set the process status.
type exitStatus = cli.ExitStatus

type usageError = cli.UsageError

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
	root.AddCommand(newCheck(e), newBuild(e), newDisasm(e), newLSP(e), newFmt(e))
	return root
}

// renderFlags are the --format/--color/--deny-warnings flags shared by
// commands that print diagnostics.
type renderFlags struct {
	format, color string
	denyWarnings  bool
}

func (r *renderFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&r.format, "format", "text", "diagnostic format: text, short or json")
	cli.ColorFlag(cmd.Flags(), &r.color)
	cli.DenyWarningsFlag(cmd.Flags(), &r.denyWarnings)
}

// failed reports whether l stops the command: any error, or any warning
// under --deny-warnings.
func (r *renderFlags) failed(l diag.List) bool {
	_, w := l.Count()
	return l.HasErrors() || r.denyWarnings && w > 0
}

// options validates the flags and decides colour for output going to w.
func (r *renderFlags) options(e *env, w io.Writer) (diag.RenderOptions, error) {
	f, err := diag.ParseFormat(r.format)
	if err != nil {
		return diag.RenderOptions{}, &usageError{Msg: "--format: " + err.Error()}
	}
	m, err := diag.ParseColorMode(r.color)
	if err != nil {
		return diag.RenderOptions{}, &usageError{Msg: "--color: " + err.Error()}
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

// readError is the one-line text of a file that cannot be read; a file
// named like a --color value gets a reminder that the value needs '='.
func readError(path string, err error) string {
	return fmt.Sprintf("cannot read %s: %s%s", path, oneLine(unwrapPath(err)), cli.ColorValueHint(path))
}

// renderDiags writes diagnostics in the chosen format: text and short end
// with the summary line ("2 errors", "1 warning (denied by
// --deny-warnings)").
func renderDiags(w io.Writer, l diag.List, opts diag.RenderOptions, deny bool) error {
	if err := diag.Render(w, l, opts); err != nil {
		return err
	}
	if s := cli.Summary(l, deny); s != "" && opts.Format != diag.FormatJSON {
		if opts.Format == diag.FormatText {
			s = "\n" + s
		}
		_, err := fmt.Fprintln(w, s)
		return err
	}
	return nil
}

// notSource returns the diagnostic of a file that is not source text at
// all (bytecode, binary data), or nil.
func notSource(l diag.List) *diag.Diagnostic {
	if len(l) == 1 && l[0].Code == compiler.ErrNotSource {
		return l[0]
	}
	return nil
}

// reportInternal prints a compiler bug; it is never the user's fault.
func reportInternal(e *env, err error) {
	fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
	var ie *compiler.InternalError
	if errors.As(err, &ie) && len(ie.Stack) > 0 && e.getenv("MORROW_DEBUG") != "" {
		e.stderr.Write(ie.Stack)
	}
}
