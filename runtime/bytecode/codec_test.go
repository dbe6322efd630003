package bytecode_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
	"github.com/morrow-lang/morrow/stdlib"
)

// samplePrograms are hand-assembled programs that exercise every section
// of the format; they also seed the fuzzer.
var samplePrograms = []string{
	`
source sample.mr
type Shape sum show eq Circle(_) Rect(w,h) Dot
type User record show User(name,age)
func main locals=3 flags=hasdefer
    @1
    FUNC cleanup
    DEFER
    CONST 3.5
    CONST "é\x00\n"
    CONST -9223372036854775808
    TUPLE 3
    POP
    @2
    INT 2
    INT 3
    DATA Shape 1
    STORE 0
    DATA Shape 2
    STORE 1
    CONST "Ada"
    INT 36
    DATA User 0
    FIELD "name"
    CALL_NATIVE println 1
    POP
    @4
    INT 1
    INT 10
    RANGE 0
    ITER
    STORE 2
loop:
    ITER_NEXT 2 done
    CALL_NATIVE println 1
    POP
    JUMP loop
done:
    @5
    INT 7
    RETURN
func cleanup flags=defer
    @9
    CONST "bye"
    CALL_NATIVE println 1
    RETURN
func helper params=2 locals=2 flags=prelude
    @3
    LOAD 0
    LOAD 1
    ADD
    RETURN
`,
	`
library
entry start
func start params=1
    LOAD 0
    CLOSURE id 1
    CALL_VALUE 0
    RETURN
func id captures=1 flags=lambda
    FREE 0
    RETURN
`,
	vmtest.Fib(30),
}

func assemble(t testing.TB, src string) *bytecode.Program {
	t.Helper()
	p, err := vmtest.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := bytecode.Verify(p); err != nil {
		t.Fatalf("sample does not verify: %v", err)
	}
	return p
}

func TestRoundTrip(t *testing.T) {
	for i, src := range samplePrograms {
		p := assemble(t, src)
		p.Consts = append(p.Consts, value.Float(math.NaN()), value.Float(math.Inf(-1)), value.String(""))
		b := bytecode.Encode(p)
		q, err := bytecode.Decode(b)
		if err != nil {
			t.Fatalf("sample %d: decode: %v", i, err)
		}
		// Values are compared by their content (a decoded string is a
		// new box), the rest of the program structurally.
		if len(p.Consts) != len(q.Consts) {
			t.Fatalf("sample %d: %d constants, decoded %d", i, len(p.Consts), len(q.Consts))
		}
		for j, c := range p.Consts {
			d := q.Consts[j]
			if c.Kind() != d.Kind() || c.Payload() != d.Payload() || c.AsString() != d.AsString() {
				t.Fatalf("sample %d: constant %d is %v, decoded %v", i, j, c, d)
			}
		}
		pc, qc := *p, *q
		pc.Consts, qc.Consts = nil, nil
		if !reflect.DeepEqual(pc, qc) {
			t.Fatalf("sample %d: round trip differs:\n%#v\n%#v", i, p, q)
		}
		for j := 0; j < bytecode.NumBuiltinTypes; j++ {
			if q.Types[j] != bytecode.BuiltinTypes()[j] {
				t.Fatalf("sample %d: built-in type %d not re-linked", i, j)
			}
		}
		if err := bytecode.Verify(q); err != nil {
			t.Fatalf("sample %d: decoded program does not verify: %v", i, err)
		}
		if b2 := bytecode.Encode(q); !bytes.Equal(b, b2) {
			t.Fatalf("sample %d: encoding is not deterministic", i)
		}
	}
}

func TestDecodeRefusals(t *testing.T) {
	good := bytecode.Encode(assemble(t, samplePrograms[0]))
	check := func(name string, b []byte, want string) {
		t.Helper()
		p, err := bytecode.Decode(b)
		if err == nil {
			t.Errorf("%s: decoded without error", name)
			return
		}
		if p != nil {
			t.Errorf("%s: returned a program with the error", name)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: multi-line error %q", name, err)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q does not mention %q", name, err, want)
		}
	}
	check("empty", nil, "truncated")
	check("short magic", good[:2], "truncated")
	check("bad magic", append([]byte("ELF\x7f"), good[4:]...), "bad magic")
	wrong := bytes.Clone(good)
	binary.LittleEndian.PutUint16(wrong[4:], bytecode.FormatVersion+1)
	check("wrong version", wrong, "version 2 is not supported")
	check("header only", good[:6], "truncated")
	for n := 7; n < len(good); n++ {
		check("truncated", good[:n], "")
	}
	for i := 6; i < len(good); i++ {
		b := bytes.Clone(good)
		b[i] ^= 0x41
		check("flipped byte", b, "")
	}
	check("trailing bytes", append(bytes.Clone(good), 0), "checksum")
}

