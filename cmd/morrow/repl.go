package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/chzyer/readline"
	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/internal/repl"
)

// Banner is what `morrow repl` prints first on a terminal.
const replBanner = "Morrow REPL: enter an expression, a let or a declaration; :help for help, :quit or Ctrl-D to leave.\n"

// newRepl is `morrow repl` (docs/cli.md): the session is internal/repl;
// this file chooses its input. On a terminal it uses a line editor with
// history (github.com/chzyer/readline), shows a banner and prompts, and
// lets Ctrl-C cancel the running entry; otherwise it reads lines from
// standard input and writes only results.
func newRepl(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "repl",
		Short: "Evaluate expressions, lets and declarations interactively",
		Long: "repl reads entries (an expression, a let, a fn or type declaration) and\n" +
			"evaluates each one: an expression prints its effects, then VALUE : TYPE\n" +
			"unless its type is Unit. Legacy actors run after each entry under a virtual\n" +
			"clock. On a terminal it shows a banner and prompts, with line editing and\n" +
			"history; from a pipe it prints only results. :help lists the commands.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f, ok := e.stdin.(*os.File); ok && readline.IsTerminal(int(f.Fd())) {
				return replTerminal(e, f)
			}
			s := repl.New(e.stdout)
			s.Run(repl.NewPipeReader(e.stdin), nil)
			return nil
		},
	}
}

// termReader reads lines with readline's editor: arrow keys, history
// (saved under the user's config directory) and Ctrl-R search.
type termReader struct{ rl *readline.Instance }

func (t *termReader) ReadLine(prompt string) (string, error) {
	t.rl.SetPrompt(prompt)
	line, err := t.rl.Readline()
	if errors.Is(err, readline.ErrInterrupt) {
		return "", repl.ErrInterrupt
	}
	return line, err
}

// historyFile is where the terminal REPL keeps its history ("" when the
// config directory is unknown).
func historyFile(getenv func(string) string) string {
	if h := getenv("MORROW_REPL_HISTORY"); h != "" {
		return h
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	dir = filepath.Join(dir, "morrow")
	if os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	return filepath.Join(dir, "repl_history")
}

func replTerminal(e *env, in *os.File) error {
	out, _ := e.stdout.(*os.File)
	if out == nil {
		out = os.Stdout
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:          repl.Prompt,
		HistoryFile:     historyFile(e.getenv),
		Stdin:           in,
		Stdout:          out,
		Stderr:          out,
		InterruptPrompt: "^C",
		EOFPrompt:       "",
	})
	if err != nil {
		return err
	}
	defer rl.Close()
	io.WriteString(e.stdout, replBanner)
	s := repl.New(e.stdout)
	s.Terminal = true
	// Ctrl-C while an entry runs cancels it: the terminal is in its
	// normal mode then, so the key arrives as SIGINT. The signal stays
	// caught for the whole session, so a Ctrl-C between two entries
	// never kills the REPL.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	s.Run(&termReader{rl: rl}, func() (context.Context, func()) {
		return entryContext(sigs)
	})
	return nil
}

// entryContext returns the context of one entry: cancelled by the next
// signal on sigs (an older one is dropped).
func entryContext(sigs <-chan os.Signal) (context.Context, func()) {
	select {
	case <-sigs:
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		cancel()
	}
}
