package codegen

import (
	"fmt"
	"slices"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// calleeKind classifies what a call calls.
type calleeKind int

const (
	calleeValue  calleeKind = iota // a function value computed by an expression or held in a local
	calleeFunc                     // a known compiled function (user or prelude)
	calleeCtor                     // a constructor
	calleeNative                   // a Go native, by qualified name
)

type callee struct {
	kind   calleeKind
	fn     int         // calleeFunc: function index
	decl   *ast.FnDecl // calleeFunc: declaration (for labels)
	ctor   ctorInfo    // calleeCtor
	native string      // calleeNative
	ref    ref         // calleeValue held in a local
	local  bool        // calleeValue: ref is set
	expr   ast.Expr    // calleeValue: expression to evaluate
	unitOf *unit       // unit the callee belongs to
}

// resolveName resolves a lone name or a path to what it denotes. Locals
// shadow functions; the current unit's functions shadow constructors and
// natives.
func (fs *fnState) resolveName(ident string, path []string) (callee, error) {
	if path == nil {
		if r, ok := fs.lookup(ident); ok {
			return callee{kind: calleeValue, ref: r, local: true}, nil
		}
		if idx, ok := fs.c.unitFunc(fs.u, ident); ok {
			return callee{kind: calleeFunc, fn: idx, decl: fs.u.decls[ident], unitOf: fs.u}, nil
		}
		if ci, ok := fs.c.ctor(ident); ok {
			return callee{kind: calleeCtor, ctor: ci, native: ident}, nil
		}
		return callee{kind: calleeNative, native: ident}, nil
	}
	q := qualifiedName(path)
	if ci, ok := fs.c.ctor(q); ok {
		return callee{kind: calleeCtor, ctor: ci, native: q}, nil
	}
	idx, ok, err := fs.c.preludeFunc(q)
	if err != nil {
		return callee{}, err
	}
	if ok {
		return callee{kind: calleeFunc, fn: idx, unitOf: fs.c.prelude}, nil
	}
	return callee{kind: calleeNative, native: q}, nil
}

// name compiles a name used as a value.
func (fs *fnState) name(ident string, path []string) error {
	c, err := fs.resolveName(ident, path)
	if err != nil {
		return err
	}
	switch c.kind {
	case calleeValue:
		fs.load(c.ref)
	case calleeFunc:
		fs.emit(bytecode.FUNC, c.fn, 0)
	case calleeCtor:
		if c.ctor.arity == 0 {
			fs.emit(bytecode.DATA, c.ctor.typ, c.ctor.tag)
		} else {
			fs.emit(bytecode.FUNC, fs.c.ctorWrapper(c.native, c.ctor), 0)
		}
	case calleeNative:
		if b := builtins.Lookup(c.native); b != nil && b.CallOnly() {
			return fmt.Errorf("codegen: %s cannot be used as a function value; call it directly", c.native)
		}
		fs.emit(bytecode.NATIVE, fs.c.prog.AddNative(c.native), 0)
	}
	return nil
}

// call compiles a call; in tail mode the emitted code returns the call's
// result itself (a tail call of a Morrow function or function value).
// In unit mode only a call of Unit type is a tail call; any other call's
// value is replaced by ().
func (fs *fnState) call(e *ast.Call, mode tailMode) error {
	if mode == unitTail && !fs.unitCall(e) {
		return fs.callReturningUnit(e)
	}
	c, err := fs.callTarget(e.Fn)
	if err != nil {
		return err
	}
	if c.kind == calleeNative {
		if b := builtins.Lookup(c.native); b != nil && b.Impl == builtins.ImplOpcode {
			return fs.actorCall(e, b, mode)
		}
	}
	if c.kind == calleeValue {
		if err := fs.pushCallee(c); err != nil {
			return err
		}
	}
	params, labels, err := fs.signature(c, len(e.Args))
	if err != nil {
		return err
	}
	tail := mode != notTail
	if c.kind == calleeFunc && tail && fs.selfTCO && c.fn == fs.idx {
		return fs.selfTailCall(e, params, labels)
	}
	if err := fs.args(e, labels); err != nil {
		return err
	}
	fs.setLine(e.S.Start)
	left, err := fs.emitCall(e, c, tail)
	if err != nil || left {
		return err
	}
	if tail {
		fs.returnTop(mode)
		fs.depth = 0
	}
	return nil
}

// callReturningUnit compiles a call in unit tail mode whose value is not
// (): an ordinary call, then a return of ().
func (fs *fnState) callReturningUnit(e *ast.Call) error {
	if err := fs.call(e, notTail); err != nil {
		return err
	}
	fs.returnTop(unitTail)
	fs.depth = 0
	return nil
}

// callTarget resolves the callee of a call: a name or path is looked up,
// any other expression is a function value.
func (fs *fnState) callTarget(fn ast.Expr) (callee, error) {
	switch fn := fn.(type) {
	case *ast.Ident:
		return fs.resolveName(fn.Name, nil)
	case *ast.Path:
		return fs.resolveName("", fn.Parts)
	}
	return callee{kind: calleeValue, expr: fn}, nil
}

// pushCallee pushes the function value a call of kind calleeValue calls.
func (fs *fnState) pushCallee(c callee) error {
	if c.local {
		fs.load(c.ref)
		return nil
	}
	return fs.expr(c.expr)
}

// signature returns the parameters (of a declared function) and the
// parameter labels (of a declared function or a builtin) of callee c,
// and checks that a function gets its n arguments.
func (fs *fnState) signature(c callee, n int) ([]*ast.Param, []string, error) {
	switch c.kind {
	case calleeFunc:
		if want := fs.c.prog.Functions[c.fn].Params; n != want {
			return nil, nil, fmt.Errorf("codegen: %s called with %d arguments, takes %d", fs.c.prog.Functions[c.fn].Name, n, want)
		}
		if c.decl == nil {
			return nil, nil, nil
		}
		var labels []string
		for _, p := range c.decl.Params {
			labels = append(labels, p.ExternalLabel())
		}
		return c.decl.Params, labels, nil
	case calleeNative:
		if b := builtins.Lookup(c.native); b != nil {
			return nil, b.Labels, nil
		}
	}
	return nil, nil, nil
}

// emitCall emits the call of c once its arguments are on the stack; left
// reports a tail call, after which the function has returned.
func (fs *fnState) emitCall(e *ast.Call, c callee, tail bool) (left bool, err error) {
	n := len(e.Args)
	switch c.kind {
	case calleeFunc:
		if tail && fs.tailOK {
			fs.emit(bytecode.TAIL_CALL, c.fn, n)
			fs.depth = 0
			return true, nil
		}
		fs.emit(bytecode.CALL, c.fn, n)
	case calleeValue:
		if tail && fs.tailOK {
			fs.emit(bytecode.TAIL_CALL_VALUE, n, 0)
			fs.depth = 0
			return true, nil
		}
		fs.emit(bytecode.CALL_VALUE, n, 0)
	case calleeCtor:
		if n != c.ctor.arity {
			return false, fmt.Errorf("codegen: constructor %s called with %d arguments, has %d fields", c.native, n, c.ctor.arity)
		}
		fs.emit(bytecode.DATA, c.ctor.typ, c.ctor.tag)
	case calleeNative:
		return false, fs.nativeCall(e, c.native)
	}
	return false, nil
}

// nativeCall emits the call of a native with the call's arguments on the
// stack, adding the hidden mailbox-key argument the builtin may take.
func (fs *fnState) nativeCall(e *ast.Call, native string) error {
	n := len(e.Args)
	if b := builtins.Lookup(native); b != nil && b.Has(builtins.MailboxKey) {
		// The hidden last argument: the mailbox type's run-time key.
		key, ok := types.CallMailboxKey(fs.c.info, e)
		if !ok {
			return fmt.Errorf("codegen: %s needs a concrete mailbox type from the checker", native)
		}
		fs.emit(bytecode.CONST, fs.c.prog.AddConst(value.String(key)), 0)
		n++
	}
	fs.emit(bytecode.CALL_NATIVE, fs.c.prog.AddNative(native), n)
	return nil
}

// unitCall reports whether call e may be a tail call in unit mode: its
// type is Unit or Never. In the prelude (compiled without types, written
// so that this holds) every call is assumed to be. Without the checker's
// types, only a call of a function declared Unit and a self call are: a
// self call in unit position has the function's type, which every exit
// of the body shares, and an else-less if (whose value is ()) or a Unit
// declaration is what put it there.
func (fs *fnState) unitCall(e *ast.Call) bool {
	if fs.u.prelude {
		return true
	}
	if fs.c.info != nil && fs.c.info.Types != nil {
		return !fs.c.knownNonUnit(e)
	}
	name, ok := e.Fn.(*ast.Ident)
	if !ok {
		return false
	}
	c, err := fs.resolveName(name.Name, nil)
	if err != nil || c.kind != calleeFunc {
		return false
	}
	return c.fn == fs.idx || (c.decl != nil && c.decl.Ret != nil && isUnitType(c.decl.Ret))
}

// args evaluates the arguments of a call exactly once, in evaluation order
// (the piped value first, then the others as written), and leaves them on
// the stack in parameter order. The parameter of each argument is the one
// the checker recorded (Info.CallArgs, for a call with labels); without
// the checker's tables (the prelude, tests of this package) labels gives
// the callee's parameter labels (its declaration's, or the builtin
// registry's; nil: arguments are positional).
func (fs *fnState) args(e *ast.Call, labels []string) error {
	pos, err := fs.argPositions(e, labels)
	if err != nil {
		return err
	}
	order := evalOrder(e)
	if inParamOrder(order, pos) {
		for _, i := range order {
			if err := fs.expr(e.Args[i].Value); err != nil {
				return err
			}
		}
		return nil
	}
	temps := make([]int, len(e.Args)) // by parameter position
	for _, i := range order {
		if err := fs.expr(e.Args[i].Value); err != nil {
			return err
		}
		s := fs.newSlot()
		fs.emit(bytecode.STORE, s, 0)
		temps[pos[i]] = s
	}
	for _, s := range temps {
		fs.emit(bytecode.LOAD, s, 0)
	}
	return nil
}

// evalOrder returns the indexes of e's arguments in evaluation order: the
// piped value first, then the others as written.
func evalOrder(e *ast.Call) []int {
	n := len(e.Args)
	order := make([]int, 0, n)
	if e.Piped >= 0 && e.Piped < n {
		order = append(order, e.Piped)
	}
	for i := range e.Args {
		if i != e.Piped {
			order = append(order, i)
		}
	}
	return order
}

// inParamOrder reports whether evaluating the arguments in order leaves
// them in parameter order (pos gives each argument's parameter).
func inParamOrder(order, pos []int) bool {
	for k, i := range order {
		if pos[i] != k {
			return false
		}
	}
	return true
}

// argPositions returns the parameter position of each argument of e:
// the checker's record of a labeled call, else the position of the
// argument's label in labels, else its own position.
func (fs *fnState) argPositions(e *ast.Call, labels []string) ([]int, error) {
	n := len(e.Args)
	var recorded []int
	if fs.c.info != nil {
		recorded = fs.c.info.CallArgs[e]
	}
	if recorded != nil && len(recorded) != n {
		return nil, fmt.Errorf("codegen: the checker recorded %d arguments of a call with %d", len(recorded), n)
	}
	pos := make([]int, n)
	used := make([]bool, n)
	for i, a := range e.Args {
		p := i
		switch {
		case recorded != nil:
			p = recorded[i]
		case a.Label != "" && labels != nil:
			p = slices.Index(labels, a.Label)
			if p < 0 {
				return nil, fmt.Errorf("codegen: no parameter labelled %s", a.Label)
			}
		}
		if p < 0 || p >= n || used[p] {
			return nil, fmt.Errorf("codegen: argument %d has no free parameter position", i)
		}
		used[p] = true
		pos[i] = p
	}
	return pos, nil
}

// selfTailCall compiles a tail call of the function itself as a loop:
// evaluate the arguments, store them into the parameter slots, and jump
// to the start. An argument that is the parameter's own current value
// (`f(n - 1, acc)` passing acc along) is neither loaded nor stored.
func (fs *fnState) selfTailCall(e *ast.Call, params []*ast.Param, labels []string) error {
	n := len(e.Args)
	same := make([]bool, n)
	if argsInOrder(e, params) {
		for i, a := range e.Args {
			same[i] = fs.passesOwnParam(a.Value, i, params)
		}
		for i, a := range e.Args {
			if !same[i] {
				if err := fs.expr(a.Value); err != nil {
					return err
				}
			}
		}
	} else if err := fs.args(e, labels); err != nil {
		return err
	}
	fs.setLine(e.S.Start)
	for i := n - 1; i >= 0; i-- {
		if !same[i] {
			fs.emit(bytecode.STORE, i, 0)
		}
	}
	fs.emit(bytecode.JUMP, 0, 0)
	fs.depth = 0
	return nil
}

// argsInOrder reports whether e's arguments are written in parameter
// order: nothing piped after the first position, every label the one of
// its position's parameter.
func argsInOrder(e *ast.Call, params []*ast.Param) bool {
	if e.Piped > 0 {
		return false
	}
	for i, a := range e.Args {
		if a.Label != "" && (i >= len(params) || params[i].ExternalLabel() != a.Label) {
			return false
		}
	}
	return true
}

// passesOwnParam reports whether argument x at position i is the plain
// name of parameter i itself (its current value, passed along).
func (fs *fnState) passesOwnParam(x ast.Expr, i int, params []*ast.Param) bool {
	id, ok := x.(*ast.Ident)
	if !ok || i >= len(params) || params[i].Pattern != nil {
		return false
	}
	r, found := fs.lookup(id.Name)
	return found && r.kind == refLocal && r.index == i
}
