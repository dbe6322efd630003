// Package modules is Morrow's module loader (docs/modules.md): it reads
// the entry file and, transitively, every module it imports, each file
// once, from the project root; it resolves the names every module uses
// (qualified, aliased, selective and re-exported imports, visibility);
// and it joins the modules into one syntax tree for the checker and the
// code generator.
//
// The joined tree keeps one offset space: the texts of all files are
// concatenated into one source.File (source.Combine), each module's spans
// are shifted to its part, and every top-level name of a module other
// than the entry is renamed to a mangled global name (`area·geo/shapes`)
// that no source name can spell. References are rewritten to those names
// by the module's own scope (locals shadow imports), so the single-file
// checker and code generator check and compile a many-file program
// unchanged, in time linear in its total size: every module is parsed,
// resolved and checked once. Diagnostics are mapped back to the file they
// belong to (Program.MapDiags), and mangled names in their text are shown
// as module-qualified names (`geo.shapes.area`).
//
// All commands load programs through this package (lang/compiler calls
// it), so `morrowc check|build`, `morrow run`, the fixture harness, the
// REPL and the editor server follow imports the same way. Unsaved editor
// buffers are passed as Options.Overlay.
package modules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
)

// Limits of a program (docs/modules.md).
const (
	MaxFiles      = 128
	MaxFileBytes  = source.MaxBytes
	MaxTotalBytes = 8 << 20
)

// Diagnostic codes of the loader and the resolver.
var (
	ErrModuleNotFound = diag.Register("E7002", "an imported module has no file under the project root, or its file cannot be read")
	ErrImportCycle    = diag.Register("E7003", "modules import each other in a cycle")
	ErrModuleLine     = diag.Register("E7004", "a `module` line does not match the file's path from the project root")
	ErrModuleAmbig    = diag.Register("E7005", "both `x.mr` and `x/mod.mr` exist for an imported module")
	ErrModuleLimit    = diag.Register("E7006", "a program has more than 128 files or 8 MiB of source")
	ErrModuleEscape   = diag.Register("E7007", "an import leads outside the project root (through a symlink) or names a builtin module")
	ErrPrivate        = diag.Register("E7008", "a private name of another module is used")
	ErrNoExport       = diag.Register("E7009", "a module has no public name of that name")
	ErrImportClash    = diag.Register("E7010", "a name imported unqualified clashes with a declaration, another import or a builtin")
	ErrExposePrivate  = diag.Register("E7011", "a public function's signature mentions a private type")
	ErrImportForm     = diag.Register("E7012", "an import is misplaced or a `pub import` re-exports no names")
	WarnUnusedImport  = diag.Register("W7001", "an import is never used (warning)")
	WarnDupImport     = diag.Register("W7002", "the same import is written twice (warning)")
)

// Options adjust loading.
type Options struct {
	// Overlay holds file contents that take precedence over the disk,
	// by absolute cleaned path (an editor's unsaved buffers).
	Overlay map[string][]byte
	// Root, when set, is the project root (`morrowc check DIR`); the
	// entry's module name is its path from there. Otherwise the root is
	// found from the entry's `module` line.
	Root string
	// Library marks the entry as a module of a larger program (checked
	// on its own by `morrowc check DIR`): its names are checked like any
	// imported module's, and it needs no main.
	Library bool
	// Parse, when set, replaces parser.Parse (the compiler passes one
	// that turns a panic into an internal error).
	Parse func(*source.File) (*ast.File, diag.List)
}

// Module is one file of a program.
type Module struct {
	Name    string // dotted module name; "" for an entry without a module line outside a root
	Rel     string // path from the project root, with slashes
	Abs     string // absolute path
	Display string // path shown in diagnostics (relative to where the user ran the command)
	File    *source.File
	AST     *ast.File
	Entry   bool

	imports []*ast.ImportDecl
	deps    []*Module // parallel to imports; nil where the import failed
	state   int       // 0 unvisited, 1 on the DFS stack, 2 done
	base    int       // offset of the file in the combined text

	sc      *scope
	exports *scope
}

