package parser

import (
	"github.com/alecthomas/participle/v2"
)

// `%{…}` and `with` chains, matched by hand with participle's semantics
// (see declparse.go).

// Parse matches for `%{ X | name: v, … }` (a
// record update) and `%{ k: v, … }` (a map literal, which the checker
// rejects), with optional trailing commas; `%{}` is empty.
func (g *gBrace) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !isLit(lex.Peek(), "%{") {
		return participle.NextMatch
	}
	lex.Next()
	g.Open = true
	if _, err := optional(lex, func() error { return g.contents(lex) }); err != nil {
		return err
	}
	if err := expectLit(lex, "}"); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// contents matches `X ( '|' fields | ':' v more )` inside the braces.
func (g *gBrace) contents(lex *cursor) error {
	x := lex.a.expr()
	if err := x.Parse(lex); err != nil {
		return err
	}
	g.First = x
	switch t := lex.Peek(); {
	case isLit(t, "|"):
		lex.Next()
		f := &gFieldSet{}
		if err := require(lex, "GFieldSet", f.parse); err != nil {
			return err
		}
		g.Upd = append(g.Upd, f)
		return moreItems(lex, "}", "GFieldSet", func() error { return appendParsed(lex, &g.Upd, (*gFieldSet).parse) })
	case isLit(t, ":"):
		lex.Next()
		var err error
		if g.MapV, err = requireExpr(lex, "gExpr"); err != nil {
			return err
		}
		return moreItems(lex, "}", "GKV", func() error { return appendParsed(lex, &g.More, (*gKV).parse) })
	}
	return unexpected(lex, `("|" | ":")`)
}

// appendParsed matches one more item with parse and appends it to *list
// when it matched.
func appendParsed[T any](lex *cursor, list *[]*T, parse func(*T, *cursor) error) error {
	x := new(T)
	err := parse(x, lex)
	if err == nil {
		*list = append(*list, x)
	}
	return err
}

// parse matches a record update field `name: v`.
func (g *gFieldSet) parse(lex *cursor) error {
	start := lex.RawCursor()
	if lex.Peek().Type != tIdent {
		return participle.NextMatch
	}
	g.Name = lex.Next().Value
	var err error
	if g.Value, err = colonValue(lex); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// colonValue matches the `: v` that ends a record update field and a map
// entry.
func colonValue(lex *cursor) (*gExpr, error) {
	if err := expectLit(lex, ":"); err != nil {
		return nil, err
	}
	return requireExpr(lex, "gExpr")
}

// parse matches a map entry `k: v`.
func (g *gKV) parse(lex *cursor) error {
	start := lex.RawCursor()
	k := lex.a.expr()
	if err := k.Parse(lex); err != nil {
		return err
	}
	g.Key = k
	var err error
	if g.Value, err = colonValue(lex); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for a with chain: `with` and its
// steps `PAT <- X` (inline and comma-separated, or one per line in an
// indented block), `do [:] body`, then optionally `else [:]` and match
// arms (inline or in an indented block).
func (g *gWith) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !isLit(lex.Peek(), "with") {
		return participle.NextMatch
	}
	lex.Next()
	if lex.Peek().Type == tNewline {
		lex.Next()
		if err := requireToken(lex, tIndent, "<indent>"); err != nil {
			return err
		}
		var err error
		if g.Steps, err = withSteps(lex, "GWithStep", true); err != nil {
			return err
		}
		if err := requireToken(lex, tNewline, "<newline>"); err != nil {
			return err
		}
		if err := requireToken(lex, tDedent, "<dedent>"); err != nil {
			return err
		}
	} else {
		var err error
		if g.Inline, err = withSteps(lex, "(<newline> | GWithStep)", false); err != nil {
			return err
		}
	}
	if err := expectLit(lex, "do"); err != nil {
		return err
	}
	if isLit(lex.Peek(), ":") {
		lex.Next()
	}
	var err error
	if g.Body, err = requireBody(lex, "gBody"); err != nil {
		return err
	}
	if isLit(lex.Peek(), "else") {
		lex.Next()
		if isLit(lex.Peek(), ":") {
			lex.Next()
		}
		if err := g.elseArms(lex); err != nil {
			return err
		}
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// elseArms matches the arms after `else`: NEWLINE INDENT (arm NEWLINE)+
// DEDENT, or arm {, arm}.
func (g *gWith) elseArms(lex *cursor) error {
	arm := func() error {
		a := lex.a.arm()
		err := a.Parse(lex)
		if err == nil {
			g.Else = append(g.Else, a)
		}
		return err
	}
	if lex.Peek().Type == tNewline {
		lex.Next()
		if err := requireToken(lex, tIndent, "<indent>"); err != nil {
			return err
		}
		for {
			ok, err := optional(lex, arm)
			if err != nil {
				return err
			}
			if !ok {
				break
			}
			if err := requireToken(lex, tNewline, "<newline>"); err != nil {
				return err
			}
		}
		if len(g.Else) == 0 {
			return unexpected(lex, "(gArm <newline>)")
		}
		return requireToken(lex, tDedent, "<dedent>")
	}
	if err := arm(); err == participle.NextMatch {
		return unexpected(lex, "((<newline> <indent> (gArm <newline>)+ <dedent>) | (gArm (\",\" gArm)*))")
	} else if err != nil {
		return err
	}
	for isLit(lex.Peek(), ",") {
		lex.Next()
		if err := arm(); err == participle.NextMatch {
			return unexpected(lex, "gArm")
		} else if err != nil {
			return err
		}
	}
	return nil
}

// withSteps matches `step (',' step)*`, first expecting what expect
// names; in an indented block (block) a line may end after a comma. On an
// error it returns the steps matched before it.
func withSteps(lex *cursor, expect string, block bool) ([]*gWithStep, error) {
	var steps []*gWithStep
	s, err := requireStep(lex, expect)
	for err == nil {
		steps = append(steps, s)
		if !isLit(lex.Peek(), ",") {
			break
		}
		lex.Next()
		if block && lex.Peek().Type == tNewline {
			lex.Next()
		}
		s, err = requireStep(lex, "GWithStep")
	}
	return steps, err
}

// requireStep matches a with step `PAT <- X` that the grammar requires.
func requireStep(lex *cursor, expect string) (*gWithStep, error) {
	start := lex.RawCursor()
	p := lex.a.pattern()
	if err := require(lex, expect, p.Parse); err != nil {
		return nil, err
	}
	s := &gWithStep{Pat: p}
	if err := expectLit(lex, "<-"); err != nil {
		return nil, err
	}
	var err error
	if s.X, err = requireExpr(lex, "gExpr"); err != nil {
		return nil, err
	}
	s.Tokens = lex.Range(start, lex.RawCursor())
	return s, nil
}
