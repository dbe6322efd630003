package query

import (
	"sort"

	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
)

// TokenType is a semantic token class.
type TokenType int

// The semantic token classes, in the order of TokenTypeNames.
const (
	TokKeyword TokenType = iota
	TokType
	TokEnumMember // constructors
	TokFunction
	TokParameter
	TokVariable
	TokString
	TokNumber
	TokComment
	TokProperty // record fields and labels
	TokNamespace
	TokTypeParameter
)

// TokenTypeNames are the LSP names of the classes (the server's legend).
var TokenTypeNames = []string{"keyword", "type", "enumMember", "function", "parameter", "variable",
	"string", "number", "comment", "property", "namespace", "typeParameter"}

// SemToken is one classified piece of the source.
type SemToken struct {
	Span source.Span
	Type TokenType
}

var lexKinds = parser.Definition{}.Symbols()

// Tokens classifies the document's tokens for highlighting: keywords,
// literals and comments from the lexer, names from the index (what they
// resolve to). Names the index does not know (in a declaration that does
// not parse) are left out. The result is in source order without overlaps.
func (a *Analysis) Tokens() []SemToken {
	if a.tokens == nil {
		a.tokens = a.classify()
		if a.tokens == nil {
			a.tokens = []SemToken{}
		}
	}
	return a.tokens
}

func (a *Analysis) classify() []SemToken {
	a.ready()
	if a.File == nil {
		return nil
	}
	src := a.File.Src
	lx, err := parser.Definition{}.LexBytes(a.File.Name, src)
	if err != nil {
		return nil
	}
	var out []SemToken
	prevEnd := 0
	comments := func(lo, hi int) {
		for i := lo; i < hi && i < len(src); i++ {
			switch {
			case src[i] == '#' || src[i] == '@':
				j := i
				for j < hi && src[j] != '\n' {
					j++
				}
				out = append(out, SemToken{source.Span{Start: i, End: j}, TokComment})
				i = j
			case src[i] == '/' && i+1 < hi && src[i+1] == '*':
				j := i + 2
				for j+1 < hi && !(src[j] == '*' && src[j+1] == '/') {
					j++
				}
				j = min(j+2, hi)
				out = append(out, SemToken{source.Span{Start: i, End: j}, TokComment})
				i = j - 1
			}
		}
	}
	for {
		t, err := lx.Next()
		if err != nil || t.EOF() {
			break
		}
		if t.Value == "" || t.Type == lexKinds["Newline"] || t.Type == lexKinds["Indent"] || t.Type == lexKinds["Dedent"] {
			continue
		}
		start, end := t.Pos.Offset, t.Pos.Offset+len(t.Value)
		if start < prevEnd || end > len(src) {
			continue
		}
		comments(prevEnd, start)
		prevEnd = end
		sp := source.Span{Start: start, End: end}
		switch t.Type {
		case lexKinds["Keyword"]:
			out = append(out, SemToken{sp, TokKeyword})
		case lexKinds["String"]:
			out = append(out, SemToken{sp, TokString})
		case lexKinds["Int"], lexKinds["Float"]:
			out = append(out, SemToken{sp, TokNumber})
		case lexKinds["BinOp"]:
			if t.Value == "and" || t.Value == "or" || t.Value == "not" || t.Value == "in" {
				out = append(out, SemToken{sp, TokKeyword})
			}
		}
	}
	comments(prevEnd, len(src))
	for _, o := range a.occs {
		if !a.InDoc(o.Span) {
			continue
		}
		if tt, ok := nameTokenType(o.Target); ok {
			out = append(out, SemToken{o.Span, tt})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	// A string's interpolated names split it: `"n = {n}"` is a string,
	// a variable and a string again. Other overlaps are dropped.
	var res []SemToken
	end := 0
	for i := 0; i < len(out); i++ {
		t := out[i]
		if t.Span.Start < end {
			continue
		}
		if t.Type == TokString {
			from := t.Span.Start
			for j := i + 1; j < len(out) && out[j].Span.Start < t.Span.End; j++ {
				n := out[j]
				if n.Type == TokString || n.Type == TokComment || n.Type == TokKeyword || n.Type == TokNumber || n.Span.Start < from || n.Span.End > t.Span.End {
					continue
				}
				if n.Span.Start > from {
					res = append(res, SemToken{source.Span{Start: from, End: n.Span.Start}, TokString})
				}
				res = append(res, n)
				from = n.Span.End
			}
			if from < t.Span.End {
				res = append(res, SemToken{source.Span{Start: from, End: t.Span.End}, TokString})
			}
			end = t.Span.End
			continue
		}
		res = append(res, t)
		end = t.Span.End
	}
	return res
}

func nameTokenType(t *Target) (TokenType, bool) {
	switch t.Kind {
	case KLocal:
		return TokVariable, true
	case KParam:
		return TokParameter, true
	case KFunc, KBuiltin:
		return TokFunction, true
	case KType, KBuiltinType:
		return TokType, true
	case KCtor, KBuiltinCtor:
		return TokEnumMember, true
	case KField, KLabel:
		return TokProperty, true
	case KModule:
		return TokNamespace, true
	case KTypeParam:
		return TokTypeParameter, true
	}
	return 0, false
}
