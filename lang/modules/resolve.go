package modules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
)

// Sep joins a declaration's name and its module in a mangled name
// (`area·geo/shapes`); no source name can contain it.
const Sep = ast.ModuleSep

// entity is one top-level declaration: a type, or a value (a function or
// a constructor).
type entity struct {
	name   string
	global string
	mod    *Module
	span   source.Span // of the name, in the module's own file
	pub    bool
	isType bool
	ctors  []*entity // a type's constructors
}

// binding is a name in a module's scope, and the import it came through
// (nil for the module's own declarations).
type binding struct {
	e   *entity
	imp *importUse
}

type importUse struct {
	decl *ast.ImportDecl
	used bool
}

type qual struct {
	mod *Module
	imp *importUse
}

// scope is a module's names, or (as exports) what it makes public.
type scope struct {
	types, values map[string]*binding
	quals         map[string]*qual
	own           map[string]*entity // own declarations by name, types as "type:Name"
	globs         []*Module          // modules imported with `.{*}`
}

func newScope() *scope {
	return &scope{types: map[string]*binding{}, values: map[string]*binding{}, quals: map[string]*qual{}, own: map[string]*entity{}}
}

// mangle is the global name of a module's declaration.
func mangle(m *Module, name string) string {
	if m.Entry {
		return name
	}
	return name + Sep + strings.ReplaceAll(m.Name, ".", "/")
}

// Resolve builds every module's scope in dependency order, rewrites the
// names of each tree to global names, and joins the trees into p.AST
// over p.Combined. It does nothing when loading reported errors. It
// returns the import warnings, which callers report only when the whole
// program has no errors.
func (p *Program) Resolve() diag.List {
	if p.Diags.HasErrors() {
		return nil
	}
	var warns diag.List
	for _, m := range p.Modules {
		warns = append(warns, p.resolveModule(m)...)
	}
	if p.Diags.HasErrors() {
		return nil
	}
	p.join()
	return warns
}

func (p *Program) errorf(m *Module, code diag.Code, span source.Span, format string, args ...any) *diag.Diagnostic {
	return p.Diags.Add(m.File, code, span, format, args...)
}

// declare collects a module's own declarations.
func (p *Program) declare(m *Module) {
	for _, d := range m.AST.Decls {
		switch d := d.(type) {
		case *ast.FnDecl:
			p.addValue(m, d.Name, d.NameSpan, d.Pub, "function")
		case *ast.TypeDecl:
			p.declareType(m, d)
		case *ast.NewtypeDecl:
			t := p.addType(m, d.Name, d.NameSpan, d.Pub)
			t.ctors = append(t.ctors, p.addValue(m, d.Ctor, d.NameSpan, d.Pub, "constructor"))
		}
	}
}

// declareType declares a type and the constructors of a record or sum
// type.
func (p *Program) declareType(m *Module, d *ast.TypeDecl) {
	t := p.addType(m, d.Name, d.NameSpan, d.Pub)
	switch d.Kind {
	case ast.RecordType:
		t.ctors = append(t.ctors, p.addValue(m, d.Name, d.NameSpan, d.Pub, "constructor"))
	case ast.SumType:
		for _, v := range d.Variants {
			t.ctors = append(t.ctors, p.addValue(m, v.Name, v.Span(), d.Pub, "constructor"))
		}
	}
}

// addType declares a type name of m (the first declaration of a name
// wins), reporting a name reserved for a builtin type.
func (p *Program) addType(m *Module, name string, span source.Span, pub bool) *entity {
	e := &entity{name: name, global: mangle(m, name), mod: m, span: span, pub: pub, isType: true}
	if !m.Entry && types.ReservedType(name) {
		p.errorf(m, types.ErrReservedName, span, "type name '%s' is reserved for a builtin", name)
	}
	if _, dup := m.sc.own["type:"+name]; !dup {
		m.sc.own["type:"+name] = e
		m.sc.types[name] = &binding{e: e}
	}
	return e
}

// addValue declares a function or constructor name of m (the first
// declaration of a name wins), reporting a name reserved for a builtin.
func (p *Program) addValue(m *Module, name string, span source.Span, pub bool, kind string) *entity {
	e := &entity{name: name, global: mangle(m, name), mod: m, span: span, pub: pub}
	if !m.Entry && types.ReservedValue(name) {
		p.errorf(m, types.ErrReservedName, span, "%s name '%s' is reserved for a builtin", kind, name)
	}
	if _, dup := m.sc.own[name]; !dup {
		m.sc.own[name] = e
		m.sc.values[name] = &binding{e: e}
	}
	return e
}

