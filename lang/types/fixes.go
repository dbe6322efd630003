package types

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// Suggested edits (diag.Fix) for the diagnostics that can carry one; the
// editor server offers them as quick fixes (docs/editors.md):
//   - a "did you mean" hint replaces the unknown name with the suggestion;
//   - a non-exhaustive match gets its missing arms appended, each with a
//     placeholder body (placeholder);
//   - an unused binding is renamed with a '_' prefix.
var _ = []diag.Code{
	diag.RegisterFix(ErrUnknownName), diag.RegisterFix(ErrUnknownType), diag.RegisterFix(ErrUnknownCtor),
	diag.RegisterFix(ErrUnknownMember), diag.RegisterFix(ErrNoField), diag.RegisterFix(ErrNonExhaustive),
	diag.RegisterFix(WarnUnusedLet),
}

// suggestFix attaches the replacement of span by the suggested name.
func suggestFix(d *diag.Diagnostic, span source.Span, name string) {
	if d == nil || name == "" || span.End <= span.Start {
		return
	}
	d.AddFix("Replace with '"+name+"'", span, name)
}

// fieldNameSpan finds the field name written inside span (after the last
// '.' of an access, or at the start of a record update's `field: v`).
func (c *Checker) fieldNameSpan(span source.Span, name string) source.Span {
	if c.src == nil || span.End > len(c.src.Src) || span.Start < 0 || span.Start > span.End {
		return source.Span{}
	}
	text := string(c.src.Src[span.Start:span.End])
	if i := strings.LastIndex(text, "."+name); i >= 0 {
		return source.Span{Start: span.Start + i + 1, End: span.Start + i + 1 + len(name)}
	}
	if strings.HasPrefix(text, name) {
		return source.Span{Start: span.Start, End: span.Start + len(name)}
	}
	return source.Span{}
}

// missingArmsFix appends one arm per missing pattern after the last arm,
// at the indentation of the first arm. The body is placeholder(t) for
// the type of the existing arms' bodies.
func (c *Checker) missingArmsFix(d *diag.Diagnostic, arms []*ast.Arm, missing []string) {
	if len(arms) == 0 || c.src == nil {
		return
	}
	first, last := arms[0], arms[len(arms)-1]
	fs := first.Span().Start
	ls := c.src.LineStart(c.src.Line(fs))
	if ls > fs || strings.TrimSpace(string(c.src.Src[ls:fs])) != "" {
		return // arms not on lines of their own
	}
	indent := string(c.src.Src[ls:fs])
	var body string
	for _, a := range arms {
		if t, ok := c.info.Types[a.Body]; ok {
			if p := placeholder(Zonk(t), 0); p != "" {
				body = p
				break
			}
		}
	}
	if body == "" {
		return
	}
	if len(missing) == 0 {
		missing = []string{"_"}
	}
	var b strings.Builder
	for _, m := range missing {
		b.WriteString("\n" + indent + m + " -> " + body)
	}
	end := last.Span().End
	d.AddFix("Add the missing match arms", source.Span{Start: end, End: end}, b.String())
}

// placeholder is an expression of type t that type-checks anywhere: the
// zero of a scalar, an empty list, None, the first constructor of a user
// type with placeholder fields. It returns "" when t has none (a function,
// a process id, a type parameter, or nesting deeper than four).
func placeholder(t Type, depth int) string {
	if depth > 4 {
		return ""
	}
	switch x := Resolve(t).(type) {
	case *Basic:
		switch x.Kind {
		case KInt:
			return "0"
		case KFloat:
			return "0.0"
		case KBool:
			return "false"
		case KString:
			return `""`
		case KUnit, KNever:
			return "()"
		}
	case *Tuple:
		parts := make([]string, len(x.Elems))
		for i, e := range x.Elems {
			if parts[i] = placeholder(e, depth+1); parts[i] == "" {
				return ""
			}
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *Union:
		for _, a := range x.Alts {
			if p := placeholder(a, depth+1); p != "" {
				return p
			}
		}
	case *Named:
		switch x.Def {
		case ListDef:
			return "[]"
		case OptionDef:
			return "None"
		}
		if x.Def.Kind == OpaqueDef || x.Def.Builtin && x.Def != ResultDef && x.Def != OrderingDef {
			return ""
		}
		m := map[*TParam]Type{}
		for i, p := range x.Def.Params {
			if i < len(x.Args) {
				m[p] = x.Args[i]
			}
		}
	ctors:
		for _, ct := range x.Def.Ctors {
			name := ct.Name
			if x.Def.Qualifier != "" {
				name = ct.QualifiedName()
			}
			if len(ct.Fields) == 0 {
				return name
			}
			parts := make([]string, len(ct.Fields))
			for i, f := range ct.Fields {
				if parts[i] = placeholder(subst(f, m), depth+1); parts[i] == "" {
					continue ctors
				}
			}
			return name + "(" + strings.Join(parts, ", ") + ")"
		}
	}
	return ""
}

// unusedFix renames an unused binding (the name starts its binding site)
// with a '_' prefix.
func unusedFix(d *diag.Diagnostic, n ast.Node, name string) {
	sp := n.Span()
	d.AddFix("Rename to '_"+name+"'", source.Span{Start: sp.Start, End: sp.Start + len(name)}, "_"+name)
}
