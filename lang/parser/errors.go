package parser

import (
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

var debugErrors = false

// describe names a token for a message ("end of line", "keyword 'match'").
func describe(t lexer.Token) string {
	switch int(t.Type) {
	case tEOF:
		return "end of file"
	case tNewline:
		return "end of line"
	case tIndent:
		return "an indented block"
	case tDedent:
		return "the end of the block"
	case tKeyword:
		return fmt.Sprintf("keyword '%s'", t.Value)
	case tIdent:
		return fmt.Sprintf("'%s'", t.Value)
	case tInt, tFloat:
		return fmt.Sprintf("number %s", t.Value)
	case tString:
		return "a string"
	case tOp:
		return fmt.Sprintf("operator '%s'", t.Value)
	}
	return fmt.Sprintf("'%s'", t.Value)
}

// firstElem returns the first element of a grammar fragment: a quoted
// literal, a parenthesised group or a word.
func firstElem(e string) string {
	e = strings.TrimSpace(e)
	if e == "" {
		return e
	}
	switch e[0] {
	case '"':
		if j := strings.IndexByte(e[1:], '"'); j >= 0 {
			return e[:j+2]
		}
	case '(':
		depth := 0
		for i := 0; i < len(e); i++ {
			switch e[i] {
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 {
					return e[:i+1]
				}
			}
		}
	}
	if j := strings.IndexByte(e, ' '); j >= 0 {
		return e[:j]
	}
	return e
}

// userExpectation turns the Expect of an UnexpectedTokenError (the first
// element of what the matcher wanted, in participle's grammar notation:
// `")"`, `<newline>`, `gType`, a group of alternatives) into words.
func userExpectation(exp string) string {
	e := strings.TrimSpace(exp)
	l := strings.ToLower(e)
	has := func(subs ...string) bool {
		for _, x := range subs {
			if strings.HasPrefix(l, x) {
				return true
			}
		}
		return false
	}
	if strings.HasPrefix(e, "(") && strings.HasSuffix(e, ")") {
		// a choice: name the first element of each alternative
		var alts []string
		for _, a := range splitAlternatives(e[1 : len(e)-1]) {
			w := userExpectation(firstElem(strings.Trim(strings.TrimSpace(a), "()")))
			if w == "" {
				return ""
			}
			alts = append(alts, w)
		}
		return strings.Join(alts, " or ")
	}
	switch {
	case e == "":
		return ""
	case (strings.HasPrefix(e, `"`) || strings.HasPrefix(e, "'")) && len(e) <= 6 && !strings.Contains(e, " "):
		return "'" + strings.Trim(e, `"'`) + "'"
	case has("<ident>", "gname"):
		return "a name"
	case has("gpattern", "garmpat", "gpat"):
		return "a pattern"
	case has("gtype", "gnamedtype", "gfntype"):
		return "a type"
	case has("gparam"):
		return "a parameter"
	case has("gstmt"):
		return "a statement"
	case has("gexpr", "gunary", "gbody", "gpostfix", "gprimary", "gparenelem", "garg"):
		return "an expression"
	case has("<newline>"):
		return "the end of the line"
	case has("<indent>"):
		return "an indented block"
	case has("gtypeline"):
		return "a field or variant"
	case has("gdecl", "gfn"):
		return "a declaration"
	case has("garm", "gcondarm", "grecvarm"):
		return "a match arm 'pattern -> body'"
	}
	return ""
}

// splitAlternatives splits a grammar fragment at top-level '|'.
func splitAlternatives(e string) []string {
	var out []string
	depth, start := 0, 0
	inQuote := false
	for i := 0; i < len(e); i++ {
		switch c := e[i]; {
		case c == '"':
			inQuote = !inQuote
		case inQuote:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, e[start:i])
			start = i + 1
		}
	}
	return append(out, e[start:])
}

// tokensText joins token values (for small header checks).
func tokensText(toks []lexer.Token) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(t.Value)
	}
	return b.String()
}

