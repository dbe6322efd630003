package types

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// call checks a call expression (docs/reference/syntax.md#calls).
func (c *Checker) call(x *ast.Call, hint Type) Type {
	switch fn := x.Fn.(type) {
	case *ast.Ident:
		if o := c.lookupLocal(fn.Name); o != nil {
			return c.valueCall(x, hint)
		}
		if sig := c.funcs[fn.Name]; sig != nil {
			c.info.Uses[fn] = sig.obj
			return c.callSig(x, sig)
		}
		if ct := c.bareCtor(fn.Name); ct != nil {
			c.info.Uses[fn] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
			return c.callCtor(x, ct, fn.Name)
		}
		if ls := lib().labeled[fn.Name]; ls != nil {
			c.info.Uses[fn] = ls.obj
			return c.callSig(x, ls)
		}
		if lib().sigs[fn.Name] != nil {
			c.info.Uses[fn] = &Object{Kind: ObjBuiltin, Name: fn.Name, Builtin: fn.Name}
			return c.callBuiltin(x, fn.Name)
		}
		c.unknownNameHelp(c.errorf(ErrUnknownName, fn.Span(), "unknown name '%s'", fn.Name), fn.Name)
		c.info.Types[fn] = Invalid
		c.argsUnchecked(x)
		return Invalid
	case *ast.Path:
		b, ct, msg, proc := c.lookupQualified(fn.Parts)
		switch {
		case b != "":
			c.info.Uses[fn] = &Object{Kind: ObjBuiltin, Name: b, Builtin: b}
			return c.callBuiltin(x, b)
		case ct != nil:
			c.info.Uses[fn] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
			return c.callCtor(x, ct, fn.String())
		}
		c.pathError(fn, msg, proc)
		c.info.Types[fn] = Invalid
		c.argsUnchecked(x)
		return Invalid
	}
	return c.valueCall(x, hint)
}

func (c *Checker) argsUnchecked(x *ast.Call) {
	for _, a := range x.Args {
		if a.Value != nil {
			c.expr(a.Value, nil)
		}
	}
}

// positionalOnly reports labels on a callable that takes none.
func (c *Checker) positionalOnly(x *ast.Call) {
	for _, a := range x.Args {
		if a.Label != "" {
			c.errorf(ErrPositionalOnly, a.Span(), "this callable uses positional arguments").Hint = "remove the label '" + a.Label + ":'"
			return
		}
	}
}

// checkPositional checks arguments against parameter types in order.
func (c *Checker) checkPositional(x *ast.Call, params []Type, what string) []Type {
	out := make([]Type, len(x.Args))
	for i, a := range x.Args {
		if a.Value == nil {
			continue
		}
		if i < len(params) {
			t := c.expr(a.Value, params[i])
			out[i] = t
			c.expect(spanOf(a.Value), t, params[i], fmt.Sprintf("argument %d of %s", i+1, what))
		} else {
			out[i] = c.expr(a.Value, nil)
		}
	}
	return out
}

func (c *Checker) arityError(x *ast.Call, want int) {
	if len(x.Args) > want {
		c.errorf(ErrTooManyArgs, x.Args[want].Span(), "too many arguments").Notes = []string{fmt.Sprintf("expected %d, found %d", want, len(x.Args))}
	} else if len(x.Args) < want {
		c.errorf(ErrMissingArg, x.Span(), "missing argument").Notes = []string{fmt.Sprintf("expected %d, found %d", want, len(x.Args))}
	}
}

// valueCall calls a function value (a local, a lambda result, ...).
func (c *Checker) valueCall(x *ast.Call, hint Type) Type {
	ft := c.expr(x.Fn, nil)
	c.positionalOnly(x)
	switch f := Resolve(ft).(type) {
	case *Func:
		if len(f.Params) != len(x.Args) {
			c.arityError(x, len(f.Params))
		}
		c.checkPositional(x, f.Params, "function value")
		return f.Ret
	case *TVar:
		ps := make([]Type, len(x.Args))
		for i := range ps {
			ps[i] = c.fresh()
		}
		ret := c.fresh()
		unify(f, &Func{Params: ps, Ret: ret})
		c.checkPositional(x, ps, "function value")
		return ret
	}
	c.argsUnchecked(x)
	if isNever(ft) {
		// §3.7: `(return 1)()` never calls anything.
		return NeverT
	}
	if !hasInvalid(ft) {
		c.errorf(ErrNotCallable, spanOf(x.Fn), "cannot call a value of type %s", Zonk(ft))
	}
	return Invalid
}

