// Package vmtest assembles bytecode programs from text, for tests of the
// VM, the verifier and the .mrb codec that must not depend on the
// compiler.
//
// The assembly language is line based; `#` starts a comment:
//
//	source NAME                      Program.Source (default "test.mr")
//	entry NAME                       entry function (default "main")
//	library                          Program.Library = true
//	type NAME KIND [show] [eq] [ord] VARIANT...
//	                                 a user type; KIND is sum, record or
//	                                 newtype; a VARIANT is Name or
//	                                 Name(f1,f2) (use _ for a positional field)
//	func NAME [params=N] [locals=N] [captures=N] [flags=a,b]
//	                                 starts a function; flags are hasdefer,
//	                                 lambda, defer, prelude. locals defaults
//	                                 to params. MaxStack is computed.
//	@N                               source line of the following instructions
//	LABEL:                           a jump target
//	OPCODE [A [B]]                   an instruction
//
// Operands are written by kind: jump targets as labels (or numbers),
// functions and types by name (or number), natives by qualified name
// (added to the native table), constants as literals (`"text"` in Go
// syntax, `1.5`, `42`, added to the pool), everything else as integers.
package vmtest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Assemble builds a program from assembly text. The program is not
// verified (tests of the verifier assemble bad programs on purpose), but
// MaxStack is filled in whenever the depth analysis succeeds.
func Assemble(src string) (*bytecode.Program, error) {
	p := bytecode.NewProgram("test.mr")
	entry := "main"
	lines := strings.Split(src, "\n")
	// Pass 1: function headers and types, so operands may refer forward.
	funcs := map[string]int{}
	types := map[string]int{}
	for i, t := range p.Types {
		types[t.Name] = i
	}
	for n, raw := range lines {
		f := fields(raw)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "func":
			if len(f) < 2 {
				return nil, fmt.Errorf("line %d: func needs a name", n+1)
			}
			fn := &bytecode.Function{Name: f[1], Line: n + 1}
			localsSet := false
			for _, kv := range f[2:] {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return nil, fmt.Errorf("line %d: bad function attribute %q", n+1, kv)
				}
				if k == "flags" {
					for _, fl := range strings.Split(v, ",") {
						switch fl {
						case "hasdefer":
							fn.Flags |= bytecode.FlagHasDefer
						case "lambda":
							fn.Flags |= bytecode.FlagLambda
						case "defer":
							fn.Flags |= bytecode.FlagDefer
						case "prelude":
							fn.Flags |= bytecode.FlagPrelude
						default:
							return nil, fmt.Errorf("line %d: unknown flag %q", n+1, fl)
						}
					}
					continue
				}
				x, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("line %d: bad number in %q", n+1, kv)
				}
				switch k {
				case "params":
					fn.Params = x
				case "locals":
					fn.Locals = x
					localsSet = true
				case "captures":
					fn.Captures = x
				default:
					return nil, fmt.Errorf("line %d: unknown function attribute %q", n+1, k)
				}
			}
			if !localsSet {
				fn.Locals = fn.Params
			}
			if _, dup := funcs[fn.Name]; dup {
				return nil, fmt.Errorf("line %d: function %s defined twice", n+1, fn.Name)
			}
			funcs[fn.Name] = len(p.Functions)
			p.Functions = append(p.Functions, fn)
		case "type":
			t, err := parseType(f)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", n+1, err)
			}
			types[t.Name] = len(p.Types)
			p.Types = append(p.Types, t)
		case "source":
			if len(f) != 2 {
				return nil, fmt.Errorf("line %d: source needs a name", n+1)
			}
			p.Source = f[1]
		case "entry":
			if len(f) != 2 {
				return nil, fmt.Errorf("line %d: entry needs a name", n+1)
			}
			entry = f[1]
		case "library":
			p.Library = true
		}
	}
	// Pass 2: instructions.
	var cur *bytecode.Function
	labels := map[string]int{}
	type fixup struct {
		fn      *bytecode.Function
		pc      int
		operand int
		label   string
		line    int
		labels  map[string]int
	}
	var fixups []fixup
	line := 0
	for n, raw := range lines {
		f := fields(raw)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "func":
			cur = p.Functions[funcs[f[1]]]
			labels = map[string]int{}
			line = 0
			continue
		case f[0] == "type" || f[0] == "source" || f[0] == "entry" || f[0] == "library":
			continue
		case strings.HasPrefix(f[0], "@"):
			x, err := strconv.Atoi(f[0][1:])
			if err != nil {
				return nil, fmt.Errorf("line %d: bad line directive", n+1)
			}
			line = x
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: instruction outside a function", n+1)
		}
		if strings.HasSuffix(f[0], ":") && len(f) == 1 {
			labels[strings.TrimSuffix(f[0], ":")] = len(cur.Code)
			continue
		}
		op, ok := bytecode.OpcodeByName(f[0])
		if !ok {
			return nil, fmt.Errorf("line %d: unknown opcode %q", n+1, f[0])
		}
		in := bytecode.Instr{Op: op}
		ka, kb := op.Operands()
		kinds := []bytecode.OperandKind{ka, kb}
		want := op.NumOperands()
		if len(f)-1 != want {
			return nil, fmt.Errorf("line %d: %s takes %d operands, got %d", n+1, op, want, len(f)-1)
		}
		for i := 0; i < want; i++ {
			tok := f[1+i]
			var x int
			var err error
			switch kinds[i] {
			case bytecode.OpJump:
				if v, e := strconv.Atoi(tok); e == nil {
					x = v
				} else {
					fixups = append(fixups, fixup{cur, len(cur.Code), i, tok, n + 1, labels})
				}
			case bytecode.OpFunc:
				if v, ok := funcs[tok]; ok {
					x = v
				} else {
					x, err = strconv.Atoi(tok)
				}
			case bytecode.OpType:
				if v, ok := types[tok]; ok {
					x = v
				} else {
					x, err = strconv.Atoi(tok)
				}
			case bytecode.OpNative:
				x = p.AddNative(tok)
			case bytecode.OpConst, bytecode.OpName:
				var c value.Value
				c, err = literal(tok)
				if err == nil {
					x = p.AddConst(c)
				}
			default:
				x, err = strconv.Atoi(tok)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: bad operand %q: %v", n+1, tok, err)
			}
			if i == 0 {
				in.A = int32(x)
			} else {
				in.B = int32(x)
			}
		}
		if line > 0 && (len(cur.Lines) == 0 || cur.Lines[len(cur.Lines)-1].Line != int32(line)) {
			cur.Lines = append(cur.Lines, bytecode.LineEntry{PC: int32(len(cur.Code)), Line: int32(line)})
		}
		cur.Code = append(cur.Code, in)
	}
	for _, fx := range fixups {
		t, ok := fx.labels[fx.label]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown label %q", fx.line, fx.label)
		}
		if fx.operand == 0 {
			fx.fn.Code[fx.pc].A = int32(t)
		} else {
			fx.fn.Code[fx.pc].B = int32(t)
		}
	}
	idx, ok := funcs[entry]
	if !ok {
		return nil, fmt.Errorf("no entry function %q", entry)
	}
	p.Entry = idx
	for _, fn := range p.Functions {
		if len(fn.Lines) > 0 && fn.Lines[0].PC != 0 {
			fn.Lines = append([]bytecode.LineEntry{{PC: 0, Line: fn.Lines[0].Line}}, fn.Lines...)
		}
		if d, err := bytecode.MaxStackDepth(p, fn); err == nil {
			fn.MaxStack = d
		}
	}
	return p, nil
}

