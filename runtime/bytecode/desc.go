package bytecode

import "fmt"

// Desc is everything the toolchain knows about one opcode besides how the
// VM executes it. Every per-opcode table of this package is derived from
// descs: the names (String, OpcodeByName, the disassembler), the operand
// kinds (Operands, the verifier's range checks, the disassembler's
// annotations), the stack counts (StackEffect, BranchEffect, the
// verifier's depth analysis), the actor set (IsActor, which the VM asks)
// and the terminal set (IsTerminal).
//
// Adding an instruction: append the opcode before OpcodeCount, give it a
// descriptor here, and a case in the VM's general interpreter
// (runtime/vm step.go, or actorStep for an actor instruction).
// TestDescriptorsComplete and runtime/vm's TestEveryOpcodeInterpreted say
// what is missing.
type Desc struct {
	Name string
	A, B OperandKind // what operands A and B mean (OpNone: unused, must be 0)

	// Pops says how many values the instruction takes from the stack:
	// N of them (PopsFixed) or a count read from its operands.
	Pops PopRule
	N    int8
	// Pushes is how many values it leaves on the fall-through path.
	Pushes int8
	// PushOnlyOnFallThrough: the jump edge pushes nothing (ITER_NEXT,
	// RECV_PEEK push their item only when they do not jump).
	PushOnlyOnFallThrough bool

	Terminal bool // control never falls through (JUMP, RETURN, tail calls, FAIL)
	Actor    bool // the VM runs it through its host (vm.Host), never in the fast loop's plain cases

	// Verify is the verifier's rule for one instruction once each operand
	// is in range for its kind: "" when the instruction is fine, else the
	// problem. Every opcode names one, plain (operands alone decide) when
	// its operand kinds say everything.
	Verify Rule
}

// Rule is a verifier rule for one instruction of f (see Desc.Verify).
type Rule func(p *Program, f *Function, in Instr) string

// PopRule says where the number of values an instruction pops comes from.
type PopRule uint8

// Pop rules.
const (
	PopsFixed     PopRule = iota + 1 // Desc.N values
	PopsA                            // operand A values (TUPLE, LIST, INTERP)
	PopsB                            // operand B values (arguments, captures)
	PopsAPlusFunc                    // a function value and operand A arguments
	PopsFields                       // the fields of variant B of type A (DATA)
)

// Variable reports whether the number of values the instruction pops
// depends on its operands.
func (r PopRule) Variable() bool { return r != PopsFixed }

// fixed is a descriptor of an instruction with operand kinds a and b that
// pops n and pushes m values, checked by its operand kinds alone.
func fixed(name string, a, b OperandKind, n, m int8) Desc {
	return Desc{Name: name, A: a, B: b, Pops: PopsFixed, N: n, Pushes: m, Verify: plain}
}

// binop is an operator taking two values and leaving one.
func binop(name string) Desc { return fixed(name, OpNone, OpNone, 2, 1) }

// unary is an operation taking one value and leaving one.
func unary(name string, a OperandKind) Desc { return fixed(name, a, OpNone, 1, 1) }

// push is an instruction that pushes one value and pops none.
func push(name string, a OperandKind) Desc { return fixed(name, a, OpNone, 0, 1) }

func (d Desc) with(fs ...func(*Desc)) Desc {
	for _, f := range fs {
		f(&d)
	}
	return d
}

func terminal(d *Desc)        { d.Terminal = true }
func actor(d *Desc)           { d.Actor = true }
func pushOnlyFall(d *Desc)    { d.PushOnlyOnFallThrough = true }
func rule(r Rule) func(*Desc) { return func(d *Desc) { d.Verify = r } }

func variable(name string, a, b OperandKind, pops PopRule, pushes int8) Desc {
	return Desc{Name: name, A: a, B: b, Pops: pops, Pushes: pushes, Verify: plain}
}

