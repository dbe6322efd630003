package parser

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Type and newtype declarations are matched here, `with` chains and
// `%{…}` braces in braceparse.go. They were the last productions that
// participle matched reflectively from the struct tags in grammar.go; by
// hand, every syntax error the parser reports is built by its own code,
// with the expected part in UnexpectedTokenError.Expect (errors.go turns
// it into words), instead of being read back from the text of
// participle's message.
//
// The matchers reproduce what participle's matcher did for the tags, with
// lookahead 0:
//   - a literal ('type', '(', ':') matches a token by its text alone, and
//     a token reference (Ident, Newline, Indent, Dedent) by its type;
//   - when a sequence fails after its first element matched, the error is
//     an UnexpectedTokenError at the next token whose Expect is the first
//     element of the rest of the sequence, in participle's notation
//     (`"="`, `<ident>`, `GName`, `gType`, a group of alternatives);
//   - an optional or repeated part whose first element does not match is
//     absent; one that fails after consuming a token makes the error final
//     (see optional).

// isLit reports whether t is the literal v: participle compares an
// untyped literal with the token's text only.
func isLit(t *lexer.Token, v string) bool { return t.Value == v }

// expectLit consumes the literal v that the grammar requires here.
func expectLit(lex *cursor, v string) error {
	if !isLit(lex.Peek(), v) {
		return unexpected(lex, `"`+v+`"`)
	}
	lex.Next()
	return nil
}

// optional runs the matcher of an optional or repeated part as a
// participle group does with lookahead 0: NextMatch, or an error raised
// before any token was consumed, means the part is absent (matched is
// false, err nil); an error after consuming a token is final.
func optional(lex *cursor, match func() error) (matched bool, err error) {
	before := lex.Cursor()
	switch err := match(); {
	case err == nil:
		return true, nil
	case err == participle.NextMatch || lex.Cursor() == before:
		return false, nil
	default:
		return false, err
	}
}

// peekSecond returns the token after the next one, without consuming
// anything.
func peekSecond(lex *cursor) *lexer.Token {
	cp := lex.MakeCheckpoint()
	lex.Next()
	t := lex.Peek()
	lex.LoadCheckpoint(cp)
	return t
}

// nextLit reports whether the token after the next one is the literal v
// (for the `(?! ',' ')')` lookaheads of trailing commas).
func nextLit(lex *cursor, v string) bool { return isLit(peekSecond(lex), v) }

// parseGName matches the gName struct `@Ident`; a missing name is
// reported as GName, as participle named the struct.
func parseGName(lex *cursor) (*gName, error) {
	if lex.Peek().Type != tIdent {
		return nil, unexpected(lex, "GName")
	}
	start := lex.RawCursor()
	n := &gName{Name: lex.Next().Value}
	n.Tokens = lex.Range(start, lex.RawCursor())
	return n, nil
}

// commaList matches the inside of `'(' ( ITEM ( (?! ',' close) ',' ITEM )*
// ','? )? close` after the opening bracket, and the closing bracket:
// item matches one element (NextMatch when none starts here), and expect
// names the element for the error after a comma.
func commaList(lex *cursor, close, expect string, item func() error) error {
	first, err := optional(lex, item)
	if err != nil {
		return err
	}
	if first {
		if err := moreItems(lex, close, expect, item); err != nil {
			return err
		}
	}
	return expectLit(lex, close)
}

// moreItems matches the rest of a comma-separated list after its first
// element, `( (?! ',' close) ',' ITEM )* ','?`: item returns NextMatch
// when no element starts here, and expect names the element for the
// error after a comma.
func moreItems(lex *cursor, close, expect string, item func() error) error {
	for isLit(lex.Peek(), ",") && !nextLit(lex, close) {
		lex.Next()
		if err := require(lex, expect, func(*cursor) error { return item() }); err != nil {
			return err
		}
	}
	if isLit(lex.Peek(), ",") {
		lex.Next()
	}
	return nil
}

// parseTypeParams matches `'(' ( @Ident ( (?! ',' ')') ',' @Ident )* ','? )? ')'`.
func parseTypeParams(lex *cursor) ([]string, error) {
	lex.Next() // (
	var out []string
	err := commaList(lex, ")", "<ident>", func() error {
		if lex.Peek().Type != tIdent {
			return participle.NextMatch
		}
		out = append(out, lex.Next().Value)
		return nil
	})
	return out, err
}

// parseDerive matches `'derive' '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')'`
// with gName elements.
func parseDerive(lex *cursor) ([]*gName, error) {
	lex.Next() // derive
	if err := expectLit(lex, "("); err != nil {
		return nil, err
	}
	var out []*gName
	err := commaList(lex, ")", "GName", func() error {
		if lex.Peek().Type != tIdent {
			return participle.NextMatch
		}
		n, err := parseGName(lex)
		out = append(out, n)
		return err
	})
	return out, err
}

