package bytecode

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/runtime/value"
)

// Verification
//
// Verify checks every structural invariant the interpreter relies on, so
// runtime/vm can execute a verified program without bounds checks on
// operands: constant, local, captured-value, function, native and type
// indexes are in range; jump targets lie inside their function; call
// arities match the callee; the last instruction of every function is
// terminal; line tables are sorted; and the operand-stack depth at every
// reachable instruction is the same on every path into it, never
// negative, and never above the function's MaxStack. The depth analysis is
// an abstract interpretation over the control-flow graph: a work list of
// (pc, depth) pairs, where each instruction pops stackPops values (checked
// against the current depth) and leaves depth+StackEffect on the
// fall-through edge and depth+BranchEffect on the jump edge.
//
// What Verify cannot know statically (the dynamic tags of values, the
// arity of natives, which the loader resolves) the VM checks at run time
// and reports as an internal-error fault, never as a Go panic.

// Limits on the sizes a verified program may declare. They keep a hostile
// program from making the VM allocate without bound before it runs.
const (
	MaxLocals    = 1 << 16 // local slots per function
	MaxStackSize = 1 << 16 // operand-stack depth per function
	MaxCaptures  = 1 << 16 // captured values per closure
	MaxParams    = 255     // parameters per function (docs/reference/syntax.md#functions)
	MaxCode      = 1 << 24 // instructions per function
)

// VerifyError is a verification failure: Func is the index of the
// offending function (-1 for program-level problems) and PC the offending
// instruction (-1 when not about one instruction).
type VerifyError struct {
	Func int
	Name string
	PC   int
	Msg  string
}

// Error renders the failure with the function and pc it concerns.
func (e *VerifyError) Error() string {
	switch {
	case e.Func < 0:
		return e.Msg
	case e.PC < 0:
		return fmt.Sprintf("function %d (%s): %s", e.Func, e.Name, e.Msg)
	}
	return fmt.Sprintf("function %d (%s) pc %d: %s", e.Func, e.Name, e.PC, e.Msg)
}

// Verify checks a program's structural invariants (see the section comment
// above). It never panics, whatever the program holds.
func Verify(p *Program) error {
	verifications.Add(1)
	if p == nil {
		return &VerifyError{Func: -1, PC: -1, Msg: "nil program"}
	}
	for _, check := range []func(*Program) error{verifyTypes, verifyPools, verifyEntry} {
		if err := check(p); err != nil {
			return err
		}
	}
	w := &depthWalk{} // its buffers serve every function in turn
	for i := range p.Functions {
		if err := verifyFunc(p, i, w); err != nil {
			return err
		}
	}
	return nil
}

// progErr is a VerifyError about the program as a whole.
func progErr(format string, args ...any) error {
	return &VerifyError{Func: -1, PC: -1, Msg: fmt.Sprintf(format, args...)}
}

// verifyTypes checks the type table: the built-in types first, then
// every type well formed.
func verifyTypes(p *Program) error {
	if len(p.Types) < NumBuiltinTypes {
		return progErr("type table lacks the built-in types")
	}
	for i, want := range BuiltinTypes() {
		if p.Types[i] != want {
			return progErr("type %d is not the built-in %s", i, want.Name)
		}
	}
	for i, t := range p.Types {
		if t == nil {
			return progErr("type %d is nil", i)
		}
		if len(t.Variants) == 0 {
			return progErr("type %d (%s) has no variants", i, t.Name)
		}
		if t.Kind > value.TNewtype {
			return progErr("type %d (%s) has an unknown kind %d", i, t.Name, t.Kind)
		}
		if msg := checkRuntimeType(t); msg != "" {
			return progErr("type %d (%s): %s", i, t.Name, msg)
		}
	}
	return nil
}

