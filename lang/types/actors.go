package types

import (
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// actorOnly reports whether a builtin needs an actor context (docs/reference/checks.md#contexts): the
// registry's ActorOnly operations (every Process operation except
// Process.spawn and Process.id).
func actorOnly(name string) bool {
	e := builtins.Lookup(name)
	return e != nil && e.Context == builtins.ActorOnly
}

// checkActorContexts computes which functions have a mailbox effect
// (docs/reference/types.md#mailbox-types steps 1 and 4): a function whose own body (lambdas excluded)
// receives or calls an actor-only Process operation, or directly calls a
// function that has one. Root-context entry points (main, and the library
// start function) may not call such functions. The mailbox types
// themselves are unified across calls while the bodies are checked
// (unifyMailbox).
func (c *Checker) checkActorContexts() {
	type site struct {
		callee *FuncSig
		call   *ast.Call
	}
	calls := map[*FuncSig][]site{}
	var order []*FuncSig
	for _, fd := range c.funcDecls() {
		if fd.Body == nil {
			continue
		}
		sig := c.info.Funcs[fd]
		order = append(order, sig)
		walkIf(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Lambda:
				return false
			case *ast.Receive:
				c.info.HasMailbox[fd] = true
			case *ast.Call:
				o := c.info.Uses[x.Fn]
				if o == nil {
					break
				}
				if o.Kind == ObjBuiltin && actorOnly(o.Builtin) {
					c.info.HasMailbox[fd] = true
				}
				if o.Kind == ObjFunc && o.Func != nil {
					calls[sig] = append(calls[sig], site{o.Func, x})
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for _, sig := range order {
			if c.info.HasMailbox[sig.Decl] {
				continue
			}
			for _, s := range calls[sig] {
				if c.info.HasMailbox[s.callee.Decl] {
					c.info.HasMailbox[sig.Decl] = true
					changed = true
					break
				}
			}
		}
	}
	c.checkActorEffects(order, func(sig *FuncSig) []*FuncSig {
		var out []*FuncSig
		for _, s := range calls[sig] {
			out = append(out, s.callee)
		}
		return out
	})
	for _, sig := range order {
		root := sig.Name == "main" || sig.Name == "start" && c.funcs["main"] == nil && sig.Decl.Pub
		if !root {
			continue
		}
		for _, s := range calls[sig] {
			if s.callee != sig && c.info.HasMailbox[s.callee.Decl] {
				d := c.errorf(ErrActorCall, spanOf(s.call.Fn), "receiving function call requires an actor context")
				d.Notes = []string{"'" + s.callee.Name + "' receives or uses actor-only Process operations, so it needs a mailbox"}
				d.Hint = "spawn a process that calls it, e.g. Process.spawn(() -> " + s.callee.Name + "(…))"
			}
		}
	}
}

// checkMailbox applies the mailbox rules of docs/reference/types.md#mailbox-types to one mailbox type once
// its function group is checked: a spawn site must have fixed M, and M
// must be sendable.
func (c *Checker) checkMailbox(ms mailboxSite) {
	t := Resolve(ms.t)
	if ms.keyOf != "" {
		if _, ok := MailboxKey(t); !ok && !hasInvalid(t) {
			d := c.errorf(ErrMailboxKey, ms.span, "%s needs a concrete mailbox type", ms.keyOf)
			d.Notes = []string{"the mailbox type is " + Zonk(t).String()}
			d.Hint = "the registry keeps each name's mailbox type; annotate it, e.g. `let found: Option(Pid(Msg)) = Process.whereis(name)`, and a generic Pid(m) cannot be registered or looked up"
		}
		return
	}
	if _, open := t.(*TVar); open {
		if ms.spawn {
			d := c.errorf(ErrMailboxInfer, ms.span, "cannot infer actor mailbox: the entry neither receives nor is given a Pid(M) annotation")
			switch ms.builtin {
			case "Process.spawn", "Process.spawn_link":
				// These return a Result: the annotation names it whole.
				d.Hint = "annotate the result, e.g. `let started: Result(Pid(Int), Process.Error) = " + ms.builtin + "(entry)`, then match it"
			case "Process.spawn_monitor":
				d.Hint = "annotate the result, e.g. `let started: Result((Pid(Int), MonitorRef), Process.Error) = Process.spawn_monitor(entry)`, then match it"
			default:
				d.Hint = "annotate the result, e.g. `let pid: Pid(Int) = " + ms.builtin + "(entry)`"
			}
			if ms.builtin == "" {
				d.Hint = "annotate the result, e.g. `let pid: Pid(Int) = spawn(entry)`"
			}
		}
		return
	}
	if ms.supervised && containsDeep(t, func(t Type) bool { return isResult(t) }, map[*TypeDef]bool{}) {
		c.errorf(ErrSupervisorMailbox, ms.span, "Result-bearing supervisor mailboxes are unsupported").Notes =
			[]string{"the child's mailbox type is " + Zonk(t).String()}
		return
	}
	kind := "actor"
	if ms.process || ms.supervised {
		kind = "process"
	}
	c.checkSendable(t, ms.span, kind)
}

// checkSendable reports a mailbox or Pid message type that cannot cross
// process boundaries (docs/reference/types.md#mailbox-types step 7).
func (c *Checker) checkSendable(t Type, span source.Span, kind string) {
	switch {
	case containsDeep(t, func(t Type) bool { return isResult(t) }, map[*TypeDef]bool{}):
		c.errorf(ErrNotSendable, span, "Result-bearing %s messages are unsupported; send a sum type of your own instead", kind).Notes =
			[]string{"the mailbox type is " + Zonk(t).String()}
	case containsDeep(t, func(t Type) bool { _, ok := Resolve(t).(*Func); return ok }, map[*TypeDef]bool{}):
		c.errorf(ErrNotSendable, span, "function or native handle actor messages are unsupported").Notes =
			[]string{"the mailbox type is " + Zonk(t).String()}
	}
}

// containsDeep reports whether some type in t satisfies pred, looking
// through type arguments, tuple and union members and the fields of user
// types.
func containsDeep(t Type, pred func(Type) bool, seen map[*TypeDef]bool) bool {
	var v visited
	return containsDeepV(t, pred, seen, &v)
}

func containsDeepV(t Type, pred func(Type) bool, seen map[*TypeDef]bool, v *visited) bool {
	if pred(t) {
		return true
	}
	if r := Resolve(t); composite(r) && !v.first(r) {
		return false
	}
	switch r := Resolve(t).(type) {
	case *Func:
		for _, e := range r.Params {
			if containsDeepV(e, pred, seen, v) {
				return true
			}
		}
		return containsDeepV(r.Ret, pred, seen, v)
	case *Tuple:
		for _, e := range r.Elems {
			if containsDeepV(e, pred, seen, v) {
				return true
			}
		}
	case *Union:
		for _, e := range r.Alts {
			if containsDeepV(e, pred, seen, v) {
				return true
			}
		}
	case *Named:
		for _, a := range r.Args {
			if containsDeepV(a, pred, seen, v) {
				return true
			}
		}
		if !r.Def.Builtin && !seen[r.Def] {
			seen[r.Def] = true
			for _, ct := range r.Def.Ctors {
				for _, f := range ct.Fields {
					if containsDeepV(f, pred, seen, v) {
						return true
					}
				}
			}
		}
	}
	return false
}

// checkReceiveGuard applies docs/reference/checks.md#receive-guards: a receive guard may be replayed while the
// mailbox is scanned, so it must be pure, non-failing and non-allocating.
// It reports the first offending sub-expression.
func (c *Checker) checkReceiveGuard(g ast.Expr) {
	var bad ast.Node
	msg := ""
	walkIf(g, func(n ast.Node) bool {
		if bad != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.Ident, *ast.IntLit, *ast.FloatLit, *ast.BoolLit, *ast.StringLit, *ast.UnitLit,
			*ast.Unary, *ast.FieldAccess, *ast.TupleIndex, *ast.Paren:
			return true
		case *ast.Path:
			// A nullary constructor such as Process.Normal is a constant.
			if o := c.info.Uses[x]; o != nil && o.Kind == ObjCtor && len(o.Ctor.Fields) == 0 {
				return true
			}
			bad, msg = x, "receive guard must be a pure scalar expression without calls"
		case *ast.Binary:
			switch x.Op {
			case "/", "%", "**":
				bad, msg = x, "receive guard must be non-failing"
			case "+":
				if isBasic(c.info.Types[x.L], KString) {
					bad, msg = x, "receive guard must be pure and non-failing"
				}
			}
			return bad == nil
		case *ast.Call:
			bad, msg = x, "receive guard must be a pure scalar expression without calls"
		default:
			bad, msg = n, "receive guard must be a pure scalar expression without calls"
		}
		return false
	})
	if bad != nil {
		c.errorf(ErrReceiveGuard, bad.Span(), "%s", msg).Hint = "compute the value before the receive and compare against a local"
	}
}

// actorEffect reports whether a builtin spawns, sends or supervises (the
// registry's Effect flag).
func actorEffect(name string) bool {
	e := builtins.Lookup(name)
	return e != nil && e.Has(builtins.Effect)
}

// reaching marks the functions of order whose body, outside lambdas,
// holds a node that hit accepts, then every function that reaches a
// marked one through direct calls (callees), until nothing changes.
func reaching(order []*FuncSig, callees func(*FuncSig) []*FuncSig, hit func(ast.Node) bool) map[*FuncSig]bool {
	marked := map[*FuncSig]bool{}
	for _, sig := range order {
		walkIf(sig.Decl.Body, func(n ast.Node) bool {
			if _, ok := n.(*ast.Lambda); ok {
				return false
			}
			if hit(n) {
				marked[sig] = true
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for _, sig := range order {
			if marked[sig] {
				continue
			}
			for _, k := range callees(sig) {
				if marked[k] {
					marked[sig], changed = true, true
					break
				}
			}
		}
	}
	return marked
}

// checkActorEffects applies the docs/reference/checks.md#guards-and-defer rule on indirect actor effects: a
// function that (transitively, through direct calls) spawns, sends or
// receives may be called directly or used as a spawn entry, but not
// called from a defer nor used as a first-class value.
func (c *Checker) checkActorEffects(order []*FuncSig, callees func(*FuncSig) []*FuncSig) {
	eff := reaching(order, callees, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Receive:
			return true
		case *ast.Call:
			o := c.info.Uses[x.Fn]
			return o != nil && o.Kind == ObjBuiltin && actorEffect(o.Builtin)
		}
		return false
	})
	// Supervisor operations and Process.init_* are refused in cleanup, and
	// so is a helper that reaches one (docs/supervisors.md).
	sup := reaching(order, callees, func(n ast.Node) bool {
		x, ok := n.(*ast.Call)
		if !ok {
			return false
		}
		o := c.info.Uses[x.Fn]
		return o != nil && o.Kind == ObjBuiltin && supervisorOp(builtins.Lookup(o.Builtin))
	})
	const msg = "first-class actor helper requires a direct spawn entry; indirect calls and deferred actor effects are unsupported in 105A"
	for _, d := range c.deferExprs {
		walkIf(d, func(n ast.Node) bool {
			if _, ok := n.(*ast.Lambda); ok {
				return false
			}
			if call, ok := n.(*ast.Call); ok {
				if o := c.info.Uses[call.Fn]; o != nil && o.Kind == ObjFunc && sup[o.Func] {
					c.errorf(ErrSupervisorHelper, spanOf(call.Fn), "supervisor helper cannot run in deferred cleanup").Notes =
						[]string{"'" + o.Func.Name + "' calls a Supervisor operation or Process.init_*"}
					return true
				}
				if o := c.info.Uses[call.Fn]; o != nil && o.Kind == ObjFunc && eff[o.Func] {
					c.errorf(ErrActorHelper, spanOf(call.Fn), msg).Notes =
						[]string{"'" + o.Func.Name + "' spawns, sends or receives"}
				}
			}
			return true
		})
	}
	for _, id := range c.funcValues {
		if o := c.info.Uses[id]; o != nil && o.Func != nil && eff[o.Func] && !c.spawnEntries[id] {
			c.errorf(ErrActorHelper, id.Span(), msg).Notes =
				[]string{"'" + o.Func.Name + "' spawns, sends or receives; call it directly or pass it to spawn"}
		}
	}
}

// mailbox returns the current function's mailbox type M: every receive
// of one function and its Process.self() share it (docs/reference/types.md#mailbox-types steps 2-3), and
// unifyMailbox makes it the mailbox of the callees that have one (step 4).
func (c *Checker) mailbox(span source.Span) Type {
	if c.fn.mailbox == nil {
		c.fn.mailbox = c.fresh()
		if c.fn.node != nil {
			c.info.Mailboxes[c.fn.node] = c.fn.mailbox
			c.mailboxSites = append(c.mailboxSites, mailboxSite{t: c.fn.mailbox, span: span})
		}
	}
	return c.fn.mailbox
}

// unifyMailbox makes a caller share the mailbox of a callee whose
// mailbox type is already known (docs/reference/types.md#mailbox-types step 4). The still generic mailbox
// of a callee outside the current group is instantiated per call; main
// is reported by checkActorContexts instead.
func (c *Checker) unifyMailbox(x *ast.Call, sig *FuncSig) {
	if sig.Decl == nil || c.fn.isMain || sig.Decl == c.fn.node {
		return
	}
	mt, ok := c.info.Mailboxes[sig.Decl]
	if !ok || hasInvalid(mt) {
		return
	}
	if !c.inGroup[sig] {
		// A helper whose mailbox stayed generic: instantiate it per call.
		mt = c.freshMailbox(mt, x.Span())
	}
	own := c.mailbox(x.Span())
	if !unify(own, mt) {
		c.errorf(ErrMismatch, spanOf(x.Fn), "actor call mailbox: expected %s, found %s", typeStrings(own, mt)[0], typeStrings(own, mt)[1]).Notes =
			[]string{"'" + sig.Name + "' receives messages of type " + Zonk(mt).String() + "; every function a process calls must agree on one mailbox type"}
	}
}

// maxReceiveArms is the arm limit of a receive (docs/reference/actors.md#spawn-send-and-receive).
const maxReceiveArms = 128

func (c *Checker) receive(x *ast.Receive, hint Type) Type {
	if c.fn.isMain {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context; main cannot receive").Hint =
			"spawn a process that receives, e.g. with Process.spawn"
	} else if c.fn.isRoot {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context").Notes =
			[]string{"the library start function is called by the host in the root context"}
	} else if c.fn.noActor {
		c.errorf(ErrReceiveInMain, x.Span(), "receive requires an actor context").Notes =
			[]string{"callbacks of List, Option and Result functions run without a mailbox"}
	}
	if c.fn.inDefer && !c.fn.deferFlagged {
		c.errorf(ErrDeferProcess, x.Span(), "actor receive cannot occur in defer")
		c.fn.deferFlagged = true
	}
	total := len(x.Arms)
	if x.After != nil {
		total++
	}
	if len(x.Arms) == 0 || total > maxReceiveArms {
		c.errorf(ErrReceiveArms, x.Span(), "receive allows between 1 and %d arms, at least one of them a message arm; found %d arms", maxReceiveArms, total)
	}
	var pt Type = c.mailbox(x.Span())
	if x.Event {
		pt = &Named{Def: lib().event, Args: []Type{pt}}
	}
	arms := newArmJoin(hint, "receive arms")
	for _, a := range x.Arms {
		c.inScope(func() {
			c.armHead(a.Pattern, a.Guard, pt, "receive guard")
			if a.Guard != nil {
				c.checkReceiveGuard(a.Guard)
			}
			arms.add(c, c.bodyExpr(a.Body, hint, false), a.Body)
		})
	}
	if x.After != nil {
		tt := c.expr(x.After.Timeout, IntT)
		c.expect(spanOf(x.After.Timeout), tt, IntT, "receive timeout")
		arms.add(c, c.branch(x.After.Body, hint, false), x.After.Body)
	}
	xarms := x.Arms
	c.deferred = append(c.deferred, func() { c.checkArms(xarms, pt, false, x.Span()) })
	return arms.result()
}

// freshMailbox instantiates the still generic mailbox type mt of a
// function outside the current group, once per call or spawn at span: its
// free variables become fresh ones, which must meet the requirements the
// function's body put on them (`receive: x -> println(x == x)` needs a
// mailbox type with equality, docs/reference/types.md#inference).
func (c *Checker) freshMailbox(mt Type, span source.Span) Type {
	fv := freeVars(mt, nil)
	if len(fv) == 0 {
		return mt
	}
	m := map[*TVar]Type{}
	for _, v := range fv {
		nv := c.fresh()
		m[v] = nv
		if len(c.reqsOf(v)) > 0 {
			c.reqSites = append(c.reqSites, &reqSite{t: nv, g: v, fn: c.curFuncName(), span: span})
		}
	}
	return substVars(mt, m)
}