// callSig checks a call of a top-level function, with labels.
func (c *Checker) callSig(x *ast.Call, sig *FuncSig) Type {
	m := c.instantiate(sig.Generics)
	n := len(sig.Params)
	slots := make([]int, n) // written-argument index per parameter, -1 if none
	for i := range slots {
		slots[i] = -1
	}
	byLabel := make([]bool, n)
	order := make([]int, len(x.Args))
	labeled := false
	anyLabel := false
	before := len(c.diags)
	pos := 0
	tooMany := false
	for i, a := range x.Args {
		order[i] = -1
		if a.Label == "" {
			if labeled {
				c.errorf(ErrPositionalAfter, a.Span(), "positional arguments must precede labeled arguments")
				continue
			}
			if pos >= n {
				if !tooMany {
					c.errorf(ErrTooManyArgs, a.Span(), "too many arguments").Notes = []string{fmt.Sprintf("'%s' takes %d", sig.Name, n)}
					tooMany = true
				}
				continue
			}
			if sig.NeedsLabel[pos] && x.Piped != i {
				c.errorf(ErrLabelRequired, a.Span(), "argument requires label '%s:'", sig.Params[pos].Label).Notes =
					[]string{labelReason(sig, pos)}
			}
			slots[pos] = i
			order[i] = pos
			pos++
			continue
		}
		labeled, anyLabel = true, true
		j := -1
		for k, p := range sig.Params {
			if p.Label == a.Label {
				j = k
			}
		}
		if j < 0 {
			c.errorf(ErrUnknownLabel, a.Span(), "unknown argument label %s", a.Label).Notes = []string{"parameters: " + paramList(sig)}
			continue
		}
		if slots[j] >= 0 {
			if byLabel[j] {
				c.errorf(ErrDuplicateLabel, a.Span(), "duplicate argument label").Notes = []string{"'" + a.Label + ":' is given twice"}
			} else {
				c.errorf(ErrPositionSupplied, a.Span(), "argument position already supplied").Notes =
					[]string{"'" + a.Label + "' was already passed positionally"}
			}
			continue
		}
		slots[j] = i
		byLabel[j] = true
		order[i] = j
	}
	for j, s := range slots {
		if s < 0 && len(c.diags) == before {
			c.errorf(ErrMissingArg, x.Span(), "missing argument").Notes = []string{fmt.Sprintf("'%s' is not supplied", sig.Params[j].Label)}
		}
	}
	if anyLabel {
		c.info.CallArgs[x] = order
	}
	// Check arguments in the order written.
	for i, a := range x.Args {
		if a.Value == nil {
			continue
		}
		j := order[i]
		if j < 0 {
			c.expr(a.Value, nil)
			continue
		}
		pt := subst(sig.Params[j].Type, m)
		t := c.expr(a.Value, pt)
		what := fmt.Sprintf("argument '%s' of %s", sig.Params[j].Label, sig.Name)
		if sig.Params[j].Label == "" {
			what = fmt.Sprintf("argument %d of %s", j+1, sig.Name)
		}
		before := len(c.diags)
		c.expect(spanOf(a.Value), t, pt, what+"")
		if len(c.diags) > before && sig.Decl != nil && j < len(sig.Decl.Params) && sig.Params[j].Declared {
			// Why the type was expected: the parameter's declaration.
			p := sig.Decl.Params[j]
			name := p.Name
			if name == "" {
				name = "parameter " + itoa(j+1)
			} else {
				name = "'" + name + "'"
			}
			c.diags[len(c.diags)-1].Related = append(c.diags[len(c.diags)-1].Related,
				diag.Related{Span: p.Span(), Message: fmt.Sprintf("%s of %s is %s, declared here", name, sig.Name, Zonk(sig.Params[j].Type))})
		}
		if len(c.diags) > before && c.carriedParam(sig.Params[j].Type) {
			c.diags[len(c.diags)-1].Notes = append(c.diags[len(c.diags)-1].Notes,
				"'"+sig.Name+"' takes this tuple apart with a rest pattern or projection and no annotation, so its size is fixed by the first call; annotate the parameter with a tuple type or a type variable per element")
		}
	}
	c.info.Types[x.Fn] = subst(sig.FuncType(), m)
	c.inherit(sig.Generics, m, x.Span(), c.inGroup[sig], nil)
	c.unifyMailbox(x, sig)
	return subst(sig.Ret, m)
}

