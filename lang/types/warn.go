package types

// Warnings: problems that do not stop a program from running but are
// almost always mistakes. Warnings is a separate pass over a checked file,
// which lang/compiler runs only for files without errors (a file with
// errors gets its errors first); Check itself reports errors only. The
// tools print warnings and exit 0 unless asked to deny them
// (--deny-warnings). A name that starts with `_` is exempt: it says the
// binding or function is unused on purpose.
//
//   - W0001: a let binding (a name bound by a let pattern) is never read.
//     An annotated `let own: Pid(M) = Process.self()` is exempt: its
//     annotation declares the function's mailbox type, which is the
//     point of writing it.
//   - W0002: a private function is never used: it is not reachable from
//     main, the library start function or a pub fn through the functions
//     they reference (a function used only by itself or by other unused
//     functions counts as unused).

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Warning codes.
var (
	WarnUnusedLet  = diag.Register("W0001", "a let binding is never used (warning; names starting with _ are exempt)")
	WarnUnusedFunc = diag.Register("W0002", "a private function is never used from main, a pub fn or the library start function (warning; names starting with _ are exempt)")
)

// Warnings returns the warnings of a file that Check accepted without
// errors, sorted by position. info is Check's result for f.
func Warnings(f *ast.File, info *Info) diag.List {
	if f == nil || info == nil {
		return nil
	}
	c := &Checker{file: f, src: f.Src, info: info}
	c.warnUnused()
	c.diags.Sort()
	return c.diags
}

// warnf adds a warning.
func (c *Checker) warnf(code diag.Code, span source.Span, format string, args ...any) *diag.Diagnostic {
	d := c.diags.Add(c.src, code, span, format, args...)
	d.Severity = diag.Warning
	return d
}

// warnUnused reports unused let bindings and unused private functions.
func (c *Checker) warnUnused() {
	var unused []ast.Node
	for n, o := range c.info.Defs {
		if o.Kind != ObjLocal || !o.hasInit || o.isParam || o.uses != 0 || len(o.metaReads) > 0 ||
			strings.HasPrefix(o.Name, "_") {
			continue
		}
		unused = append(unused, n)
	}
	// The walk for the exempt mailbox declarations only when some
	// binding is unused.
	mailboxDecls := map[ast.Node]bool{}
	for _, d := range c.file.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && len(unused) > 0 {
			walk(fd.Body, func(n ast.Node) {
				if l, ok := n.(*ast.LetStmt); ok && l.Type != nil && isSelfCall(l.Value) {
					mailboxDecls[l.Pattern] = true
				}
			})
		}
	}
	for _, n := range unused {
		if mailboxDecls[n] {
			continue
		}
		o := c.info.Defs[n]
		d := c.warnf(WarnUnusedLet, n.Span(), "unused variable '%s'", o.Name)
		d.Label = "never used"
		d.Hint = "remove the binding, or name it '_" + o.Name + "' if it is unused on purpose"
		unusedFix(d, n, o.Name)
	}
	c.warnUnusedFuncs()
}

// warnUnusedFuncs reports private functions that no root reaches.
func (c *Checker) warnUnusedFuncs() {
	decls := c.funcDecls()
	reached := map[*ast.FnDecl]bool{}
	var work []*ast.FnDecl
	for _, fd := range decls {
		if fd.Pub || fd.Name == "main" || c.info.Library && fd.Name == "start" || IsTest(fd) {
			reached[fd] = true
			work = append(work, fd)
		}
	}
	for len(work) > 0 {
		fd := work[len(work)-1]
		work = work[:len(work)-1]
		walk(fd.Body, func(n ast.Node) {
			id, ok := n.(*ast.Ident)
			if !ok {
				return
			}
			if o := c.info.Uses[id]; o != nil && o.Kind == ObjFunc {
				if callee, ok := o.Decl.(*ast.FnDecl); ok && !reached[callee] {
					reached[callee] = true
					work = append(work, callee)
				}
			}
		})
	}
	for _, fd := range decls {
		if reached[fd] || strings.HasPrefix(fd.Name, "_") {
			continue
		}
		d := c.warnf(WarnUnusedFunc, fd.NameSpan, "function '%s' is never used", fd.Name)
		d.Label = "never called or referenced"
		d.Hint = "remove it, call it, or name it '_" + fd.Name + "' if it is kept on purpose"
	}
}

// isSelfCall reports whether e is the call Process.self() (the builtin
// whose result is typed by the caller's own mailbox).
func isSelfCall(e ast.Expr) bool {
	call, ok := e.(*ast.Call)
	if !ok || len(call.Args) != 0 {
		return false
	}
	p, ok := call.Fn.(*ast.Path)
	if !ok {
		return false
	}
	b := builtins.Lookup(strings.Join(p.Parts, "."))
	return b != nil && b.Rule == builtins.OwnMailbox
}
