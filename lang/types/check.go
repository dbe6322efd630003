// Package types is Morrow's type checker.
//
// Check runs in phases over one *ast.File:
//
//  1. Declarations: every type, newtype and alias is entered by name, then
//     constructor field types are resolved (aliases lazily, with a cycle
//     guard). Functions get signatures: annotated parameters and returns are
//     resolved (lowercase names become generic *TParam), unannotated ones get
//     fresh inference variables.
//  2. Bodies: functions are checked callees-first, in strongly connected
//     components of the call graph (Tarjan), so a private function's
//     inferred signature is known before its callers use it; a recursive
//     group shares monomorphic signatures while it is checked and is
//     generalised afterwards (its remaining free variables become generic
//     parameters). Inside a body, inference is Hindley-Milner style:
//     unification over union-find variables (*TVar), with Never as a bottom
//     type that unifies with anything and Invalid as the type of erroneous
//     expressions, which suppresses follow-on errors. A body without a
//     return annotation checks every exit against one return type; an
//     expression with a Never operand is itself Never. expr.go dispatches
//     on the expression kind; names.go, selectors.go, operators.go,
//     calls.go, control.go and stmt.go hold one concern each.
//  3. Work that needs resolved types is queued while a group is checked
//     and done when it is finished, in this order: operations on values of
//     still unknown type (field access, record update, tuple projection,
//     tuple rests, for loops) are settled by the evidence that arrived
//     later (shapes.go); the queued checks run; then the requirements that
//     operators, interpolation, printing, List.contains and List.sort put
//     on types are solved (reqs.go): concrete types are checked, type
//     parameters and signature variables collect requirements that every
//     instantiation must meet (to a fixed point over the group), other
//     unknown numeric operands default to Int. Types share nodes, and
//     every walk over them visits a shared node once (typewalk.go).
//  4. Patterns are checked against their subject type; exhaustiveness and
//     arm reachability use a usefulness algorithm (exhaust.go).
//  5. Result obligations (oblig.go) follow docs/reference/checks.md#result-obligations: each function body is
//     interpreted abstractly over the set of pending Result-bearing
//     locals; exits (end of body, return, ?, terminal and helper exits)
//     with pending obligations are reported; per-function summaries say
//     which parameters a function discharges and whether it exits, solved
//     per recursive group; the work is budgeted. The other Result rules
//     (result.go) — discarded Result statements, unused bindings,
//     wildcard-only matches and nested wildcards — are reported while the
//     body is checked.
//  6. Actor contexts (actors.go): receive is checked there; every
//     function's mailbox type is shared by its receives and
//     Process.self(), propagated through calls (generic
//     mailboxes are instantiated per call) and into spawn sites; mailbox
//     effects are computed over the call graph so that main cannot call a
//     receiving function; receive guards and deferred actor helpers are
//     restricted as docs/reference/checks.md#receive-guards and docs/reference/checks.md#guards-and-defer say.
//
// Results are recorded in Info side tables keyed by AST node; the tree is
// never modified. docs/checker.md lists the decisions the specification
// leaves open.
package types

