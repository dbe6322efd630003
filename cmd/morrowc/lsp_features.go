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
	uri, e := documentURI(params, "the request")
	if e != nil {
		return nil, e
	}
	return s.docs[uri], nil
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
	f := &spanFinder{seen: map[string]bool{}}
	f.addFrom(d, d.an, t)
	if home == "" || t.Local() {
		return f.out
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
		if tt := sameDecl(od.an, t.Kind, home, off); tt != nil {
			f.addFrom(od, od.an, tt)
		}
	}
	sortFound(f.out, d.uri)
	return f.out
}

// sortFound orders occurrences: those in document first first, then by
// document URI, and by position within a document.
func sortFound(out []foundSpan, first string) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].uri != out[j].uri {
			return out[i].uri == first || out[j].uri != first && out[i].uri < out[j].uri
		}
		a, b := out[i].r.Start, out[j].r.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
}

// spanFinder collects occurrences across documents, each location once.
type spanFinder struct {
	seen map[string]bool
	out  []foundSpan
}

// addFrom adds the references of tt in analysis a of document doc.
func (f *spanFinder) addFrom(doc *lspDoc, a *query.Analysis, tt *query.Target) {
	for _, o := range a.References(tt) {
		uri, r := where(doc, a, o.Span)
		k := fmt.Sprint(uri, r)
		if !f.seen[k] {
			f.seen[k] = true
			f.out = append(f.out, foundSpan{uri, r, o.Def})
		}
	}
}

// sameDecl is the target of analysis a declared in file home at offset
// off with the given kind, or nil.
func sameDecl(a *query.Analysis, kind query.Kind, home string, off int) *query.Target {
	for _, o := range a.Occurrences() {
		if !o.Def {
			continue
		}
		if h, oo := a.Home(o.Target); h == home && oo == off && o.Target.Kind == kind {
			return o.Target
		}
	}
	return nil
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

// rename answers textDocument/rename with the edits in every open
// document, or the reason the rename is refused.
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
	edits := &renameEdits{newName: *p.NewName, changes: map[string]any{}, seen: map[string]bool{}}
	for _, sp := range spans {
		edits.add(where(d, a, sp))
	}
	// A public name is also renamed where the other open documents use it.
	if !o.Target.Local() {
		for _, f := range s.everywhere(d, o.Target) {
			edits.add(f.uri, f.r)
		}
	}
	return map[string]any{"changes": edits.changes}, nil
}

// renameEdits collects a rename's text edits by document URI, each range once.
type renameEdits struct {
	newName string
	changes map[string]any
	seen    map[string]bool
}

// add adds the edit replacing range r of document uri, unless it is there.
func (e *renameEdits) add(uri string, r lspRange) {
	if k := fmt.Sprint(uri, r); !e.seen[k] {
		e.seen[k] = true
		l, _ := e.changes[uri].([]any)
		e.changes[uri] = append(l, map[string]any{"range": r, "newText": e.newName})
	}
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
		if !identRune(r, i == 0) {
			return false
		}
	}
	return true
}

// identRune reports whether r may appear in a name (at its start when
// first): an ASCII letter or '_', or an ASCII digit after the start.
func identRune(r rune, first bool) bool {
	if r == '_' {
		return true
	}
	return r < 128 && (unicode.IsLetter(r) || !first && unicode.IsDigit(r))
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
	if why := renameCaseError(t, newName); why != "" {
		return nil, why
	}
	refs := append(a.References(t), labelRefs(a, t)...)
	if why := renameClash(a, t, refs, newName); why != "" {
		return nil, why
	}
	return uniqueSortedSpans(refs), ""
}

// renameCaseError says why newName has the wrong initial case for t's
// kind (types and constructors are uppercase, everything else lowercase).
func renameCaseError(t *query.Target, newName string) string {
	upper := newName[0] >= 'A' && newName[0] <= 'Z'
	wantUpper := t.Kind == query.KType || t.Kind == query.KCtor
	switch {
	case wantUpper && !upper:
		return fmt.Sprintf("a %s name must start with an uppercase letter", t.Kind)
	case !wantUpper && upper:
		return fmt.Sprintf("a %s name must start with a lowercase letter", t.Kind)
	}
	return ""
}

