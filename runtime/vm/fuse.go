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
	w := &window{src: src, i: i, fns: fns, p: p}
	switch op := src[i].Op; {
	case op == bytecode.LOAD:
		w.afterLoad()
	case isCompare(op):
		w.compareJump()
	case op == bytecode.ADD || op == bytecode.SUB:
		w.arithReturn()
	case op == bytecode.STORE:
		w.afterStore()
	case op == bytecode.TRUE || op == bytecode.FALSE || op == bytecode.UNIT:
		w.constReturn()
	case op == bytecode.JUMP_IF_FALSE:
		w.jumpElseJump()
	}
	return w.out
}

// window is the code seen from position i while looking for fusions
// there; out collects them, in order of preference among equal costs.
type window struct {
	src []bytecode.Instr
	i   int
	fns []*function
	p   *bytecode.Program
	out []fusion
}

// at reports whether the instruction at i+k exists and has opcode op.
func (w *window) at(k int, op bytecode.Opcode) bool {
	return w.i+k < len(w.src) && w.src[w.i+k].Op == op
}

// arg is the A operand of the instruction at i+k.
func (w *window) arg(k int) int { return int(w.src[w.i+k].A) }

// forward reports whether the jump at i+k goes forward.
func (w *window) forward(k int) bool { return w.arg(k) > w.i+k }

// add records a fusion of the n instructions from i into in.
func (w *window) add(in instr, n int) { w.out = append(w.out, fusion{in, n}) }

// addCall records the fusion of the instructions up to a CALL (as call) or
// a TAIL_CALL (as tail) at i+k, with the callee and its argument count
// taken from that call; nothing when i+k is neither.
func (w *window) addCall(k int, call, tail bytecode.Opcode, a, b int) {
	op := call
	switch {
	case w.at(k, bytecode.CALL):
	case w.at(k, bytecode.TAIL_CALL):
		op = tail
	default:
		return
	}
	w.add(instr{op: op, a: a, b: b, c: int(w.src[w.i+k].B), fn: w.fns[w.arg(k)]}, k+1)
}

// afterLoad finds the fusions that start with LOAD x.
func (w *window) afterLoad() {
	w.loadOperandOp()
	x := w.arg(0)
	w.addCall(1, loadCall, loadTailCall, x, 0)
	if w.at(1, bytecode.RETURN) {
		w.add(instr{op: loadReturn, a: x}, 2)
	}
	if w.at(1, bytecode.TEST_TAG) && w.at(2, bytecode.JUMP_IF_FALSE) && w.forward(2) {
		w.add(instr{op: loadTestTagJump, a: x, b: w.arg(1), c: w.arg(2)}, 3)
	}
	w.loadElemStore()
	if w.at(1, bytecode.LOAD) {
		w.add(instr{op: loadLoad, a: x, b: w.arg(1)}, 2)
	}
	if w.at(1, bytecode.EQ_CONST) && w.at(2, bytecode.JUMP_IF_FALSE) && w.forward(2) {
		if k, ok := intConst(w.p, w.src[w.i+1].A); ok {
			w.add(instr{op: loadEqConstJump, a: x, b: k, c: w.arg(2)}, 3)
		}
	}
}

// loadOperandOp finds LOAD x; INT n (or LOAD y); op for an operation of
// fusedOps, and what extends it: a forward JUMP_IF_FALSE after a
// comparison (then LOAD; RETURN after an INT operand: a guard that
// returns), or a call after ADD or SUB of an INT.
func (w *window) loadOperandOp() {
	if w.i+2 >= len(w.src) || !(w.at(1, bytecode.INT) || w.at(1, bytecode.LOAD)) {
		return
	}
	op := w.src[w.i+2].Op
	k, ok := fusedIndex(op)
	if !ok {
		return
	}
	plain, branch := loadIntOp, loadIntCmpJump
	if w.at(1, bytecode.LOAD) {
		plain, branch = loadLoadOp, loadLoadCmpJump
	}
	x, y, off := w.arg(0), w.arg(1), bytecode.Opcode(k)
	w.add(instr{op: plain + off, a: x, b: y, c: cmpOutcomes(op)}, 3)
	if isCompare(op) {
		w.operandCompareJump(branch+off, guardReturn+off)
	}
	if w.at(1, bytecode.INT) && k < 2 {
		w.addCall(3, loadIntCall+off, loadIntTailCall+off, x, y)
	}
}