// resolveModule builds m's scope and exports, checks its public
// signatures and rewrites its tree.
func (p *Program) resolveModule(m *Module) diag.List {
	m.sc = newScope()
	m.exports = newScope()
	p.declare(m)
	exportOwn(m)
	var warns diag.List
	var uses []*importUse
	seenForm := map[string]bool{}
	for i, im := range m.imports {
		dep := m.deps[i]
		if dep == nil || dep.exports == nil {
			continue
		}
		use := &importUse{decl: im, used: im.Pub}
		uses = append(uses, use)
		form := importForm(im)
		if seenForm[form] {
			d := warns.Add(m.File, WarnDupImport, im.Span(), "%s is imported twice in the same form", ast.PathString(im.Path))
			d.Severity = diag.Warning
			d.Hint = "remove one of the two imports"
			use.used = true // reported once, as a duplicate
		}
		seenForm[form] = true
		if im.Selective {
			p.importNames(m, im, dep, use)
		} else {
			p.importQualified(m, im, dep, use)
		}
	}
	p.checkSignatures(m)
	r := &rewriter{p: p, m: m}
	r.file()
	warnUnused(m, uses, &warns)
	return warns
}

// exportOwn puts m's public declarations into its exports.
func exportOwn(m *Module) {
	for _, e := range m.sc.own {
		if !e.pub {
			continue
		}
		if e.isType {
			m.exports.types[e.name] = &binding{e: e}
		} else {
			m.exports.values[e.name] = &binding{e: e}
		}
	}
}

// importQualified adds the qualifier of a plain import (`import a.b`,
// `import a.b as c`) to m's scope, reporting a pub plain import and a
// qualifier that names two modules.
func (p *Program) importQualified(m *Module, im *ast.ImportDecl, dep *Module, use *importUse) {
	if im.Pub {
		p.errorf(m, ErrImportForm, im.Span(), "pub import re-exports names: write `pub import %s.{name, ...}`", ast.PathString(im.Path))
		return
	}
	key := im.Alias
	if key == "" {
		key = ast.PathString(im.Path)
	}
	q := m.sc.quals[key]
	switch {
	case q == nil:
		m.sc.quals[key] = &qual{mod: dep, imp: use}
	case q.mod != dep:
		p.errorf(m, ErrImportClash, im.Span(), "'%s' names both %s and %s", key, modName(q.mod), modName(dep))
	default:
		use.used = true // the same qualifier again (`import a` and `import a as a`)
	}
}

// importNames brings the names of a selective import (`.{a, B}` or
// `.{*}`) into m's scope, re-exporting them for a pub import.
func (p *Program) importNames(m *Module, im *ast.ImportDecl, dep *Module, use *importUse) {
	if im.All {
		m.sc.globs = append(m.sc.globs, dep)
		for _, n := range sortedKeys(dep.exports.types) {
			p.bring(m, im, use, dep.exports.types[n], im.PathSpan)
		}
		for _, n := range sortedKeys(dep.exports.values) {
			p.bring(m, im, use, dep.exports.values[n], im.PathSpan)
		}
		return
	}
	for _, n := range im.Names {
		found := false
		if b := dep.exports.types[n.Name]; b != nil {
			p.bring(m, im, use, b, n.Span())
			for _, c := range b.e.ctors {
				p.bring(m, im, use, &binding{e: c}, n.Span())
			}
			found = true
		}
		if b := dep.exports.values[n.Name]; b != nil {
			p.bring(m, im, use, b, n.Span())
			found = true
		}
		if !found {
			p.missing(m, dep, n.Name, n.Span())
		}
	}
}

// bring binds one imported name in m and re-exports it for a pub import.
func (p *Program) bring(m *Module, im *ast.ImportDecl, use *importUse, b *binding, span source.Span) {
	p.bind(m, b.e, use, span)
	if im.Pub {
		p.export(m, b.e, span)
	}
}