// labelRefs returns the callers' label occurrences of a parameter
// without a label, since its name is also its label.
func labelRefs(a *query.Analysis, t *query.Target) []*query.Occ {
	if t.Kind != query.KParam {
		return nil
	}
	p, ok := t.Decl.(*ast.Param)
	if !ok || p.Label != "" {
		return nil
	}
	var out []*query.Occ
	for _, o := range a.Occurrences() {
		lt := o.Target
		if lt.Kind == query.KLabel && lt.Sig != nil && lt.Param < len(lt.Sig.Decl.Params) && lt.Sig.Decl.Params[lt.Param] == p {
			out = append(out, o)
		}
	}
	return out
}

// renameClash says why renaming t (with references refs) to newName
// would clash with or capture another name, by t's kind.
func renameClash(a *query.Analysis, t *query.Target, refs []*query.Occ, newName string) string {
	switch t.Kind {
	case query.KFunc:
		return funcRenameClash(a, t, refs, newName)
	case query.KType, query.KCtor:
		return typeRenameClash(a, t, newName)
	case query.KField:
		return fieldRenameClash(t, newName)
	case query.KLabel:
		return labelRenameClash(t, newName)
	case query.KLocal, query.KParam:
		if why := localUseCaptured(a, t, refs, newName); why != "" {
			return why
		}
		if why := localCapturesUse(a, t, newName); why != "" {
			return why
		}
		return paramRenameClash(a, t, newName)
	}
	return ""
}

// funcRenameClash refuses a function rename onto another function of the
// same module or a builtin, or where a local of that name is in scope at a use.
func funcRenameClash(a *query.Analysis, t *query.Target, refs []*query.Occ, newName string) string {
	if sameModuleFunc(a, t, newName) || builtins.Lookup(newName) != nil {
		return fmt.Sprintf("renaming '%s' to '%s' would clash with the function '%s'", t.Name, newName, newName)
	}
	for _, r := range refs {
		if scopeHasName(a, r.Span.Start, newName, nil) {
			return fmt.Sprintf("renaming '%s' to '%s' would be captured by the local '%s' at a use", t.Name, newName, newName)
		}
	}
	return ""
}

// typeNameKinds are the target kinds that share the type and constructor namespace.
var typeNameKinds = map[query.Kind]bool{
	query.KType: true, query.KCtor: true, query.KBuiltinType: true, query.KBuiltinCtor: true,
}

// builtinCtorNames are the constructors of the builtin Option and Result types.
var builtinCtorNames = map[string]bool{"Some": true, "None": true, "Ok": true, "Err": true}

// typeRenameClash refuses a type or constructor rename onto another type
// or constructor name, declared or builtin.
func typeRenameClash(a *query.Analysis, t *query.Target, newName string) string {
	for _, o := range a.Occurrences() {
		if o.Target.Name == newName && typeNameKinds[o.Target.Kind] {
			return fmt.Sprintf("renaming '%s' to '%s' would clash with the %s '%s'", t.Name, newName, o.Target.Kind, newName)
		}
	}
	if builtins.LookupType(newName) != nil || builtinCtorNames[newName] {
		return fmt.Sprintf("'%s' is a builtin name", newName)
	}
	return ""
}

// fieldRenameClash refuses a field rename onto another field of the same record.
func fieldRenameClash(t *query.Target, newName string) string {
	if t.Def == nil {
		return ""
	}
	for _, f := range t.Def.Fields {
		if f == newName {
			return fmt.Sprintf("%s already has a field '%s'", t.Def.Name, newName)
		}
	}
	return ""
}

// labelRenameClash refuses a label rename onto another label of the same signature.
func labelRenameClash(t *query.Target, newName string) string {
	for _, p := range t.Sig.Params {
		if p.Label == newName {
			return fmt.Sprintf("%s already has a parameter labelled '%s'", t.Sig.Name, newName)
		}
	}
	return ""
}

// scopeHasName reports whether a local called name other than except is
// in scope at offset pos.
func scopeHasName(a *query.Analysis, pos int, name string, except *types.Object) bool {
	for _, l := range a.Scope(pos) {
		if l.Name == name && l != except {
			return true
		}
	}
	return false
}