func indexOfToken(toks []lexer.Token, t lexer.Token) int {
	if t.Type == lexer.EOF {
		return len(toks)
	}
	for i := range toks {
		if toks[i].Pos.Offset == t.Pos.Offset && toks[i].Type == t.Type && toks[i].Value == t.Value {
			return i
		}
	}
	for i := range toks {
		if toks[i].Pos.Offset >= t.Pos.Offset {
			return i
		}
	}
	return len(toks)
}

func tokSpan(t lexer.Token) source.Span {
	if synthetic(t.Type) {
		return source.Span{Start: t.Pos.Offset, End: t.Pos.Offset}
	}
	return source.Span{Start: t.Pos.Offset, End: t.Pos.Offset + len(t.Value)}
}

// openerBefore finds the innermost bracket still open before index i.
func openerBefore(toks []lexer.Token, i int) (int, bool) {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		t := toks[j]
		if t.Type != tPunct {
			continue
		}
		switch t.Value {
		case ")", "]", "}":
			depth++
		case "(", "[", "%{", "{":
			if depth == 0 {
				return j, true
			}
			depth--
		}
	}
	return 0, false
}

// roleOf names what the bracket at index j opened.
func roleOf(toks []lexer.Token, j int) string {
	o := toks[j]
	var before lexer.Token
	if j > 0 {
		before = toks[j-1]
	}
	if o.Value == "(" && j > 1 && before.Type == tIdent && toks[j-2].Type == tKeyword && toks[j-2].Value == "fn" {
		return "parameter list"
	}
	if o.Value == "(" && before.Type == tKeyword && before.Value == "fn" {
		return "parameter list"
	}
	bt := &tok{kind: int(before.Type), text: before.Value}
	if j == 0 {
		bt = nil
	}
	ot := &tok{kind: tPunct, text: o.Value}
	return bracketRole(ot, bt)
}