// verifyPools checks the constants (Int, Float or String only), the
// native names and that the function table has no holes.
func verifyPools(p *Program) error {
	for i, c := range p.Consts {
		switch c.Kind() {
		case value.KInt, value.KFloat, value.KString:
		default:
			return progErr("constant %d has kind %s (want Int, Float or String)", i, c.Kind())
		}
	}
	for i, n := range p.Natives {
		if n == "" {
			return progErr("native %d has an empty name", i)
		}
	}
	if len(p.Functions) == 0 {
		return progErr("program has no functions")
	}
	for i, f := range p.Functions {
		if f == nil {
			return progErr("function %d is nil", i)
		}
	}
	return nil
}

// verifyEntry checks the entry function: it exists, takes no parameter
// (one for a library) and captures nothing.
func verifyEntry(p *Program) error {
	if p.Entry < 0 || p.Entry >= len(p.Functions) {
		return progErr("entry function %d does not exist", p.Entry)
	}
	entry := p.Functions[p.Entry]
	wantParams := 0
	if p.Library {
		wantParams = 1
	}
	if entry.Params != wantParams {
		return progErr("entry function %s takes %d parameters, want %d", entry.Name, entry.Params, wantParams)
	}
	if entry.Captures != 0 {
		return progErr("entry function %s captures values", entry.Name)
	}
	return nil
}

// checkRuntimeType keeps the Process.* types the runtime's: the runtime
// builds exit reasons, events and errors with its own descriptors
// (stdlib/process) and reads their fields by position, and values compare
// by type name. A program's type table may hold these types (the
// compiler adds the ones a program names), but only as exact copies of
// the runtime's; a file that defines its own Process.ExitReason (say,
// with fewer fields) could otherwise forge reasons or crash the runtime.
// The loader (runtime/vm) then uses the runtime's descriptors themselves.
// It returns "" when t is fine.
func checkRuntimeType(t *value.TypeInfo) string {
	if !strings.HasPrefix(t.Name, "Process.") {
		return ""
	}
	want := ptype.TypeByName(t.Name)
	if want == nil {
		return "Process.* type names belong to the runtime, which has no such type"
	}
	if !SameType(t, want) {
		return "redefines the runtime's type of that name"
	}
	return ""
}

// SameType reports whether two type descriptors are identical: name,
// kind, derived traits, and variants with their field names.
func SameType(x, y *value.TypeInfo) bool {
	if x.Name != y.Name || x.Kind != y.Kind || x.Show != y.Show || x.Eq != y.Eq || x.Ord != y.Ord || len(x.Variants) != len(y.Variants) {
		return false
	}
	for i, v := range x.Variants {
		w := y.Variants[i]
		if v.Name != w.Name || !slices.Equal(v.Fields, w.Fields) {
			return false
		}
	}
	return true
}

// verifyFunc checks one function: header, operands, line table, and the
// stack-depth analysis (over w's buffers).
func verifyFunc(p *Program, fi int, w *depthWalk) error {
	f := p.Functions[fi]
	ferr := func(pc int, format string, args ...any) error {
		return &VerifyError{Func: fi, Name: f.Name, PC: pc, Msg: fmt.Sprintf(format, args...)}
	}
	if msg := checkFuncHeader(f); msg != "" {
		return ferr(-1, "%s", msg)
	}
	if last := f.Code[len(f.Code)-1].Op; !last.IsTerminal() {
		return ferr(len(f.Code)-1, "last instruction %s is not terminal", last)
	}
	if msg := checkLines(f); msg != "" {
		return ferr(-1, "%s", msg)
	}
	if pc, msg := checkCode(p, f); msg != "" {
		return ferr(pc, "%s", msg)
	}
	if pc, msg := checkIterators(f); msg != "" {
		return ferr(pc, "%s", msg)
	}
	max, err := stackDepth(p, f, w)
	if err != nil {
		return ferr(err.pc, "%s", err.msg)
	}
	if max > f.MaxStack {
		return ferr(-1, "operand stack reaches depth %d, above MaxStack %d", max, f.MaxStack)
	}
	return nil
}

