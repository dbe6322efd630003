package format

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

const (
	maxWidth    = 100 // columns, counted in code points
	indentWidth = 4
)

// nlKind says whether a pending line break may carry a blank line.
type nlKind int

const (
	nlPlain nlKind = iota // never a blank line
	nlItem                // one blank line when the source had at least one
	nlBlank               // always one blank line
)

// pstate is everything an attempt may change; try restores it.
type pstate struct {
	outLen          int
	cur             int // next real token to emit
	ci              int // next comment to place
	col             int // column after the last byte written
	lineIndent      int // indentation of the current output line
	lineStart       bool
	nlPending       bool
	nlIndent        int
	nlKind          nlKind
	pending         []int // trailing comments waiting for the end of the line
	lastSrcLine     int   // source line where the last emitted item ended
	lineEndsComment bool  // the current output line ends with a comment
	depth           int   // brackets open at this point of the output
	blockDepth      int   // depth where the innermost block started
	embedded        bool  // the innermost block is inside brackets
}

// printer writes the formatted file. It emits the source's real tokens in
// their order (checking each against the token it expects, so a printer
// bug cannot silently drop or invent code) and places every comment of
// the source as it passes the comment's position.
type printer struct {
	L       *lexed
	out     []byte
	s       pstate
	flat    int // >0 inside a one-line attempt
	noWidth int // >0 while a one-line print may exceed the width
}

// abortFlat unwinds a one-line attempt that cannot succeed.
type abortFlat struct{}

// printerBug is a panic value for an internal inconsistency.
type printerBug struct{ msg string }

func (p *printer) bug(format string, args ...any) {
	panic(printerBug{fmt.Sprintf(format, args...)})
}

func (p *printer) save() pstate {
	st := p.s
	st.outLen = len(p.out)
	st.pending = append([]int(nil), p.s.pending...)
	return st
}

func (p *printer) restore(st pstate) {
	p.out = p.out[:st.outLen]
	p.s = st
	p.s.pending = append([]int(nil), st.pending...)
}

// try prints f on the current line without any line break and keeps the
// result when it ends at least trail columns before the limit. Otherwise
// it undoes everything f did and returns false. Inside an enclosing
// attempt it just runs f: the outermost attempt decides.
func (p *printer) try(trail int, f func()) (ok bool) {
	if p.flat > 0 {
		f()
		return true
	}
	p.flushNL(p.nextItemLine())
	st := p.save()
	ok = p.flatRun(func() {
		f()
		if p.s.col+trail > maxWidth {
			panic(abortFlat{})
		}
	})
	if !ok {
		p.restore(st)
	}
	return ok
}

// measure returns the width f prints on one line (maxWidth+1 when it
// cannot print on one line), and undoes it.
func (p *printer) measure(f func()) (w int) {
	st := p.save()
	start := p.s.col
	w = maxWidth + 1
	p.flatRun(func() {
		f()
		w = p.s.col - start
	})
	p.restore(st)
	return w
}

