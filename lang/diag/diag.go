// Package diag defines Morrow's diagnostic value, the registry of stable
// error codes, the list that collects diagnostics while a file is
// processed, and (in render.go) the text, short and JSON renderings.
//
// Every stage reports problems as Diagnostic values; nothing prints
// directly. A code is registered once, in the package that reports it,
// with a one-line summary that docs/diagnostics.md and the code fixtures
// are checked against.
package diag

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/morrow-lang/morrow/lang/source"
)

// Severity of a diagnostic. Morrow currently reports only errors and
// warnings.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Code is a stable diagnostic code such as "E3001". Codes are never
// reused. Ranges: E0xxx lexical/layout, E1xxx syntax, E2xxx names, E3xxx
// types, E4xxx patterns and exhaustiveness, E5xxx Result obligations,
// E6xxx actors/mailboxes/receive/guards/contexts, E7xxx modules and
// imports, E9xxx limits/unsupported.
type Code string

// Related is a secondary location attached to a diagnostic.
type Related struct {
	Span    source.Span
	Message string
}

// Diagnostic is one problem found in one file.
type Diagnostic struct {
	Severity Severity
	Code     Code
	Message  string
	File     *source.File
	Span     source.Span
	Label    string // short text shown under the caret; may be empty
	Related  []Related
	Notes    []string
	Hint     string
	Fixes    []Fix // suggested edits (fix.go); only for codes marked with RegisterFix
}

func (d *Diagnostic) Error() string {
	if d.File == nil {
		return fmt.Sprintf("error[%s]: %s", d.Code, d.Message)
	}
	p := d.File.Position(d.Span.Start)
	return fmt.Sprintf("%s:%d:%d: %s[%s]: %s", d.File.Name, p.Line, p.Column, d.Severity, d.Code, d.Message)
}

// List collects diagnostics.
type List []*Diagnostic

// Add appends a diagnostic and returns it so callers can attach notes.
func (l *List) Add(file *source.File, code Code, span source.Span, format string, args ...any) *Diagnostic {
	d := &Diagnostic{Code: code, File: file, Span: span, Message: fmt.Sprintf(format, args...)}
	if len(args) == 0 {
		d.Message = format
	}
	*l = append(*l, d)
	return d
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Count returns the number of errors and of warnings in l.
func (l List) Count() (errors, warnings int) {
	for _, d := range l {
		if d.Severity == Warning {
			warnings++
		} else {
			errors++
		}
	}
	return errors, warnings
}

// Summary is the closing line the tools print after rendering l as text:
// "1 error", "2 errors", "1 error, 3 warnings", "2 warnings"; "" for an
// empty list.
func (l List) Summary() string {
	e, w := l.Count()
	var parts []string
	if e > 0 {
		parts = append(parts, plural(e, "error"))
	}
	if w > 0 {
		parts = append(parts, plural(w, "warning"))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Sort orders diagnostics by file, then position, then code, keeping
// reports stable across runs.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		an, bn := "", ""
		if a.File != nil {
			an = a.File.Name
		}
		if b.File != nil {
			bn = b.File.Name
		}
		if an != bn {
			return an < bn
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Code < b.Code
	})
}

// Err returns nil for an empty list, or an error describing the first
// diagnostic (and how many more follow).
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	if len(l) == 1 {
		return l[0]
	}
	return fmt.Errorf("%v (and %d more)", l[0], len(l)-1)
}

// CodeInfo documents one registered code.
type CodeInfo struct {
	Code    Code
	Summary string // when the code is reported, in one line
}

var (
	regMu    sync.Mutex
	registry = map[Code]CodeInfo{}
)

// Register records a code with its summary and returns the code, so
// packages can declare `var ErrFoo = diag.Register("E1234", "...")`.
// Registering one code twice panics at init time: codes are unique.
func Register(code Code, summary string) Code {
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[code]; dup {
		panic("diag: code registered twice: " + string(code))
	}
	registry[code] = CodeInfo{Code: code, Summary: summary}
	return code
}

// Codes returns every registered code in order.
func Codes() []CodeInfo {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]CodeInfo, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}
