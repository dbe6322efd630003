package bytecode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// TestDescriptorsComplete checks that every opcode has a descriptor with a
// unique name (what String, OpcodeByName and the disassembler print), a
// pop rule and a verifier rule, and names what is missing.
func TestDescriptorsComplete(t *testing.T) {
	if problems := descriptorProblems(descs[:]); len(problems) > 0 {
		for _, p := range problems {
			t.Error(p)
		}
	}
	if got := Opcode(200).String(); got != "OP(200)" {
		t.Errorf("out-of-range opcode prints %q", got)
	}
	if Opcode(200).IsActor() || Opcode(OpcodeCount).IsTerminal() {
		t.Errorf("a byte that is no opcode is neither actor nor terminal")
	}
}

// descriptorProblems lists what the descriptors lack, one line per gap.
func descriptorProblems(ds []Desc) []string {
	var out []string
	seen := map[string]int{}
	for i, d := range ds {
		op := Opcode(i)
		if d.Name == "" {
			out = append(out, fmt.Sprintf("opcode %d has no descriptor (no name, so no disassembler text)", i))
			continue
		}
		if prev, dup := seen[d.Name]; dup {
			out = append(out, fmt.Sprintf("opcodes %d and %d share the name %s", prev, i, d.Name))
		}
		seen[d.Name] = i
		if got, ok := OpcodeByName(d.Name); i < int(OpcodeCount) && (!ok || got != op) {
			out = append(out, fmt.Sprintf("OpcodeByName(%q) = %v, %v", d.Name, got, ok))
		}
		if d.Pops == 0 {
			out = append(out, fmt.Sprintf("%s has no pop rule (stack effect)", d.Name))
		}
		if d.Verify == nil {
			out = append(out, fmt.Sprintf("%s has no verifier rule (use plain when its operand kinds say everything)", d.Name))
		}
		if d.A == OpNone && d.B != OpNone {
			out = append(out, fmt.Sprintf("%s uses operand B without A", d.Name))
		}
	}
	return out
}

// TestDescriptorProblemsNamesTheGap: a new opcode given only a name, or
// nothing, is reported with what it lacks.
func TestDescriptorProblemsNamesTheGap(t *testing.T) {
	ds := append(append([]Desc{}, descs[:]...), Desc{Name: "NEW_OP"}, Desc{})
	got := strings.Join(descriptorProblems(ds), "\n")
	for _, want := range []string{"NEW_OP has no pop rule", "NEW_OP has no verifier rule", fmt.Sprintf("opcode %d has no descriptor", len(descs)+1)} {
		if !strings.Contains(got, want) {
			t.Errorf("problems %q do not say %q", got, want)
		}
	}
}

// TestVariableEffectsHaveCountOperands checks that every opcode whose pops
// depend on its operands has the operand its count comes from, and that
// fixed-effect opcodes never take counts of stack values.
func TestVariableEffectsHaveCountOperands(t *testing.T) {
	for op := Opcode(0); op < OpcodeCount; op++ {
		d := descs[op]
		hasCount := d.A == OpCount || d.B == OpCount
		switch d.Pops {
		case PopsFields:
			if d.A != OpType || d.B != OpTag {
				t.Errorf("%s pops the fields of a variant but has no type and tag operands", op)
			}
			continue
		case PopsA, PopsAPlusFunc:
			if d.A != OpCount {
				t.Errorf("%s pops operand A values but A is %s", op, d.A)
			}
		case PopsB:
			if d.B != OpCount {
				t.Errorf("%s pops operand B values but B is %s", op, d.B)
			}
		case PopsFixed:
			switch op {
			case ELEM, LIST_ELEM, LIST_SLICE:
				// their count operand is an element index, not stack values
				continue
			}
			if hasCount {
				t.Errorf("%s has a count operand but a fixed effect", op)
			}
		}
	}
}

