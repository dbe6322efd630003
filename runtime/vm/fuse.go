package vm

import (
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// The fast loop's code
//
// Load translates each function's code into the internal code the fast
// loop runs (exec.go): one instr per instruction, at the same pc, with
// room for a third operand and a resolved callee, in which the first
// instruction of some common sequences is replaced by a fused instruction
// (a superinstruction) that does the work of the whole sequence in one
// dispatch:
//
//	LOAD a; INT k; OP                   -> loadIntOp[OP] a k
//	LOAD a; INT k; CMP; JUMP_IF_FALSE t -> loadIntCmpJump[CMP] a k t
//	LOAD a; INT k; CMP; JUMP_IF_FALSE t; LOAD r; RETURN
//	                                    -> guardReturn[CMP] a k t (r is read
//	                                       from the LOAD, still in place)
//	LOAD a; LOAD b; OP                  -> loadLoadOp[OP] a b
//	LOAD a; LOAD b; CMP; JUMP_IF_FALSE t -> loadLoadCmpJump[CMP] a b t
//	CMP; JUMP_IF_FALSE t                -> cmpJump[CMP] t
//	LOAD a; INT k; ADD|SUB; CALL f n    -> loadIntCall[ADD|SUB] a k n f
//	LOAD a; INT k; ADD|SUB; TAIL_CALL f n -> loadIntTailCall[ADD|SUB] a k n f
//	LOAD a; CALL f n                    -> loadCall a n f
//	LOAD a; TAIL_CALL f n               -> loadTailCall a n f
//	LOAD a; RETURN                      -> loadReturn a
//	ADD|SUB; RETURN                     -> opReturn[ADD|SUB]
//	LOAD a; TEST_TAG t; JUMP_IF_FALSE j -> loadTestTagJump a t j
//	LOAD a; ELEM i; STORE b             -> loadElemStore a i b
//	STORE a; LOAD b                     -> storeLoad a b
//	LOAD a; EQ_CONST k; JUMP_IF_FALSE t -> loadEqConstJump a k t (k an Int)
//	TRUE|FALSE; RETURN                  -> boolReturn 1|0
//	UNIT; RETURN                        -> unitReturn
//	STORE a; LOAD a; TEST_TAG t; JUMP_IF_FALSE j
//	                                    -> storeTestTag a t j (a match's head)
//	JUMP_IF_FALSE t; JUMP u             -> jumpElseJump t u (u may go back)
//	LOAD a; LOAD b                      -> loadLoad a b
//	LOAD a; ELEM 0; STORE b; LOAD a; ELEM 1; STORE c
//	                                    -> loadElems2Store a b c (b != a)
//
// where OP is ADD, SUB or a comparison and CMP a comparison, and every
// conditional jump goes forward (a backward jump is charged a step, see
// Run). The sequences are those the benchmarks and the prelude execute
// most (counted per dispatched instruction, docs/performance.md). CALL
// and TAIL_CALL carry their callee resolved. The fused instruction
// replaces only the first instruction of its sequence; the others stay
// in place, so pcs, jump targets (even into the middle of a sequence) and
// line tables are unchanged. A fused instruction takes its fast path only
// when its operands have the kinds it expects; otherwise it executes just
// its first instruction and continues with the next one, so results and
// step counts are exactly those of the unfused code. The general path
// (step) and fault reports use the program's own code; the Program, its
// disassembly and the verifier never see the internal one.
//
// Sequences overlap (STORE a; LOAD b; TEST_TAG t; ...): every position
// gets the fusion that makes the straight-line code starting there take
// the fewest dispatches, computed backwards over the function.

// instr is one instruction of the internal code.
type instr struct {
	op   bytecode.Opcode
	a, b int
	c    int       // third operand: a jump target, a STORE slot, an argument count, a comparison's outcomes (cmpOutcomes)
	fn   *function // the callee of a call of a compiled function
}

// cmpOutcomes is the set of outcomes of comparing x with y for which the
// comparison op holds: bit 0 x < y, bit 1 x == y, bit 2 x > y. The
// comparisons that leave a Bool (LT..NE, loadIntOp and loadLoadOp of a
// comparison, cmpJump) carry it in c, where the fast loop tests it with
// a shift (cmpHolds) instead of switching on the operation: the switch
// needed enough registers that the compiler spilled two of the loop's
// variables at every dispatch.
func cmpOutcomes(op bytecode.Opcode) int {
	switch op {
	case bytecode.LT:
		return 1
	case bytecode.LE:
		return 1 | 2
	case bytecode.GT:
		return 4
	case bytecode.GE:
		return 2 | 4
	case bytecode.EQ:
		return 2
	}
	return 1 | 4 // NE
}

// Fused opcodes live right above every real opcode, so that the opcodes
// the interpreter switches on stay dense (the compiler turns a dense
// switch into a jump table, a sparse one into a binary search). The
// groups indexed by an operation have fusedWidth members (one per
// operation of fusedOps; ADD and SUB are 0 and 1); the groups of
// comparisons only have cmpWidth, their first member being group+2.
const (
	fusedBase  = bytecode.OpcodeCount
	fusedWidth = 8
	cmpWidth   = fusedWidth - 2

	loadIntOp       = fusedBase                   // + fusedOps index
	loadIntCmpJump  = loadIntOp + fusedWidth - 2  // + fusedOps index (comparisons)
	cmpJump         = loadIntCmpJump + cmpWidth   // + fusedOps index (comparisons)
	loadLoadOp      = cmpJump + cmpWidth + 2      // + fusedOps index
	loadLoadCmpJump = loadLoadOp + fusedWidth - 2 // + fusedOps index (comparisons)
	guardReturn     = loadLoadCmpJump + cmpWidth  // + fusedOps index (comparisons)
	loadIntCall     = guardReturn + cmpWidth + 2  // + 0 ADD, 1 SUB
	loadIntTailCall = loadIntCall + 2             // + 0 ADD, 1 SUB
	opReturn        = loadIntTailCall + 2         // + 0 ADD, 1 SUB
	loadCall        = opReturn + 2
	loadTailCall    = loadCall + 1
	loadReturn      = loadTailCall + 1
	loadTestTagJump = loadReturn + 1
	loadElemStore   = loadTestTagJump + 1
	storeLoad       = loadElemStore + 1
	loadEqConstJump = storeLoad + 1
	boolReturn      = loadEqConstJump + 1
	unitReturn      = boolReturn + 1
	storeTestTag    = unitReturn + 1
	jumpElseJump    = storeTestTag + 1
	loadLoad        = jumpElseJump + 1
	loadElems2Store = loadLoad + 1
	// fusedEnd is the first opcode above the fused ones.
	fusedEnd = loadElems2Store + 1
)

// opMask covers every opcode the fast loop switches on: it switches on
// op&opMask, which tells the compiler that the jump table's index is in
// range (0..255; the switch has a case for 255, so the table covers the
// whole range), so the dispatch needs no range check. Opcodes must stay
// below opMask.
const opMask = 255

var _ [opMask - int(fusedEnd)]struct{}

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
	in  instr
	len int
}

