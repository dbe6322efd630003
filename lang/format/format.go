// Package format is `morrowc fmt`: it prints a Morrow source file in the
// one canonical layout.
//
// The algorithm:
//
//  1. The file must parse (lang/parser); only syntax matters, so a file
//     that calls undefined functions still formats. Syntax errors and
//     invalid UTF-8 come back as diagnostics and nothing is formatted.
//  2. The parser's own lexer and layout pass (parser.Definition) give the
//     token stream with NEWLINE/INDENT/DEDENT, so the formatter sees the
//     tokens exactly as the parser does. Comments and @doc attributes,
//     which the lexer skips, are recovered from the gaps between tokens
//     and classified as own-line, trailing (after code on their line) or
//     inline (a block comment with code after it on its line).
//  3. A small recursive-descent parser (cst.go) mirrors the grammar and
//     builds a concrete tree that records structure only: which form was
//     written (inline or block bodies and arms, the line breaks before
//     `|>` and `else`), never names or literal text.
//  4. The printer (printer.go, print.go) walks that tree and emits the
//     source tokens themselves, in order: it checks every token it writes
//     against the next source token, so it cannot drop or invent code, and
//     string literals are copied byte for byte. Spacing and indentation
//     are the printer's; a line break is either required by the layout
//     rules (blocks), kept from the source where it is a choice (`|>` and
//     `else` lines, blank lines between statements, at most one), or
//     decided by width: a call, list, tuple, record or parameter list is
//     tried on one line first ("flat"), and broken one element per line
//     with a trailing comma when it does not fit in 100 columns; inline
//     bodies and arms that do not fit become blocks. Each comment is
//     placed when the printer passes its position: own-line comments on
//     their own line at the current indentation, trailing ones at the end
//     of their line after two spaces, inline ones where they were; a
//     comment forces the list around it to break.
//  5. The result is checked before it is returned: it must parse to the
//     same tree (modulo positions, and an inline body equals a block of
//     that one expression), keep the same sequence of comments, format to
//     itself, and, when the source compiles, compile to the same bytecode
//     (modulo line tables). A failure is an internal error and the caller
//     writes nothing.
package format

import (
	"fmt"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// InternalError is a formatter bug: the file parsed, but the formatter
// could not produce an output that passes its own checks. The file must
// be left as it is.
type InternalError struct {
	File string
	Msg  string
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal formatter error in %s: %s (the file was left unchanged; please report it)", e.File, e.Msg)
}

// Format returns src in the canonical layout. When the file has syntax
// errors (or is not valid UTF-8) it returns them as diagnostics and no
// output. A non-nil error is an *InternalError.
func Format(src []byte, filename string) ([]byte, diag.List, error) {
	f := source.NewFile(filename, src)
	tree, dl := parser.Parse(f)
	if !dl.HasErrors() && !utf8.Valid(src) {
		off := firstInvalidUTF8(src)
		dl.Add(f, parser.ErrBadUTF8, source.Span{Start: off, End: off + 1}, "invalid UTF-8 in source")
	}
	if dl.HasErrors() {
		return nil, dl, nil
	}
	out, lx, err := layout(filename, src)
	if err != nil {
		return nil, dl, &InternalError{File: filename, Msg: err.Error()}
	}
	if err := verify(filename, src, lx, tree, out); err != nil {
		return nil, dl, &InternalError{File: filename, Msg: err.Error()}
	}
	return out, dl, nil
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// layout formats a file that parses, without checking the result.
func layout(filename string, src []byte) (out []byte, L *lexed, err error) {
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case printerBug:
				err = fmt.Errorf("%s", r.msg)
			case *syntaxError:
				err = fmt.Errorf("the formatter's parser rejected the file at %s", r.msg)
			case abortFlat:
				err = fmt.Errorf("a one-line attempt escaped")
			default:
				err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}
	}()
	L, err = lex(filename, src)
	if err != nil {
		return nil, nil, err
	}
	decls, err := parseFile(L)
	if err != nil {
		return nil, nil, err
	}
	p := &printer{L: L}
	p.s.lineStart = true
	p.file(decls)
	if p.s.cur != len(L.toks) {
		return nil, nil, fmt.Errorf("printed %d of %d tokens", p.s.cur, len(L.toks))
	}
	if p.s.ci != len(L.comments) {
		return nil, nil, fmt.Errorf("placed %d of %d comments", p.s.ci, len(L.comments))
	}
	return p.out, L, nil
}

