package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/modules"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

func newCheck(e *env) *cobra.Command {
	var rf renderFlags
	cmd := &cobra.Command{
		Use:   "check FILE|DIR...",
		Short: "Check source files and report every error",
		Long: "check parses and type-checks each FILE (\"-\" reads standard input) with the\n" +
			"modules it imports, and every .mr file under each DIR (each a module of the\n" +
			"project rooted at DIR, which needs no main), and reports\n" +
			"all diagnostics on standard error, followed by a summary line (\"2 errors\");\n" +
			"--format json writes one document to standard output instead. Warnings do not\n" +
			"change the exit status unless --deny-warnings is given. Exit status: 0 when\n" +
			"clean, 1 when any error was reported, 2 on usage errors.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			json := rf.format == "json"
			out := e.stderr
			if json {
				out = e.stdout
			}
			opts, err := rf.options(e, out)
			if err != nil {
				return err
			}
			var all diag.List
			status := exitOK
			for _, path := range args {
				if info, err := os.Stat(path); err == nil && info.IsDir() && path != "-" {
					ds, failed := checkDir(e, path, json)
					all = append(all, ds...)
					if failed {
						status = exitError
					}
					continue
				}
				name, src, err := readSource(e, path)
				if err != nil {
					status = exitError
					if json {
						all = append(all, &diag.Diagnostic{Code: compiler.ErrNotSource, File: source.NewFile(path, nil),
							Message: readError(path, err)})
					} else {
						fmt.Fprintf(e.stderr, "morrowc: %s\n", readError(path, err))
					}
					continue
				}
				ds, err := compiler.Check(name, src)
				if d := notSource(ds); d != nil && !json {
					fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(d.Message))
					status = exitError
					continue
				}
				all = append(all, ds...)
				if err != nil {
					reportInternal(e, err)
					status = exitError
				}
			}
			if len(all) > 0 || json {
				if err := renderDiags(out, all, opts, rf.denyWarnings); err != nil {
					fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(err.Error()))
					status = exitError
				}
			}
			if rf.failed(all) {
				status = exitError
			}
			if status != exitOK {
				return exitStatus(status)
			}
			return nil
		},
	}
	rf.register(cmd)
	return cmd
}

// checkDir checks every .mr file under dir as a module of the project
// rooted at dir (docs/modules.md): each file once as the entry, reporting
// the diagnostics of that file, so a module that many import is reported
// once. failed is set for read and internal errors.
func checkDir(e *env, dir string, json bool) (all diag.List, failed bool) {
	paths, err := fmtPaths(dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "morrowc: %s\n", readError(dir, err))
		return nil, true
	}
	for _, path := range paths {
		name, src, err := readSource(e, path)
		if err != nil {
			failed = true
			if json {
				all = append(all, &diag.Diagnostic{Code: compiler.ErrNotSource, File: source.NewFile(path, nil),
					Message: readError(path, err)})
			} else {
				fmt.Fprintf(e.stderr, "morrowc: %s\n", readError(path, err))
			}
			continue
		}
		u, err := compiler.AnalyzeWith(name, src, modules.Options{Root: dir, Library: true})
		if err != nil {
			reportInternal(e, err)
			failed = true
		}
		for _, d := range u.Diags {
			if d.File == nil || d.File.Name == name || d.File == u.File {
				all = append(all, d)
			}
		}
	}
	return all, failed
}

// unwrapPath drops the "open PATH:" prefix of an *os.PathError, since the
// caller already names the file.
func unwrapPath(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// compileSource reads and compiles one source file, reporting diagnostics
// and internal errors on stderr. A nil program means it already reported.
func compileSource(e *env, rf *renderFlags, path string) (*bytecode.Program, *compiler.Unit, error) {
	opts, err := rf.options(e, e.stderr)
	if err != nil {
		return nil, nil, err
	}
	name, src, err := readSource(e, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "morrowc: %s\n", readError(path, err))
		return nil, nil, exitStatus(exitError)
	}
	u, err := compiler.Build(name, src)
	if d := notSource(u.Diags); d != nil {
		fmt.Fprintf(e.stderr, "morrowc: %s\n", oneLine(d.Message))
		return nil, u, exitStatus(exitError)
	}
	if len(u.Diags) > 0 {
		renderDiags(e.stderr, u.Diags, opts, rf.denyWarnings)
	}
	if err != nil {
		reportInternal(e, err)
		return nil, u, exitStatus(exitError)
	}
	if u.Program == nil || rf.failed(u.Diags) {
		return nil, u, exitStatus(exitError)
	}
	return u.Program, u, nil
}

// defaultOutput is the .mrb path next to the source: a.mr -> a.mrb.
func defaultOutput(path string) string {
	ext := filepath.Ext(path)
	if ext == ".mr" || ext == ".fn" {
		return strings.TrimSuffix(path, ext) + ".mrb"
	}
	return path + ".mrb"
}

