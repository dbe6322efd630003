package types

import (
	"fmt"

	"github.com/morrow-lang/morrow/lang/source"
)

// Requirements on type parameters (docs/reference/types.md#inference).
//
// An operator, interpolation or printing builtin applied to a value whose
// type is a type parameter does not fail: it records a requirement on the
// parameter (square's `a` must support '*'). Every use of such an
// operation in a body is a site; so is every instantiation of a generic
// function or builtin whose parameters carry requirements (a call, or a
// use as a value), since the type it is instantiated with must meet them.
//
// Sites are collected while a function group is checked and solved when
// it is finished, once its types are as resolved as they get:
//
//   - each site's type is walked against each of its requirements; a
//     concrete part either meets the requirement or is a failure; a part
//     that is a type parameter of the group gets the requirement, and so
//     does a variable of the group's signatures (it becomes a parameter
//     when the group is generalised, and takes its requirements along);
//     any other variable still unknown is defaulted to Int for the
//     numeric requirements and left alone for the others;
//   - requirements only grow, so the walk is repeated until nothing
//     changes: a call to a member of the same recursive group reads the
//     member's requirements, which later sites of the group may extend;
//   - then every site is walked once more and the first failure of each
//     is reported: a use in the body with the operator's own message, an
//     instantiation with `type T does not support '*' required by square`
//     (the operation and the function whose body made the requirement).
//
// Builtins take part through the same table: println's parameter needs a
// printable type, List.contains's scalar elements, List.sort's an order,
// so that using them first-class or through a generic helper is checked
// exactly like a direct call.

// reqKind is the predicate a requirement puts on a type.
type reqKind uint8

const (
	reqArith  reqKind = iota // - * / ** and unary -: Int or Float
	reqAdd                   // +: Int, Float or String
	reqInt                   // % and the bitwise operators: Int
	reqOrd                   // < <= > >=: Int or Float
	reqEq                    // == != eq: the equality of docs/reference/syntax.md#operators
	reqScalar                // in, List.contains: Int, Float, Bool, String or a newtype over one
	reqPrint                 // print, println: printable, not Unit
	reqShow                  // show, and the parts of a printed value: printable
	reqInterp                // a direct interpolation: Int, Float, Bool or String
	reqSort                  // List.sort, compare: an order
	reqKey                   // a Map key or Set element: Int, Bool, String or a newtype of them
)

// numericReq reports the kinds whose unknown operands default to Int.
func numericReq(k reqKind) bool {
	switch k {
	case reqArith, reqAdd, reqInt, reqOrd:
		return true
	}
	return false
}

var reqKindText = [...]string{
	reqArith:  "it works on Int and Float",
	reqAdd:    "it works on Int, Float and String",
	reqInt:    "it works on Int only",
	reqOrd:    "it compares Int or Float",
	reqEq:     "it needs a type with equality (scalars, process identities, derived Eq, newtypes over scalars, and tuples, lists, Options and Results of those)",
	reqScalar: "it needs scalar Int, Float, Bool or String values (or newtypes over them; a newtype compares through its field)",
	reqPrint:  "it needs a printable type (not Unit, a function, a Pid or a type without Show)",
	reqShow:   "it needs a printable type (not a function, a Pid or a type without Show)",
	reqInterp: "it needs Int, Float, Bool, String or a process value",
	reqSort:   "it needs a type with an order (Ord)",
	reqKey:    "it needs a map key type: Int, Bool, String or a newtype of them",
}

// requirement is one need of a type parameter: the predicate, the
// operation that made it ("*", "==", "println", "interpolation") and the
// function whose body uses that operation ("" for a builtin's own).
type requirement struct {
	kind reqKind
	op   string
	from string
}

// failure describes the part of a type that does not meet a requirement.
type failure struct {
	t      Type     // the failing part
	noImpl *TypeDef // a user type that lacks the derive the requirement needs
}

// reqSite is a type that must meet requirements: a direct use of an
// operation (direct) or the instantiation of a callee's generic g.
type reqSite struct {
	t      Type
	direct *requirement
	g      Type   // a *TParam, or the *TVar of a generic mailbox
	fn     string // the function whose body holds the site
	span   source.Span
	// report gives the diagnostic of a direct use or of a builtin's own
	// requirement; nil for the generic message.
	report func(r requirement, rt Type, f *failure)
}

