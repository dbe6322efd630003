package types

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Names: locals, functions, builtins and constructors, plain (`x`,
// `Some`) and qualified (`List.map`, `Process.Normal`, `Shape.Circle`).

func (c *Checker) lookupLocal(name string) *Object {
	return c.fn.scope.lookup(name)
}

func (c *Checker) ident(x *ast.Ident) Type {
	if o := c.lookupLocal(x.Name); o != nil {
		if !c.dead {
			o.uses++
		}
		c.info.Uses[x] = o
		if o.owner != nil && o.owner != c.fn {
			// Captures of pending Results are checked by the obligation
			// analysis (oblig.go), which knows which duties are pending.
		}
		return o.Type
	}
	if sig := c.funcs[x.Name]; sig != nil {
		c.info.Uses[x] = sig.obj
		c.funcValues = append(c.funcValues, x)
		m := c.instantiate(sig.Generics)
		c.inherit(sig.Generics, m, x.Span(), c.inGroup[sig], nil)
		return subst(sig.FuncType(), m)
	}
	if ct := c.bareCtor(x.Name); ct != nil {
		c.info.Uses[x] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
		return c.ctorValue(ct)
	}
	if bs := lib().sigs[x.Name]; bs != nil {
		c.info.Uses[x] = &Object{Kind: ObjBuiltin, Name: x.Name, Builtin: x.Name}
		return c.builtinValue(x.Name, x.Span())
	}
	if x.Name == "_" {
		c.errorf(ErrUnknownName, x.Span(), "'_' is only a placeholder in patterns and pipes")
		return Invalid
	}
	c.unknownNameHelp(c.errorf(ErrUnknownName, x.Span(), "unknown name '%s'", x.Name), x.Name)
	return Invalid
}

func (c *Checker) builtinValue(name string, span source.Span) Type {
	if builtins.Lookup(name).CallOnly() {
		c.errorf(ErrBuiltinValue, span, "%s cannot be used as a function value; call it directly", name).Hint =
			"call it where it is needed, or wrap the call in a lambda"
		return Invalid
	}
	bs := lib().sigs[name]
	m := c.instantiate(bs.Generics)
	c.inherit(bs.Generics, m, span, false, nil)
	if c.fn.inDefer {
		c.deferRestriction(name, span)
	}
	return subst(&Func{Params: bs.Params, Ret: bs.Ret}, m)
}

func (c *Checker) bareCtor(name string) *Ctor {
	if ct := c.ctors[name]; ct != nil {
		return ct
	}
	return builtinCtor(name)
}

// ctorType instantiates a constructor: its field types and result type.
func (c *Checker) ctorType(ct *Ctor) ([]Type, *Named) {
	m := c.instantiate(ct.Def.Params)
	args := make([]Type, len(ct.Def.Params))
	for i, p := range ct.Def.Params {
		args[i] = m[p]
	}
	fs := make([]Type, len(ct.Fields))
	for i, f := range ct.Fields {
		fs[i] = subst(f, m)
	}
	return fs, &Named{Def: ct.Def, Args: args}
}

func (c *Checker) ctorValue(ct *Ctor) Type {
	fs, res := c.ctorType(ct)
	if len(fs) == 0 {
		return res
	}
	return &Func{Params: fs, Ret: res}
}

// lookupQualified resolves a dotted name to a builtin function name or a
// constructor. It reports nothing; errCode/errMsg describe the failure.
func (c *Checker) lookupQualified(parts []string) (builtin string, ct *Ctor, errMsg string, proc bool) {
	name := strings.Join(parts, ".")
	if _, ok := lib().sigs[name]; ok {
		return name, nil, "", false
	}
	if len(parts) < 2 {
		return "", nil, fmt.Sprintf("unknown name '%s'", name), false
	}
	head := parts[0]
	if ct := libraryCtor(parts); ct != nil {
		return "", ct, "", head == builtins.ProcessModule
	}
	if head == builtins.ProcessModule {
		return "", nil, fmt.Sprintf("unknown process operation '%s'", name), true
	}
	if len(parts) == 2 {
		if d := lib().typeDefs[head]; d != nil {
			for _, k := range d.Ctors {
				if k.Name == parts[1] {
					return "", k, "", false
				}
			}
		}
		if e := c.types[head]; e != nil && e.def != nil {
			for _, k := range e.def.Ctors {
				if k.Name == parts[1] {
					return "", k, "", false
				}
			}
			return "", nil, fmt.Sprintf("type %s has no constructor '%s'", head, parts[1]), false
		}
	}
	if lib().modules[head] {
		return "", nil, fmt.Sprintf("unknown function '%s'", name), false
	}
	return "", nil, fmt.Sprintf("unknown name '%s'", name), false
}

func (c *Checker) pathError(p *ast.Path, msg string, proc bool) {
	code := ErrUnknownName
	switch {
	case proc:
		code = ErrUnknownProcessOp
	case strings.HasPrefix(msg, "type "):
		code = ErrUnknownCtor
	case strings.HasPrefix(msg, "unknown function"):
		code = ErrUnknownMember
	}
	c.qualifiedNameHelp(c.errorf(code, p.Span(), "%s", msg), p.Parts)
}

func (c *Checker) path(x *ast.Path) Type {
	b, ct, msg, proc := c.lookupQualified(x.Parts)
	switch {
	case b != "":
		c.info.Uses[x] = &Object{Kind: ObjBuiltin, Name: b, Builtin: b}
		return c.builtinValue(b, x.Span())
	case ct != nil:
		c.info.Uses[x] = &Object{Kind: ObjCtor, Name: ct.Name, Ctor: ct}
		return c.ctorValue(ct)
	}
	c.pathError(x, msg, proc)
	return Invalid
}