// translate converts a matcher's error for one declaration into a
// diagnostic in user words.
func translate(dl *diag.List, f *source.File, toks []lexer.Token, err error) {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) {
		var pe participle.Error
		off := 0
		if errors.As(err, &pe) {
			off = pe.Position().Offset
		}
		dl.Add(f, ErrSyntax, source.Span{Start: off, End: off}, "syntax error")
		return
	}
	t := ute.Unexpected
	if debugErrors {
		fmt.Println("PARTICIPLE:", err)
	}
	i := indexOfToken(toks, t)
	want := userExpectation(firstElem(ute.Expect))
	var prev lexer.Token
	hasPrev := i > 0
	if hasPrev {
		prev = toks[i-1]
	}
	// a keyword where a name or pattern belongs
	nextIsColon := i+1 < len(toks) && toks[i+1].Type == tPunct && toks[i+1].Value == ":"
	if t.Type == tKeyword && (want == "a name" || want == "a pattern" || want == "a parameter" || nextIsColon ||
		(hasPrev && prev.Type == tKeyword && (prev.Value == "let" || prev.Value == "fn" || prev.Value == "for" || prev.Value == "type"))) {
		dl.Add(f, ErrKeywordName, tokSpan(t), "expected an identifier but found keyword '%s'", t.Value)
		return
	}
	if t.Type == tIndent {
		msg := "unexpected indentation"
		label := ""
		if i > 1 && toks[i-1].Type == tNewline && !(toks[i-2].Type == tPunct && (toks[i-2].Value == ":" || toks[i-2].Value == "->")) {
			if opensBlock(toks, i-1) {
				msg += "; did you forget ':' at the end of the previous line?"
				label = "the line above needs ':' to open a block"
			} else {
				msg += "; this line is indented deeper than the line before it, which does not open a block"
				label = "remove the extra indentation"
			}
		}
		dl.Add(f, ErrUnexpectedIndent, source.Span{Start: t.Pos.Offset, End: t.Pos.Offset}, "%s", msg).Label = label
		return
	}
	// `:` or `->` at the end of a line with no indented block after it
	if hasPrev && prev.Type == tNewline && i > 1 && toks[i-2].Type == tPunct && (toks[i-2].Value == ":" || toks[i-2].Value == "->") {
		h := toks[i-2]
		dl.Add(f, ErrExpectBlock, tokSpan(h), "expected an indented block after '%s'", h.Value)
		return
	}
	if t.Type == tNewline && hasPrev && prev.Type == tPunct && (prev.Value == ":" || prev.Value == "->") {
		dl.Add(f, ErrExpectBlock, tokSpan(prev), "expected an indented block after '%s'", prev.Value)
		return
	}
	// a missing closing bracket
	if want == "')'" || want == "']'" || want == "'}'" {
		if j, ok := openerBefore(toks, i); ok {
			d := dl.Add(f, ErrExpectClose, tokSpan(t), "expected %s to close the %s, found %s", want, roleOf(toks, j), describe(t))
			d.Related = append(d.Related, diag.Related{Span: tokSpan(toks[j]), Message: "opened here"})
			return
		}
	}
	msg := ""
	switch {
	case t.Type == tKeyword && t.Value == "if" && hasPrev && prev.Type == tKeyword && prev.Value == "else":
		msg = "expected ':' after 'else'; chain conditions with 'else: if …'"
	case hasPrev && prev.Type == tPunct && prev.Value == ".":
		msg = fmt.Sprintf("expected a field name or tuple index after '.', found %s", describe(t))
	case t.Type == tPunct && t.Value == "{":
		msg = "unexpected '{'; blocks are written with ':' and an indented suite"
	case t.Type == tKeyword && t.Value == "if" && inFnHeader(toks, i):
		dl.Add(f, ErrClauseForm, tokSpan(t), "function clause guards (multi-clause functions) are not supported; use match or if in the body")
		return
	case t.Type == tKeyword && (t.Value == "comptime" || t.Value == "actor" || t.Value == "where" || t.Value == "as"):
		msg = fmt.Sprintf("'%s' is not supported by this compiler", t.Value)
	case t.Type == tKeyword && t.Value == "while":
		msg = "Morrow has no 'while' loop; use 'for' over a range or list, or recursion"
	case t.Type == tIdent && hasPrev && prev.Type == tIdent && prev.Value == "mut" && i > 1 && toks[i-2].Type == tKeyword && toks[i-2].Value == "let":
		d := dl.Add(f, ErrSyntax, tokSpan(prev), "Morrow has no mutable variables ('let mut')")
		d.Label = "remove 'mut'"
		d.Hint = "write 'let " + t.Value + " = …'; to change the value later, bind a new one with another 'let' (it shadows the old one), or carry it through recursion or List.fold"
		return
	case hasPrev && prev.Type == tIdent && (prev.Value == "var" || prev.Value == "const") && t.Type == tIdent && (i < 2 || toks[i-2].Type == tNewline || toks[i-2].Type == tIndent || toks[i-2].Type == tDedent):
		d := dl.Add(f, ErrSyntax, tokSpan(prev), "Morrow declares local names with 'let', not '%s'", prev.Value)
		d.Label = "write 'let' here"
		d.Hint = "write 'let " + t.Value + " = …'"
		return
	case hasPrev && prev.Type == tIdent && prev.Value == "elif" && (i < 2 || toks[i-2].Type == tNewline || toks[i-2].Type == tIndent || toks[i-2].Type == tDedent):
		d := dl.Add(f, ErrSyntax, tokSpan(prev), "Morrow has no 'elif'; write 'else if'")
		d.Label = "write 'else if' here"
		d.Hint = "chain conditions with `else if CONDITION:` (or use a condition match: `match:` with `CONDITION -> …` arms and a final `_ -> …`)"
		return
	case t.Type == tPunct && t.Value == "=" && hasPrev && (prev.Type == tOp || prev.Type == tPunct) && (prev.Value == "!=" || prev.Value == "==" || prev.Value == "/"):
		// `!==`, `===` (JavaScript) and `/=` (Erlang's not-equal)
		fix := map[string]string{"!=": "!=", "==": "==", "/": "!="}[prev.Value]
		d := dl.Add(f, ErrSyntax, source.Span{Start: prev.Pos.Offset, End: t.Pos.Offset + 1}, "'%s=' is not an operator; did you mean '%s'?", prev.Value, fix)
		d.Label = "write '" + fix + "'"
		return
	case t.Type == tPunct && t.Value == "=" && i+2 < len(toks) && (toks[i+1].Value == "/" || toks[i+1].Value == ":") && toks[i+2].Value == "=":
		// Erlang's `=/=` and `=:=`
		fix := map[string]string{"/": "!=", ":": "=="}[toks[i+1].Value]
		d := dl.Add(f, ErrSyntax, source.Span{Start: t.Pos.Offset, End: toks[i+2].Pos.Offset + 1}, "'=%s=' is not an operator; did you mean '%s'?", toks[i+1].Value, fix)
		d.Label = "write '" + fix + "'"
		return
	case t.Type == tPunct && t.Value == "|" && i+1 < len(toks) && toks[i+1].Type == tPunct && toks[i+1].Value == "|":
		d := dl.Add(f, ErrSyntax, source.Span{Start: t.Pos.Offset, End: toks[i+1].Pos.Offset + 1}, "'||' is not an operator; did you mean 'or'?")
		d.Label = "write 'or'"
		d.Hint = "Morrow writes the Boolean operators as words: `a and b`, `a or b`, `not a`"
		return
	case t.Type == tPunct && t.Value == "=" && (want == "" || want == "the end of the line"):
		msg = "unexpected '='; there is no assignment, bind a new name with 'let name = value'"
	case want != "":
		msg = fmt.Sprintf("expected %s, found %s", want, describe(t))
	case t.Type == tEOF:
		msg = "unexpected end of file"
	default:
		msg = fmt.Sprintf("unexpected %s", describe(t))
	}
	sp := tokSpan(t)
	if t.Type == tNewline || t.Type == tDedent || t.Type == tEOF {
		sp = source.Span{Start: t.Pos.Offset, End: t.Pos.Offset}
	}
	dl.Add(f, ErrSyntax, sp, "%s", msg)
}

