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
//	LOAD a; INT k; OP                   -> loadIntOp[OP] a k        (3 steps)
//	LOAD a; INT k; CMP; JUMP_IF_FALSE t -> loadIntCmpJump[CMP] a k  (4 steps)
//	LOAD a; LOAD b; OP                  -> loadLoadOp[OP] a b       (3 steps)
//	LOAD a; LOAD b; CMP; JUMP_IF_FALSE  -> loadLoadCmpJump[CMP] a b (4 steps)
//	CMP; JUMP_IF_FALSE t                -> cmpJump[CMP] t           (2 steps)
//
// where OP is ADD, SUB or a comparison and CMP a comparison. The fused
// instruction replaces only the first instruction of its sequence; the
// others stay in place, so pcs, jump targets (even into the middle of a
// sequence) and line tables are unchanged. A fused instruction takes the
// fast path only when its operands are Ints and the step budget has room
// for every step it stands for; otherwise it executes just the original
// first instruction (kept in origin) and continues with the next one, so
// results and step counts are exactly those of the unfused code. The
// rewritten code is private to the Image: the Program, its disassembly
// and the verifier never see fused opcodes.

// Fused opcodes live above every real opcode.
const (
	fusedBase = 160
	// loadIntOp + i: LOAD A; INT B; arith/compare opcode fusedOps[i].
	loadIntOp = fusedBase
	// loadIntCmpJump + i: LOAD A; INT B; compare fusedOps[i]; JUMP_IF_FALSE.
	loadIntCmpJump = fusedBase + 16
	// cmpJump + i: compare fusedOps[i]; JUMP_IF_FALSE A.
	cmpJump = fusedBase + 32
	// loadLoadOp + i: LOAD A; LOAD B; fusedOps[i].
	loadLoadOp = fusedBase + 48
	// loadLoadCmpJump + i: LOAD A; LOAD B; compare fusedOps[i]; JUMP_IF_FALSE.
	loadLoadCmpJump = fusedBase + 64
)

// fusedOps are the operations that fuse, indexed by their fused offset.
var fusedOps = [...]bytecode.Opcode{bytecode.ADD, bytecode.SUB, bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE, bytecode.EQ, bytecode.NE}

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
			if isCompare(op) && i+3 < len(src) && src[i+3].Op == bytecode.JUMP_IF_FALSE {
				code[i] = bytecode.Instr{Op: bytecode.Opcode(branch + k), A: in.A, B: src[i+1].A}
			} else {
				code[i] = bytecode.Instr{Op: bytecode.Opcode(plain + k), A: in.A, B: src[i+1].A}
			}
		case isCompare(in.Op) && i+1 < len(src) && src[i+1].Op == bytecode.JUMP_IF_FALSE:
			k, _ := fusedIndex(in.Op)
			code[i] = bytecode.Instr{Op: bytecode.Opcode(cmpJump + k), A: src[i+1].A}
		}
	}
	g.Code = code
	return &g
}

// intOp applies a fusable operation to two Ints: the value (for ADD and
// SUB) or the truth of the comparison.
func intOp(k int, x, y int64) (int64, bool) {
	switch fusedOps[k] {
	case bytecode.ADD:
		return x + y, false
	case bytecode.SUB:
		return x - y, false
	case bytecode.LT:
		return 0, x < y
	case bytecode.LE:
		return 0, x <= y
	case bytecode.GT:
		return 0, x > y
	case bytecode.GE:
		return 0, x >= y
	case bytecode.EQ:
		return 0, x == y
	}
	return 0, x != y
}

// original returns the instruction a fused instruction stands for (its
// first one: a LOAD, or the comparison of cmpJump), with its operands, as
// the program's code has it; other instructions are returned as they are.
func original(in bytecode.Instr) bytecode.Instr {
	switch op := int(in.Op); {
	case op >= loadIntOp && op < loadIntOp+16, op >= loadIntCmpJump && op < loadIntCmpJump+16,
		op >= loadLoadOp && op < loadLoadOp+16, op >= loadLoadCmpJump && op < loadLoadCmpJump+16:
		return bytecode.Instr{Op: bytecode.LOAD, A: in.A}
	case op >= cmpJump && op < cmpJump+16:
		return bytecode.Instr{Op: fusedOps[op-cmpJump]}
	}
	return in
}