// parseDeclHead matches what type and newtype declarations start with:
// their keyword kw (NextMatch without it), the name, type parameters and
// derive list.
func parseDeclHead(lex *cursor, kw string) (name *gName, params []string, derive []*gName, err error) {
	if !isLit(lex.Peek(), kw) {
		return nil, nil, nil, participle.NextMatch
	}
	lex.Next()
	if name, err = parseGName(lex); err != nil {
		return nil, nil, nil, err
	}
	if isLit(lex.Peek(), "(") {
		if params, err = parseTypeParams(lex); err != nil {
			return nil, nil, nil, err
		}
	}
	if isLit(lex.Peek(), "derive") {
		if derive, err = parseDerive(lex); err != nil {
			return nil, nil, nil, err
		}
	}
	return name, params, derive, nil
}

// Parse matches for a type declaration: `type Name
// [(params)] [derive(...)]` then `= T` (or `=` and T on an indented line)
// or `:` with an optional indented block of fields or variants.
func (g *gTypeDecl) Parse(lex *cursor) error {
	start := lex.RawCursor()
	var err error
	if g.Name, g.Params, g.Derive, err = parseDeclHead(lex, "type"); err != nil {
		return err
	}
	switch t := lex.Peek(); {
	case isLit(t, "="):
		lex.Next()
		if lex.Peek().Type == tNewline {
			lex.Next()
			if err := requireToken(lex, tIndent, "<indent>"); err != nil {
				return err
			}
			if g.Alias, err = requireType(lex, "gType"); err != nil {
				return err
			}
			if err := requireToken(lex, tNewline, "<newline>"); err != nil {
				return err
			}
			if err := requireToken(lex, tDedent, "<dedent>"); err != nil {
				return err
			}
		} else if g.Alias, err = requireType(lex, "(<newline> | gType)"); err != nil {
			return err
		}
	case isLit(t, ":"):
		lex.Next()
		g.Colon = true
		if lex.Peek().Type == tNewline && nextIs(lex, tIndent) {
			lex.Next()
			lex.Next()
			for {
				l := &gTypeLine{}
				if err := l.parse(lex); err == participle.NextMatch {
					break
				} else if err != nil {
					return err
				}
				g.Lines = append(g.Lines, l)
			}
			if len(g.Lines) == 0 {
				return unexpected(lex, "GTypeLine+")
			}
			if err := requireToken(lex, tDedent, "<dedent>"); err != nil {
				return err
			}
		}
	default:
		return unexpected(lex, `("=" | ":")`)
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// nextIs reports whether the token after the next one has type typ.
func nextIs(lex *cursor, typ int) bool { return int(peekSecond(lex).Type) == typ }

// parse matches one line of a type body: `Name [: T] [( fields )] NEWLINE`
// (a record field, or a variant with optional fields). It returns
// NextMatch when the line does not start with a name.
func (g *gTypeLine) parse(lex *cursor) error {
	start := lex.RawCursor()
	if lex.Peek().Type != tIdent {
		return participle.NextMatch
	}
	var err error
	if g.Name, err = parseGName(lex); err != nil {
		return err
	}
	if isLit(lex.Peek(), ":") {
		lex.Next()
		if g.FieldType, err = requireType(lex, "gType"); err != nil {
			return err
		}
	}
	if isLit(lex.Peek(), "(") {
		lex.Next()
		g.Paren = true
		err := commaList(lex, ")", "gType", func() error {
			f := &gVField{}
			if err := f.parse(lex); err != nil {
				return err
			}
			g.Fields = append(g.Fields, f)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := requireToken(lex, tNewline, "<newline>"); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// parse matches a variant field `[name :] T`. Its first part is optional,
// so a missing type is an error (Expect gType) even when nothing was
// consumed; a list treats that as the end of the list (see optional).
func (g *gVField) parse(lex *cursor) error {
	start := lex.RawCursor()
	if lex.Peek().Type == tIdent && nextLit(lex, ":") {
		g.Name = lex.Next().Value
		lex.Next()
	}
	var err error
	if g.Type, err = requireType(lex, "gType"); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `newtype Name [(params)]
// [derive(...)] = Ctor(T)`.
func (g *gNewtype) Parse(lex *cursor) error {
	start := lex.RawCursor()
	var err error
	if g.Name, g.Params, g.Derive, err = parseDeclHead(lex, "newtype"); err != nil {
		return err
	}
	if err := expectLit(lex, "="); err != nil {
		return err
	}
	if lex.Peek().Type != tIdent {
		return unexpected(lex, "<ident>")
	}
	g.Ctor = lex.Next().Value
	if err := expectLit(lex, "("); err != nil {
		return err
	}
	if g.Type, err = requireType(lex, "gType"); err != nil {
		return err
	}
	if err := expectLit(lex, ")"); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}
