package query

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// TypeString prints a checked type; an unsolved variable prints as `_`.
func TypeString(t types.Type) string {
	if t == nil {
		return "_"
	}
	return ast.Qualified(types.Zonk(t).String())
}

// SigString prints a function signature with its labels:
// `fn area(s: Shape) -> Float`, `fn f(from a: Int) -> ()`.
func SigString(sig *types.FuncSig) string {
	var b strings.Builder
	b.WriteString("fn " + ast.PlainName(sig.Name) + "(")
	for i := range sig.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(ParamString(sig, i))
	}
	b.WriteString(") -> " + TypeString(sig.Ret))
	return b.String()
}

// ParamString prints parameter i of sig as written in a declaration.
func ParamString(sig *types.FuncSig, i int) string {
	p := sig.Params[i]
	s := ""
	if p.Label != "" && p.Label != p.Name {
		s = p.Label + " "
	}
	name := p.Name
	if name == "" {
		name = "_"
	}
	return s + name + ": " + TypeString(p.Type)
}

// BuiltinString prints a builtin's signature: `List.map(List(a), (a) -> b) -> List(b)`.
func BuiltinString(name string) string {
	e := builtins.Lookup(name)
	if e == nil {
		return name
	}
	sig := e.Sig
	if len(e.Labels) > 0 && strings.HasPrefix(sig, "(") {
		// Show the labels: (left: a, right: a) -> Bool.
		end := strings.Index(sig, ") ->")
		if end > 0 {
			ps := splitTop(sig[1:end])
			if len(ps) == len(e.Labels) {
				for i := range ps {
					ps[i] = e.Labels[i] + ": " + strings.TrimSpace(ps[i])
				}
				sig = "(" + strings.Join(ps, ", ") + sig[end:]
			}
		}
	}
	return "fn " + name + sig
}

// BuiltinParams returns a builtin's parameter texts.
func BuiltinParams(name string) []string {
	e := builtins.Lookup(name)
	if e == nil {
		return nil
	}
	s := BuiltinString(name)
	open := strings.Index(s, "(")
	end := strings.LastIndex(s, ") ->")
	if open < 0 || end < open {
		return nil
	}
	return splitTop(s[open+1 : end])
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, strings.TrimSpace(s[start:]))
	}
	return out
}

// CtorString prints a constructor with its field types and its type:
// `Circle(Float) -> Shape`, `None: Option(a)`.
func CtorString(ct *types.Ctor) string {
	res := ast.Qualified(ct.Def.Name)
	if len(ct.Def.Params) > 0 {
		ps := make([]string, len(ct.Def.Params))
		for i, p := range ct.Def.Params {
			ps[i] = p.Name
		}
		res += "(" + strings.Join(ps, ", ") + ")"
	}
	name := ast.PlainName(ct.Name)
	if ct.Def.Qualifier != "" {
		name = ct.QualifiedName()
	}
	if len(ct.Fields) == 0 {
		return name + ": " + res
	}
	fs := make([]string, len(ct.Fields))
	for i, f := range ct.Fields {
		fs[i] = TypeString(f)
		if i < len(ct.FieldNames) && ct.FieldNames[i] != "" {
			fs[i] = ct.FieldNames[i] + ": " + fs[i]
		}
	}
	return name + "(" + strings.Join(fs, ", ") + ") -> " + res
}

// DeclText prints the source text of a declaration's head (up to its
// first line).
func (a *Analysis) DeclText(d ast.Node) string {
	sp := d.Span()
	src := a.tree().Src
	s := string(src[sp.Start:min(sp.End, len(src))])
	return strings.TrimRight(s, " \t\r\n")
}

// Describe is the hover text of a target: the code (a Morrow snippet)
// and an optional line of documentation.
func (a *Analysis) Describe(t *Target, occ source.Span) (code, doc string) {
	a.ready()
	switch t.Kind {
	case KLocal, KParam:
		ty := t.Obj.Type
		if ty == nil {
			ty = a.patType(t.Decl)
		}
		return t.Name + ": " + TypeString(ty), ""
	case KFunc:
		doc := ""
		if t.Sig.Decl != nil {
			doc = strings.TrimSpace(t.Sig.Decl.Docs)
		}
		if _, m, _ := a.Where(t.DeclSpan); m != nil && !a.InDoc(t.DeclSpan) && m.Name != "" {
			doc = strings.TrimSpace("from module " + m.Name + "\n\n" + doc)
		}
		return SigString(t.Sig), doc
	case KType:
		if t.Def != nil && t.Def.Kind == types.RecordDef && len(t.Def.Ctors) == 1 && a.ctorUseAt(occ) {
			// A record's name called as its constructor.
			return CtorString(t.Def.Ctors[0]), ""
		}
		return a.DeclText(t.Decl), ""
	case KCtor, KBuiltinCtor:
		return CtorString(t.Ctor), ""
	case KField:
		if d, ok := t.Decl.(*ast.Field); ok {
			return ast.PlainName(t.Def.Name) + "." + t.Name + ": " + a.text(d.Type), ""
		}
	case KLabel:
		return ParamString(t.Sig, t.Param), "label of " + t.Sig.Name
	case KBuiltin:
		doc := ""
		if e := builtins.Lookup(t.Builtin); e != nil {
			doc = e.Doc
		}
		return BuiltinString(t.Builtin), doc
	case KBuiltinType:
		doc := ""
		if d := builtins.LookupType(t.Name); d != nil {
			doc = d.Doc
		}
		return "type " + t.Name, doc
	case KModule:
		if t.Module != "" {
			return "module " + t.Module, ""
		}
		return "module " + t.Name, "builtin module"
	case KTypeParam:
		return t.Name, "type parameter"
	}
	return t.Name, ""
}

// ctorUseAt reports whether the name ending at occ is a constructor in an
// expression or a pattern (not a type).
func (a *Analysis) ctorUseAt(occ source.Span) bool {
	if a.Info == nil {
		return false
	}
	for n, o := range a.Info.Uses {
		if o.Kind == types.ObjCtor && n.Span().End == occ.End {
			return true
		}
	}
	return false
}

func (a *Analysis) text(n ast.Node) string {
	if ast.IsNil(n) {
		return "_"
	}
	sp := n.Span()
	src := a.tree().Src
	return string(src[sp.Start:min(sp.End, len(src))])
}

func (a *Analysis) patType(n ast.Node) types.Type {
	if p, ok := n.(ast.Pattern); ok && a.Info != nil {
		return a.Info.PatTypes[p]
	}
	return nil
}