// checkFuncHeader checks a function's counts and code length; it returns ""
// when they are fine, otherwise the problem.
func checkFuncHeader(f *Function) string {
	switch {
	case f.Params < 0 || f.Params > MaxParams:
		return fmt.Sprintf("bad parameter count %d", f.Params)
	case f.Locals < f.Params || f.Locals > MaxLocals:
		return fmt.Sprintf("bad local count %d (params %d)", f.Locals, f.Params)
	case f.Captures < 0 || f.Captures > MaxCaptures:
		return fmt.Sprintf("bad capture count %d", f.Captures)
	case f.MaxStack < 0 || f.MaxStack > MaxStackSize:
		return fmt.Sprintf("bad MaxStack %d", f.MaxStack)
	case len(f.Code) == 0:
		return "empty code"
	case len(f.Code) > MaxCode:
		return fmt.Sprintf("code too long (%d instructions)", len(f.Code))
	}
	return ""
}

// checkLines checks a function's line table: inside the code, starting
// at pc 0, sorted by pc, with no negative line; it returns "" when it is
// fine, otherwise the problem.
func checkLines(f *Function) string {
	for i, e := range f.Lines {
		if e.PC < 0 || int(e.PC) >= len(f.Code) {
			return fmt.Sprintf("line table entry %d has pc %d outside the code", i, e.PC)
		}
		if i == 0 && e.PC != 0 {
			return "line table does not start at pc 0"
		}
		if i > 0 && e.PC <= f.Lines[i-1].PC {
			return fmt.Sprintf("line table is not sorted by pc (entry %d)", i)
		}
		if e.Line < 0 {
			return fmt.Sprintf("line table entry %d has negative line %d", i, e.Line)
		}
	}
	return ""
}

// checkCode checks every instruction's operands, and that tail calls and
// DEFER agree with the function's FlagHasDefer; it returns the pc and
// the problem, or "".
func checkCode(p *Program, f *Function) (int, string) {
	hasDefer := f.Flags.Has(FlagHasDefer)
	for pc, in := range f.Code {
		if err := checkOperands(p, f, in); err != "" {
			return pc, fmt.Sprintf("%s: %s", in, err)
		}
		switch in.Op {
		case TAIL_CALL, TAIL_CALL_VALUE:
			if hasDefer {
				return pc, "tail call in a function with defers"
			}
		case DEFER:
			if !hasDefer {
				return pc, "DEFER in a function without FlagHasDefer"
			}
		}
	}
	return -1, ""
}

// checkIterators keeps loop iterators inside their frame. An iterator
// (value.KIter) is the one mutable value of the VM: ITER_NEXT advances it
// in place, so if two frames or two processes could reach one, each would
// see part of the loop (and race). The only producer is ITER, and the
// rules make it impossible for one to reach anything but its own frame's
// iterator slot:
//   - ITER is immediately followed by STORE: the iterator is on the
//     operand stack for that one instruction (ITER never jumps), so no
//     other instruction can capture, send, store in a data value, return
//     or pass it. The locals those STOREs write are the iterator slots.
//   - An iterator slot is never read onto the operand stack: no LOAD of
//     it (nor RECV_START's timeout local); only ITER_NEXT reads it, and
//     ITER_NEXT reads only iterator slots.
//
// A frame's locals are its own (calls clear the callee's, and captures,
// messages and returns take values from the operand stack), so an
// iterator never leaves the frame that made it. It returns the pc and a
// message for the first violation, or "".
func checkIterators(f *Function) (int, string) {
	var slots map[int32]bool
	for pc, in := range f.Code {
		if in.Op != ITER {
			continue
		}
		next := f.Code[pc+1] // ITER is not terminal, so pc+1 exists
		if next.Op != STORE {
			return pc, fmt.Sprintf("ITER is followed by %s, not STORE: an iterator may only go to its frame's iterator slot", next.Op)
		}
		if slots == nil {
			slots = map[int32]bool{}
		}
		slots[next.A] = true
	}
	for pc, in := range f.Code {
		switch in.Op {
		case LOAD, RECV_START:
			if slots[in.A] {
				return pc, fmt.Sprintf("%s reads iterator slot %d: an iterator may not leave its slot", in.Op, in.A)
			}
		case ITER_NEXT:
			if !slots[in.A] {
				return pc, fmt.Sprintf("ITER_NEXT on local %d, which no ITER stores to", in.A)
			}
		}
	}
	return -1, ""
}

