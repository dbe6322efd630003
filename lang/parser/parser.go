// Package parser turns Morrow source into an *ast.File.
//
// The front end runs in four steps, each linear in the size of the file,
// streamed into each other (see Parse):
//
//  1. The base lexer (lexer.go) scans the file once, a token at a time,
//     collecting every lexical error (bad characters, unterminated strings
//     and comments, bad escapes, literal suffixes, …) instead of stopping at
//     the first. String literals are decoded here; the tokens of each
//     `{expr}` interpolation are lexed recursively and kept with the string.
//     `@doc`/`@moduledoc` attributes are recorded and dropped.
//  2. The layout pass (layout.go) applies docs/reference/syntax.md#layout: it keeps a stack
//     of frames (the file's suite, open brackets, and embedded suites opened
//     inside brackets by a line ending in `->`, a header `:`, `with`, `do` or
//     `else`) and emits NEWLINE, INDENT and DEDENT tokens. Every statement
//     ends with NEWLINE, a block is NEWLINE INDENT stmt+ DEDENT, and a line
//     that starts with `else`/`do` at the level of its header joins the
//     previous statement. It cuts the stream into declaration chunks, each
//     starting at a column-0 declaration line.
//  3. Each chunk is parsed separately, so one broken function does not hide
//     the errors of the next; when a function body has an error, its later
//     statements are parsed one by one as well. The grammar is written down
//     in the participle struct tags of grammar.go and matched by hand
//     (exprparse.go, declparse.go, braceparse.go), reading the chunk's
//     layout tokens in place (peek.go), into those structs, with
//     participle's semantics at
//     lookahead 0: wherever the grammar must look further than one token
//     to choose (a label before ':', a trailing comma before ')'), it says
//     so with an explicit (?= …) or (?! …) group, so a failure after
//     consuming a token is final and reported where it happened. An arm's
//     `->` always ends the guard or condition before it: there a
//     parenthesised operand is never a lambda, and in an arm's type
//     annotation `(A, B)` before the arm arrow is a tuple type. Matching by
//     hand made parsing about ten times faster than participle's
//     reflective matcher, and it builds every syntax error itself: an
//     UnexpectedTokenError whose Expect names what was wanted, which
//     errors.go translates into user words. Of participle, the parser
//     uses only public types: lexer.Token, NextMatch, the error types and
//     lexer.Definition (Definition). A declaration whose range already has
//     a lexical or
//     layout error gets no syntax error (follow-on suppression).
//     Out-of-scope declarations (module, import, const, trait, impl,
//     foreign) are not parsed; they become ast.UnsupportedDecl.
//  4. The lowering pass (lower.go) turns the grammar structs into lang/ast
//     once: binary operators (kept flat by the grammar) get their docs/reference/syntax.md#operators
//     precedence, pipes are desugared, unary minus is folded into literals
//     and range-checked, dotted uppercase chains become *ast.Path, and
//     parenthesised groups become unit, tuples or lambdas.
package parser

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Definition is Morrow's lexer as a participle lexer.Definition: the base
// lexer followed by the layout pass. Lexing diagnostics are dropped here;
// Parse reports them.
type Definition struct{}

// Symbols maps token type names used in the grammar to their types.
func (Definition) Symbols() map[string]lexer.TokenType {
	out := make(map[string]lexer.TokenType, len(symbols))
	for k, v := range symbols {
		out[k] = lexer.TokenType(v)
	}
	return out
}

// Lex tokenizes a whole file including layout tokens.
func (d Definition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexBytes(filename, b)
}

// LexBytes tokenizes src including layout tokens.
func (Definition) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	f := source.NewFile(filename, src)
	var dl diag.List
	s := &scanner{f: f, src: src, diags: &dl}
	raw := s.lexAll()
	l := &layout{f: f, diags: &dl}
	l.run(raw)
	return &sliceLexer{toks: l.out, eof: eofAt(f)}, nil
}

func eofAt(f *source.File) lexer.Token {
	n := len(f.Src)
	p := f.Position(n)
	return lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Filename: f.Name, Offset: n, Line: p.Line, Column: p.Column}}
}

// sliceLexer replays a token slice and then a real EOF.
type sliceLexer struct {
	toks []lexer.Token
	i    int
	eof  lexer.Token
}

