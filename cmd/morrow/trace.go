package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/cli"
	"github.com/morrow-lang/morrow/runtime/trace"
	"github.com/morrow-lang/morrow/runtime/trace/picture"
)

// traceFlags are the settings of `morrow trace render`.
type traceFlags struct {
	out         string
	format      string
	messages    string
	maxMessages int
	title       string
}

// newTrace is `morrow trace`, whose subcommand render draws a trace
// written by `morrow run --trace` (docs/cli.md, docs/process.md).
func newTrace(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Work with lifecycle traces written by run --trace",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("missing command (render)")
		},
	}
	f := &traceFlags{}
	render := &cobra.Command{
		Use:   "render FILE.trace",
		Short: "Draw a trace as a sequence diagram (SVG or Mermaid)",
		Long: "render draws a trace written by `morrow run --trace FILE` (with\n" +
			"--trace-messages for message arrows) as a sequence diagram: one lifeline per\n" +
			"process, spawns, links, monitors, messages, exit signals, Downs and each\n" +
			"process's end with its reason. \"-\" reads the trace from standard input;\n" +
			"without -o (or with -o -) the picture goes to standard output.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return renderTrace(e, f, args[0])
		},
	}
	fl := render.Flags()
	fl.StringVarP(&f.out, "output", "o", "-", "write the picture to FILE (\"-\" for standard output)")
	fl.StringVar(&f.format, "format", "svg", "svg or mermaid")
	fl.StringVar(&f.messages, "messages", "all", "message arrows: all or none")
	fl.IntVar(&f.maxMessages, "max-messages", 0, "draw only the first N message arrows (0: all)")
	fl.StringVar(&f.title, "title", "", "title of the picture (default: the trace's file name)")
	cmd.AddCommand(render)
	return cmd
}

func renderTrace(e *env, f *traceFlags, path string) error {
	opt := picture.Options{Title: f.title, MaxMessages: f.maxMessages}
	switch f.format {
	case "svg":
		opt.Format = picture.SVG
	case "mermaid":
		opt.Format = picture.Mermaid
	default:
		return &usageError{Msg: fmt.Sprintf("--format must be svg or mermaid, got %q", f.format)}
	}
	switch f.messages {
	case "all":
	case "none":
		opt.HideMessages = true
	default:
		return &usageError{Msg: fmt.Sprintf("--messages must be all or none, got %q", f.messages)}
	}
	if f.maxMessages < 0 {
		return &usageError{Msg: fmt.Sprintf("--max-messages must be 0 (all) or positive, got %d", f.maxMessages)}
	}
	var src io.Reader = e.stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(e.stderr, "morrow: cannot read %s: %s\n", path, cli.OneLine(pathErr(err)))
			return cli.ExitStatus(cli.ExitError)
		}
		defer file.Close()
		src = file
		if opt.Title == "" {
			opt.Title = filepath.Base(path)
		}
	}
	// The picture holds every event in memory, many times the size of
	// its line: a trace over maxRenderBytes is refused, not drawn.
	counted := &countingReader{r: io.LimitReader(src, maxRenderBytes+1)}
	events, err := trace.Parse(counted)
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	if counted.n > maxRenderBytes {
		fmt.Fprintf(e.stderr, "morrow: %s: the trace is larger than %d MiB, more than trace render draws; render a part of it (for example the first lines, with head)\n", name, maxRenderBytes>>20)
		return cli.ExitStatus(cli.ExitError)
	}
	if err != nil {
		var se *trace.SyntaxError
		if errors.As(err, &se) {
			fmt.Fprintf(e.stderr, "morrow: %s:%d: %s\n", name, se.Line, cli.OneLine(se.Msg))
		} else {
			fmt.Fprintf(e.stderr, "morrow: cannot read %s: %s\n", name, cli.OneLine(err.Error()))
		}
		return cli.ExitStatus(cli.ExitError)
	}
	var buf bytes.Buffer
	if err := picture.Render(&buf, events, opt); err != nil {
		fmt.Fprintf(e.stderr, "morrow: %s\n", cli.OneLine(err.Error()))
		return cli.ExitStatus(cli.ExitError)
	}
	if f.out == "-" {
		if _, err := e.stdout.Write(buf.Bytes()); err != nil {
			fmt.Fprintf(e.stderr, "morrow: cannot write the picture: %s\n", cli.OneLine(err.Error()))
			return cli.ExitStatus(cli.ExitError)
		}
		return nil
	}
	if err := writeFileAtomic(f.out, buf.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "morrow: cannot write %s: %s\n", f.out, cli.OneLine(err.Error()))
		return cli.ExitStatus(cli.ExitError)
	}
	return nil
}

// writeFileAtomic writes the picture: a regular file through a
// temporary file and a rename, so a failed write never leaves a partial
// picture; a link's file, a FIFO or a device in place (cli.WriteOutput).
func writeFileAtomic(path string, data []byte) error {
	if err := cli.WriteOutput(path, data, 0o644); err != nil {
		return errors.New(pathErr(err))
	}
	return nil
}

// maxRenderBytes is the largest trace trace render draws: its picture
// takes about 80 times the trace's size in memory while it is built.
const maxRenderBytes = 8 << 20

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