// supervisorOp reports whether e is a Supervisor operation or one of
// Process.init_ack, init_ignore and init_fail (docs/supervisors.md).
func supervisorOp(e *builtins.Entry) bool {
	return e != nil && (e.Module() == builtins.SupervisorModule || strings.HasPrefix(e.Name, "Process.init_"))
}

func labelReason(sig *FuncSig, i int) string {
	if isBasic(sig.Params[i].Type, KBool) {
		return "Bool parameters must be labeled"
	}
	return fmt.Sprintf("'%s' has the same type (%s) as another parameter", sig.Params[i].Label, Zonk(sig.Params[i].Type))
}

func paramList(sig *FuncSig) string {
	var ps []string
	for _, p := range sig.Params {
		ps = append(ps, p.Label)
	}
	return strings.Join(ps, ", ")
}

func (c *Checker) callCtor(x *ast.Call, ct *Ctor, written string) Type {
	c.positionalOnly(x)
	fs, res := c.ctorType(ct)
	if len(x.Args) != len(fs) {
		c.errorf(ErrCtorArity, x.Span(), "constructor '%s' expects %d arguments", written, len(fs)).Notes =
			[]string{fmt.Sprintf("found %d", len(x.Args))}
	}
	c.checkPositional(x, fs, "'"+written+"'")
	if len(fs) > 0 {
		c.info.Types[x.Fn] = &Func{Params: fs, Ret: res}
	} else {
		c.info.Types[x.Fn] = res
	}
	return res
}

// deferRestriction reports a builtin that may not run in a defer body
// (docs/reference/checks.md#guards-and-defer): the Process module's "process operations", the legacy
// "actor operations".
func (c *Checker) deferRestriction(name string, span source.Span) {
	e := builtins.Lookup(name)
	if c.fn.deferFlagged || !e.Has(builtins.NoDefer) {
		return // one restriction error per defer body (docs/diagnostics.md)
	}
	if supervisorOp(e) {
		c.errorf(ErrSupervisorDefer, span, "supervisor operations are unsupported in deferred cleanup")
		c.fn.deferFlagged = true
		return
	}
	what := "actor"
	if e.Module() == builtins.ProcessModule {
		what = "process"
	} else if e.Has(builtins.Outside) {
		what = "outside-world" // docs/io.md
	}
	c.errorf(ErrDeferProcess, span, "%s operations are unsupported in deferred cleanup", what)
	c.fn.deferFlagged = true
}

// callBuiltin checks a call of a builtin function: its form (labels,
// defer, arity), its signature instantiated for this call, its context,
// then the typing rule of its registry entry.
func (c *Checker) callBuiltin(x *ast.Call, name string) Type {
	e := builtins.Lookup(name)
	bc := &builtinCall{x: x, e: e, name: name, bs: lib().sigs[name]}
	c.builtinForm(bc)
	bc.m = c.instantiate(bc.bs.Generics)
	bc.ps = make([]Type, len(bc.bs.Params))
	for i, p := range bc.bs.Params {
		bc.ps[i] = subst(p, bc.m)
	}
	bc.ret = subst(bc.bs.Ret, bc.m)
	c.info.Types[x.Fn] = &Func{Params: bc.ps, Ret: bc.ret}
	reqSpan := x.Span()
	if (e.Req == builtins.Printable || e.Req == builtins.Showable) && len(x.Args) > 0 {
		reqSpan = x.Args[0].Span()
	}
	c.inherit(bc.bs.Generics, bc.m, reqSpan, false, nil)
	bc.root = c.fn.isMain || c.fn.isRoot || c.fn.noActor
	c.builtinContext(bc)
	switch e.Rule {
	case builtins.OwnMailbox:
		c.ownMailboxCall(bc)
	case builtins.TypedPid:
		if len(x.Args) > 0 && x.Args[0].Value != nil {
			return c.typedPidCall(bc)
		}
	case builtins.SpawnEntry, builtins.ChildEntry:
		if entry := bc.entryIndex(); len(x.Args) > entry && x.Args[entry].Value != nil {
			return c.spawnCall(bc, entry)
		}
	}
	return c.plainBuiltinCall(bc)
}

