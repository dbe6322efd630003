package types

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
)

// ErrTestSignature is the rule of `morrow test` (docs/testing.md): a
// top-level function whose name starts with test_ is a test, so it takes
// no parameters and returns () or Result((), E) with an E that Show
// renders (the failure reason).
var ErrTestSignature = diag.Register("E3080", "a test_ function takes parameters, or returns something other than () or Result((), E) with E showable")

// TestPrefix starts the name of every test function.
const TestPrefix = "test_"

// IsTest reports whether fd is a test function by its name (a top-level
// function named test_…); the checker holds it to the test signature.
func IsTest(fd *ast.FnDecl) bool { return strings.HasPrefix(fd.Name, TestPrefix) }

// hasTests reports whether the file declares a test function.
func (c *Checker) hasTests() bool {
	for _, fd := range c.funcDecls() {
		if IsTest(fd) {
			return true
		}
	}
	return false
}

// checkTests applies the test signature rule to every test_ function.
func (c *Checker) checkTests() {
	for _, fd := range c.funcDecls() {
		if !IsTest(fd) {
			continue
		}
		sig := c.info.Funcs[fd]
		if len(fd.Params) > 0 {
			d := c.errorf(ErrTestSignature, fd.NameSpan, "test function '%s' must take no parameters", fd.Name)
			d.Hint = "a test_ function is run by `morrow test` with no arguments; rename a helper that takes parameters"
			continue
		}
		ret := Resolve(sig.Ret)
		if b, ok := ret.(*Basic); ok && (b.Kind == KUnit || b.Kind == KInvalid || b.Kind == KNever) {
			continue // a test that never returns ends by exit, fault or timeout
		}
		if _, free := ret.(*TVar); free || isParam(ret) {
			continue // it never returns either (endless recursion)
		}
		if n, ok := ret.(*Named); ok && n.Def == ResultDef && isBasic(n.Args[0], KUnit) {
			e := Resolve(n.Args[1])
			if _, free := e.(*TVar); free || c.canShow(e) {
				continue
			}
			c.badTestReturn(fd, "the failure reason is show(e): derive(Show) on the error type, or return Result((), String)",
				"test function '%s' returns an error type %s that cannot be shown", fd.Name, Zonk(e))
			continue
		}
		c.badTestReturn(fd, "return Result((), String) and use the Test assertions with ?, or rename the function if it is not a test",
			"test function '%s' must return () or Result((), E), not %s", fd.Name, Zonk(ret))
	}
}

// badTestReturn reports a test function's return type (at its annotation,
// or at the name when it has none) with the given hint.
func (c *Checker) badTestReturn(fd *ast.FnDecl, hint, format string, args ...any) {
	sp := fd.NameSpan
	if fd.Ret != nil {
		sp = fd.Ret.Span()
	}
	c.errorf(ErrTestSignature, sp, format, args...).Hint = hint
}

// isParam reports whether t is a generic parameter.
func isParam(t Type) bool { _, ok := t.(*TParam); return ok }
