package main

// `morrowc fmt`: format source files in place (lang/format).
//
// Every file is formatted in memory first; files are written only when
// all of them formatted, so a run that meets a syntax error (or a
// formatter bug) changes nothing on disk.

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/internal/udiff"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/format"
	"github.com/morrow-lang/morrow/lang/source"
)

func newFmt(e *env) *cobra.Command {
	var rf renderFlags
	var check, diff bool
	cmd := &cobra.Command{
		Use:   "fmt [--check] [--diff] PATH...",
		Short: "Format source files in the canonical layout",
		Long: "fmt rewrites each PATH in the canonical layout. A directory is searched\n" +
			"recursively for .mr files; \"-\" formats standard input to standard output.\n" +
			"Only syntax matters: a file that does not type-check still formats. When any\n" +
			"file has a syntax error, its diagnostics are printed and no file is written.\n" +
			"--check writes nothing and lists the files that need formatting; --diff writes\n" +
			"nothing and prints a unified diff of the changes.\n" +
			"Exit status: 0 when done (or, with --check, when every file is formatted),\n" +
			"1 when a file needs formatting (--check) or could not be formatted, 2 on\n" +
			"usage errors.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &usageError{Msg: "fmt needs at least one PATH (a file, a directory, or - for standard input)"}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := rf.options(e, e.stderr)
			if err != nil {
				return err
			}
			return runFmt(e, args, check, diff, opts)
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; list unformatted files on stderr and exit 1 if there are any")
	cmd.Flags().BoolVar(&diff, "diff", false, "write nothing; print a unified diff of the changes")
	rf.register(cmd)
	return cmd
}

// fmtJob is one file of a fmt run.
type fmtJob struct {
	path  string // as shown to the user
	stdin bool
	src   []byte
	out   []byte
	mode  os.FileMode
}

func runFmt(e *env, args []string, check, diff bool, opts diag.RenderOptions) error {
	var jobs []*fmtJob
	failed := false
	for _, arg := range args {
		if arg == "-" {
			src, err := io.ReadAll(e.stdin)
			if err != nil {
				fmt.Fprintf(e.stderr, "morrowc: cannot read standard input: %s\n", oneLine(err.Error()))
				failed = true
				continue
			}
			jobs = append(jobs, &fmtJob{path: "<stdin>", stdin: true, src: src})
			continue
		}
		paths, err := fmtPaths(arg)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrowc: cannot read %s: %s\n", arg, oneLine(unwrapPath(err)))
			failed = true
			continue
		}
		for _, p := range paths {
			jobs = append(jobs, &fmtJob{path: p})
		}
	}
	// format everything in memory
	var all diag.List
	for _, j := range jobs {
		if !j.stdin {
			info, err := os.Stat(j.path)
			if err == nil {
				j.mode = info.Mode().Perm()
				j.src, err = os.ReadFile(j.path)
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "morrowc: cannot read %s: %s\n", j.path, oneLine(unwrapPath(err)))
				failed = true
				continue
			}
		}
		out, dl, err := format.Format(j.src, j.path)
		all = append(all, dl...)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
			failed = true
			continue
		}
		if dl.HasErrors() {
			failed = true
			continue
		}
		j.out = out
	}
	if len(all) > 0 {
		if err := diag.Render(e.stderr, all, opts); err != nil {
			fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
		}
	}
	if failed {
		if len(jobs) > 1 && !check && !diff {
			fmt.Fprintln(e.stderr, "morrowc: no file was written")
		}
		return exitStatus(exitError)
	}
	changed := false
	for _, j := range jobs {
		same := string(j.out) == string(j.src)
		if !same {
			changed = true
		}
		switch {
		case check || diff:
			if diff && !same {
				fmt.Fprint(e.stdout, udiff.Unified(j.path, j.path+" (formatted)", j.src, j.out))
			}
			if check && !same {
				fmt.Fprintf(e.stderr, "%s: formatting changes required\n", j.path)
			}
		case j.stdin:
			e.stdout.Write(j.out)
		case !same:
			if err := writeKeepingMode(j.path, j.out, j.mode); err != nil {
				fmt.Fprintf(e.stderr, "morrowc: cannot write %s: %s\n", j.path, oneLine(unwrapPath(err)))
				failed = true
			}
		}
	}
	if failed || (check && changed) {
		return exitStatus(exitError)
	}
	return nil
}

// fmtPaths expands one PATH argument: a file is itself (whatever its
// extension); a directory gives its .mr files, recursively, in a stable
// order, skipping names that start with '.'.
func fmtPaths(arg string) ([]string, error) {
	info, err := os.Stat(arg)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{arg}, nil
	}
	var out []string
	err = filepath.WalkDir(arg, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != arg && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() && filepath.Ext(p) == ".mr" {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// writeKeepingMode writes the formatted file with its permission bits:
// a link's own file, a regular file through a temporary file and a
// rename (cli.WriteOutput).
func writeKeepingMode(path string, data []byte, mode os.FileMode) error {
	return cli.WriteOutput(path, data, mode)
}

// formatting answers textDocument/formatting for an open document with one
// edit that replaces the whole text by `morrowc fmt`'s result: no edits
// when it is already formatted, and null when it has syntax errors (they
// are already published as diagnostics). A formatter bug is an
// InternalError reply, and the document is left alone.
func (s *lspServer) formatting(params json.RawMessage) (any, *rpcError) {
	var p struct {
		TextDocument *lspTextDocument `json:"textDocument"`
	}
	if err := decodeParams(params, &p); err != nil {
		return nil, err.(*rpcError)
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" {
		return nil, invalidParams("formatting needs textDocument.uri")
	}
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		return nil, invalidParams("formatting for %s, which is not open", p.TextDocument.URI)
	}
	out, dl, err := format.Format([]byte(d.text), uriPath(p.TextDocument.URI))
	switch {
	case err != nil:
		return nil, &rpcError{Code: rpcInternalError, Message: oneLine(err.Error())}
	case dl.HasErrors():
		return nil, nil
	case string(out) == d.text:
		return []any{}, nil
	}
	f := source.NewFile("", []byte(d.text))
	return []any{map[string]any{
		"range":   lspRange{Start: lspPosition{}, End: lspPos(f, len(d.text))},
		"newText": string(out),
	}}, nil
}