// checkOperands range-checks the operands of one instruction; it returns
// "" when they are fine, otherwise the problem.
func checkOperands(p *Program, f *Function, in Instr) string {
	if in.Op >= OpcodeCount {
		return "unknown opcode"
	}
	ka, kb := in.Op.Operands()
	if msg := checkOperand(p, f, in, ka, in.A, 0); msg != "" {
		return "operand A: " + msg
	}
	if msg := checkOperand(p, f, in, kb, in.B, in.A); msg != "" {
		return "operand B: " + msg
	}
	// The opcode's own rule (its descriptor's Verify).
	return descs[in.Op].Verify(p, f, in)
}

// indexOperands are the operand kinds that index a table of the program
// or of the running function: what the index names, and the table's
// length (nil for the other kinds). An array, not a map: every operand of
// every instruction is looked up here.
var indexOperands = [len(operandKindNames)]struct {
	what  string
	limit func(*Program, *Function) int
}{
	OpConst:  {"constant", func(p *Program, _ *Function) int { return len(p.Consts) }},
	OpLocal:  {"local", func(_ *Program, f *Function) int { return f.Locals }},
	OpFree:   {"captured value", func(_ *Program, f *Function) int { return f.Captures }},
	OpFunc:   {"function", func(p *Program, _ *Function) int { return len(p.Functions) }},
	OpNative: {"native", func(p *Program, _ *Function) int { return len(p.Natives) }},
	OpType:   {"type", func(p *Program, _ *Function) int { return len(p.Types) }},
	OpJump:   {"jump target", func(_ *Program, f *Function) int { return len(f.Code) }},
}

// inRange checks index n of a table of limit entries.
func inRange(n, limit int, what string) string {
	if n < 0 || n >= limit {
		return fmt.Sprintf("%s index %d out of range [0, %d)", what, n, limit)
	}
	return ""
}

// checkOperand checks one operand of kind k; a is operand A (for DATA's
// tag, which depends on the type in A).
func checkOperand(p *Program, f *Function, in Instr, k OperandKind, x, a int32) string {
	n := int(x)
	if int(k) < len(indexOperands) && indexOperands[k].limit != nil {
		ix := &indexOperands[k]
		return inRange(n, ix.limit(p, f), ix.what)
	}
	switch k {
	case OpImm, OpMode:
		// any value (modes are checked per opcode)
	case OpName:
		if msg := inRange(n, len(p.Consts), "constant"); msg != "" {
			return msg
		}
		if p.Consts[n].Kind() != value.KString {
			return "field name constant is not a String"
		}
	case OpTag:
		return checkTag(p, in, n, a)
	default:
		return checkValue(k, n)
	}
	return ""
}

// checkValue checks an operand that holds a small value: unused (0), a
// count, a value kind or a flag.
func checkValue(k OperandKind, n int) string {
	switch k {
	case OpNone:
		if n != 0 {
			return "unused operand is not 0"
		}
	case OpCount:
		if n < 0 || n > MaxStackSize {
			return fmt.Sprintf("bad count %d", n)
		}
	case OpKind:
		if n < 0 || n > int(value.KSet) {
			return fmt.Sprintf("unknown value kind %d", n)
		}
	case OpFlag:
		if n != 0 && n != 1 {
			return fmt.Sprintf("flag %d is not 0 or 1", n)
		}
	default:
		return "unknown operand kind"
	}
	return ""
}

// checkTag checks a variant tag n: for DATA, a variant of the type in
// operand a; otherwise any non-negative tag.
func checkTag(p *Program, in Instr, n int, a int32) string {
	if in.Op == DATA {
		if a < 0 || int(a) >= len(p.Types) {
			return "tag of an unknown type"
		}
		return inRange(n, len(p.Types[a].Variants), "variant")
	}
	if n < 0 {
		return fmt.Sprintf("negative tag %d", n)
	}
	return ""
}

