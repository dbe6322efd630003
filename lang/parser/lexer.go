package parser

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Token types of the layout token stream (participle's lexer.Token, which
// lexer.Definition consumers such as lang/format read too). Participle
// reserves -1 for EOF, so every other type is a distinct negative number
// below it.
const (
	tEOF     = -1
	tIdent   = -2
	tKeyword = -3
	tInt     = -4
	tFloat   = -5
	tString  = -6
	tPunct   = -7
	tNewline = -8
	tIndent  = -9
	tDedent  = -10
	tOp      = -11 // binary operator punctuation (also unary '-'), one type so the grammar tests it once
)

var symbols = map[string]int{
	"EOF":     tEOF,
	"Ident":   tIdent,
	"Keyword": tKeyword,
	"Int":     tInt,
	"Float":   tFloat,
	"String":  tString,
	"Punct":   tPunct,
	"Newline": tNewline,
	"Indent":  tIndent,
	"Dedent":  tDedent,
	"BinOp":   tOp,
}

var binaryOps = map[string]bool{
	"..=": true, "..": true, "|||": true, "^^^": true, "&&&": true, "==": true, "!=": true,
	"<=": true, "<": true, ">=": true, ">": true, "<<<": true, ">>>": true, "+": true, "-": true,
	"*": true, "/": true, "%": true, "**": true, "|>": true,
}

// Source limits from docs/reference/syntax.md#source-files.
const (
	maxSourceBytes   = source.MaxBytes
	maxTokens        = 65536
	maxCommentDepth  = 128
	maxInterpDepth   = 32
	maxBracketDepth  = 200
	tokenLimitString = "65,536"
)

var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`fn let const comptime if else true false and or not pub type match
		return for in while import with trait impl actor receive receive_event spawn where do defer as
		module break continue derive newtype send after`) {
		keywords[k] = true
	}
}

// tok is one raw token of the base lexer.
type tok struct {
	kind       int
	start, end int // byte offsets into the file
	text       string
	line, col  int  // 1-based line and column (code points)
	first      bool // first token on its physical line
	indent     int  // visual indentation of the line (tabs to multiples of 8) when first
	str        *strLit
}

// strLit is the decoded content of a string token.
type strLit struct {
	triple bool
	parts  []strPart
	interp bool
}

// strPart is literal text or the raw tokens of one `{expr}` interpolation.
type strPart struct {
	text   string
	toks   []tok
	start  int // offset of the `{`
	end    int // offset after the `}`
	isExpr bool
}

// scanner is the hand-written base lexer. It records every lexical error
// and keeps going, so one pass reports them all.
type scanner struct {
	f       *source.File
	src     []byte
	pos     int
	line    int
	lineOff int // offset of the current line's start
	diags   *diag.List
	count   int // tokens produced (including interpolation tokens)

	// per-line state for layout
	sawNewline bool
	usedTab    bool
	usedSpace  bool
	mixedSeen  bool

	colOff, colNum int // last offset whose column is known, and that column
	docs           []docAttr
	prev           int // kind of the previously produced token (for `.0` tuple indexes)
	prevText       string
	depth          int   // interpolation depth
	errOffs        []int // offsets of the errors reported, sorted
}

// docAttr is a parsed @doc / @moduledoc attribute.
type docAttr struct {
	module bool
	start  int
	text   string
}

func (s *scanner) errorf(code diag.Code, start, end int, format string, args ...any) {
	if end < start {
		end = start
	}
	s.diags.Add(s.f, code, source.Span{Start: start, End: end}, format, args...)
	// keep errOffs sorted (errors almost always come in source order)
	i := len(s.errOffs)
	s.errOffs = append(s.errOffs, start)
	for ; i > 0 && s.errOffs[i-1] > start; i-- {
		s.errOffs[i] = s.errOffs[i-1]
	}
	s.errOffs[i] = start
}

func isIdentStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}
	return r != utf8.RuneError && !unicode.IsSpace(r)
}

func isIdentChar(r rune) bool {
	return isIdentStart(r) || (r >= '0' && r <= '9')
}