// Program is a loaded program.
type Program struct {
	Root    string
	Entry   *Module
	Modules []*Module // dependency order: a module after every module it imports
	Order   []*Module // import order (the entry first), for grouping diagnostics
	Diags   diag.List // loader, parser and resolver diagnostics
	// Combined is the joined text of every module; AST is the joined tree
	// (set by Resolve when there are no errors).
	Combined *source.File
	AST      *ast.File

	opts     Options
	byAbs    map[string]*Module
	total    int
	tooMany  bool
	entryIn  string // the entry path as given
	realRoot string // Root with symlinks followed
}

// Load reads the entry file (src, or from disk when src is nil) and every
// module it imports. Problems are in Program.Diags; the error result is
// for nothing but a read failure of the entry itself.
func Load(entry string, src []byte, opts Options) (*Program, error) {
	p := &Program{opts: opts, byAbs: map[string]*Module{}, entryIn: entry}
	abs, err := filepath.Abs(entry)
	if err != nil {
		return nil, err
	}
	if src == nil {
		if b, ok := opts.Overlay[abs]; ok {
			src = b
		} else if src, err = source.ReadFileLimited(entry, MaxFileBytes); err != nil {
			return nil, err
		}
	}
	m := &Module{Abs: abs, Display: entry, Entry: true}
	p.parse(m, src)
	p.Entry = m
	p.byAbs[abs] = m
	p.total = len(src)
	p.findRoot(m)
	p.visit(m, nil)
	p.Order = p.importOrder()
	return p, nil
}

// parse reads a module's text into its tree.
func (p *Program) parse(m *Module, src []byte) {
	m.File = source.NewFile(m.Display, src)
	parse := p.opts.Parse
	if parse == nil {
		parse = parser.Parse
	}
	var dl diag.List
	m.AST, dl = parse(m.File)
	p.Diags = append(p.Diags, dl...)
	for _, d := range m.AST.Decls {
		if im, ok := d.(*ast.ImportDecl); ok {
			m.imports = append(m.imports, im)
		}
	}
	p.checkPlacement(m)
}

// checkPlacement reports a module line that is not first, or an import
// after another declaration.
func (p *Program) checkPlacement(m *Module) {
	other := false
	for i, d := range m.AST.Decls {
		switch d := d.(type) {
		case *ast.ModuleDecl:
			if i != 0 {
				p.Diags.Add(m.File, ErrImportForm, d.Span(), "the module line must come before every other declaration")
			}
		case *ast.ImportDecl:
			if other {
				p.Diags.Add(m.File, ErrImportForm, d.Span(), "imports must come before the other declarations").Hint =
					"move the import up, after the optional module line"
			}
		default:
			other = true
		}
	}
}

func moduleLine(m *Module) *ast.ModuleDecl {
	for _, d := range m.AST.Decls {
		if md, ok := d.(*ast.ModuleDecl); ok {
			return md
		}
	}
	return nil
}

// findRoot sets the project root and the entry's module name.
func (p *Program) findRoot(m *Module) {
	dir := filepath.Dir(m.Abs)
	base := strings.TrimSuffix(filepath.Base(m.Abs), ".mr")
	if p.opts.Root != "" {
		root, _ := filepath.Abs(p.opts.Root)
		p.Root = root
		rel, err := filepath.Rel(root, m.Abs)
		if err == nil {
			m.Rel = filepath.ToSlash(rel)
			m.Name = nameOf(m.Rel)
		}
		p.checkModuleLine(m)
		return
	}
	md := moduleLine(m)
	if md == nil {
		p.Root = dir
		m.Rel = filepath.Base(m.Abs)
		if !m.Entry {
			m.Name = base
		}
		return
	}
	up := len(md.Path) - 1
	if base == "mod" {
		up++
	}
	root := dir
	for i := 0; i < up; i++ {
		root = filepath.Dir(root)
	}
	p.Root = root
	rel, _ := filepath.Rel(root, m.Abs)
	m.Rel = filepath.ToSlash(rel)
	m.Name = ast.PathString(md.Path)
	p.checkModuleLine(m)
}

// nameOf turns a root-relative path into a module name.
func nameOf(rel string) string {
	rel = strings.TrimSuffix(rel, ".mr")
	rel = strings.TrimSuffix(rel, "/mod")
	if rel == "mod" {
		return ""
	}
	return strings.ReplaceAll(rel, "/", ".")
}

