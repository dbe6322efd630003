package main

// The language features of `morrowc lsp` beyond diagnostics and
// formatting: hover, definition, references, rename, completion,
// signature help, document symbols, semantic tokens and code actions.
// Each handler is small: the work is in lang/query, over the analysis
// that the last open or change of the document made (lspDoc.an).
//
// A request for a document that is not open, or a position in no name,
// gets an empty result (null or []), not an error: editors send such
// requests routinely (a hover over whitespace, a closed tab).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/format"
	"github.com/morrow-lang/morrow/lang/modules"
	"github.com/morrow-lang/morrow/lang/query"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// maxCompletions bounds one completion list (the reference's limit).
const maxCompletions = 256

// lspCapabilities are the features announced by initialize.
func lspCapabilities() map[string]any {
	return map[string]any{
		"positionEncoding":           "utf-16",
		"textDocumentSync":           map[string]any{"openClose": true, "change": 2},
		"documentFormattingProvider": true,
		"hoverProvider":              true,
		"definitionProvider":         true,
		"referencesProvider":         true,
		"renameProvider":             map[string]any{"prepareProvider": true},
		"completionProvider":         map[string]any{"triggerCharacters": []string{".", "("}},
		"signatureHelpProvider":      map[string]any{"triggerCharacters": []string{"(", ","}},
		"documentSymbolProvider":     true,
		"codeActionProvider":         map[string]any{"codeActionKinds": []string{"quickfix", "source.fixAll.morrow"}, "resolveProvider": true},
		"semanticTokensProvider": map[string]any{
			"legend": map[string]any{"tokenTypes": query.TokenTypeNames, "tokenModifiers": []string{}},
			"full":   true,
		},
	}
}

// featureRequest dispatches the language feature requests; ok is false
// for a method it does not know.
func (s *lspServer) featureRequest(method string, params json.RawMessage) (result any, err *rpcError, ok bool) {
	h, ok := map[string]func(json.RawMessage) (any, *rpcError){
		"textDocument/hover":               s.hover,
		"textDocument/definition":          s.definition,
		"textDocument/references":          s.references,
		"textDocument/prepareRename":       s.prepareRename,
		"textDocument/rename":              s.rename,
		"textDocument/completion":          s.completion,
		"textDocument/signatureHelp":       s.signatureHelp,
		"textDocument/documentSymbol":      s.documentSymbol,
		"textDocument/semanticTokens/full": s.semanticTokens,
		"textDocument/codeAction":          s.codeAction,
		"codeAction/resolve":               s.codeActionResolve,
	}[method]
	if !ok {
		return nil, nil, false
	}
	result, err = h(params)
	return result, err, true
}

// posParams are TextDocumentPositionParams.
type posParams struct {
	TextDocument *lspTextDocument `json:"textDocument"`
	Position     *lspPosition     `json:"position"`
}

// docAt decodes a position request. d is nil for a document that is not
// open (the request then has an empty result).
func (s *lspServer) docAt(params json.RawMessage, extra any) (d *lspDoc, off int, err *rpcError) {
	var p posParams
	if e := decodeParams(params, &p); e != nil {
		return nil, 0, e.(*rpcError)
	}
	if extra != nil {
		if e := decodeParams(params, extra); e != nil {
			return nil, 0, e.(*rpcError)
		}
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" || p.Position == nil {
		return nil, 0, invalidParams("the request needs textDocument.uri and position")
	}
	d = s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, 0, nil
	}
	off, ok := utf16Offset(d.text, *p.Position)
	if !ok {
		return nil, 0, invalidParams("position has a negative line or character")
	}
	return d, off, nil
}