func newBuild(e *env) *cobra.Command {
	var rf renderFlags
	var out string
	cmd := &cobra.Command{
		Use:   "build FILE",
		Short: "Compile a source file to a bytecode (.mrb) file",
		Long: "build checks FILE and, when it is clean, writes its bytecode to OUT (default:\n" +
			"the source name with .mrb). It prints nothing on success. Diagnostics go to\n" +
			"standard error. Exit status as for check.",
		Args: cli.ExactFiles(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if out == "" {
				if path == "-" {
					return &usageError{Msg: "build from standard input needs -o OUT.mrb"}
				}
				out = defaultOutput(path)
			}
			p, _, err := compileSource(e, &rf, path)
			if err != nil {
				return err
			}
			if err := writeFileAtomic(out, bytecode.Encode(p)); err != nil {
				fmt.Fprintf(e.stderr, "morrowc: cannot write %s: %s\n", out, oneLine(unwrapPath(err)))
				return exitStatus(exitError)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "output file (default: FILE with the extension .mrb)")
	rf.register(cmd)
	return cmd
}

// writeFileAtomic writes the output file: a regular file through a
// temporary file and a rename, so a failed build never leaves a
// truncated .mrb behind; a link's file, a FIFO or a device in place
// (cli.WriteOutput).
func writeFileAtomic(path string, data []byte) error {
	return cli.WriteOutput(path, data, 0o644)
}

func newDisasm(e *env) *cobra.Command {
	var rf renderFlags
	cmd := &cobra.Command{
		Use:   "disasm FILE.mrb|FILE.mr",
		Short: "Print a human-readable bytecode listing",
		Long: "disasm prints the bytecode of a .mrb file, or of a source file compiled in\n" +
			"memory. Listings of source files show the source line of each instruction.",
		Args: cli.ExactFiles(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			var (
				p     *bytecode.Program
				lines func(string, int) string
			)
			if filepath.Ext(path) == ".mrb" || isBytecodeFile(path) {
				data, err := source.ReadFileLimited(path, bytecode.MaxFileBytes)
				if err != nil {
					fmt.Fprintf(e.stderr, "morrowc: cannot read %s: %s\n", path, oneLine(unwrapPath(err)))
					return exitStatus(exitError)
				}
				v, err := bytecode.Load(data)
				if err != nil {
					fmt.Fprintf(e.stderr, "morrowc: cannot load %s: %s\n", path, oneLine(err.Error()))
					return exitStatus(exitError)
				}
				p = v.Program()
				lines = recordedSources(p, path)
			} else {
				prog, u, err := compileSource(e, &rf, path)
				if err != nil {
					return err
				}
				p, lines = prog, unitSources(u)
			}
			if err := bytecode.DisassembleFiles(e.stdout, p, lines); err != nil {
				fmt.Fprintf(e.stderr, "morrowc: disassemble %s: %s\n", path, oneLine(err.Error()))
				return exitStatus(exitError)
			}
			return nil
		},
	}
	rf.register(cmd)
	return cmd
}

// isBytecodeFile reports whether the file at path starts with the
// bytecode magic number, so disasm lists a .mrb file whatever its name.
func isBytecodeFile(path string) bool {
	if path == "-" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(bytecode.Magic))
	n, _ := io.ReadFull(f, head)
	return n == len(head) && string(head) == bytecode.Magic
}

// unitSources returns the lines of every file of a compiled program.
func unitSources(u *compiler.Unit) func(string, int) string {
	files := map[string]*source.File{u.File.Name: u.File}
	if u.Modules != nil {
		for _, m := range u.Modules.Modules {
			files[m.File.Name] = m.File
		}
	}
	return func(name string, line int) string {
		if f := files[name]; f != nil {
			return f.LineText(line)
		}
		return ""
	}
}

// recordedSources is recordedSource for every file a program's functions
// name (the modules of a many-file program).
func recordedSources(p *bytecode.Program, mrbPath string) func(string, int) string {
	found := map[string]func(int) string{}
	return func(name string, line int) string {
		get, ok := found[name]
		if !ok {
			get = recordedSource(name, mrbPath)
			found[name] = get
		}
		if get == nil {
			return ""
		}
		return get(line)
	}
}

// recordedSource finds the source file a .mrb was built from (the name the
// program records, as given to morrowc build, tried as is and next to the
// .mrb), so the listing can show source lines. A source file modified after
// the .mrb was written no longer matches its line table and is not used.
func recordedSource(name, mrbPath string) func(int) string {
	if name == "" || name == "<stdin>" {
		return nil
	}
	mrbInfo, err := os.Stat(mrbPath)
	if err != nil {
		return nil
	}
	candidates := []string{name}
	if !filepath.IsAbs(name) {
		candidates = append(candidates, filepath.Join(filepath.Dir(mrbPath), filepath.Base(name)))
	}
	for _, c := range candidates {
		info, err := os.Stat(c)
		if err != nil || info.IsDir() || info.ModTime().After(mrbInfo.ModTime()) {
			continue
		}
		src, err := source.ReadFileLimited(c, source.MaxBytes)
		if err != nil || len(src) > source.MaxBytes {
			continue
		}
		return source.NewFile(c, src).LineText
	}
	return nil
}
