package types

import (
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// Deferred shape inference (docs/reference/types.md#inference).
//
// Field access `x.value`, record update `%{x | value: …}`, tuple
// projection `x.0` and `for … in x` need to know what x is. When x's type
// is still an unknown variable (typically an unannotated parameter), the
// checker does not guess: it records a pending shape, gives the
// expression a fresh variable, and goes on. Later evidence in the same
// function group (a call `consume(x)` with `consume(b: Box(a))`, a
// pattern, an annotation) fixes x's type; when the group's bodies are
// all checked, the pending shapes are resolved in rounds until none makes
// progress (resolving one can fix the subject of another, `x.0.name`).
// For those still unknown, two defaults that need no guessing apply, one
// at a time (each may unlock others): `for` iterates a List, and a field
// access or update whose fields exactly one record type declares is that
// record. Whatever is left is reported: `cannot infer the type of x; add
// an annotation`.

type shapeKind int

const (
	shField     shapeKind = iota // x.name
	shTuple                      // x.0
	shUpdate                     // %{x | f: v}
	shFor                        // for p in x
	shTupleRest                  // a (p, ..rest) pattern matched against x
)

// pendingShape is an operation whose subject had no known type yet.
type pendingShape struct {
	kind  shapeKind
	subj  Type     // the subject's type
	subjE ast.Expr // the subject expression (for the message)
	res   Type     // the operation's result: field, element or loop item type
	name  string   // shField: the field
	index int      // shTuple: the index
	// shUpdate: the fields written and their values' types.
	fields []*ast.Arg
	vals   []Type
	// shTupleRest: the element types given to the named sub-patterns
	// (index of them) and the pattern.
	elems []Type
	pat   *ast.TuplePat
	span  source.Span
	done  bool
	// carried: waiting for the callers of the function whose parameter
	// is the subject (settleShapes).
	carried bool
}

// deferShape records a pending shape for the current group.
func (c *Checker) deferShape(s *pendingShape) {
	c.shapes = append(c.shapes, s)
}

// resolveShapes settles the group's pending shapes (see above).
func (c *Checker) resolveShapes() {
	c.settleShapes(false)
}

// settleShapes is resolveShapes; final is set once every body is checked.
// Before that, a tuple projection or tuple rest pattern whose subject is
// still an unknown parameter type of the group (`fn unpack((head,
// ..tail))`) is carried to the groups that call the function: the size of
// the tuple, which code generation needs, comes from the first call
// (docs/checker.md "Deferred shapes"). Such a parameter is not
// generalised.
func (c *Checker) settleShapes(final bool) {
	shapes := append(c.carried, c.shapes...)
	c.carried = nil
	c.shapes = nil
	for {
		for progress := true; progress; {
			progress = false
			for _, s := range shapes {
				if s.done {
					continue
				}
				if _, open := Resolve(s.subj).(*TVar); open {
					continue
				}
				s.done = true
				progress = true
				c.applyShape(s)
			}
		}
		if !c.defaultShape(shapes) {
			break
		}
	}
	var params []*TVar
	if !final {
		for sig := range c.inGroup {
			for _, p := range sig.Params {
				params = freeVars(p.Type, params)
			}
		}
	}
	for _, s := range shapes {
		if s.done {
			continue
		}
		if s.kind == shTuple || s.kind == shTupleRest {
			if v, ok := Resolve(s.subj).(*TVar); ok && (slices.Contains(params, v) || s.carried) && !final {
				if !s.carried {
					c.carriedAll = append(c.carriedAll, s)
				}
				s.carried = true
				c.carried = append(c.carried, s)
				continue
			}
		}
		s.done = true
		d := c.errorf(ErrFieldInfer, s.span, "cannot infer the type of %s; add an annotation", c.subjectName(s.subjE))
		switch s.kind {
		case shField:
			d.Notes = []string{"no later use fixes its type, and no single record type declares a field '" + s.name + "'"}
		case shUpdate:
			d.Notes = []string{"no later use fixes its type, and no single record type declares every updated field"}
		case shTuple, shTupleRest:
			d.Notes = []string{"no later use fixes its type, so the size of the tuple is unknown"}
		}
		unify(s.subj, Invalid)
		unify(s.res, Invalid)
		for _, e := range s.elems {
			unify(e, Invalid)
		}
	}
}

// defaultShape applies the first default that fits a still unknown
// subject and reports whether it did.
func (c *Checker) defaultShape(shapes []*pendingShape) bool {
	for _, s := range shapes {
		if s.done {
			continue
		}
		switch s.kind {
		case shFor:
			unify(s.subj, &Named{Def: ListDef, Args: []Type{c.fresh()}})
			return true
		case shField, shUpdate:
			names := []string{s.name}
			if s.kind == shUpdate {
				names = names[:0]
				for _, f := range s.fields {
					names = append(names, f.Label)
				}
			}
			if def := c.uniqueRecord(names); def != nil {
				_, res := c.ctorType(def.Ctors[0])
				unify(s.subj, res)
				return true
			}
		}
	}
	return false
}

// uniqueRecord returns the only record type declaring every field in
// names, or nil.
func (c *Checker) uniqueRecord(names []string) *TypeDef {
	var found *TypeDef
	for _, d := range c.file.Decls {
		td, ok := d.(*ast.TypeDecl)
		if !ok || td.Kind != ast.RecordType {
			continue
		}
		def := c.info.TypeDefs[td.Name]
		if def == nil || len(def.Ctors) == 0 {
			continue
		}
		all := true
		for _, n := range names {
			has := false
			for _, f := range def.Fields {
				if f == n {
					has = true
				}
			}
			all = all && has
		}
		if all {
			if found != nil {
				return nil
			}
			found = def
		}
	}
	return found
}

func (c *Checker) subjectName(e ast.Expr) string {
	if e == nil {
		return "the matched value"
	}
	if id, ok := unparen(e).(*ast.Ident); ok {
		return id.Name
	}
	if c.src != nil {
		sp := e.Span()
		if sp.Start >= 0 && sp.End <= len(c.src.Src) && sp.End-sp.Start <= 40 {
			if t := strings.TrimSpace(string(c.src.Src[sp.Start:sp.End])); t != "" && !strings.Contains(t, "\n") {
				return "'" + t + "'"
			}
		}
	}
	return "this value"
}

// applyShape checks a pending operation now that its subject is known.
func (c *Checker) applyShape(s *pendingShape) {
	st := Resolve(s.subj)
	if hasInvalid(st) {
		unify(s.res, Invalid)
		return
	}
	switch s.kind {
	case shField:
		ft := c.fieldOf(st, s.name, s.span)
		c.settle(s, s.res, ft, "field '."+s.name+"'")
	case shTuple:
		c.settle(s, s.res, c.elemOf(st, s.index, s.span), "tuple element '."+itoa(s.index)+"'")
	case shFor:
		c.settle(s, s.res, c.itemOf(st, s.subjE), "for item")
	case shTupleRest:
		tt, ok := st.(*Tuple)
		if !ok || len(tt.Elems) < s.index {
			c.errorf(ErrMismatch, s.span, "pattern: expected %s, found a tuple of at least %s", Zonk(st), elements(s.index))
			return
		}
		for i, e := range s.elems {
			c.settle(s, e, tt.Elems[i], "tuple pattern element "+itoa(i))
		}
		c.settle(s, s.res, restTuple(tt.Elems[s.index:]), "tuple rest")
	case shUpdate:
		r, ok := st.(*Named)
		if !ok || r.Def.Kind != RecordDef {
			c.errorf(ErrNoField, spanOf(s.subjE), "record update requires a record, found %s", Zonk(st))
			return
		}
		for i, f := range s.fields {
			if ft := c.updateField(r, f); ft != nil {
				c.expect(spanOf(f.Value), s.vals[i], ft, "record update field '"+f.Label+"'")
			}
		}
	}
}

// settle unifies the type an operation turned out to have with the type
// its uses gave the result meanwhile.
func (c *Checker) settle(s *pendingShape, use, actual Type, what string) {
	if !unify(use, actual) && !hasInvalid(actual) && !hasInvalid(use) {
		c.errorf(ErrMismatch, s.span, "%s: expected %s, found %s", what, typeStrings(use, actual)[0], typeStrings(use, actual)[1]).Notes =
			[]string{"the type of " + c.subjectName(s.subjE) + " was fixed later in the body as " + Zonk(s.subj).String() +
				"; the uses of this " + what + " need " + Zonk(use).String()}
	}
}

// carriedParam reports whether parameter type t is the subject of a shape
// that waited for a caller (settleShapes), settled or not.
func (c *Checker) carriedParam(t Type) bool {
	for _, s := range c.carriedAll {
		if s.subj == t || Resolve(s.subj) == Resolve(t) {
			return true
		}
	}
	return false
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}
