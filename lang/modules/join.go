package modules

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Single reports whether the program is one file: its tree is then the
// entry's own (no shifted spans, no combined text).
func (p *Program) Single() bool { return len(p.Modules) == 1 }

// join builds p.AST: the declarations of every module in dependency
// order, over one combined text.
func (p *Program) join() {
	if p.Single() {
		f := *p.Entry.AST
		f.Decls = withoutImports(f.Decls)
		p.AST, p.Combined = &f, p.Entry.File
		return
	}
	// The text is laid out in import order, the entry first, so the
	// entry's spans in the joined tree are its own file's offsets (the
	// editor server and the REPL read the entry's nodes); the
	// declarations come in dependency order.
	files := make([]*source.File, len(p.Order))
	for i, m := range p.Order {
		files[i] = m.File
	}
	comb, bases := source.Combine(p.Entry.Display, files)
	p.Combined = comb
	for i, m := range p.Order {
		m.base = bases[i]
		if m.base != 0 {
			shift(reflect.ValueOf(m.AST), m.base, map[uintptr]bool{})
		}
	}
	out := &ast.File{Pos: ast.Pos{S: source.Span{Start: 0, End: len(comb.Src)}}, Src: comb}
	for _, m := range p.Modules {
		out.Decls = append(out.Decls, withoutImports(m.AST.Decls)...)
	}
	p.AST = out
}

func withoutImports(ds []ast.Decl) []ast.Decl {
	out := make([]ast.Decl, 0, len(ds))
	for _, d := range ds {
		switch d.(type) {
		case *ast.ImportDecl, *ast.ModuleDecl:
			continue
		}
		out = append(out, d)
	}
	return out
}

var spanType = reflect.TypeOf(source.Span{})
var fileType = reflect.TypeOf(source.File{})

// shift adds base to every span of a tree.
func shift(v reflect.Value, base int, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type().Elem() == fileType || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		shift(v.Elem(), base, seen)
	case reflect.Interface:
		if !v.IsNil() {
			shift(v.Elem(), base, seen)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			shift(v.Index(i), base, seen)
		}
	case reflect.Struct:
		shiftStruct(v, base, seen)
	}
}

// shiftStruct adds base to a span, or to the spans under a struct's
// settable fields and its pointer, interface and slice fields.
func shiftStruct(v reflect.Value, base int, seen map[uintptr]bool) {
	if v.Type() == spanType {
		if v.CanSet() {
			v.Set(reflect.ValueOf(source.Span{Start: int(v.Field(0).Int()) + base, End: int(v.Field(1).Int()) + base}))
		}
		return
	}
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.CanSet() || f.Kind() == reflect.Pointer || f.Kind() == reflect.Interface || f.Kind() == reflect.Slice {
			shift(f, base, seen)
		}
	}
}

// ownName drops a module's suffix from its global names in s (suffix is
// Sep and the module's path), leaving names of other modules alone.
func ownName(s, suffix string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, suffix)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(suffix)
		if end < len(s) && (isPathByte(s[end])) {
			// a longer module path (geo/shapes vs geo/shapes2): keep it
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:i])
		}
		s = s[end:]
	}
}

func isPathByte(c byte) bool {
	return c == '/' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Demangle is ast.Qualified.
func Demangle(s string) string { return ast.Qualified(s) }

// MapDiags moves diagnostics on the combined text to the files they
// belong to, shows mangled names qualified, and orders them by file in
// import order, then by position.
func (p *Program) MapDiags(l diag.List) diag.List {
	byFile := map[*source.File]*Module{}
	for _, m := range p.Modules {
		byFile[m.File] = m
	}
	for _, d := range l {
		if p.Combined != nil && d.File == p.Combined && len(p.Combined.Parts()) > 0 {
			p.locate(d)
		}
		demangleDiag(d, byFile[d.File])
	}
	p.sortDiags(l)
	return l
}

// locate moves a diagnostic on the combined text to the file it falls
// in; related spans in other files become notes.
func (p *Program) locate(d *diag.Diagnostic) {
	f, off := p.Combined.Locate(d.Span.Start)
	delta := d.Span.Start - off
	d.File = f
	d.Span = source.Span{Start: off, End: max(off, d.Span.End-delta)}
	var rel []diag.Related
	for _, r := range d.Related {
		rf, roff := p.Combined.Locate(r.Span.Start)
		if rf == f {
			rel = append(rel, diag.Related{Span: source.Span{Start: roff, End: r.Span.End - (r.Span.Start - roff)}, Message: r.Message})
			continue
		}
		pos := rf.Position(roff)
		d.Notes = append(d.Notes, fmt.Sprintf("%s (%s:%d)", Demangle(r.Message), rf.Name, pos.Line))
	}
	d.Related = rel
}

// demangleDiag shows the global names in a diagnostic's texts: in its
// own module's file (m, nil for none) a name shows as written there
// (`helper`); names of other modules show qualified.
func demangleDiag(d *diag.Diagnostic, m *Module) {
	own := Demangle
	if m != nil && !m.Entry {
		suffix := Sep + strings.ReplaceAll(m.Name, ".", "/")
		own = func(s string) string {
			return Demangle(ownName(s, suffix))
		}
	}
	d.Message = own(d.Message)
	d.Label = own(d.Label)
	d.Hint = own(d.Hint)
	for i := range d.Notes {
		d.Notes[i] = own(d.Notes[i])
	}
	for i := range d.Related {
		d.Related[i].Message = own(d.Related[i].Message)
	}
}

// sortDiags orders diagnostics by file in import order (files outside
// the program last), then by position, then by code.
func (p *Program) sortDiags(l diag.List) {
	ranks := map[*source.File]int{}
	for i, m := range p.Order {
		ranks[m.File] = i
	}
	fileRank := func(f *source.File) int {
		if r, ok := ranks[f]; ok {
			return r
		}
		return len(p.Order)
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if ra, rb := fileRank(a.File), fileRank(b.File); ra != rb {
			return ra < rb
		}
		if a.Span.Start != b.Span.Start {
			return a.Span.Start < b.Span.Start
		}
		return a.Code < b.Code
	})
}