func (s *sliceLexer) Next() (lexer.Token, error) {
	if s.i < len(s.toks) {
		s.i++
		return s.toks[s.i-1], nil
	}
	return s.eof, nil
}

var unsupportedKinds = map[string]bool{
	"module": true, "import": true, "const": true, "trait": true, "impl": true, "foreign": true,
}

// Parse parses one file. It always returns a (possibly partial) tree and
// every syntax diagnostic it found. Declarations with syntax errors are
// left out of the tree.
//
// The steps stream into each other: the scanner hands the layout pass one
// token at a time, and the layout pass hands each completed declaration
// chunk to the parser, so neither the raw tokens nor the layout tokens of
// the whole file are ever held at once.
func Parse(f *source.File) (*ast.File, diag.List) {
	var dl diag.List
	file := &ast.File{Pos: ast.Pos{S: source.Span{Start: 0, End: len(f.Src)}}, Src: f}
	if len(f.Src) > maxSourceBytes {
		// Readers stop after limit+1 bytes (source.ReadLimited), so the
		// size past the limit is unknown: the message states the limit.
		dl.Add(f, ErrTooLarge, source.Span{}, "source file is larger than the 1 MiB limit (%d bytes)", maxSourceBytes)
		return file, dl
	}
	// The lexical diagnostics are kept apart: a file over the token limit
	// reports them and the limit only.
	var pdl diag.List
	s := &scanner{f: f, src: f.Src, diags: &dl}
	lw := &lowerer{f: f, diags: &pdl, strs: map[int]*strLit{}, a: &arena{}}
	fp := &fileParser{f: f, dl: &pdl, file: file, lw: lw, scan: s}
	fp.lay = &layout{f: f, diags: &pdl, lexErrs: &s.errOffs, out: make([]lexer.Token, 0, 256), flush: fp.take}
	s.begin()
	var slots [2]tok // the current and the previous token (runFrom's contract)
	n := 0
	fp.lay.runFrom(func() *tok {
		if s.count > maxTokens {
			return nil
		}
		t, ok := s.next(false)
		if !ok {
			return nil
		}
		if t.str != nil {
			registerStrings(lw.strs, []tok{t})
		}
		slot := &slots[n&1]
		n++
		*slot = t
		return slot
	})
	if s.count > maxTokens {
		for _, ok := s.next(false); ok; _, ok = s.next(false) {
		}
		file.Decls = nil
		dl.Add(f, ErrTooManyTokens, source.Span{}, "source file has more than the %s-token limit", tokenLimitString)
		return file, dl
	}
	if fp.pending != nil {
		fp.chunk(fp.pending, fp.lay.errOffs[fp.pendingMark:])
	}
	dl = append(dl, pdl...)
	dl.Sort()
	return file, dl
}

// fileParser parses the declarations of one file as the layout pass
// completes them, one chunk behind: a chunk's last tokens (the DEDENTs
// that close it) sit at the first token of the next chunk, so a layout
// error reported while the next chunk is laid out (an unmatched or unclosed
// bracket there) still counts as inside it. Two token buffers alternate
// between the layout pass and the parser, so the file's token stream is
// never held whole.
type fileParser struct {
	f      *source.File
	dl     *diag.List
	file   *ast.File
	lw     *lowerer
	lay    *layout
	scan   *scanner // its docs and lexical errors so far
	docIdx int      // docs already attached

	pending     []lexer.Token // the chunk before the one being laid out; nil if none
	pendingMark int           // layout errors reported before pending was laid out
	mark        int           // layout errors reported before the chunk being laid out
}

// take receives a complete chunk from the layout pass, parses the chunk
// before it, and hands that chunk's buffer back for the next one.
func (fp *fileParser) take(toks []lexer.Token) []lexer.Token {
	free := fp.pending
	if free != nil {
		fp.chunk(free, fp.lay.errOffs[fp.pendingMark:])
	} else {
		free = make([]lexer.Token, 0, cap(toks))
	}
	fp.pending, fp.pendingMark = toks, fp.mark
	fp.mark = len(fp.lay.errOffs)
	return free[:0]
}