// builtinCall is one call of a builtin being checked: the call, its
// registry entry and signature, and the signature instantiated for it.
type builtinCall struct {
	x    *ast.Call
	e    *builtins.Entry
	name string
	bs   *BuiltinSig
	m    map[*TParam]Type // the signature's generics, instantiated
	ps   []Type           // the parameter types
	ret  Type             // the result type
	root bool             // the caller runs without a mailbox
}

// generic returns the instantiated type of the signature's type variable
// called name, or nil.
func (bc *builtinCall) generic(name string) Type {
	if name == "" {
		return nil
	}
	for _, g := range bc.bs.Generics {
		if g.Name == name {
			return bc.m[g]
		}
	}
	return nil
}

// entryIndex is the argument that holds the spawned entry: the first, or
// the second for a supervised child (its key comes first).
func (bc *builtinCall) entryIndex() int {
	if bc.e.Rule == builtins.ChildEntry {
		return 1
	}
	return 0
}

// builtinForm checks the call's form: positional arguments, what defer
// allows, and the number of arguments.
func (c *Checker) builtinForm(bc *builtinCall) {
	x, e, name := bc.x, bc.e, bc.name
	if supervisorOp(e) {
		for _, a := range x.Args {
			if a.Label != "" {
				c.errorf(ErrSupervisorLabel, a.Span(), "%s takes positional arguments only", name).Hint = "remove the label '" + a.Label + ":'"
				break
			}
		}
	} else {
		c.positionalOnly(x)
	}
	if c.fn.inDefer {
		c.deferRestriction(name, x.Span())
	}
	want := len(bc.bs.Params)
	if len(x.Args) == want {
		return
	}
	switch e.Module() {
	case builtins.SupervisorModule:
		c.errorf(ErrSupervisorArity, x.Span(), "%s expects %d arguments", name, want).Notes =
			[]string{fmt.Sprintf("found %d", len(x.Args))}
	case builtins.ProcessModule:
		c.errorf(ErrProcessArity, x.Span(), "%s expects %d arguments", name, want)
	default:
		c.arityError(x, want)
	}
}

// builtinContext refuses an actor-only builtin in the root context
// (docs/reference/checks.md#contexts); Process.self has its own message
// (ownMailboxCall).
func (c *Checker) builtinContext(bc *builtinCall) {
	e, span := bc.e, bc.x.Span()
	if e.Context != builtins.ActorOnly || !bc.root {
		return
	}
	switch {
	case supervisorOp(e):
		c.errorf(ErrSupervisorContext, span, "supervisor startup operation requires an actor context").Hint =
			"main runs in the root context; call " + bc.name + " from a process (a supervised child, or one you spawn)"
	case e.Rule == builtins.SpawnEntry:
		c.errorf(ErrActorOnly, span, "process operation requires an actor context").Hint =
			"the root context may use Process.spawn; spawn an observer process for " + bc.name
	case e.Rule == builtins.OwnMailbox:
	default:
		c.errorf(ErrActorOnly, span, "process operation requires an actor context").Hint =
			"main runs in the root context; spawn an observer process for " + bc.name
	}
}

// ownMailboxCall types Process.self: the caller's own mailbox.
func (c *Checker) ownMailboxCall(bc *builtinCall) {
	if bc.root {
		c.errorf(ErrSelfContext, bc.x.Span(), "self requires an actor context")
		return
	}
	unify(bc.ret, &Named{Def: PidDef, Args: []Type{c.mailbox(bc.x.Span())}})
}

// typedPidCall checks a builtin whose first argument must be a typed Pid
// (send, Process.id, Process.call, send_wait): the Pid's mailbox type is
// the signature's, and a reply type (the entry's Reply) must be sendable.
func (c *Checker) typedPidCall(bc *builtinCall) Type {
	a0 := bc.x.Args[0]
	t := c.expr(a0.Value, nil)
	switch r := Resolve(t).(type) {
	case *Named:
		if r.Def == PidDef {
			unify(bc.ps[0], r)
			break
		}
		c.pidError(bc.name, a0.Span(), t)
	case *TVar:
		unify(r, bc.ps[0])
	default:
		if !hasInvalid(t) {
			c.pidError(bc.name, a0.Span(), t)
		}
	}
	c.restArgs(bc.x, bc.ps, bc.name)
	if rt := bc.generic(bc.e.Reply); rt != nil {
		// A reply type is a message type too (docs/reference/types.md#what-a-message-may-contain).
		c.mailboxSites = append(c.mailboxSites, mailboxSite{t: rt, span: bc.x.Span(), process: true})
	}
	return bc.ret
}

