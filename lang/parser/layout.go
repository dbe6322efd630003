package parser

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// frame is one level of the layout stack: an open bracket, or a suite
// (the file itself, or an embedded suite opened inside brackets).
type frame struct {
	opener   *tok // bracket frames: the opening token (open); nil for suites
	open     tok
	role     string // bracket frames: "call", "list", … for messages
	hdr      bool   // bracket frame: an if/match/for/else header is open at this depth
	base     int    // embedded suite: indentation of the header line
	levels   []int
	embedded bool
}

// layout turns raw tokens into the parser's token stream with NEWLINE,
// INDENT and DEDENT, and records where top-level declarations start.
type layout struct {
	f      *source.File
	diags  *diag.List
	out    []lexer.Token
	stack  []*frame
	chunks []int // indexes in out where a column-0 declaration line starts
	// flush, when set, receives the tokens of each declaration chunk as
	// soon as the chunk is complete (when the next one starts, or at the
	// end of the file) and returns an empty buffer for the next chunk;
	// chunks then stays empty. Tokens before the first chunk are dropped.
	flush      func(toks []lexer.Token) []lexer.Token
	inChunk    bool
	errOffs    []int
	lineIndent int // indentation of the current physical line
	prev       *tok
	lexErrs    *[]int // sorted offsets of lexical errors (for suppression); may be nil
}

func (l *layout) errorf(code diag.Code, start, end int, format string, args ...any) {
	l.diags.Add(l.f, code, source.Span{Start: start, End: end}, format, args...)
	l.errOffs = append(l.errOffs, start)
}

func (l *layout) emit(kind int, text string, t *tok, off int) {
	pos := lexer.Position{Filename: l.f.Name, Offset: off}
	if t != nil {
		pos.Line, pos.Column = t.line, t.col
		if off != t.start {
			pos.Column += off - t.start
		}
	}
	l.out = append(l.out, lexer.Token{Type: lexer.TokenType(kind), Value: text, Pos: pos})
}

func (l *layout) top() *frame { return l.stack[len(l.stack)-1] }

func isCloser(t *tok) bool {
	return t.kind == tPunct && (t.text == ")" || t.text == "]" || t.text == "}")
}

func isOpener(t *tok) bool {
	return t.kind == tPunct && (t.text == "(" || t.text == "[" || t.text == "{" || t.text == "%{")
}

func closerFor(open string) string {
	switch open {
	case "(":
		return ")"
	case "[":
		return "]"
	}
	return "}"
}

// introducesSuite reports whether a line inside brackets that ends with p
// opens an embedded suite (docs/reference/syntax.md#layout).
func introducesSuite(p *tok, fr *frame) bool {
	switch {
	case p.kind == tPunct && p.text == "->":
		return true
	case p.kind == tPunct && p.text == ":":
		return fr.hdr
	case p.kind == tKeyword && (p.text == "with" || p.text == "do" || p.text == "else"):
		return true
	}
	return false
}

var declStarters = map[string]bool{
	"fn": true, "type": true, "newtype": true, "pub": true, "module": true, "import": true,
	"const": true, "trait": true, "impl": true,
}

func startsDecl(t *tok) bool {
	return (t.kind == tKeyword && declStarters[t.text]) || (t.kind == tIdent && t.text == "foreign")
}

// continues reports whether a line starting with t continues the previous
// logical line instead of starting a new statement: `|>`, a binary
// operator that cannot begin an expression (not `-`, which is also unary,
// nor the range operators), `and`/`or`, or a postfix `?`. After an
// indented block (a line less indented than the block), the continuation
// applies to the whole expression that owns the block: the `if` or
// `match` whose suite just ended (docs/checker.md "Layout").
func continues(t *tok) bool {
	switch t.kind {
	case tOp:
		return binaryOps[t.text] && t.text != "-" && t.text != ".." && t.text != "..="
	case tKeyword:
		return t.text == "and" || t.text == "or"
	case tPunct:
		return t.text == "?"
	}
	return false
}

// joinsPrevious reports whether a line starting with t attaches to the
// previous statement without a NEWLINE (`else:` after an if body, `do`
// after a with header).
func joinsPrevious(t *tok) bool {
	return t.kind == tKeyword && (t.text == "else" || t.text == "do")
}