// reqsOf returns the requirements of a type parameter (or of a signature
// variable of the group being checked).
func (c *Checker) reqsOf(p Type) []requirement {
	if tp, ok := p.(*TParam); ok {
		if rs := lib().reqs[tp]; rs != nil {
			return rs
		}
	}
	return c.reqs[p]
}

// addReq records r on p unless p already has a requirement of that kind.
func (c *Checker) addReq(p Type, r requirement) bool {
	for _, q := range c.reqsOf(p) {
		if q.kind == r.kind {
			return false
		}
	}
	if c.reqs == nil {
		c.reqs = map[Type][]requirement{}
	}
	c.reqs[p] = append(c.reqs[p], r)
	return true
}

// transferReqs moves the requirements of a signature variable to the
// parameter it is generalised to.
func (c *Checker) transferReqs(v *TVar, p *TParam) {
	if rs, ok := c.reqs[v]; ok {
		c.reqs[p] = rs
		delete(c.reqs, v)
	}
}

// curFuncName is the top-level function whose body is being checked.
func (c *Checker) curFuncName() string {
	for f := c.fn; f != nil; f = f.parent {
		if f.sig != nil {
			return f.sig.Name
		}
	}
	return ""
}

// require records that t must meet kind because of op, used here.
func (c *Checker) require(t Type, kind reqKind, op string, span source.Span, report func(r requirement, rt Type, f *failure)) {
	// The site and its requirement in one allocation (one per operator).
	d := &struct {
		site reqSite
		req  requirement
	}{req: requirement{kind: kind, op: op, from: c.curFuncName()}}
	d.site = reqSite{t: t, direct: &d.req, fn: d.req.from, span: span, report: report}
	c.reqSites = append(c.reqSites, &d.site)
}

// inherit records the instantiation of generics gen with m: each
// instantiated type must meet the requirements of its parameter. inGroup
// marks a callee of the group being checked, whose requirements may still
// grow.
func (c *Checker) inherit(gen []*TParam, m map[*TParam]Type, span source.Span, inGroup bool, report func(r requirement, rt Type, f *failure)) {
	for _, g := range gen {
		if !inGroup && len(c.reqsOf(g)) == 0 {
			continue
		}
		c.reqSites = append(c.reqSites, &reqSite{t: m[g], g: g, fn: c.curFuncName(), span: span, report: report})
	}
}

func (c *Checker) siteReqs(s *reqSite) []requirement {
	if s.direct != nil {
		return []requirement{*s.direct}
	}
	return c.reqsOf(s.g)
}

// solveReqs runs the sites of the finished group (see the comment at the
// top of this file) and reports the failures.
func (c *Checker) solveReqs(group []*FuncSig) {
	sites := c.reqSites
	c.reqSites = nil
	if len(sites) == 0 {
		return
	}
	sigVars := map[*TVar]bool{}
	for _, sig := range group {
		for _, p := range sig.Params {
			for _, v := range freeVars(p.Type, nil) {
				sigVars[v] = true
			}
		}
		for _, v := range freeVars(sig.Ret, nil) {
			sigVars[v] = true
		}
		// A mailbox that stays generic is fixed at each spawn site (and
		// each call from another actor function), where freshMailbox
		// passes its requirements on (docs/reference/types.md#mailbox-types step 5).
		if mt, ok := c.info.Mailboxes[sig.Decl]; ok {
			for _, v := range freeVars(mt, nil) {
				sigVars[v] = true
			}
		}
	}
	for changed, rounds := true, 0; changed && rounds < 1000; rounds++ {
		changed = false
		for _, s := range sites {
			for _, r := range c.siteReqs(s) {
				r := r
				c.meets(s.t, r.kind, func(h Type, k reqKind) {
					// A builtin's own requirement, passed on, names the
					// function that uses the builtin.
					nr := requirement{kind: k, op: r.op, from: r.from}
					if nr.from == "" {
						nr.from = s.fn
					}
					switch v := h.(type) {
					case *TParam:
						if c.addReq(v, nr) {
							changed = true
						}
					case *TVar:
						switch {
						case sigVars[v]:
							if c.addReq(v, nr) {
								changed = true
							}
						case numericReq(k):
							unify(v, IntT)
							changed = true
						}
					}
				})
			}
		}
	}
	for _, s := range sites {
		for _, r := range c.siteReqs(s) {
			if f := c.meets(s.t, r.kind, func(Type, reqKind) {}); f != nil {
				c.reqError(s, r, f)
				break
			}
		}
	}
}

