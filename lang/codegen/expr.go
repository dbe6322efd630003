package codegen

import (
	"fmt"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// binaryOps maps operator text to its opcode (`and`, `or` and `in` are
// handled separately).
var binaryOps = map[string]bytecode.Opcode{
	"+": bytecode.ADD, "-": bytecode.SUB, "*": bytecode.MUL, "/": bytecode.DIV,
	"%": bytecode.MOD, "**": bytecode.POW,
	"&&&": bytecode.BITAND, "|||": bytecode.BITOR, "^^^": bytecode.BITXOR,
	"<<<": bytecode.SHL, ">>>": bytecode.SHR,
	"==": bytecode.EQ, "!=": bytecode.NE,
	"<": bytecode.LT, "<=": bytecode.LE, ">": bytecode.GT, ">=": bytecode.GE,
	"in": bytecode.IN,
}

// diverged records that the expression just compiled never completes: the
// static depth is set as if it had pushed its value (the code after it is
// dead).
func (fs *fnState) diverged(before int) {
	fs.depth = before + 1
	if fs.depth > fs.fn.MaxStack {
		fs.fn.MaxStack = fs.depth
	}
}

// expr compiles e so that it leaves exactly one value on the stack.
func (fs *fnState) expr(e ast.Expr) error {
	if e == nil {
		fs.emit(bytecode.UNIT, 0, 0)
		return nil
	}
	fs.setLine(e.Span().Start)
	if ok, err := fs.modal(e, notTail); ok {
		return err
	}
	switch e := e.(type) {
	case *ast.Paren:
		return fs.expr(e.X)
	case *ast.UnitLit, *ast.BoolLit, *ast.IntLit, *ast.FloatLit, *ast.StringLit, *ast.InterpString:
		return fs.literal(e)
	case *ast.Ident:
		return fs.name(e.Name, nil)
	case *ast.Path:
		return fs.name("", e.Parts)
	case *ast.FieldAccess, *ast.TupleIndex, *ast.Index:
		return fs.access(e)
	case *ast.Tuple, *ast.ListLit, *ast.MapLit, *ast.RecordUpdate, *ast.Range:
		return fs.construct(e)
	case *ast.Unary:
		return fs.unary(e)
	case *ast.Binary:
		return fs.binary(e)
	case *ast.Try:
		return fs.try(e)
	case *ast.Lambda:
		return fs.lambda(fs.nestedName("lambda", e.S.Start), e.Params, e.Body, bytecode.FlagLambda, e.S)
	case *ast.For:
		return fs.forLoop(e)
	case *ast.Break, *ast.Continue:
		_, isBreak := e.(*ast.Break)
		return fs.breakOrContinue(isBreak)
	case *ast.Return:
		return fs.ret(e)
	}
	return fmt.Errorf("codegen: unexpected expression %T", e)
}

// modal compiles the expressions whose code depends on the tail mode
// (blocks, ifs, matches, receives, withs and calls); ok is false, and
// nothing is emitted, for any other expression.
func (fs *fnState) modal(e ast.Expr, mode tailMode) (ok bool, err error) {
	switch e := e.(type) {
	case *ast.Block:
		return true, fs.block(e, mode)
	case *ast.If:
		return true, fs.ifExpr(e, mode)
	case *ast.Match:
		return true, fs.match(e, mode)
	case *ast.Receive:
		return true, fs.receive(e, mode)
	case *ast.With:
		return true, fs.with(e, mode)
	case *ast.Call:
		return true, fs.call(e, mode)
	}
	return false, nil
}

// literal pushes the value of a literal (an interpolated string's parts
// are compiled and joined by INTERP).
func (fs *fnState) literal(e ast.Expr) error {
	switch e := e.(type) {
	case *ast.UnitLit:
		fs.emit(bytecode.UNIT, 0, 0)
	case *ast.BoolLit:
		if e.Value {
			fs.emit(bytecode.TRUE, 0, 0)
		} else {
			fs.emit(bytecode.FALSE, 0, 0)
		}
	case *ast.IntLit:
		fs.intConst(e.Value)
	case *ast.FloatLit:
		fs.emit(bytecode.CONST, fs.c.prog.AddConst(value.Float(e.Value)), 0)
	case *ast.StringLit:
		fs.emit(bytecode.CONST, fs.c.prog.AddConst(value.String(e.Value)), 0)
	case *ast.InterpString:
		return fs.interp(e)
	}
	return nil
}

// interp compiles an interpolated string: its non-empty text parts and
// its expressions in order, joined by one INTERP.
func (fs *fnState) interp(e *ast.InterpString) error {
	n := 0
	for _, p := range e.Parts {
		if p.X == nil {
			if p.Text == "" {
				continue
			}
			fs.emit(bytecode.CONST, fs.c.prog.AddConst(value.String(p.Text)), 0)
		} else if err := fs.expr(p.X); err != nil {
			return err
		}
		n++
	}
	fs.emit(bytecode.INTERP, n, 0)
	return nil
}

// exprs compiles xs in order, each leaving one value on the stack.
func (fs *fnState) exprs(xs ...ast.Expr) error {
	for _, x := range xs {
		if err := fs.expr(x); err != nil {
			return err
		}
	}
	return nil
}

// access compiles a record field access, a tuple index or an index.
func (fs *fnState) access(e ast.Expr) error {
	switch e := e.(type) {
	case *ast.FieldAccess:
		if err := fs.expr(e.X); err != nil {
			return err
		}
		fs.emit(bytecode.FIELD, fs.c.prog.AddConst(value.String(e.Name)), 0)
	case *ast.TupleIndex:
		if err := fs.expr(e.X); err != nil {
			return err
		}
		fs.emit(bytecode.ELEM, e.Index, 0)
	case *ast.Index:
		if err := fs.exprs(e.X, e.I); err != nil {
			return err
		}
		fs.emit(bytecode.INDEX, 0, 0)
	}
	return nil
}

// construct compiles an expression that builds a value from its parts: a
// tuple, a list, a map literal, a record update or a range.
func (fs *fnState) construct(e ast.Expr) error {
	switch e := e.(type) {
	case *ast.Tuple:
		if err := fs.exprs(e.Elems...); err != nil {
			return err
		}
		fs.emit(bytecode.TUPLE, len(e.Elems), 0)
	case *ast.ListLit:
		if err := fs.exprs(e.Elems...); err != nil {
			return err
		}
		fs.emit(bytecode.LIST, len(e.Elems), 0)
	case *ast.MapLit:
		return fs.mapLit(e)
	case *ast.RecordUpdate:
		return fs.recordUpdate(e)
	case *ast.Range:
		if err := fs.exprs(e.Lo, e.Hi); err != nil {
			return err
		}
		incl := 0
		if e.Inclusive {
			incl = 1
		}
		fs.emit(bytecode.RANGE, incl, 0)
	}
	return nil
}

// mapLit compiles a map literal as Map.from_list of its (key, value)
// pairs: later duplicates replace the value and keep the first position.
func (fs *fnState) mapLit(e *ast.MapLit) error {
	for i := range e.Keys {
		if err := fs.exprs(e.Keys[i], e.Values[i]); err != nil {
			return err
		}
		fs.emit(bytecode.TUPLE, 2, 0)
	}
	fs.emit(bytecode.LIST, len(e.Keys), 0)
	fs.emit(bytecode.CALL_NATIVE, fs.c.prog.AddNative("Map.from_list"), 1)
	return nil
}

// recordUpdate compiles a record update: the record, then one UPDATE
// per field after its new value.
func (fs *fnState) recordUpdate(e *ast.RecordUpdate) error {
	if err := fs.expr(e.X); err != nil {
		return err
	}
	for _, f := range e.Fields {
		if err := fs.expr(f.Value); err != nil {
			return err
		}
		fs.emit(bytecode.UPDATE, fs.c.prog.AddConst(value.String(f.Label)), 0)
	}
	return nil
}

// unaryOps maps a unary operator to its opcode.
var unaryOps = map[string]bytecode.Opcode{"-": bytecode.NEG, "not": bytecode.NOT, "~~~": bytecode.BITNOT}

// unary compiles a unary operator applied to its operand.
func (fs *fnState) unary(e *ast.Unary) error {
	if err := fs.expr(e.X); err != nil {
		return err
	}
	op, ok := unaryOps[e.Op]
	if !ok {
		return fmt.Errorf("codegen: unknown unary operator %q", e.Op)
	}
	fs.emit(op, 0, 0)
	return nil
}

// intConst pushes an Int, as an immediate when it fits.
func (fs *fnState) intConst(n int64) {
	if n >= -1<<31 && n < 1<<31 {
		fs.emit(bytecode.INT, int(n), 0)
		return
	}
	fs.emit(bytecode.CONST, fs.c.prog.AddConst(value.Int(n)), 0)
}

// tailExpr compiles e in tail position (mode valueTail or unitTail): the
// emitted code returns e's value itself (by RETURN, a tail call, or a
// self-tail-call loop), or () in unit mode. Every sub-expression in tail
// position of e (docs/reference/syntax.md#calls: the last expression of a block, both
// branches of an if, the arms of a match, receive or with) is compiled in
// tail position too, so a call at any depth of such nesting is a tail
// call. The branch of an else-less if (whose value is ()) is in unit mode
// whatever the mode of the if.
func (fs *fnState) tailExpr(e ast.Expr, mode tailMode) error {
	if e == nil || fs.depth != 0 {
		if err := fs.expr(e); err != nil {
			return err
		}
		fs.returnTop(mode)
		return nil
	}
	fs.setLine(e.Span().Start)
	if ok, err := fs.modal(e, mode); ok {
		return err
	}
	switch e := e.(type) {
	case *ast.Paren:
		return fs.tailExpr(e.X, mode)
	case *ast.Return:
		// return leaves the function: its mode, not the enclosing one's
		return fs.tailExpr(e.X, fs.retMode)
	}
	before := fs.depth
	if err := fs.expr(e); err != nil {
		return err
	}
	if fs.depth == before+1 && !fs.lastIsTerminal() {
		fs.returnTop(mode)
	}
	fs.depth = 0
	return nil
}

// returnTop returns the value on top of the stack, or () in unit mode.
func (fs *fnState) returnTop(mode tailMode) {
	if mode == unitTail && !fs.lastIs(bytecode.UNIT) {
		fs.emit(bytecode.POP, 0, 0)
		fs.emit(bytecode.UNIT, 0, 0)
	}
	fs.emit(bytecode.RETURN, 0, 0)
}

// lastIs reports whether the last emitted instruction has opcode op and
// no jump lands after it (so it produced the value on top of the stack).
func (fs *fnState) lastIs(op bytecode.Opcode) bool {
	n := len(fs.fn.Code)
	return n > 0 && fs.fn.Code[n-1].Op == op && fs.labelPC != n
}

// lastIsTerminal reports whether the last emitted instruction never falls
// through.
func (fs *fnState) lastIsTerminal() bool {
	n := len(fs.fn.Code)
	return n > 0 && fs.fn.Code[n-1].Op.IsTerminal() && fs.labelPC != n
}

// block compiles a block in a new scope; its value is its last
// statement's (Unit when that is a let, a defer or a postfix-if
// statement).
func (fs *fnState) block(b *ast.Block, mode tailMode) error {
	fs.push()
	defer fs.pop()
	n := len(b.Stmts)
	if n == 0 {
		fs.unitValue(mode)
		return nil
	}
	for _, s := range b.Stmts[:n-1] {
		if err := fs.stmt(s); err != nil {
			return err
		}
	}
	return fs.lastStmt(b.Stmts[n-1], mode)
}

// lastStmt compiles the statement that ends a block: an expression gives
// the block's value (in tail position in a tail mode), anything else is
// followed by ().
func (fs *fnState) lastStmt(s ast.Stmt, mode tailMode) error {
	if es, ok := s.(*ast.ExprStmt); ok {
		switch {
		case es.Cond == nil && mode != notTail:
			return fs.tailExpr(es.X, mode)
		case es.Cond == nil:
			return fs.expr(es.X)
		case mode != notTail:
			// `stmt if cond` last: an else-less if
			return fs.postfixIfTail(es)
		}
	}
	if err := fs.stmt(s); err != nil {
		return err
	}
	fs.unitValue(mode)
	return nil
}

// unitValue pushes () as a block's value, and returns it in a tail mode.
func (fs *fnState) unitValue(mode tailMode) {
	fs.emit(bytecode.UNIT, 0, 0)
	if mode != notTail {
		fs.emit(bytecode.RETURN, 0, 0)
		fs.depth = 0
	}
}

// postfixIfTail compiles a postfix-if statement that ends a block in tail
// position: like an else-less if, the statement is in unit tail mode and
// the block's value is ().
func (fs *fnState) postfixIfTail(s *ast.ExprStmt) error {
	fs.setLine(s.Span().Start)
	skip := fs.newLabel()
	if err := fs.expr(s.Cond); err != nil {
		return err
	}
	fs.jump(bytecode.JUMP_IF_FALSE, skip)
	before := fs.depth
	if err := fs.tailExpr(s.X, unitTail); err != nil {
		return err
	}
	fs.depth = before
	fs.place(skip)
	fs.emit(bytecode.UNIT, 0, 0)
	fs.emit(bytecode.RETURN, 0, 0)
	fs.depth = 0
	return nil
}

// stmt compiles a statement that leaves nothing on the stack.
func (fs *fnState) stmt(s ast.Stmt) error {
	fs.setLine(s.Span().Start)
	switch s := s.(type) {
	case *ast.ExprStmt:
		if s.Cond != nil {
			skip := fs.newLabel()
			if err := fs.expr(s.Cond); err != nil {
				return err
			}
			fs.jump(bytecode.JUMP_IF_FALSE, skip)
			if err := fs.expr(s.X); err != nil {
				return err
			}
			fs.emit(bytecode.POP, 0, 0)
			fs.place(skip)
			return nil
		}
		before := fs.depth
		if err := fs.expr(s.X); err != nil {
			return err
		}
		if fs.lastIsTerminal() {
			// return / break / continue as a statement: nothing follows
			// on this path; keep the static depth as before.
			fs.depth = before
			return nil
		}
		fs.emit(bytecode.POP, 0, 0)
		return nil
	case *ast.LetStmt:
		return fs.let(s)
	case *ast.DeferStmt:
		if err := fs.lambda(fs.nestedName("defer", s.S.Start), nil, s.X, bytecode.FlagDefer, s.S); err != nil {
			return err
		}
		fs.setLine(s.S.Start)
		fs.emit(bytecode.DEFER, 0, 0)
		return nil
	}
	return fmt.Errorf("codegen: unexpected statement %T", s)
}

// let compiles `let PAT = e [else: body]`.
func (fs *fnState) let(s *ast.LetStmt) error {
	if err := fs.expr(s.Value); err != nil {
		return err
	}
	if bp, ok := s.Pattern.(*ast.BindPat); ok {
		slot := fs.newSlot()
		fs.emit(bytecode.STORE, slot, 0)
		fs.bind(bp.Name, slot)
		return nil
	}
	slot := fs.newSlot()
	fs.emit(bytecode.STORE, slot, 0)
	fail := fs.newLabel()
	binds, err := fs.patternTests(s.Pattern, slot, fail)
	if err != nil {
		return err
	}
	if s.Else == nil || len(fail.uses) == 0 {
		fs.failIfUsed(fail, "let pattern did not match")
		fs.bindAll(binds)
		return nil
	}
	skip := fs.newLabel()
	fs.jump(bytecode.JUMP, skip)
	fs.place(fail)
	before := fs.depth
	// The failure body diverges. It runs before the pattern's names are
	// bound, so a name it uses refers to the binding before the let.
	fs.push()
	err = fs.expr(s.Else)
	fs.pop()
	if err != nil {
		return err
	}
	if !fs.lastIsTerminal() {
		fs.emit(bytecode.POP, 0, 0)
		fs.fail("let-else body did not diverge")
	}
	fs.depth = before
	fs.place(skip)
	fs.bindAll(binds)
	return nil
}

// binary compiles a binary operator; `and`/`or` short-circuit.
func (fs *fnState) binary(e *ast.Binary) error {
	switch e.Op {
	case "and", "or":
		end := fs.newLabel()
		if err := fs.expr(e.L); err != nil {
			return err
		}
		fs.emit(bytecode.DUP, 0, 0)
		if e.Op == "and" {
			fs.jump(bytecode.JUMP_IF_FALSE, end)
		} else {
			fs.jump(bytecode.JUMP_IF_TRUE, end)
		}
		fs.emit(bytecode.POP, 0, 0)
		if err := fs.expr(e.R); err != nil {
			return err
		}
		fs.place(end)
		return nil
	}
	op, ok := binaryOps[e.Op]
	if !ok {
		return fmt.Errorf("codegen: unknown binary operator %q", e.Op)
	}
	if err := fs.expr(e.L); err != nil {
		return err
	}
	if err := fs.expr(e.R); err != nil {
		return err
	}
	fs.setLine(e.S.Start)
	fs.emit(op, 0, 0)
	return nil
}

// try compiles `x?`: an Err is returned unchanged (RETURN runs the
// defers); an Ok is unwrapped.
func (fs *fnState) try(e *ast.Try) error {
	if err := fs.expr(e.X); err != nil {
		return err
	}
	ok := fs.newLabel()
	fs.emit(bytecode.DUP, 0, 0)
	fs.emit(bytecode.TEST_TAG, value.TagErr, 0)
	fs.jump(bytecode.JUMP_IF_FALSE, ok)
	fs.emit(bytecode.RETURN, 0, 0)
	fs.depth++ // the value is still on the stack on the Ok path
	fs.place(ok)
	fs.emit(bytecode.ELEM, 0, 0)
	return nil
}

// ret compiles `return x` in expression position. A function declared
// Unit returns () whatever x is (the checker lets x be any value there).
func (fs *fnState) ret(e *ast.Return) error {
	before := fs.depth
	if before == 0 {
		if err := fs.tailExpr(e.X, fs.retMode); err != nil {
			return err
		}
	} else {
		if err := fs.expr(e.X); err != nil {
			return err
		}
		fs.returnTop(fs.retMode)
	}
	fs.diverged(before)
	return nil
}

// ifExpr compiles if/else; without else the value is Unit. In tail
// position both branches are; an else-less if's branch is in unit mode.
func (fs *fnState) ifExpr(e *ast.If, mode tailMode) error {
	if err := fs.expr(e.Cond); err != nil {
		return err
	}
	elseL := fs.newLabel()
	fs.jump(bytecode.JUMP_IF_FALSE, elseL)
	before := fs.depth
	if mode != notTail {
		thenMode := mode
		if e.Else == nil {
			thenMode = unitTail
		}
		if err := fs.tailExpr(e.Then, thenMode); err != nil {
			return err
		}
		fs.depth = before
		fs.place(elseL)
		if e.Else == nil {
			fs.emit(bytecode.UNIT, 0, 0)
			fs.emit(bytecode.RETURN, 0, 0)
			fs.depth = 0
			return nil
		}
		return fs.tailExpr(e.Else, mode)
	}
	end := fs.newLabel()
	if err := fs.expr(e.Then); err != nil {
		return err
	}
	if e.Else == nil {
		fs.emit(bytecode.POP, 0, 0)
		fs.place(elseL)
		fs.emit(bytecode.UNIT, 0, 0)
		return nil
	}
	fs.jump(bytecode.JUMP, end)
	fs.depth = before
	fs.place(elseL)
	if err := fs.expr(e.Else); err != nil {
		return err
	}
	fs.place(end)
	return nil
}

// match compiles a match (or a condition match when Subject is nil).
func (fs *fnState) match(m *ast.Match, mode tailMode) error {
	subj := -1
	if m.Subject != nil {
		if err := fs.expr(m.Subject); err != nil {
			return err
		}
		subj = fs.newSlot()
		fs.emit(bytecode.STORE, subj, 0)
	}
	return fs.arms(subj, m.Arms, mode)
}

// arms compiles match arms tried in order against the value in local
// slot subj (-1 for a condition match); the value of the selected arm's
// body is the result.
func (fs *fnState) arms(subj int, arms []*ast.Arm, mode tailMode) error {
	before := fs.depth
	end := fs.newLabel()
	exhaustive, err := fs.armChain(subj, arms, mode, end, before, nil)
	if err != nil {
		return err
	}
	if !exhaustive {
		fs.fail("no match arm matched")
	}
	fs.joinArms(end, before, mode)
	return nil
}

// armChain compiles arms tried in order against the value in local slot
// subj (-1 for a condition match): an arm's condition, pattern tests and
// guard jump to the next arm when they fail; selected, if set, emits what
// follows the choice of an arm, before its body; each body ends by
// jumping to end (or returning, in tail position). It reports whether an
// arm is unconditional, which makes the arms after it unreachable.
func (fs *fnState) armChain(subj int, arms []*ast.Arm, mode tailMode, end *label, before int, selected func()) (exhaustive bool, err error) {
	for _, arm := range arms {
		fs.setLine(arm.S.Start)
		next := fs.newLabel()
		fs.push()
		if err := fs.armTests(arm, subj, next); err != nil {
			return false, err
		}
		if selected != nil {
			selected()
		}
		if err := fs.armBody(arm.Body, mode, end, before); err != nil {
			return false, err
		}
		if len(next.uses) == 0 {
			return true, nil // an unconditional arm: later arms are unreachable
		}
		fs.place(next)
	}
	return false, nil
}

// armTests emits an arm's condition, or its pattern against the value in
// slot subj (if any), then its guard: each jumps to next when it fails.
func (fs *fnState) armTests(arm *ast.Arm, subj int, next *label) error {
	switch {
	case arm.Cond != nil:
		if err := fs.armTest(arm.Cond, next); err != nil {
			return err
		}
	case arm.Pattern != nil && subj >= 0:
		if err := fs.compilePattern(arm.Pattern, subj, next); err != nil {
			fs.pop()
			return err
		}
	}
	if arm.Guard != nil {
		return fs.armTest(arm.Guard, next)
	}
	return nil
}

// joinArms ends a construct whose arms each leave one value on the
// stack above depth before and jump to end. In tail mode every arm has
// returned, so nothing follows and the depth is 0.
func (fs *fnState) joinArms(end *label, before int, mode tailMode) {
	if mode != notTail {
		fs.depth = 0
		return
	}
	fs.place(end)
	fs.depth = before + 1
	if fs.depth > fs.fn.MaxStack {
		fs.fn.MaxStack = fs.depth
	}
}

// armTest compiles an arm's condition or guard, in the arm's scope
// opened by push, and jumps to next when it is false. On an error it
// closes that scope.
func (fs *fnState) armTest(cond ast.Expr, next *label) error {
	if err := fs.expr(cond); err != nil {
		fs.pop()
		return err
	}
	fs.jump(bytecode.JUMP_IF_FALSE, next)
	return nil
}

// armBody compiles the body that ends a scope opened by push (a match,
// receive or else arm, or a with chain's body): in tail mode it returns
// the body's value, otherwise it jumps to end with the value pushed.
// Then it closes the scope and, on success, resets the stack depth to
// before for the code that follows (the next arm or the failure path).
func (fs *fnState) armBody(body ast.Expr, mode tailMode, end *label, before int) error {
	var err error
	if mode != notTail {
		err = fs.tailExpr(body, mode)
	} else {
		err = fs.expr(body)
		if err == nil {
			fs.jump(bytecode.JUMP, end)
		}
	}
	fs.pop()
	if err != nil {
		return err
	}
	fs.depth = before
	return nil
}

// forLoop compiles `for PAT in xs: body`; its value is ().
func (fs *fnState) forLoop(f *ast.For) error {
	if err := fs.expr(f.Iter); err != nil {
		return err
	}
	fs.emit(bytecode.ITER, 0, 0)
	it := fs.newSlot()
	fs.emit(bytecode.STORE, it, 0)
	exit := fs.newLabel()
	loop := &loopInfo{depth: fs.depth, head: len(fs.fn.Code)}
	fs.jump(bytecode.ITER_NEXT, exit)
	fs.fn.Code[loop.head].A = int32(it)
	item := fs.newSlot()
	fs.emit(bytecode.STORE, item, 0)
	fs.loops = append(fs.loops, loop)
	fs.push()
	fail := fs.newLabel()
	err := fs.compilePattern(f.Pattern, item, fail)
	if err == nil {
		fs.failIfUsed(fail, "for pattern did not match")
		err = fs.expr(f.Body)
	}
	fs.pop()
	fs.loops = fs.loops[:len(fs.loops)-1]
	if err != nil {
		return err
	}
	fs.emit(bytecode.POP, 0, 0)
	fs.emit(bytecode.JUMP, loop.head, 0)
	fs.place(exit)
	for _, b := range loop.breaks {
		fs.fn.Code[b].A = int32(exit.pc)
	}
	fs.depth = loop.depth
	fs.emit(bytecode.UNIT, 0, 0)
	return nil
}

// breakOrContinue leaves the innermost loop's body, first popping what
// the enclosing expression has pushed since the loop head.
func (fs *fnState) breakOrContinue(isBreak bool) error {
	if len(fs.loops) == 0 {
		return fmt.Errorf("codegen: break or continue outside a loop")
	}
	loop := fs.loops[len(fs.loops)-1]
	before := fs.depth
	for fs.depth > loop.depth {
		fs.emit(bytecode.POP, 0, 0)
	}
	if isBreak {
		pc := fs.emit(bytecode.JUMP, 0, 0)
		loop.breaks = append(loop.breaks, pc)
	} else {
		fs.emit(bytecode.JUMP, loop.head, 0)
	}
	fs.diverged(before)
	return nil
}

// with compiles a `with` chain: each step's Result is tested; an Ok
// payload is matched against the step's pattern and bound, and the first
// Err (or an Ok whose payload does not match) becomes the chain's value,
// or is matched against the else arms when there are any.
func (fs *fnState) with(w *ast.With, mode tailMode) error {
	failed := fs.newSlot()
	fail := fs.newLabel()
	before := fs.depth
	fs.push()
	for _, st := range w.Steps {
		fs.setLine(st.S.Start)
		if err := fs.expr(st.X); err != nil {
			fs.pop()
			return err
		}
		fs.emit(bytecode.STORE, failed, 0)
		fs.emit(bytecode.LOAD, failed, 0)
		fs.emit(bytecode.TEST_TAG, value.TagErr, 0)
		fs.jump(bytecode.JUMP_IF_TRUE, fail)
		fs.emit(bytecode.LOAD, failed, 0)
		fs.emit(bytecode.ELEM, 0, 0)
		payload := fs.newSlot()
		fs.emit(bytecode.STORE, payload, 0)
		if err := fs.compilePattern(st.Pattern, payload, fail); err != nil {
			fs.pop()
			return err
		}
	}
	end := fs.newLabel()
	err := fs.armBody(w.Body, mode, end, before)
	if err != nil {
		return err
	}
	fs.place(fail)
	if len(w.ElseArms) > 0 {
		err = fs.arms(failed, w.ElseArms, mode)
	} else if mode == unitTail {
		fs.emit(bytecode.UNIT, 0, 0)
		fs.emit(bytecode.RETURN, 0, 0)
		fs.depth = 0
	} else {
		fs.emit(bytecode.LOAD, failed, 0)
		if mode != notTail {
			fs.emit(bytecode.RETURN, 0, 0)
			fs.depth = 0
		}
	}
	if err != nil || mode != notTail {
		return err
	}
	fs.place(end)
	fs.depth = before + 1
	return nil
}
