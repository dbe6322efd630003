package codegen

import (
	"fmt"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// local is a local binding: a name and its slot. The bindings in scope
// are one stack (fnState.locals), each scope the bindings above its mark
// (fnState.marks); a name is looked up from the top, so an inner binding
// hides an outer one and a later one an earlier one. The stacks are
// reused from function to function, where a scope struct per block or
// arm and a map per binding scope cost allocations for every function.
type local struct {
	name string
	slot int
}

// refKind says where a resolved name lives.
type refKind int

const (
	refLocal refKind = iota // a local slot of the running frame
	refFree                 // a captured value of the running closure
)

type ref struct {
	kind  refKind
	index int
}

// loopInfo is one enclosing `for` loop.
type loopInfo struct {
	depth    int   // stack depth at the loop head
	head     int   // pc of ITER_NEXT (continue target)
	breaks   []int // JUMPs to patch to the loop exit
	fnLoopID int
}

// tailMode says whether an expression is compiled in tail position and
// what the emitted code returns there (docs/reference/syntax.md#calls).
type tailMode uint8

const (
	// notTail: the code leaves the value on the stack.
	notTail tailMode = iota
	// valueTail: the code returns the value itself (RETURN, a tail call
	// or a self-tail-call loop).
	valueTail
	// unitTail: the code returns (), discarding the value; it is the
	// mode of an else-less if's branch, a postfix-if statement and the
	// body of a function declared Unit. A call of Unit (or Never) type
	// is still a tail call there, since its value is () anyway; any
	// other value is popped and replaced by ().
	unitTail
)

// fnState is the code generator's state for one function being compiled.
type fnState struct {
	c      *compiler
	u      *unit
	fn     *bytecode.Function
	idx    int
	decl   *ast.FnDecl // the declaration of a top-level function; nil for lambdas and defers
	locals []local     // the bindings in scope (see local)
	marks  []int       // where each open scope's bindings start in locals
	nloc   int

	// Closure conversion: outer is the function whose code creates this
	// closure (nil for top-level functions); captures lists what the
	// closure captures, in FREE order, resolved in outer.
	outer    *fnState
	captures []ref
	capIndex map[string]int

	depth int
	loops []*loopInfo

	selfTCO bool     // self tail calls become JUMP 0
	tailOK  bool     // tail calls are allowed (no defer in this function)
	retMode tailMode // how the body returns: valueTail, or unitTail for a Unit function
	inDefer bool
	// top is the name of the top-level function this one is nested in
	// (its own name for a top-level function); lambdas and defer bodies
	// are named after it, so names stay short however deep they nest.
	top      string
	lastLine int
	labelPC  int // pc of the most recently placed label (code there is reachable)
}

func (c *compiler) newFnState(u *unit, idx int, outer *fnState) *fnState {
	top := c.prog.Functions[idx].Name
	if outer != nil {
		top = outer.top
	}
	fn := c.prog.Functions[idx]
	// The code and line table grow in buffers reused from function to
	// function; finish copies them out at their final size.
	if n := len(c.codeBufs); n > 0 {
		fn.Code, c.codeBufs = c.codeBufs[n-1], c.codeBufs[:n-1]
	}
	if n := len(c.lineBufs); n > 0 {
		fn.Lines, c.lineBufs = c.lineBufs[n-1], c.lineBufs[:n-1]
	}
	fs := &fnState{
		c:       c,
		u:       u,
		fn:      fn,
		top:     top,
		idx:     idx,
		outer:   outer,
		labelPC: -1,
	}
	if n := len(c.localBufs); n > 0 {
		fs.locals, c.localBufs = c.localBufs[n-1], c.localBufs[:n-1]
	}
	if n := len(c.markBufs); n > 0 {
		fs.marks, c.markBufs = c.markBufs[n-1], c.markBufs[:n-1]
	}
	return fs
}

// compileFunc compiles the body of a top-level function.
func (c *compiler) compileFunc(p pending) error {
	fs := c.newFnState(p.u, p.idx, nil)
	fs.decl = p.decl
	hasDefer := containsDefer(p.decl.Body)
	if hasDefer {
		fs.fn.Flags |= bytecode.FlagHasDefer
	}
	fs.tailOK = !hasDefer
	fs.selfTCO = !hasDefer
	fs.retMode = valueTail
	isMain := p.idx == c.prog.Entry && p.decl.Name == "main"
	if !p.u.prelude && isUnitType(p.decl.Ret) && (p.decl.Ret != nil || isMain) {
		// A function declared Unit (and a main without a return type)
		// discards the value of its last expression: the checker accepts
		// `fn f() -> (): compute()` with an Int compute, and main's Int
		// must not become the exit status. Its tail calls of Unit type
		// stay tail calls. Without an annotation, a private function's
		// return type is its body's (docs/reference/syntax.md#functions), so its value is
		// returned as is.
		fs.retMode = unitTail
	}
	fs.setLine(p.decl.S.Start)
	if err := fs.bindParams(p.decl.Params); err != nil {
		return err
	}
	if err := fs.compileBody(p.decl.Body); err != nil {
		return fmt.Errorf("%s: %w", p.decl.Name, err)
	}
	fs.finish()
	return nil
}

// isUnitType reports whether a declared return type means Unit (absent,
// `()` or `Unit`).
func isUnitType(t ast.TypeExpr) bool {
	switch t := t.(type) {
	case nil:
		return true
	case *ast.UnitType:
		return true
	case *ast.NamedType:
		return t.Name == "Unit" && len(t.Args) == 0
	}
	return false
}

// bindParams binds the parameters to locals 0..n-1, then destructures
// pattern parameters.
func (fs *fnState) bindParams(params []*ast.Param) error {
	for i, p := range params {
		slot := fs.newSlot()
		if slot != i {
			return fmt.Errorf("codegen: parameter slot %d for parameter %d", slot, i)
		}
		if p.Pattern == nil && p.Name != "" {
			fs.bind(p.Name, slot)
		}
	}
	for i, p := range params {
		if p.Pattern != nil {
			fail := fs.newLabel()
			if err := fs.compilePattern(p.Pattern, i, fail); err != nil {
				return err
			}
			fs.failIfUsed(fail, "parameter pattern did not match")
		}
	}
	return nil
}

// compileBody compiles a function body in return mode.
func (fs *fnState) compileBody(body ast.Expr) error {
	return fs.tailExpr(body, fs.retMode)
}

// finish records the frame sizes.
func (fs *fnState) finish() {
	c, fn := fs.c, fs.fn
	c.codeBufs = append(c.codeBufs, fn.Code[:0])
	c.lineBufs = append(c.lineBufs, fn.Lines[:0])
	c.localBufs = append(c.localBufs, fs.locals[:0])
	c.markBufs = append(c.markBufs, fs.marks[:0])
	fs.locals, fs.marks = nil, nil
	fn.Code, fn.Lines = exact(fn.Code), exact(fn.Lines)
	fs.fn.Locals = fs.nloc
	fs.fn.Captures = len(fs.captures)
	if fs.fn.Locals < fs.fn.Params {
		fs.fn.Locals = fs.fn.Params
	}
}

// exact returns a copy of xs without spare capacity (nil when empty).
func exact[T any](xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	return append(make([]T, 0, len(xs)), xs...)
}

// ---------------------------------------------------------------- scopes

func (fs *fnState) newSlot() int {
	fs.nloc++
	return fs.nloc - 1
}

func (fs *fnState) bind(name string, slot int) {
	if name == "_" || name == "" {
		return
	}
	fs.locals = append(fs.locals, local{name, slot})
}

func (fs *fnState) push() { fs.marks = append(fs.marks, len(fs.locals)) }
func (fs *fnState) pop() {
	fs.locals = fs.locals[:fs.marks[len(fs.marks)-1]]
	fs.marks = fs.marks[:len(fs.marks)-1]
}

// lookup resolves a local name: a local slot, a value already captured,
// or a name of an enclosing function, which becomes a new capture.
func (fs *fnState) lookup(name string) (ref, bool) {
	for i := len(fs.locals) - 1; i >= 0; i-- {
		if fs.locals[i].name == name {
			return ref{refLocal, fs.locals[i].slot}, true
		}
	}
	if i, ok := fs.capIndex[name]; ok {
		return ref{refFree, i}, true
	}
	if fs.outer != nil {
		if r, ok := fs.outer.lookup(name); ok {
			fs.captures = append(fs.captures, r)
			i := len(fs.captures) - 1
			if fs.capIndex == nil {
				fs.capIndex = map[string]int{}
			}
			fs.capIndex[name] = i
			return ref{refFree, i}, true
		}
	}
	return ref{}, false
}

// load pushes a resolved name.
func (fs *fnState) load(r ref) {
	if r.kind == refFree {
		fs.emit(bytecode.FREE, r.index, 0)
	} else {
		fs.emit(bytecode.LOAD, r.index, 0)
	}
}

// ---------------------------------------------------------------- emission

// setLine sets the source line of the instructions emitted next.
func (fs *fnState) setLine(off int) {
	if fs.u.src == nil {
		return
	}
	// Statements come in source order: the current line is a good hint.
	if l := fs.u.src.LineNear(off, fs.lastLine); l > 0 {
		fs.lastLine = l
	}
}

// emit appends one instruction, updating the line table and the static
// stack depth, and returns its pc.
func (fs *fnState) emit(op bytecode.Opcode, a, b int) int {
	f := fs.fn
	pc := len(f.Code)
	f.Code = append(f.Code, bytecode.Instr{Op: op, A: int32(a), B: int32(b)})
	if n := len(f.Lines); n == 0 || int(f.Lines[n-1].Line) != fs.lastLine {
		if n > 0 && int(f.Lines[n-1].PC) == pc {
			f.Lines[n-1].Line = int32(fs.lastLine)
		} else {
			f.Lines = append(f.Lines, bytecode.LineEntry{PC: int32(pc), Line: int32(fs.lastLine)})
		}
	}
	eff, ok := bytecode.StackEffect(f.Code[pc], fs.c.prog)
	if !ok {
		panic(fmt.Sprintf("malformed instruction %v", f.Code[pc]))
	}
	fs.depth += eff
	if fs.depth > f.MaxStack {
		f.MaxStack = fs.depth
	}
	if fs.depth < 0 {
		panic(fmt.Sprintf("stack underflow at %s pc %d (%v)", f.Name, pc, f.Code[pc]))
	}
	return pc
}

// label is a forward jump target: the pcs of the jumps to patch.
type label struct {
	uses []int
	pc   int // -1 until placed
}

func (fs *fnState) newLabel() *label { return &label{pc: -1} }

// jump emits a jump-type instruction to l (operand A holds the target).
func (fs *fnState) jump(op bytecode.Opcode, l *label) {
	if op == bytecode.JUMP && fs.lastIsTerminal() {
		return // dead: control never reaches here
	}
	pc := fs.emit(op, 0, 0)
	if l.pc >= 0 {
		fs.fn.Code[pc].A = int32(l.pc)
		return
	}
	l.uses = append(l.uses, pc)
}

// place sets l to the current pc and patches the jumps to it.
func (fs *fnState) place(l *label) {
	l.pc = len(fs.fn.Code)
	fs.labelPC = l.pc
	for _, u := range l.uses {
		in := &fs.fn.Code[u]
		if in.Op == bytecode.ITER_NEXT {
			in.B = int32(l.pc)
		} else {
			in.A = int32(l.pc)
		}
	}
	l.uses = nil
}

// failIfUsed places l followed by FAIL when some test jumps to it; the
// code after it is reached only by falling through.
func (fs *fnState) failIfUsed(l *label, msg string) {
	if len(l.uses) == 0 {
		return
	}
	skip := fs.newLabel()
	fs.jump(bytecode.JUMP, skip)
	fs.place(l)
	fs.fail(msg)
	fs.place(skip)
}

// fail emits FAIL with a message constant.
func (fs *fnState) fail(msg string) {
	fs.emit(bytecode.FAIL, fs.c.prog.AddConst(value.String(msg)), 0)
}

// ---------------------------------------------------------------- closures

// lambda compiles a lambda or defer body as a new function and emits the
// code that creates its closure value in fs.
func (fs *fnState) lambda(name string, params []*ast.Param, body ast.Expr, flags bytecode.FuncFlags, at source.Span) error {
	fn := &bytecode.Function{Name: name, Params: len(params), Line: lineOf(fs.u.src, at.Start), Flags: flags, File: fs.c.fileOf(fs.u, at.Start)}
	if fs.u.prelude {
		fn.Flags |= bytecode.FlagPrelude
	}
	fs.c.prog.Functions = append(fs.c.prog.Functions, fn)
	idx := len(fs.c.prog.Functions) - 1
	ls := fs.c.newFnState(fs.u, idx, fs)
	ls.inDefer = flags.Has(bytecode.FlagDefer) || fs.inDefer
	hasDefer := containsDefer(body)
	if hasDefer {
		fn.Flags |= bytecode.FlagHasDefer
	}
	ls.tailOK = !hasDefer
	ls.selfTCO = false     // lambdas have no name to call themselves by
	ls.retMode = valueTail // a lambda's type is its body's
	ls.setLine(at.Start)
	if err := ls.bindParams(params); err != nil {
		return err
	}
	if err := ls.compileBody(body); err != nil {
		return err
	}
	ls.finish()
	if len(ls.captures) == 0 {
		fs.emit(bytecode.FUNC, idx, 0)
		return nil
	}
	for _, r := range ls.captures {
		fs.load(r)
	}
	fs.emit(bytecode.CLOSURE, idx, len(ls.captures))
	return nil
}

// nestedName names a lambda or defer body after the top-level function
// that contains it and its line ("main.lambda@12"). Naming it after its
// direct parent instead would repeat every ancestor's name, so the names
// (and the .mrb) of deeply nested lambdas would grow quadratically.
func (fs *fnState) nestedName(kind string, off int) string {
	return fmt.Sprintf("%s.%s@%d", fs.top, kind, lineOf(fs.u.src, off))
}

// ctorWrapper returns a function that builds a constructor's value from
// its arguments, used when a constructor is passed as a function value.
func (c *compiler) ctorWrapper(name string, ci ctorInfo) int {
	key := fmt.Sprintf("%d.%d", ci.typ, ci.tag)
	if idx, ok := c.wrappers[key]; ok {
		return idx
	}
	fn := &bytecode.Function{Name: name, Params: ci.arity, Locals: ci.arity, MaxStack: max(ci.arity, 1)}
	for i := 0; i < ci.arity; i++ {
		fn.Code = append(fn.Code, bytecode.Instr{Op: bytecode.LOAD, A: int32(i)})
	}
	fn.Code = append(fn.Code,
		bytecode.Instr{Op: bytecode.DATA, A: int32(ci.typ), B: int32(ci.tag)},
		bytecode.Instr{Op: bytecode.RETURN})
	fn.Lines = []bytecode.LineEntry{{PC: 0, Line: 0}}
	c.prog.Functions = append(c.prog.Functions, fn)
	idx := len(c.prog.Functions) - 1
	c.wrappers[key] = idx
	return idx
}

// containsDefer reports whether a function body registers a defer. Bodies
// of lambdas belong to other functions and are not searched.
func containsDefer(body ast.Expr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.DeferStmt:
			found = true
		case *ast.Lambda:
			return false
		}
		return !found
	})
	return found
}