// descs is the descriptor of every opcode, indexed by Opcode.
var descs = [OpcodeCount]Desc{
	NOP:   fixed("NOP", OpNone, OpNone, 0, 0),
	POP:   fixed("POP", OpNone, OpNone, 1, 0),
	DUP:   fixed("DUP", OpNone, OpNone, 1, 2),
	SWAP:  fixed("SWAP", OpNone, OpNone, 2, 2),
	UNIT:  push("UNIT", OpNone),
	TRUE:  push("TRUE", OpNone),
	FALSE: push("FALSE", OpNone),
	INT:   push("INT", OpImm),
	CONST: push("CONST", OpConst),

	LOAD:    push("LOAD", OpLocal),
	STORE:   fixed("STORE", OpLocal, OpNone, 1, 0),
	FREE:    push("FREE", OpFree),
	FUNC:    push("FUNC", OpFunc).with(rule(noCaptures)),
	CLOSURE: variable("CLOSURE", OpFunc, OpCount, PopsB, 1).with(rule(capturesMatch)),
	NATIVE:  push("NATIVE", OpNative),

	CALL:            variable("CALL", OpFunc, OpCount, PopsB, 1).with(rule(directCall)),
	CALL_VALUE:      variable("CALL_VALUE", OpCount, OpNone, PopsAPlusFunc, 1),
	CALL_NATIVE:     variable("CALL_NATIVE", OpNative, OpCount, PopsB, 1),
	TAIL_CALL:       variable("TAIL_CALL", OpFunc, OpCount, PopsB, 0).with(terminal, rule(directCall)),
	TAIL_CALL_VALUE: variable("TAIL_CALL_VALUE", OpCount, OpNone, PopsAPlusFunc, 0).with(terminal),
	RETURN:          fixed("RETURN", OpNone, OpNone, 1, 0).with(terminal),

	JUMP:          fixed("JUMP", OpJump, OpNone, 0, 0).with(terminal),
	JUMP_IF_FALSE: fixed("JUMP_IF_FALSE", OpJump, OpNone, 1, 0),
	JUMP_IF_TRUE:  fixed("JUMP_IF_TRUE", OpJump, OpNone, 1, 0),

	ADD:    binop("ADD"),
	SUB:    binop("SUB"),
	MUL:    binop("MUL"),
	DIV:    binop("DIV"),
	MOD:    binop("MOD"),
	POW:    binop("POW"),
	BITAND: binop("BITAND"),
	BITOR:  binop("BITOR"),
	BITXOR: binop("BITXOR"),
	SHL:    binop("SHL"),
	SHR:    binop("SHR"),
	EQ:     binop("EQ"),
	NE:     binop("NE"),
	LT:     binop("LT"),
	LE:     binop("LE"),
	GT:     binop("GT"),
	GE:     binop("GE"),
	IN:     binop("IN"),
	NEG:    unary("NEG", OpNone),
	NOT:    unary("NOT", OpNone),
	BITNOT: unary("BITNOT", OpNone),

	TUPLE: variable("TUPLE", OpCount, OpNone, PopsA, 1),
	LIST:  variable("LIST", OpCount, OpNone, PopsA, 1),
	DATA:  variable("DATA", OpType, OpTag, PopsFields, 1),
	RANGE: fixed("RANGE", OpFlag, OpNone, 2, 1),

	TEST_TAG:   unary("TEST_TAG", OpTag),
	TEST_KIND:  unary("TEST_KIND", OpKind),
	TEST_TYPE:  unary("TEST_TYPE", OpType),
	EQ_CONST:   unary("EQ_CONST", OpConst),
	ELEM:       unary("ELEM", OpCount),
	FIELD:      unary("FIELD", OpName),
	LIST_LEN:   unary("LIST_LEN", OpNone),
	LIST_ELEM:  unary("LIST_ELEM", OpCount),
	LIST_SLICE: unary("LIST_SLICE", OpCount),
	INDEX:      binop("INDEX"),
	UPDATE:     fixed("UPDATE", OpName, OpNone, 2, 1),

	ITER:      unary("ITER", OpNone),
	ITER_NEXT: push("ITER_NEXT", OpLocal).with(func(d *Desc) { d.B = OpJump; pushOnlyFall(d) }),
	INTERP:    variable("INTERP", OpCount, OpNone, PopsA, 1),
	DEFER:     fixed("DEFER", OpNone, OpNone, 1, 0),
	FAIL:      fixed("FAIL", OpConst, OpNone, 0, 0).with(terminal),

	RECV_START: fixed("RECV_START", OpImm, OpFlag, 0, 0).with(actor, rule(timeoutLocal)),
	RECV_PEEK:  push("RECV_PEEK", OpJump).with(actor, pushOnlyFall),
	RECV_TAKE:  fixed("RECV_TAKE", OpNone, OpNone, 0, 0).with(actor),
	RECV_SKIP:  fixed("RECV_SKIP", OpNone, OpNone, 0, 0).with(actor),
	RECV_WAIT:  fixed("RECV_WAIT", OpJump, OpNone, 0, 0).with(actor),
	SPAWN:      unary("SPAWN", OpMode).with(actor, rule(spawnMode)),
	SEND:       binop("SEND").with(actor),
	SELF:       push("SELF", OpNone).with(actor),
	CALL_REPLY: push("CALL_REPLY", OpNone).with(actor),
	CALL_WAIT:  fixed("CALL_WAIT", OpNone, OpNone, 4, 1).with(actor),
	SEND_WAIT:  binop("SEND_WAIT").with(actor),
}

