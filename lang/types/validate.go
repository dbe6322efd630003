package types

// Rules on declaration heads and statement forms that need no types: type
// and constructor name case, type parameter lists, loop control in defer.

import (
	"unicode"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/lang/source"
)

// checkTypeHead validates the head of a type or newtype declaration: its
// name must start with an uppercase letter (a lowercase name in a type
// position is a type variable, docs/reference/syntax.md#source-files), and its parameters must be distinct
// type variables (lowercase names other than `_`).
func (c *Checker) checkTypeHead(name string, span source.Span, params []string) {
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsUpper(r) {
		c.errorf(ErrTypeNameCase, span, "type name '%s' must start with an uppercase letter", name).Hint =
			"a lowercase name in a type position is a type variable; capitalise the name"
	}
	seen := map[string]bool{}
	for _, p := range params {
		switch {
		case !isLower(p) || p == "_":
			c.errorf(ErrTypeParam, span, "type parameter '%s' of '%s' must be a lowercase type variable", p, name).Hint =
				"type parameters are lowercase names such as `a` or `elem`"
		case seen[p]:
			c.errorf(ErrTypeParam, span, "duplicate type parameter '%s' in '%s'", p, name).Hint =
				"give each type parameter its own name"
		}
		seen[p] = true
	}
}

// checkCtorName reports a newtype constructor whose name is not
// capitalised (sum variants are checked by the parser).
func (c *Checker) checkCtorName(name string, span source.Span) {
	if r, _ := utf8.DecodeRuneInString(name); name != "" && !unicode.IsUpper(r) {
		c.errorf(ErrTypeNameCase, span, "constructor name '%s' must start with an uppercase letter", name).Hint =
			"a lowercase name in a pattern is a binding, so the constructor could never be matched"
	}
}

// loopControl checks a break or continue: it needs an enclosing for loop
// of the same function, and a defer body has none (docs/reference/syntax.md#statements, docs/reference/checks.md#guards-and-defer).
func (c *Checker) loopControl(sp source.Span, kw string) {
	if c.fn.loops > 0 {
		return
	}
	if c.fn.inDefer {
		c.errorf(ErrDeferLoop, sp, "defer cannot %s", kw).Hint =
			"a deferred expression runs when the function exits, after its loops have ended"
		return
	}
	c.errorf(ErrLoopControl, sp, "%s outside of a for loop", kw)
}
