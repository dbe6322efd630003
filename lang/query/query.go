// Package query answers editor questions over the checker's results:
// which declaration a position names, every use of a declaration, the
// type of an expression, and the names in scope at a position. The
// language server (cmd/morrowc/lsp.go) builds its hover, definition,
// references, rename, completion, signature help and semantic tokens on
// it, so each of those handlers is small.
//
// An Analysis is built once per document version (Analyze). It runs the
// compiler's front end (compiler.Analyze) and keeps the tree and the
// checker's side tables (types.Info: the type of every expression, the
// resolution of every name, the binding sites); it computes nothing the
// checker already knows. On top of them it builds one index: every name
// occurrence in the file (declaration or use) with the Target it names,
// built on the first query of a version (a change re-checks, a request indexes),
// sorted by position, so a position query is a binary search.
//
// A document with syntax errors still gets an Analysis: the parser leaves
// out the declarations that do not parse (it resumes at the next
// top-level declaration), and the declarations that do parse are
// type-checked for the queries (their type errors are not published:
// the diagnostics of such a document are its syntax errors, as
// `morrowc check` reports them).
package query

import (
	"fmt"
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/modules"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Kind classifies what a name denotes.
type Kind int

// Target kinds.
const (
	KLocal   Kind = iota // a let, pattern or lambda binding
	KParam               // a function parameter
	KFunc                // a top-level function of the file
	KType                // a type, newtype or alias declared in the file
	KCtor                // a constructor declared in the file
	KField               // a record field declared in the file
	KLabel               // a parameter label at a call
	KBuiltin             // a builtin function (println, List.map)
	KBuiltinType
	KBuiltinCtor // Some, None, Ok, Process.Normal, ...
	KModule      // a builtin module name (List, Process)
	KTypeParam   // a lowercase type variable
)

var kindNames = [...]string{"local", "parameter", "function", "type", "constructor", "field", "label",
	"builtin", "builtin type", "builtin constructor", "module", "type parameter"}

func (k Kind) String() string { return kindNames[k] }

// Target is the declaration a name denotes.
type Target struct {
	Kind Kind
	Name string
	// Key identifies the declaration: two occurrences denote the same
	// declaration exactly when their keys are equal.
	Key any
	// Decl is the declaring node (nil for builtins); DeclSpan the span of
	// the declared name (empty for builtins).
	Decl     ast.Node
	DeclSpan source.Span
	Obj      *types.Object  // locals and parameters
	Sig      *types.FuncSig // functions; for labels, the called function
	Def      *types.TypeDef // types, constructors and fields
	Ctor     *types.Ctor    // constructors
	Param    int            // labels: the parameter index
	Builtin  string         // builtins: the registry name
	Module   string         // user modules: the module's name
}

// Local reports whether the target is a binding inside a function.
func (t *Target) Local() bool { return t.Kind == KLocal || t.Kind == KParam }

// Occ is one occurrence of a name in the file.
type Occ struct {
	Span   source.Span
	Target *Target
	Def    bool // the declaring occurrence
}

// Analysis is everything known about one version of one document.
//
// The document is checked as the entry module of a program: the modules
// it imports are loaded with it (unsaved buffers over the disk,
// modules.Options.Overlay) and the checker sees one tree joined from all
// of them (lang/modules). The entry's text comes first in the joined
// text, so the tree's spans of the document's own nodes are the
// document's offsets; Where maps any span to its file.
type Analysis struct {
	File    *source.File     // the document
	Unit    *compiler.Unit   // what the compiler's front end returned
	Program *modules.Program // the loaded modules; nil for a text that is not source
	AST     *ast.File        // the joined tree; nil only for a file that is not source text
	Info    *types.Info      // nil when the checker could not run
	Diags   diag.List        // what `morrowc check` reports for the text
	ParseOK bool             // the program checked (no syntax or import errors)
	Err     error            // an internal compiler error, if any
	// IndexErr is a bug met while indexing (the index is then partial).
	IndexErr error

	occs    []*Occ
	parent  map[ast.Node]ast.Node
	targets map[any]*Target
	aliases map[string]*ast.TypeDecl
	decls   map[string]ast.Decl // top-level types by name
	tokens  []SemToken          // Tokens, once computed
	indexed bool                // the index is built (ready)
}

// Analyze parses and checks one document with the modules it imports.
func Analyze(name string, src []byte, opts modules.Options) *Analysis {
	a := &Analysis{}
	u, err := compiler.AnalyzeWith(name, src, opts)
	a.Unit, a.Err = u, err
	a.File, a.Program, a.AST, a.Info, a.Diags = u.File, u.Modules, u.AST, u.Info, u.Diags
	a.ParseOK = u.Info != nil
	if a.Info == nil && a.Program != nil && a.Program.Entry != nil && a.Program.Entry.AST != nil && err == nil {
		// Syntax or import errors: check the declarations that parsed,
		// for the queries only (their errors are not reported).
		a.AST = recoveryTree(a.Program)
		func() {
			defer func() {
				if r := recover(); r != nil {
					a.Info = nil
				}
			}()
			a.Info, _ = types.Check(a.AST)
		}()
	}
	return a
}

// recoveryTree is the tree of a program that did not load cleanly: the
// modules' names are resolved as far as they can be and joined; if that
// reports errors too, the entry's own declarations alone.
func recoveryTree(p *modules.Program) *ast.File {
	if p.AST == nil {
		func() {
			defer func() { _ = recover() }()
			p.JoinPartial()
		}()
	}
	if p.AST != nil {
		return p.AST
	}
	e := p.Entry
	f := &ast.File{Pos: ast.Pos{S: source.Span{Start: 0, End: len(e.File.Src)}}, Src: e.File}
	for _, d := range e.AST.Decls {
		switch d.(type) {
		case *ast.ImportDecl, *ast.ModuleDecl:
			continue
		}
		f.Decls = append(f.Decls, d)
	}
	return f
}

// InDoc reports whether a span of the tree lies in the document (and not
// in a module it imports): the document's text comes first.
func (a *Analysis) InDoc(sp source.Span) bool {
	return a.File != nil && sp.End <= len(a.File.Src)
}

func (a *Analysis) tree() *source.File {
	if a.AST != nil && a.AST.Src != nil {
		return a.AST.Src
	}
	return a.File
}

// Where returns the file a span of the tree is in, that file's module
// (nil when there is no program) and the span in the file's own offsets.
func (a *Analysis) Where(sp source.Span) (*source.File, *modules.Module, source.Span) {
	t := a.tree()
	f, off := t.Locate(sp.Start)
	local := source.Span{Start: off, End: max(off, sp.End-(sp.Start-off))}
	if a.Program != nil {
		for _, m := range a.Program.Modules {
			if m.File == f {
				return f, m, local
			}
		}
		if e := a.Program.Entry; e != nil && (f == e.File || f == a.File) {
			return f, e, local
		}
	}
	return f, nil, local
}

// Home identifies a declaration across analyses: the absolute path of its
// file and the offset of its name there ("" for builtins and targets
// without a declaration).
func (a *Analysis) Home(t *Target) (string, int) {
	if t.Decl == nil || t.DeclSpan.End <= t.DeclSpan.Start {
		return "", 0
	}
	_, m, local := a.Where(t.DeclSpan)
	if m == nil {
		return "", 0
	}
	return m.Abs, local.Start
}

// ---------------------------------------------------------------- index

func (a *Analysis) target(key any, mk func() *Target) *Target {
	if t, ok := a.targets[key]; ok {
		return t
	}
	t := mk()
	t.Key = key
	a.targets[key] = t
	return t
}

func (a *Analysis) add(sp source.Span, t *Target, def bool) {
	if t == nil || sp.End <= sp.Start {
		return
	}
	if t.Kind == KTypeParam && t.DeclSpan.End <= t.DeclSpan.Start {
		// A type variable is declared where it is first written (a type's
		// parameter list, a function's first annotation that names it).
		t.DeclSpan, t.Decl, def = sp, a.AST, true
	}
	a.occs = append(a.occs, &Occ{Span: sp, Target: t, Def: def})
}

// nameSpan returns the span of the first whole-word occurrence of name in
// the source inside [from, to), or an empty span.
func (a *Analysis) nameSpan(name string, from, to int) source.Span {
	src := a.tree().Src
	if to > len(src) {
		to = len(src)
	}
	if from < 0 || from >= to || name == "" {
		return source.Span{}
	}
	s := string(src[from:to])
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return source.Span{}
		}
		k := i + j
		if (k == 0 || !wordByte(s[k-1])) && (k+len(name) == len(s) || !wordByte(s[k+len(name)])) {
			return source.Span{Start: from + k, End: from + k + len(name)}
		}
		i = k + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (a *Analysis) funcTarget(sig *types.FuncSig) *Target {
	return a.target(sig, func() *Target {
		return &Target{Kind: KFunc, Name: ast.PlainName(sig.Name), Decl: sig.Decl, DeclSpan: sig.Decl.NameSpan, Sig: sig}
	})
}

// typeTarget is the target of a user type by name (records share it with
// their constructor, which has the same name).
func (a *Analysis) typeTarget(name string) *Target {
	d, ok := a.decls[name]
	if !ok {
		return nil
	}
	return a.target("type:"+name, func() *Target {
		t := &Target{Kind: KType, Name: ast.PlainName(name), Decl: d}
		switch d := d.(type) {
		case *ast.TypeDecl:
			t.DeclSpan = d.NameSpan
		case *ast.NewtypeDecl:
			t.DeclSpan = d.NameSpan
		}
		if a.Info != nil {
			t.Def = a.Info.TypeDefs[name]
		}
		return t
	})
}

func (a *Analysis) ctorTarget(ct *types.Ctor) *Target {
	if ct == nil || ct.Def == nil {
		return nil
	}
	if ct.Def.Builtin || a.decls[ct.Def.Name] == nil || a.Info == nil || a.Info.TypeDefs[ct.Def.Name] != ct.Def {
		return a.target("builtinctor:"+ct.QualifiedName(), func() *Target {
			return &Target{Kind: KBuiltinCtor, Name: ast.PlainName(ct.Name), Def: ct.Def, Ctor: ct}
		})
	}
	if ct.Def.Kind == types.RecordDef {
		return a.typeTarget(ct.Def.Name)
	}
	return a.target("ctor:"+ct.Def.Name+"."+ct.Name, func() *Target {
		t := &Target{Kind: KCtor, Name: ast.PlainName(ct.Name), Def: ct.Def, Ctor: ct}
		switch d := a.decls[ct.Def.Name].(type) {
		case *ast.TypeDecl:
			for _, v := range d.Variants {
				if v.Name == ct.Name {
					t.Decl, t.DeclSpan = v, a.nameSpan(t.Name, v.Span().Start, v.Span().End)
				}
			}
		case *ast.NewtypeDecl:
			t.Decl = d
			t.DeclSpan = a.nameSpan(t.Name, d.NameSpan.End, d.Span().End)
		}
		return t
	})
}

func (a *Analysis) fieldTarget(def *types.TypeDef, name string) *Target {
	if def == nil || def.Kind != types.RecordDef || def.Builtin || a.Info == nil || a.Info.TypeDefs[def.Name] != def {
		return nil
	}
	d, ok := a.decls[def.Name].(*ast.TypeDecl)
	if !ok {
		return nil
	}
	for _, f := range d.Fields {
		if f.Name == name {
			f := f
			return a.target("field:"+def.Name+"."+name, func() *Target {
				return &Target{Kind: KField, Name: name, Def: def, Decl: f, DeclSpan: a.nameSpan(name, f.Span().Start, f.Span().End)}
			})
		}
	}
	return nil
}

func (a *Analysis) builtinTarget(name string) *Target {
	return a.target("builtin:"+name, func() *Target { return &Target{Kind: KBuiltin, Name: name, Builtin: name} })
}

func (a *Analysis) objTarget(o *types.Object) *Target {
	if o == nil {
		return nil
	}
	switch o.Kind {
	case types.ObjFunc:
		if o.Func != nil {
			return a.funcTarget(o.Func)
		}
	case types.ObjCtor:
		return a.ctorTarget(o.Ctor)
	case types.ObjBuiltin:
		return a.builtinTarget(o.Builtin)
	case types.ObjLocal:
		return a.target(o, func() *Target {
			t := &Target{Kind: KLocal, Name: o.Name, Obj: o, Decl: o.Decl}
			if _, ok := o.Decl.(*ast.Param); ok {
				t.Kind = KParam
			}
			t.DeclSpan = a.bindingSpan(o.Decl, o.Name)
			return t
		})
	}
	return nil
}

// bindingSpan is the span of the bound name in a binding site.
func (a *Analysis) bindingSpan(n ast.Node, name string) source.Span {
	if ast.IsNil(n) {
		return source.Span{}
	}
	sp := n.Span()
	if p, ok := n.(*ast.Param); ok && p.Label != "" && p.Label != p.Name {
		if l := a.nameSpan(p.Label, sp.Start, sp.End); l.End > l.Start {
			return a.nameSpan(name, l.End, sp.End)
		}
	}
	return a.nameSpan(name, sp.Start, sp.End)
}

// typeNameTarget resolves a name written in a type position.
func (a *Analysis) typeNameTarget(name string, n ast.Node) *Target {
	if t := a.typeTarget(name); t != nil {
		return t
	}
	if isLowerName(name) {
		return a.target(fmt.Sprintf("tparam:%p:%s", a.enclosingDecl(n), name), func() *Target {
			return &Target{Kind: KTypeParam, Name: name}
		})
	}
	if builtins.LookupType(name) != nil || builtinTypeName(name) {
		return a.target("builtintype:"+name, func() *Target { return &Target{Kind: KBuiltinType, Name: name} })
	}
	return nil
}

func builtinTypeName(n string) bool {
	switch n {
	case "Int", "Float", "Bool", "String", "Unit", "Never", "Range", "ProcessId", "MonitorRef",
		"List", "Option", "Result", "Pid", "Ordering", "Map", "Set":
		return true
	}
	return false
}

func isLowerName(s string) bool { return s != "" && (s[0] >= 'a' && s[0] <= 'z' || s[0] == '_') }

func (a *Analysis) enclosingDecl(n ast.Node) ast.Node {
	for n != nil {
		if _, ok := n.(ast.Decl); ok {
			return n
		}
		n = a.parent[n]
	}
	return nil
}

// ready builds the index on the first query: a document is re-checked at
// every change, but indexed only when a request asks about it.
func (a *Analysis) ready() {
	if a.indexed {
		return
	}
	a.indexed = true
	defer func() {
		if r := recover(); r != nil {
			// An indexing bug leaves the index partial; the queries
			// answer what they can.
			a.IndexErr = fmt.Errorf("query index: %v", r)
		}
	}()
	a.index()
}

func (a *Analysis) index() {
	a.targets = map[any]*Target{}
	a.parent = map[ast.Node]ast.Node{}
	a.aliases = map[string]*ast.TypeDecl{}
	a.decls = map[string]ast.Decl{}
	if a.AST == nil {
		return
	}
	for _, d := range a.AST.Decls {
		switch d := d.(type) {
		case *ast.TypeDecl:
			if _, dup := a.decls[d.Name]; !dup {
				a.decls[d.Name] = d
			}
		case *ast.NewtypeDecl:
			if _, dup := a.decls[d.Name]; !dup {
				a.decls[d.Name] = d
			}
		}
	}
	var stack []ast.Node
	ast.Inspect(a.AST, func(n ast.Node) bool {
		// Inspect has no post-order callback: pop the nodes that do not
		// contain n.
		for len(stack) > 0 && !within(n, stack[len(stack)-1]) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			a.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		a.visit(n)
		return true
	})
	a.importNames()
	sort.SliceStable(a.occs, func(i, j int) bool { return a.occs[i].Span.Start < a.occs[j].Span.Start })
}

// importNames indexes the names of selective imports (`import geo.{area}`,
// `pub import geo.shapes.{Shape}`) in every module of the program, as
// uses of the declarations they import (following re-exports), so that
// references and rename include them.
func (a *Analysis) importNames() {
	if a.Program == nil || a.Info == nil {
		return
	}
	for _, m := range a.Program.Modules {
		if m.AST == nil {
			continue
		}
		for _, d := range m.AST.Decls {
			im, ok := d.(*ast.ImportDecl)
			if !ok {
				continue
			}
			name := ast.PathString(im.Path)
			dep := a.moduleNamed(name)
			if dep != nil {
				a.add(im.PathSpan, a.userModule(name), false)
			}
			for _, n := range im.Names {
				if t := a.importTarget(dep, n.Name, 0); t != nil {
					a.add(n.Span(), t, false)
				}
			}
		}
	}
}

func (a *Analysis) userModule(name string) *Target {
	return a.target("usermodule:"+name, func() *Target { return &Target{Kind: KModule, Name: name, Module: name} })
}

// ModuleNamed returns the program's module called name, or nil.
func (a *Analysis) ModuleNamed(name string) *modules.Module { return a.moduleNamed(name) }

func (a *Analysis) moduleNamed(name string) *modules.Module {
	if a.Program == nil {
		return nil
	}
	for _, m := range a.Program.Modules {
		if m.Name == name && m.AST != nil {
			return m
		}
	}
	return nil
}

// importTarget is the declaration a module exports as name: its own
// function or type, or a name it re-exports.
func (a *Analysis) importTarget(m *modules.Module, name string, depth int) *Target {
	if m == nil || depth > len(a.Program.Modules) {
		return nil
	}
	for _, d := range m.AST.Decls {
		switch d := d.(type) {
		case *ast.FnDecl:
			if ast.PlainName(d.Name) == name {
				if sig := a.Info.Funcs[d]; sig != nil && sig.Decl == d {
					return a.funcTarget(sig)
				}
			}
		case *ast.TypeDecl:
			if ast.PlainName(d.Name) == name {
				return a.typeTarget(d.Name)
			}
		case *ast.NewtypeDecl:
			if ast.PlainName(d.Name) == name {
				return a.typeTarget(d.Name)
			}
		}
	}
	for _, d := range m.AST.Decls {
		if im, ok := d.(*ast.ImportDecl); ok && im.Pub {
			for _, n := range im.Names {
				if n.Name == name {
					return a.importTarget(a.moduleNamed(ast.PathString(im.Path)), name, depth+1)
				}
			}
		}
	}
	return nil
}

// within reports whether n lies inside p (by span, p not n).
func within(n, p ast.Node) bool {
	if _, ok := p.(*ast.File); ok {
		return true
	}
	ns, ps := n.Span(), p.Span()
	return n != p && ns.Start >= ps.Start && ns.End <= ps.End
}

func (a *Analysis) visit(n ast.Node) {
	info := a.Info
	switch n := n.(type) {
	case *ast.FnDecl:
		if info != nil {
			if sig := info.Funcs[n]; sig != nil {
				a.add(n.NameSpan, a.funcTarget(sig), true)
			}
		}
	case *ast.TypeDecl:
		a.add(n.NameSpan, a.typeTarget(n.Name), true)
		for _, v := range n.Variants {
			if info != nil && a.decls[n.Name] == ast.Decl(n) {
				if def := info.TypeDefs[n.Name]; def != nil {
					for _, ct := range def.Ctors {
						if ct.Name == v.Name {
							a.add(a.nameSpan(ast.PlainName(v.Name), v.Span().Start, v.Span().End), a.ctorTarget(ct), true)
						}
					}
				}
			}
		}
		if info != nil && a.decls[n.Name] == ast.Decl(n) {
			for _, f := range n.Fields {
				if t := a.fieldTarget(info.TypeDefs[n.Name], f.Name); t != nil {
					a.add(t.DeclSpan, t, true)
				}
			}
		}
		for _, p := range n.Params {
			a.add(a.nameSpan(p, n.NameSpan.End, n.Span().End), a.typeNameTarget(p, n), true)
		}
	case *ast.NewtypeDecl:
		a.add(n.NameSpan, a.typeTarget(n.Name), true)
		if info != nil && a.decls[n.Name] == ast.Decl(n) {
			if def := info.TypeDefs[n.Name]; def != nil && len(def.Ctors) == 1 {
				if t := a.ctorTarget(def.Ctors[0]); t != nil {
					a.add(t.DeclSpan, t, true)
				}
			}
		}
	case *ast.NamedType:
		parts := strings.Split(n.Name, ".")
		plain := ast.PlainName(parts[len(parts)-1])
		a.add(a.nameSpan(plain, n.Span().Start, n.Span().End), a.typeNameTarget(n.Name, n), false)
	case *ast.Param:
		if info != nil {
			if o := info.Defs[n]; o != nil {
				t := a.objTarget(o)
				a.add(t.DeclSpan, t, true)
			}
			if fd, ok := a.parent[n].(*ast.FnDecl); ok && n.Label != "" && n.Label != n.Name {
				if sig := info.Funcs[fd]; sig != nil {
					for i, p := range fd.Params {
						if p == n && i < len(sig.Params) {
							t := a.labelTarget(sig, i)
							a.add(t.DeclSpan, t, true)
						}
					}
				}
			}
		}
	case *ast.BindPat, *ast.TypedPat:
		if info != nil {
			if o := info.Defs[n]; o != nil {
				t := a.objTarget(o)
				a.add(t.DeclSpan, t, true)
			}
		}
	case *ast.Ident:
		if info != nil {
			// An imported name written qualified (`s.area`) is one Ident
			// over the whole text: the name is its end.
			sp := n.Span()
			if plain := ast.PlainName(n.Name); sp.End-sp.Start > len(plain) {
				sp.Start = sp.End - len(plain)
				// The qualifier is the module (`s.` or `geo.shapes.`).
				if i := strings.Index(n.Name, ast.ModuleSep); i >= 0 && sp.Start-1 > n.Span().Start {
					mod := strings.ReplaceAll(n.Name[i+len(ast.ModuleSep):], "/", ".")
					a.add(source.Span{Start: n.Span().Start, End: sp.Start - 1}, a.userModule(mod), false)
				}
			}
			a.add(sp, a.objTarget(info.Uses[n]), false)
		}
	case *ast.Path:
		a.path(n)
	case *ast.CtorPat:
		if info != nil {
			if o := info.Uses[n]; o != nil {
				parts := strings.Split(n.Name, ".")
				last := ast.PlainName(parts[len(parts)-1])
				from := n.Span().Start
				if len(parts) == 2 {
					ts := a.nameSpan(ast.PlainName(parts[0]), n.Span().Start, n.Span().End)
					a.add(ts, a.typeNameTarget(parts[0], n), false)
					from = max(from, ts.End)
				}
				a.add(a.nameSpan(last, from, n.Span().End), a.objTarget(o), false)
			}
		}
	case *ast.FieldAccess:
		if info != nil {
			if nt, ok := types.Resolve(info.TypeOf(n.X)).(*types.Named); ok {
				sp := n.Span()
				a.add(source.Span{Start: sp.End - len(n.Name), End: sp.End}, a.fieldTarget(nt.Def, n.Name), false)
			}
		}
	case *ast.Call:
		a.callLabels(n)
	case *ast.RecordUpdate:
		if info != nil {
			if nt, ok := types.Resolve(info.TypeOf(n.X)).(*types.Named); ok {
				for _, f := range n.Fields {
					if f.Label != "" {
						a.add(a.nameSpan(f.Label, f.Span().Start, f.Span().End), a.fieldTarget(nt.Def, f.Label), false)
					}
				}
			}
		}
	}
}

func (a *Analysis) path(n *ast.Path) {
	if a.Info == nil {
		return
	}
	o := a.Info.Uses[n]
	if o == nil {
		return
	}
	sp := n.Span()
	last := ast.PlainName(n.Parts[len(n.Parts)-1])
	lastSpan := source.Span{Start: sp.End - len(last), End: sp.End}
	switch o.Kind {
	case types.ObjBuiltin:
		a.add(source.Span{Start: sp.Start, End: sp.Start + len(n.Parts[0])}, a.moduleTarget(n.Parts[0]), false)
		a.add(lastSpan, a.builtinTarget(o.Builtin), false)
	case types.ObjCtor:
		if len(n.Parts) == 2 {
			// `Shape.Circle`, or through a module `s.Shape.Circle`.
			tn := ast.PlainName(n.Parts[0])
			end := lastSpan.Start - 1
			a.add(source.Span{Start: end - len(tn), End: end}, a.typeNameTarget(n.Parts[0], n), false)
		}
		a.add(lastSpan, a.objTarget(o), false)
	default:
		a.add(lastSpan, a.objTarget(o), false)
	}
}

func (a *Analysis) moduleTarget(name string) *Target {
	for _, m := range builtins.Modules() {
		if m == name {
			return a.target("module:"+name, func() *Target { return &Target{Kind: KModule, Name: name} })
		}
	}
	return nil
}

// callLabels indexes the labels written at a call: a user function's
// parameter labels and a record constructor's field names.
func (a *Analysis) callLabels(n *ast.Call) {
	if a.Info == nil {
		return
	}
	o := a.Info.Uses[n.Fn]
	if o == nil {
		return
	}
	for _, arg := range n.Args {
		if arg.Label == "" {
			continue
		}
		sp := a.nameSpan(arg.Label, arg.Span().Start, arg.Span().End)
		switch {
		case o.Kind == types.ObjFunc && o.Func != nil:
			for i, p := range o.Func.Params {
				if p.Label == arg.Label {
					a.add(sp, a.labelTarget(o.Func, i), false)
				}
			}
		case o.Kind == types.ObjCtor && o.Ctor != nil:
			a.add(sp, a.fieldTarget(o.Ctor.Def, arg.Label), false)
		}
	}
}

func (a *Analysis) labelTarget(sig *types.FuncSig, i int) *Target {
	return a.target(fmt.Sprintf("label:%p:%d", sig, i), func() *Target {
		t := &Target{Kind: KLabel, Name: sig.Params[i].Label, Sig: sig, Param: i}
		if i < len(sig.Decl.Params) {
			p := sig.Decl.Params[i]
			t.Decl = p
			t.DeclSpan = a.nameSpan(t.Name, p.Span().Start, p.Span().End)
		}
		return t
	})
}

// ---------------------------------------------------------------- queries

// At returns the name occurrence at byte offset off (a cursor just after
// a name also counts), or nil.
func (a *Analysis) At(off int) *Occ {
	a.ready()
	i := sort.Search(len(a.occs), func(i int) bool { return a.occs[i].Span.End >= off })
	var best *Occ
	for ; i < len(a.occs) && a.occs[i].Span.Start <= off; i++ {
		o := a.occs[i]
		if o.Span.Start <= off && off <= o.Span.End {
			if best == nil || o.Span.Start <= off && off < o.Span.End {
				best = o
			}
		}
	}
	return best
}

// Occurrences returns every name occurrence, in source order.
func (a *Analysis) Occurrences() []*Occ {
	a.ready()
	return a.occs
}

// References returns every occurrence of t (its declaration included), in
// source order.
func (a *Analysis) References(t *Target) []*Occ {
	a.ready()
	var out []*Occ
	for _, o := range a.occs {
		if o.Target.Key == t.Key {
			out = append(out, o)
		}
	}
	return out
}

// TypeAt returns the innermost expression containing off and its type.
func (a *Analysis) TypeAt(off int) (ast.Expr, types.Type) {
	if a.Info == nil {
		return nil, nil
	}
	var best ast.Expr
	for e := range a.Info.Types {
		sp := e.Span()
		if sp.Start <= off && off <= sp.End && (best == nil || sp.End-sp.Start < best.Span().End-best.Span().Start) {
			best = e
		}
	}
	if best == nil {
		return nil, nil
	}
	return best, a.Info.Types[best]
}

// Node returns the innermost node containing off.
func (a *Analysis) Node(off int) ast.Node {
	a.ready()
	var best ast.Node
	for n := range a.parent {
		sp := n.Span()
		if sp.Start <= off && off <= sp.End && (best == nil || sp.End-sp.Start <= best.Span().End-best.Span().Start) {
			best = n
		}
	}
	return best
}

// Parent returns the parent of n in the tree.
func (a *Analysis) Parent(n ast.Node) ast.Node {
	a.ready()
	return a.parent[n]
}

// FuncAt returns the top-level function whose span contains off.
func (a *Analysis) FuncAt(off int) *ast.FnDecl {
	if a.AST == nil {
		return nil
	}
	for _, d := range a.AST.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && fd.Span().Start <= off && off <= fd.Span().End {
			return fd
		}
	}
	return nil
}

