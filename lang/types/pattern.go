package types

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
)

// pattern checks p against type t and binds its names in the current
// scope. binds collects the names bound so far in this pattern, to
// report duplicates.
func (c *Checker) pattern(p ast.Pattern, t Type, binds map[string]bool) {
	if p == nil {
		return
	}
	c.info.PatTypes[p] = t
	mismatch := func(pt Type) {
		if !c.accepts(pt, t) && !hasInvalid(t) && !hasInvalid(pt) {
			c.errorf(ErrMismatch, p.Span(), "pattern: expected %s, found %s", typeStrings(t, pt)[0], typeStrings(t, pt)[1])
		}
	}
	switch p := p.(type) {
	case *ast.WildcardPat:
	case *ast.BindPat:
		c.bind(p, p.Name, t, binds)
	case *ast.LitPat:
		var lt Type = Invalid
		switch p.Value.(type) {
		case *ast.IntLit:
			lt = IntT
		case *ast.FloatLit:
			lt = FloatT
		case *ast.StringLit:
			lt = StringT
		case *ast.BoolLit:
			lt = BoolT
		}
		if _, isU := Resolve(t).(*Union); isU {
			c.errorf(ErrTypedPattern, p.Span(), "a literal cannot match an unnarrowed union; narrow it with a typed pattern such as 'n: %s'", lt)
			return
		}
		mismatch(lt)
	case *ast.UnitPat:
		mismatch(UnitT)
	case *ast.TuplePat:
		if p.HasRest {
			c.tupleRestPattern(p, t, binds)
			return
		}
		el := make([]Type, len(p.Elems))
		if tt, ok := Resolve(t).(*Tuple); ok && len(tt.Elems) == len(p.Elems) {
			copy(el, tt.Elems)
		} else {
			for i := range el {
				el[i] = c.fresh()
			}
			if !unify(&Tuple{Elems: el}, t) {
				mismatch(&Tuple{Elems: el})
				for i := range el {
					el[i] = Invalid
				}
			}
		}
		for i, e := range p.Elems {
			c.pattern(e, el[i], binds)
		}
	case *ast.ListPat:
		var el Type = c.fresh()
		lt := &Named{Def: ListDef, Args: []Type{el}}
		if !unify(lt, t) {
			mismatch(lt)
			el = Invalid
			lt = &Named{Def: ListDef, Args: []Type{Invalid}}
		}
		for _, e := range p.Elems {
			c.pattern(e, el, binds)
		}
		if p.Rest != nil {
			c.pattern(p.Rest, lt, binds)
		}
	case *ast.CtorPat:
		ct := c.patCtor(p)
		if ct == nil {
			for _, a := range p.Args {
				c.pattern(a, Invalid, binds)
			}
			return
		}
		c.info.Uses[p] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
		fs, res := c.ctorType(ct)
		if !c.accepts(res, t) {
			mismatch(res)
			for i := range fs {
				fs[i] = Invalid
			}
		}
		if len(p.Args) != len(fs) {
			c.errorf(ErrPatArity, p.Span(), "constructor pattern field arity mismatch").Notes =
				[]string{fmt.Sprintf("'%s' has %d fields, the pattern gives %d", p.Name, len(fs), len(p.Args))}
			for _, a := range p.Args {
				c.pattern(a, Invalid, binds)
			}
			return
		}
		for i, a := range p.Args {
			c.pattern(a, fs[i], binds)
		}
	case *ast.TypedPat:
		nt := c.resolveType(p.Type, c.bodyTV)
		if u, ok := Resolve(t).(*Union); ok {
			found := false
			for _, alt := range u.Alts {
				if Identical(alt, nt) {
					found = true
				}
			}
			if !found && !hasInvalid(nt) {
				c.errorf(ErrTypedPattern, p.Span(), "type %s is not a member of union %s", Zonk(nt), u.Name)
			}
		} else if !unify(nt, t) && !hasInvalid(t) && !hasInvalid(nt) {
			c.errorf(ErrTypedPattern, p.Span(), "typed pattern requires a union type; expected %s, found %s", typeStrings(t, nt)[0], typeStrings(t, nt)[1])
		}
		if p.Name != "_" && p.Name != "" {
			c.bind(p, p.Name, nt, binds)
		}
	}
}

// tupleRestPattern checks `(p, q, ..rest)` (docs/reference/syntax.md#match): the tuple has at least
// as many elements as the pattern names, and rest is the tuple of the
// others (Unit when there are none). On a subject whose type is not known
// yet, the elements and the rest get fresh types that a pending shape
// settles once it is (shapes.go).
func (c *Checker) tupleRestPattern(p *ast.TuplePat, t Type, binds map[string]bool) {
	k := len(p.Elems)
	el := make([]Type, k)
	var rest Type
	switch r := Resolve(t).(type) {
	case *Tuple:
		if len(r.Elems) >= k {
			copy(el, r.Elems)
			rest = restTuple(r.Elems[k:])
		}
	case *Basic:
		switch {
		case r.Kind == KUnit && k == 0:
			rest = UnitT
		case r.Kind == KInvalid:
			for i := range el {
				el[i] = Invalid
			}
			rest = Invalid
		}
	case *TVar:
		for i := range el {
			el[i] = c.fresh()
		}
		rest = c.fresh()
		c.deferShape(&pendingShape{kind: shTupleRest, subj: t, res: rest, elems: el, index: k, span: p.Span(), pat: p})
	}
	if rest == nil {
		c.errorf(ErrMismatch, p.Span(), "pattern: expected %s, found a tuple of at least %s", Zonk(t), elements(k))
		for i := range el {
			el[i] = Invalid
		}
		rest = Invalid
	}
	for i, e := range p.Elems {
		c.pattern(e, el[i], binds)
	}
	if p.Rest != nil {
		c.pattern(p.Rest, rest, binds)
	}
}

// elements is "1 element" or "n elements".
func elements(n int) string {
	if n == 1 {
		return "1 element"
	}
	return itoa(n) + " elements"
}

// restTuple is the type a tuple rest binds: the remaining elements as a
// tuple, or Unit when none remain.
func restTuple(elems []Type) Type {
	if len(elems) == 0 {
		return UnitT
	}
	return &Tuple{Elems: append([]Type(nil), elems...)}
}

func (c *Checker) bind(p ast.Pattern, name string, t Type, binds map[string]bool) {
	if binds[name] {
		c.errorf(ErrDupBinding, p.Span(), "duplicate pattern binding '%s'", name)
		return
	}
	binds[name] = true
	o := &Object{Kind: ObjLocal, Name: name, Type: t, Decl: p, owner: c.fn}
	c.info.Defs[p] = o
	c.fn.scope.define(name, o)
	c.locals = append(c.locals, o)
}

// patCtor resolves the constructor a pattern names, reporting unknown ones.
func (c *Checker) patCtor(p *ast.CtorPat) *Ctor {
	parts := strings.Split(p.Name, ".")
	if len(parts) == 1 {
		if ct := c.bareCtor(p.Name); ct != nil {
			return ct
		}
		c.errorf(ErrUnknownCtor, p.Span(), "unknown constructor '%s'", p.Name)
		return nil
	}
	_, ct, msg, proc := c.lookupQualified(parts)
	if ct != nil {
		return ct
	}
	code := ErrUnknownCtor
	if proc {
		code = ErrUnknownProcessOp
	}
	if msg == "" || !strings.HasPrefix(msg, "unknown process") {
		msg = fmt.Sprintf("unknown constructor '%s'", p.Name)
	}
	c.errorf(code, p.Span(), "%s", msg)
	return nil
}