// closeSuite emits the tokens that end an embedded suite (or the file's
// suite at EOF): NEWLINE, then DEDENT NEWLINE for each inner level, then a
// final DEDENT for the suite itself (no NEWLINE: a ',' or bracket follows).
func (l *layout) closeSuite(fr *frame, at *tok, off int) {
	l.emit(tNewline, "\n", at, off)
	for len(fr.levels) > 1 {
		fr.levels = fr.levels[:len(fr.levels)-1]
		l.emit(tDedent, "", at, off)
		l.emit(tNewline, "\n", at, off)
	}
	l.emit(tDedent, "", at, off)
	l.stack = l.stack[:len(l.stack)-1]
}

// lineStart applies the layout rules at the first token of a physical line.
func (l *layout) lineStart(t, prev *tok) {
	fr := l.top()
	if fr.opener != nil {
		// inside brackets: newlines are ignored unless an embedded suite opens
		if prev != nil && introducesSuite(prev, fr) && t.indent > l.lineIndent && !isCloser(t) && !(t.kind == tPunct && t.text == ",") {
			l.emit(tNewline, "\n", prev, prev.end)
			l.emit(tIndent, "", t, t.start)
			l.stack = append(l.stack, &frame{embedded: true, base: l.lineIndent, levels: []int{t.indent}})
		}
		return
	}
	if continues(t) && t.indent >= fr.levels[len(fr.levels)-1] {
		return
	}
	if fr.embedded && (isCloser(t) || (t.kind == tPunct && t.text == ",")) {
		return // the token itself closes the suite
	}
	if fr.embedded && t.indent <= fr.base {
		// indentation drops back to the header line: the suite ends and the
		// enclosing brackets continue
		l.closeSuite(fr, t, t.start)
		return
	}
	cur := fr.levels[len(fr.levels)-1]
	nlOff := prev.end
	switch {
	case t.indent > cur:
		l.emit(tNewline, "\n", prev, nlOff)
		l.emit(tIndent, "", t, t.start)
		fr.levels = append(fr.levels, t.indent)
	case t.indent == cur:
		if !joinsPrevious(t) {
			l.emit(tNewline, "\n", prev, nlOff)
		}
	default:
		l.emit(tNewline, "\n", prev, nlOff)
		for len(fr.levels) > 1 && t.indent < fr.levels[len(fr.levels)-1] {
			fr.levels = fr.levels[:len(fr.levels)-1]
			l.emit(tDedent, "", t, t.start)
			last := len(fr.levels) == 1 || t.indent >= fr.levels[len(fr.levels)-1]
			if !(last && (joinsPrevious(t) || continues(t)) && t.indent == fr.levels[len(fr.levels)-1]) {
				l.emit(tNewline, "\n", t, t.start)
			}
		}
		if t.indent != fr.levels[len(fr.levels)-1] {
			l.errorf(ErrInconsistentDent, t.start, t.end, "inconsistent indentation")
		}
	}
}

// lexErrList returns the sorted offsets of the lexical errors so far.
func (l *layout) lexErrList() []int {
	if l.lexErrs == nil {
		return nil
	}
	return *l.lexErrs
}

// run performs the layout pass over all raw tokens.
func (l *layout) run(toks []tok) {
	i := 0
	l.runFrom(func() *tok {
		if i == len(toks) {
			return nil
		}
		i++
		return &toks[i-1]
	})
}

// runFrom performs the layout pass over the tokens that next returns, one
// at a time, until it returns nil. A token must stay valid until next has
// been called twice more: the pass looks back at the previous token only.
func (l *layout) runFrom(next func() *tok) {
	l.stack = []*frame{{levels: []int{0}}}
	var prev *tok
	for t := next(); t != nil; t = next() {
		if t.first {
			if prev == nil {
				if t.indent > 0 {
					l.errorf(ErrUnexpectedIndent, t.start, t.end, "unexpected indentation")
				}
			} else {
				if t.indent == 0 && startsDecl(t) && len(l.stack) > 1 {
					l.unwindUnclosed(t)
				}
				l.lineStart(t, prev)
			}
			// A continuation line (`|>`, `else`, `do`) joins the chunk
			// before it; before the first chunk there is none, so it starts
			// one, which the parser then reports as not a declaration.
			if len(l.stack) == 1 && t.indent == 0 && (!continues(t) && !joinsPrevious(t) || !l.started()) {
				l.startChunk()
			}
			l.lineIndent = t.indent
		}
		l.token(t)
		prev = t
		l.prev = t
	}
	// end of file: close brackets and suites
	end := len(l.f.Src)
	if len(l.stack) > 1 {
		l.unwindUnclosed(nil)
	}
	if prev != nil {
		fr := l.top()
		l.emit(tNewline, "\n", prev, prev.end)
		for len(fr.levels) > 1 {
			fr.levels = fr.levels[:len(fr.levels)-1]
			l.emit(tDedent, "", prev, end)
			l.emit(tNewline, "\n", prev, end)
		}
	}
	if l.flush != nil && l.inChunk {
		l.flush(l.out)
	}
}