// localUseCaptured refuses a local rename when another binding of newName
// is in scope at one of its uses.
func localUseCaptured(a *query.Analysis, t *query.Target, refs []*query.Occ, newName string) string {
	for _, r := range refs {
		if r.Target.Kind != query.KLabel && scopeHasName(a, r.Span.Start, newName, t.Obj) {
			return fmt.Sprintf("renaming '%s' to '%s' would clash with the local '%s' in scope at a use", t.Name, newName, newName)
		}
	}
	return ""
}

// localCapturesUse refuses a local rename when a use of newName falls in
// the renamed binding's scope (it would then resolve to the binding).
func localCapturesUse(a *query.Analysis, t *query.Target, newName string) string {
	for _, o := range a.Occurrences() {
		if o.Target.Name != newName || o.Def || o.Target.Kind == query.KLabel || o.Target.Kind == query.KField {
			continue
		}
		for _, l := range a.Scope(o.Span.Start) {
			if l == t.Obj {
				return fmt.Sprintf("renaming '%s' to '%s' would capture the use of '%s' here", t.Name, newName, newName)
			}
		}
	}
	return ""
}

// paramRenameClash refuses a parameter rename onto the name or label of
// another parameter of the same function.
func paramRenameClash(a *query.Analysis, t *query.Target, newName string) string {
	if t.Kind != query.KParam {
		return ""
	}
	fd := a.FuncAt(t.DeclSpan.Start)
	if fd == nil {
		return ""
	}
	for _, p := range fd.Params {
		if p.Name == newName || p.Label == newName {
			return fmt.Sprintf("'%s' already has a parameter '%s'", fd.Name, newName)
		}
	}
	return ""
}

// uniqueSortedSpans returns the distinct spans of refs in source order.
func uniqueSortedSpans(refs []*query.Occ) []source.Span {
	var out []source.Span
	seen := map[source.Span]bool{}
	for _, r := range refs {
		if !seen[r.Span] {
			seen[r.Span] = true
			out = append(out, r.Span)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
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

// completion answers textDocument/completion: members after a dot,
// else labels, imported names, locals, functions, types and builtins.
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
		dotCompletions(c, a, text, ws)
		return c.result(), nil
	}
	labelCompletions(c, a, text, ws)
	importedNames(c, a)
	for _, l := range a.Scope(off) {
		c.add(l.Name, ciVariable, l.Name+": "+query.TypeString(l.Type))
	}
	for _, sig := range a.Funcs() {
		c.add(sig.Name, ciFunction, query.SigString(sig))
	}
	typeCompletions(c, a)
	builtinCompletions(c)
	return c.result(), nil
}

// dotCompletions completes after `Qualifier.` (a type's constructors or
// a builtin module's members), `module.` (an import's names) or `expr.`
// (fields); ws is where the word after the dot starts.
func dotCompletions(c *completionList, a *query.Analysis, text string, ws int) {
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
}

// typeCompletions adds the document's types and their constructors.
func typeCompletions(c *completionList, a *query.Analysis) {
	for _, td := range a.TypeDecls() {
		name, _ := query.TypeDeclName(td)
		c.add(name, ciStruct, "type "+name)
		if a.Info == nil {
			continue
		}
		if def := a.Info.TypeDefs[name]; def != nil {
			for _, ct := range def.Ctors {
				c.add(ct.Name, ciEnumMember, query.CtorString(ct))
			}
		}
	}
}

// builtinCompletions adds the builtin functions outside modules, the
// builtin modules, constructors and types, and the keywords.
func builtinCompletions(c *completionList) {
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
}

// memberCompletions lists what follows `qual.`: a builtin module's
// functions and types, a type's constructors.
func memberCompletions(c *completionList, a *query.Analysis, qual string) {
	// Members two levels down (Process.ExitReason...) are reached
	// through their type, so only the module's own are listed.
	for _, e := range builtins.All() {
		if e.Module() == qual {
			c.add(e.Member(), ciFunction, query.BuiltinString(e.Name))
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
	builtinVariantCompletions(c, qual)
}

// builtinVariantCompletions adds the variants of the builtin type qual,
// or of the types of the builtin module qual.
func builtinVariantCompletions(c *completionList, qual string) {
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
			if d.Pub {
				f(ast.PlainName(d.Name), ciFunction, checkedSig(a, d))
			}
		case *ast.TypeDecl:
			if d.Pub {
				publicType(d, f)
			}
		case *ast.NewtypeDecl:
			if d.Pub {
				f(ast.PlainName(d.Name), ciStruct, "newtype "+ast.PlainName(d.Name))
				f(ast.PlainName(d.Ctor), ciEnumMember, "")
			}
		case *ast.ImportDecl:
			if d.Pub {
				reexports(d, f)
			}
		}
	}
}

// reexports gives f the names a public import re-exports.
func reexports(d *ast.ImportDecl, f func(name string, kind int, detail string)) {
	for _, n := range d.Names {
		f(n.Name, ciFunction, "re-exported from "+ast.PathString(d.Path))
	}
}

// checkedSig is the signature text of function d when it was checked, or "".
func checkedSig(a *query.Analysis, d *ast.FnDecl) string {
	if a.Info == nil {
		return ""
	}
	if sig := a.Info.Funcs[d]; sig != nil {
		return query.SigString(sig)
	}
	return ""
}

// publicType gives f a public type's name and its variants.
func publicType(d *ast.TypeDecl, f func(name string, kind int, detail string)) {
	f(ast.PlainName(d.Name), ciStruct, "type "+ast.PlainName(d.Name))
	for _, v := range d.Variants {
		f(ast.PlainName(v.Name), ciEnumMember, ast.PlainName(d.Name)+"."+ast.PlainName(v.Name))
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
			selectedNames(c, a, im, name)
		case im.Alias != "":
			c.add(im.Alias, ciModule, "module "+name)
		default:
			c.add(im.Path[0], ciModule, "module "+name)
		}
	}
}