// begin prepares the scanner for the first token of the file.
func (s *scanner) begin() {
	s.line = 1
	s.sawNewline = true
	if len(s.src) >= 3 && s.src[0] == 0xEF && s.src[1] == 0xBB && s.src[2] == 0xBF {
		s.pos, s.lineOff = 3, 3 // a UTF-8 byte order mark is not part of the text
	}
}

// lexAll tokenizes the whole file (Parse streams the tokens instead, see
// Parse).
func (s *scanner) lexAll() []tok {
	s.begin()
	// Token density varies from about one token per 10 bytes (commented
	// code) to one per 2. Start at one per 4 and, when full, size the slice
	// from the density seen so far instead of append's repeated 1.25x
	// steps (each a large zeroed allocation and a copy).
	out := make([]tok, 0, len(s.src)/4+16)
	for {
		t, ok := s.next(false)
		if !ok {
			break
		}
		if len(out) == cap(out) {
			est := len(out) + 16
			if s.pos > 0 && s.pos < len(s.src) {
				est = len(out)*len(s.src)/s.pos + len(out)/8 + 16
			}
			grown := make([]tok, len(out), est)
			copy(grown, out)
			out = grown
		}
		out = append(out, t)
	}
	return out
}

// newline records a line break at offset i (the '\n').
func (s *scanner) newline(i int) {
	s.line++
	s.lineOff = i + 1
	s.sawNewline = true
}

// skipSpace skips whitespace and comments. In interpolation mode a newline
// ends the scan (reported by the caller).
func (s *scanner) skipSpace(interp bool) {
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			s.pos++
		case c == '\n':
			if interp {
				return
			}
			s.newline(s.pos)
			s.pos++
		case c == '#':
			start := s.pos
			for s.pos < len(s.src) && s.src[s.pos] != '\n' {
				s.pos++
			}
			s.checkUTF8(start, s.pos, "comment")
		case c == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*':
			s.blockComment()
		default:
			return
		}
	}
}

// blockComment skips a nested /* … */ comment. Line breaks inside it do
// not end the logical line: `a /* … */ + b` is one line.
func (s *scanner) blockComment() {
	start := s.pos
	depth := 0
	saw := s.sawNewline
	defer func() {
		s.sawNewline = saw
		s.checkUTF8(start, s.pos, "comment")
	}()
	for s.pos < len(s.src) {
		if s.src[s.pos] == '/' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '*' {
			depth++
			if depth > maxCommentDepth {
				s.errorf(ErrBlockComment, s.pos, s.pos+2, "block comments nest deeper than %d levels", maxCommentDepth)
			}
			s.pos += 2
			continue
		}
		if s.src[s.pos] == '*' && s.pos+1 < len(s.src) && s.src[s.pos+1] == '/' {
			depth--
			s.pos += 2
			if depth == 0 {
				return
			}
			continue
		}
		if s.src[s.pos] == '\n' {
			s.newline(s.pos)
		}
		s.pos++
	}
	s.errorf(ErrBlockComment, start, start+2, "unterminated block comment")
}

// checkUTF8 reports the first byte of src[from:to] that is not part of a
// valid UTF-8 sequence (docs/reference/syntax.md#source-files: invalid UTF-8 is an error
// anywhere in the file, comments included).
func (s *scanner) checkUTF8(from, to int, what string) {
	b := s.src[from:to]
	if utf8.Valid(b) {
		return
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			s.errorf(ErrBadUTF8, from+i, from+i+1, "invalid UTF-8 in %s", what)
			return
		}
		i += n
	}
}

// indentOf measures the indentation of the line starting at lineOff and
// checks the tabs/spaces rule.
func (s *scanner) indentOf(tokStart int) int {
	w := 0
	hasTab, hasSpace := false, false
	i := s.lineOff
	for ; i < tokStart; i++ {
		c := s.src[i]
		if c == '\t' {
			w = (w/8 + 1) * 8
			hasTab = true
		} else if c == ' ' {
			w++
			hasSpace = true
		} else {
			// a block comment or other token precedes: use the visual column
			w += utf8.RuneCount(s.src[i:tokStart])
			break
		}
	}
	if hasTab {
		s.usedTab = true
	}
	if hasSpace {
		s.usedSpace = true
	}
	if s.usedTab && s.usedSpace && !s.mixedSeen {
		s.mixedSeen = true
		s.errorf(ErrMixedIndent, s.lineOff, tokStart, "mixed tabs and spaces in indentation")
	}
	return w
}

