package types

// Help for diagnostics: labels, notes, hints and "did you mean"
// suggestions that make an error actionable. The reporting sites call
// these helpers, so the wording lives in one place.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// nonExhaustiveHelp adds the label, note and hint of E4001: what is not
// covered, that guarded arms do not count, and the arms to add.
func nonExhaustiveHelp(d *diag.Diagnostic, arms []*ast.Arm, missing []string) {
	switch {
	case len(missing) == 0:
		d.Label = "some values of this subject match no arm"
		d.Hint = "add a final arm `_ -> …` for the remaining values"
	case len(missing) == 1:
		d.Label = "`" + missing[0] + "` is not covered"
		d.Hint = "add an arm `" + missing[0] + " -> …`, or a final `_ -> …` arm"
	default:
		d.Label = fmt.Sprintf("%d cases are not covered", len(missing))
		d.Hint = "add an arm for each missing case (`" + missing[0] + " -> …`, …), or a final `_ -> …` arm"
	}
	for _, a := range arms {
		if a.Guard != nil {
			d.Notes = append(d.Notes, "arms with an `if` guard do not count towards coverage, since the guard may be false")
			break
		}
	}
}

// ---------------------------------------------------------------- did you mean

// suggestBudget bounds the work of all "did you mean" lookups of one
// check, counted in candidate names visited: a file with thousands of
// unknown names stays linear, and once the budget is spent the remaining
// diagnostics simply get no suggestion.
const suggestBudget = 200_000

// maxSuggestDistance is the largest edit distance a suggestion may have:
// a third of the name's length, at least 1 and at most 2 (so short names
// are not "corrected" into unrelated ones: `lenn` is not `send`).
func maxSuggestDistance(name string) int {
	return max(1, min(2, len(name)/3))
}

// suggester finds the closest of a stream of candidate names. Only
// candidates whose length is within the distance bound of the name are
// compared (the edit distance is at least the difference of the lengths),
// and the comparison stops as soon as a row of the table exceeds the
// bound, so one comparison costs O(len(name) * bound).
type suggester struct {
	c     *Checker
	name  string
	max   int
	best  string
	bestD int
}

func (c *Checker) newSuggester(name string) *suggester {
	m := maxSuggestDistance(name)
	return &suggester{c: c, name: name, max: m, bestD: m + 1}
}

// try considers one candidate. It returns false once the check's budget
// is spent.
func (s *suggester) try(cand string) bool {
	if s.c.suggestWork >= suggestBudget {
		return false
	}
	s.c.suggestWork++
	if cand == s.name || cand == "" || cand == "_" {
		return true
	}
	if diff := len(cand) - len(s.name); diff > s.max || -diff > s.max {
		return true
	}
	d := boundedDistance(s.name, cand, s.max)
	if d < s.bestD || d == s.bestD && better(s.name, cand, s.best) {
		s.best, s.bestD = cand, d
	}
	return true
}

// better breaks a tie between two candidates at the same distance: a
// candidate at least as long as the typed name wins (a missed letter is
// the commonest typo: `printn` means `println`, not `print`), then the
// alphabetically first.
func better(name, cand, best string) bool {
	if best == "" {
		return true
	}
	cl, bl := len(cand) >= len(name), len(best) >= len(name)
	if cl != bl {
		return cl
	}
	return cand < best
}

// result is the best candidate within the bound, or "".
func (s *suggester) result() string {
	if s.bestD > s.max {
		return ""
	}
	return s.best
}

// boundedDistance is the optimal-string-alignment distance of a and b (an
// edit is an insertion, deletion, substitution or transposition of two
// adjacent bytes), or max+1 when it exceeds max.
func boundedDistance(a, b string, max int) int {
	if len(a) > 64 || len(b) > 64 {
		return max + 1
	}
	var rows [3][65]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if prev[len(b)] > max {
		return max + 1
	}
	return prev[len(b)]
}

// memberSynonyms maps names other languages use to the Morrow builtin
// member of the same meaning, for suggestions edit distance cannot find.
var memberSynonyms = map[string]string{
	"length": "len", "size": "len", "count": "len",
	"append": "push", "add": "push",
	"has": "contains", "includes": "contains",
	"upper": "to_upper", "uppercase": "to_upper", "lower": "to_lower", "lowercase": "to_lower",
	"strip": "trim", "nth": "get", "from_string": "parse", "to_int": "parse",
	"reduce": "fold", "each": "map", "for_each": "map",
}

