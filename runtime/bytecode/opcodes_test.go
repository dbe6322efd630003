package bytecode

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

// TestTablesComplete checks that every opcode has a unique name, a stack
// effect and operand kinds, and that the tables have no entries past the
// last opcode.
func TestTablesComplete(t *testing.T) {
	if len(opcodeNames) != int(OpcodeCount) {
		t.Fatalf("name table has %d entries, want %d", len(opcodeNames), OpcodeCount)
	}
	if len(stackEffects) != int(OpcodeCount) {
		t.Fatalf("stack-effect table has %d entries, want %d", len(stackEffects), OpcodeCount)
	}
	if len(operands) != int(OpcodeCount) {
		t.Fatalf("operand table has %d entries, want %d", len(operands), OpcodeCount)
	}
	seen := map[string]Opcode{}
	for op := Opcode(0); op < OpcodeCount; op++ {
		name := opcodeNames[op]
		if name == "" {
			t.Errorf("opcode %d has no name", op)
			continue
		}
		if prev, dup := seen[name]; dup {
			t.Errorf("opcodes %d and %d share the name %s", prev, op, name)
		}
		seen[name] = op
		if got, ok := OpcodeByName(name); !ok || got != op {
			t.Errorf("OpcodeByName(%q) = %v, %v", name, got, ok)
		}
		if op.String() != name {
			t.Errorf("String() = %q, want %q", op.String(), name)
		}
	}
	if got := Opcode(200).String(); got != "OP(200)" {
		t.Errorf("out-of-range opcode prints %q", got)
	}
}

// TestVariableEffectsHaveCountOperands checks that every opcode with a
// variable stack effect has the operand its effect depends on, and that
// fixed-effect opcodes never take counts of stack values.
func TestVariableEffectsHaveCountOperands(t *testing.T) {
	for op := Opcode(0); op < OpcodeCount; op++ {
		a, b := op.Operands()
		hasCount := a == OpCount || b == OpCount
		variable := stackEffects[op] == Variable
		switch op {
		case DATA:
			if !variable {
				t.Errorf("DATA must have a variable effect")
			}
			continue
		case ELEM, LIST_ELEM, LIST_SLICE:
			// their count operand is an element index, not stack values
			if variable {
				t.Errorf("%s must have a fixed effect", op)
			}
			continue
		}
		if variable && !hasCount {
			t.Errorf("%s has a variable effect but no count operand", op)
		}
		if !variable && hasCount {
			t.Errorf("%s has a count operand but a fixed effect", op)
		}
		if a == OpNone && b != OpNone {
			t.Errorf("%s uses operand B without A", op)
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