// stackPops returns how many values in pops from the operand stack (its
// inputs), which the depth analysis checks against the current depth.
// ok is false for a malformed instruction.
func stackPops(in Instr, p *Program) (int, bool) {
	pops, _, ok := stackCounts(in, p)
	return pops, ok
}

type depthError struct {
	pc  int
	msg string
}

// depthWalk is the state of the depth analysis: the depth at each pc
// (-1: not reached yet) and the pcs still to visit.
type depthWalk struct {
	f     *Function
	depth []int32
	work  []int
}

// set records that control reaches to from with depth d, queueing to
// when it is new and reporting a conflict with an earlier depth.
func (w *depthWalk) set(from, to, d int) *depthError {
	if to < 0 || to >= len(w.f.Code) {
		return &depthError{from, "control runs off the end of the code"}
	}
	if d > MaxStackSize {
		return &depthError{from, "operand stack too deep"}
	}
	switch w.depth[to] {
	case -1:
		w.depth[to] = int32(d)
		w.work = append(w.work, to)
	case int32(d):
	default:
		return &depthError{to, fmt.Sprintf("inconsistent stack depth: %d on one path, %d on another", w.depth[to], d)}
	}
	return nil
}

// stackDepth runs the depth analysis over f and returns the maximum depth
// reached. Operands must already be range-checked. It reuses w's buffers,
// so verifying a program allocates them once rather than per function.
func stackDepth(p *Program, f *Function, w *depthWalk) (int, *depthError) {
	w.f = f
	w.depth = slices.Grow(w.depth[:0], len(f.Code))[:len(f.Code)]
	for i := range w.depth {
		w.depth[i] = -1
	}
	w.work = append(w.work[:0], 0)
	w.depth[0] = 0
	deepest := 0
	for len(w.work) > 0 {
		pc := w.work[len(w.work)-1]
		w.work = w.work[:len(w.work)-1]
		reached, err := w.step(p, pc)
		if err != nil {
			return 0, err
		}
		deepest = max(deepest, reached)
	}
	return deepest, nil
}

// step checks the instruction at pc against the depth there, passes the
// depth on to its successors and returns the deepest it reaches.
func (w *depthWalk) step(p *Program, pc int) (int, *depthError) {
	in := w.f.Code[pc]
	d := int(w.depth[pc])
	pops, ok := stackPops(in, p)
	if !ok {
		return 0, &depthError{pc, fmt.Sprintf("malformed %s", in)}
	}
	if pops > d {
		return 0, &depthError{pc, fmt.Sprintf("%s pops %d values from a stack of depth %d", in, pops, d)}
	}
	eff, ok := StackEffect(in, p)
	if !ok {
		return 0, &depthError{pc, fmt.Sprintf("malformed %s", in)}
	}
	if t, ok := in.JumpTarget(); ok {
		if err := w.set(pc, t, d+BranchEffect(in)); err != nil {
			return 0, err
		}
	}
	if !in.Op.IsTerminal() {
		if err := w.set(pc, pc+1, d+eff); err != nil {
			return 0, err
		}
	}
	return max(d, d+eff), nil
}

// MaxStackDepth computes the maximum operand-stack depth of f by the same
// analysis Verify uses (code generators and assemblers can fill in
// Function.MaxStack with it). It fails when the code is not well formed.
func MaxStackDepth(p *Program, f *Function) (int, error) {
	if p == nil || f == nil || len(f.Code) == 0 {
		return 0, fmt.Errorf("empty function")
	}
	for pc, in := range f.Code {
		if msg := checkOperands(p, f, in); msg != "" {
			return 0, fmt.Errorf("pc %d: %s: %s", pc, in, msg)
		}
	}
	max, err := stackDepth(p, f, &depthWalk{})
	if err != nil {
		return 0, fmt.Errorf("pc %d: %s", err.pc, err.msg)
	}
	return max, nil
}