// Desc returns the descriptor of op; ok is false for a byte that is no
// opcode.
func (op Opcode) Desc() (d Desc, ok bool) {
	if op >= OpcodeCount {
		return Desc{}, false
	}
	return descs[op], true
}

func (op Opcode) String() string {
	if op < OpcodeCount {
		return descs[op].Name
	}
	return fmt.Sprintf("OP(%d)", uint8(op))
}

// OpcodeByName returns the opcode with the given name (as String prints it).
func OpcodeByName(name string) (Opcode, bool) {
	for i := range descs {
		if descs[i].Name == name {
			return Opcode(i), true
		}
	}
	return 0, false
}

// The verifier's rules beyond the operand kinds.

// plain: the operand kinds say everything.
func plain(*Program, *Function, Instr) string { return "" }

// directCall: CALL and TAIL_CALL pass exactly the callee's parameters, and
// only to a function without captured values.
func directCall(p *Program, _ *Function, in Instr) string {
	callee := p.Functions[in.A]
	if int(in.B) != callee.Params {
		return fmt.Sprintf("passes %d arguments to %s, which takes %d", in.B, callee.Name, callee.Params)
	}
	if callee.Captures != 0 {
		return fmt.Sprintf("direct call of %s, which needs %d captured values", callee.Name, callee.Captures)
	}
	return ""
}

// capturesMatch: CLOSURE captures exactly the callee's captured values.
func capturesMatch(p *Program, _ *Function, in Instr) string {
	if callee := p.Functions[in.A]; int(in.B) != callee.Captures {
		return fmt.Sprintf("captures %d values for %s, which has %d", in.B, callee.Name, callee.Captures)
	}
	return ""
}

// noCaptures: FUNC makes a value only of a function without captures.
func noCaptures(p *Program, _ *Function, in Instr) string {
	if callee := p.Functions[in.A]; callee.Captures != 0 {
		return fmt.Sprintf("%s needs %d captured values", callee.Name, callee.Captures)
	}
	return ""
}

// timeoutLocal: RECV_START's A is -1 (no timeout) or a local.
func timeoutLocal(_ *Program, f *Function, in Instr) string {
	if in.A < -1 || int(in.A) >= f.Locals {
		return "timeout local out of range"
	}
	return ""
}

// spawnMode: SPAWN's mode is one the VM knows.
func spawnMode(_ *Program, _ *Function, in Instr) string {
	if in.A < 0 || in.A > 7 {
		return "unknown spawn mode"
	}
	return ""
}
