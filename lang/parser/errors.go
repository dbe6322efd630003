package parser

import (
	"errors"
	"fmt"
	"slices"
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
// diagnostic in user words: the first of syntaxRules that recognises the
// situation reports it, and otherwise the error says what was expected.
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
	if debugErrors {
		fmt.Println("PARTICIPLE:", err)
	}
	c := &errCtx{dl: dl, f: f, toks: toks, t: ute.Unexpected}
	c.i = indexOfToken(toks, c.t)
	c.want = userExpectation(firstElem(ute.Expect))
	for _, rule := range syntaxRules {
		if rule(c) {
			return
		}
	}
	switch {
	case c.want != "":
		c.plain(fmt.Sprintf("expected %s, found %s", c.want, describe(c.t)))
	case c.t.Type == tEOF:
		c.plain("unexpected end of file")
	default:
		c.plain(fmt.Sprintf("unexpected %s", describe(c.t)))
	}
}

// errCtx is what translate knows of one matcher error: the unexpected
// token t at index i of the declaration's tokens, and what the grammar
// expected there, in user words.
type errCtx struct {
	dl   *diag.List
	f    *source.File
	toks []lexer.Token
	t    lexer.Token
	i    int
	want string
}

// is reports whether the token at index k exists, has type typ and, when
// values are given, one of them as its text.
func (c *errCtx) is(k int, typ lexer.TokenType, values ...string) bool {
	if k < 0 || k >= len(c.toks) || c.toks[k].Type != typ {
		return false
	}
	return len(values) == 0 || slices.Contains(values, c.toks[k].Value)
}

// text reports whether the token at index k exists and reads v.
func (c *errCtx) text(k int, v string) bool {
	return k >= 0 && k < len(c.toks) && c.toks[k].Value == v
}

// lineStart reports whether the token at index k begins a line.
func (c *errCtx) lineStart(k int) bool {
	return k < 0 || c.is(k, tNewline) || c.is(k, tIndent) || c.is(k, tDedent)
}

// tIs reports whether the unexpected token has type typ and one of values.
func (c *errCtx) tIs(typ lexer.TokenType, values ...string) bool { return c.is(c.i, typ, values...) }

// add reports a syntax error of code at span.
func (c *errCtx) add(code diag.Code, span source.Span, format string, args ...any) *diag.Diagnostic {
	return c.dl.Add(c.f, code, span, format, args...)
}

// plain reports msg at the unexpected token (a point where the token is a
// line break or the end of the file).
func (c *errCtx) plain(msg string) {
	sp := tokSpan(c.t)
	if c.t.Type == tNewline || c.t.Type == tDedent || c.t.Type == tEOF {
		sp = source.Span{Start: c.t.Pos.Offset, End: c.t.Pos.Offset}
	}
	c.add(ErrSyntax, sp, "%s", msg)
}

// syntaxRules recognise the common mistakes, in order; each reports and
// returns true, or returns false and leaves the error to the next.
var syntaxRules = []func(*errCtx) bool{
	keywordForName,
	unexpectedIndent,
	missingBlock,
	missingClose,
	elseWithoutColon,
	afterDot,
	braceBlock,
	clauseGuard,
	unsupportedKeyword,
	whileLoop,
	letMut,
	varConst,
	elif,
	equalsSlip,
	erlangComparison,
	orOperator,
	assignment,
}

// keywordForName: a keyword where a name or pattern belongs.
func keywordForName(c *errCtx) bool {
	if c.t.Type != tKeyword {
		return false
	}
	if c.want == "a name" || c.want == "a pattern" || c.want == "a parameter" || c.is(c.i+1, tPunct, ":") ||
		c.is(c.i-1, tKeyword, "let", "fn", "for", "type") {
		c.add(ErrKeywordName, tokSpan(c.t), "expected an identifier but found keyword '%s'", c.t.Value)
		return true
	}
	return false
}