import (
	"path/filepath"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// ObjKind says what an identifier resolves to.
type ObjKind int

// Object kinds.
const (
	ObjLocal   ObjKind = iota // a let/pattern/parameter binding
	ObjFunc                   // a top-level function
	ObjCtor                   // a constructor
	ObjBuiltin                // a builtin function (print, List.map, Process.spawn)
)

func (k ObjKind) String() string {
	return [...]string{"local", "function", "constructor", "builtin"}[k]
}

// Object is the resolution of a name.
type Object struct {
	Kind    ObjKind
	Name    string   // the name (qualified for builtins, e.g. "List.map")
	Type    Type     // locals: the bound type
	Decl    ast.Node // locals: the defining BindPat/Param/TypedPat; functions: *ast.FnDecl
	Func    *FuncSig // functions
	Ctor    *Ctor    // constructors
	Builtin string   // builtins: qualified name
	uses    int
	owner   *fnCtx // the function or lambda whose body binds a local
	result  bool   // a Result binding subject to the unused-binding rule
	isParam bool
	// init is the span of the let initializer that bound this local; a
	// local whose initializer has an error gets no obligation errors (docs/diagnostics.md).
	init     source.Span
	hasInit  bool
	initX    ast.Expr // the initializer itself
	poisoned bool
	// metaReads names the metadata builtins (List.len …) that read this
	// local; such reads do not count as uses of a Result (docs/reference/checks.md#result-obligations).
	metaReads []string
}

// FuncSig is a top-level function's signature.
type FuncSig struct {
	Name     string
	Decl     *ast.FnDecl
	Params   []*ParamSig
	Ret      Type
	Generics []*TParam
	// NeedsLabel marks parameters whose arguments must be labeled (docs/reference/syntax.md#calls).
	NeedsLabel []bool
	gen        map[string]*TParam
	obj        *Object
	// resultFrom is, for a function without a return annotation, the
	// first exit (a `?`, a `return`, the final expression) that made its
	// inferred return type carry a Result; diagnostics at its callers
	// point there.
	resultFrom    source.Span
	hasResultFrom bool
	// flex maps the annotated type variables of a partly annotated member
	// of a recursive group to the inference variables that stand for them
	// while the group is checked (bodies.go, flexGenerics).
	flex map[*TParam]*TVar
}

// ParamSig is one parameter of a FuncSig.
type ParamSig struct {
	Label    string // external label callers write
	Name     string
	Type     Type
	Declared bool // written with a type annotation
}

// FuncType returns the signature as a function type.
func (s *FuncSig) FuncType() *Func {
	ps := make([]Type, len(s.Params))
	for i, p := range s.Params {
		ps[i] = p.Type
	}
	return &Func{Params: ps, Ret: s.Ret}
}

// Info holds the checker's results in side tables keyed by node.
type Info struct {
	// Library is true when the file has no main and is run as a library
	// through `pub fn start(port: Pid(String)) -> ()`.
	Library bool
	// Types records the type of every checked expression (fully resolved
	// after Check returns).
	Types map[ast.Expr]Type
	// Uses maps every *ast.Ident and *ast.Path in expressions, and every
	// *ast.CtorPat, to what it names.
	Uses map[ast.Node]*Object
	// Defs maps binding sites (*ast.BindPat, *ast.Param, *ast.TypedPat) to
	// the local they introduce.
	Defs map[ast.Node]*Object
	// PatTypes records the type each pattern was checked against.
	PatTypes map[ast.Pattern]Type
	// Funcs holds the signature of every top-level function.
	Funcs map[*ast.FnDecl]*FuncSig
	// TypeDefs holds user type declarations by name.
	TypeDefs map[string]*TypeDef
	// CallArgs maps a call with labeled arguments to the parameter index
	// of each written argument (in the order written). Calls without
	// labels are absent: argument i is parameter i.
	CallArgs map[*ast.Call][]int
	// Mailboxes records the mailbox type M of each function (*ast.FnDecl)
	// or lambda (*ast.Lambda) whose body receives, calls Process.self() or
	// calls a function that has a mailbox (docs/reference/types.md#mailbox-types).
	Mailboxes map[ast.Node]Type
	// HasMailbox marks the functions with a mailbox effect: their body
	// receives or uses actor-only Process operations, directly or through
	// the functions they call (lambdas excluded).
	HasMailbox map[*ast.FnDecl]bool
}

// TypeOf returns the recorded type of e, or nil.
func (i *Info) TypeOf(e ast.Expr) Type {
	if t, ok := i.Types[e]; ok {
		return t
	}
	return nil
}

type typeEntry struct {
	decl      ast.Decl
	def       *TypeDef
	alias     *ast.TypeDecl
	aliasPars []*TParam
	resolved  Type
	resolving bool
	done      bool
}

// Checker holds the state of one Check call.
type Checker struct {
	// keyReported holds the key types already reported by keyError,
	// so that a bad key type is reported once, not at every use.
	keyReported map[string]bool

	file   *ast.File
	src    *source.File
	diags  diag.List
	info   *Info
	module string

	types map[string]*typeEntry
	ctors map[string]*Ctor
	funcs map[string]*FuncSig

	nextVar int
	fn      *fnCtx
	// deferred holds checks that need resolved types; run when the current
	// function group is finished.
	deferred []func()
	// locals collects bindings of the current group for the unused-Result rule.
	locals []*Object
	// lets records let-bound locals for the cannot-infer rule.
	lets []*letRecord
	// patBroken is set by simplify when a pattern had an error.
	patBroken bool
	// dead is set while checking statements after one that always exits.
	dead bool
	// mailboxSites are the mailbox types created in the current group
	// (receives, Process.self, spawn sites), checked when it is finished.
	mailboxSites []mailboxSite
	// rootLambdas are lambdas passed directly to List/Option/Result functions.
	rootLambdas map[*ast.Lambda]bool
	// deferExprs, funcValues and spawnEntries feed the docs/reference/checks.md#guards-and-defer checks run
	// after all bodies: deferred expressions, identifiers naming a top-level
	// function used as a value, and those used directly as spawn entries.
	deferExprs   []ast.Expr
	funcValues   []*ast.Ident
	spawnEntries map[*ast.Ident]bool
	// oblSums are the Result-obligation summaries of the checked functions.
	oblSums map[*FuncSig]*oblSummary
	// inGroup holds the functions of the group being checked; recursive
	// says whether they call each other (or the one calls itself).
	inGroup   map[*FuncSig]bool
	recursive bool
	// reqs are the requirements of type parameters and of the group's
	// signature variables; reqSites the uses and instantiations of the
	// group that must meet requirements (reqs.go).
	reqs     map[Type][]requirement
	reqSites []*reqSite
	// shapes are the group's operations on values of still unknown type
	// (shapes.go).
	shapes []*pendingShape
	// carried are the shapes on parameter types that wait for a caller
	// (settleShapes).
	carried    []*pendingShape
	carriedAll []*pendingShape
	// suggestWork counts the candidates "did you mean" lookups have
	// visited (help.go bounds it).
	suggestWork int
}

type mailboxSite struct {
	t     Type
	span  source.Span
	spawn bool // a spawn site: the mailbox must be inferred by now
	// process marks a Process.spawn* site (messages of an isolated process).
	process bool
	// keyOf names the MailboxKey builtin (Process.register, whereis) of
	// the site: M must be concrete (mailboxkey.go).
	keyOf string
	// supervised marks a Supervisor.worker site (a supervised child's
	// mailbox, docs/supervisors.md).
	supervised bool
	// builtin names the spawning builtin (spawn, Process.spawn, …).
	builtin string
}

type letRecord struct {
	obj  *Object
	span source.Span
	fn   *fnCtx
}

// fnCtx is the state of one function or lambda body.
type fnCtx struct {
	parent   *fnCtx
	sig      *FuncSig // nil for lambdas
	ret      Type
	retKnown bool // return type was annotated (or is main's)
	// retBroken: the exits of a body without a return annotation
	// disagree (already reported); callers see an invalid return type.
	retBroken bool
	isMain    bool
	isRoot    bool // the library start function, called by the host in the root context
	loops     int
	inDefer   bool
	// deferFlagged: the defer being checked already has its actor/process
	// restriction error (E6004); one per defer body is enough (docs/diagnostics.md).
	deferFlagged bool
	scope        *scope
	mailbox      Type     // the mailbox type M, created on first use
	node         ast.Node // the *ast.FnDecl or *ast.Lambda being checked
	noActor      bool     // a callback of a library function: no actor context
	generics     map[string]Type
	reportedR    bool
}

type scope struct {
	parent *scope
	names  map[string]*Object // made by the first define: most scopes bind nothing
}

func (s *scope) define(name string, o *Object) {
	if s.names == nil {
		s.names = map[string]*Object{}
	}
	s.names[name] = o
}

func (s *scope) lookup(name string) *Object {
	for ; s != nil; s = s.parent {
		if o, ok := s.names[name]; ok {
			return o
		}
	}
	return nil
}

// Check type-checks a parsed file and returns its side tables and every
// diagnostic found.
func Check(f *ast.File) (*Info, diag.List) {
	c := &Checker{
		file:         f,
		src:          f.Src,
		types:        map[string]*typeEntry{},
		ctors:        map[string]*Ctor{},
		funcs:        map[string]*FuncSig{},
		rootLambdas:  map[*ast.Lambda]bool{},
		spawnEntries: map[*ast.Ident]bool{},
		info: &Info{
			Types:      map[ast.Expr]Type{},
			Uses:       map[ast.Node]*Object{},
			Defs:       map[ast.Node]*Object{},
			PatTypes:   map[ast.Pattern]Type{},
			Funcs:      map[*ast.FnDecl]*FuncSig{},
			TypeDefs:   map[string]*TypeDef{},
			CallArgs:   map[*ast.Call][]int{},
			Mailboxes:  map[ast.Node]Type{},
			HasMailbox: map[*ast.FnDecl]bool{},
		},
		module: "main",
	}
	if f.Src != nil && f.Src.Name != "" {
		base := filepath.Base(f.Src.Name)
		c.module = strings.TrimSuffix(base, filepath.Ext(base))
	}
	c.collectTypes()
	c.collectFuncs()
	c.checkBodies()
	c.checkActorContexts()
	c.checkEntry()
	c.checkTests()
	// One memo for the whole pass: the recorded types share nodes.
	var z Zonker
	for e, t := range c.info.Types {
		if zt := z.Zonk(t); zt != t {
			c.info.Types[e] = zt
		}
	}
	for p, t := range c.info.PatTypes {
		c.info.PatTypes[p] = z.Zonk(t)
	}
	for n, t := range c.info.Mailboxes {
		c.info.Mailboxes[n] = z.Zonk(t)
	}
	for _, o := range c.info.Defs {
		if o.Type != nil {
			o.Type = z.Zonk(o.Type)
		}
	}
	c.diags.Sort()
	return c.info, c.diags
}

func (c *Checker) errorf(code diag.Code, span source.Span, format string, args ...any) *diag.Diagnostic {
	return c.diags.Add(c.src, code, span, format, args...)
}

func (c *Checker) fresh() *TVar {
	c.nextVar++
	return &TVar{ID: c.nextVar}
}

// ---------------------------------------------------------------- type declarations

func (c *Checker) collectTypes() {
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.TypeDecl:
			c.declareType(d, d.Name, d.NameSpan, d.Params, d.Derives, d.Pub)
		case *ast.NewtypeDecl:
			c.declareType(d, d.Name, d.NameSpan, d.Params, d.Derives, d.Pub)
		case *ast.ImportDecl:
			// The module loader (lang/modules) resolves imports; a tree
			// checked on its own has nowhere to import from.
			c.errorf(ErrUnsupportedDecl, d.Span(), "import of %s cannot be resolved: this file is checked alone", ast.PathString(d.Path)).Hint =
				"check the program from its entry file (morrowc check FILE), which follows imports"
		case *ast.UnsupportedDecl:
			c.errorf(ErrUnsupportedDecl, d.Span(), "%s declarations are not supported", d.Feature).Hint =
				"this implementation has no traits, consts or foreign code"
		}
	}
	// Resolve constructor fields now that every name is known.
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.TypeDecl:
			e := c.types[d.Name]
			if e == nil || e.decl != ast.Decl(d) {
				continue
			}
			if d.Kind == ast.AliasType {
				c.resolveAlias(e, d.NameSpan)
				continue
			}
			c.fillTypeDef(e.def, d)
		case *ast.NewtypeDecl:
			e := c.types[d.Name]
			if e == nil || e.decl != ast.Decl(d) {
				continue
			}
			c.fillNewtype(e.def, d)
		}
	}
}