// reqError reports a site whose type fails requirement r.
func (c *Checker) reqError(s *reqSite, r requirement, f *failure) {
	rt := Resolve(s.t)
	if s.report != nil && (s.direct != nil || r.from == "") {
		s.report(r, rt, f)
		return
	}
	if r.from == "" {
		c.builtinReqError(r, rt, f, s.span)
		return
	}
	if r.kind == reqKey {
		// The key rule keeps its own wording (docs/maps.md), with where
		// the requirement came from.
		c.errorf(ErrMapKey, s.span, "map key type must be Int, Bool, String or a newtype of them, found %s", Zonk(f.t)).Notes =
			[]string{fmt.Sprintf("'%s' uses %s with a key of a type parameter, which makes the key rule a requirement of every call (docs/maps.md)", r.from, r.op)}
		return
	}
	what := "'" + r.op + "'"
	if r.op == "interpolation" {
		what = "interpolation"
	}
	d := c.errorf(ErrRequirement, s.span, "type %s does not support %s required by %s", Zonk(rt), what, r.from)
	note := what + ": " + reqKindText[r.kind]
	if f.noImpl != nil {
		trait := "Eq"
		switch r.kind {
		case reqPrint, reqShow:
			trait = "Show"
		case reqSort:
			trait = "Ord"
		}
		note = fmt.Sprintf("type %s.%s has no implementation of %s; add derive(%s) to its declaration", f.noImpl.Module, f.noImpl.Name, trait, trait)
	} else if !Identical(f.t, rt) {
		note += fmt.Sprintf("; %s does not", Zonk(f.t))
	}
	if _, mailbox := s.g.(*TVar); mailbox {
		d.Notes = append(d.Notes, note, fmt.Sprintf("'%s' uses %s on a message of its generic mailbox type, which makes it a requirement of every spawn and call that fixes the mailbox", r.from, what))
		return
	}
	d.Notes = append(d.Notes, note, fmt.Sprintf("'%s' uses %s on a value of a type parameter, which makes it a requirement of every call", r.from, what))
}

// builtinReqError reports a builtin's requirement failing where the
// builtin is used as a value (or called), with the builtin's own message.
func (c *Checker) builtinReqError(r requirement, rt Type, f *failure, span source.Span) {
	switch r.kind {
	case reqScalar:
		c.containsError(span, r.op, rt)
	case reqSort:
		c.ordError(span, f)
	case reqKey:
		c.keyError(span, f)
	case reqPrint, reqShow:
		c.printError(span, r.kind == reqPrint && r.op != "show", f)
	default:
		c.errorf(ErrRequirement, span, "type %s does not support '%s'", Zonk(rt), r.op).Notes =
			[]string{"'" + r.op + "': " + reqKindText[r.kind]}
	}
}

func (c *Checker) containsError(span source.Span, op string, rt Type) {
	what := op
	if op == "in" {
		what = "`in`"
	}
	c.errorf(ErrContainsScalar, span, "List.contains requires scalar Int, Float, Bool, or String elements").Notes =
		[]string{fmt.Sprintf("%s was used with elements of type %s", what, Zonk(rt))}
}

func (c *Checker) ordError(span source.Span, f *failure) {
	if d := f.noImpl; d != nil {
		c.errorf(ErrNoOrd, span, "type %s.%s has no implementation of Ord; add derive(Ord) to its declaration", d.Module, d.Name)
		return
	}
	d := c.errorf(ErrNoOrd, span, "type %s has no implementation of Ord", Zonk(f.t))
	if isMapOrSet(f.t) {
		d.Hint = noOrderHint
	}
}

// noOrderHint is the hint of an ordering asked of a map or set.
const noOrderHint = "maps and sets have no order; sort their Map.keys or Set.to_list instead"

// isMapOrSet reports whether t is a Map or Set type.
func isMapOrSet(t Type) bool {
	n, ok := Resolve(t).(*Named)
	return ok && (n.Def == MapDef || n.Def == SetDef)
}