// reencode recomputes the checksum after tampering with a program.
func tamper(t *testing.T, src string, f func(p *bytecode.Program)) error {
	t.Helper()
	p := assemble(t, src)
	f(p)
	q, err := bytecode.Decode(bytecode.Encode(p))
	if err != nil {
		return err
	}
	return bytecode.Verify(q)
}

func TestVerifyRefusals(t *testing.T) {
	fib := samplePrograms[2]
	main := samplePrograms[0]
	cases := []struct {
		name string
		src  string
		f    func(p *bytecode.Program)
		want string
	}{
		{"bad jump", fib, func(p *bytecode.Program) { p.Functions[1].Code[3].A = 99 }, "jump target index 99 out of range"},
		{"negative jump", fib, func(p *bytecode.Program) { p.Functions[1].Code[3].A = -1 }, "jump target"},
		{"bad function index", fib, func(p *bytecode.Program) { p.Functions[0].Code[1].A = 7 }, "function index 7"},
		{"bad constant index", main, func(p *bytecode.Program) { p.Functions[0].Code[2].A = 1000 }, "constant index 1000"},
		{"bad local", fib, func(p *bytecode.Program) { p.Functions[1].Code[0].A = 1 }, "local index 1"},
		{"bad native", main, func(p *bytecode.Program) { p.Natives = nil }, "native index"},
		{"bad type", main, func(p *bytecode.Program) { p.Functions[0].Code[9].A = 50 }, "type index 50"},
		{"bad tag", main, func(p *bytecode.Program) { p.Functions[0].Code[9].B = 3 }, "variant index 3"},
		{"arity", fib, func(p *bytecode.Program) { p.Functions[0].Code[1].B = 2 }, "passes 2 arguments"},
		{"underflow", fib, func(p *bytecode.Program) { p.Functions[1].Code[0] = bytecode.Instr{Op: bytecode.POP} }, "pops 1 values from a stack of depth 0"},
		{"inconsistent depth", fib, func(p *bytecode.Program) {
			p.Functions[1].Code[5] = bytecode.Instr{Op: bytecode.JUMP, A: 6}
		}, "inconsistent stack depth"},
		{"falls off the end", fib, func(p *bytecode.Program) {
			c := p.Functions[0].Code
			c[len(c)-1] = bytecode.Instr{Op: bytecode.NOP}
		}, "not terminal"},
		{"MaxStack too small", fib, func(p *bytecode.Program) { p.Functions[1].MaxStack = 1 }, "above MaxStack"},
		{"no entry", fib, func(p *bytecode.Program) { p.Entry = 5 }, "entry function 5"},
		{"entry params", fib, func(p *bytecode.Program) { p.Entry = 1 }, "takes 1 parameters"},
		{"tail call with defer", fib, func(p *bytecode.Program) {
			p.Functions[1].Flags |= bytecode.FlagHasDefer
			p.Functions[1].Code = append(p.Functions[1].Code[:len(p.Functions[1].Code)-1],
				bytecode.Instr{Op: bytecode.TAIL_CALL, A: 1, B: 1})
		}, "tail call in a function with defers"},
		{"defer without flag", main, func(p *bytecode.Program) { p.Functions[0].Flags = 0 }, "DEFER in a function without"},
		{"line table", main, func(p *bytecode.Program) {
			l := p.Functions[0].Lines
			l[1].PC, l[2].PC = l[2].PC, l[1].PC
		}, ""},
		{"direct call of a closure body", samplePrograms[1], func(p *bytecode.Program) {
			p.Functions[0].Code = []bytecode.Instr{{Op: bytecode.CALL, A: 1}, {Op: bytecode.RETURN}}
		}, "direct call of id"},
		{"closure captures", samplePrograms[1], func(p *bytecode.Program) { p.Functions[0].Code[1].B = 0 }, "captures 0 values"},
	}
	for _, c := range cases {
		err := tamper(t, c.src, c.f)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not mention %q", c.name, err, c.want)
		}
	}
}

func TestVerifyUnusedOperand(t *testing.T) {
	// The encoding cannot carry unused operands, so check in memory.
	p := assemble(t, samplePrograms[2])
	p.Functions[1].Code[2].A = 1
	if err := bytecode.Verify(p); err == nil || !strings.Contains(err.Error(), "unused operand") {
		t.Fatalf("err = %v", err)
	}
}