// selectedNames adds the names a selective import of module name lists,
// each with its detail from the module when it has one.
func selectedNames(c *completionList, a *query.Analysis, im *ast.ImportDecl, name string) {
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
}

// fieldCompletions lists the fields of a record or the slots of a tuple
// after `name.` (name a local in scope at its position).
func fieldCompletions(c *completionList, a *query.Analysis, qual string, at int) {
	if strings.Contains(qual, ".") {
		return
	}
	t := localType(a, qual, at)
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

// localType is the type of the local called name in scope at offset at, or nil.
func localType(a *query.Analysis, name string, at int) types.Type {
	var t types.Type
	for _, l := range a.Scope(at) {
		if l.Name == name {
			t = l.Type
		}
	}
	return t
}

// enclosingCall finds the unclosed '(' before off and the callee name
// written before it; argIndex counts the commas at its level; written
// lists the labels already written (`label:`).
func enclosingCall(text string, off int) (callee string, open, argIndex int, curLabel string, written []string, ok bool) {
	open = openParen(text, off)
	if open < 0 {
		return "", 0, 0, "", nil, false
	}
	j := open
	for j > 0 && (wordByte(text[j-1]) || text[j-1] == '.') {
		j--
	}
	callee = text[j:open]
	if callee == "" {
		return "", 0, 0, "", nil, false
	}
	args := query.SplitArgs(text[open+1 : off])
	for _, arg := range args[:len(args)-1] {
		if l := argLabel(arg); l != "" {
			written = append(written, l)
		}
	}
	return callee, open, len(args) - 1, argLabel(args[len(args)-1]), written, true
}

// openParen returns the offset of the unclosed '(' before off, or -1
// when the innermost unclosed bracket is another one or there is none
// (calls may span lines; a line that is not indented ends the search).
func openParen(text string, off int) int {
	depth := 0
	for i := off - 1; i >= 0; i-- {
		switch text[i] {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				if text[i] != '(' {
					return -1
				}
				return i
			}
			depth--
		case '\n':
			if unindentedLine(text, i+1, off) {
				return -1
			}
		}
	}
	return -1
}

// unindentedLine reports whether the line starting at i (before off)
// starts with neither a blank nor ')': a new declaration, not the rest of
// a call.
func unindentedLine(text string, i, off int) bool {
	return i < len(text) && i < off && !(text[i] == ' ' || text[i] == '\t' || text[i] == ')')
}