// Scope returns the locals visible at off, innermost binding first for
// each name (shadowed bindings are left out).
func (a *Analysis) Scope(off int) []*types.Object {
	a.ready()
	if a.Info == nil {
		return nil
	}
	fd := a.FuncAt(off)
	if fd == nil {
		return nil
	}
	type cand struct {
		o     *types.Object
		start int
	}
	best := map[string]cand{}
	fs := fd.Span()
	for n, o := range a.Info.Defs {
		sp := n.Span()
		if sp.Start < fs.Start || sp.End > fs.End || o.Kind != types.ObjLocal {
			continue
		}
		lo, hi, ok := a.scopeOf(n)
		if !ok || off < lo || off > hi {
			continue
		}
		if c, seen := best[o.Name]; !seen || sp.Start > c.start {
			best[o.Name] = cand{o, sp.Start}
		}
	}
	out := make([]*types.Object, 0, len(best))
	for _, c := range best {
		out = append(out, c.o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// scopeOf returns the byte range in which the binding site n is visible.
func (a *Analysis) scopeOf(n ast.Node) (int, int, bool) {
	child := n
	for p := a.parent[n]; p != nil; child, p = p, a.parent[p] {
		switch p := p.(type) {
		case *ast.FnDecl:
			if p.Body == nil {
				return 0, 0, false
			}
			return p.Body.Span().Start, p.Span().End, true
		case *ast.Lambda:
			return spanOfNode(p.Body).Start, p.Span().End, true
		case *ast.Arm:
			return child.Span().End, p.Span().End, true
		case *ast.For:
			return spanOfNode(p.Body).Start, p.Span().End, true
		case *ast.WithStep:
			if w, ok := a.parent[p].(*ast.With); ok {
				return p.Span().End, spanOfNode(w.Body).End, true
			}
		case *ast.LetStmt:
			if child == p.Pattern {
				// Visible after the statement, to the end of the block.
				if b, ok := a.parent[p].(*ast.Block); ok {
					return p.Span().End, b.Span().End, true
				}
				if fd, ok := a.parent[p].(*ast.FnDecl); ok {
					return p.Span().End, fd.Span().End, true
				}
				return p.Span().End, p.Span().End, true
			}
		}
	}
	return 0, 0, false
}

func spanOfNode(n ast.Node) source.Span {
	if ast.IsNil(n) {
		return source.Span{}
	}
	return n.Span()
}

// Funcs returns the document's top-level functions in declaration order.
func (a *Analysis) Funcs() []*types.FuncSig {
	if a.AST == nil || a.Info == nil {
		return nil
	}
	var out []*types.FuncSig
	for _, d := range a.AST.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && a.InDoc(fd.Span()) {
			if sig := a.Info.Funcs[fd]; sig != nil && sig.Decl == fd {
				out = append(out, sig)
			}
		}
	}
	return out
}

// TypeDecls returns the document's type declarations (first of each name).
func (a *Analysis) TypeDecls() []ast.Decl {
	a.ready()
	if a.AST == nil {
		return nil
	}
	var out []ast.Decl
	for _, d := range a.AST.Decls {
		if !a.InDoc(d.Span()) {
			continue
		}
		switch d := d.(type) {
		case *ast.TypeDecl:
			if a.decls[d.Name] == ast.Decl(d) {
				out = append(out, d)
			}
		case *ast.NewtypeDecl:
			if a.decls[d.Name] == ast.Decl(d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// FuncByName returns the signature of the file's function called name.
func (a *Analysis) FuncByName(name string) *types.FuncSig {
	for _, s := range a.Funcs() {
		if s.Name == name {
			return s
		}
	}
	return nil
}
