package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Instruction fusion
//
// Load rewrites each function's code into an internal copy in which the
// first instruction of some common sequences is replaced by a fused
// instruction (a superinstruction) that does the work of the whole
// sequence in one dispatch:
//
//	LOAD a; INT k; OP                   -> loadIntOp[OP] a k
//	LOAD a; INT k; CMP; JUMP_IF_FALSE t -> loadIntCmpJump[CMP] a k
//	LOAD a; LOAD b; OP                  -> loadLoadOp[OP] a b
//	LOAD a; LOAD b; CMP; JUMP_IF_FALSE  -> loadLoadCmpJump[CMP] a b
//	CMP; JUMP_IF_FALSE t                -> cmpJump[CMP] t
//	LOAD a; INT k; ADD|SUB; CALL f n    -> loadIntCall[ADD|SUB] a k
//	LOAD a; INT k; ADD|SUB; TAIL_CALL   -> loadIntTailCall[ADD|SUB] a k
//	LOAD a; CALL f n                    -> loadCall a
//	LOAD a; TAIL_CALL f n               -> loadTailCall a
//	LOAD a; RETURN                      -> loadReturn a
//	ADD|SUB; RETURN                     -> opReturn[ADD|SUB]
//	LOAD a; TEST_TAG t; JUMP_IF_FALSE   -> loadTestTagJump a t
//	LOAD a; ELEM i; STORE b             -> loadElemStore a i
//	STORE a; LOAD b                     -> storeLoad a b
//
// where OP is ADD, SUB or a comparison and CMP a comparison, and every
// conditional jump goes forward (a backward jump is charged a step, see
// Run). The sequences are those the benchmarks and the prelude execute
// most (counted per dispatched instruction, docs/performance.md). The
// fused instruction replaces only the first instruction of its sequence;
// the others stay in place, so pcs, jump targets (even into the middle of
// a sequence) and line tables are unchanged, and operands the fused
// instruction has no room for (the target of a jump, the callee of a
// call, the slot of a STORE) are read from the instructions that follow
// it. A fused instruction takes its fast path only when its operands have
// the kinds it expects; otherwise it executes just its original first
// instruction and continues with the next one, so results and step counts
// are exactly those of the unfused code (the general path, step, always
// executes the original instruction). The rewritten code is private to
// the Image: the Program, its disassembly and the verifier never see
// fused opcodes.
//
// Sequences overlap (STORE a; LOAD b; TEST_TAG t; ...): every position
// gets the fusion that makes the straight-line code starting there take
// the fewest dispatches, computed backwards over the function.