// opensBlock reports whether the line that ends at the newline token nl
// starts like a block header (if, else, for, match, receive, fn, type,
// defer, …), so that a deeper line after it most likely lacks the ':'.
func opensBlock(toks []lexer.Token, nl int) bool {
	j := nl - 1
	for j > 0 && toks[j-1].Type != tNewline && toks[j-1].Type != tIndent && toks[j-1].Type != tDedent {
		j--
	}
	if j < 0 || j >= nl {
		return false
	}
	first := toks[j]
	if first.Type == tKeyword && first.Value == "pub" && j+1 < nl {
		first = toks[j+1]
	}
	if first.Type != tKeyword {
		return false
	}
	switch first.Value {
	case "if", "else", "for", "match", "receive", "receive_event", "fn", "type", "defer", "while":
		return true
	}
	return false
}

// translateInterp reports an error inside a string interpolation.
func translateInterp(dl *diag.List, f *source.File, toks []lexer.Token, err error) {
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) && ute.Unexpected.Type == lexer.EOF {
		dl.Add(f, ErrInterp, source.Span{Start: ute.Unexpected.Pos.Offset, End: ute.Unexpected.Pos.Offset + 1}, "incomplete expression in string interpolation")
		return
	}
	if ute != nil && ute.Expect == "" {
		// the expression ended but more tokens follow it
		dl.Add(f, ErrInterp, tokSpan(ute.Unexpected), "expected '}' after the interpolated expression, found %s", describe(ute.Unexpected))
		return
	}
	translate(dl, f, toks, err)
}

// inFnHeader reports whether token i lies in a function declaration's
// header: after `fn` (or `pub fn`) and before the header's `:` at bracket
// depth 0 (parameter annotations are inside the parentheses).
func inFnHeader(toks []lexer.Token, i int) bool {
	j := 0
	if j < len(toks) && toks[j].Type == tKeyword && toks[j].Value == "pub" {
		j++
	}
	if j >= len(toks) || toks[j].Type != tKeyword || toks[j].Value != "fn" {
		return false
	}
	depth := 0
	for _, t := range toks[j:i] {
		if t.Type != tPunct && t.Type != tOp {
			continue
		}
		switch t.Value {
		case "(", "[", "%{":
			depth++
		case ")", "]", "}":
			depth--
		case ":":
			if depth == 0 {
				return false
			}
		}
	}
	return depth == 0
}