// MustAssemble is Assemble for tests: it panics on an error.
func MustAssemble(src string) *bytecode.Program {
	p, err := Assemble(src)
	if err != nil {
		panic(err)
	}
	return p
}

// fields splits a line into tokens, dropping comments; a Go-quoted string
// is one token.
func fields(line string) []string {
	var out []string
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == '#':
			return out
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '"':
			j := i + 1
			for j < len(line) && line[j] != '"' {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			if j < len(line) {
				j++
			}
			out = append(out, line[i:j])
			i = j
		default:
			j := i
			for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '\r' {
				j++
			}
			out = append(out, line[i:j])
			i = j
		}
	}
	return out
}

func literal(tok string) (value.Value, error) {
	if strings.HasPrefix(tok, `"`) {
		s, err := strconv.Unquote(tok)
		if err != nil {
			return value.Unit, err
		}
		return value.String(s), nil
	}
	if strings.ContainsAny(tok, ".eE") || tok == "NaN" || strings.HasSuffix(tok, "Inf") {
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return value.Unit, err
		}
		return value.Float(f), nil
	}
	n, err := strconv.ParseInt(tok, 0, 64)
	if err != nil {
		return value.Unit, err
	}
	return value.Int(n), nil
}

func parseType(f []string) (*value.TypeInfo, error) {
	if len(f) < 4 {
		return nil, fmt.Errorf("type needs a name, a kind and variants")
	}
	t := &value.TypeInfo{Name: f[1]}
	switch f[2] {
	case "sum":
		t.Kind = value.TSum
	case "record":
		t.Kind = value.TRecord
	case "newtype":
		t.Kind = value.TNewtype
	default:
		return nil, fmt.Errorf("unknown type kind %q", f[2])
	}
	for _, v := range f[3:] {
		switch v {
		case "show":
			t.Show = true
			continue
		case "eq":
			t.Eq = true
			continue
		case "ord":
			t.Ord = true
			continue
		}
		name, rest, has := strings.Cut(v, "(")
		vi := value.VariantInfo{Name: name}
		if has {
			rest = strings.TrimSuffix(rest, ")")
			for _, fl := range strings.Split(rest, ",") {
				if fl == "_" {
					fl = ""
				}
				vi.Fields = append(vi.Fields, fl)
			}
		}
		t.Variants = append(t.Variants, vi)
	}
	return t, nil
}

// Fib returns the assembly of a program whose main computes fib(n) by
// body recursion: the shared workload of the VM tests, benchmarks and
// codec round trips.
func Fib(n int) string {
	return fmt.Sprintf(`
func main
    INT %d
    CALL fib 1
    RETURN
func fib params=1
    LOAD 0
    INT 2
    LT
    JUMP_IF_FALSE rec
    LOAD 0
    RETURN
rec:
    LOAD 0
    INT 1
    SUB
    CALL fib 1
    LOAD 0
    INT 2
    SUB
    CALL fib 1
    ADD
    RETURN
`, n)
}
