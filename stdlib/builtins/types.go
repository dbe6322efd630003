package builtins

import (
	"fmt"
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/runtime/value"
)

// LanguageTypes are the type names of the language itself that
// signatures may use, with their number of type arguments. Library types
// (TypeDecl) add to them.
var LanguageTypes = map[string]int{
	"Int": 0, "Float": 0, "Bool": 0, "String": 0, "Unit": 0, "Never": 0, "Range": 0,
	"ProcessId": 0, "MonitorRef": 0, "Ordering": 0,
	"List": 1, "Option": 1, "Pid": 1, "Result": 2, "Map": 2, "Set": 1,
}

// Type is a type of the signature language:
//
//	type  = "(" [type {"," type}] ")" ["->" type]   a function, a tuple, () or a parenthesised type
//	      | name ["(" type {"," type} ")"]          a named type with its arguments
//
// A name is a language type (LanguageTypes), a library type
// ("Process.ExitReason") or a lowercase single letter, a generic
// parameter. "()" is Unit, "(t)" is t and "(t, u)" a tuple.
type Type struct {
	Name string  // a type name or generic parameter; "" for a tuple or function
	Args []*Type // type arguments, tuple elements or function parameters
	Ret  *Type   // a function's result; nil for every other type
}

// IsVar reports whether t is a generic parameter.
func (t *Type) IsVar() bool {
	return len(t.Name) == 1 && t.Name[0] >= 'a' && t.Name[0] <= 'z'
}

// String writes t in the signature language.
func (t *Type) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *Type) write(b *strings.Builder) {
	list := func(ts []*Type) {
		b.WriteByte('(')
		for i, a := range ts {
			if i > 0 {
				b.WriteString(", ")
			}
			a.write(b)
		}
		b.WriteByte(')')
	}
	switch {
	case t.Ret != nil:
		list(t.Args)
		b.WriteString(" -> ")
		t.Ret.write(b)
	case t.Name == "":
		list(t.Args)
	default:
		b.WriteString(t.Name)
		if len(t.Args) > 0 {
			list(t.Args)
		}
	}
}

// hasVar reports whether a generic parameter occurs in t.
func (t *Type) hasVar() bool {
	if t.IsVar() {
		return true
	}
	if t.Ret != nil && t.Ret.hasVar() {
		return true
	}
	for _, a := range t.Args {
		if a.hasVar() {
			return true
		}
	}
	return false
}

// check reports an unknown type name, a wrong number of type arguments,
// or (when vars is not nil) a generic parameter outside vars.
func (t *Type) check(known map[string]int, vars []string) error {
	switch {
	case t.Ret != nil:
		if err := t.Ret.check(known, vars); err != nil {
			return err
		}
	case t.Name == "":
	case t.IsVar():
		if vars != nil && !slices.Contains(vars, t.Name) {
			return fmt.Errorf("generic parameter %s is not declared", t.Name)
		}
	default:
		n, ok := known[t.Name]
		if !ok {
			return fmt.Errorf("unknown type %s", t.Name)
		}
		if n != len(t.Args) {
			return fmt.Errorf("%s takes %d type arguments, not %d", t.Name, n, len(t.Args))
		}
	}
	for _, a := range t.Args {
		if err := a.check(known, vars); err != nil {
			return err
		}
	}
	return nil
}

// ParseType parses a type of the signature language.
func ParseType(s string) (*Type, error) { return parseType(s, &typeSlabs{}) }

// parseType parses s with its nodes and lists taken from slabs, which
// may serve many parses (validateEntries parses the whole table's
// signatures from one).
func parseType(s string, slabs *typeSlabs) (*Type, error) {
	p := &typeParser{s: s, slabs: slabs}
	t := p.typ()
	p.ws()
	if p.err == nil && p.pos != len(s) {
		p.fail("unexpected text")
	}
	if p.err != nil {
		return nil, p.err
	}
	return t, nil
}

type typeParser struct {
	s     string
	pos   int
	err   error
	slabs *typeSlabs
}

// typeSlabs hands out the nodes and argument lists of parsed types from
// blocks, so that parsing the table's signatures allocates a block now
// and then instead of every node and list.
type typeSlabs struct {
	nodes []Type
	lists []*Type
}