// candidates returns the fusions that apply at position i of src (fns
// resolves callees, p's constants are those of EQ_CONST).
func candidates(src []bytecode.Instr, i int, fns []*function, p *bytecode.Program) []fusion {
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
				out = append(out, fusion{instr{op: plain + bytecode.Opcode(k), a: int(in.A), b: int(src[i+1].A), c: cmpOutcomes(op)}, 3})
				if isCompare(op) && at(3, bytecode.JUMP_IF_FALSE) && forward(3) {
					out = append(out, fusion{instr{op: branch + bytecode.Opcode(k), a: int(in.A), b: int(src[i+1].A), c: int(src[i+3].A)}, 4})
					if at(1, bytecode.INT) && at(4, bytecode.LOAD) && at(5, bytecode.RETURN) {
						out = append(out, fusion{instr{op: guardReturn + bytecode.Opcode(k), a: int(in.A), b: int(src[i+1].A), c: int(src[i+3].A)}, 6})
					}
				}
				if at(1, bytecode.INT) && k < 2 {
					if at(3, bytecode.CALL) {
						out = append(out, fusion{instr{op: loadIntCall + bytecode.Opcode(k), a: int(in.A), b: int(src[i+1].A), c: int(src[i+3].B), fn: fns[src[i+3].A]}, 4})
					}
					if at(3, bytecode.TAIL_CALL) {
						out = append(out, fusion{instr{op: loadIntTailCall + bytecode.Opcode(k), a: int(in.A), b: int(src[i+1].A), c: int(src[i+3].B), fn: fns[src[i+3].A]}, 4})
					}
				}
			}
		}
		if at(1, bytecode.CALL) {
			out = append(out, fusion{instr{op: loadCall, a: int(in.A), c: int(src[i+1].B), fn: fns[src[i+1].A]}, 2})
		}
		if at(1, bytecode.TAIL_CALL) {
			out = append(out, fusion{instr{op: loadTailCall, a: int(in.A), c: int(src[i+1].B), fn: fns[src[i+1].A]}, 2})
		}
		if at(1, bytecode.RETURN) {
			out = append(out, fusion{instr{op: loadReturn, a: int(in.A)}, 2})
		}
		if at(1, bytecode.TEST_TAG) && at(2, bytecode.JUMP_IF_FALSE) && forward(2) {
			out = append(out, fusion{instr{op: loadTestTagJump, a: int(in.A), b: int(src[i+1].A), c: int(src[i+2].A)}, 3})
		}
		if at(1, bytecode.ELEM) && at(2, bytecode.STORE) {
			out = append(out, fusion{instr{op: loadElemStore, a: int(in.A), b: int(src[i+1].A), c: int(src[i+2].A)}, 3})
			if src[i+1].A == 0 && src[i+2].A != in.A && at(3, bytecode.LOAD) && src[i+3].A == in.A &&
				at(4, bytecode.ELEM) && src[i+4].A == 1 && at(5, bytecode.STORE) {
				out = append(out, fusion{instr{op: loadElems2Store, a: int(in.A), b: int(src[i+2].A), c: int(src[i+5].A)}, 6})
			}
		}
		if at(1, bytecode.LOAD) {
			out = append(out, fusion{instr{op: loadLoad, a: int(in.A), b: int(src[i+1].A)}, 2})
		}
		if at(1, bytecode.EQ_CONST) && at(2, bytecode.JUMP_IF_FALSE) && forward(2) {
			if k, ok := intConst(p, src[i+1].A); ok {
				out = append(out, fusion{instr{op: loadEqConstJump, a: int(in.A), b: k, c: int(src[i+2].A)}, 3})
			}
		}
	case isCompare(in.Op) && at(1, bytecode.JUMP_IF_FALSE) && forward(1):
		k, _ := fusedIndex(in.Op)
		out = append(out, fusion{instr{op: cmpJump + bytecode.Opcode(k), a: int(src[i+1].A), c: cmpOutcomes(in.Op)}, 2})
	case (in.Op == bytecode.ADD || in.Op == bytecode.SUB) && at(1, bytecode.RETURN):
		k, _ := fusedIndex(in.Op)
		out = append(out, fusion{instr{op: opReturn + bytecode.Opcode(k)}, 2})
	case in.Op == bytecode.STORE && at(1, bytecode.LOAD):
		out = append(out, fusion{instr{op: storeLoad, a: int(in.A), b: int(src[i+1].A)}, 2})
		if src[i+1].A == in.A && at(2, bytecode.TEST_TAG) && at(3, bytecode.JUMP_IF_FALSE) && forward(3) {
			out = append(out, fusion{instr{op: storeTestTag, a: int(in.A), b: int(src[i+2].A), c: int(src[i+3].A)}, 4})
		}
	case (in.Op == bytecode.TRUE || in.Op == bytecode.FALSE) && at(1, bytecode.RETURN):
		b := 0
		if in.Op == bytecode.TRUE {
			b = 1
		}
		out = append(out, fusion{instr{op: boolReturn, b: b}, 2})
	case in.Op == bytecode.UNIT && at(1, bytecode.RETURN):
		out = append(out, fusion{instr{op: unitReturn}, 2})
	case in.Op == bytecode.JUMP_IF_FALSE && forward(0) && at(1, bytecode.JUMP):
		out = append(out, fusion{instr{op: jumpElseJump, a: int(in.A), b: int(src[i+1].A)}, 2})
	}
	return out
}