func (c *Checker) printError(span source.Span, print bool, f *failure) {
	if d := f.noImpl; d != nil {
		// docs/stdlib.md quotes this message word for word.
		c.noShowHelp(c.errorf(ErrNoShow, span, "type %s.%s has no implementation of Show; add derive(Show) to its declaration or write an impl", d.Module, d.Name), d)
		return
	}
	if print {
		c.errorf(ErrPrintArg, span, "print argument must be Int, Bool, String, Float, or a type that implements Show").Notes =
			[]string{"found " + Zonk(f.t).String()}
		return
	}
	c.errorf(ErrPrintArg, span, "show argument must be a type that implements Show").Notes = []string{"found " + Zonk(f.t).String()}
}

// ---------------------------------------------------------------- the predicates

// meets walks t against requirement kind k. Parts that are type
// parameters or unknown variables are passed to hole with the kind they
// must meet; the first concrete part that fails is returned.
func (c *Checker) meets(t Type, k reqKind, hole func(Type, reqKind)) *failure {
	w := reqWalk{c: c, hole: hole, defs: map[*TypeDef]bool{}}
	return w.walk(t, k, true, false)
}

type reqWalk struct {
	c    *Checker
	hole func(Type, reqKind)
	seen map[reqVisit]bool
	n    int
	defs map[*TypeDef]bool // user types whose fields are being walked (Show)
}

type reqVisit struct {
	t   Type
	k   reqKind
	top bool
}

// first is visited.first keyed by kind as well: a node may be walked for
// several kinds (a newtype field under == is walked as a scalar).
func (w *reqWalk) first(t Type, k reqKind, top bool) bool {
	if w.seen == nil {
		w.n++
		if w.n <= visitFree {
			return true
		}
		w.seen = map[reqVisit]bool{}
	}
	key := reqVisit{t, k, top}
	if w.seen[key] {
		return false
	}
	w.seen[key] = true
	return true
}

// walk checks t against k; top is set for the value itself (not a part
// of it), inDef while walking the declared fields of a user type (whose
// type parameters are checked through the type's arguments instead).
func (w *reqWalk) walk(t Type, k reqKind, top, inDef bool) *failure {
	t = Resolve(t)
	switch x := t.(type) {
	case *TVar, *TParam:
		if inDef {
			return nil
		}
		hk := k
		switch {
		case k == reqPrint && !top, k == reqInterp:
			// A printed part, and an interpolated parameter, are rendered
			// like println renders them.
			hk = reqShow
		}
		w.hole(t, hk)
		return nil
	case *Basic:
		if x.Kind == KInvalid || x.Kind == KNever {
			return nil
		}
		if basicMeets(x.Kind, k, top) {
			return nil
		}
		return &failure{t: t}
	}
	switch k {
	case reqArith, reqAdd, reqInt, reqOrd:
		return &failure{t: t}
	case reqInterp:
		// A Pid interpolates as <pid N>; other compound values need show.
		if n, ok := t.(*Named); ok && n.Def == PidDef {
			return nil
		}
		return &failure{t: t}
	}
	if composite(t) && !w.first(t, k, top) {
		return nil
	}
	switch x := t.(type) {
	case *Func, *Union:
		return &failure{t: t}
	case *Tuple:
		if k == reqScalar || k == reqKey {
			return &failure{t: t}
		}
		sub := k
		if k == reqPrint {
			sub = reqShow
		}
		for _, e := range x.Elems {
			if f := w.walk(e, sub, false, inDef); f != nil {
				return f
			}
		}
		return nil
	case *Named:
		return w.named(x, k, top, inDef)
	}
	return nil
}

func basicMeets(b BasicKind, k reqKind, top bool) bool {
	switch k {
	case reqArith, reqOrd:
		return b == KInt || b == KFloat
	case reqAdd:
		return b == KInt || b == KFloat || b == KString
	case reqInt:
		return b == KInt
	case reqScalar:
		return b == KInt || b == KFloat || b == KBool || b == KString
	case reqKey:
		return b == KInt || b == KBool || b == KString
	case reqInterp:
		// ProcessId and MonitorRef interpolate as <process N>, <monitor N>.
		return b == KInt || b == KFloat || b == KBool || b == KString || b == KProcessID || b == KMonitorRef
	case reqEq:
		return b != KRange
	case reqPrint:
		return !(top && b == KUnit)
	case reqShow:
		return true
	case reqSort:
		return b != KUnit && b != KProcessID && b != KMonitorRef && b != KRange
	}
	return false
}

