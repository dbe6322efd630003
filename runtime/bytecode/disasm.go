package bytecode

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Disassemble writes a human-readable listing of p: a header, the native
// table, the user types, then one block per function with its header
// fields and instructions. Operands are annotated with what they refer to
// (constants, function and native names, type and variant names, jump
// labels). When src is non-nil, the listing interleaves the source text of
// each line where the function's line table changes (src receives a
// 1-based line number and returns the text, or "" when unknown). Prelude
// functions never show user source lines. The output is deterministic.
func Disassemble(w io.Writer, p *Program, src func(line int) string) error {
	var files func(string, int) string
	if src != nil {
		files = func(file string, line int) string {
			if file != p.Source {
				return ""
			}
			return src(line)
		}
	}
	return DisassembleFiles(w, p, files)
}

// DisassembleFiles is Disassemble for a program of many files: src
// returns a line of a named file (Program.FileOf), or "".
func DisassembleFiles(w io.Writer, p *Program, src func(file string, line int) string) error {
	if p == nil {
		return fmt.Errorf("nil program")
	}
	bw := bufio.NewWriter(w)
	disasmHeader(bw, p)
	for i, n := range p.Natives {
		fmt.Fprintf(bw, "native %d %s\n", i, n)
	}
	for i, t := range p.Types {
		if i < NumBuiltinTypes || t == nil {
			continue
		}
		disasmType(bw, i, t)
	}
	for i, f := range p.Functions {
		bw.WriteString("\n")
		if f == nil {
			fmt.Fprintf(bw, "func %d <nil>\n", i)
			continue
		}
		disasmFunc(bw, p, i, f, src)
	}
	return bw.Flush()
}

// disasmHeader writes the listing's two comment lines: format, source,
// entry, mode and table sizes.
func disasmHeader(w *bufio.Writer, p *Program) {
	fmt.Fprintf(w, "; morrow bytecode (format %d), source %s\n", FormatVersion, quoteName(p.Source))
	entry := "?"
	if p.Entry >= 0 && p.Entry < len(p.Functions) && p.Functions[p.Entry] != nil {
		entry = p.Functions[p.Entry].Name
	}
	mode := "main"
	if p.Library {
		mode = "library"
	}
	fmt.Fprintf(w, "; entry %d (%s), %s mode, %d functions, %d constants, %d natives, %d types\n",
		p.Entry, entry, mode, len(p.Functions), len(p.Consts), len(p.Natives), len(p.Types))
}

// disasmType writes the line of type i: kind, derives and variants.
func disasmType(w *bufio.Writer, i int, t *value.TypeInfo) {
	fmt.Fprintf(w, "type %d %s %s%s:", i, t.Name, typeKindName(t.Kind), DeriveClause(t.Show, t.Eq, t.Ord))
	for j, v := range t.Variants {
		if j > 0 {
			w.WriteString(" |")
		}
		fmt.Fprintf(w, " %d:%s", j, v.Name)
		if len(v.Fields) > 0 {
			fmt.Fprintf(w, "(%s)", strings.Join(fieldNames(v.Fields), ", "))
		}
	}
	w.WriteString("\n")
}

// disasmFunc writes function fi: its header line, then its code with
// labels on jump targets and source lines as comments.
func disasmFunc(w *bufio.Writer, p *Program, fi int, f *Function, src func(string, int) string) {
	disasmFuncHeader(w, fi, f)
	// Jump targets get labels so the listing reads like assembly.
	targets := map[int]bool{}
	for _, in := range f.Code {
		if t, ok := in.JumpTarget(); ok {
			targets[t] = true
		}
	}
	lc := &lineComments{w: w, f: f, lastLine: -1}
	if src != nil && !f.Flags.Has(FlagPrelude) {
		file := p.FileOf(f, "")
		lc.text = func(line int) string { return src(file, line) }
	}
	for pc, in := range f.Code {
		lc.upTo(pc)
		label := "     "
		if targets[pc] {
			label = fmt.Sprintf("L%-4d", pc)
		}
		ops, notes := operandText(p, in)
		line := fmt.Sprintf("  %s %4d  %-16s %s", label, pc, in.Op, ops)
		if len(notes) > 0 {
			line = fmt.Sprintf("%-40s ; %s", line, strings.Join(notes, ", "))
		}
		w.WriteString(strings.TrimRight(line, " "))
		w.WriteString("\n")
	}
}

// disasmFuncHeader writes a function's header line.
func disasmFuncHeader(w *bufio.Writer, fi int, f *Function) {
	fmt.Fprintf(w, "func %d %s params=%d locals=%d captures=%d maxstack=%d", fi, f.Name, f.Params, f.Locals, f.Captures, f.MaxStack)
	if fl := flagNames(f.Flags); fl != "" {
		fmt.Fprintf(w, " flags=%s", fl)
	}
	if f.Line > 0 {
		fmt.Fprintf(w, " line=%d", f.Line)
	}
	if f.File != "" {
		fmt.Fprintf(w, " file=%s", quoteName(f.File))
	}
	w.WriteString("\n")
}

// lineComments writes a function's line table as comments between its
// instructions, with the source text when text (nil: none) has it.
type lineComments struct {
	w        *bufio.Writer
	f        *Function
	text     func(line int) string
	li       int
	lastLine int
}