// chunk parses the tokens of one top-level declaration. layErrs holds
// the layout errors that can lie in it (those reported since the chunk
// before it was complete). The buffer is reused afterwards: nothing here
// keeps toks.
func (fp *fileParser) chunk(toks []lexer.Token, layErrs []int) {
	f, dl, lw := fp.f, fp.dl, fp.lw
	// The declaration's grammar structs are unreachable once it is
	// lowered (or its errors reported): its arena is free again.
	defer lw.a.reset()
	for len(toks) > 0 && synthetic(toks[0].Type) {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return
	}
	cstart := toks[0].Pos.Offset
	lastOff := toks[len(toks)-1].Pos.Offset
	hasLexErr := rangeHas(fp.scan.errOffs, cstart, lastOff+1)
	for _, o := range layErrs {
		hasLexErr = hasLexErr || o >= cstart && o <= lastOff
	}
	if d, ok := moduleOrImport(f, dl, toks, hasLexErr); ok {
		if d != nil {
			fp.file.Decls = append(fp.file.Decls, d)
		}
		return
	}
	if d := unsupported(toks); d != nil {
		fp.file.Decls = append(fp.file.Decls, d)
		return
	}
	if !startsDeclToken(toks[0]) {
		if !hasLexErr {
			d := dl.Add(f, ErrTopLevel, tokSpan(toks[0]), "expected a declaration (fn, type or newtype) at the top level, found %s", describe(toks[0]))
			switch toks[0].Value {
			case "def", "func", "fun", "function", "fn_", "proc", "defp":
				d.Hint = "did you mean 'fn'? functions are declared `fn name(params):`"
			case "class", "struct", "record", "enum", "data":
				d.Hint = "did you mean 'type'? records and sums are declared `type Name:` with an indented list of fields or variants"
			}
		}
		return
	}
	g, err := parseChunk(lw.a, toks)
	if err != nil {
		if !hasLexErr {
			translate(dl, f, toks, err)
			lw.recoverStatements(toks, err)
		}
		return
	}
	d := lw.decl(g)
	if d == nil {
		return
	}
	// attach the @doc written between the previous declaration and this one
	doc := ""
	docs := fp.scan.docs
	for fp.docIdx < len(docs) && docs[fp.docIdx].start < d.Span().Start {
		if !docs[fp.docIdx].module {
			doc = docs[fp.docIdx].text
		}
		fp.docIdx++
	}
	if fd, ok := d.(*ast.FnDecl); ok {
		fd.Docs = doc
	}
	fp.file.Decls = append(fp.file.Decls, d)
}

// rangeHas reports whether a sorted offset list has an entry in [lo, hi).
func rangeHas(offs []int, lo, hi int) bool {
	i := sort.SearchInts(offs, lo)
	return i < len(offs) && offs[i] < hi
}

func registerStrings(m map[int]*strLit, toks []tok) {
	for i := range toks {
		if toks[i].str != nil {
			m[toks[i].start] = toks[i].str
			for _, p := range toks[i].str.parts {
				registerStrings(m, p.toks)
			}
		}
	}
}

func startsDeclToken(t lexer.Token) bool {
	return t.Type == tKeyword && (t.Value == "fn" || t.Value == "pub" || t.Value == "type" || t.Value == "newtype")
}

// unsupported recognizes an out-of-scope declaration and skips its body.
func unsupported(toks []lexer.Token) ast.Decl {
	i := 0
	if toks[0].Type == tKeyword && toks[0].Value == "pub" && len(toks) > 1 {
		i = 1
	}
	t := toks[i]
	if (t.Type == tKeyword || t.Type == tIdent) && unsupportedKinds[t.Value] {
		if t.Type == tIdent && t.Value != "foreign" {
			return nil
		}
		return &ast.UnsupportedDecl{Pos: ast.Pos{S: span(toks)}, Feature: t.Value}
	}
	return nil
}