func (w *reqWalk) named(x *Named, k reqKind, top, inDef bool) *failure {
	def := x.Def
	args := func(sub reqKind) *failure {
		for _, a := range x.Args {
			if f := w.walk(a, sub, false, inDef); f != nil {
				return f
			}
		}
		return nil
	}
	// newtypeField walks the wrapped type of a newtype over a scalar.
	newtypeField := func() *failure {
		if f := w.walk(w.c.fieldType(x, 0), reqScalar, false, inDef); f != nil {
			return &failure{t: x, noImpl: def}
		}
		return nil
	}
	switch k {
	case reqScalar:
		if def.Kind == NewtypeDef && !def.Builtin {
			return newtypeField()
		}
		return &failure{t: x}
	case reqKey:
		if def.Kind == NewtypeDef && !def.Builtin {
			if f := w.walk(w.c.fieldType(x, 0), reqKey, false, inDef); f != nil {
				return &failure{t: x}
			}
			return nil
		}
		return &failure{t: x}
	case reqEq:
		if def == PidDef || (def.Kind == OpaqueDef && def.Qualifier != "") {
			// Pids and the opaque library types (Supervisor.Handle,
			// ChildKey(M), ChildSpec) compare by identity, whatever M is.
			return nil
		}
		if !def.Builtin {
			switch {
			case def.Derives["Eq"]:
			case def.Kind == NewtypeDef:
				return newtypeField()
			default:
				return &failure{t: x, noImpl: def}
			}
		}
		return args(reqEq)
	case reqPrint, reqShow:
		if def == PidDef {
			return nil // <pid N>
		}
		if def == OrderingDef {
			return &failure{t: x}
		}
		if !def.Builtin && !def.Derives["Show"] {
			return &failure{t: x, noImpl: def}
		}
		if f := args(reqShow); f != nil {
			return f
		}
		// A derived Show renders the fields, so they need Show too.
		if !def.Builtin && !w.defs[def] {
			w.defs[def] = true
			defer delete(w.defs, def)
			for _, ct := range def.Ctors {
				for _, ft := range ct.Fields {
					if f := w.walk(ft, reqShow, false, true); f != nil {
						return f
					}
				}
			}
		}
		return nil
	case reqSort:
		if def == PidDef || def == MapDef || def == SetDef {
			return &failure{t: x}
		}
		if !def.Builtin && !def.Derives["Ord"] {
			if def.Kind == NewtypeDef {
				return newtypeField()
			}
			return &failure{t: x, noImpl: def}
		}
		if !def.Builtin {
			if mt := mapInFields(def, map[*TypeDef]bool{}); mt != nil {
				return &failure{t: mt} // a derived order over a map field
			}
		}
		return args(reqSort)
	}
	return &failure{t: x}
}

// mapInFields returns a Map or Set type that a value of def holds in its
// declared fields, directly or through other user types, or nil: maps
// have no order, so a derived Ord over one cannot compare.
func mapInFields(def *TypeDef, seen map[*TypeDef]bool) Type {
	if seen[def] {
		return nil
	}
	seen[def] = true
	var found Type
	for _, ct := range def.Ctors {
		for _, ft := range ct.Fields {
			anyPart(ft, func(t Type) bool {
				n, ok := t.(*Named)
				if !ok || found != nil {
					return found != nil
				}
				switch {
				case n.Def == MapDef || n.Def == SetDef:
					found = n
				case !n.Def.Builtin:
					found = mapInFields(n.Def, seen)
				}
				return found != nil
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}

// keyError reports a Map key or Set element type that fails the key
// rule (docs/maps.md).
func (c *Checker) keyError(span source.Span, f *failure) {
	key := Zonk(f.t).String()
	if c.keyReported[key] {
		return
	}
	if c.keyReported == nil {
		c.keyReported = map[string]bool{}
	}
	c.keyReported[key] = true
	c.errorf(ErrMapKey, span, "map key type must be Int, Bool, String or a newtype of them, found %s", Zonk(f.t)).Hint =
		"use a key of one of those types (for example a String built from the value), or a newtype over one"
}

// checkKeyType checks a written Map key or Set element type: a concrete
// one must meet the key rule at once; a type parameter gets the
// requirement from the uses of the map (every Map and Set function
// carries it), so it flows to the callers (docs/maps.md).
func (c *Checker) checkKeyType(t Type, span source.Span) {
	if len(freeVars(t, nil)) > 0 || containsParam(t) || hasInvalid(t) {
		return
	}
	if f := c.meets(t, reqKey, func(Type, reqKind) {}); f != nil {
		c.keyError(span, f)
	}
}