func (c *Checker) declareType(d ast.Decl, name string, span source.Span, params []string, derives []ast.Ident, pub bool) {
	if prev, dup := c.types[name]; dup {
		d := c.errorf(ErrDuplicateDecl, span, "duplicate type declaration '%s'", name)
		if sp, ok := declNameSpan(prev.decl); ok {
			d.Related = []diag.Related{{Span: sp, Message: "first declared here"}}
		}
		return
	}
	if _, ok := lib().typeDefs[name]; ok || isBuiltinTypeName(name) || lib().modules[name] {
		c.errorf(ErrReservedName, span, "type name '%s' is reserved for a builtin", name)
		return
	}
	c.checkTypeHead(name, span, params)
	e := &typeEntry{decl: d}
	if td, ok := d.(*ast.TypeDecl); ok && td.Kind == ast.AliasType {
		e.alias = td
		for _, p := range params {
			e.aliasPars = append(e.aliasPars, c.newTParam(p))
		}
		c.types[name] = e
		return
	}
	def := &TypeDef{Name: name, Module: c.module, Derives: map[string]bool{}}
	for _, p := range params {
		def.Params = append(def.Params, c.newTParam(p))
	}
	for _, dv := range derives {
		switch dv.Name {
		case "Show", "Eq", "Ord", "Clone", "Json":
			def.Derives[dv.Name] = true
		default:
			c.errorf(ErrDeriveTrait, dv.Span(), "unsupported derive trait '%s'", dv.Name).Hint = "allowed traits are Show, Eq, Ord, Clone and Json"
		}
	}
	if def.Derives["Ord"] && !def.Derives["Eq"] {
		c.errorf(ErrDeriveTrait, span, "derive(Ord) requires derive(Eq) on '%s'", name).Hint = "add Eq to the derive list"
	}
	e.def = def
	c.types[name] = e
	c.info.TypeDefs[name] = def
}

