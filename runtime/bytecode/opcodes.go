package bytecode

import "fmt"

// Opcode is one instruction kind of the Morrow stack machine.
//
// Every instruction is an Opcode plus up to two int32 operands A and B
// (see Instr). Each opcode below carries its stack picture in the style
// `OP A B   before -> after`; the top of the stack is on the right. What
// the toolchain knows of an opcode (its name, operand kinds, stack counts,
// whether the VM runs it through its host, the verifier's rule) is its one
// descriptor in desc.go; StackEffect, BranchEffect, Operands, IsActor,
// IsTerminal and the verifier read it, and TestDescriptorsComplete (with
// runtime/vm's TestEveryOpcodeInterpreted) fails, naming what is missing,
// when an opcode lacks any part.
//
// Conventions:
//   - Jump targets are absolute instruction indexes into Function.Code.
//   - Operators are dynamically tagged: ADD adds two Ints (wrapping), two
//     Floats, or concatenates two Strings; the checker guarantees the two
//     operands have the same type.
//   - "fault N" means the VM raises the numbered runtime fault of
//     docs/reference/actors.md#fault-codes (running the defers of every active frame).
//   - Locals 0..Params-1 of a frame hold the arguments; the rest are the
//     function's let bindings and compiler temporaries.
type Opcode uint8