// spawnCall checks a builtin that starts a process from the entry in
// argument entry (spawn, supervise, Process.spawn*, a supervised child):
// the entry is a zero-argument Unit function, and its mailbox effect is
// the mailbox the call fixes (the entry's Mailbox variable).
func (c *Checker) spawnCall(bc *builtinCall, entry int) Type {
	x, ps := bc.x, bc.ps
	if entry == 1 && len(x.Args) > 0 && x.Args[0].Value != nil {
		kt := c.expr(x.Args[0].Value, ps[0])
		c.expect(spanOf(x.Args[0].Value), kt, ps[0], fmt.Sprintf("argument 1 of %s", bc.name))
	}
	a := x.Args[entry]
	if id, ok := a.Value.(*ast.Ident); ok {
		c.spawnEntries[id] = true
	}
	t := c.expr(a.Value, &Func{Params: nil, Ret: c.fresh()})
	badEntry := c.checkEntryType(a, t)
	if mt := bc.generic(bc.e.Mailbox); mt != nil {
		c.entryMailbox(bc, a, mt, badEntry)
	}
	if entry == 0 {
		c.restArgs(x, ps, bc.name)
		return bc.ret
	}
	for i := 2; i < len(x.Args); i++ {
		if a := x.Args[i]; a.Value != nil && i < len(ps) {
			at := c.expr(a.Value, ps[i])
			c.expect(spanOf(a.Value), at, ps[i], fmt.Sprintf("argument %d of %s", i+1, bc.name))
		} else if a.Value != nil {
			c.expr(a.Value, nil)
		}
	}
	return bc.ret
}

// checkEntryType checks that a spawned entry of type t is a zero-argument
// Unit function, and reports whether it is bad (already reported).
func (c *Checker) checkEntryType(a *ast.Arg, t Type) bool {
	switch r := Resolve(t).(type) {
	case *Func:
		if len(r.Params) != 0 {
			c.errorf(ErrSpawnEntry, a.Span(), "spawn requires a zero-argument Unit function").Notes = []string{"found " + Zonk(t).String()}
			return true
		}
		rt := Resolve(r.Ret)
		if v, ok := rt.(*TVar); ok {
			unify(v, UnitT)
		} else if !isBasic(rt, KUnit) && !isNever(rt) && !hasInvalid(rt) {
			c.errorf(ErrSpawnEntry, a.Span(), "spawn requires a zero-argument Unit function").Notes = []string{"found " + Zonk(t).String()}
			return true
		}
		return hasInvalid(t)
	case *TVar:
		unify(r, &Func{Ret: UnitT})
		return false
	default:
		if !hasInvalid(t) {
			c.errorf(ErrSpawnEntry, a.Span(), "spawn requires a function value").Notes = []string{"found " + Zonk(t).String()}
		}
		return true
	}
}

// entryMailbox makes the child's mailbox mt the entry's mailbox effect
// (docs/reference/types.md#mailbox-types step 5) and records the site for
// the mailbox rules; an entry already reported fixes no mailbox.
func (c *Checker) entryMailbox(bc *builtinCall, a *ast.Arg, mt Type, badEntry bool) {
	var entryNode ast.Node
	switch v := a.Value.(type) {
	case *ast.Lambda:
		entryNode = v
	case *ast.Ident:
		if o := c.info.Uses[v]; o != nil && o.Kind == ObjFunc && o.Func != nil {
			entryNode = o.Func.Decl
		}
	}
	et, ok := c.info.Mailboxes[entryNode]
	if fd, isFn := entryNode.(*ast.FnDecl); ok && isFn && !c.inGroup[c.info.Funcs[fd]] {
		// A named entry's still generic mailbox is fixed per spawn.
		et = c.freshMailbox(et, bc.x.Span())
	}
	if ok && entryNode != nil && !unify(mt, et) {
		ts := typeStrings(mt, et)
		c.errorf(ErrMismatch, spanOf(a.Value), "spawn mailbox: expected %s, found %s", ts[0], ts[1])
	}
	if !badEntry {
		c.mailboxSites = append(c.mailboxSites, mailboxSite{t: mt, span: bc.x.Span(), spawn: true,
			process: bc.e.Module() == builtins.ProcessModule, supervised: bc.e.Rule == builtins.ChildEntry, builtin: bc.e.Name})
	}
}

