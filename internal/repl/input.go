package repl

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// LineReader gives the REPL its input one line at a time. Prompt is the
// prompt to show on a terminal (a pipe shows none). ReadLine returns
// io.EOF at the end of the input, and ErrInterrupt when the user pressed
// Ctrl-C at the prompt (the REPL then drops the entry being typed).
type LineReader interface {
	ReadLine(prompt string) (string, error)
}

// ErrInterrupt is what a LineReader returns for Ctrl-C at the prompt.
var ErrInterrupt = errors.New("interrupt")

// The prompts.
const (
	Prompt     = "morrow> "
	MorePrompt = "   ...> "
)

// readEntry reads one entry: a command, or one or more lines of code.
// A line that ends in `:` or `->`, or leaves a bracket or a
// triple-quoted string open, continues the entry until a blank line (or
// the end of the input); `:paste` takes every line up to `:end`. It
// returns "" with io.EOF at the end of the input.
func readEntry(r LineReader) (string, error) {
	for {
		line, err := r.ReadLine(Prompt)
		if err != nil {
			if err == io.EOF && strings.TrimSpace(line) != "" {
				return line, nil
			}
			return "", err
		}
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue // nothing to evaluate
		}
		if trimmed == ":paste" {
			return readPaste(r)
		}
		if strings.HasPrefix(trimmed, ":") {
			return trimmed, nil
		}
		var sc scanState
		sc.line(line)
		if !sc.continues() {
			return line, nil
		}
		lines := []string{line}
		for {
			next, err := r.ReadLine(MorePrompt)
			if err == ErrInterrupt {
				return "", err
			}
			if err != nil || strings.TrimSpace(next) == "" {
				if err == nil || err == io.EOF {
					if err == io.EOF && strings.TrimSpace(next) != "" {
						lines = append(lines, next)
					}
					return strings.Join(lines, "\n"), nil
				}
				return "", err
			}
			lines = append(lines, next)
			sc.line(next)
		}
	}
}

// readPaste reads the lines of a `:paste` entry up to `:end`.
func readPaste(r LineReader) (string, error) {
	var lines []string
	for {
		line, err := r.ReadLine("")
		if err == ErrInterrupt {
			return "", err
		}
		if err != nil || strings.TrimSpace(line) == ":end" {
			if err == io.EOF && strings.TrimSpace(line) != "" {
				lines = append(lines, line)
			}
			if err != nil && err != io.EOF {
				return "", err
			}
			text := strings.Join(lines, "\n")
			if strings.TrimSpace(text) == "" {
				return "", err
			}
			return text, nil
		}
		lines = append(lines, line)
	}
}

// scanState follows the brackets and triple-quoted strings of the lines
// of an entry, skipping string literals and comments.
type scanState struct {
	depth  int
	triple bool   // inside a triple-quoted string
	last   string // the last line's code without its comment, trimmed
}

func (s *scanState) line(l string) {
	code := []byte{}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if s.triple {
			if strings.HasPrefix(l[i:], `"""`) {
				s.triple = false
				i += 2
			}
			continue
		}
		switch c {
		case '#':
			i = len(l)
			continue
		case '"':
			if strings.HasPrefix(l[i:], `"""`) {
				s.triple = true
				i += 2
				code = append(code, '"')
				continue
			}
			// A one-line string: skip to its closing quote.
			for i++; i < len(l) && l[i] != '"'; i++ {
				if l[i] == '\\' {
					i++
				}
			}
			code = append(code, '"')
			continue
		case '(', '[', '{':
			s.depth++
		case ')', ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		}
		code = append(code, c)
	}
	s.last = strings.TrimSpace(string(code))
}

// continues reports whether the entry goes on after the lines seen.
func (s *scanState) continues() bool {
	return s.depth > 0 || s.triple || strings.HasSuffix(s.last, ":") || strings.HasSuffix(s.last, "->")
}

// NewPipeReader reads lines from r without prompts (a pipe or a file).
func NewPipeReader(r io.Reader) LineReader { return &pipeReader{r: bufio.NewReader(r)} }

type pipeReader struct{ r *bufio.Reader }

func (p *pipeReader) ReadLine(string) (string, error) {
	line, err := p.r.ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if err == io.EOF && line != "" {
		return line, nil
	}
	return line, err
}