func isBuiltinTypeName(n string) bool {
	switch n {
	case "Int", "Float", "Bool", "String", "Unit", "Never", "Range", "ProcessId", "MonitorRef", "Map", "Set", "Process":
		return true
	}
	return false
}

func (c *Checker) declParamScope(params []*TParam) func(string) Type {
	return func(n string) Type {
		for _, p := range params {
			if p.Name == n {
				return p
			}
		}
		return nil
	}
}

func (c *Checker) addCtor(ct *Ctor, span source.Span) {
	if lib().reserved[ct.Name] || coreCtor(ct.Name) || lib().modules[ct.Name] {
		c.errorf(ErrReservedName, span, "constructor name '%s' is reserved for a builtin", ct.Name)
		return
	}
	if prev, dup := c.ctors[ct.Name]; dup {
		c.errorf(ErrDuplicateDecl, span, "duplicate constructor '%s' (already a constructor of %s)", ct.Name, prev.Def.Name)
		return
	}
	c.ctors[ct.Name] = ct
}

func (c *Checker) fillTypeDef(def *TypeDef, d *ast.TypeDecl) {
	lookup := c.declParamScope(def.Params)
	switch d.Kind {
	case ast.SumType:
		def.Kind = SumDef
		if len(d.Variants) == 0 {
			c.errorf(ErrEmptyType, d.NameSpan, "type requires fields or variants")
		}
		for i, v := range d.Variants {
			ct := &Ctor{Name: v.Name, Def: def, Tag: i}
			for _, f := range v.Fields {
				ct.Fields = append(ct.Fields, c.resolveType(f.Type, lookup))
				ct.FieldNames = append(ct.FieldNames, f.Name)
			}
			def.Ctors = append(def.Ctors, ct)
			c.addCtor(ct, v.Span())
		}
	case ast.RecordType:
		def.Kind = RecordDef
		if len(d.Fields) == 0 {
			c.errorf(ErrEmptyType, d.NameSpan, "type requires fields or variants")
		}
		ct := &Ctor{Name: d.Name, Def: def}
		seen := map[string]bool{}
		for _, f := range d.Fields {
			if seen[f.Name] {
				c.errorf(ErrDuplicateDecl, f.Span(), "duplicate field '%s'", f.Name)
			}
			seen[f.Name] = true
			ct.Fields = append(ct.Fields, c.resolveType(f.Type, lookup))
			ct.FieldNames = append(ct.FieldNames, f.Name)
			def.Fields = append(def.Fields, f.Name)
		}
		def.Ctors = []*Ctor{ct}
		c.addCtor(ct, d.NameSpan)
	}
}

