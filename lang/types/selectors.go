package types

import (
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// Record fields, tuple elements and record updates.

func (c *Checker) fieldAccess(x *ast.FieldAccess) Type {
	rt, res := c.selectOn(x.X, pendingShape{kind: shField, name: x.Name, span: x.Span()})
	if res != nil {
		return res
	}
	return c.fieldOf(rt, x.Name, x.Span())
}

// selectOn checks the subject e of a field access or tuple index. While
// e's type is still an open variable the selection waits as the pending
// shape ps (its subject and result filled in here) and selectOn returns
// that result's fresh variable; otherwise it returns e's resolved type
// and a nil result. ps is passed by value so that the common case of a
// known subject allocates nothing.
func (c *Checker) selectOn(e ast.Expr, ps pendingShape) (rt, res Type) {
	xt := c.expr(e, nil)
	rt = Resolve(xt)
	if _, open := rt.(*TVar); open {
		p := ps // only a waiting selection goes to the heap
		p.subj, p.subjE, p.res = xt, e, c.fresh()
		c.deferShape(&p)
		return nil, p.res
	}
	return rt, nil
}

// fieldOf is the type of field name of a value of known type rt.
func (c *Checker) fieldOf(rt Type, name string, span source.Span) Type {
	if t, ok := settledSelection(rt); ok {
		return t
	}
	switch r := rt.(type) {
	case *Named:
		if r.Def.Kind == RecordDef {
			ct := r.Def.Ctors[0]
			for i, f := range ct.FieldNames {
				if f == name {
					return c.fieldType(r, i)
				}
			}
		}
	}
	d := c.errorf(ErrNoField, span, "type %s has no field '%s'", Zonk(rt), name)
	if r, ok := rt.(*Named); ok {
		c.noFieldHelp(d, r.Def, name)
	}
	return Invalid
}

// settledSelection is the type of a field or element of rt that needs
// no look at rt's fields: Invalid on an invalid subject (no follow-on
// error), Never on one that never produces a value (§3.7). ok is false
// for any other subject.
func settledSelection(rt Type) (t Type, ok bool) {
	if b, isBasic := rt.(*Basic); isBasic {
		switch b.Kind {
		case KInvalid:
			return Invalid, true
		case KNever:
			return NeverT, true
		}
	}
	return nil, false
}

// fieldType returns field i of a record/newtype/variant-less instance.
func (c *Checker) fieldType(n *Named, i int) Type {
	ct := n.Def.Ctors[0]
	m := map[*TParam]Type{}
	for j, p := range n.Def.Params {
		if j < len(n.Args) {
			m[p] = n.Args[j]
		}
	}
	return subst(ct.Fields[i], m)
}

func (c *Checker) tupleIndex(x *ast.TupleIndex) Type {
	rt, res := c.selectOn(x.X, pendingShape{kind: shTuple, index: x.Index, span: x.Span()})
	if res != nil {
		return res
	}
	return c.elemOf(rt, x.Index, x.Span())
}

// elemOf is the type of `.index` on a value of known type rt.
func (c *Checker) elemOf(rt Type, index int, span source.Span) Type {
	if t, ok := settledSelection(rt); ok {
		return t
	}
	switch r := rt.(type) {
	case *Tuple:
		if index < len(r.Elems) {
			return r.Elems[index]
		}
		c.errorf(ErrTupleIndex, span, "tuple index %d is out of range for %s", index, Zonk(rt))
		return Invalid
	case *Named:
		if (r.Def.Kind == NewtypeDef || r.Def.Kind == RecordDef) && index < len(r.Def.Ctors[0].Fields) {
			return c.fieldType(r, index)
		}
	}
	c.errorf(ErrTupleIndex, span, "type %s has no element .%d", Zonk(rt), index)
	return Invalid
}

func (c *Checker) recordUpdate(x *ast.RecordUpdate) Type {
	xt := c.expr(x.X, nil)
	if _, open := Resolve(xt).(*TVar); open {
		s := &pendingShape{kind: shUpdate, subj: xt, subjE: x.X, res: c.fresh(), fields: x.Fields, span: x.Span()}
		for _, f := range x.Fields {
			s.vals = append(s.vals, c.expr(f.Value, nil))
		}
		c.deferShape(s)
		return xt
	}
	r, ok := Resolve(xt).(*Named)
	if !ok || r.Def.Kind != RecordDef {
		for _, f := range x.Fields {
			c.expr(f.Value, nil)
		}
		if isNever(xt) {
			return NeverT
		}
		if !hasInvalid(xt) {
			c.errorf(ErrNoField, spanOf(x.X), "record update requires a record, found %s", Zonk(xt))
		}
		return Invalid
	}
	for _, f := range x.Fields {
		ft := c.updateField(r, f)
		if ft == nil {
			c.expr(f.Value, nil)
			c.noFieldHelp(c.errorf(ErrNoField, f.Span(), "type %s has no field '%s'", r.Def.Name, f.Label), r.Def, f.Label)
			continue
		}
		vt := c.expr(f.Value, ft)
		c.expect(spanOf(f.Value), vt, ft, "record update field '"+f.Label+"'")
	}
	return xt
}

// updateField is the type of the field a record update writes, or nil
// (reported) when the record has no such field.
func (c *Checker) updateField(r *Named, f *ast.Arg) Type {
	for i, n := range r.Def.Ctors[0].FieldNames {
		if n == f.Label {
			return c.fieldType(r, i)
		}
	}
	c.errorf(ErrNoField, f.Span(), "type %s has no field '%s'", r.Def.Name, f.Label)
	return nil
}
