package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Instruction fusion
//
// Load rewrites each function's code into an internal copy in which the
// first instruction of some common sequences is replaced by a fused
// instruction that does the work of the whole sequence in one dispatch:
//
//	LOAD a; INT k; OP                   -> loadIntOp[OP] a k
//	LOAD a; INT k; CMP; JUMP_IF_FALSE t -> loadIntCmpJump[CMP] a k
//	LOAD a; LOAD b; OP                  -> loadLoadOp[OP] a b
//	LOAD a; LOAD b; CMP; JUMP_IF_FALSE  -> loadLoadCmpJump[CMP] a b
//	CMP; JUMP_IF_FALSE t                -> cmpJump[CMP] t
//
// where OP is ADD, SUB or a comparison and CMP a comparison, and the
// conditional jump goes forward (a backward jump is charged a step, see
// Run; none of these sequences is). The fused instruction replaces only
// the first instruction of its sequence; the others stay in place, so
// pcs, jump targets (even into the middle of a sequence) and line tables
// are unchanged. A fused instruction takes its fast path only when its
// operands are Ints; otherwise it executes just the original first
// instruction and continues with the next one, so results and step
// counts are exactly those of the unfused code (the general path, step,
// always executes the original instruction). The rewritten code is
// private to the Image: the Program, its disassembly and the verifier
// never see fused opcodes.

// Fused opcodes live right above every real opcode, in groups of
// fusedWidth (one per operation of fusedOps), so that the opcodes the
// interpreter switches on stay dense (the compiler turns a dense switch
// into a jump table, a sparse one into a binary search).
const (
	fusedBase  = bytecode.OpcodeCount
	fusedWidth = 8
	// loadIntOp + i: LOAD A; INT B; arith/compare opcode fusedOps[i].
	loadIntOp = fusedBase
	// loadIntCmpJump + i: LOAD A; INT B; compare fusedOps[i]; JUMP_IF_FALSE.
	loadIntCmpJump = fusedBase + fusedWidth
	// cmpJump + i: compare fusedOps[i]; JUMP_IF_FALSE A.
	cmpJump = fusedBase + 2*fusedWidth
	// loadLoadOp + i: LOAD A; LOAD B; fusedOps[i].
	loadLoadOp = fusedBase + 3*fusedWidth
	// loadLoadCmpJump + i: LOAD A; LOAD B; compare fusedOps[i]; JUMP_IF_FALSE.
	loadLoadCmpJump = fusedBase + 4*fusedWidth
	// fusedEnd is the first opcode above the fused ones.
	fusedEnd = fusedBase + 5*fusedWidth
)

// Opcodes are bytes.
var _ [256 - int(fusedEnd)]struct{}

// fusedOps are the operations that fuse, indexed by their fused offset.
var fusedOps = [fusedWidth]bytecode.Opcode{bytecode.ADD, bytecode.SUB, bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE}

func fusedIndex(op bytecode.Opcode) (int, bool) {
	for i, o := range fusedOps {
		if o == op {
			return i, true
		}
	}
	return 0, false
}

func isCompare(op bytecode.Opcode) bool {
	switch op {
	case bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE:
		return true
	}
	return false
}

// fuse returns the internal copy of f with fused instructions.
func fuse(f *bytecode.Function) *bytecode.Function {
	g := *f
	code := make([]bytecode.Instr, len(f.Code))
	copy(code, f.Code)
	src := f.Code
	for i := 0; i < len(src); i++ {
		in := src[i]
		switch {
		case in.Op == bytecode.LOAD && i+2 < len(src) && (src[i+1].Op == bytecode.INT || src[i+1].Op == bytecode.LOAD):
			op := src[i+2].Op
			k, ok := fusedIndex(op)
			if !ok {
				continue
			}
			plain, branch := loadIntOp, loadIntCmpJump
			if src[i+1].Op == bytecode.LOAD {
				plain, branch = loadLoadOp, loadLoadCmpJump
			}
			if isCompare(op) && i+3 < len(src) && src[i+3].Op == bytecode.JUMP_IF_FALSE && int(src[i+3].A) > i+3 {
				code[i] = bytecode.Instr{Op: branch + bytecode.Opcode(k), A: in.A, B: src[i+1].A}
			} else {
				code[i] = bytecode.Instr{Op: plain + bytecode.Opcode(k), A: in.A, B: src[i+1].A}
			}
		case isCompare(in.Op) && i+1 < len(src) && src[i+1].Op == bytecode.JUMP_IF_FALSE && int(src[i+1].A) > i+1:
			k, _ := fusedIndex(in.Op)
			code[i] = bytecode.Instr{Op: cmpJump + bytecode.Opcode(k), A: src[i+1].A}
		}
	}
	g.Code = code
	return &g
}

// original returns the instruction a fused instruction stands for (its
// first one: a LOAD, or the comparison of cmpJump), with its operands, as
// the program's code has it; other instructions are returned as they are.
func original(in bytecode.Instr) bytecode.Instr {
	switch op := in.Op; {
	case op >= loadIntOp && op < loadIntOp+fusedWidth, op >= loadIntCmpJump && op < loadIntCmpJump+fusedWidth,
		op >= loadLoadOp && op < loadLoadOp+fusedWidth, op >= loadLoadCmpJump && op < loadLoadCmpJump+fusedWidth:
		return bytecode.Instr{Op: bytecode.LOAD, A: in.A}
	case op >= cmpJump && op < cmpJump+fusedWidth:
		return bytecode.Instr{Op: fusedOps[op-cmpJump]}
	}
	return in
}