// started reports whether a chunk has been started.
func (l *layout) started() bool {
	if l.flush == nil {
		return len(l.chunks) > 0
	}
	return l.inChunk
}

// startChunk records that a column-0 declaration line starts at the next
// token: everything emitted since the previous start (including the
// NEWLINE and DEDENT tokens that close it) is the previous chunk.
func (l *layout) startChunk() {
	if l.flush == nil {
		l.chunks = append(l.chunks, len(l.out))
		return
	}
	if l.inChunk {
		l.out = l.flush(l.out)
	}
	l.out = l.out[:0]
	l.inChunk = true
}

// unwindUnclosed reports brackets still open at a new declaration (or at
// EOF) and drops them, so the following declarations parse on their own.
func (l *layout) unwindUnclosed(at *tok) {
	for i := 1; i < len(l.stack); i++ {
		fr := l.stack[i]
		if fr.opener != nil {
			o := fr.opener
			if end := len(l.f.Src); at != nil {
				end = at.start
				if rangeHas(l.lexErrList(), o.start, end) {
					break // a lexical error inside explains it
				}
			} else if rangeHas(l.lexErrList(), o.start, end+1) {
				break
			}
			l.errorf(ErrUnclosed, o.start, o.end, "expected '%s' to close the %s opened here", closerFor(o.text), fr.role)
			break
		}
	}
	l.stack = l.stack[:1]
}

// bracketRole names what an opening bracket starts, for messages.
func bracketRole(o, before *tok) string {
	switch o.text {
	case "[":
		if before != nil && endsOperand(before) {
			return "index"
		}
		return "list"
	case "%{", "{":
		return "braces"
	}
	if before != nil && endsOperand(before) {
		return "call"
	}
	if before != nil && before.kind == tIdent {
		return "call"
	}
	return "parenthesis"
}

func endsOperand(t *tok) bool {
	switch t.kind {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.text == "spawn" || t.text == "send" || t.text == "true" || t.text == "false"
	case tPunct:
		return t.text == ")" || t.text == "]" || t.text == "}" || t.text == "?"
	}
	return false
}

var headerWords = map[string]bool{"if": true, "match": true, "for": true, "else": true, "receive": true, "receive_event": true}

// token handles brackets and suite closing for one token, then emits it.
func (l *layout) token(t *tok) {
	fr := l.top()
	switch {
	case isOpener(t):
		if len(l.stack) == maxBracketDepth+1 {
			l.errorf(ErrNestingDepth, t.start, t.end, "brackets are nested too deeply")
		}
		fr := &frame{open: *t, role: bracketRole(t, l.prev)}
		fr.opener = &fr.open // a copy: the token itself may not outlive the next two
		l.stack = append(l.stack, fr)
	case isCloser(t):
		for fr.embedded {
			l.closeSuite(fr, t, t.start)
			fr = l.top()
		}
		if fr.opener == nil {
			l.errorf(ErrUnmatched, t.start, t.end, "unmatched '%s'", t.text)
			return // dropped
		}
		if closerFor(fr.opener.text) != t.text {
			l.errorf(ErrUnmatched, t.start, t.end, "'%s' does not close the '%s' opened on line %d", t.text, fr.opener.text, fr.opener.line)
		}
		l.stack = l.stack[:len(l.stack)-1]
	case t.kind == tPunct && t.text == ",":
		if fr.embedded {
			l.closeSuite(fr, t, t.start)
			fr = l.top()
		}
		if fr.opener != nil {
			fr.hdr = false
		}
	case t.kind == tKeyword && headerWords[t.text]:
		if fr.opener != nil {
			fr.hdr = true
		}
	}
	l.emit(t.kind, t.text, t, t.start)
}