// verify checks a formatted file against its source src (lexed as in):
// it parses to the same tree, keeps every comment in order, is a fixed
// point, and, when src compiles, compiles to the same bytecode.
func verify(filename string, src []byte, in *lexed, tree *ast.File, out []byte) error {
	f2 := source.NewFile(filename, out)
	tree2, dl := parser.Parse(f2)
	if dl.HasErrors() {
		return fmt.Errorf("the formatted text does not parse: %s", strings.TrimSpace(dl[0].Error()))
	}
	if d := diffTrees(tree, tree2); d != "" {
		return fmt.Errorf("the formatted text parses to a different tree: %s", d)
	}
	again, lx, err := layout(filename, out)
	if err != nil {
		return fmt.Errorf("formatting the result again failed: %v", err)
	}
	if d := diffStrings(commentTexts(in), commentTexts(lx)); d != "" {
		return fmt.Errorf("the comments changed: %s", d)
	}
	if string(again) != string(out) {
		return fmt.Errorf("formatting is not idempotent: the result formats differently (first difference at line %d)", firstDiffLine(out, again))
	}
	return sameBytecode(filename, src, out)
}

// sameBytecode compiles src and, when it compiles cleanly, out, and
// compares their disassembly without line information. A source that does
// not compile (formatting needs only syntax) is not compared.
func sameBytecode(filename string, src, out []byte) error {
	p1, d1, err := compiler.Compile(filename, src)
	if err != nil || d1.HasErrors() || p1 == nil {
		return nil
	}
	p2, d2, err := compiler.Compile(filename, out)
	if err != nil || d2.HasErrors() || p2 == nil {
		return fmt.Errorf("the source compiles but the formatted text does not")
	}
	a, err := Disassembly(p1)
	if err != nil {
		return err
	}
	b, err := Disassembly(p2)
	if err != nil {
		return err
	}
	if a != b {
		return fmt.Errorf("the formatted text compiles to different bytecode")
	}
	return nil
}

var lambdaLine = regexp.MustCompile(`@[0-9]+`)

// Disassembly renders a program without line information, for comparing
// the bytecode of a file before and after formatting: line tables and the
// line numbers in lambda and defer names are dropped. It changes p.
func Disassembly(p *bytecode.Program) (string, error) {
	for _, f := range p.Functions {
		f.Line = 0
		f.Lines = nil
		f.Name = lambdaLine.ReplaceAllString(f.Name, "@")
	}
	var b strings.Builder
	err := bytecode.Disassemble(&b, p, nil)
	return b.String(), err
}

func commentTexts(L *lexed) []string {
	out := make([]string, len(L.comments))
	for i, c := range L.comments {
		out[i] = c.text
	}
	return out
}

// Comments returns the text of every comment and documentation attribute
// of a file that the parser's lexer accepts, in order, with trailing
// blanks removed from each line.
func Comments(src []byte) ([]string, error) {
	L, err := lex("", src)
	if err != nil {
		return nil, err
	}
	return commentTexts(L), nil
}

func diffStrings(a, b []string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return fmt.Sprintf("comment %d was %q, is %q", i+1, a[i], b[i])
		}
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d comments became %d", len(a), len(b))
	}
	return ""
}

func firstDiffLine(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

// DiffTrees compares two syntax trees ignoring positions, and treating a
// block that holds one expression statement as that expression (an
// inline body and the block the formatter expands it into). It returns ""
// when they are equal, or where they first differ.
func DiffTrees(a, b *ast.File) string { return diffTrees(a, b) }

func diffTrees(a, b *ast.File) string {
	return diffValue(reflect.ValueOf(a), reflect.ValueOf(b), "file")
}

var (
	spanType = reflect.TypeOf(source.Span{})
	posType  = reflect.TypeOf(ast.Pos{})
	fileType = reflect.TypeOf(&source.File{})
)

// unwrapBlock turns an interface holding a one-expression block into the
// interface holding the expression.
func unwrapBlock(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Interface && !v.IsNil() {
		b, ok := v.Interface().(*ast.Block)
		if !ok || len(b.Stmts) != 1 {
			break
		}
		es, ok := b.Stmts[0].(*ast.ExprStmt)
		if !ok || es.Cond != nil {
			break
		}
		v = reflect.ValueOf(es).Elem().FieldByName("X")
	}
	return v
}

func diffValue(a, b reflect.Value, path string) string {
	a, b = unwrapBlock(a), unwrapBlock(b)
	if a.Kind() != b.Kind() {
		return path + ": different kinds"
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil on one side only"
			}
			return ""
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: %s became %s", path, a.Elem().Type(), b.Elem().Type())
		}
		return diffValue(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		if a.Type() == spanType || a.Type() == posType {
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			fd := a.Type().Field(i)
			if fd.Type == spanType || fd.Type == posType || fd.Type == fileType {
				continue
			}
			if d := diffValue(a.Field(i), b.Field(i), path+"."+fd.Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d elements became %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int64, reflect.Float64, reflect.Int32:
		if a.Interface() != b.Interface() {
			return fmt.Sprintf("%s: %v became %v", path, a.Interface(), b.Interface())
		}
		return ""
	}
	return fmt.Sprintf("%s: cannot compare %s", path, a.Kind())
}