// slabBlock bounds the size of a block; the first is small, for one
// parse.
const slabBlock = 256

func (s *typeSlabs) node(t Type) *Type {
	if len(s.nodes) == cap(s.nodes) {
		s.nodes = make([]Type, 0, min(max(8, 2*cap(s.nodes)), slabBlock))
	}
	s.nodes = append(s.nodes, t)
	return &s.nodes[len(s.nodes)-1]
}

// list copies ts into the block of lists; the result has no spare
// capacity, so appending to it never writes over another list. An empty
// list is nil.
func (s *typeSlabs) list(ts []*Type) []*Type {
	if len(ts) == 0 {
		return nil
	}
	if cap(s.lists)-len(s.lists) < len(ts) {
		s.lists = make([]*Type, 0, max(len(ts), min(max(8, 2*cap(s.lists)), slabBlock)))
	}
	start := len(s.lists)
	s.lists = append(s.lists, ts...)
	return s.lists[start:len(s.lists):len(s.lists)]
}

func (p *typeParser) fail(what string) {
	if p.err == nil {
		p.err = fmt.Errorf("bad type %q at %d: %s", p.s, p.pos, what)
	}
}

func (p *typeParser) ws() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *typeParser) eat(tok string) bool {
	p.ws()
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

// list parses the rest of a parenthesised list after its "(".
func (p *typeParser) list() []*Type {
	var buf [8]*Type
	out := buf[:0]
	if p.eat(")") {
		return nil
	}
	for p.err == nil {
		out = append(out, p.typ())
		if p.eat(")") {
			return p.slabs.list(out)
		}
		if !p.eat(",") {
			p.fail("expected , or )")
		}
	}
	return p.slabs.list(out)
}

func (p *typeParser) typ() *Type {
	if p.err != nil {
		return p.slabs.node(Type{Name: "Unit"})
	}
	if p.eat("(") {
		elems := p.list()
		if p.eat("->") {
			return p.slabs.node(Type{Args: elems, Ret: p.typ()})
		}
		switch len(elems) {
		case 0:
			return p.slabs.node(Type{Name: "Unit"})
		case 1:
			return elems[0]
		}
		return p.slabs.node(Type{Args: elems})
	}
	p.ws()
	start := p.pos
	for p.pos < len(p.s) && (isWordByte(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos++
	}
	if p.pos == start {
		p.fail("expected a type")
		return p.slabs.node(Type{Name: "Unit"})
	}
	t := p.slabs.node(Type{Name: p.s[start:p.pos]})
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		p.pos++
		t.Args = p.list()
	}
	return t
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// ---------------------------------------------------------------- library types

// TypeKind is the kind of a library type.
type TypeKind uint8

const (
	Sum    TypeKind = iota // variants, each with positional fields
	Record                 // one constructor, named like the type's last segment, with named fields
	Opaque                 // no constructors: values only the runtime makes
)

// Field is a constructor field: its name (records; "" for a positional
// field) and its type in the signature language.
type Field struct {
	Name, Type string
}

// Variant is one constructor of a library type.
type Variant struct {
	Name   string
	Fields []Field
}

// TypeDecl is one nominal type of a library module, such as
// Process.ExitReason. The checker builds its TypeDef from it and the
// runtime its value.TypeInfo (Info), so the two cannot disagree on
// variants, tag order or fields.
type TypeDecl struct {
	// Name is qualified by its module: "Process.ExitReason".
	Name string
	Kind TypeKind
	// Params are the generic parameters (lowercase single letters).
	Params []string
	// Variants are the constructors in tag order.
	Variants []Variant
	// Derives lists the capabilities the type has: Show, Eq, Ord, Clone.
	Derives []string
	// Doc is one line for the reference.
	Doc string

	info *value.TypeInfo
}

// Module is the module part of Name ("Process").
func (t *TypeDecl) Module() string {
	m, _, _ := strings.Cut(t.Name, ".")
	return m
}

// Derived reports whether t has the capability d ("Show", "Eq", ...).
func (t *TypeDecl) Derived(d string) bool { return slices.Contains(t.Derives, d) }

// Info is the run-time descriptor of t, nil for an opaque type. There is
// one per type: values the runtime builds and values a program builds
// share it.
func (t *TypeDecl) Info() *value.TypeInfo {
	if t.Kind == Opaque {
		return nil
	}
	if t.info == nil {
		panic("builtins: " + t.Name + " is not a registered type")
	}
	return t.info
}

func (t *TypeDecl) validateHead() error {
	if strings.Count(t.Name, ".") != 1 {
		return fmt.Errorf("type %s is not qualified by its module", t.Name)
	}
	for _, p := range t.Params {
		if !(&Type{Name: p}).IsVar() {
			return fmt.Errorf("type %s: bad parameter %q", t.Name, p)
		}
	}
	for _, d := range t.Derives {
		if !slices.Contains([]string{"Show", "Eq", "Ord", "Clone"}, d) {
			return fmt.Errorf("type %s: unknown capability %s", t.Name, d)
		}
	}
	switch t.Kind {
	case Opaque:
		if len(t.Variants) > 0 {
			return fmt.Errorf("opaque type %s has constructors", t.Name)
		}
	case Record:
		if len(t.Variants) != 1 {
			return fmt.Errorf("record %s needs exactly one constructor", t.Name)
		}
	case Sum:
		if len(t.Variants) == 0 {
			return fmt.Errorf("sum %s has no variants", t.Name)
		}
	}
	if t.Doc == "" {
		return fmt.Errorf("type %s has no Doc line", t.Name)
	}
	return nil
}

func (t *TypeDecl) validateFields(known map[string]int, slabs *typeSlabs) error {
	for _, v := range t.Variants {
		for _, f := range v.Fields {
			if (f.Name != "") != (t.Kind == Record) {
				return fmt.Errorf("type %s: record fields are named, variant fields positional", t.Name)
			}
			ft, err := parseType(f.Type, slabs)
			if err == nil {
				err = ft.check(known, append([]string{}, t.Params...)) // never nil: only Params are in scope
			}
			if err != nil {
				return fmt.Errorf("type %s, %s: %w", t.Name, v.Name, err)
			}
		}
	}
	if t.info == nil {
		t.info = t.buildInfo()
	}
	return nil
}

func (t *TypeDecl) buildInfo() *value.TypeInfo {
	if t.Kind == Opaque {
		return nil
	}
	ti := &value.TypeInfo{Name: t.Name, Kind: value.TSum,
		Show: t.Derived("Show"), Eq: t.Derived("Eq"), Ord: t.Derived("Ord")}
	if t.Kind == Record {
		ti.Kind = value.TRecord
	}
	for _, v := range t.Variants {
		vi := value.VariantInfo{Name: v.Name}
		for _, f := range v.Fields {
			vi.Fields = append(vi.Fields, f.Name)
		}
		ti.Variants = append(ti.Variants, vi)
	}
	return ti
}

var typeByName = map[string]*TypeDecl{}

// Types returns the library types in declaration order. They are shared:
// callers must not modify them.
func Types() []*TypeDecl { return typeTable }

// LookupType returns the library type called name ("Process.Event"), or
// nil.
func LookupType(name string) *TypeDecl { return typeByName[name] }

// ModuleTypes returns the library types of module in declaration order.
func ModuleTypes(module string) []*TypeDecl {
	var out []*TypeDecl
	for _, t := range typeTable {
		if t.Module() == module {
			out = append(out, t)
		}
	}
	return out
}

// FindCtor resolves the constructor of a library type written
// "Module.Variant" (the first type of the module, in declaration order,
// that has the variant) or "Module.Type.Variant". It returns the type and
// the variant's tag.
func FindCtor(qualified string) (*TypeDecl, int, bool) {
	parts := strings.Split(qualified, ".")
	var types []*TypeDecl
	switch len(parts) {
	case 2:
		types = ModuleTypes(parts[0])
	case 3:
		if t := LookupType(parts[0] + "." + parts[1]); t != nil {
			types = []*TypeDecl{t}
		}
	}
	variant := parts[len(parts)-1]
	for _, t := range types {
		for tag, v := range t.Variants {
			if v.Name == variant {
				return t, tag, true
			}
		}
	}
	return nil, 0, false
}