// warnUnused adds a warning for each import of which nothing is used.
func warnUnused(m *Module, uses []*importUse, warns *diag.List) {
	for _, u := range uses {
		if u.used {
			continue
		}
		d := warns.Add(m.File, WarnUnusedImport, u.decl.Span(), "import %s is never used", ast.PathString(u.decl.Path))
		d.Severity = diag.Warning
		d.Label = "nothing of it is used"
		d.Hint = "remove the import"
	}
}

// importForm is a key that is equal for two imports of the same form.
func importForm(im *ast.ImportDecl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %s as=%s sel=%v all=%v", im.Pub, ast.PathString(im.Path), im.Alias, im.Selective, im.All)
	for _, n := range im.Names {
		b.WriteString(" " + n.Name)
	}
	return b.String()
}

func sortedKeys(m map[string]*binding) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// bind adds an unqualified name brought by an import, reporting clashes.
func (p *Program) bind(m *Module, e *entity, use *importUse, span source.Span) {
	tab := m.sc.values
	if e.isType {
		tab = m.sc.types
	}
	prev := tab[e.name]
	switch {
	case prev == nil:
		if !e.isType && types.ReservedValue(e.name) || e.isType && types.ReservedType(e.name) {
			p.errorf(m, ErrImportClash, span, "'%s' is imported from %s and is a builtin", e.name, modName(e.mod))
			return
		}
		tab[e.name] = &binding{e: e, imp: use}
	case prev.e == e:
		if prev.imp == nil {
			return
		}
	case prev.imp == nil:
		p.errorf(m, ErrImportClash, span, "'%s' is imported from %s and declared in this module", e.name, modName(e.mod)).Hint =
			"import the module qualified (`import " + e.mod.Name + "`) or rename the declaration"
	default:
		p.errorf(m, ErrImportClash, span, "'%s' is imported from %s and from %s", e.name, modName(prev.e.mod), modName(e.mod)).Hint =
			"import one of the modules qualified, or list only the names you need"
	}
}

// export adds a re-exported name to m's exports.
func (p *Program) export(m *Module, e *entity, span source.Span) {
	tab := m.exports.values
	if e.isType {
		tab = m.exports.types
	}
	if prev := tab[e.name]; prev != nil && prev.e != e {
		p.errorf(m, ErrImportClash, span, "'%s' is exported from %s twice (from %s and %s)", e.name, modName(m), modName(prev.e.mod), modName(e.mod))
		return
	}
	tab[e.name] = &binding{e: e}
}

// missing reports a name a module does not export: private, or absent.
func (p *Program) missing(m, dep *Module, name string, span source.Span) {
	e := dep.sc.own[name]
	if e == nil {
		e = dep.sc.own["type:"+name]
	}
	if e != nil {
		pos := dep.File.Position(e.span.Start)
		d := p.errorf(m, ErrPrivate, span, "'%s' is private to %s (%s:%d)", name, modName(dep), dep.Display, pos.Line)
		d.Hint = "declare it `pub` in " + modName(dep) + " to use it from other modules"
		return
	}
	p.errorf(m, ErrNoExport, span, "module %s has no public name '%s'", modName(dep), name)
}

// checkSignatures checks that the public functions of a module that
// others import mention no private type. (That they are fully annotated
// is the checker's rule E3004, for every module.)
func (p *Program) checkSignatures(m *Module) {
	if m.Entry && !p.opts.Library {
		return
	}
	for _, d := range m.AST.Decls {
		fd, ok := d.(*ast.FnDecl)
		if !ok || !fd.Pub {
			continue
		}
		for _, pr := range fd.Params {
			if pr.Type != nil {
				p.exposes(m, fd, pr.Type)
			}
		}
		if fd.Ret != nil {
			p.exposes(m, fd, fd.Ret)
		}
	}
}

// exposes reports private types of m named in a public signature.
func (p *Program) exposes(m *Module, fd *ast.FnDecl, t ast.TypeExpr) {
	ast.Inspect(t, func(n ast.Node) bool {
		nt, ok := n.(*ast.NamedType)
		if !ok || strings.Contains(nt.Name, ".") {
			return true
		}
		if e := m.sc.own["type:"+nt.Name]; e != nil && !e.pub {
			p.errorf(m, ErrExposePrivate, nt.Span(), "public function '%s' exposes private type '%s'", fd.Name, nt.Name).Hint =
				"make '" + nt.Name + "' pub, or the function private"
		}
		return true
	})
}

func sortStrings(s []string) { sort.Strings(s) }