// argLabel returns the label written at the start of an argument
// (`label: ...`), or "".
func argLabel(arg string) string {
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

// labelCompletions offers `label: ` for the parameters of the enclosing
// call to a function of the file that are not written yet.
func labelCompletions(c *completionList, a *query.Analysis, text string, ws int) {
	callee, open, _, _, written, ok := enclosingCall(text, ws)
	if !ok || !argStart(text, ws) {
		return
	}
	labels, details := calleeLabels(a, text, open, callee)
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

// argStart reports whether the word at ws starts an argument (only
// blanks after the '(' or ',' before it).
func argStart(text string, ws int) bool {
	k := ws - 1
	for k >= 0 && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n') {
		k--
	}
	return k >= 0 && (text[k] == '(' || text[k] == ',')
}

// calleeLabels returns the parameter labels of the called function and
// a detail for each: a user function's, or a builtin's called with labels
// (eq, compare).
func calleeLabels(a *query.Analysis, text string, open int, callee string) (labels, details []string) {
	if sig := calleeSig(a, text, open, callee); sig != nil {
		for i, p := range sig.Params {
			labels = append(labels, p.Label)
			details = append(details, query.ParamString(sig, i))
		}
		return labels, details
	}
	if e := builtins.Lookup(callee); e != nil && len(e.Labels) > 0 {
		return e.Labels, query.BuiltinParams(callee)
	}
	return nil, nil
}

// calleeSig is the signature of the user function named just before the
// '(' at open (written plain, qualified by a module, or imported).
// When the analysis is of another version of the text (the last one that
// parsed), the callee is looked up by the name written.
func calleeSig(a *query.Analysis, text string, open int, callee string) *types.FuncSig {
	if sig := indexedCallee(a, text, open); sig != nil {
		return sig
	}
	if sig := a.FuncByName(callee); sig != nil {
		return sig
	}
	qual, name := "", callee
	if i := strings.LastIndexByte(callee, '.'); i >= 0 {
		qual, name = callee[:i], callee[i+1:]
	}
	for _, im := range imports(a) {
		if importReaches(im, qual, name) {
			if sig, found := pubFuncSig(a, ast.PathString(im.Path), name); found {
				return sig
			}
		}
	}
	return nil
}

// indexedCallee is the function the analysis resolved just before the
// '(' at open, when the analysis is of text itself.
func indexedCallee(a *query.Analysis, text string, open int) *types.FuncSig {
	if a.File == nil || string(a.File.Src) != text {
		return nil
	}
	if o := a.At(open); o != nil && o.Target.Kind == query.KFunc && o.Span.End == open {
		return o.Target.Sig
	}
	return nil
}

// importReaches reports whether import im makes name callable as written:
// unqualified when im imports it (or everything), qualified by im's
// alias or, without one, its module path.
func importReaches(im *ast.ImportDecl, qual, name string) bool {
	if qual != "" {
		return im.Alias == qual || im.Alias == "" && ast.PathString(im.Path) == qual
	}
	if im.All {
		return true
	}
	for _, n := range im.Names {
		if n.Name == name {
			return true
		}
	}
	return false
}

// pubFuncSig finds the public function name of module mod and returns
// its signature (nil when it was not checked).
func pubFuncSig(a *query.Analysis, mod, name string) (sig *types.FuncSig, found bool) {
	m := moduleNamed(a, mod)
	if m == nil || a.Info == nil {
		return nil, false
	}
	for _, d := range m.AST.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && fd.Pub && ast.PlainName(fd.Name) == name {
			return a.Info.Funcs[fd], true
		}
	}
	return nil, false
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

// signatureHelp answers textDocument/signatureHelp for the call around
// the cursor, with the active parameter.
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
	var h sigHelp
	if sig := calleeSig(a, d.text, open, callee); sig != nil {
		h = userSigHelp(sig, curLabel, argIndex)
	} else if e := builtins.Lookup(callee); e != nil {
		h = builtinSigHelp(e, callee, curLabel, argIndex)
	} else {
		return nil, nil
	}
	sigInfo := map[string]any{"label": h.label, "parameters": paramOffsets(h.label, h.params)}
	if h.doc != "" {
		sigInfo["documentation"] = h.doc
	}
	argIndex = h.active
	if argIndex >= len(h.params) {
		argIndex = max(len(h.params)-1, 0)
	}
	return map[string]any{"signatures": []any{sigInfo}, "activeSignature": 0, "activeParameter": argIndex}, nil
}