func (c *Checker) fillNewtype(def *TypeDef, d *ast.NewtypeDecl) {
	def.Kind = NewtypeDef
	lookup := c.declParamScope(def.Params)
	ct := &Ctor{Name: d.Ctor, Def: def}
	c.checkCtorName(d.Ctor, d.NameSpan)
	if d.Type == nil {
		c.errorf(ErrEmptyType, d.NameSpan, "type requires fields or variants")
		ct.Fields = []Type{Invalid}
	} else {
		ct.Fields = []Type{c.resolveType(d.Type, lookup)}
	}
	ct.FieldNames = []string{""}
	def.Ctors = []*Ctor{ct}
	c.addCtor(ct, d.NameSpan)
}

func (c *Checker) resolveAlias(e *typeEntry, span source.Span) Type {
	if e.done {
		return e.resolved
	}
	if e.resolving {
		c.errorf(ErrRecursiveAlias, span, "recursive type alias '%s'", e.alias.Name)
		e.resolved, e.done = Invalid, true
		return Invalid
	}
	e.resolving = true
	lookup := c.declParamScope(e.aliasPars)
	var t Type
	if u, ok := e.alias.Alias.(*ast.UnionType); ok {
		un := &Union{Name: e.alias.Name}
		for _, a := range u.Alts {
			un.Alts = append(un.Alts, c.resolveType(a, lookup))
		}
		t = un
	} else if e.alias.Alias != nil {
		t = c.resolveType(e.alias.Alias, lookup)
	} else {
		c.errorf(ErrEmptyType, e.alias.NameSpan, "type requires fields or variants")
		t = Invalid
	}
	e.resolving = false
	if !e.done {
		e.resolved, e.done = t, true
	}
	return e.resolved
}