// checkModuleLine reports a module line that does not match the path.
func (p *Program) checkModuleLine(m *Module) {
	md := moduleLine(m)
	if md == nil {
		return
	}
	if got := ast.PathString(md.Path); got != nameOf(m.Rel) {
		p.Diags.Add(m.File, ErrModuleLine, md.Span(), "module declaration '%s' does not match file path '%s'", got, m.Rel).Hint =
			"a module's name is its path from the project root: write `module " + nameOf(m.Rel) + "` or move the file"
	}
}

// visit loads the imports of m depth-first, detecting cycles; stack
// holds the imports that led to m.
func (p *Program) visit(m *Module, stack []step) {
	m.state = 1
	m.deps = make([]*Module, len(m.imports))
	for i, im := range m.imports {
		dep := p.resolveImport(m, im)
		if dep == nil {
			continue
		}
		m.deps[i] = dep
		switch dep.state {
		case 1:
			p.cycle(append(stack, step{m, im}), dep)
		case 0:
			p.visit(dep, append(stack, step{m, im}))
		}
	}
	m.state = 2
	p.Modules = append(p.Modules, m)
}

type step struct {
	from *Module
	imp  *ast.ImportDecl
}

// cycle reports an import cycle closed by the last step of stack, which
// imports dep (already on the stack).
func (p *Program) cycle(stack []step, dep *Module) {
	start := 0
	for i, s := range stack {
		if s.from == dep {
			start = i
		}
	}
	steps := stack[start:]
	names := []string{modName(dep)}
	for _, s := range steps {
		names = append(names, ast.PathString(s.imp.Path))
	}
	last := steps[len(steps)-1]
	d := p.Diags.Add(last.from.File, ErrImportCycle, last.imp.PathSpan, "import cycle: %s", strings.Join(names, " -> "))
	for _, s := range steps {
		pos := s.from.File.Position(s.imp.Span().Start)
		d.Notes = append(d.Notes, fmt.Sprintf("%s:%d: %s imports %s", s.from.Display, pos.Line, modName(s.from), ast.PathString(s.imp.Path)))
	}
	d.Hint = "move what both modules need into a third module that both import"
}

func modName(m *Module) string {
	if m.Name == "" {
		return strings.TrimSuffix(filepath.Base(m.Rel), ".mr")
	}
	return m.Name
}

// resolveImport finds, reads and parses the module an import names.
func (p *Program) resolveImport(from *Module, im *ast.ImportDecl) *Module {
	name := ast.PathString(im.Path)
	if !p.importablePath(from, im, name) {
		return nil
	}
	abs, rel, ok := p.moduleFile(from, im, name)
	if !ok {
		return nil
	}
	if m := p.byAbs[abs]; m != nil {
		return m
	}
	src, ok := p.readModule(from, im, name, abs, rel)
	if !ok {
		return nil
	}
	p.total += len(src)
	m := &Module{Name: name, Rel: rel, Abs: abs, Display: p.display(rel)}
	p.byAbs[abs] = m
	p.parse(m, src)
	p.checkModuleLine(m)
	return m
}

// importablePath reports an import of a builtin module or of a `mod`
// file by its own name; it returns false after such an error.
func (p *Program) importablePath(from *Module, im *ast.ImportDecl, name string) bool {
	if types.BuiltinModule(im.Path[0]) {
		p.Diags.Add(from.File, ErrModuleEscape, im.PathSpan, "'%s' is a builtin module; it needs no import", im.Path[0]).Hint =
			"builtin modules (List, String, Map, Process, ...) are always available, qualified"
		return false
	}
	if n := len(im.Path); n > 1 && im.Path[n-1] == "mod" {
		p.Diags.Add(from.File, ErrModuleNotFound, im.PathSpan, "%s is not a module name: %s/mod.mr is the module %s", name, strings.Join(im.Path[:n-1], "/"), ast.PathString(im.Path[:n-1])).Hint =
			"import " + ast.PathString(im.Path[:n-1])
		return false
	}
	return true
}