func (s *scanner) mk(kind, start int, text string) tok {
	return s.mkAt(kind, start, text, s.line, s.lineOff)
}

// mkAt makes a token that started on the given line (a triple-quoted
// string may end on a later line).
func (s *scanner) mkAt(kind, start int, text string, line, lineOff int) tok {
	s.count++
	t := tok{kind: kind, start: start, end: s.pos, text: text, line: line}
	// columns are counted incrementally along a line, so long lines stay linear
	if s.colOff < lineOff || s.colOff > start {
		s.colOff, s.colNum = lineOff, 1
	}
	s.colNum += utf8.RuneCount(s.src[s.colOff:start])
	s.colOff = start
	t.col = s.colNum
	s.prev = kind
	s.prevText = text
	return t
}

// puncts lists punctuation longest first.
var puncts = []string{
	"..=", "|||", "&&&", "^^^", "~~~", "<<<", ">>>",
	"->", "<-", "..", "|>", "==", "!=", "<=", ">=", "**", "%{",
	"(", ")", "[", "]", "{", "}", ":", ",", ".", "|", "=", "+", "-", "*", "/", "%", "?", "<", ">",
}

// punctsByByte indexes puncts by first byte, longest first.
var punctsByByte [256][]string

func init() {
	for _, p := range puncts {
		punctsByByte[p[0]] = append(punctsByByte[p[0]], p)
	}
}

// hasPrefix reports whether the source at s.pos starts with p.
func (s *scanner) hasPrefix(p string) bool {
	if len(s.src)-s.pos < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if s.src[s.pos+i] != p[i] {
			return false
		}
	}
	return true
}

// next produces the next token. interp is true while lexing the tokens of
// a `{…}` interpolation (newlines end it).
func (s *scanner) next(interp bool) (tok, bool) {
	for {
		s.skipSpace(interp)
		if s.pos >= len(s.src) || (interp && s.src[s.pos] == '\n') {
			return tok{}, false
		}
		first := s.sawNewline && !interp
		start := s.pos
		// The indentation is measured before the token is scanned: a
		// triple-quoted string moves lineOff to the line it ends on.
		lineOff := s.lineOff
		t, ok := s.scanOne(interp)
		if !ok {
			continue // nothing produced (error or attribute); keep going
		}
		if first {
			t.first = true
			end := s.lineOff
			s.lineOff = lineOff
			t.indent = s.indentOf(start)
			s.lineOff = end
			s.sawNewline = false
		}
		return t, true
	}
}

// scanOne scans one token at s.pos. It returns ok=false when the input
// produced no token (a reported bad character, an @doc attribute).
func (s *scanner) scanOne(interp bool) (tok, bool) {
	start := s.pos
	c := s.src[s.pos]
	switch {
	case c >= '0' && c <= '9':
		return s.number(), true
	case c == '"':
		return s.stringLit(), true
	case c == '@':
		s.attribute()
		return tok{}, false
	case c < utf8.RuneSelf && isIdentStart(rune(c)):
		return s.ident(), true
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRune(s.src[s.pos:])
		if r == utf8.RuneError && n <= 1 {
			s.errorf(ErrBadUTF8, s.pos, s.pos+1, "invalid UTF-8 in source")
			s.pos++
			return tok{}, false
		}
		if isIdentStart(r) {
			return s.ident(), true
		}
		s.pos += n
		s.errorf(ErrBadChar, start, s.pos, "unsupported character '%s' in source", showRune(r))
		return tok{}, false
	}
	if interp && (c == '}') {
		// handled by the caller
		return tok{}, false
	}
	for _, p := range punctsByByte[c] {
		if s.hasPrefix(p) {
			s.pos += len(p)
			if binaryOps[p] {
				return s.mk(tOp, start, p), true
			}
			return s.mk(tPunct, start, p), true
		}
	}
	r, n := utf8.DecodeRune(s.src[s.pos:])
	s.pos += n
	if r == '&' && s.pos < len(s.src) && s.src[s.pos] == '&' {
		// `&&`: one diagnostic for the pair, with the word Morrow uses.
		s.pos++
		s.errorf(ErrBadChar, start, s.pos, "unsupported character '&' in source")
		(*s.diags)[len(*s.diags)-1].Hint = "did you mean 'and'? Morrow writes the Boolean operators as words: `a and b`, `a or b`, `not a`"
		return tok{}, false
	}
	s.errorf(ErrBadChar, start, s.pos, "unsupported character '%s' in source", showRune(r))
	if r == '!' {
		(*s.diags)[len(*s.diags)-1].Hint = "did you mean 'not'? Morrow negates with `not a`; '!=' is the only operator with '!'"
	}
	return tok{}, false
}

