package parser

import "github.com/alecthomas/participle/v2/lexer"

// cursor is the token stream the grammar's matchers read: the layout
// tokens of one declaration chunk (or of a recovered statement, or of an
// interpolation), ending in an EOF token, read in place. Its methods are
// those of participle's PeekingLexer with nothing elided, which the
// matchers were first written against: Next stays on the EOF token, and a
// checkpoint is a position.
type cursor struct {
	toks []lexer.Token
	pos  int
	a    *arena // where the matchers get their grammar structs
}

// newCursor returns a cursor over toks, whose last token must be an EOF,
// whose matchers take their grammar structs from a (a fresh arena when
// nil).
func newCursor(toks []lexer.Token, a *arena) *cursor {
	if a == nil {
		a = &arena{}
	}
	return &cursor{toks: toks, a: a}
}

// Peek returns the next token without consuming it.
func (c *cursor) Peek() *lexer.Token { return &c.toks[c.pos] }

// Next consumes and returns the next token; at the EOF token it stays.
func (c *cursor) Next() *lexer.Token {
	t := &c.toks[c.pos]
	if t.Type != lexer.EOF {
		c.pos++
	}
	return t
}

// RawCursor is the index of the next token.
func (c *cursor) RawCursor() int { return c.pos }

// Cursor is the index of the next token (no token is elided).
func (c *cursor) Cursor() int { return c.pos }

// Range returns the tokens between two positions.
func (c *cursor) Range(start, end int) []lexer.Token { return c.toks[start:end] }

// MakeCheckpoint returns the current position, for LoadCheckpoint.
func (c *cursor) MakeCheckpoint() int { return c.pos }

// LoadCheckpoint goes back to a position returned by MakeCheckpoint.
func (c *cursor) LoadCheckpoint(pos int) { c.pos = pos }
