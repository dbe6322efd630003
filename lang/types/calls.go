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
		if ls := labeledSigs[fn.Name]; ls != nil {
			c.info.Uses[fn] = ls.obj
			return c.callSig(x, ls)
		}
		if builtinSigs[fn.Name] != nil {
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

// callBuiltin checks a call of a builtin function: its signature, then
// the rules of its registry entry (context, typing rule, flags).
func (c *Checker) callBuiltin(x *ast.Call, name string) Type {
	e := builtins.Lookup(name)
	bs := builtinSigs[name]
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
	if len(x.Args) != len(bs.Params) {
		if e.Module() == builtins.SupervisorModule {
			c.errorf(ErrSupervisorArity, x.Span(), "%s expects %d arguments", name, len(bs.Params)).Notes =
				[]string{fmt.Sprintf("found %d", len(x.Args))}
		} else if e.Module() == builtins.ProcessModule {
			c.errorf(ErrProcessArity, x.Span(), "%s expects %d arguments", name, len(bs.Params))
		} else {
			c.arityError(x, len(bs.Params))
		}
	}
	m := c.instantiate(bs.Generics)
	ps := make([]Type, len(bs.Params))
	for i, p := range bs.Params {
		ps[i] = subst(p, m)
	}
	ret := subst(bs.Ret, m)
	c.info.Types[x.Fn] = &Func{Params: ps, Ret: ret}
	reqSpan := x.Span()
	if (e.Req == builtins.Printable || e.Req == builtins.Showable) && len(x.Args) > 0 {
		reqSpan = x.Args[0].Span()
	}
	c.inherit(bs.Generics, m, reqSpan, false, nil)
	rootCtx := c.fn.isMain || c.fn.isRoot || c.fn.noActor
	if e.Context == builtins.ActorOnly && rootCtx {
		// docs/reference/checks.md#contexts; Process.self has its own message (below).
		switch {
		case supervisorOp(e):
			c.errorf(ErrSupervisorContext, x.Span(), "supervisor startup operation requires an actor context").Hint =
				"main runs in the root context; call " + name + " from a process (a supervised child, or one you spawn)"
		case e.Rule == builtins.SpawnEntry:
			c.errorf(ErrActorOnly, x.Span(), "process operation requires an actor context").Hint =
				"the root context may use Process.spawn; spawn an observer process for " + name
		case e.Rule == builtins.OwnMailbox:
		default:
			c.errorf(ErrActorOnly, x.Span(), "process operation requires an actor context").Hint =
				"main runs in the root context; spawn an observer process for " + name
		}
	}
	switch e.Rule {
	case builtins.OwnMailbox:
		if rootCtx {
			c.errorf(ErrSelfContext, x.Span(), "self requires an actor context")
		} else {
			unify(ret, &Named{Def: PidDef, Args: []Type{c.mailbox(x.Span())}})
		}
	case builtins.TypedPid:
		if len(x.Args) == 0 || x.Args[0].Value == nil {
			break
		}
		a0 := x.Args[0]
		t := c.expr(a0.Value, nil)
		switch r := Resolve(t).(type) {
		case *Named:
			if r.Def == PidDef {
				unify(ps[0], r)
				break
			}
			c.pidError(name, a0.Span(), t)
		case *TVar:
			unify(r, ps[0])
		default:
			if !hasInvalid(t) {
				c.pidError(name, a0.Span(), t)
			}
		}
		c.restArgs(x, ps, name)
		for _, g := range bs.Generics {
			if g.Name == "r" {
				// Process.call's reply type is a message type too (docs/reference/types.md#mailbox-types
				// step 7).
				c.mailboxSites = append(c.mailboxSites, mailboxSite{t: m[g], span: x.Span(), process: true})
			}
		}
		return ret
	case builtins.SpawnEntry, builtins.ChildEntry:
		idx := 0
		if e.Rule == builtins.ChildEntry {
			idx = 1
			if len(x.Args) > 0 && x.Args[0].Value != nil {
				kt := c.expr(x.Args[0].Value, ps[0])
				c.expect(spanOf(x.Args[0].Value), kt, ps[0], fmt.Sprintf("argument 1 of %s", name))
			}
		}
		if len(x.Args) <= idx || x.Args[idx].Value == nil {
			break
		}
		a0 := x.Args[idx]
		if id, ok := a0.Value.(*ast.Ident); ok {
			c.spawnEntries[id] = true
		}
		entry := &Func{Params: nil, Ret: c.fresh()}
		t := c.expr(a0.Value, entry)
		// An entry that is already reported fixes no mailbox; skip the
		// cannot-infer follow-on error.
		badEntry := hasInvalid(t)
		switch r := Resolve(t).(type) {
		case *Func:
			if len(r.Params) != 0 {
				c.errorf(ErrSpawnEntry, a0.Span(), "spawn requires a zero-argument Unit function").Notes = []string{"found " + Zonk(t).String()}
				badEntry = true
			} else {
				rt := Resolve(r.Ret)
				if v, ok := rt.(*TVar); ok {
					unify(v, UnitT)
				} else if !isBasic(rt, KUnit) && !isNever(rt) && !hasInvalid(rt) {
					c.errorf(ErrSpawnEntry, a0.Span(), "spawn requires a zero-argument Unit function").Notes = []string{"found " + Zonk(t).String()}
					badEntry = true
				}
			}
		case *TVar:
			unify(r, &Func{Ret: UnitT})
		default:
			if !hasInvalid(t) {
				c.errorf(ErrSpawnEntry, a0.Span(), "spawn requires a function value").Notes = []string{"found " + Zonk(t).String()}
			}
			badEntry = true
		}
		// The child's mailbox is the entry's mailbox effect (docs/reference/types.md#mailbox-types step 5).
		var entryNode ast.Node
		switch e := a0.Value.(type) {
		case *ast.Lambda:
			entryNode = e
		case *ast.Ident:
			if o := c.info.Uses[e]; o != nil && o.Kind == ObjFunc && o.Func != nil {
				entryNode = o.Func.Decl
			}
		}
		for _, g := range bs.Generics {
			if g.Name != "m" {
				continue
			}
			mt, ok := c.info.Mailboxes[entryNode]
			if fd, isFn := entryNode.(*ast.FnDecl); ok && isFn && !c.inGroup[c.info.Funcs[fd]] {
				// A named entry's still generic mailbox is fixed per spawn.
				mt = c.freshMailbox(mt, x.Span())
			}
			if ok && entryNode != nil && !unify(m[g], mt) {
				c.errorf(ErrMismatch, spanOf(a0.Value), "spawn mailbox: expected %s, found %s", typeStrings(m[g], mt)[0], typeStrings(m[g], mt)[1])
			}
			if !badEntry {
				c.mailboxSites = append(c.mailboxSites, mailboxSite{t: m[g], span: x.Span(), spawn: true,
					process: e.Module() == builtins.ProcessModule, supervised: e.Rule == builtins.ChildEntry, builtin: e.Name})
			}
		}
		if idx == 1 {
			for i := 2; i < len(x.Args); i++ {
				if a := x.Args[i]; a.Value != nil && i < len(ps) {
					at := c.expr(a.Value, ps[i])
					c.expect(spanOf(a.Value), at, ps[i], fmt.Sprintf("argument %d of %s", i+1, name))
				} else if a.Value != nil {
					c.expr(a.Value, nil)
				}
			}
			return ret
		}
		c.restArgs(x, ps, name)
		return ret
	}
	if e.Has(builtins.RootCallbacks) {
		// Callbacks of library functions run without an actor context (docs/reference/checks.md#guards-and-defer).
		for _, a := range x.Args {
			if l, ok := a.Value.(*ast.Lambda); ok {
				c.rootLambdas[l] = true
			}
		}
	}
	before := len(c.diags)
	ts := c.checkPositional(x, ps, name)
	if e.Has(builtins.MailboxKey) && len(c.diags) == before && len(x.Args) == len(bs.Params) {
		// The registry needs M at run time (mailboxkey.go); a call whose
		// arguments are already wrong gets no follow-on error.
		for _, g := range bs.Generics {
			if g.Name == "m" {
				c.mailboxSites = append(c.mailboxSites, mailboxSite{t: m[g], span: x.Span(), keyOf: name})
			}
		}
	}
	if len(bs.Params) > 0 && bs.Params[0] == ProcessIDT && len(ts) > 0 && ts[0] != nil {
		// Process.monitor, link, ... take the erased identity (docs/reference/checks.md#pids-and-mailboxes);
		// point at the conversion.
		if n, ok := Resolve(ts[0]).(*Named); ok && n.Def == PidDef {
			for _, d := range c.diags[before:] {
				if d.Code == ErrMismatch {
					d.Hint = name + " requires a ProcessId; convert the Pid with Process.id(pid)"
				}
			}
		}
	}
	if e.Has(builtins.MetadataRead) {
		c.noteMetadataReads(x, name)
	}
	return ret
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