// unexpectedIndent: a line indented deeper than a block allows, most
// likely after a header without its ':'.
func unexpectedIndent(c *errCtx) bool {
	if c.t.Type != tIndent {
		return false
	}
	msg := "unexpected indentation"
	label := ""
	if c.i > 1 && c.is(c.i-1, tNewline) && !c.is(c.i-2, tPunct, ":", "->") {
		if opensBlock(c.toks, c.i-1) {
			msg += "; did you forget ':' at the end of the previous line?"
			label = "the line above needs ':' to open a block"
		} else {
			msg += "; this line is indented deeper than the line before it, which does not open a block"
			label = "remove the extra indentation"
		}
	}
	c.add(ErrUnexpectedIndent, source.Span{Start: c.t.Pos.Offset, End: c.t.Pos.Offset}, "%s", msg).Label = label
	return true
}

// missingBlock: `:` or `->` at the end of a line with no indented block
// after it.
func missingBlock(c *errCtx) bool {
	h := -1
	switch {
	case c.i > 1 && c.is(c.i-1, tNewline) && c.is(c.i-2, tPunct, ":", "->"):
		h = c.i - 2
	case c.t.Type == tNewline && c.is(c.i-1, tPunct, ":", "->"):
		h = c.i - 1
	default:
		return false
	}
	c.add(ErrExpectBlock, tokSpan(c.toks[h]), "expected an indented block after '%s'", c.toks[h].Value)
	return true
}

// missingClose: a closing bracket expected, with the bracket it would
// close.
func missingClose(c *errCtx) bool {
	if c.want != "')'" && c.want != "']'" && c.want != "'}'" {
		return false
	}
	j, ok := openerBefore(c.toks, c.i)
	if !ok {
		return false
	}
	d := c.add(ErrExpectClose, tokSpan(c.t), "expected %s to close the %s, found %s", c.want, roleOf(c.toks, j), describe(c.t))
	d.Related = append(d.Related, diag.Related{Span: tokSpan(c.toks[j]), Message: "opened here"})
	return true
}

// elseWithoutColon: `else if` where the grammar wanted `else:`.
func elseWithoutColon(c *errCtx) bool {
	if !c.tIs(tKeyword, "if") || !c.is(c.i-1, tKeyword, "else") {
		return false
	}
	c.plain("expected ':' after 'else'; chain conditions with 'else: if …'")
	return true
}

// afterDot: something other than a field name or index after '.'.
func afterDot(c *errCtx) bool {
	if !c.is(c.i-1, tPunct, ".") {
		return false
	}
	c.plain(fmt.Sprintf("expected a field name or tuple index after '.', found %s", describe(c.t)))
	return true
}

// braceBlock: a block written with braces.
var braceBlock = tokenRule(tPunct, "{", "unexpected '{'; blocks are written with ':' and an indented suite")

// clauseGuard: `if` in a function header, a multi-clause function's guard.
func clauseGuard(c *errCtx) bool {
	if !c.tIs(tKeyword, "if") || !inFnHeader(c.toks, c.i) {
		return false
	}
	c.add(ErrClauseForm, tokSpan(c.t), "function clause guards (multi-clause functions) are not supported; use match or if in the body")
	return true
}

// unsupportedKeyword: a reserved word of a feature this compiler leaves
// out.
func unsupportedKeyword(c *errCtx) bool {
	if !c.tIs(tKeyword, "comptime", "actor", "where", "as") {
		return false
	}
	c.plain(fmt.Sprintf("'%s' is not supported by this compiler", c.t.Value))
	return true
}

// whileLoop: a `while` loop.
var whileLoop = tokenRule(tKeyword, "while", "Morrow has no 'while' loop; use 'for' over a range or list, or recursion")

// tokenRule is a rule for one unexpected token that always gets msg.
func tokenRule(typ lexer.TokenType, value, msg string) func(*errCtx) bool {
	return func(c *errCtx) bool {
		if !c.tIs(typ, value) {
			return false
		}
		c.plain(msg)
		return true
	}
}