// Fused opcodes live right above every real opcode, so that the opcodes
// the interpreter switches on stay dense (the compiler turns a dense
// switch into a jump table, a sparse one into a binary search). The
// groups indexed by an operation have fusedWidth members (one per
// operation of fusedOps; ADD and SUB are 0 and 1).
const (
	fusedBase  = bytecode.OpcodeCount
	fusedWidth = 8

	loadIntOp       = fusedBase                    // + fusedOps index
	loadIntCmpJump  = loadIntOp + fusedWidth       // + fusedOps index (comparisons)
	cmpJump         = loadIntCmpJump + fusedWidth  // + fusedOps index (comparisons)
	loadLoadOp      = cmpJump + fusedWidth         // + fusedOps index
	loadLoadCmpJump = loadLoadOp + fusedWidth      // + fusedOps index (comparisons)
	loadIntCall     = loadLoadCmpJump + fusedWidth // + 0 ADD, 1 SUB
	loadIntTailCall = loadIntCall + 2              // + 0 ADD, 1 SUB
	opReturn        = loadIntTailCall + 2          // + 0 ADD, 1 SUB
	loadCall        = opReturn + 2
	loadTailCall    = loadCall + 1
	loadReturn      = loadTailCall + 1
	loadTestTagJump = loadReturn + 1
	loadElemStore   = loadTestTagJump + 1
	storeLoad       = loadElemStore + 1
	// fusedEnd is the first opcode above the fused ones.
	fusedEnd = storeLoad + 1
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

// fusion is one candidate: the fused instruction and the number of
// original instructions it covers.
type fusion struct {
	in  bytecode.Instr
	len int
}

// candidates returns the fusions that apply at position i of src.
func candidates(src []bytecode.Instr, i int) []fusion {
	var out []fusion
	at := func(k int, op bytecode.Opcode) bool { return i+k < len(src) && src[i+k].Op == op }
	forward := func(k int) bool { return int(src[i+k].A) > i+k } // the jump at i+k goes forward
	in := src[i]
	switch {
	case in.Op == bytecode.LOAD:
		if i+2 < len(src) && (at(1, bytecode.INT) || at(1, bytecode.LOAD)) {
			op := src[i+2].Op
			if k, ok := fusedIndex(op); ok {
				plain, branch := loadIntOp, loadIntCmpJump
				if at(1, bytecode.LOAD) {
					plain, branch = loadLoadOp, loadLoadCmpJump
				}
				ab := bytecode.Instr{A: in.A, B: src[i+1].A}
				ab.Op = plain + bytecode.Opcode(k)
				out = append(out, fusion{ab, 3})
				if isCompare(op) && at(3, bytecode.JUMP_IF_FALSE) && forward(3) {
					ab.Op = branch + bytecode.Opcode(k)
					out = append(out, fusion{ab, 4})
				}
				if at(1, bytecode.INT) && k < 2 {
					if at(3, bytecode.CALL) {
						out = append(out, fusion{bytecode.Instr{Op: loadIntCall + bytecode.Opcode(k), A: in.A, B: src[i+1].A}, 4})
					}
					if at(3, bytecode.TAIL_CALL) {
						out = append(out, fusion{bytecode.Instr{Op: loadIntTailCall + bytecode.Opcode(k), A: in.A, B: src[i+1].A}, 4})
					}
				}
			}
		}
		if at(1, bytecode.CALL) {
			out = append(out, fusion{bytecode.Instr{Op: loadCall, A: in.A}, 2})
		}
		if at(1, bytecode.TAIL_CALL) {
			out = append(out, fusion{bytecode.Instr{Op: loadTailCall, A: in.A}, 2})
		}
		if at(1, bytecode.RETURN) {
			out = append(out, fusion{bytecode.Instr{Op: loadReturn, A: in.A}, 2})
		}
		if at(1, bytecode.TEST_TAG) && at(2, bytecode.JUMP_IF_FALSE) && forward(2) {
			out = append(out, fusion{bytecode.Instr{Op: loadTestTagJump, A: in.A, B: src[i+1].A}, 3})
		}
		if at(1, bytecode.ELEM) && at(2, bytecode.STORE) {
			out = append(out, fusion{bytecode.Instr{Op: loadElemStore, A: in.A, B: src[i+1].A}, 3})
		}
	case isCompare(in.Op) && at(1, bytecode.JUMP_IF_FALSE) && forward(1):
		k, _ := fusedIndex(in.Op)
		out = append(out, fusion{bytecode.Instr{Op: cmpJump + bytecode.Opcode(k), A: src[i+1].A}, 2})
	case (in.Op == bytecode.ADD || in.Op == bytecode.SUB) && at(1, bytecode.RETURN):
		k, _ := fusedIndex(in.Op)
		out = append(out, fusion{bytecode.Instr{Op: opReturn + bytecode.Opcode(k)}, 2})
	case in.Op == bytecode.STORE && at(1, bytecode.LOAD):
		out = append(out, fusion{bytecode.Instr{Op: storeLoad, A: in.A, B: src[i+1].A}, 2})
	}
	return out
}

// fuse returns the internal copy of f with fused instructions. Going
// backwards, cost[i] is the number of dispatches the straight-line code
// from i takes with the fusions chosen so far; each position takes the
// candidate (or its own instruction) that minimises it.
func fuse(f *bytecode.Function) *bytecode.Function {
	g := *f
	src := f.Code
	code := make([]bytecode.Instr, len(src))
	copy(code, src)
	cost := make([]int, len(src)+1)
	for i := len(src) - 1; i >= 0; i-- {
		cost[i] = 1 + cost[i+1]
		for _, c := range candidates(src, i) {
			if n := 1 + cost[i+c.len]; n < cost[i] {
				cost[i], code[i] = n, c.in
			}
		}
	}
	g.Code = code
	return &g
}

// original returns the instruction a fused instruction stands for (its
// first one), with its operands, as the program's code has it; other
// instructions are returned as they are.
func original(in bytecode.Instr) bytecode.Instr {
	switch op := in.Op; {
	case op < fusedBase:
		return in
	case op >= cmpJump && op < cmpJump+fusedWidth:
		return bytecode.Instr{Op: fusedOps[op-cmpJump]}
	case op >= opReturn && op < opReturn+2:
		return bytecode.Instr{Op: fusedOps[op-opReturn]}
	case op == storeLoad:
		return bytecode.Instr{Op: bytecode.STORE, A: in.A}
	}
	// Every other fused instruction starts with LOAD A.
	return bytecode.Instr{Op: bytecode.LOAD, A: in.A}
}