// TestStackEffect spot-checks effects computed from operands.
func TestStackEffect(t *testing.T) {
	p := NewProgram("t.mr")
	cases := []struct {
		in   Instr
		want int
	}{
		{Instr{Op: ADD}, -1},
		{Instr{Op: CALL, A: 0, B: 3}, -2},
		{Instr{Op: CALL, A: 0, B: 0}, 1},
		{Instr{Op: CALL_VALUE, A: 2}, -2},
		{Instr{Op: CALL_NATIVE, A: 0, B: 1}, 0},
		{Instr{Op: TAIL_CALL, A: 0, B: 2}, -2},
		{Instr{Op: TAIL_CALL_VALUE, A: 2}, -3},
		{Instr{Op: CLOSURE, A: 0, B: 2}, -1},
		{Instr{Op: TUPLE, A: 3}, -2},
		{Instr{Op: LIST, A: 0}, 1},
		{Instr{Op: INTERP, A: 4}, -3},
		{Instr{Op: DATA, A: TypeOption, B: value.TagSome}, 0},
		{Instr{Op: DATA, A: TypeOption, B: value.TagNone}, 1},
		{Instr{Op: DATA, A: TypeOrdering, B: TagGreater}, 1},
		{Instr{Op: ITER_NEXT, A: 1, B: 9}, 1},
	}
	for _, c := range cases {
		got, ok := StackEffect(c.in, p)
		if !ok || got != c.want {
			t.Errorf("StackEffect(%v) = %d, %v; want %d", c.in, got, ok, c.want)
		}
	}
	bad := []Instr{
		{Op: OpcodeCount},
		{Op: CALL, B: -1},
		{Op: DATA, A: 99},
		{Op: DATA, A: TypeOption, B: 7},
	}
	for _, in := range bad {
		if _, ok := StackEffect(in, p); ok {
			t.Errorf("StackEffect(%v) accepted a malformed instruction", in)
		}
	}
	if _, ok := StackEffect(Instr{Op: DATA}, nil); ok {
		t.Errorf("DATA without a program must not have a known effect")
	}
	if BranchEffect(Instr{Op: ITER_NEXT, A: 0, B: 3}) != 0 {
		t.Errorf("ITER_NEXT pushes nothing when it jumps")
	}
	if BranchEffect(Instr{Op: JUMP_IF_FALSE, A: 3}) != -1 {
		t.Errorf("JUMP_IF_FALSE pops its condition on both paths")
	}
}

func TestJumpTargets(t *testing.T) {
	for op := Opcode(0); op < OpcodeCount; op++ {
		_, isJump := (Instr{Op: op, A: 5, B: 6}).JumpTarget()
		a, b := op.Operands()
		if isJump != (a == OpJump || b == OpJump) {
			t.Errorf("%s: JumpTarget disagrees with the operand table", op)
		}
	}
	if pc, ok := (Instr{Op: ITER_NEXT, A: 2, B: 17}).JumpTarget(); !ok || pc != 17 {
		t.Errorf("ITER_NEXT target = %d, %v", pc, ok)
	}
	if (Instr{Op: CALL, A: 1, B: 2}).String() != "CALL 1 2" {
		t.Errorf("Instr.String = %q", (Instr{Op: CALL, A: 1, B: 2}).String())
	}
}

func TestProgramTables(t *testing.T) {
	p := NewProgram("t.mr")
	if p.Types[TypeOption] != value.OptionType || p.Types[TypeResult] != value.ResultType || p.Types[TypeOrdering] != value.OrderingType {
		t.Fatalf("built-in types are not at their fixed indexes")
	}
	if len(p.Types) != NumBuiltinTypes {
		t.Fatalf("NewProgram has %d types", len(p.Types))
	}
	i := p.AddConst(value.String("x"))
	j := p.AddConst(value.Int(3))
	if p.AddConst(value.String("x")) != i || p.AddConst(value.Int(3)) != j || i == j {
		t.Errorf("AddConst does not deduplicate")
	}
	if p.AddConst(value.Float(3)) == j {
		t.Errorf("Float 3 and Int 3 must be distinct constants")
	}
	n := p.AddNative("List.len")
	if p.AddNative("List.len") != n || p.AddNative("println") == n {
		t.Errorf("AddNative does not deduplicate")
	}
	f := &Function{Name: "f", Lines: []LineEntry{{0, 3}, {4, 5}, {9, 7}}}
	for pc, want := range map[int]int{0: 3, 3: 3, 4: 5, 8: 5, 9: 7, 100: 7} {
		if got := f.LineAt(pc); got != want {
			t.Errorf("LineAt(%d) = %d, want %d", pc, got, want)
		}
	}
	p.Functions = append(p.Functions, f)
	if p.FuncByName("f") != 0 || p.FuncByName("g") != -1 {
		t.Errorf("FuncByName")
	}
	if !(FlagHasDefer | FlagLambda).Has(FlagLambda) || FlagLambda.Has(FlagHasDefer) {
		t.Errorf("FuncFlags.Has")
	}
}
