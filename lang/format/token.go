package format

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/parser"
)

// Token kinds, resolved from parser.Definition's symbol table.
var (
	kIdent, kKeyword, kInt, kFloat, kString, kPunct, kNewline, kIndent, kDedent, kOp, kEOF lexer.TokenType
)

func init() {
	s := parser.Definition{}.Symbols()
	kIdent, kKeyword, kInt, kFloat = s["Ident"], s["Keyword"], s["Int"], s["Float"]
	kString, kPunct, kNewline, kIndent = s["String"], s["Punct"], s["Newline"], s["Indent"]
	kDedent, kOp, kEOF = s["Dedent"], s["BinOp"], s["EOF"]
}

// token is one token of the layout stream. Real tokens (everything but
// NEWLINE, INDENT, DEDENT and EOF) carry their index among the real tokens
// in ri; layout tokens have ri == -1.
type token struct {
	kind     lexer.TokenType
	val      string
	off, end int // byte offsets of a real token
	ri       int
}

// wordLike reports whether t is a name or a literal (Int, Float, String).
func (t *token) wordLike() bool {
	return t.kind == kIdent || t.kind == kInt || t.kind == kFloat || t.kind == kString
}

func (t *token) is(v string) bool {
	return (t.kind == kPunct || t.kind == kOp || t.kind == kKeyword) && t.val == v
}

// realTok is a real token with its source lines.
type realTok struct {
	val            string
	kind           lexer.TokenType
	off, end       int
	line, endLine  int // 1-based source lines of the first and last byte
	firstOnLine    bool
	multiLine      bool
	lineIndentCols int // visual indentation of the token's line
}

// comment is a piece of trivia: a `#` comment, a `/* */` block comment or
// an `@doc`/`@moduledoc` attribute. Text is the source text with trailing
// blanks removed from each of its lines.
type comment struct {
	text             string
	off, end         int
	line, endLine    int
	kind             commentKind
	col              int // visual indentation of the line it starts (own-line comments)
	lineComment      bool
	prevTok, nextTok int // real token indexes around it (-1 / len at the ends)
	blankAfter       bool
}

type commentKind int

const (
	ownLine    commentKind = iota // alone on its line(s)
	trailing                      // after a token on the same line, nothing after it
	inlineLead                    // a block comment with a token after it on its last line
)

// lexed is a source file split into layout tokens, real tokens and trivia.
type lexed struct {
	src       []byte
	lineStart []int
	all       []token   // layout stream including NEWLINE/INDENT/DEDENT
	toks      []realTok // real tokens in order
	comments  []comment
}

// lex runs the parser's own lexer and layout pass (so the formatter sees
// exactly the tokens the parser sees) and recovers the trivia the lexer
// skips from the gaps between real tokens.
func lex(name string, src []byte) (*lexed, error) {
	lx, err := parser.Definition{}.LexBytes(name, src)
	if err != nil {
		return nil, err
	}
	L := &lexed{src: src, lineStart: []int{0}}
	for i, b := range src {
		if b == '\n' {
			L.lineStart = append(L.lineStart, i+1)
		}
	}
	for {
		t, err := lx.Next()
		if err != nil {
			return nil, err
		}
		if t.EOF() {
			break
		}
		tk := token{kind: t.Type, val: t.Value, off: t.Pos.Offset, ri: -1}
		if t.Type != kNewline && t.Type != kIndent && t.Type != kDedent {
			tk.end = t.Pos.Offset + len(t.Value)
			if tk.end > len(src) || string(src[tk.off:tk.end]) != t.Value {
				return nil, fmt.Errorf("token %q at offset %d does not match the source", t.Value, t.Pos.Offset)
			}
			tk.ri = len(L.toks)
			L.toks = append(L.toks, realTok{val: t.Value, kind: t.Type, off: tk.off, end: tk.end})
		}
		L.all = append(L.all, tk)
	}
	prevLine := 0
	for i := range L.toks {
		t := &L.toks[i]
		t.line = L.line(t.off)
		t.endLine = L.line(t.end - 1)
		t.multiLine = t.endLine != t.line
		t.firstOnLine = t.line != prevLine
		t.lineIndentCols = L.indentCols(t.line)
		prevLine = t.endLine
	}
	if err := L.scanTrivia(); err != nil {
		return nil, err
	}
	return L, nil
}