func showRune(r rune) string {
	if unicode.IsPrint(r) {
		return string(r)
	}
	if r < 0x80 {
		return fmt.Sprintf("\\x%02x", r)
	}
	return fmt.Sprintf("\\u{%x}", r)
}

func (s *scanner) ident() tok {
	start := s.pos
	for s.pos < len(s.src) {
		r, n := rune(s.src[s.pos]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(s.src[s.pos:])
		}
		if !isIdentChar(r) {
			break
		}
		s.pos += n
	}
	text := string(s.src[start:s.pos])
	if keywords[text] {
		return s.mk(tKeyword, start, text)
	}
	return s.mk(tIdent, start, text)
}

// attribute handles `@doc "…"` and `@moduledoc "…"`; both are parsed and
// recorded (not emitted as tokens). Any other attribute is an error.
func (s *scanner) attribute() {
	start := s.pos
	s.pos++
	nameStart := s.pos
	for s.pos < len(s.src) {
		r, n := utf8.DecodeRune(s.src[s.pos:])
		if !isIdentChar(r) {
			break
		}
		s.pos += n
	}
	name := string(s.src[nameStart:s.pos])
	if name != "doc" && name != "moduledoc" {
		s.errorf(ErrAttribute, start, s.pos, "unsupported attribute '@%s'; only @doc and @moduledoc are allowed", name)
		return
	}
	// the documentation string follows on the same line (it may span lines
	// when triple-quoted)
	for s.pos < len(s.src) && (s.src[s.pos] == ' ' || s.src[s.pos] == '\t') {
		s.pos++
	}
	if s.pos >= len(s.src) || s.src[s.pos] != '"' {
		s.errorf(ErrAttribute, start, s.pos, "expected a string after '@%s'", name)
		return
	}
	// The documentation string is not a token of the grammar, but the
	// tokens of its interpolations count toward the limit (docs/reference/syntax.md#source-files) like
	// those of any other string.
	t := s.stringLit()
	s.count--
	text := ""
	if t.str != nil {
		for _, p := range t.str.parts {
			text += p.text
		}
	}
	s.docs = append(s.docs, docAttr{module: name == "moduledoc", start: start, text: text})
}

