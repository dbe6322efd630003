package diag

import "github.com/morrow-lang/morrow/lang/source"

// Edit replaces a span of the diagnostic's file with new text.
type Edit struct {
	Span source.Span
	New  string
}

// Fix is a suggested change that resolves a diagnostic: the editor server
// offers it as a quick fix (docs/editors.md).
type Fix struct {
	Title string
	Edits []Edit
}

var fixable = map[Code]bool{}

// RegisterFix marks a registered code whose diagnostics may carry Fixes.
// It returns the code, for use next to Register.
func RegisterFix(code Code) Code {
	regMu.Lock()
	defer regMu.Unlock()
	if _, ok := registry[code]; !ok {
		panic("diag: RegisterFix of an unregistered code: " + string(code))
	}
	fixable[code] = true
	return code
}

// Fixable reports whether diagnostics of code may carry Fixes.
func Fixable(code Code) bool {
	regMu.Lock()
	defer regMu.Unlock()
	return fixable[code]
}

// AddFix attaches a fix of one edit to d, for a code marked with
// RegisterFix (a fix on another code is a bug in the reporting package).
func (d *Diagnostic) AddFix(title string, span source.Span, text string) {
	if !Fixable(d.Code) {
		panic("diag: a fix on code " + string(d.Code) + ", which is not marked with RegisterFix")
	}
	d.Fixes = append(d.Fixes, Fix{Title: title, Edits: []Edit{{Span: span, New: text}}})
}