// line returns the 1-based line of a byte offset.
func (L *lexed) line(off int) int {
	lo, hi := 0, len(L.lineStart)
	for lo < hi {
		m := (lo + hi) / 2
		if L.lineStart[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// indentCols is the visual indentation of a line (tabs advance to the
// next multiple of 8, as the layout rules count them).
func (L *lexed) indentCols(line int) int {
	w := 0
	for i := L.lineStart[line-1]; i < len(L.src); i++ {
		switch L.src[i] {
		case ' ':
			w++
		case '\t':
			w = (w/8 + 1) * 8
		default:
			return w
		}
	}
	return w
}

// blankBetween reports whether a blank line separates line a (the end of
// something) and line b (the start of something later).
func (L *lexed) blankBetween(a, b int) bool {
	for l := a + 1; l < b; l++ {
		if strings.TrimSpace(L.lineText(l)) == "" {
			return true
		}
	}
	return false
}

func (L *lexed) lineText(l int) string {
	start := L.lineStart[l-1]
	end := len(L.src)
	if l < len(L.lineStart) {
		end = L.lineStart[l] - 1
	}
	return string(L.src[start:end])
}

// scanTrivia finds the comments and attributes in every gap between real
// tokens. A gap holds nothing else but blanks in a file the parser
// accepted.
func (L *lexed) scanTrivia() error {
	pos := 0
	if len(L.src) >= 3 && L.src[0] == 0xEF && L.src[1] == 0xBB && L.src[2] == 0xBF {
		pos = 3 // byte order mark: dropped from the output
	}
	for i := 0; i <= len(L.toks); i++ {
		end := len(L.src)
		if i < len(L.toks) {
			end = L.toks[i].off
		}
		if err := L.scanGap(pos, end, i-1, i); err != nil {
			return err
		}
		if i < len(L.toks) {
			pos = L.toks[i].end
		}
	}
	// classify
	for ci := range L.comments {
		c := &L.comments[ci]
		prevLine, nextLine := -1, -1
		if c.prevTok >= 0 {
			prevLine = L.toks[c.prevTok].endLine
		}
		if c.nextTok < len(L.toks) {
			nextLine = L.toks[c.nextTok].line
		}
		switch {
		case c.line == prevLine && !(c.endLine == nextLine && !c.lineComment):
			c.kind = trailing
		case c.endLine == nextLine && !c.lineComment:
			c.kind = inlineLead
		default:
			c.kind = ownLine
		}
		c.col = L.indentCols(c.line)
		// a blank line after it, before the next token or comment
		after := nextLine
		if ci+1 < len(L.comments) && L.comments[ci+1].prevTok == c.prevTok {
			after = L.comments[ci+1].line
		}
		if after > 0 {
			c.blankAfter = L.blankBetween(c.endLine, after)
		} else {
			c.blankAfter = L.blankBetween(c.endLine, len(L.lineStart)+1)
		}
	}
	return nil
}

func (L *lexed) addComment(start, end, prev, next int, lineComment bool) {
	text := string(L.src[start:end])
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	L.comments = append(L.comments, comment{
		text: strings.Join(lines, "\n"), off: start, end: end,
		line: L.line(start), endLine: L.line(end - 1),
		prevTok: prev, nextTok: next, lineComment: lineComment,
	})
}

func (L *lexed) scanGap(pos, end, prev, next int) error {
	src := L.src
	for pos < end {
		c := src[pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			pos++
		case c == '#':
			s := pos
			for pos < end && src[pos] != '\n' {
				pos++
			}
			L.addComment(s, pos, prev, next, true)
		case c == '/' && pos+1 < end && src[pos+1] == '*':
			s := pos
			depth := 0
			for pos < end {
				if src[pos] == '/' && pos+1 < end && src[pos+1] == '*' {
					depth++
					pos += 2
					continue
				}
				if src[pos] == '*' && pos+1 < end && src[pos+1] == '/' {
					depth--
					pos += 2
					if depth == 0 {
						break
					}
					continue
				}
				pos++
			}
			if depth != 0 {
				return fmt.Errorf("unterminated block comment at offset %d", s)
			}
			L.addComment(s, pos, prev, next, false)
		case c == '@':
			s := pos
			pos++
			for pos < end {
				r, n := utf8.DecodeRune(src[pos:end])
				if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= utf8.RuneSelf) {
					break
				}
				pos += n
			}
			for pos < end && (src[pos] == ' ' || src[pos] == '\t') {
				pos++
			}
			e, err := skipString(src, pos, end)
			if err != nil {
				return err
			}
			pos = e
			L.addComment(s, pos, prev, next, false)
		default:
			return fmt.Errorf("unexpected %q between tokens at offset %d", c, pos)
		}
	}
	return nil
}

// skipString returns the end of the string literal starting at pos (an
// attribute's documentation string), following nested interpolations.
func skipString(src []byte, pos, end int) (int, error) {
	if pos >= end || src[pos] != '"' {
		return 0, fmt.Errorf("expected a string at offset %d", pos)
	}
	triple := pos+2 < end && src[pos+1] == '"' && src[pos+2] == '"'
	start := pos
	if triple {
		pos += 3
	} else {
		pos++
	}
	for pos < end {
		c := src[pos]
		switch {
		case triple && c == '"' && pos+2 < end && src[pos+1] == '"' && src[pos+2] == '"':
			return pos + 3, nil
		case !triple && c == '"':
			return pos + 1, nil
		case c == '\\':
			pos += 2
		case c == '{':
			// an interpolation: skip to the matching '}', through nested strings
			depth := 0
			for pos < end {
				d := src[pos]
				if d == '"' {
					e, err := skipString(src, pos, end)
					if err != nil {
						return 0, err
					}
					pos = e
					continue
				}
				if d == '{' {
					depth++
				} else if d == '}' {
					depth--
					if depth == 0 {
						pos++
						break
					}
				}
				pos++
			}
		default:
			pos++
		}
	}
	return 0, fmt.Errorf("unterminated string at offset %d", start)
}