// sigHelp is a signature for signatureHelp: its label, the text of each
// parameter in it, its documentation and the active parameter.
type sigHelp struct {
	label  string
	params []string
	doc    string
	active int
}

// userSigHelp is the signature of a user function; the parameter whose
// label is being written (curLabel), if any, is active, else argIndex.
func userSigHelp(sig *types.FuncSig, curLabel string, argIndex int) sigHelp {
	h := sigHelp{active: argIndex}
	for i := range sig.Params {
		h.params = append(h.params, query.ParamString(sig, i))
		if curLabel != "" && sig.Params[i].Label == curLabel {
			h.active = i
		}
	}
	h.label = "fn " + ast.PlainName(sig.Name) + "(" + strings.Join(h.params, ", ") + ") -> " + query.TypeString(sig.Ret)
	if sig.Decl != nil {
		h.doc = strings.TrimSpace(sig.Decl.Docs)
	}
	return h
}

// builtinSigHelp is the signature of a builtin; the parameter labelled
// curLabel, if any, is active, else argIndex.
func builtinSigHelp(e *builtins.Entry, callee, curLabel string, argIndex int) sigHelp {
	h := sigHelp{params: query.BuiltinParams(callee), label: query.BuiltinString(callee), doc: e.Doc, active: argIndex}
	for i, l := range e.Labels {
		if l == curLabel {
			h.active = i
		}
	}
	return h
}

// paramOffsets gives each parameter's place in the signature label as
// UTF-16 offsets (LSP ParameterInformation labels).
func paramOffsets(label string, ps []string) []any {
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
	return pinfo
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

// documentSymbol answers textDocument/documentSymbol with the
// document's functions and types (variants and fields as children).
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
	for _, decl := range a.AST.Decls {
		if !a.InDoc(decl.Span()) {
			continue
		}
		switch x := decl.(type) {
		case *ast.FnDecl:
			out = append(out, docSymbol(a.File, x.Name, fnDetail(a, x), skFunction, x.Span(), x.NameSpan, nil))
		case *ast.TypeDecl:
			out = append(out, typeSymbol(a.File, x))
		case *ast.NewtypeDecl:
			out = append(out, docSymbol(a.File, x.Name, "newtype", skStruct, x.Span(), x.NameSpan, nil))
		}
	}
	return out, nil
}

// docSymbol is an LSP DocumentSymbol; a selection range that is empty or
// outside the full range is replaced by the full range.
func docSymbol(f *source.File, name, detail string, kind int, full, sel source.Span, children []any) map[string]any {
	if sel.End <= sel.Start || sel.Start < full.Start || sel.End > full.End {
		sel = full
	}
	m := map[string]any{"name": name, "kind": kind, "range": lspRangeOf(f, full), "selectionRange": lspRangeOf(f, sel)}
	if detail != "" {
		m["detail"] = detail
	}
	if len(children) > 0 {
		m["children"] = children
	}
	return m
}

// fnDetail is a function symbol's detail: its signature when checked.
func fnDetail(a *query.Analysis, x *ast.FnDecl) string {
	if a.Info == nil {
		return ""
	}
	if sig := a.Info.Funcs[x]; sig != nil && sig.Decl == x {
		return query.SigString(sig)
	}
	return ""
}

// typeSymbol is a type declaration's symbol, with its variants and
// record fields as children: an enum, a struct for a record, a class for
// an alias.
func typeSymbol(f *source.File, x *ast.TypeDecl) map[string]any {
	var kids []any
	kind := skEnum
	for _, v := range x.Variants {
		kids = append(kids, docSymbol(f, v.Name, "", skEnumMember, v.Span(), source.Span{Start: v.Span().Start, End: v.Span().Start + len(v.Name)}, nil))
	}
	if x.Kind == ast.RecordType {
		kind = skStruct
		for _, fl := range x.Fields {
			kids = append(kids, docSymbol(f, fl.Name, "", skField, fl.Span(), source.Span{Start: fl.Span().Start, End: fl.Span().Start + len(fl.Name)}, nil))
		}
	}
	if x.Kind == ast.AliasType {
		kind = skClass
	}
	return docSymbol(f, x.Name, "type", kind, x.Span(), x.NameSpan, kids)
}