func (s *lspServer) docOf(params json.RawMessage) (*lspDoc, *rpcError) {
	var p struct {
		TextDocument *lspTextDocument `json:"textDocument"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e.(*rpcError)
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" {
		return nil, invalidParams("the request needs textDocument.uri")
	}
	return s.docs[p.TextDocument.URI], nil
}

// location is the LSP Location of a span of d's analysis: in d itself or
// in a module it imports.
func location(d *lspDoc, sp source.Span) map[string]any {
	uri, r := where(d, d.an, sp)
	return map[string]any{"uri": uri, "range": r}
}

// where maps a span of analysis a (made for document d) to a URI and a
// range in that file.
func where(d *lspDoc, a *query.Analysis, sp source.Span) (string, lspRange) {
	if a.InDoc(sp) {
		return d.uri, lspRangeOf(a.File, sp)
	}
	f, m, local := a.Where(sp)
	if m == nil {
		return d.uri, lspRangeOf(a.File, sp)
	}
	return fileURI(m.Abs), lspRangeOf(f, local)
}

// span is an occurrence found in some open document's analysis.
type foundSpan struct {
	uri string
	r   lspRange
	def bool
}

// everywhere returns the occurrences of t (found in d's analysis) in the
// analyses of every open document whose program holds t's declaration,
// so a public name's uses in the files that import it are found too.
// Each occurrence is listed once, in a stable order.
func (s *lspServer) everywhere(d *lspDoc, t *query.Target) []foundSpan {
	home, off := d.an.Home(t)
	seen := map[string]bool{}
	var out []foundSpan
	addFrom := func(doc *lspDoc, a *query.Analysis, tt *query.Target) {
		for _, o := range a.References(tt) {
			uri, r := where(doc, a, o.Span)
			k := fmt.Sprint(uri, r)
			if !seen[k] {
				seen[k] = true
				out = append(out, foundSpan{uri, r, o.Def})
			}
		}
	}
	addFrom(d, d.an, t)
	if home == "" || t.Local() {
		return out
	}
	uris := make([]string, 0, len(s.docs))
	for u := range s.docs {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		od := s.docs[u]
		if od == d || od.an == nil {
			continue
		}
		for _, o := range od.an.Occurrences() {
			if o.Def {
				if h, oo := od.an.Home(o.Target); h == home && oo == off && o.Target.Kind == t.Kind {
					addFrom(od, od.an, o.Target)
					break
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].uri != out[j].uri {
			return out[i].uri == d.uri || out[j].uri != d.uri && out[i].uri < out[j].uri
		}
		a, b := out[i].r.Start, out[j].r.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out
}

func markdown(code, doc string) map[string]any {
	v := "```morrow\n" + code + "\n```"
	if doc != "" {
		v += "\n\n" + doc
	}
	return map[string]any{"kind": "markdown", "value": v}
}

// ---------------------------------------------------------------- hover, definition, references

func (s *lspServer) hover(params json.RawMessage) (any, *rpcError) {
	d, off, err := s.docAt(params, nil)
	if d == nil {
		return nil, err
	}
	a := d.an
	if o := a.At(off); o != nil {
		code, doc := a.Describe(o.Target, o.Span)
		return map[string]any{"contents": markdown(code, doc), "range": lspRangeOf(a.File, o.Span)}, nil
	}
	e, t := a.TypeAt(off)
	if e == nil || t == nil {
		return nil, nil
	}
	if _, isBlock := e.(*ast.Block); isBlock {
		return nil, nil
	}
	return map[string]any{"contents": markdown(query.TypeString(t), ""), "range": lspRangeOf(a.File, e.Span())}, nil
}

func (s *lspServer) definition(params json.RawMessage) (any, *rpcError) {
	d, off, err := s.docAt(params, nil)
	if d == nil {
		return nil, err
	}
	o := d.an.At(off)
	if o != nil && o.Target.Kind == query.KModule && o.Target.Module != "" {
		// A user module: the top of its file.
		if m := d.an.ModuleNamed(o.Target.Module); m != nil {
			return map[string]any{"uri": fileURI(m.Abs), "range": lspRange{}}, nil
		}
	}
	if o == nil || o.Target.Decl == nil || o.Target.DeclSpan.End <= o.Target.DeclSpan.Start {
		return nil, nil
	}
	return location(d, o.Target.DeclSpan), nil
}

func (s *lspServer) references(params json.RawMessage) (any, *rpcError) {
	var ctx struct {
		Context struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		} `json:"context"`
	}
	d, off, err := s.docAt(params, &ctx)
	if d == nil {
		return []any{}, err
	}
	o := d.an.At(off)
	if o == nil {
		return []any{}, nil
	}
	out := []any{}
	for _, r := range s.everywhere(d, o.Target) {
		if r.def && !ctx.Context.IncludeDeclaration {
			continue
		}
		out = append(out, map[string]any{"uri": r.uri, "range": r.r})
	}
	return out, nil
}

// ---------------------------------------------------------------- rename

// renameTarget returns the occurrence to rename at off, or why it cannot
// be renamed.
func renameTarget(a *query.Analysis, off int) (*query.Occ, string) {
	o := a.At(off)
	if o == nil {
		return nil, "there is no name here to rename"
	}
	switch o.Target.Kind {
	case query.KLocal, query.KParam, query.KFunc, query.KType, query.KCtor, query.KField, query.KLabel:
	default:
		return nil, fmt.Sprintf("'%s' is a %s and cannot be renamed", o.Target.Name, o.Target.Kind)
	}
	if o.Target.Kind == query.KFunc && o.Target.Name == "main" {
		return nil, "'main' is the program's entry point and cannot be renamed"
	}
	if o.Target.DeclSpan.End <= o.Target.DeclSpan.Start {
		return nil, fmt.Sprintf("the declaration of '%s' is not in this document", o.Target.Name)
	}
	return o, ""
}

func (s *lspServer) prepareRename(params json.RawMessage) (any, *rpcError) {
	d, off, err := s.docAt(params, nil)
	if d == nil {
		return nil, err
	}
	o, why := renameTarget(d.an, off)
	if o == nil {
		return nil, &rpcError{Code: rpcRequestFailed, Message: why}
	}
	return map[string]any{"range": lspRangeOf(d.an.File, o.Span), "placeholder": o.Target.Name}, nil
}

// rpcRequestFailed is LSP's RequestFailed: the request was valid but
// cannot be carried out (a refused rename).
const rpcRequestFailed = -32803

func (s *lspServer) rename(params json.RawMessage) (any, *rpcError) {
	var p struct {
		NewName *string `json:"newName"`
	}
	d, off, err := s.docAt(params, &p)
	if err != nil {
		return nil, err
	}
	if p.NewName == nil {
		return nil, invalidParams("rename needs newName")
	}
	if d == nil {
		return nil, nil
	}
	a := d.an
	o, why := renameTarget(a, off)
	if o == nil {
		return nil, &rpcError{Code: rpcRequestFailed, Message: why}
	}
	spans, why := renameSpans(a, o.Target, *p.NewName)
	if why != "" {
		return nil, &rpcError{Code: rpcRequestFailed, Message: why}
	}
	changes := map[string]any{}
	seen := map[string]bool{}
	addEdit := func(uri string, r lspRange) {
		if k := fmt.Sprint(uri, r); !seen[k] {
			seen[k] = true
			l, _ := changes[uri].([]any)
			changes[uri] = append(l, map[string]any{"range": r, "newText": *p.NewName})
		}
	}
	for _, sp := range spans {
		addEdit(where(d, a, sp))
	}
	// A public name is also renamed where the other open documents use it.
	if !o.Target.Local() {
		for _, f := range s.everywhere(d, o.Target) {
			addEdit(f.uri, f.r)
		}
	}
	return map[string]any{"changes": changes}, nil
}

// keywords are the lexer's reserved words (lang/parser/lexer.go): offered
// by completion and refused as new names by rename.
var keywords = strings.Fields(`fn let const comptime if else true false and or not pub type match
	return for in while import with trait impl actor receive receive_event spawn where do defer as
	module break continue derive newtype send after`)

func isKeyword(s string) bool {
	for _, k := range keywords {
		if k == s {
			return true
		}
	}
	return false
}

func validIdent(s string) bool {
	if s == "" || isKeyword(s) {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r < 128 && unicode.IsLetter(r) || i > 0 && r < 128 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// renameSpans checks a rename and returns the spans to replace, or why
// the rename is refused: a name of the wrong case or a keyword, a clash
// with another declaration of the same kind, or a capture (a use that
// would then resolve to another binding, or another name's use that the
// renamed binding would shadow).
func renameSpans(a *query.Analysis, t *query.Target, newName string) ([]source.Span, string) {
	if !validIdent(newName) {
		return nil, fmt.Sprintf("'%s' is not a valid name", newName)
	}
	if newName == t.Name {
		return nil, ""
	}
	upper := newName[0] >= 'A' && newName[0] <= 'Z'
	switch t.Kind {
	case query.KType, query.KCtor:
		if !upper {
			return nil, fmt.Sprintf("a %s name must start with an uppercase letter", t.Kind)
		}
	default:
		if upper {
			return nil, fmt.Sprintf("a %s name must start with a lowercase letter", t.Kind)
		}
	}
	refs := a.References(t)
	// A parameter without a label is also its callers' label.
	if t.Kind == query.KParam {
		if p, ok := t.Decl.(*ast.Param); ok && p.Label == "" {
			for _, o := range a.Occurrences() {
				if o.Target.Kind == query.KLabel && o.Target.Sig != nil && o.Target.Param < len(o.Target.Sig.Decl.Params) && o.Target.Sig.Decl.Params[o.Target.Param] == p {
					refs = append(refs, o)
				}
			}
		}
	}
	switch t.Kind {
	case query.KFunc:
		if sameModuleFunc(a, t, newName) || builtins.Lookup(newName) != nil {
			return nil, fmt.Sprintf("renaming '%s' to '%s' would clash with the function '%s'", t.Name, newName, newName)
		}
		for _, r := range refs {
			for _, l := range a.Scope(r.Span.Start) {
				if l.Name == newName {
					return nil, fmt.Sprintf("renaming '%s' to '%s' would be captured by the local '%s' at a use", t.Name, newName, newName)
				}
			}
		}
	case query.KType, query.KCtor:
		for _, o := range a.Occurrences() {
			if o.Target.Name == newName && (o.Target.Kind == query.KType || o.Target.Kind == query.KCtor || o.Target.Kind == query.KBuiltinType || o.Target.Kind == query.KBuiltinCtor) {
				return nil, fmt.Sprintf("renaming '%s' to '%s' would clash with the %s '%s'", t.Name, newName, o.Target.Kind, newName)
			}
		}
		if builtins.LookupType(newName) != nil || newName == "Some" || newName == "None" || newName == "Ok" || newName == "Err" {
			return nil, fmt.Sprintf("'%s' is a builtin name", newName)
		}
	case query.KField:
		if t.Def != nil {
			for _, f := range t.Def.Fields {
				if f == newName {
					return nil, fmt.Sprintf("%s already has a field '%s'", t.Def.Name, newName)
				}
			}
		}
	case query.KLabel:
		for _, p := range t.Sig.Params {
			if p.Label == newName {
				return nil, fmt.Sprintf("%s already has a parameter labelled '%s'", t.Sig.Name, newName)
			}
		}
	case query.KLocal, query.KParam:
		// Each use must not fall in the scope of another binding of
		// newName, and no use of newName may fall in this binding's scope.
		for _, r := range refs {
			if r.Target.Kind == query.KLabel {
				continue
			}
			for _, l := range a.Scope(r.Span.Start) {
				if l.Name == newName && l != t.Obj {
					return nil, fmt.Sprintf("renaming '%s' to '%s' would clash with the local '%s' in scope at a use", t.Name, newName, newName)
				}
			}
		}
		for _, o := range a.Occurrences() {
			if o.Target.Name != newName || o.Def || o.Target.Kind == query.KLabel || o.Target.Kind == query.KField {
				continue
			}
			for _, l := range a.Scope(o.Span.Start) {
				if l == t.Obj {
					return nil, fmt.Sprintf("renaming '%s' to '%s' would capture the use of '%s' here", t.Name, newName, newName)
				}
			}
		}
		if fd := a.FuncAt(t.DeclSpan.Start); fd != nil && t.Kind == query.KParam {
			for _, p := range fd.Params {
				if p.Name == newName || p.Label == newName {
					return nil, fmt.Sprintf("'%s' already has a parameter '%s'", fd.Name, newName)
				}
			}
		}
	}
	var out []source.Span
	seen := map[source.Span]bool{}
	for _, r := range refs {
		if !seen[r.Span] {
			seen[r.Span] = true
			out = append(out, r.Span)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out, ""
}

// sameModuleFunc reports whether the module that declares t has a
// function called name.
func sameModuleFunc(a *query.Analysis, t *query.Target, name string) bool {
	_, home, _ := a.Where(t.DeclSpan)
	for _, o := range a.Occurrences() {
		if o.Def && o.Target.Kind == query.KFunc && o.Target.Name == name {
			if _, m, _ := a.Where(o.Span); m == home {
				return true
			}
		}
	}
	return false
}

// ---------------------------------------------------------------- completion

// LSP CompletionItemKind values.
const (
	ciMethod      = 2
	ciFunction    = 3
	ciField       = 5
	ciVariable    = 6
	ciModule      = 9
	ciProperty    = 10
	ciKeyword     = 14
	ciEnumMember  = 20
	ciStruct      = 22
	ciTypeParamCI = 25
)

type completionList struct {
	items []map[string]any
	seen  map[string]bool
	pfx   string
}

func (c *completionList) add(label string, kind int, detail string) {
	if !strings.HasPrefix(label, c.pfx) || c.seen[label] {
		return
	}
	c.seen[label] = true
	it := map[string]any{"label": label, "kind": kind}
	if detail != "" {
		it["detail"] = detail
	}
	c.items = append(c.items, it)
}

func (c *completionList) result() any {
	sort.SliceStable(c.items, func(i, j int) bool { return c.items[i]["label"].(string) < c.items[j]["label"].(string) })
	incomplete := false
	if len(c.items) > maxCompletions {
		c.items, incomplete = c.items[:maxCompletions], true
	}
	items := make([]any, len(c.items))
	for i, it := range c.items {
		items[i] = it
	}
	return map[string]any{"isIncomplete": incomplete, "items": items}
}

// completionAnalysis returns an analysis in which the declaration around
// off parsed: the document's own, or, when its text there does not parse
// (a half-written `xs.`), the text with a placeholder name at the cursor,
// or else the last analysis of the document that parsed.
func completionAnalysis(d *lspDoc, off int) *query.Analysis {
	a := d.an
	if a.ParseOK || a.FuncAt(off) != nil {
		return a
	}
	patched := d.text[:off] + "placeholder__" + d.text[off:]
	if p := query.Analyze(uriPath(d.uri), []byte(patched), d.opts); p.FuncAt(off) != nil {
		return p
	}
	if d.good != nil {
		return d.good
	}
	return a
}

func wordStart(text string, off int) int {
	i := off
	for i > 0 && (wordByte(text[i-1])) {
		i--
	}
	return i
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (s *lspServer) completion(params json.RawMessage) (any, *rpcError) {
	d, off, err := s.docAt(params, nil)
	if d == nil {
		if err != nil {
			return nil, err
		}
		return map[string]any{"isIncomplete": false, "items": []any{}}, nil
	}
	text := d.text
	ws := wordStart(text, off)
	c := &completionList{seen: map[string]bool{}, pfx: text[ws:off]}
	a := completionAnalysis(d, off)
	if ws > 0 && text[ws-1] == '.' {
		// After `Qualifier.` or `expr.`.
		qs := ws - 1
		for qs > 0 && (wordByte(text[qs-1]) || text[qs-1] == '.') {
			qs--
		}
		qual := text[qs : ws-1]
		if qual != "" && qual[0] >= 'A' && qual[0] <= 'Z' {
			memberCompletions(c, a, qual)
		} else if qual != "" && !importCompletions(c, a, qual) {
			fieldCompletions(c, a, qual, qs)
		}
		return c.result(), nil
	}
	labelCompletions(c, a, text, ws)
	importedNames(c, a)
	for _, l := range a.Scope(off) {
		kind := ciVariable
		c.add(l.Name, kind, l.Name+": "+query.TypeString(l.Type))
	}
	for _, sig := range a.Funcs() {
		c.add(sig.Name, ciFunction, query.SigString(sig))
	}
	for _, td := range a.TypeDecls() {
		name := ""
		switch td := td.(type) {
		case *ast.TypeDecl:
			name = td.Name
		case *ast.NewtypeDecl:
			name = td.Name
		}
		c.add(name, ciStruct, "type "+name)
		if a.Info != nil {
			if def := a.Info.TypeDefs[name]; def != nil {
				for _, ct := range def.Ctors {
					c.add(ct.Name, ciEnumMember, query.CtorString(ct))
				}
			}
		}
	}
	for _, e := range builtins.All() {
		if e.Module() == "" {
			c.add(e.Name, ciFunction, query.BuiltinString(e.Name))
		}
	}
	for _, m := range builtins.Modules() {
		c.add(m, ciModule, "module "+m)
	}
	for _, n := range []string{"Some", "None", "Ok", "Err"} {
		c.add(n, ciEnumMember, "")
	}
	for _, t := range []string{"Int", "Float", "Bool", "String", "Unit", "List", "Option", "Result", "Pid"} {
		c.add(t, ciStruct, "type "+t)
	}
	for _, k := range keywords {
		c.add(k, ciKeyword, "")
	}
	return c.result(), nil
}

// memberCompletions lists what follows `qual.`: a builtin module's
// functions and types, a type's constructors.
func memberCompletions(c *completionList, a *query.Analysis, qual string) {
	for _, e := range builtins.All() {
		if e.Module() == qual {
			c.add(e.Member(), ciFunction, query.BuiltinString(e.Name))
		} else if strings.HasPrefix(e.Name, qual+".") {
			// Process.ExitReason... members two levels down are reached
			// through their type.
			continue
		}
	}
	for _, td := range builtins.Types() {
		if strings.HasPrefix(td.Name, qual+".") && !strings.Contains(td.Name[len(qual)+1:], ".") {
			c.add(td.Name[len(qual)+1:], ciStruct, "type "+td.Name)
		}
	}
	if a.Info != nil {
		if def := a.Info.TypeDefs[qual]; def != nil {
			for _, ct := range def.Ctors {
				c.add(ct.Name, ciEnumMember, query.CtorString(ct))
			}
		}
	}
	lib := builtins.ModuleTypes(qual)
	if t := builtins.LookupType(qual); t != nil {
		lib = append(lib, t)
	}
	for _, t := range lib {
		for _, v := range t.Variants {
			c.add(v.Name, ciEnumMember, t.Name+"."+v.Name)
		}
	}
}

// imports returns the document's import declarations.
func imports(a *query.Analysis) []*ast.ImportDecl {
	if a.Program == nil || a.Program.Entry == nil || a.Program.Entry.AST == nil {
		return nil
	}
	var out []*ast.ImportDecl
	for _, d := range a.Program.Entry.AST.Decls {
		if im, ok := d.(*ast.ImportDecl); ok {
			out = append(out, im)
		}
	}
	return out
}

func moduleNamed(a *query.Analysis, name string) *modules.Module {
	for _, m := range a.Program.Modules {
		if m.Name == name && m.AST != nil {
			return m
		}
	}
	return nil
}

// publicNames calls f with each public declaration of m: its functions,
// types and their constructors, and the names it re-exports.
func publicNames(a *query.Analysis, m *modules.Module, f func(name string, kind int, detail string)) {
	for _, d := range m.AST.Decls {
		switch d := d.(type) {
		case *ast.FnDecl:
			if !d.Pub {
				continue
			}
			detail := ""
			if a.Info != nil {
				if sig := a.Info.Funcs[d]; sig != nil {
					detail = query.SigString(sig)
				}
			}
			f(ast.PlainName(d.Name), ciFunction, detail)
		case *ast.TypeDecl:
			if !d.Pub {
				continue
			}
			f(ast.PlainName(d.Name), ciStruct, "type "+ast.PlainName(d.Name))
			for _, v := range d.Variants {
				f(ast.PlainName(v.Name), ciEnumMember, ast.PlainName(d.Name)+"."+ast.PlainName(v.Name))
			}
		case *ast.NewtypeDecl:
			if d.Pub {
				f(ast.PlainName(d.Name), ciStruct, "newtype "+ast.PlainName(d.Name))
				f(ast.PlainName(d.Ctor), ciEnumMember, "")
			}
		case *ast.ImportDecl:
			if d.Pub {
				for _, n := range d.Names {
					f(n.Name, ciFunction, "re-exported from "+ast.PathString(d.Path))
				}
			}
		}
	}
}

// importCompletions lists the public names of the module imported as
// qual (`import geo.shapes as s` then `s.`, or `geo.shapes.`); it
// reports whether qual names an imported module. Private names are
// never offered.
func importCompletions(c *completionList, a *query.Analysis, qual string) bool {
	for _, im := range imports(a) {
		name := ast.PathString(im.Path)
		if im.Alias == qual || im.Alias == "" && !im.Selective && name == qual {
			if m := moduleNamed(a, name); m != nil {
				publicNames(a, m, c.add)
			}
			return true
		}
	}
	return false
}

// importedNames adds the names the imports bring into scope: module
// qualifiers, and the names of selective and `{*}` imports.
func importedNames(c *completionList, a *query.Analysis) {
	for _, im := range imports(a) {
		name := ast.PathString(im.Path)
		switch {
		case im.All:
			if m := moduleNamed(a, name); m != nil {
				publicNames(a, m, c.add)
			}
		case im.Selective:
			m := moduleNamed(a, name)
			for _, n := range im.Names {
				detail := "from " + name
				if m != nil {
					publicNames(a, m, func(pn string, kind int, d string) {
						if pn == n.Name && d != "" {
							detail = d
						}
					})
				}
				c.add(n.Name, ciFunction, detail)
			}
		case im.Alias != "":
			c.add(im.Alias, ciModule, "module "+name)
		default:
			c.add(im.Path[0], ciModule, "module "+name)
		}
	}
}

// fieldCompletions lists the fields of a record or the slots of a tuple
// after `name.` (name a local in scope at its position).
func fieldCompletions(c *completionList, a *query.Analysis, qual string, at int) {
	if strings.Contains(qual, ".") {
		return
	}
	var t types.Type
	for _, l := range a.Scope(at) {
		if l.Name == qual {
			t = l.Type
		}
	}
	if t == nil {
		return
	}
	switch x := types.Resolve(types.Zonk(t)).(type) {
	case *types.Named:
		if x.Def.Kind == types.RecordDef && len(x.Def.Ctors) == 1 {
			ct := x.Def.Ctors[0]
			for i, f := range ct.FieldNames {
				c.add(f, ciField, f+": "+query.TypeString(ct.Fields[i]))
			}
		}
	case *types.Tuple:
		for i, e := range x.Elems {
			c.add(fmt.Sprint(i), ciField, fmt.Sprintf("%d: %s", i, query.TypeString(e)))
		}
	}
}

// enclosingCall finds the unclosed '(' before off and the callee name
// written before it; argIndex counts the commas at its level; written
// lists the labels already written (`label:`).
func enclosingCall(text string, off int) (callee string, open, argIndex int, curLabel string, written []string, ok bool) {
	depth := 0
	i := off - 1
	for ; i >= 0; i-- {
		switch text[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				if text[i] != '(' {
					return "", 0, 0, "", nil, false
				}
				goto found
			}
			depth--
		case '\n':
			// Calls may span lines; a blank-indented declaration line ends the search.
			if i+1 < len(text) && i+1 < off && !(text[i+1] == ' ' || text[i+1] == '\t' || text[i+1] == ')') {
				return "", 0, 0, "", nil, false
			}
		}
	}
	return "", 0, 0, "", nil, false
found:
	open = i
	j := i
	for j > 0 && (wordByte(text[j-1]) || text[j-1] == '.') {
		j--
	}
	callee = text[j:i]
	if callee == "" {
		return "", 0, 0, "", nil, false
	}
	// Split the arguments written so far at top-level commas.
	depth = 0
	start := i + 1
	var args []string
	for k := i + 1; k < off; k++ {
		switch text[k] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				args = append(args, text[start:k])
				start = k + 1
			}
		}
	}
	args = append(args, text[start:off])
	label := func(arg string) string {
		arg = strings.TrimSpace(arg)
		n := 0
		for n < len(arg) && wordByte(arg[n]) {
			n++
		}
		if n > 0 && n < len(arg) && arg[n] == ':' {
			return arg[:n]
		}
		return ""
	}
	for _, arg := range args[:len(args)-1] {
		if l := label(arg); l != "" {
			written = append(written, l)
		}
	}
	return callee, open, len(args) - 1, label(args[len(args)-1]), written, true
}

// labelCompletions offers `label: ` for the parameters of the enclosing
// call to a function of the file that are not written yet.
func labelCompletions(c *completionList, a *query.Analysis, text string, ws int) {
	callee, open, _, _, written, ok := enclosingCall(text, ws)
	if !ok {
		return
	}
	// Only at the start of an argument.
	k := ws - 1
	for k >= 0 && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n') {
		k--
	}
	if k < 0 || text[k] != '(' && text[k] != ',' {
		return
	}
	var labels, details []string
	if sig := calleeSig(a, text, open, callee); sig != nil {
		for i, p := range sig.Params {
			labels = append(labels, p.Label)
			details = append(details, query.ParamString(sig, i))
		}
	} else if e := builtins.Lookup(callee); e != nil && len(e.Labels) > 0 {
		// Builtins called with labels (eq, compare).
		labels = e.Labels
		details = query.BuiltinParams(callee)
	}
	for i, l := range labels {
		if l == "" || contains(written, l) || !strings.HasPrefix(l, c.pfx) || c.seen[l+":"] {
			continue
		}
		c.seen[l+":"] = true
		it := map[string]any{"label": l + ":", "kind": ciProperty, "insertText": l + ": ", "sortText": "0" + l}
		if i < len(details) {
			it["detail"] = details[i]
		}
		c.items = append(c.items, it)
	}
}

// calleeSig is the signature of the user function named just before the
// '(' at open (written plain, qualified by a module, or imported).
// When the analysis is of another version of the text (the last one that
// parsed), the callee is looked up by the name written.
func calleeSig(a *query.Analysis, text string, open int, callee string) *types.FuncSig {
	if a.File != nil && string(a.File.Src) == text {
		if o := a.At(open); o != nil && o.Target.Kind == query.KFunc && o.Span.End == open {
			return o.Target.Sig
		}
	}
	if sig := a.FuncByName(callee); sig != nil {
		return sig
	}
	qual, name := "", callee
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		qual, name = callee[:i], callee[i+1:]
	}
	for _, im := range imports(a) {
		mod := ast.PathString(im.Path)
		named := false
		for _, n := range im.Names {
			named = named || n.Name == name
		}
		if qual == "" && (im.All || named) || qual != "" && (im.Alias == qual || im.Alias == "" && mod == qual) {
			if m := moduleNamed(a, mod); m != nil && a.Info != nil {
				for _, d := range m.AST.Decls {
					if fd, ok := d.(*ast.FnDecl); ok && fd.Pub && ast.PlainName(fd.Name) == name {
						return a.Info.Funcs[fd]
					}
				}
			}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- signature help

func (s *lspServer) signatureHelp(params json.RawMessage) (any, *rpcError) {
	d, off, err := s.docAt(params, nil)
	if d == nil {
		return nil, err
	}
	callee, open, argIndex, curLabel, _, ok := enclosingCall(d.text, off)
	if !ok {
		return nil, nil
	}
	a := completionAnalysis(d, off)
	var label string
	var ps []string
	var doc string
	if sig := calleeSig(a, d.text, open, callee); sig != nil {
		for i := range sig.Params {
			ps = append(ps, query.ParamString(sig, i))
			if curLabel != "" && sig.Params[i].Label == curLabel {
				argIndex = i
			}
		}
		label = "fn " + ast.PlainName(sig.Name) + "(" + strings.Join(ps, ", ") + ") -> " + query.TypeString(sig.Ret)
		if sig.Decl != nil {
			doc = strings.TrimSpace(sig.Decl.Docs)
		}
	} else if e := builtins.Lookup(callee); e != nil {
		ps = query.BuiltinParams(callee)
		label = query.BuiltinString(callee)
		doc = e.Doc
		for i, l := range e.Labels {
			if l == curLabel {
				argIndex = i
			}
		}
	} else {
		return nil, nil
	}
	// Parameter labels as offsets into the signature label (UTF-16).
	var pinfo []any
	pos := strings.Index(label, "(") + 1
	for _, p := range ps {
		i := strings.Index(label[pos:], p)
		if i < 0 {
			break
		}
		start := pos + i
		pinfo = append(pinfo, map[string]any{"label": []int{utf16Len(label[:start]), utf16Len(label[:start+len(p)])}})
		pos = start + len(p)
	}
	sigInfo := map[string]any{"label": label, "parameters": pinfo}
	if doc != "" {
		sigInfo["documentation"] = doc
	}
	if argIndex >= len(ps) {
		argIndex = max(len(ps)-1, 0)
	}
	return map[string]any{"signatures": []any{sigInfo}, "activeSignature": 0, "activeParameter": argIndex}, nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// ---------------------------------------------------------------- symbols

// LSP SymbolKind values.
const (
	skField      = 8
	skEnum       = 10
	skFunction   = 12
	skEnumMember = 22
	skStruct     = 23
	skClass      = 5
)

func (s *lspServer) documentSymbol(params json.RawMessage) (any, *rpcError) {
	d, err := s.docOf(params)
	if d == nil {
		return []any{}, err
	}
	a := d.an
	out := []any{}
	if a.AST == nil {
		return out, nil
	}
	sym := func(name, detail string, kind int, full, sel source.Span, children []any) map[string]any {
		if sel.End <= sel.Start || sel.Start < full.Start || sel.End > full.End {
			sel = full
		}
		m := map[string]any{"name": name, "kind": kind, "range": lspRangeOf(a.File, full), "selectionRange": lspRangeOf(a.File, sel)}
		if detail != "" {
			m["detail"] = detail
		}
		if len(children) > 0 {
			m["children"] = children
		}
		return m
	}
	for _, decl := range a.AST.Decls {
		if !a.InDoc(decl.Span()) {
			continue
		}
		switch x := decl.(type) {
		case *ast.FnDecl:
			detail := ""
			if a.Info != nil {
				if sig := a.Info.Funcs[x]; sig != nil && sig.Decl == x {
					detail = query.SigString(sig)
				}
			}
			out = append(out, sym(x.Name, detail, skFunction, x.Span(), x.NameSpan, nil))
		case *ast.TypeDecl:
			var kids []any
			kind := skEnum
			for _, v := range x.Variants {
				kids = append(kids, sym(v.Name, "", skEnumMember, v.Span(), source.Span{Start: v.Span().Start, End: v.Span().Start + len(v.Name)}, nil))
			}
			if x.Kind == ast.RecordType {
				kind = skStruct
				for _, f := range x.Fields {
					kids = append(kids, sym(f.Name, "", skField, f.Span(), source.Span{Start: f.Span().Start, End: f.Span().Start + len(f.Name)}, nil))
				}
			}
			if x.Kind == ast.AliasType {
				kind = skClass
			}
			out = append(out, sym(x.Name, "type", kind, x.Span(), x.NameSpan, kids))
		case *ast.NewtypeDecl:
			out = append(out, sym(x.Name, "newtype", skStruct, x.Span(), x.NameSpan, nil))
		}
	}
	return out, nil
}

// ---------------------------------------------------------------- semantic tokens

func (s *lspServer) semanticTokens(params json.RawMessage) (any, *rpcError) {
	d, err := s.docOf(params)
	if d == nil {
		if err != nil {
			return nil, err
		}
		return map[string]any{"data": []int{}}, nil
	}
	f := d.an.File
	data := []int{}
	prevLine, prevChar := 0, 0
	emit := func(start, end int, tt query.TokenType) {
		line := f.Line(start) - 1
		ch := f.UTF16Column(start)
		length := utf16Len(string(f.Src[start:end]))
		if length == 0 {
			return
		}
		dl := line - prevLine
		dc := ch
		if dl == 0 {
			dc = ch - prevChar
		}
		data = append(data, dl, dc, length, int(tt), 0)
		prevLine, prevChar = line, ch
	}
	for _, t := range d.an.Tokens() {
		// A token may not span lines: split multi-line strings and comments.
		start := t.Span.Start
		for start < t.Span.End {
			end := start
			for end < t.Span.End && f.Src[end] != '\n' {
				end++
			}
			lineEnd := end
			if lineEnd > start && f.Src[lineEnd-1] == '\r' {
				lineEnd--
			}
			if lineEnd > start {
				emit(start, lineEnd, t.Type)
			}
			start = end + 1
		}
	}
	return map[string]any{"data": data}, nil
}

// ---------------------------------------------------------------- code actions

func (s *lspServer) codeAction(params json.RawMessage) (any, *rpcError) {
	var p struct {
		TextDocument *lspTextDocument `json:"textDocument"`
		Range        *lspRange        `json:"range"`
		Context      struct {
			Only []string `json:"only"`
		} `json:"context"`
	}
	if e := decodeParams(params, &p); e != nil {
		return nil, e.(*rpcError)
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" || p.Range == nil {
		return nil, invalidParams("codeAction needs textDocument.uri and range")
	}
	d := s.docs[p.TextDocument.URI]
	out := []any{}
	if d == nil {
		return out, nil
	}
	want := func(kind string) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if kind == o || strings.HasPrefix(kind, o+".") {
				return true
			}
		}
		return false
	}
	lo, ok1 := utf16Offset(d.text, p.Range.Start)
	hi, ok2 := utf16Offset(d.text, p.Range.End)
	if !ok1 || !ok2 {
		return nil, invalidParams("codeAction has an invalid range")
	}
	a := d.an
	if want("quickfix") {
		name := uriPath(d.uri)
		for _, dg := range a.Diags {
			if len(dg.Fixes) == 0 || dg.File == nil || dg.File.Name != name {
				continue
			}
			if dg.Span.End < lo || dg.Span.Start > hi {
				continue
			}
			for _, fx := range dg.Fixes {
				out = append(out, map[string]any{
					"title":       fx.Title,
					"kind":        "quickfix",
					"diagnostics": []any{lspDiagnostic(d.uri, name, dg)},
					"edit":        map[string]any{"changes": map[string]any{d.uri: fixEdits(a.File, fx)}},
					"isPreferred": len(dg.Fixes) == 1,
				})
			}
		}
	}
	if want("source.fixAll.morrow") && a.ParseOK {
		action := map[string]any{"title": fixAllTitle, "kind": "source.fixAll.morrow"}
		if s.resolveEdits {
			// Formatting a large file takes a while: the edit is made by
			// codeAction/resolve when the action is chosen.
			action["data"] = map[string]any{"uri": d.uri, "version": d.version}
			out = append(out, action)
		} else if edit := s.fixAllEdit(d); edit != nil {
			action["edit"] = edit
			out = append(out, action)
		}
	}
	return out, nil
}

const fixAllTitle = "Format the file (morrowc fmt)"

// fixAllEdit is the WorkspaceEdit of the fix-all action (the document
// formatted), or nil when there is nothing to change.
func (s *lspServer) fixAllEdit(d *lspDoc) map[string]any {
	if d.formatted == nil {
		out, dl, err := format.Format([]byte(d.text), uriPath(d.uri))
		d.formatted, d.fmtOK = out, err == nil && !dl.HasErrors()
		if d.formatted == nil {
			d.formatted = []byte{}
		}
	}
	if !d.fmtOK || string(d.formatted) == d.text {
		return nil
	}
	return map[string]any{"changes": map[string]any{d.uri: []any{map[string]any{
		"range":   lspRange{Start: lspPosition{}, End: lspPos(d.an.File, len(d.text))},
		"newText": string(d.formatted),
	}}}}
}

// codeActionResolve fills in the edit of the fix-all action. An action
// for a document that has changed or closed since gets ContentModified.
func (s *lspServer) codeActionResolve(params json.RawMessage) (any, *rpcError) {
	var action map[string]any
	if err := decodeParams(params, &action); err != nil {
		return nil, err.(*rpcError)
	}
	var data struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
	}
	raw, _ := json.Marshal(action["data"])
	if json.Unmarshal(raw, &data) != nil || data.URI == "" {
		return action, nil // nothing to resolve
	}
	d := s.docs[data.URI]
	if d == nil || d.version != data.Version {
		return nil, &rpcError{Code: lspContentModified, Message: "the document changed since the action was offered"}
	}
	if edit := s.fixAllEdit(d); edit != nil {
		action["edit"] = edit
	} else {
		action["edit"] = map[string]any{"changes": map[string]any{}}
	}
	return action, nil
}

// lspContentModified is LSP's ContentModified error code.
const lspContentModified = -32801

// clientResolvesEdits reports whether the initialize params say the client
// resolves code actions' edits (resolveSupport lists "edit").
func clientResolvesEdits(params json.RawMessage) bool {
	var p struct {
		Capabilities struct {
			TextDocument struct {
				CodeAction struct {
					ResolveSupport struct {
						Properties []string `json:"properties"`
					} `json:"resolveSupport"`
				} `json:"codeAction"`
			} `json:"textDocument"`
		} `json:"capabilities"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	return contains(p.Capabilities.TextDocument.CodeAction.ResolveSupport.Properties, "edit")
}

func fixEdits(f *source.File, fx diag.Fix) []any {
	out := []any{}
	for _, e := range fx.Edits {
		out = append(out, map[string]any{"range": lspRangeOf(f, e.Span), "newText": e.New})
	}
	return out
}
