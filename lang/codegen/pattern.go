package codegen

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// binding is a name a pattern binds, with the slot holding its value.
type binding struct {
	name string
	slot int
}

// compilePattern emits the tests of p against the value in local slot
// (jumping to fail when it does not match) and then binds its names.
func (fs *fnState) compilePattern(p ast.Pattern, slot int, fail *label) error {
	binds, err := fs.patternTests(p, slot, fail)
	if err != nil {
		return err
	}
	fs.bindAll(binds)
	return nil
}

// bindAll makes pattern bindings visible in the current scope.
func (fs *fnState) bindAll(binds []binding) {
	for _, b := range binds {
		fs.bind(b.name, b.slot)
	}
}

// patternTests emits the tests and extractions of p against the value in
// slot and returns the bindings (not yet in scope). The stack depth is the
// same before and after, on both the match and the fail path.
func (fs *fnState) patternTests(p ast.Pattern, slot int, fail *label) ([]binding, error) {
	m := &patMatch{fs: fs, fail: fail}
	if err := m.walk(p, slot); err != nil {
		return nil, err
	}
	return m.binds, nil
}

// patMatch is the state of one pattern's compilation: the label a failed
// test jumps to and the bindings found so far.
type patMatch struct {
	fs    *fnState
	fail  *label
	binds []binding
}

// walk emits the tests of p against the value in slot.
func (m *patMatch) walk(p ast.Pattern, slot int) error {
	fs := m.fs
	fs.setLine(p.Span().Start)
	switch p := p.(type) {
	case *ast.WildcardPat, *ast.UnitPat:
		return nil
	case *ast.BindPat:
		m.binds = append(m.binds, binding{p.Name, slot})
		return nil
	case *ast.LitPat:
		return fs.litTest(p, slot, m.fail)
	case *ast.TuplePat:
		return m.tuple(p, slot)
	case *ast.ListPat:
		return m.list(p, slot)
	case *ast.CtorPat:
		return m.ctor(p, slot)
	case *ast.TypedPat:
		if err := fs.typeTest(p.Type, slot, m.fail); err != nil {
			return err
		}
		if p.Name != "_" && p.Name != "" {
			m.binds = append(m.binds, binding{p.Name, slot})
		}
		return nil
	}
	return fmt.Errorf("codegen: unexpected pattern %T", p)
}

// sub extracts element i of the value in slot (with op) into a fresh slot
// and matches q against it, unless q needs nothing.
func (m *patMatch) sub(q ast.Pattern, slot int, op bytecode.Opcode, i int) error {
	if isTrivial(q) {
		return nil
	}
	fs := m.fs
	fs.emit(bytecode.LOAD, slot, 0)
	fs.emit(op, i, 0)
	s := fs.newSlot()
	fs.emit(bytecode.STORE, s, 0)
	if bp, ok := q.(*ast.BindPat); ok {
		m.binds = append(m.binds, binding{bp.Name, s})
		return nil
	}
	return m.walk(q, s)
}

// subs matches each of qs against the element (extracted with op) at its
// position.
func (m *patMatch) subs(qs []ast.Pattern, slot int, op bytecode.Opcode) error {
	for i, q := range qs {
		if err := m.sub(q, slot, op, i); err != nil {
			return err
		}
	}
	return nil
}

// tuple matches a tuple pattern's elements, then its rest if it has one.
func (m *patMatch) tuple(p *ast.TuplePat, slot int) error {
	if err := m.subs(p.Elems, slot, bytecode.ELEM); err != nil {
		return err
	}
	if p.HasRest && p.Rest != nil && !isTrivial(p.Rest) {
		return m.fs.tupleRest(p, slot, m.walk)
	}
	return nil
}

// list tests a list pattern's length (at least that many with a rest),
// then matches its elements and its rest.
func (m *patMatch) list(p *ast.ListPat, slot int) error {
	fs := m.fs
	fs.emit(bytecode.LOAD, slot, 0)
	fs.emit(bytecode.LIST_LEN, 0, 0)
	fs.intConst(int64(len(p.Elems)))
	if p.HasRest {
		fs.emit(bytecode.GE, 0, 0)
	} else {
		fs.emit(bytecode.EQ, 0, 0)
	}
	fs.jump(bytecode.JUMP_IF_FALSE, m.fail)
	if err := m.subs(p.Elems, slot, bytecode.LIST_ELEM); err != nil {
		return err
	}
	if p.HasRest && p.Rest != nil {
		return m.sub(p.Rest, slot, bytecode.LIST_SLICE, len(p.Elems))
	}
	return nil
}

// ctor tests a constructor pattern's tag (when its type has more than one
// variant), then matches its fields.
func (m *patMatch) ctor(p *ast.CtorPat, slot int) error {
	fs := m.fs
	ci, ok := fs.c.ctor(p.Name)
	if !ok {
		return fmt.Errorf("codegen: unknown constructor %s in pattern", p.Name)
	}
	if len(fs.c.prog.Types[ci.typ].Variants) > 1 {
		fs.emit(bytecode.LOAD, slot, 0)
		fs.emit(bytecode.TEST_TAG, ci.tag, 0)
		fs.jump(bytecode.JUMP_IF_FALSE, m.fail)
	}
	return m.subs(p.Args, slot, bytecode.ELEM)
}