// number scans an Int or Float literal. Range checks happen when the
// literal is lowered, so that unary minus can be folded in first.
func (s *scanner) number() tok {
	start := s.pos
	src := s.src
	afterDot := s.prev == tPunct && s.prevText == "."
	digits := func(ok func(byte) bool) {
		for s.pos < len(src) && (ok(src[s.pos]) || src[s.pos] == '_') {
			s.pos++
		}
	}
	isDec := func(b byte) bool { return b >= '0' && b <= '9' }
	kind := tInt
	if afterDot {
		// tuple index: digits only, so `t.0.1` is two indexes
		for s.pos < len(src) && isDec(src[s.pos]) {
			s.pos++
		}
		return s.mk(tInt, start, string(src[start:s.pos]))
	}
	if src[s.pos] == '0' && s.pos+1 < len(src) && strings.IndexByte("xXoObB", src[s.pos+1]) >= 0 {
		base := src[s.pos+1] | 0x20
		s.pos += 2
		var ok func(byte) bool
		switch base {
		case 'x':
			ok = func(b byte) bool { return isDec(b) || (b|0x20 >= 'a' && b|0x20 <= 'f') }
		case 'o':
			ok = func(b byte) bool { return b >= '0' && b <= '7' }
		default:
			ok = func(b byte) bool { return b == '0' || b == '1' }
		}
		digits(ok)
		body := string(src[start+2 : s.pos])
		if body == "" {
			s.errorf(ErrNumSeparator, start, s.pos, "expected digits after the base prefix '%s'", string(src[start:start+2]))
		} else {
			s.checkSeparators(start, body, start+2)
		}
	} else {
		digits(isDec)
		s.checkSeparators(start, string(src[start:s.pos]), start)
		if s.pos < len(src) && src[s.pos] == '.' {
			if s.pos+1 < len(src) && isDec(src[s.pos+1]) {
				kind = tFloat
				s.pos++
				fs := s.pos
				digits(isDec)
				s.checkSeparators(start, string(src[fs:s.pos]), fs)
			} else if s.pos+1 >= len(src) || src[s.pos+1] != '.' {
				s.pos++
				s.errorf(ErrFloatDigits, start, s.pos, "expected digits after decimal point")
				return s.mk(tFloat, start, string(src[start:s.pos]))
			}
		}
		if s.pos < len(src) && (src[s.pos] == 'e' || src[s.pos] == 'E') {
			j := s.pos + 1
			if j < len(src) && (src[j] == '+' || src[j] == '-') {
				j++
			}
			if j < len(src) && isDec(src[j]) {
				kind = tFloat
				s.pos = j
				digits(isDec)
			}
		}
	}
	if s.pos < len(src) {
		r, _ := utf8.DecodeRune(src[s.pos:])
		if isIdentChar(r) {
			ss := s.pos
			for s.pos < len(src) {
				r, n := utf8.DecodeRune(src[s.pos:])
				if !isIdentChar(r) {
					break
				}
				s.pos += n
			}
			s.errorf(ErrNumSuffix, ss, s.pos, "unsupported numeric literal suffix")
			t := s.mk(kind, start, string(src[start:ss]))
			return t
		}
	}
	return s.mk(kind, start, string(src[start:s.pos]))
}

func (s *scanner) checkSeparators(litStart int, body string, bodyStart int) {
	if body == "" || strings.IndexByte(body, '_') < 0 {
		return
	}
	if body[0] == '_' || body[len(body)-1] == '_' || strings.Contains(body, "__") {
		s.errorf(ErrNumSeparator, litStart, bodyStart+len(body), "invalid '_' separator in numeric literal; separators may not be leading, trailing or doubled")
	}
}

