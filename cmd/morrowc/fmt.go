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

// runFmt formats the files named by args in memory first, then writes
// them back (or, with check or diff, reports what would change); nothing
// is written when any file fails to read or parse.
func runFmt(e *env, args []string, check, diff bool, opts diag.RenderOptions) error {
	jobs, failed := fmtJobs(e, args)
	if !formatAll(e, jobs, opts) {
		failed = true
	}
	if failed {
		if len(jobs) > 1 && !check && !diff {
			fmt.Fprintln(e.stderr, "morrowc: no file was written")
		}
		return exitStatus(exitError)
	}
	if !emitAll(e, jobs, check, diff) {
		return exitStatus(exitError)
	}
	return nil
}

// emitAll emits every formatted job; ok is false when a write failed or,
// with check, when a file needs formatting.
func emitAll(e *env, jobs []*fmtJob, check, diff bool) (ok bool) {
	ok = true
	for _, j := range jobs {
		same := string(j.out) == string(j.src)
		if !j.emit(e, same, check, diff) || check && !same {
			ok = false
		}
	}
	return ok
}

// formatAll formats every job in memory and renders their diagnostics;
// ok is false when any job failed.
func formatAll(e *env, jobs []*fmtJob, opts diag.RenderOptions) (ok bool) {
	ok = true
	var all diag.List
	for _, j := range jobs {
		dl, jobOK := j.format(e)
		all = append(all, dl...)
		ok = ok && jobOK
	}
	if len(all) > 0 {
		if err := diag.Render(e.stderr, all, opts); err != nil {
			fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
		}
	}
	return ok
}

// fmtJobs expands the arguments of fmt into jobs: standard input (read
// now) for "-", the files of each path otherwise. failed is set when an
// argument cannot be read.
func fmtJobs(e *env, args []string) (jobs []*fmtJob, failed bool) {
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
	return jobs, failed
}

// read loads a file job's source and permission bits.
func (j *fmtJob) read() error {
	info, err := os.Stat(j.path)
	if err != nil {
		return err
	}
	j.mode = info.Mode().Perm()
	j.src, err = os.ReadFile(j.path)
	return err
}

// format reads (unless it is standard input) and formats the job in
// memory, returning its diagnostics; ok is false when it cannot be read
// or formatted.
func (j *fmtJob) format(e *env) (dl diag.List, ok bool) {
	if !j.stdin {
		if err := j.read(); err != nil {
			fmt.Fprintf(e.stderr, "morrowc: cannot read %s: %s\n", j.path, oneLine(unwrapPath(err)))
			return nil, false
		}
	}
	out, dl, err := format.Format(j.src, j.path)
	if err != nil {
		fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
		return dl, false
	}
	if dl.HasErrors() {
		return dl, false
	}
	j.out = out
	return dl, true
}

// emit does what fmt does with a formatted job: with check or diff,
// report a change; standard input is written to standard output; a
// changed file is written back. ok is false when the write fails.
func (j *fmtJob) emit(e *env, same, check, diff bool) (ok bool) {
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
			return false
		}
	}
	return true
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
	uri, e := documentURI(params, "formatting")
	if e != nil {
		return nil, e
	}
	d, ok := s.docs[uri]
	if !ok {
		return nil, invalidParams("formatting for %s, which is not open", uri)
	}
	out, dl, err := format.Format([]byte(d.text), uriPath(uri))
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