// tupleRest builds the tuple of the elements a `(p, ..rest)` pattern does
// not name (Unit when there are none; docs/reference/syntax.md#match) and matches rest against it.
// The arity comes from the checker: the pattern's recorded tuple type.
func (fs *fnState) tupleRest(p *ast.TuplePat, slot int, walk func(ast.Pattern, int) error) error {
	n, ok := fs.c.tupleArity(p)
	if !ok || n < len(p.Elems) {
		return fmt.Errorf("codegen: the arity of the tuple rest pattern at offset %d is unknown", p.Span().Start)
	}
	if n == len(p.Elems) {
		fs.emit(bytecode.UNIT, 0, 0)
	} else {
		for i := len(p.Elems); i < n; i++ {
			fs.emit(bytecode.LOAD, slot, 0)
			fs.emit(bytecode.ELEM, i, 0)
		}
		fs.emit(bytecode.TUPLE, n-len(p.Elems), 0)
	}
	s := fs.newSlot()
	fs.emit(bytecode.STORE, s, 0)
	return walk(p.Rest, s)
}

// isTrivial reports whether a sub-pattern neither tests nor binds.
func isTrivial(p ast.Pattern) bool {
	switch p := p.(type) {
	case *ast.WildcardPat, *ast.UnitPat:
		return true
	case *ast.BindPat:
		return p.Name == "_"
	}
	return false
}

// litTest emits a literal pattern's test.
func (fs *fnState) litTest(p *ast.LitPat, slot int, fail *label) error {
	var c value.Value
	switch v := p.Value.(type) {
	case *ast.BoolLit:
		fs.emit(bytecode.LOAD, slot, 0)
		if v.Value {
			fs.jump(bytecode.JUMP_IF_FALSE, fail)
		} else {
			fs.jump(bytecode.JUMP_IF_TRUE, fail)
		}
		return nil
	case *ast.IntLit:
		c = value.Int(v.Value)
	case *ast.FloatLit:
		c = value.Float(v.Value)
	case *ast.StringLit:
		c = value.String(v.Value)
	case *ast.UnitLit:
		return nil
	default:
		return fmt.Errorf("codegen: unexpected literal pattern %T", p.Value)
	}
	fs.emit(bytecode.LOAD, slot, 0)
	fs.emit(bytecode.EQ_CONST, fs.c.prog.AddConst(c), 0)
	fs.jump(bytecode.JUMP_IF_FALSE, fail)
	return nil
}

// kindOfType maps built-in type names to the dynamic tag of their values.
var kindOfType = map[string]value.Kind{
	"Int": value.KInt, "Float": value.KFloat, "Bool": value.KBool, "String": value.KString,
	"Unit": value.KUnit, "List": value.KList, "Range": value.KRange, "Map": value.KMap, "Set": value.KSet,
	"Pid": value.KPid, "ProcessId": value.KProcID, "MonitorRef": value.KMonRef,
}

// typeTest emits the union-narrowing test `x: T`.
func (fs *fnState) typeTest(t ast.TypeExpr, slot int, fail *label) error {
	switch t := fs.unalias(t).(type) {
	case *ast.UnitType:
		return fs.kindTest(value.KUnit, slot, fail)
	case *ast.TupleType:
		return fs.kindTest(value.KTuple, slot, fail)
	case *ast.FuncType:
		return fs.kindTest(value.KFunc, slot, fail)
	case *ast.NamedType:
		if k, ok := kindOfType[t.Name]; ok {
			return fs.kindTest(k, slot, fail)
		}
		if d := builtins.LookupType(t.Name); d != nil && d.Kind == builtins.Opaque && d.Module() == "Net" {
			// Net.Socket and Net.Listener are opaque handles (docs/io.md).
			return fs.kindTest(value.KOpaque, slot, fail)
		}
		idx, ok := fs.c.namedTypeIndex(t.Name)
		if !ok {
			return fmt.Errorf("codegen: unknown type %s in a typed pattern", t.Name)
		}
		fs.emit(bytecode.LOAD, slot, 0)
		fs.emit(bytecode.TEST_TYPE, idx, 0)
		fs.jump(bytecode.JUMP_IF_FALSE, fail)
		return nil
	}
	return fmt.Errorf("codegen: unsupported type %T in a typed pattern", t)
}

// unalias follows the user's aliases from t (at most 64 deep) until a
// type that is not an alias of a non-union type.
func (fs *fnState) unalias(t ast.TypeExpr) ast.TypeExpr {
	for depth := 0; depth < 64; depth++ {
		nt, ok := t.(*ast.NamedType)
		if !ok {
			return t
		}
		alias, isAlias := fs.c.user.aliases[nt.Name]
		if !isAlias {
			return t
		}
		if _, union := alias.(*ast.UnionType); union {
			return t
		}
		t = alias
	}
	return t
}

// namedTypeIndex returns the program's type index of a named user or
// process type, trying the last dotted segment of a qualified name.
func (c *compiler) namedTypeIndex(name string) (int, bool) {
	idx, ok := c.typeIndex[name]
	if !ok {
		idx, ok = c.processType(name)
	}
	if i := strings.LastIndex(name, "."); !ok && i >= 0 {
		idx, ok = c.typeIndex[name[i+1:]]
	}
	return idx, ok
}

// kindTest emits the test that the value in slot has kind k.
func (fs *fnState) kindTest(k value.Kind, slot int, fail *label) error {
	fs.emit(bytecode.LOAD, slot, 0)
	fs.emit(bytecode.TEST_KIND, int(k), 0)
	fs.jump(bytecode.JUMP_IF_FALSE, fail)
	return nil
}