// operandCompareJump extends LOAD x; INT n (or LOAD y); comparison by a
// forward JUMP_IF_FALSE (as branch), and an INT one also by LOAD; RETURN
// (as guard).
func (w *window) operandCompareJump(branch, guard bytecode.Opcode) {
	if !w.at(3, bytecode.JUMP_IF_FALSE) || !w.forward(3) {
		return
	}
	x, y := w.arg(0), w.arg(1)
	w.add(instr{op: branch, a: x, b: y, c: w.arg(3)}, 4)
	if w.at(1, bytecode.INT) && w.at(4, bytecode.LOAD) && w.at(5, bytecode.RETURN) {
		w.add(instr{op: guard, a: x, b: y, c: w.arg(3)}, 6)
	}
}

// loadElemStore finds LOAD x; ELEM e; STORE s, and the pair of them that
// stores elements 0 and 1 of x.
func (w *window) loadElemStore() {
	if !w.at(1, bytecode.ELEM) || !w.at(2, bytecode.STORE) {
		return
	}
	x := w.arg(0)
	w.add(instr{op: loadElemStore, a: x, b: w.arg(1), c: w.arg(2)}, 3)
	if w.arg(1) == 0 && w.arg(2) != x && w.at(3, bytecode.LOAD) && w.arg(3) == x &&
		w.at(4, bytecode.ELEM) && w.arg(4) == 1 && w.at(5, bytecode.STORE) {
		w.add(instr{op: loadElems2Store, a: x, b: w.arg(2), c: w.arg(5)}, 6)
	}
}

// compareJump finds a comparison followed by a forward JUMP_IF_FALSE.
func (w *window) compareJump() {
	if w.at(1, bytecode.JUMP_IF_FALSE) && w.forward(1) {
		op := w.src[w.i].Op
		k, _ := fusedIndex(op)
		w.add(instr{op: cmpJump + bytecode.Opcode(k), a: w.arg(1), c: cmpOutcomes(op)}, 2)
	}
}

// arithReturn finds ADD or SUB followed by RETURN.
func (w *window) arithReturn() {
	if w.at(1, bytecode.RETURN) {
		k, _ := fusedIndex(w.src[w.i].Op)
		w.add(instr{op: opReturn + bytecode.Opcode(k)}, 2)
	}
}

// afterStore finds STORE s; LOAD x, and STORE s; LOAD s; TEST_TAG t;
// JUMP_IF_FALSE forward.
func (w *window) afterStore() {
	if !w.at(1, bytecode.LOAD) {
		return
	}
	s := w.arg(0)
	w.add(instr{op: storeLoad, a: s, b: w.arg(1)}, 2)
	if w.arg(1) == s && w.at(2, bytecode.TEST_TAG) && w.at(3, bytecode.JUMP_IF_FALSE) && w.forward(3) {
		w.add(instr{op: storeTestTag, a: s, b: w.arg(2), c: w.arg(3)}, 4)
	}
}

// constReturn finds TRUE, FALSE or UNIT followed by RETURN.
func (w *window) constReturn() {
	if !w.at(1, bytecode.RETURN) {
		return
	}
	switch w.src[w.i].Op {
	case bytecode.UNIT:
		w.add(instr{op: unitReturn}, 2)
	case bytecode.TRUE:
		w.add(instr{op: boolReturn, b: 1}, 2)
	default:
		w.add(instr{op: boolReturn, b: 0}, 2)
	}
}

// jumpElseJump finds a forward JUMP_IF_FALSE followed by JUMP.
func (w *window) jumpElseJump() {
	if w.forward(0) && w.at(1, bytecode.JUMP) {
		w.add(instr{op: jumpElseJump, a: w.arg(0), b: w.arg(1)}, 2)
	}
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
