// Package parser turns Morrow source into an *ast.File.
//
// The front end runs in four steps, each linear in the size of the file:
//
//  1. The base lexer (lexer.go) scans the whole file once into raw tokens,
//     collecting every lexical error (bad characters, unterminated strings
//     and comments, bad escapes, literal suffixes, …) instead of stopping at
//     the first. String literals are decoded here; the tokens of each
//     `{expr}` interpolation are lexed recursively and kept with the string.
//     `@doc`/`@moduledoc` attributes are recorded and dropped.
//  2. The layout pass (layout.go) applies LANGUAGE.md §1.4: it keeps a stack
//     of frames (the file's suite, open brackets, and embedded suites opened
//     inside brackets by a line ending in `->`, a header `:`, `with`, `do` or
//     `else`) and emits NEWLINE, INDENT and DEDENT tokens. Every statement
//     ends with NEWLINE, a block is NEWLINE INDENT stmt+ DEDENT, and a line
//     that starts with `else`/`do` at the level of its header joins the
//     previous statement. It also records where each column-0 declaration
//     starts.
//  3. Each declaration's token range is parsed separately by a participle
//     grammar (grammar.go) through lexer.Definition, so one broken function
//     does not hide the errors of the next; when a function body has an
//     error, its later statements are parsed one by one as well. The
//     grammar runs with lookahead 0 and explicit (?= …)/(?! …) groups, so a
//     failure after consuming a token is final and reported where it
//     happened. The high-traffic productions (declaration headers,
//     parameters, statements, bodies, expressions, if/match/receive/for/
//     return, fn-lambdas, types and patterns) implement participle.Parseable
//     and are matched by hand in exprparse.go, on participle's own token
//     stream and into the same grammar structs; participle keeps the rest
//     (type and newtype bodies, with, %{…}) and the overall control. An
//     arm's `->` always ends the guard or condition before it: there a
//     parenthesised operand is never a lambda, and in an arm's type
//     annotation `(A, B)` before the arm arrow is a tuple type.
//     This made parsing about ten times faster. Participle's error is
//     translated into user words (errors.go). A declaration whose range
//     already has a lexical error gets no syntax error (follow-on
//     suppression). Out-of-scope declarations (module, import, const,
//     trait, impl, foreign) are not parsed; they become ast.UnsupportedDecl.
//  4. The lowering pass (lower.go) turns participle's structs into lang/ast
//     once: binary operators (kept flat by the grammar) get their §3.7
//     precedence, pipes are desugared, unary minus is folded into literals
//     and range-checked, dotted uppercase chains become *ast.Path, and
//     parenthesised groups become unit, tuples or lambdas.
package parser

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

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

// parsers holds the participle parsers, built once.
type parsers struct {
	chunk *participle.Parser[gChunk]
	expr  *participle.Parser[gExprOnly]
	stmt  *participle.Parser[gStmtOnly]

	// sub-parsers the hand-matched expression code (exprparse.go) hands
	// compound constructs to
	typeDeclP *participle.Parser[gTypeDecl]
	newtypeP  *participle.Parser[gNewtype]
	braceP    *participle.Parser[gBrace]
	withP     *participle.Parser[gWith]
}

var (
	buildOnce sync.Once
	built     *parsers
)

// lookahead bounds participle's backtracking. The grammar is LL: wherever
// it must look further than one token to choose (a label before ':', a
// trailing comma before ')'), it says so with an explicit (?= …) or (?! …)
// group, so any alternative that consumed a token and then failed is a real
// error, reported at the deepest point reached.
const lookahead = 0

func getParsers() *parsers {
	buildOnce.Do(func() {
		opts := []participle.Option{participle.Lexer(Definition{}), participle.UseLookahead(lookahead)}
		built = &parsers{
			chunk: participle.MustBuild[gChunk](opts...),
			expr:  participle.MustBuild[gExprOnly](opts...),
			stmt:  participle.MustBuild[gStmtOnly](opts...),

			typeDeclP: participle.MustBuild[gTypeDecl](opts...),
			newtypeP:  participle.MustBuild[gNewtype](opts...),
			braceP:    participle.MustBuild[gBrace](opts...),
			withP:     participle.MustBuild[gWith](opts...),
		}
	})
	return built
}

var unsupportedKinds = map[string]bool{
	"module": true, "import": true, "const": true, "trait": true, "impl": true, "foreign": true,
}