// The instruction set. The numeric values are part of the .mrb format:
// append new opcodes before OpcodeCount, never renumber.
const (
	NOP   Opcode = iota //            -            -> -
	POP                 //            x            -> -
	DUP                 //            x            -> x x
	SWAP                //            x y          -> y x
	UNIT                //            -            -> ()
	TRUE                //            -            -> true
	FALSE               //            -            -> false
	INT                 // A          -            -> Int(A)             small Int immediate
	CONST               // A          -            -> Consts[A]          Int, Float or String constant

	LOAD    // A          -            -> locals[A]
	STORE   // A          x            -> -                  locals[A] = x
	FREE    // A          -            -> free[A]            captured value A of the running closure
	FUNC    // A          -            -> fn                 closure of Functions[A] with no captures
	CLOSURE // A B        v1 .. vB     -> fn                 closure of Functions[A] capturing v1..vB (free[0..B-1]) by value
	NATIVE  // A          -            -> fn                 native Natives[A] as a function value (value.NativeFunc{ID: A})

	CALL            // A B        a1 .. aB     -> r          call Functions[A] with B arguments
	CALL_VALUE      // A          f a1 .. aA   -> r          call a function value (closure or native) with A arguments
	CALL_NATIVE     // A B        a1 .. aB     -> r          call native Natives[A] with B arguments
	TAIL_CALL       // A B        a1 .. aB     -> (leaves)   replace the current frame by a call of Functions[A]; its result is returned to our caller
	TAIL_CALL_VALUE // A          f a1 .. aA   -> (leaves)   tail call of a function value
	RETURN          //            x            -> (leaves)   run this frame's defers (LIFO), then return x to the caller

	JUMP          // A          -            -> -          pc = A
	JUMP_IF_FALSE // A          c            -> -          if c is false: pc = A
	JUMP_IF_TRUE  // A          c            -> -          if c is true: pc = A

	ADD    //            x y          -> x+y        Int (wrapping), Float, String concatenation
	SUB    //            x y          -> x-y        Int (wrapping), Float
	MUL    //            x y          -> x*y        Int (wrapping), Float
	DIV    //            x y          -> x/y        Int truncates toward zero (fault 1 on 0; MinInt/-1 wraps), Float IEEE
	MOD    //            x y          -> x%y        Int, sign of the dividend (fault 1 on 0)
	POW    //            x y          -> x**y       Int (fault 2 on a negative exponent, wrapping), Float
	BITAND //            x y          -> x&&&y      Int
	BITOR  //            x y          -> x|||y      Int
	BITXOR //            x y          -> x^^^y      Int
	SHL    //            x y          -> x<<<y      Int, shift count masked with & 63
	SHR    //            x y          -> x>>>y      Int, arithmetic shift, count masked with & 63
	EQ     //            x y          -> x==y       structural equality on any two values of one type
	NE     //            x y          -> x!=y
	LT     //            x y          -> x<y        Int or Float (also String by bytes)
	LE     //            x y          -> x<=y
	GT     //            x y          -> x>y
	GE     //            x y          -> x>=y
	IN     //            x xs         -> Bool       membership of x in a List (==) or Range
	NEG    //            x            -> -x         Int (wrapping) or Float
	NOT    //            b            -> not b      Bool
	BITNOT //            x            -> ~~~x       Int

	TUPLE // A          v1 .. vA     -> (v1, .., vA)
	LIST  // A          v1 .. vA     -> [v1, .., vA]
	DATA  // A B        f1 .. fN     -> d          value of Types[A], variant tag B; N = len(Types[A].Variants[B].Fields)
	RANGE // A          lo hi        -> range      A = 1 for `lo..=hi`, 0 for `lo..hi`

	TEST_TAG   // A          x            -> Bool       x is a Data value whose variant tag is A
	TEST_KIND  // A          x            -> Bool       x's dynamic tag is value.Kind(A) (union narrowing `n: Int`)
	TEST_TYPE  // A          x            -> Bool       x is a Data value of nominal type Types[A] (union narrowing)
	EQ_CONST   // A          x            -> Bool       x == Consts[A]
	ELEM       // A          x            -> x.A        element A of a tuple, or positional field A of a Data value
	FIELD      // A          x            -> x.name     field named Consts[A] (a String) of a record value
	LIST_LEN   //            xs           -> Int        number of elements of a List
	LIST_ELEM  // A          xs           -> xs[A]      element A (0 <= A < len, guaranteed by a prior length test)
	LIST_SLICE // A          xs           -> xs[A:]     the list without its first A elements (A <= len)
	INDEX      //            xs i         -> xs[i]      List.get: fault 3 when i < 0 or i >= len
	UPDATE     // A          r v          -> r'         copy of record r with the field named Consts[A] set to v

	ITER      //            x            -> it         iterator over a List or Range (value.KIter); must be followed by STORE to an iterator slot (verify.go: checkIterators)
	ITER_NEXT // A B        -            -> v          locals[A], an iterator slot (only ITER_NEXT reads one): push the next item; when exhausted push nothing and jump to B
	INTERP    // A          v1 .. vA     -> String     concatenate the text of v1..vA: Int, Float, Bool, String as println prints them
	DEFER     //            f            -> -          push the zero-argument closure f on the frame's defer list (RETURN and faults run it, LIFO)
	FAIL      // A          -            -> (faults)   internal error with message Consts[A] (a match no arm matched; unreachable for checked programs)

	// Actor operations: the VM hands them to its vm.Host (the scheduler's
	// per-process host). The receive protocol they implement: arms are
	// compiled as test code
	// over one candidate message so that the VM can replay them over the
	// mailbox:
	//
	//	    RECV_START A          A = local holding the timeout in ms (-1: none)
	//	L:  RECV_PEEK  W          push the message at the cursor, or jump to W if none
	//	    STORE m; <arm 1 pattern tests and guard on m, JUMP_IF_FALSE n1>
	//	    RECV_TAKE; <arm 1 body>; JUMP end
	//	n1: ... other arms ...
	//	    RECV_SKIP; JUMP L     no arm matched: advance the cursor
	//	W:  RECV_WAIT L           park until a new message arrives (then resume at L)
	//	                          or the timeout expires (then fall through)
	//	    <timeout body>
	//	end:
	//
	// Guards are pure (docs/reference/checks.md#receive-guards), so replaying them is safe.
	//
	// RECV_START's B operand is 1 for receive_event: the arms then see
	// every cell of the mailbox as a Process.Event (user messages wrapped
	// in Message), while a plain receive sees only user messages. A
	// receive without a timeout arm has A = -1. RECV_WAIT parks with the
	// pc still on itself, so a resumed State asks the host again; a host
	// answers "rescan" (jump to A) when cells arrived past the cursor and
	// "timeout" (fall through) once the deadline has passed. The timeout
	// local is checked by RECV_START (fault 8 outside 0..600000).
	RECV_START // A B        -            -> -          begin a receive: cursor = 0, timeout from locals[A] (A = -1: none); B = 1: receive_event
	RECV_PEEK  // A          -            -> msg        push the message at the cursor, or jump to A when none is left
	RECV_TAKE  //            -            -> -          remove the message at the cursor from the mailbox (it matched)
	RECV_SKIP  //            -            -> -          advance the cursor past a message that matched no arm
	RECV_WAIT  // A          -            -> -          park; on a new message jump to A; on timeout fall through
	SPAWN      // A          f            -> r          spawn entry f; A selects the API (stdlib/process Spawn* modes: 0 legacy spawn, 1 Process.spawn, 2 spawn_monitor, 3 spawn_link, 4 supervise with f = (entry, n))
	SEND       //            pid msg      -> Result     send msg to pid
	SELF       //            -            -> pid        the running process's Pid

	// Process.call compiles to CALL_REPLY, a call of the request function
	// with the reply address, and CALL_WAIT; Process.send_wait to
	// SEND_WAIT. CALL_WAIT and SEND_WAIT park with the pc still on
	// themselves (their operands stay on the stack), so a resumed State
	// asks the host again, as RECV_WAIT does.
	CALL_REPLY //            -            -> reply      a fresh one-shot reply address of the running process (Process.call)
	CALL_WAIT  //            pid msg t r  -> Result     send msg to pid and wait up to t ms (t < 0: forever) for the reply to r: Result(R, Process.CallError)
	SEND_WAIT  //            pid msg      -> Result     send msg to pid, parking while its mailbox is full: Result((), Int)

	OpcodeCount // number of opcodes; not an instruction
)

// Instr is one decoded instruction. Operands an opcode does not use are 0.
type Instr struct {
	Op   Opcode
	A, B int32
}