// letMut: `let mut x`.
func letMut(c *errCtx) bool {
	if c.t.Type != tIdent || !c.is(c.i-1, tIdent, "mut") || !c.is(c.i-2, tKeyword, "let") {
		return false
	}
	d := c.add(ErrSyntax, tokSpan(c.toks[c.i-1]), "Morrow has no mutable variables ('let mut')")
	d.Label = "remove 'mut'"
	d.Hint = "write 'let " + c.t.Value + " = …'; to change the value later, bind a new one with another 'let' (it shadows the old one), or carry it through recursion or List.fold"
	return true
}

// varConst: `var x` or `const x` at the start of a line.
func varConst(c *errCtx) bool {
	if c.t.Type != tIdent || !c.is(c.i-1, tIdent, "var", "const") || !c.lineStart(c.i-2) {
		return false
	}
	prev := c.toks[c.i-1]
	d := c.add(ErrSyntax, tokSpan(prev), "Morrow declares local names with 'let', not '%s'", prev.Value)
	d.Label = "write 'let' here"
	d.Hint = "write 'let " + c.t.Value + " = …'"
	return true
}

// elif: Python's `elif` at the start of a line.
func elif(c *errCtx) bool {
	if !c.is(c.i-1, tIdent, "elif") || !c.lineStart(c.i-2) {
		return false
	}
	d := c.add(ErrSyntax, tokSpan(c.toks[c.i-1]), "Morrow has no 'elif'; write 'else if'")
	d.Label = "write 'else if' here"
	d.Hint = "chain conditions with `else if CONDITION:` (or use a condition match: `match:` with `CONDITION -> …` arms and a final `_ -> …`)"
	return true
}

// equalsSlip: `!==`, `===` (JavaScript) and `/=` (Erlang's not-equal).
func equalsSlip(c *errCtx) bool {
	if !c.tIs(tPunct, "=") || c.i < 1 {
		return false
	}
	prev := c.toks[c.i-1]
	if prev.Type != tOp && prev.Type != tPunct {
		return false
	}
	fix, ok := map[string]string{"!=": "!=", "==": "==", "/": "!="}[prev.Value]
	if !ok {
		return false
	}
	d := c.add(ErrSyntax, source.Span{Start: prev.Pos.Offset, End: c.t.Pos.Offset + 1}, "'%s=' is not an operator; did you mean '%s'?", prev.Value, fix)
	d.Label = "write '" + fix + "'"
	return true
}

// erlangComparison: Erlang's `=/=` and `=:=`.
func erlangComparison(c *errCtx) bool {
	if !c.tIs(tPunct, "=") || !c.text(c.i+2, "=") {
		return false
	}
	mid := ""
	if c.i+1 < len(c.toks) {
		mid = c.toks[c.i+1].Value
	}
	fix, ok := map[string]string{"/": "!=", ":": "=="}[mid]
	if !ok {
		return false
	}
	d := c.add(ErrSyntax, source.Span{Start: c.t.Pos.Offset, End: c.toks[c.i+2].Pos.Offset + 1}, "'=%s=' is not an operator; did you mean '%s'?", mid, fix)
	d.Label = "write '" + fix + "'"
	return true
}

// orOperator: `||` for `or`.
func orOperator(c *errCtx) bool {
	if !c.tIs(tPunct, "|") || !c.is(c.i+1, tPunct, "|") {
		return false
	}
	d := c.add(ErrSyntax, source.Span{Start: c.t.Pos.Offset, End: c.toks[c.i+1].Pos.Offset + 1}, "'||' is not an operator; did you mean 'or'?")
	d.Label = "write 'or'"
	d.Hint = "Morrow writes the Boolean operators as words: `a and b`, `a or b`, `not a`"
	return true
}

// assignment: `x = v`, an assignment Morrow does not have.
func assignment(c *errCtx) bool {
	if !c.tIs(tPunct, "=") || (c.want != "" && c.want != "the end of the line") {
		return false
	}
	c.plain("unexpected '='; there is no assignment, bind a new name with 'let name = value'")
	return true
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