// Parse parses one file. It always returns a (possibly partial) tree and
// every syntax diagnostic it found. Declarations with syntax errors are
// left out of the tree.
func Parse(f *source.File) (*ast.File, diag.List) {
	var dl diag.List
	file := &ast.File{Pos: ast.Pos{S: source.Span{Start: 0, End: len(f.Src)}}, Src: f}
	if len(f.Src) > maxSourceBytes {
		// Readers stop after limit+1 bytes (source.ReadLimited), so the
		// size past the limit is unknown: the message states the limit.
		dl.Add(f, ErrTooLarge, source.Span{}, "source file is larger than the 1 MiB limit (%d bytes)", maxSourceBytes)
		return file, dl
	}
	s := &scanner{f: f, src: f.Src, diags: &dl}
	raw := s.lexAll()
	if s.count > maxTokens {
		dl.Add(f, ErrTooManyTokens, source.Span{}, "source file has more than the %s-token limit", tokenLimitString)
		return file, dl
	}
	sort.Ints(s.errOffs)
	lay := &layout{f: f, diags: &dl, lexErrs: s.errOffs, out: make([]lexer.Token, 0, len(raw)+len(raw)/4+8)}
	lay.run(raw)

	errOffs := append(append([]int(nil), s.errOffs...), lay.errOffs...)
	sort.Ints(errOffs)

	lw := &lowerer{f: f, diags: &dl, strs: map[int]*strLit{}, p: getParsers()}
	registerStrings(lw.strs, raw)

	chunks := lay.chunks
	out := lay.out
	docIdx := 0
	for ci, start := range chunks {
		end := len(out)
		if ci+1 < len(chunks) {
			end = chunks[ci+1]
		}
		toks := out[start:end]
		for len(toks) > 0 && synthetic(toks[0].Type) {
			toks = toks[1:]
		}
		if len(toks) == 0 {
			continue
		}
		cstart := toks[0].Pos.Offset
		lastOff := toks[len(toks)-1].Pos.Offset
		hasLexErr := rangeHas(errOffs, cstart, lastOff+1)
		if d := unsupported(toks); d != nil {
			file.Decls = append(file.Decls, d)
			continue
		}
		if !startsDeclToken(toks[0]) {
			if !hasLexErr {
				dl.Add(f, ErrTopLevel, tokSpan(toks[0]), "expected a declaration (fn, type or newtype) at the top level, found %s", describe(toks[0]))
			}
			continue
		}
		g, err := lw.p.parseChunk(toks)
		if err != nil {
			if !hasLexErr {
				translate(&dl, f, toks, err)
				lw.recoverStatements(toks, err)
			}
			continue
		}
		d := lw.decl(g.Decl)
		if d == nil {
			continue
		}
		// attach the @doc written between the previous declaration and this one
		doc := ""
		for docIdx < len(s.docs) && s.docs[docIdx].start < d.Span().Start {
			if !s.docs[docIdx].module {
				doc = s.docs[docIdx].text
			}
			docIdx++
		}
		if fd, ok := d.(*ast.FnDecl); ok {
			fd.Docs = doc
		}
		file.Decls = append(file.Decls, d)
	}
	dl.Sort()
	return file, dl
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

// parseChunk runs the declaration grammar over one declaration's tokens.
func (p *parsers) parseChunk(toks []lexer.Token) (g *gChunk, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, &participle.ParseError{Msg: fmt.Sprint("internal parser error: ", r), Pos: toks[0].Pos}
		}
	}()
	eof := lexer.Token{Type: lexer.EOF, Pos: toks[len(toks)-1].Pos}
	return p.chunk.ParseFromLexer(newPeeking(toks, eof))
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
	var g *gStmtOnly
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = &participle.ParseError{Msg: fmt.Sprint(r), Pos: toks[0].Pos}
			}
		}()
		eof := lexer.Token{Type: lexer.EOF, Pos: toks[len(toks)-1].Pos}
		g, err = lw.p.stmt.ParseFromLexer(newPeeking(toks, eof))
	}()
	if err != nil {
		translate(lw.diags, lw.f, toks, err)
		return
	}
	lw.stmt(g.S)
}

// interp parses the tokens of one string interpolation as an expression.
func (p *parsers) interp(lw *lowerer, part strPart) (x ast.Expr) {
	if len(part.toks) == 0 {
		return nil
	}
	toks := make([]lexer.Token, 0, len(part.toks))
	for _, t := range part.toks {
		toks = append(toks, lexer.Token{Type: lexer.TokenType(t.kind), Value: t.text,
			Pos: lexer.Position{Filename: lw.f.Name, Offset: t.start, Line: t.line, Column: t.col}})
	}
	end := part.end - 1
	if end < part.start {
		end = part.start
	}
	eof := lexer.Token{Type: lexer.EOF, Value: "}", Pos: lexer.Position{Filename: lw.f.Name, Offset: end}}
	var g *gExprOnly
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = &participle.ParseError{Msg: fmt.Sprint(r), Pos: toks[0].Pos}
			}
		}()
		g, err = p.expr.ParseFromLexer(newPeeking(toks, eof))
	}()
	if err != nil {
		translateInterp(lw.diags, lw.f, toks, err)
		return nil
	}
	return lw.expr(g.X)
}