func (in Instr) String() string {
	switch in.Op.NumOperands() {
	case 0:
		return in.Op.String()
	case 1:
		return fmt.Sprintf("%s %d", in.Op, in.A)
	default:
		return fmt.Sprintf("%s %d %d", in.Op, in.A, in.B)
	}
}

// OperandKind says what an operand of an instruction means; the verifier
// uses it to range-check operands and the disassembler to annotate them.
type OperandKind uint8

// Operand kinds.
const (
	OpNone   OperandKind = iota // operand unused (must be 0)
	OpImm                       // a signed immediate Int
	OpCount                     // a non-negative count of stack values
	OpConst                     // index into Program.Consts
	OpName                      // index into Program.Consts of a String naming a field
	OpLocal                     // index of a local slot of the running frame
	OpFree                      // index of a captured value of the running closure
	OpFunc                      // index into Program.Functions
	OpNative                    // index into Program.Natives
	OpType                      // index into Program.Types
	OpTag                       // variant tag (for DATA: a variant of the type in operand A)
	OpKind                      // a value.Kind
	OpFlag                      // 0 or 1
	OpJump                      // absolute pc in the same function (0 <= pc < len(Code))
	OpMode                      // small enumeration specific to the opcode
)

var operandKindNames = [...]string{"none", "imm", "count", "const", "name", "local", "free", "func", "native", "type", "tag", "kind", "flag", "jump", "mode"}

func (k OperandKind) String() string {
	if int(k) < len(operandKindNames) {
		return operandKindNames[k]
	}
	return "operand?"
}

// Operands returns the kinds of operands A and B of op.
func (op Opcode) Operands() (a, b OperandKind) {
	if op >= OpcodeCount {
		return OpNone, OpNone
	}
	d := &descs[op]
	return d.A, d.B
}

// NumOperands returns how many operands op uses (0, 1 or 2).
func (op Opcode) NumOperands() int {
	a, b := op.Operands()
	switch {
	case b != OpNone:
		return 2
	case a != OpNone:
		return 1
	}
	return 0
}

// JumpTarget returns the jump target of in, if its opcode has one.
func (in Instr) JumpTarget() (int, bool) {
	a, b := in.Op.Operands()
	switch {
	case a == OpJump:
		return int(in.A), true
	case b == OpJump:
		return int(in.B), true
	}
	return 0, false
}

// IsTerminal reports whether control never falls through to the next
// instruction (unconditional jump, return, tail call, FAIL).
func (op Opcode) IsTerminal() bool { return op < OpcodeCount && descs[op].Terminal }

// IsActor reports whether op is an actor instruction, one the VM executes
// through its host (receive, spawn, send, self, call, send_wait). The set
// is the descriptors' Actor flags; the VM asks this method.
func (op Opcode) IsActor() bool { return actorOps[op] }

// actorOps is the descriptors' Actor flags as a table indexed by every
// byte value, so IsActor is one load with no bounds check.
var actorOps = func() (t [256]bool) {
	for op := range descs {
		t[op] = descs[op].Actor
	}
	return t
}()

// stackCounts returns how many values in pops and pushes on its
// fall-through path; ok is false for a malformed instruction (unknown
// opcode, negative count, DATA with an unknown type or tag). p supplies
// the type table for DATA; it may be nil for every other opcode.
func stackCounts(in Instr, p *Program) (pops, pushes int, ok bool) {
	if in.Op >= OpcodeCount {
		return 0, 0, false
	}
	d := &descs[in.Op]
	a, b := int(in.A), int(in.B)
	pushes = int(d.Pushes)
	switch d.Pops {
	case PopsFixed:
		return int(d.N), pushes, true
	case PopsB:
		pops = b
	case PopsA:
		pops = a
	case PopsAPlusFunc:
		if a < 0 {
			return 0, 0, false
		}
		pops = a + 1
	case PopsFields:
		if p == nil || a < 0 || a >= len(p.Types) || p.Types[a] == nil {
			return 0, 0, false
		}
		vs := p.Types[a].Variants
		if b < 0 || b >= len(vs) {
			return 0, 0, false
		}
		return len(vs[b].Fields), pushes, true
	default:
		return 0, 0, false
	}
	if pops < 0 {
		return 0, 0, false
	}
	return pops, pushes, true
}

// StackEffect returns the net change of the operand-stack depth when in
// runs and control falls through to the next instruction (for terminal
// instructions: the change before control leaves). p supplies the type
// table for DATA; it may be nil for every other opcode. ok is false when
// the instruction is malformed (unknown opcode, negative count, DATA with
// an unknown type or tag).
func StackEffect(in Instr, p *Program) (effect int, ok bool) {
	pops, pushes, ok := stackCounts(in, p)
	return pushes - pops, ok
}

// BranchEffect returns the net change of the stack depth when in jumps to
// its target. It differs from StackEffect only for the instructions that
// push their item only when they do not jump (ITER_NEXT, RECV_PEEK).
func BranchEffect(in Instr) int {
	pops, pushes, _ := stackCounts(in, nil)
	if in.Op < OpcodeCount && descs[in.Op].PushOnlyOnFallThrough {
		pushes = 0
	}
	return pushes - pops
}