// stringLit scans "…" or """…""" starting at s.pos.
func (s *scanner) stringLit() tok {
	start := s.pos
	line, lineOff := s.line, s.lineOff
	triple := s.hasPrefix(`"""`)
	lit := &strLit{triple: triple}
	if triple {
		s.pos += 3
	} else {
		s.pos++
	}
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 || len(lit.parts) == 0 {
			lit.parts = append(lit.parts, strPart{text: b.String()})
		}
		b.Reset()
	}
	closed := false
	badUTF8 := false // reported once per literal, at its first bad byte
	errsBefore := len(*s.diags)
	for s.pos < len(s.src) {
		c := s.src[s.pos]
		if triple && c == '"' && s.hasPrefix(`"""`) {
			s.pos += 3
			closed = true
			break
		}
		if !triple && c == '"' {
			s.pos++
			closed = true
			break
		}
		if c == '\n' {
			if !triple {
				break
			}
			s.newline(s.pos)
			s.sawNewline = false
			b.WriteByte(c)
			s.pos++
			continue
		}
		if c == 0 {
			s.errorf(ErrStringNUL, s.pos, s.pos+1, "NUL characters are not allowed in strings")
			s.pos++
			continue
		}
		if c == '\\' {
			if s.pos+1 >= len(s.src) {
				s.pos++
				continue
			}
			e := s.src[s.pos+1]
			var out byte
			switch e {
			case 'n':
				out = '\n'
			case 'r':
				out = '\r'
			case 't':
				out = '\t'
			case '"':
				out = '"'
			case '\\':
				out = '\\'
			case '{':
				out = '{'
			case '}':
				out = '}'
			}
			if triple && e != '{' && e != '}' {
				// triple-quoted strings keep their content literally
				b.WriteByte(c)
				s.pos++
				continue
			}
			if out == 0 {
				_, n := utf8.DecodeRune(s.src[s.pos+1:])
				if e == '\n' {
					n = 0
				}
				s.errorf(ErrStringEscape, s.pos, s.pos+1+n, "invalid or unsupported string escape")
				s.pos += 1 + n
				continue
			}
			b.WriteByte(out)
			s.pos += 2
			continue
		}
		if c == '}' {
			s.errorf(ErrStringBrace, s.pos, s.pos+1, "unmatched '}' in string; escape literal braces with a backslash")
			s.pos++
			continue
		}
		if c == '{' {
			flush()
			lit.interp = true
			p, ok := s.interpolation(triple)
			lit.parts = append(lit.parts, p)
			if !ok {
				break
			}
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(s.src[s.pos:])
			if r == utf8.RuneError && n <= 1 {
				if !badUTF8 {
					badUTF8 = true
					s.errorf(ErrBadUTF8, s.pos, s.pos+1, "invalid UTF-8 in string literal")
				}
				s.pos++
				continue
			}
			b.Write(s.src[s.pos : s.pos+n])
			s.pos += n
			continue
		}
		b.WriteByte(c)
		s.pos++
	}
	if !closed && len(*s.diags) > errsBefore && lit.interp {
		// an unclosed interpolation already explains the problem
	} else if !closed {
		if triple {
			s.errorf(ErrStringUnclosed, start, start+3, "unterminated triple-quoted string literal")
		} else {
			s.errorf(ErrStringUnclosed, start, s.pos, "unterminated string literal; use triple quotes for multiline text")
		}
	}
	flush()
	t := s.mkAt(tString, start, string(s.src[start:s.pos]), line, lineOff)
	t.str = lit
	return t
}

// interpolation lexes the tokens of one `{expr}` part; s.pos is at `{`.
// It returns ok=false when the string cannot continue (newline or EOF).
func (s *scanner) interpolation(triple bool) (strPart, bool) {
	open := s.pos
	s.pos++
	p := strPart{isExpr: true, start: open}
	if s.depth >= maxInterpDepth {
		s.errorf(ErrNestingDepth, open, open+1, "string interpolations are nested too deeply")
	}
	s.depth++
	defer func() { s.depth-- }()
	braces := 0
	errsBefore := len(*s.diags)
	savedNL := s.sawNewline
	for {
		if triple {
			s.skipSpace(false)
			s.sawNewline = savedNL
		} else {
			s.skipSpace(true)
		}
		if s.pos >= len(s.src) || s.src[s.pos] == '\n' {
			if len(*s.diags) == errsBefore {
				s.errorf(ErrInterp, open, open+1, "unclosed '{' in string interpolation")
			}
			p.end = s.pos
			return p, false
		}
		if s.src[s.pos] == '}' && braces == 0 {
			s.pos++
			p.end = s.pos
			if len(p.toks) == 0 {
				s.errorf(ErrInterp, open, s.pos, "empty interpolation '{}' in string; escape literal braces with a backslash")
			}
			return p, true
		}
		if s.src[s.pos] == '}' {
			braces--
			st := s.pos
			s.pos++
			p.toks = append(p.toks, s.mk(tPunct, st, "}"))
			continue
		}
		t, ok := s.scanOne(true)
		if !ok {
			continue
		}
		if t.kind == tPunct && (t.text == "{" || t.text == "%{") {
			braces++
		}
		p.toks = append(p.toks, t)
	}
}
