package query

import (
	"sort"

	"github.com/alecthomas/participle/v2/lexer"

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

// classify computes the semantic tokens: lexer classes, then the index's
// names, sorted and without overlaps.
func (a *Analysis) classify() []SemToken {
	a.ready()
	if a.File == nil {
		return nil
	}
	out, ok := lexTokens(a.File.Name, a.File.Src)
	if !ok {
		return nil
	}
	for _, o := range a.occs {
		if !a.InDoc(o.Span) {
			continue
		}
		if tt, ok := nameTokenType(o.Target); ok {
			out = append(out, SemToken{o.Span, tt})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Span.Start < out[j].Span.Start })
	return splitStrings(out)
}

// lexTokens classifies the keywords, literals and comments of src from
// the lexer; ok is false when src does not lex.
func lexTokens(name string, src []byte) (out []SemToken, ok bool) {
	lx, err := parser.Definition{}.LexBytes(name, src)
	if err != nil {
		return nil, false
	}
	prevEnd := 0
	for {
		t, err := lx.Next()
		if err != nil || t.EOF() {
			break
		}
		start, end := t.Pos.Offset, t.Pos.Offset+len(t.Value)
		if layoutToken(t) || start < prevEnd || end > len(src) {
			continue
		}
		out = append(out, scanComments(src, prevEnd, start)...)
		prevEnd = end
		if tt, ok := lexTokenType(t); ok {
			out = append(out, SemToken{source.Span{Start: start, End: end}, tt})
		}
	}
	return append(out, scanComments(src, prevEnd, len(src))...), true
}

// layoutToken reports whether t is an empty or layout token (newline,
// indent, dedent), which has no text to highlight.
func layoutToken(t lexer.Token) bool {
	return t.Value == "" || t.Type == lexKinds["Newline"] || t.Type == lexKinds["Indent"] || t.Type == lexKinds["Dedent"]
}

// lexTokenType is the class of a keyword, literal or word operator token.
func lexTokenType(t lexer.Token) (TokenType, bool) {
	switch t.Type {
	case lexKinds["Keyword"]:
		return TokKeyword, true
	case lexKinds["String"]:
		return TokString, true
	case lexKinds["Int"], lexKinds["Float"]:
		return TokNumber, true
	case lexKinds["BinOp"]:
		return TokKeyword, wordOps[t.Value]
	}
	return 0, false
}

// wordOps are the operators written as words, highlighted as keywords.
var wordOps = map[string]bool{"and": true, "or": true, "not": true, "in": true}

// scanComments returns the comments in src[lo:hi], the text between two
// tokens: line comments (`#`, `@`) and block comments (`/* */`).
func scanComments(src []byte, lo, hi int) []SemToken {
	var out []SemToken
	for i := lo; i < hi && i < len(src); i++ {
		switch {
		case src[i] == '#' || src[i] == '@':
			j := lineCommentEnd(src, i, hi)
			out = append(out, SemToken{source.Span{Start: i, End: j}, TokComment})
			i = j
		case src[i] == '/' && i+1 < hi && src[i+1] == '*':
			j := blockCommentEnd(src, i, hi)
			out = append(out, SemToken{source.Span{Start: i, End: j}, TokComment})
			i = j - 1
		}
	}
	return out
}

// lineCommentEnd returns the end of the line comment starting at i (its
// newline, or hi).
func lineCommentEnd(src []byte, i, hi int) int {
	j := i
	for j < hi && src[j] != '\n' {
		j++
	}
	return j
}

// blockCommentEnd returns the end of the block comment starting at i
// (after its `*/`, or hi when it is not closed before hi).
func blockCommentEnd(src []byte, i, hi int) int {
	j := i + 2
	for j+1 < hi && !(src[j] == '*' && src[j+1] == '/') {
		j++
	}
	return min(j+2, hi)
}

// splitStrings removes overlaps from the sorted tokens: a string's
// interpolated names split it (`"n = {n}"` is a string, a variable and a
// string again); other overlapping tokens are dropped.
func splitStrings(out []SemToken) []SemToken {
	var res []SemToken
	end := 0
	for i, t := range out {
		if t.Span.Start < end {
			continue
		}
		if t.Type == TokString {
			res = splitString(res, t, out[i+1:])
		} else {
			res = append(res, t)
		}
		end = t.Span.End
	}
	return res
}

// splitString appends string token s to res, cut around the name tokens
// of next (the tokens after it in source order) that fall inside it.
func splitString(res []SemToken, s SemToken, next []SemToken) []SemToken {
	from := s.Span.Start
	for _, n := range next {
		if n.Span.Start >= s.Span.End {
			break
		}
		if !interpolatedName(n, from, s.Span.End) {
			continue
		}
		if n.Span.Start > from {
			res = append(res, SemToken{source.Span{Start: from, End: n.Span.Start}, TokString})
		}
		res = append(res, n)
		from = n.Span.End
	}
	if from < s.Span.End {
		res = append(res, SemToken{source.Span{Start: from, End: s.Span.End}, TokString})
	}
	return res
}

// interpolatedName reports whether n is a name token lying within [from, end).
func interpolatedName(n SemToken, from, end int) bool {
	switch n.Type {
	case TokString, TokComment, TokKeyword, TokNumber:
		return false
	}
	return n.Span.Start >= from && n.Span.End <= end
}

// nameTokenType is the class of a name that resolves to t.
func nameTokenType(t *Target) (TokenType, bool) {
	tt, ok := kindTokens[t.Kind]
	return tt, ok
}

// kindTokens maps the target kinds that are highlighted to their class.
var kindTokens = map[Kind]TokenType{
	KLocal:       TokVariable,
	KParam:       TokParameter,
	KFunc:        TokFunction,
	KBuiltin:     TokFunction,
	KType:        TokType,
	KBuiltinType: TokType,
	KCtor:        TokEnumMember,
	KBuiltinCtor: TokEnumMember,
	KField:       TokProperty,
	KLabel:       TokProperty,
	KModule:      TokNamespace,
	KTypeParam:   TokTypeParameter,
}