// closestMember suggests a member of a builtin module for a mistyped one:
// the closest by edit distance, else a member that is a prefix of the
// typed name or the other way round (`lenght` -> `len`), else a synonym
// from another language (`length` -> `len`).
func (c *Checker) closestMember(module, member string) string {
	members := lib().members[module]
	s := c.newSuggester(member)
	for _, m := range members {
		if !s.try(m) {
			return ""
		}
	}
	if r := s.result(); r != "" {
		return r
	}
	best := ""
	for _, m := range members {
		if len(m) >= 3 && len(member) >= 3 && (strings.HasPrefix(member, m) || strings.HasPrefix(m, member)) {
			if best == "" || len(m) > len(best) {
				best = m
			}
		}
	}
	if best != "" {
		return best
	}
	if syn, ok := memberSynonyms[strings.ToLower(member)]; ok && slices.Contains(members, syn) {
		return syn
	}
	return ""
}

// closestModule suggests a builtin module or a user type for an unknown
// qualifier (`Lst` -> `List`).
func (c *Checker) closestModule(head string) string {
	s := c.newSuggester(head)
	for _, m := range lib().moduleNames {
		if !s.try(m) {
			return ""
		}
	}
	for n := range c.types {
		if !s.try(n) {
			break
		}
	}
	return s.result()
}

// qualifiedHint is the "did you mean" of an unknown qualified name such
// as `List.lenght` or `Lst.len`: a member of the same module, or the same
// member of the module the qualifier is closest to.
func (c *Checker) qualifiedHint(parts []string) string {
	if len(parts) != 2 {
		return ""
	}
	head, member := parts[0], parts[1]
	if _, known := lib().members[head]; !known {
		if c.types[head] != nil {
			return ""
		}
		mod := c.closestModule(head)
		if mod == "" {
			return ""
		}
		if _, ok := lib().sigs[mod+"."+member]; ok {
			return "did you mean '" + mod + "." + member + "'?"
		}
		if m := c.closestMember(mod, member); m != "" {
			return "did you mean '" + mod + "." + m + "'?"
		}
		return "did you mean the module '" + mod + "'?"
	}
	if m := c.closestMember(head, member); m != "" {
		return "did you mean '" + head + "." + m + "'?"
	}
	return ""
}

// closestValueName suggests a name in scope for an unknown unqualified
// name: locals, functions, constructors and unqualified builtins.
func (c *Checker) closestValueName(name string) string {
	s := c.newSuggester(name)
	if c.fn != nil {
		for sc := c.fn.scope; sc != nil; sc = sc.parent {
			for n := range sc.names {
				if !s.try(n) {
					return ""
				}
			}
		}
	}
	for n := range c.funcs {
		if !s.try(n) {
			return ""
		}
	}
	for n := range c.ctors {
		if !s.try(n) {
			return ""
		}
	}
	for _, n := range lib().top {
		if !s.try(n) {
			return ""
		}
	}
	return s.result()
}

// suggestType suggests a declared or builtin type for an unknown type
// name.
func (c *Checker) suggestType(name string) string {
	s := c.newSuggester(name)
	for _, n := range []string{"Int", "Float", "Bool", "String", "Unit", "Range", "ProcessId", "MonitorRef"} {
		if !s.try(n) {
			return ""
		}
	}
	for n := range lib().typeDefs {
		if !s.try(n) {
			return ""
		}
	}
	for n := range c.types {
		if !s.try(n) {
			return ""
		}
	}
	return s.result()
}

// unknownNameHelp labels an E2001 for an unqualified name and suggests the
// closest name in scope.
func (c *Checker) unknownNameHelp(d *diag.Diagnostic, name string) {
	d.Label = "not found in this scope"
	if h, ok := otherLanguageValues[name]; ok && c.fn != nil && c.fn.scope.lookup(name) == nil {
		d.Hint = h
		return
	}
	if s := c.closestValueName(name); s != "" {
		d.Hint = "did you mean '" + s + "'?"
		suggestFix(d, d.Span, s)
	}
}

// otherLanguageValues are names that Python, Go, Erlang or JavaScript
// programmers reach for, with what Morrow writes instead.
var otherLanguageValues = map[string]string{
	"True":       "did you mean 'true'? Booleans are lowercase",
	"False":      "did you mean 'false'? Booleans are lowercase",
	"nil":        "Morrow has no nil: an absent value is `None` (an Option, `Some(v)` when present), and 'nothing' is `()`",
	"null":       "Morrow has no null: an absent value is `None` (an Option, `Some(v)` when present), and 'nothing' is `()`",
	"undefined":  "Morrow has no undefined: an absent value is `None` (an Option, `Some(v)` when present)",
	"Nothing":    "an absent value is `None` (an Option, `Some(v)` when present)",
	"self":       "a process's own Pid is `Process.self()`",
	"len":        "did you mean 'List.len' (or 'String.len')?",
	"print_line": "did you mean 'println'?",
	"puts":       "did you mean 'println'?",
	"echo":       "did you mean 'println'?",
}