// plainBuiltinCall checks the arguments of a builtin against its
// parameters, then applies the entry's flags.
func (c *Checker) plainBuiltinCall(bc *builtinCall) Type {
	x, e, name := bc.x, bc.e, bc.name
	if e.Has(builtins.RootCallbacks) {
		// Callbacks of library functions run without an actor context (docs/reference/checks.md#guards-and-defer).
		for _, a := range x.Args {
			if l, ok := a.Value.(*ast.Lambda); ok {
				c.rootLambdas[l] = true
			}
		}
	}
	before := len(c.diags)
	ts := c.checkPositional(x, bc.ps, name)
	if e.Has(builtins.MailboxKey) && len(c.diags) == before && len(x.Args) == len(bc.bs.Params) {
		// The registry needs M at run time (mailboxkey.go); a call whose
		// arguments are already wrong gets no follow-on error.
		if mt := bc.generic(e.Mailbox); mt != nil {
			c.mailboxSites = append(c.mailboxSites, mailboxSite{t: mt, span: x.Span(), keyOf: name})
		}
	}
	if len(bc.ps) > 0 && bc.bs.Params[0] == ProcessIDT && len(ts) > 0 && ts[0] != nil {
		c.pidForProcessID(ts[0], name, before)
	}
	if e.Has(builtins.MetadataRead) {
		c.noteMetadataReads(x, name)
	}
	return bc.ret
}

// pidForProcessID points at the conversion when a Pid was given to a
// builtin that takes the erased identity (Process.monitor, link, ...;
// docs/reference/checks.md#pids-and-mailboxes): the mismatches reported
// since before get the hint.
func (c *Checker) pidForProcessID(t Type, name string, before int) {
	if n, ok := Resolve(t).(*Named); ok && n.Def == PidDef {
		for _, d := range c.diags[before:] {
			if d.Code == ErrMismatch {
				d.Hint = name + " requires a ProcessId; convert the Pid with Process.id(pid)"
			}
		}
	}
}

// restArgs checks the arguments of a builtin call after the first, which
// the caller has checked, against the parameter types ps.
func (c *Checker) restArgs(x *ast.Call, ps []Type, name string) {
	for i, a := range x.Args[1:] {
		if a.Value == nil {
			continue
		}
		if i+1 < len(ps) {
			at := c.expr(a.Value, ps[i+1])
			before := len(c.diags)
			c.expect(spanOf(a.Value), at, ps[i+1], fmt.Sprintf("argument %d of %s", i+2, name))
			if len(c.diags) > before {
				c.firstArgOrigin(x, c.diags[len(c.diags)-1])
			}
		} else {
			c.expr(a.Value, nil)
		}
	}
}

// firstArgOrigin explains a mismatch of a later argument of a builtin
// whose types come from its first argument (`send(reply, "done")` with
// `reply: Pid(Int)`): when that argument is a local, a secondary label
// points at its binding, "'reply' is Pid(Int), declared here".
func (c *Checker) firstArgOrigin(x *ast.Call, d *diag.Diagnostic) {
	if len(x.Args) == 0 || x.Args[0] == nil || ast.IsNil(x.Args[0].Value) {
		return
	}
	id, ok := unparen(x.Args[0].Value).(*ast.Ident)
	if !ok {
		return
	}
	o := c.info.Uses[id]
	if o == nil || o.Kind != ObjLocal || o.Decl == nil || o.Type == nil {
		return
	}
	d.Related = append(d.Related, diag.Related{Span: o.Decl.Span(), Message: fmt.Sprintf("'%s' is %s, declared here", o.Name, Zonk(o.Type))})
}

func (c *Checker) pidError(name string, span source.Span, t Type) {
	if isNever(t) {
		// §3.7: a Never operand fits any type; the call never happens.
		return
	}
	c.errorf(ErrSendPid, span, "%s requires a typed Pid", name).Notes = []string{"found " + Zonk(t).String()}
}