// flatRun runs f as a one-line attempt and reports whether it finished
// without an abortFlat; any other panic passes through. It does not undo
// what f printed: the caller restores its saved state when it must.
func (p *printer) flatRun(f func()) (ok bool) {
	p.flat++
	defer func() {
		p.flat--
		if r := recover(); r != nil {
			if _, isAbort := r.(abortFlat); !isAbort {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// firstLineFits reports whether the output line that contains offset
// start (in p.out) ends within the limit.
func (p *printer) firstLineFits(start int) bool {
	ls := bytes.LastIndexByte(p.out[:start], '\n') + 1
	le := len(p.out)
	if i := bytes.IndexByte(p.out[start:], '\n'); i >= 0 {
		le = start + i
	}
	return utf8.RuneCount(p.out[ls:le]) <= maxWidth
}

// nl asks for a line break before the next item, which starts at indent.
func (p *printer) nl(indent int, k nlKind) {
	if p.flat > 0 {
		panic(abortFlat{})
	}
	p.s.nlPending = true
	p.s.nlIndent = indent
	p.s.nlKind = k
}

// nextItemLine is the source line of the next comment or token to print.
func (p *printer) nextItemLine() int {
	if p.s.ci < len(p.L.comments) {
		c := &p.L.comments[p.s.ci]
		if c.nextTok == p.s.cur && c.kind != trailing {
			return c.line
		}
	}
	if p.s.cur < len(p.L.toks) {
		return p.L.toks[p.s.cur].line
	}
	return p.s.lastSrcLine
}

// flushNL performs a pending line break: the trailing comments of the
// line, the newline, and a blank line when allowed and the source had one
// before nextLine.
func (p *printer) flushNL(nextLine int) {
	if !p.s.nlPending {
		return
	}
	if p.flat > 0 {
		panic(abortFlat{})
	}
	p.writePending()
	for len(p.out) > 0 && p.out[len(p.out)-1] == ' ' {
		p.out = p.out[:len(p.out)-1]
	}
	blank := p.s.nlKind == nlBlank || (p.s.nlKind == nlItem && p.L.blankBetween(p.s.lastSrcLine, nextLine))
	if len(p.out) > 0 {
		p.out = append(p.out, '\n')
		if blank {
			p.out = append(p.out, '\n')
		}
	}
	p.s.col = 0
	p.s.lineStart = true
	p.s.lineIndent = p.s.nlIndent
	p.s.nlPending = false
	p.s.lineEndsComment = false
}

// raw appends text (which may span lines) at the current position.
func (p *printer) raw(s string) {
	if s == "" {
		return
	}
	if p.s.lineStart {
		p.out = append(p.out, strings.Repeat(" ", p.s.lineIndent)...)
		p.s.col = p.s.lineIndent
		p.s.lineStart = false
	}
	p.out = append(p.out, s...)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		first := s[:strings.IndexByte(s, '\n')]
		if p.flat > 0 && p.noWidth == 0 && p.s.col+utf8.RuneCountInString(first) > maxWidth {
			panic(abortFlat{})
		}
		p.s.col = utf8.RuneCountInString(s[i+1:])
	} else {
		p.s.col += utf8.RuneCountInString(s)
	}
	if p.flat > 0 && p.noWidth == 0 && p.s.col > maxWidth {
		panic(abortFlat{})
	}
}

// sp writes one space between items on a line.
func (p *printer) sp() {
	if p.s.lineStart || p.s.nlPending {
		return
	}
	p.raw(" ")
}

func (p *printer) writePending() {
	if len(p.s.pending) > 0 && !p.s.lineStart {
		for len(p.out) > 0 && p.out[len(p.out)-1] == ' ' {
			p.out = p.out[:len(p.out)-1]
			p.s.col--
		}
	}
	for _, ci := range p.s.pending {
		c := &p.L.comments[ci]
		p.raw("  " + c.text)
		if c.endLine > p.s.lastSrcLine {
			p.s.lastSrcLine = c.endLine
		}
		p.s.lineEndsComment = true
	}
	p.s.pending = p.s.pending[:0]
}

// pendingNeedsBreak reports whether a waiting trailing comment must end
// its line (a `#` comment, or one that spans lines).
func (p *printer) pendingNeedsBreak() bool {
	for _, ci := range p.s.pending {
		c := &p.L.comments[ci]
		if c.lineComment || strings.Contains(c.text, "\n") {
			return true
		}
	}
	return false
}

// forceBreak starts a continuation line where the output would otherwise
// join what the source separated by a comment.
//
// The continuation is indented one step, except after a token that can
// open a block (`->`, `:`, `else`, `do`, `with`): a deeper line there would
// start one, so the code continues at the line's own indentation, which
// inside brackets the layout rules ignore.
func (p *printer) forceBreak(nextLine int) {
	ind := p.s.lineIndent + indentWidth
	if p.s.cur > 0 {
		switch p.L.toks[p.s.cur-1].val {
		case "->", ":", "else", "do", "with":
			ind = p.s.lineIndent
		}
	}
	p.nl(ind, nlPlain)
	p.flushNL(nextLine)
}

func isCloser(v string) bool {
	switch v {
	case ")", "]", "}", ",", ".", "?", ":":
		return true
	}
	return false
}

// inlineComment writes a block comment between two tokens on one line.
func (p *printer) inlineComment(c *comment, next string) {
	if p.flat > 0 && strings.Contains(c.text, "\n") {
		panic(abortFlat{})
	}
	if !p.s.lineStart && len(p.out) > 0 {
		switch p.out[len(p.out)-1] {
		case ' ', '(', '[', '{':
		default:
			p.raw(" ")
		}
	}
	p.raw(c.text)
	if !isCloser(next) {
		p.raw(" ")
	}
	if c.endLine > p.s.lastSrcLine {
		p.s.lastSrcLine = c.endLine
	}
}

// ownComment writes a comment on a line of its own and asks for a line
// break after it.
func (p *printer) ownComment(c *comment) {
	if p.flat > 0 {
		panic(abortFlat{})
	}
	if p.s.nlPending {
		p.flushNL(c.line)
	}
	if !p.s.lineStart {
		p.forceBreak(c.line)
	}
	p.raw(c.text)
	p.s.lastSrcLine = c.endLine
	p.s.lineEndsComment = true
	p.nl(p.s.lineIndent, nlItem)
}

// hasLeadingComments reports whether comments other than trailing ones
// come before the next token.
func (p *printer) hasLeadingComments() bool {
	return p.s.ci < len(p.L.comments) && p.L.comments[p.s.ci].nextTok == p.s.cur &&
		p.L.comments[p.s.ci].kind != trailing
}

// emit writes the next source token, which must be want ("" accepts any
// token), as text (the token itself, or "" to drop an optional comma).
func (p *printer) emit(want string, drop bool) {
	if p.s.cur >= len(p.L.toks) {
		p.bug("printer ran past the last token (wanted %q)", want)
	}
	t := &p.L.toks[p.s.cur]
	if want != "" && t.val != want {
		p.bug("printer expected %q at line %d, found %q", want, t.line, t.val)
	}
	comma := t.val == ","
	sticky := comma && !p.s.lineEndsComment && !p.s.lineStart && !p.hasLeadingComments()
	if !sticky {
		switch {
		case p.s.nlPending:
			p.flushNL(p.nextItemLine())
		case len(p.s.pending) > 0:
			if p.pendingNeedsBreak() {
				if p.flat > 0 {
					panic(abortFlat{})
				}
				p.forceBreak(p.nextItemLine())
			} else {
				for _, ci := range p.s.pending {
					p.inlineComment(&p.L.comments[ci], t.val)
				}
				p.s.pending = p.s.pending[:0]
			}
		}
	}
	// comments between the previous token and this one
	for p.s.ci < len(p.L.comments) && p.L.comments[p.s.ci].nextTok == p.s.cur {
		c := &p.L.comments[p.s.ci]
		switch c.kind {
		case ownLine:
			p.ownComment(c)
		case inlineLead:
			if p.s.nlPending {
				p.flushNL(c.line)
			}
			if p.s.lineStart {
				// A comment before the first token of a line would move
				// the token's column, which the layout rules measure.
				p.ownComment(c)
				break
			}
			p.inlineComment(c, t.val)
		default:
			p.s.pending = append(p.s.pending, p.s.ci)
		}
		p.s.ci++
	}
	if p.s.nlPending && !sticky {
		p.flushNL(t.line)
	}
	if !drop {
		p.raw(t.val)
		p.s.lineEndsComment = false
		if t.kind != kString {
			switch t.val {
			case "(", "[", "{", "%{":
				p.s.depth++
			case ")", "]", "}":
				p.s.depth--
			}
		}
	}
	p.s.cur++
	if t.endLine > p.s.lastSrcLine {
		p.s.lastSrcLine = t.endLine
	}
	p.queueTrailing()
}

// queueTrailing queues the trailing comments of the token just emitted:
// they wait for the end of the line.
func (p *printer) queueTrailing() {
	for p.s.ci < len(p.L.comments) {
		c := &p.L.comments[p.s.ci]
		if c.prevTok != p.s.cur-1 || c.kind != trailing {
			break
		}
		p.s.pending = append(p.s.pending, p.s.ci)
		p.s.ci++
	}
}

// tok emits the next token, which must be v.
func (p *printer) tok(v string) { p.emit(v, false) }

// word emits the next token whatever it is (a name or a literal).
func (p *printer) word() { p.emit("", false) }

// at reports whether the next token is v.
func (p *printer) at(v string) bool {
	return p.s.cur < len(p.L.toks) && p.L.toks[p.s.cur].val == v &&
		p.L.toks[p.s.cur].kind != kString
}

// dropComma consumes an optional comma without writing it.
func (p *printer) dropComma() {
	if p.at(",") {
		p.emit(",", true)
	}
}

// comma writes the comma that ends an element of a broken list: the
// source's own, or one the formatter adds.
func (p *printer) comma() {
	if p.at(",") {
		p.tok(",")
		return
	}
	if p.s.lineEndsComment || p.s.lineStart {
		p.flushNL(p.nextItemLine())
	}
	p.raw(",")
}

// claimComments prints the own-line comments that come before the next
// token and start at source column minCol or deeper, each on its own line
// at indent: the comments at the end of a block or a broken list.
func (p *printer) claimComments(indent, minCol int) {
	for p.s.ci < len(p.L.comments) {
		c := &p.L.comments[p.s.ci]
		if c.nextTok != p.s.cur || c.kind != ownLine || c.col < minCol {
			return
		}
		p.nl(indent, nlItem)
		p.flushNL(c.line)
		p.ownComment(c)
		p.s.ci++
	}
}

// finish places the comments after the last token and ends the file with
// exactly one newline.
func (p *printer) finish() {
	for p.s.ci < len(p.L.comments) {
		c := &p.L.comments[p.s.ci]
		if c.kind == trailing && !p.s.nlPending {
			p.s.pending = append(p.s.pending, p.s.ci)
		} else {
			if !p.s.lineStart || p.s.nlPending {
				p.nl(0, nlItem)
			}
			p.ownComment(c)
		}
		p.s.ci++
	}
	if p.s.nlPending {
		p.s.nlKind = nlPlain
		p.flushNL(0)
	}
	p.writePending()
	out := strings.TrimRight(string(p.out), "\n")
	p.out = p.out[:0]
	if out != "" {
		p.out = append(p.out, out...)
		p.out = append(p.out, '\n')
	}
}

// curIndent is the indentation of the line the next item goes on.
func (p *printer) curIndent() int {
	if p.s.nlPending {
		return p.s.nlIndent
	}
	return p.s.lineIndent
}