// moduleFile finds the file of an imported module (a/b.mr or a/b/mod.mr),
// reporting a missing or ambiguous one; ok is false after an error.
func (p *Program) moduleFile(from *Module, im *ast.ImportDecl, name string) (abs, rel string, ok bool) {
	relFile := strings.Join(im.Path, "/") + ".mr"
	relMod := strings.Join(im.Path, "/") + "/mod.mr"
	fileAbs := filepath.Join(p.Root, filepath.FromSlash(relFile))
	modAbs := filepath.Join(p.Root, filepath.FromSlash(relMod))
	hasFile, hasMod := p.exists(fileAbs), p.exists(modAbs)
	switch {
	case hasFile && hasMod:
		p.Diags.Add(from.File, ErrModuleAmbig, im.PathSpan, "module %s is both %s and %s", name, p.display(relFile), p.display(relMod)).Hint =
			"keep one of the two files"
		return "", "", false
	case hasFile:
		return fileAbs, relFile, true
	case hasMod:
		return modAbs, relMod, true
	}
	d := p.Diags.Add(from.File, ErrModuleNotFound, im.PathSpan, "module %s not found", name)
	d.Notes = []string{"tried " + p.display(relFile) + " and " + p.display(relMod)}
	d.Hint = "a module's file is its dotted name as a path from the project root (" + p.displayDir() + ")"
	return "", "", false
}

// readModule reads the source of a module not loaded yet, reporting a
// file outside the root, an unreadable file and the program's limits;
// ok is false after an error.
func (p *Program) readModule(from *Module, im *ast.ImportDecl, name, abs, rel string) (src []byte, ok bool) {
	if !p.inside(abs) {
		p.Diags.Add(from.File, ErrModuleEscape, im.PathSpan, "module %s leads outside the project root (%s)", name, p.display(rel)).Hint =
			"a symlink under the project root points elsewhere; imports stay inside the root"
		return nil, false
	}
	if len(p.byAbs) >= MaxFiles {
		if !p.tooMany {
			p.tooMany = true
			p.Diags.Add(from.File, ErrModuleLimit, im.PathSpan, "the program has more than %d files (the limit of files per program)", MaxFiles)
		}
		return nil, false
	}
	src, ok = p.opts.Overlay[abs]
	if !ok {
		var err error
		src, err = source.ReadFileLimited(abs, MaxFileBytes)
		if err != nil {
			p.Diags.Add(from.File, ErrModuleNotFound, im.PathSpan, "module %s cannot be read: %v", name, unwrapPath(err))
			return nil, false
		}
	}
	if p.total+len(src) > MaxTotalBytes {
		p.Diags.Add(from.File, ErrModuleLimit, im.PathSpan, "the program's source is larger than the 8 MiB limit of a program (at module %s)", name)
		return nil, false
	}
	return src, true
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func (p *Program) exists(abs string) bool {
	if _, ok := p.opts.Overlay[abs]; ok {
		return true
	}
	st, err := os.Stat(abs)
	return err == nil && !st.IsDir()
}

// inside reports whether abs, with symlinks followed, stays in the root.
func (p *Program) inside(abs string) bool {
	if p.realRoot == "" {
		var err error
		if p.realRoot, err = filepath.EvalSymlinks(p.Root); err != nil {
			p.realRoot = p.Root
		}
	}
	root := p.realRoot
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		_, overlay := p.opts.Overlay[abs]
		return overlay
	}
	rel, err := filepath.Rel(root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// display names a root-relative path the way diagnostics show it:
// relative to where the entry was given from.
func (p *Program) display(rel string) string {
	entryDir := filepath.Dir(p.entryIn)
	rootAbs := p.Root
	entryAbs := filepath.Dir(p.Entry.Abs)
	// The root is the entry's directory or one of its ancestors.
	up, _ := filepath.Rel(entryAbs, rootAbs)
	return filepath.ToSlash(filepath.Clean(filepath.Join(entryDir, up, filepath.FromSlash(rel))))
}

func (p *Program) displayDir() string {
	d := p.display(".")
	if d == "." {
		return "the entry file's directory"
	}
	return d
}

// importOrder lists the modules in the order their imports are first met
// from the entry (the entry first).
func (p *Program) importOrder() []*Module {
	seen := map[*Module]bool{}
	var out []*Module
	var walk func(m *Module)
	walk = func(m *Module) {
		if m == nil || seen[m] {
			return
		}
		seen[m] = true
		out = append(out, m)
		for _, d := range m.deps {
			walk(d)
		}
	}
	walk(p.Entry)
	return out
}