// parseRange matches one whole token range (a declaration, a recovered
// statement, an interpolation; toks ends with an EOF token) with match,
// and checks what participle checked for the root of a grammar: nothing
// matched at the first token, or a token left over after the match
// (NEWLINEs aside when skipNewlines), is an UnexpectedTokenError without
// an expectation. A panic in a matcher becomes a ParseError whose message
// starts with panicPrefix.
func parseRange(a *arena, toks []lexer.Token, skipNewlines bool, panicPrefix string, match func(*cursor) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &participle.ParseError{Msg: fmt.Sprint(panicPrefix, r), Pos: toks[0].Pos}
		}
	}()
	lex := newCursor(toks, a)
	if err := match(lex); err == participle.NextMatch {
		return &participle.UnexpectedTokenError{Unexpected: *lex.Peek()}
	} else if err != nil {
		return err
	}
	for skipNewlines && lex.Peek().Type == tNewline {
		lex.Next()
	}
	if t := lex.Peek(); !t.EOF() {
		return &participle.UnexpectedTokenError{Unexpected: *t}
	}
	return nil
}

// parseChunk matches one declaration's tokens: `decl NEWLINE*`. toks is
// the layout pass's buffer, which the parser owns meanwhile: the EOF token
// is appended in place.
func parseChunk(a *arena, toks []lexer.Token) (*gDecl, error) {
	g := &gDecl{}
	eof := lexer.Token{Type: lexer.EOF, Pos: toks[len(toks)-1].Pos}
	if err := parseRange(a, append(toks, eof), true, "internal parser error: ", g.Parse); err != nil {
		return nil, err
	}
	return g, nil
}

// recoverStatements looks for more syntax errors in a declaration whose
// parse failed: every statement of the body after the one that holds the
// error is parsed (and lowered) on its own, so independent mistakes in one
// function are all reported. A statement starts after a NEWLINE at the
// body's depth and at a real token, never inside a nested block, so errors
// do not cascade out of the broken statement.
func (lw *lowerer) recoverStatements(toks []lexer.Token, err error) {
	var ute *participle.UnexpectedTokenError
	if !errors.As(err, &ute) {
		return
	}
	errIdx := indexOfToken(toks, ute.Unexpected)
	// the body is the tokens after the declaration's first INDENT
	depth, i := 0, 0
	for ; i < len(toks) && toks[i].Type != tIndent; i++ {
	}
	if i >= errIdx || i == len(toks) {
		return // the error is in the header
	}
	depth = 1
	i++
	start := -1 // start of the statement being collected
	for ; i < len(toks); i++ {
		t := toks[i]
		switch int(t.Type) {
		case tIndent:
			depth++
			continue
		case tDedent:
			depth--
			if depth == 0 {
				return
			}
			continue
		case tNewline:
			if depth == 1 && start >= 0 && !(i+1 < len(toks) && toks[i+1].Type == tIndent) {
				lw.parseStatement(toks[start : i+1])
				start = -1
			}
			continue
		}
		if depth == 1 && start < 0 && i > errIdx && toks[i-1].Type == tNewline {
			start = i
		}
	}
}

// parseStatement parses one recovered statement and lowers it for its
// diagnostics; the tree is discarded.
func (lw *lowerer) parseStatement(toks []lexer.Token) {
	g := &gStmt{}
	eof := lexer.Token{Type: lexer.EOF, Pos: toks[len(toks)-1].Pos}
	if err := parseRange(lw.a, append(toks[:len(toks):len(toks)], eof), false, "", g.Parse); err != nil {
		translate(lw.diags, lw.f, toks, err)
		return
	}
	lw.stmt(g)
}

// interp parses the tokens of one string interpolation as an expression.
func (lw *lowerer) interp(part strPart) (x ast.Expr) {
	if len(part.toks) == 0 {
		return nil
	}
	toks := make([]lexer.Token, 0, len(part.toks)+1)
	for _, t := range part.toks {
		toks = append(toks, lexer.Token{Type: lexer.TokenType(t.kind), Value: t.text,
			Pos: lexer.Position{Filename: lw.f.Name, Offset: t.start, Line: t.line, Column: t.col}})
	}
	end := part.end - 1
	if end < part.start {
		end = part.start
	}
	eof := lexer.Token{Type: lexer.EOF, Value: "}", Pos: lexer.Position{Filename: lw.f.Name, Offset: end}}
	g := &gExpr{}
	if err := parseRange(lw.a, append(toks, eof), false, "", g.Parse); err != nil {
		translateInterp(lw.diags, lw.f, toks, err)
		return nil
	}
	return lw.expr(g)
}