func TestVerifyNeverPanics(t *testing.T) {
	var nilProg *bytecode.Program
	if bytecode.Verify(nilProg) == nil {
		t.Fatal("nil program verified")
	}
	if bytecode.Verify(&bytecode.Program{}) == nil {
		t.Fatal("empty program verified")
	}
	p := bytecode.NewProgram("x")
	p.Functions = []*bytecode.Function{nil}
	if bytecode.Verify(p) == nil {
		t.Fatal("nil function verified")
	}
}

func TestDisassemble(t *testing.T) {
	p := assemble(t, samplePrograms[0])
	var b bytes.Buffer
	src := func(line int) string {
		return map[int]string{1: "fn main():", 2: "    let s = Rect(2, 3)", 9: "    defer println(\"bye\")"}[line]
	}
	if err := bytecode.Disassemble(&b, p, src); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"func 0 main params=0 locals=3",
		"flags=hasdefer",
		"; line 2: let s = Rect(2, 3)",
		"DATA             3 1       ; Shape, Rect",
		"CALL_NATIVE      0 1       ; println",
		"; 3.5",
		"ITER_NEXT        $2 L",
		"type 3 Shape sum derive(Show, Eq): 0:Circle(_) | 1:Rect(w, h) | 2:Dot",
		"; prelude line 3",
		"native 0 println",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("listing lacks %q:\n%s", want, out)
		}
	}
	// Without sources it still works and is deterministic.
	var b1, b2 bytes.Buffer
	bytecode.Disassemble(&b1, p, nil)
	bytecode.Disassemble(&b2, p, nil)
	if b1.String() != b2.String() || !strings.Contains(b1.String(), "; line 2\n") {
		t.Fatalf("listing without sources:\n%s", b1.String())
	}
}

// FuzzDecode decodes arbitrary bytes; whatever verifies and loads is run
// in the VM for a bounded number of steps. Nothing may panic.
func FuzzDecode(f *testing.F) {
	for _, src := range samplePrograms {
		p, err := vmtest.Assemble(src)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytecode.Encode(p))
	}
	for _, seed := range fuzzSeeds() {
		f.Add(seed)
	}
	f.Add([]byte("MRWB"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fuzzOne(t, b)
		// The checksum stops almost every mutation at the door; also try
		// the input with a correct checksum, so the fuzzer explores the
		// section decoders, the verifier and the VM.
		if len(b) >= 10 {
			fixed := bytes.Clone(b)
			binary.LittleEndian.PutUint32(fixed[len(fixed)-4:], crc32.ChecksumIEEE(fixed[:len(fixed)-4]))
			fuzzOne(t, fixed)
		}
	})
}

// fuzzOne decodes b and, if it verifies, disassembles it and runs it for a
// bounded number of steps.
func fuzzOne(t *testing.T, b []byte) {
	{
		// Decode and Check separately, not through Load, which would turn
		// a panic of the verifier into an error instead of a failure here.
		p, err := bytecode.Decode(b)
		if err != nil {
			if p != nil {
				t.Fatal("program returned with an error")
			}
			return
		}
		v, err := bytecode.Check(p)
		if err != nil {
			return
		}
		var listing bytes.Buffer
		if err := bytecode.Disassemble(&listing, p, func(int) string { return "x" }); err != nil {
			t.Fatal(err)
		}
		img, err := vm.Load(v, stdlib.Natives())
		if err != nil {
			return
		}
		args := make([]value.Value, p.Functions[p.Entry].Params)
		st, err := vm.NewState(img, p.Entry, args)
		if err != nil {
			t.Fatal(err)
		}
		st.SetMaxDepth(1000)
		st.SetMaxStackSlots(1 << 18)
		o := vm.Run(st, vm.Detached{}, 20000)
		if o.Status == vm.StatusFault && o.Fault == nil {
			t.Fatal("fault outcome without a fault")
		}
	}
}

func TestDecodeErrorsAreTyped(t *testing.T) {
	_, err := bytecode.Decode([]byte("MR"))
	if !errors.Is(err, bytecode.ErrTruncated) {
		t.Fatalf("err = %v", err)
	}
}

// fuzzSeeds returns the encoded real programs in testdata/seeds (compiled
// from Morrow sources by TestWriteSeeds in runtime/engine).
func fuzzSeeds() [][]byte {
	paths, _ := filepath.Glob(filepath.Join("testdata", "seeds", "*.mrb"))
	var out [][]byte
	for _, path := range paths {
		if b, err := os.ReadFile(path); err == nil {
			out = append(out, b)
		}
	}
	return out
}