// qualifiedNameHelp labels an E2001/E2007/E2008 for a qualified name and
// suggests a fix.
func (c *Checker) qualifiedNameHelp(d *diag.Diagnostic, parts []string) {
	if len(parts) == 2 {
		if _, known := lib().members[parts[0]]; known {
			d.Label = parts[0] + " has no function '" + parts[1] + "'"
		} else if c.types[parts[0]] == nil {
			d.Label = "no module or type named '" + parts[0] + "'"
		}
	}
	if h := c.qualifiedHint(parts); h != "" {
		d.Hint = h
		if s, ok := strings.CutPrefix(h, "did you mean '"); ok && strings.HasSuffix(s, "'?") {
			suggestFix(d, d.Span, strings.TrimSuffix(s, "'?"))
		}
	}
}

// noFieldHelp labels an E3030 and suggests the closest field of the
// record, or lists its fields.
func (c *Checker) noFieldHelp(d *diag.Diagnostic, def *TypeDef, field string) {
	d.Label = "unknown field"
	if def == nil || def.Kind != RecordDef || len(def.Fields) == 0 {
		return
	}
	s := c.newSuggester(field)
	for _, f := range def.Fields {
		s.try(f)
	}
	if r := s.result(); r != "" {
		d.Hint = "did you mean '" + r + "'?"
		suggestFix(d, c.fieldNameSpan(d.Span, field), r)
		return
	}
	d.Notes = append(d.Notes, def.Name+" has the fields "+strings.Join(def.Fields, ", "))
}

// canShow reports whether show accepts a value of type t, without
// reporting anything.
func (c *Checker) canShow(t Type) bool {
	w := reqWalk{c: c, hole: func(Type, reqKind) {}, defs: map[*TypeDef]bool{}}
	return w.walk(t, reqShow, true, false) == nil
}

// interpHelp gives E3017 a hint that is right for the type: show(…) when
// the value can be shown, derive(Show) first for a user type without it,
// and a note for values that have no text at all.
func (c *Checker) interpHelp(d *diag.Diagnostic, t Type) {
	d.Label = "this has type " + Zonk(t).String()
	switch {
	case c.canShow(t):
		d.Hint = "wrap the value in show(…)"
	case userTypeWithoutShow(t) != nil:
		def := userTypeWithoutShow(t)
		d.Hint = "add derive(Show) to the declaration of " + def.Name + " (`type " + def.Name + " derive(Show):`), then wrap the value in show(…)"
	default:
		d.Notes = append(d.Notes, "values of type "+Zonk(t).String()+" have no text form")
	}
}

// userTypeWithoutShow returns the user type of t (at the top) when it
// lacks derive(Show), or nil.
func userTypeWithoutShow(t Type) *TypeDef {
	if n, ok := Resolve(t).(*Named); ok && !n.Def.Builtin && !n.Def.Derives["Show"] {
		return n.Def
	}
	return nil
}

// noShowHelp labels an E3019, points at the type's declaration and says
// how to derive Show (Morrow has no hand-written impls).
func (c *Checker) noShowHelp(d *diag.Diagnostic, def *TypeDef) {
	d.Label = def.Name + " cannot be shown"
	d.Hint = "add derive(Show) to its declaration: `type " + def.Name + " derive(Show):`"
	if def.Kind == RecordDef && len(def.Fields) > 0 {
		d.Hint += ", or print its fields: `show(value." + def.Fields[0] + ")`"
	} else if def.Kind == NewtypeDef {
		d.Hint += ", or print what it wraps: `show(value.0)`"
	}
	// The message is the one docs/reference/stdlib.md quotes; this has no
	// impl declarations, so the note says which of its two fixes works.
	d.Notes = append(d.Notes, "`impl` declarations are not supported here, so derive(Show) is the way to give "+def.Name+" Show")
	if e := c.types[def.Name]; e != nil && e.def == def {
		if sp, ok := declNameSpan(e.decl); ok {
			d.Related = append(d.Related, diag.Related{Span: sp, Message: def.Name + " is declared here"})
		}
	}
}

// declNameSpan is the span of a type declaration's name.
func declNameSpan(d ast.Decl) (source.Span, bool) {
	switch d := d.(type) {
	case *ast.TypeDecl:
		return d.NameSpan, true
	case *ast.NewtypeDecl:
		return d.NameSpan, true
	}
	return source.Span{}, false
}