// fuse returns the internal code for src (a verified function's code;
// fns are the functions of program p). Going backwards, cost[i] is the
// number of dispatches the straight-line code from i takes with the
// fusions chosen so far; each position takes the candidate (or its own
// instruction) that minimises it.
func fuse(src []bytecode.Instr, fns []*function, p *bytecode.Program) []instr {
	code := make([]instr, len(src))
	cost := make([]int, len(src)+1)
	for i := len(src) - 1; i >= 0; i-- {
		in := src[i]
		code[i] = instr{op: in.Op, a: int(in.A), b: int(in.B)}
		if in.Op == bytecode.CALL || in.Op == bytecode.TAIL_CALL {
			code[i].c, code[i].fn = int(in.B), fns[in.A]
		}
		if isCompare(in.Op) {
			code[i].c = cmpOutcomes(in.Op)
		}
		if in.Op == bytecode.DATA {
			code[i].c = dataFields(p, in)
		}
		if in.Op == bytecode.EQ_CONST {
			if k, ok := intConst(p, in.A); ok {
				code[i].b, code[i].c = k, 1
			}
		}
		cost[i] = 1 + cost[i+1]
		for _, c := range candidates(src, i, fns, p) {
			if n := 1 + cost[i+c.len]; n < cost[i] {
				cost[i], code[i] = n, c.in
			}
		}
	}
	return code
}

// dataFields is the number of fields of the variant DATA in builds (0
// for a payload-free variant, which the fast loop takes from the image's
// table, or for operands out of range: the general path reports those).
func dataFields(p *bytecode.Program, in bytecode.Instr) int {
	if in.A < 0 || int(in.A) >= len(p.Types) || p.Types[in.A] == nil {
		return 0
	}
	vs := p.Types[in.A].Variants
	if in.B < 0 || int(in.B) >= len(vs) {
		return 0
	}
	return len(vs[in.B].Fields)
}

// intConst returns constant k of p when it is an Int that fits an int.
func intConst(p *bytecode.Program, k int32) (int, bool) {
	if k < 0 || int(k) >= len(p.Consts) || !p.Consts[k].IsInt() {
		return 0, false
	}
	n := p.Consts[k].AsInt()
	if int64(int(n)) != n {
		return 0, false
	}
	return int(n), true
}