// resolveType turns a written type into a Type. tv resolves lowercase
// type variables (nil result: unknown variable).
func (c *Checker) resolveType(te ast.TypeExpr, tv func(string) Type) Type {
	switch t := te.(type) {
	case nil:
		return Invalid
	case *ast.UnitType:
		return UnitT
	case *ast.TupleType:
		el := make([]Type, len(t.Elems))
		for i, x := range t.Elems {
			el[i] = c.resolveType(x, tv)
		}
		return &Tuple{Elems: el}
	case *ast.FuncType:
		ps := make([]Type, len(t.Params))
		for i, x := range t.Params {
			ps[i] = c.resolveType(x, tv)
		}
		var ret Type = UnitT
		if t.Ret != nil {
			ret = c.resolveType(t.Ret, tv)
		}
		return &Func{Params: ps, Ret: ret}
	case *ast.UnionType:
		c.errorf(ErrUnionPosition, t.Span(), "union types may only be written in a type alias such as `type V = Int | String`")
		return Invalid
	case *ast.NamedType:
		return c.resolveNamed(t, tv)
	}
	return Invalid
}

func (c *Checker) resolveNamed(t *ast.NamedType, tv func(string) Type) Type {
	args := make([]Type, len(t.Args))
	for i, a := range t.Args {
		args[i] = c.resolveType(a, tv)
	}
	want := func(n int) bool {
		if len(args) != n {
			c.errorf(ErrTypeArgCount, t.Span(), "wrong type argument count for %s; expected %d, found %d", t.Name, n, len(args))
			return false
		}
		return true
	}
	basic := map[string]Type{"Int": IntT, "Float": FloatT, "Bool": BoolT, "String": StringT, "Unit": UnitT,
		"Range": RangeT, "ProcessId": ProcessIDT, "MonitorRef": MonitorRef}
	if b, ok := basic[t.Name]; ok {
		if !want(0) {
			return Invalid
		}
		return b
	}
	if d, ok := lib().typeDefs[t.Name]; ok {
		if !want(len(d.Params)) {
			return Invalid
		}
		if d == MapDef || d == SetDef {
			c.checkKeyType(args[0], spanOf(t.Args[0]))
		}
		return &Named{Def: d, Args: args}
	}
	if e, ok := c.types[t.Name]; ok {
		if e.alias != nil {
			if !want(len(e.aliasPars)) {
				return Invalid
			}
			body := c.resolveAlias(e, t.Span())
			m := map[*TParam]Type{}
			for i, p := range e.aliasPars {
				m[p] = args[i]
			}
			return subst(body, m)
		}
		if !want(len(e.def.Params)) {
			return Invalid
		}
		return &Named{Def: e.def, Args: args}
	}
	if !strings.Contains(t.Name, ".") && t.Name != "" && isLower(t.Name) {
		if len(args) > 0 {
			c.errorf(ErrTypeArgCount, t.Span(), "type variable '%s' takes no type arguments", t.Name)
		}
		if tv != nil {
			if r := tv(t.Name); r != nil {
				return r
			}
		}
		c.errorf(ErrUnknownTypeVar, t.Span(), "unknown type variable '%s'", t.Name).Hint = "declare it as a type parameter, e.g. `type Box(" + t.Name + ")`"
		return Invalid
	}
	d := c.errorf(ErrUnknownType, t.Span(), "unknown type '%s'", t.Name)
	if best := c.suggestType(t.Name); best != "" && len(t.Name) > 2 {
		d.Hint = "did you mean '" + best + "'?"
		suggestFix(d, source.Span{Start: t.Span().Start, End: t.Span().Start + len(t.Name)}, best)
	}
	return Invalid
}

func isLower(s string) bool {
	return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_')
}

func isUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// ---------------------------------------------------------------- function signatures