// ---------------------------------------------------------------- semantic tokens

// semanticTokens answers textDocument/semanticTokens/full.
func (s *lspServer) semanticTokens(params json.RawMessage) (any, *rpcError) {
	d, err := s.docOf(params)
	if d == nil {
		if err != nil {
			return nil, err
		}
		return map[string]any{"data": []int{}}, nil
	}
	enc := &tokenEncoder{f: d.an.File, data: []int{}}
	for _, t := range d.an.Tokens() {
		enc.token(t)
	}
	return map[string]any{"data": enc.data}, nil
}

// tokenEncoder builds the LSP semantic token data: five integers per
// token, its line and start relative to the previous token's.
type tokenEncoder struct {
	f                  *source.File
	data               []int
	prevLine, prevChar int
}

// token encodes t, split at line ends since a token may not span lines
// (multi-line strings and comments); a line's '\r' is left out.
func (enc *tokenEncoder) token(t query.SemToken) {
	src := enc.f.Src
	start := t.Span.Start
	for start < t.Span.End {
		end := start
		for end < t.Span.End && src[end] != '\n' {
			end++
		}
		lineEnd := end
		if lineEnd > start && src[lineEnd-1] == '\r' {
			lineEnd--
		}
		if lineEnd > start {
			enc.emit(start, lineEnd, t.Type)
		}
		start = end + 1
	}
}

// emit encodes one single-line token over [start, end).
func (enc *tokenEncoder) emit(start, end int, tt query.TokenType) {
	line := enc.f.Line(start) - 1
	ch := enc.f.UTF16Column(start)
	length := utf16Len(string(enc.f.Src[start:end]))
	if length == 0 {
		return
	}
	dl := line - enc.prevLine
	dc := ch
	if dl == 0 {
		dc = ch - enc.prevChar
	}
	enc.data = append(enc.data, dl, dc, length, int(tt), 0)
	enc.prevLine, enc.prevChar = line, ch
}

// ---------------------------------------------------------------- code actions

// codeAction answers textDocument/codeAction: the quick fixes of the
// diagnostics in the range and the fix-all source action.
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
	lo, hi, ok := rangeOffsets(d.text, *p.Range)
	if !ok {
		return nil, invalidParams("codeAction has an invalid range")
	}
	if actionWanted(p.Context.Only, "quickfix") {
		out = append(out, quickFixes(d, lo, hi)...)
	}
	if actionWanted(p.Context.Only, "source.fixAll.morrow") && d.an.ParseOK {
		out = append(out, s.fixAllAction(d)...)
	}
	return out, nil
}

// actionWanted reports whether a code action of kind is asked for by the
// context's only list (all kinds when it is empty; a kind covers its subkinds).
func actionWanted(only []string, kind string) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if kind == o || strings.HasPrefix(kind, o+".") {
			return true
		}
	}
	return false
}

// quickFixes returns a quickfix action for each fix of the document's
// diagnostics that touch [lo, hi].
func quickFixes(d *lspDoc, lo, hi int) []any {
	a := d.an
	name := uriPath(d.uri)
	var out []any
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
	return out
}

// fixAllAction returns the fix-all source action, if there is one: with
// its edit, or, when the client resolves edits, with the data to make it
// by codeAction/resolve when chosen (formatting a large file takes a while).
func (s *lspServer) fixAllAction(d *lspDoc) []any {
	action := map[string]any{"title": fixAllTitle, "kind": "source.fixAll.morrow"}
	if s.resolveEdits {
		action["data"] = map[string]any{"uri": d.uri, "version": d.version}
		return []any{action}
	}
	if edit := s.fixAllEdit(d); edit != nil {
		action["edit"] = edit
		return []any{action}
	}
	return nil
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