// upTo writes the comments of the line entries that start at or before
// pc and have not been written, skipping repeated and unknown lines.
func (c *lineComments) upTo(pc int) {
	for c.li < len(c.f.Lines) && int(c.f.Lines[c.li].PC) <= pc {
		line := int(c.f.Lines[c.li].Line)
		c.li++
		if line == c.lastLine || line <= 0 {
			continue
		}
		c.lastLine = line
		c.write(line)
	}
}

// write writes the comment of one source line.
func (c *lineComments) write(line int) {
	where := "line"
	if c.f.Flags.Has(FlagPrelude) {
		where = "prelude line"
	}
	text := ""
	if c.text != nil {
		text = strings.TrimSpace(c.text(line))
	}
	if text != "" {
		fmt.Fprintf(c.w, "    ; %s %d: %s\n", where, line, text)
	} else {
		fmt.Fprintf(c.w, "    ; %s %d\n", where, line)
	}
}

// operandText renders the operands of in and the annotations that say
// what they refer to.
func operandText(p *Program, in Instr) (string, []string) {
	ka, kb := in.Op.Operands()
	var parts, notes []string
	for i, k := range []OperandKind{ka, kb} {
		if k == OpNone {
			continue
		}
		x := in.A
		if i == 1 {
			x = in.B
		}
		text, note := operandOne(p, in, k, x)
		parts = append(parts, text)
		if note != "" {
			notes = append(notes, note)
		}
	}
	return strings.Join(parts, " "), notes
}

// operandOne renders one operand of kind k and what it refers to.
func operandOne(p *Program, in Instr, k OperandKind, x int32) (string, string) {
	s := strconv.Itoa(int(x))
	switch k {
	case OpJump:
		return "L" + s, ""
	case OpLocal:
		return "$" + s, ""
	}
	return s, operandNote(p, in, k, int(x))
}

// operandNote says what operand n of kind k refers to: a constant's
// value, or the name of a function, native, type, variant or value kind
// ("" when it refers to nothing known).
func operandNote(p *Program, in Instr, k OperandKind, n int) string {
	switch k {
	case OpConst, OpName:
		if n >= 0 && n < len(p.Consts) {
			return constText(p.Consts[n])
		}
	case OpFunc:
		if f := entryAt(p.Functions, n); f != nil {
			return f.Name
		}
	case OpNative:
		if n >= 0 && n < len(p.Natives) {
			return p.Natives[n]
		}
	case OpType:
		if t := entryAt(p.Types, n); t != nil {
			return t.Name
		}
	case OpTag:
		return tagNote(p, in, n)
	case OpKind:
		return value.Kind(n).String()
	}
	return ""
}

// tagNote names variant n of DATA's type ("" for other instructions or
// an unknown type or variant).
func tagNote(p *Program, in Instr, n int) string {
	t := entryAt(p.Types, int(in.A))
	if in.Op != DATA || t == nil || n < 0 || n >= len(t.Variants) {
		return ""
	}
	return t.Variants[n].Name
}

// entryAt is xs[n], or nil when n is out of range.
func entryAt[T any](xs []*T, n int) *T {
	if n < 0 || n >= len(xs) {
		return nil
	}
	return xs[n]
}

func constText(c value.Value) string {
	switch c.Kind() {
	case value.KInt:
		return strconv.FormatInt(c.AsInt(), 10)
	case value.KFloat:
		return strconv.FormatFloat(c.AsFloat(), 'g', -1, 64)
	case value.KString:
		return strconv.Quote(c.AsString())
	}
	return c.Kind().String()
}

func quoteName(s string) string {
	if s == "" {
		return "<unknown>"
	}
	return s
}

func typeKindName(k value.TypeKind) string {
	switch k {
	case value.TSum:
		return "sum"
	case value.TRecord:
		return "record"
	case value.TNewtype:
		return "newtype"
	}
	return "kind?"
}

// DeriveClause writes a type's derivations as Morrow source does after
// the type's name: ` derive(Show, Eq, Ord)`, the set ones in that order,
// or nothing when none is set. The disassembler and the program generator
// (lang/gen) both write it.
func DeriveClause(show, eq, ord bool) string {
	var ds []string
	if show {
		ds = append(ds, "Show")
	}
	if eq {
		ds = append(ds, "Eq")
	}
	if ord {
		ds = append(ds, "Ord")
	}
	if len(ds) == 0 {
		return ""
	}
	return " derive(" + strings.Join(ds, ", ") + ")"
}

func fieldNames(fs []string) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		if f == "" {
			out[i] = "_"
		} else {
			out[i] = f
		}
	}
	return out
}

func flagNames(f FuncFlags) string {
	var names []string
	for _, x := range []struct {
		f    FuncFlags
		name string
	}{{FlagHasDefer, "hasdefer"}, {FlagLambda, "lambda"}, {FlagDefer, "defer"}, {FlagPrelude, "prelude"}} {
		if f.Has(x.f) {
			names = append(names, x.name)
		}
	}
	if rest := f &^ (FlagHasDefer | FlagLambda | FlagDefer | FlagPrelude); rest != 0 {
		names = append(names, fmt.Sprintf("0x%x", uint32(rest)))
	}
	return strings.Join(names, ",")
}