func (c *Checker) collectFuncs() {
	var prev *ast.FnDecl
	for _, d := range c.file.Decls {
		fd, ok := d.(*ast.FnDecl)
		if !ok {
			prev = nil
			continue
		}
		if old, dup := c.funcs[fd.Name]; dup {
			if prev != nil && prev.Name == fd.Name {
				c.errorf(ErrMultiClause, fd.NameSpan, "multi-clause functions are not supported ('%s' is declared again)", fd.Name).Hint =
					"combine the clauses into one function with a match"
			} else {
				c.errorf(ErrDuplicateDecl, fd.NameSpan, "duplicate function '%s'", fd.Name).Related =
					[]diag.Related{{Span: old.Decl.NameSpan, Message: "first declared here"}}
			}
			prev = fd
			continue
		}
		prev = fd
		if lib().reserved[fd.Name] || lib().modules[fd.Name] || c.ctors[fd.Name] != nil || coreCtor(fd.Name) {
			c.errorf(ErrReservedName, fd.NameSpan, "function name '%s' is reserved for a builtin", fd.Name)
		}
		sig := c.makeSig(fd)
		c.funcs[fd.Name] = sig
		c.info.Funcs[fd] = sig
	}
}

// maxParams is the parameter limit of docs/reference/syntax.md#functions.
const maxParams = 255

func (c *Checker) makeSig(fd *ast.FnDecl) *FuncSig {
	sig := &FuncSig{Name: fd.Name, Decl: fd, gen: map[string]*TParam{}}
	sig.obj = &Object{Kind: ObjFunc, Name: fd.Name, Decl: fd, Func: sig}
	tv := func(n string) Type {
		if p, ok := sig.gen[n]; ok {
			return p
		}
		p := c.newTParam(n)
		sig.gen[n] = p
		sig.Generics = append(sig.Generics, p)
		return p
	}
	seen := map[string]bool{}
	seenLabel := map[string]bool{}
	pubMissing := false
	if len(fd.Params) > maxParams {
		c.errorf(ErrTooManyParams, fd.NameSpan, "too many parameters: '%s' declares %d, the limit is %d", fd.Name, len(fd.Params), maxParams)
	}
	for _, p := range fd.Params {
		ps := &ParamSig{Label: p.ExternalLabel(), Name: p.Name}
		if p.Name != "" {
			if seen[p.Name] {
				c.errorf(ErrDuplicateParam, p.Span(), "duplicate parameter '%s'", p.Name)
			}
			seen[p.Name] = true
		}
		if l := p.ExternalLabel(); l != "" && l != p.Name {
			if seenLabel[l] || seen[l] && l != p.Name {
				c.errorf(ErrDuplicateParam, p.Span(), "duplicate parameter label '%s'", l)
			}
		}
		if l := p.ExternalLabel(); l != "" {
			seenLabel[l] = true
		}
		if p.Type != nil {
			ps.Type = c.resolveType(p.Type, tv)
			ps.Declared = true
		} else {
			ps.Type = c.fresh()
			if fd.Pub {
				pubMissing = true
			}
		}
		sig.Params = append(sig.Params, ps)
	}
	if fd.Ret != nil {
		sig.Ret = c.resolveType(fd.Ret, tv)
	} else if fd.Name == "main" {
		sig.Ret = UnitT
	} else {
		if fd.Pub {
			pubMissing = true
		}
		sig.Ret = c.fresh()
	}
	if pubMissing {
		d := c.errorf(ErrPubAnnotation, fd.NameSpan, "public functions require a return type annotation")
		d.Notes = append(d.Notes, "a pub fn must annotate every parameter and its return type")
	}
	// Mandatory labels (docs/reference/syntax.md#calls).
	sig.NeedsLabel = make([]bool, len(sig.Params))
	for i, p := range sig.Params {
		if !p.Declared {
			continue
		}
		if isBasic(p.Type, KBool) {
			sig.NeedsLabel[i] = true
		}
		for j, q := range sig.Params {
			if i != j && q.Declared && Identical(p.Type, q.Type) && !hasInvalid(p.Type) {
				sig.NeedsLabel[i] = true
			}
		}
		if sig.NeedsLabel[i] && p.Label == "" {
			c.errorf(ErrStableLabel, fd.Params[i].Span(), "parameter %d requires a stable external label", i+1).Hint =
				"write an explicit label before the pattern, e.g. `label PATTERN: Type`"
		}
	}
	return sig
}

// newTParam makes a generic parameter owned by this check. IDs come from
// the checker, not a global, so concurrent checks do not race.
func (c *Checker) newTParam(name string) *TParam {
	c.nextVar++
	return &TParam{Name: name, ID: c.nextVar}
}
