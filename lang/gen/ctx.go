package gen

// local is a name in scope.
type local struct {
	name   string
	t      *Type
	lo, hi int // list length bounds (lists only)
}

// scope is a chain of binding frames.
type scope struct {
	parent *scope
	vars   []*local
}

func (s *scope) child() *scope { return &scope{parent: s} }

func (s *scope) add(l *local) *local {
	s.vars = append(s.vars, l)
	return l
}

// visible lists the locals in scope, innermost first, without the ones a
// later binding of the same name shadows.
func (s *scope) visible() []*local {
	var out []*local
	seen := map[string]bool{}
	for f := s; f != nil; f = f.parent {
		for i := len(f.vars) - 1; i >= 0; i-- {
			l := f.vars[i]
			if seen[l.name] {
				continue
			}
			seen[l.name] = true
			out = append(out, l)
		}
	}
	return out
}

// ofType lists visible locals of type t.
func (s *scope) ofType(t *Type) []*local {
	var out []*local
	for _, l := range s.visible() {
		if l.t.equal(t) {
			out = append(out, l)
		}
	}
	return out
}

// param is a function parameter.
type param struct {
	name      string // binding name ("" for a pattern parameter)
	label     string // explicit external label ("" = the name)
	t         *Type
	pat       string   // pattern parameter text such as `Id3(v4)`
	patBinds  []*local // what the pattern binds
	annotated bool
	needLabel bool
}

func (p *param) callLabel() string {
	if p.label != "" {
		return p.label
	}
	return p.name
}

// fnInfo is a generated top-level function.
type fnInfo struct {
	name    string
	params  []*param
	ret     *Type
	annRet  bool
	tvars   []string
	cost    int
	effect  bool  // spawns, sends or receives, directly or not (docs/reference/checks.md#guards-and-defer)
	mailbox *Type // actor function with this mailbox
	lines   []string
	role    string
	// recursive functions take a counter as their first argument, which
	// callers must keep small.
	counter bool
	// exits: the function may end the process with Process.exit.
	never bool // the function always exits (type Never)
	// noAuto: only the code that made the function calls it.
	noAuto bool
	// req: what a generic template's type parameters must support
	// (docs/reference/types.md#requirements-on-type-variables requirements); nil for none.
	req func(*Type) bool
}

func (f *fnInfo) typ() *Type {
	var ps []*Type
	for _, p := range f.params {
		ps = append(ps, p.t)
	}
	return funcOf(ps, f.ret)
}

// ctx is where an expression or statement is being generated.
type ctx struct {
	g  *gen
	fn *fnInfo
	// ret is the type `return` must produce; nil when return is not
	// allowed (lambdas, defer).
	ret *Type
	// errT is the error type `?` propagates to (the enclosing function
	// returns Result(_, errT)); nil when `?` is not allowed.
	errT    *Type
	loop    bool // break/continue allowed
	pure    bool // no spawn/send/receive/Process operations or calls to such functions
	inDefer bool
	mailbox *Type // actor context
	root    bool  // main: no actor-only operations
	mult    int   // how many times this code may run per call of the function
	cost    *int
	budget  int
	ind     int // indentation of the statement being written
	nest    int // block nesting
	// noDiv: the block being written must be able to complete (it is the
	// last branch of a statement that must fall through).
	noDiv bool
	// fall: the if/match/receive statement being written must be able to
	// complete normally (code follows it).
	fall bool
	// unanch: the value of the block being written must fix its own type
	// (the right side of an unannotated let).
	unanch bool
	// interp: inside the `{…}` of an ordinary string: nothing may span
	// lines.
	interp bool
	// noExit: no path may leave the function here (no return, `?`,
	// Process.exit or call of an actor function): a Result is pending.
	noExit bool
}

func (c *ctx) with(f func(*ctx)) *ctx {
	d := *c
	f(&d)
	return &d
}

// afford reports whether a call costing k per run fits in the budget.
func (c *ctx) afford(k int) bool {
	return *c.cost+c.mult*k <= c.budget
}

func (c *ctx) spend(k int) { *c.cost += c.mult * k }

// mayCall reports whether f can be called here.
func (c *ctx) mayCall(f *fnInfo) bool {
	if f.effect && (c.pure || c.inDefer) {
		return false
	}
	if f.mailbox != nil {
		if c.mailbox == nil || !c.mailbox.equal(f.mailbox) || c.pure || c.inDefer {
			return false
		}
	}
	if f.never && (c.pure || c.mailbox == nil) {
		return false
	}
	if c.noExit && (f.mailbox != nil || f.never) {
		return false
	}
	return c.afford(f.cost)
}

// val is a generated expression.
type val struct {
	s      string
	lo, hi int  // list length bounds
	atom   bool // usable as an operand without parentheses
}

func (v val) paren() string {
	if v.atom {
		return v.s
	}
	return "(" + v.s + ")"
}

func atom(s string) val { return val{s: s, atom: true} }

// eopt tunes one expression request.
type eopt struct {
	// anch: the context fixes the expression's type (an annotation, a
	// concrete parameter); otherwise the expression must determine its
	// own type (no bare `[]`, `None`, `Ok(x)`).
	anch  bool
	depth int
	// interp: inside `{…}` of a string (single line, no nested quotes
	// beyond one level).
	interp bool
	// errAnch: the context fixes the error type of a Result (`?`).
	errAnch bool
	// hof: a lambda whose parameter types an earlier argument fixes
	// (List.map(xs, …) with xs of known type).
	hof bool
}

func (o eopt) withHOF(h bool) eopt {
	o.hof = h
	return o
}

func (o eopt) down() eopt {
	o.depth--
	return o
}

func (o eopt) unanch() eopt {
	o.anch = false
	return o
}

func (o eopt) anchored() eopt {
	o.anch = true
	return o
}
