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
	fmt.Fprintf(bw, "; morrow bytecode (format %d), source %s\n", FormatVersion, quoteName(p.Source))
	entry := "?"
	if p.Entry >= 0 && p.Entry < len(p.Functions) && p.Functions[p.Entry] != nil {
		entry = p.Functions[p.Entry].Name
	}
	mode := "main"
	if p.Library {
		mode = "library"
	}
	fmt.Fprintf(bw, "; entry %d (%s), %s mode, %d functions, %d constants, %d natives, %d types\n",
		p.Entry, entry, mode, len(p.Functions), len(p.Consts), len(p.Natives), len(p.Types))
	for i, n := range p.Natives {
		fmt.Fprintf(bw, "native %d %s\n", i, n)
	}
	for i, t := range p.Types {
		if i < NumBuiltinTypes || t == nil {
			continue
		}
		fmt.Fprintf(bw, "type %d %s %s%s:", i, t.Name, typeKindName(t.Kind), derives(t))
		for j, v := range t.Variants {
			if j > 0 {
				bw.WriteString(" |")
			}
			fmt.Fprintf(bw, " %d:%s", j, v.Name)
			if len(v.Fields) > 0 {
				fmt.Fprintf(bw, "(%s)", strings.Join(fieldNames(v.Fields), ", "))
			}
		}
		bw.WriteString("\n")
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

func disasmFunc(w *bufio.Writer, p *Program, fi int, f *Function, src func(string, int) string) {
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
	// Jump targets get labels so the listing reads like assembly.
	targets := map[int]bool{}
	for _, in := range f.Code {
		if t, ok := in.JumpTarget(); ok {
			targets[t] = true
		}
	}
	prelude := f.Flags.Has(FlagPrelude)
	li := 0
	lastLine := -1
	for pc, in := range f.Code {
		for li < len(f.Lines) && int(f.Lines[li].PC) <= pc {
			line := int(f.Lines[li].Line)
			li++
			if line == lastLine || line <= 0 {
				continue
			}
			lastLine = line
			text := ""
			if src != nil && !prelude {
				text = strings.TrimSpace(src(p.FileOf(f, ""), line))
			}
			where := "line"
			if prelude {
				where = "prelude line"
			}
			if text != "" {
				fmt.Fprintf(w, "    ; %s %d: %s\n", where, line, text)
			} else {
				fmt.Fprintf(w, "    ; %s %d\n", where, line)
			}
		}
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

func operandOne(p *Program, in Instr, k OperandKind, x int32) (string, string) {
	n := int(x)
	s := strconv.Itoa(n)
	switch k {
	case OpConst, OpName:
		if n >= 0 && n < len(p.Consts) {
			return s, constText(p.Consts[n])
		}
	case OpFunc:
		if n >= 0 && n < len(p.Functions) && p.Functions[n] != nil {
			return s, p.Functions[n].Name
		}
	case OpNative:
		if n >= 0 && n < len(p.Natives) {
			return s, p.Natives[n]
		}
	case OpType:
		if n >= 0 && n < len(p.Types) && p.Types[n] != nil {
			return s, p.Types[n].Name
		}
	case OpTag:
		if in.Op == DATA && in.A >= 0 && int(in.A) < len(p.Types) && p.Types[in.A] != nil {
			vs := p.Types[in.A].Variants
			if n >= 0 && n < len(vs) {
				return s, vs[n].Name
			}
		}
	case OpKind:
		return s, value.Kind(n).String()
	case OpJump:
		return "L" + s, ""
	case OpLocal:
		return "$" + s, ""
	}
	return s, ""
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

func derives(t *value.TypeInfo) string {
	var ds []string
	if t.Show {
		ds = append(ds, "Show")
	}
	if t.Eq {
		ds = append(ds, "Eq")
	}
	if t.Ord {
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
