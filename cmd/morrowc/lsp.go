package main

// `morrowc lsp`: a Language Server Protocol server over stdio.
//
// The server keeps the text of every open document, checks a document
// with compiler.Check whenever it is opened or changed (the unsaved text,
// not the file on disk), and publishes all of its diagnostics; closing a
// document publishes an empty list. Changes may be whole documents or
// ranges (incremental sync). LSP positions are 0-based lines and 0-based
// UTF-16 code-unit columns, both for the ranges the client sends and for
// the diagnostics the server publishes.
//
// Messages are JSON-RPC 2.0 framed by a Content-Length header. Nothing the
// client sends stops the server except `exit` or the end of input:
//   - a frame without a usable Content-Length, or with a body that is not
//     JSON, is answered with ParseError (-32700, id null); the reader then
//     looks for the next header, skipping data that cannot start one;
//   - JSON that is not a request object (an array, a scalar, a wrong
//     "jsonrpc", a non-string method, an id that is neither number nor
//     string) gets InvalidRequest (-32600), as do requests after shutdown
//     and a second initialize;
//   - requests before initialize get ServerNotInitialized (-32002);
//   - requests with parameters of the wrong shape get InvalidParams
//     (-32602); a notification cannot be answered, so its bad parameters
//     are reported with window/logMessage;
//   - unknown requests get MethodNotFound (-32601); unknown notifications
//     are ignored, as the protocol asks.
// The exit status follows the protocol: 0 after shutdown, 1 otherwise.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/modules"
	"github.com/morrow-lang/morrow/lang/query"
	"github.com/morrow-lang/morrow/lang/source"
)

func newLSP(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the Language Server Protocol server on stdin/stdout",
		Long: "lsp speaks the Language Server Protocol over standard input and output\n" +
			"(Content-Length framing): it publishes the diagnostics of open documents and\n" +
			"answers hover, definition, references, rename, completion, signature help,\n" +
			"document symbols, semantic tokens, code actions and formatting (docs/editors.md).\n" +
			"Exit status: 0 after shutdown and exit, 1 otherwise.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s := newLSPServer(e.stdin, e.stdout)
			if code := s.serve(); code != exitOK {
				return exitStatus(code)
			}
			return nil
		},
	}
}

// maxLSPMessage bounds one message body; sources are limited to 1 MiB, so
// a legitimate message is far smaller. A larger body is skipped.
const maxLSPMessage = 64 << 20

// maxLSPDocs bounds the open documents (the program limit of
// modules: 128 files per program); a didOpen beyond it is refused and logged.
const maxLSPDocs = 128

type lspDoc struct {
	uri     string
	text    string
	version int
	// an is the analysis of text (made when the document is opened or
	// changed); good is the last analysis whose text parsed, which
	// completion falls back on while a declaration is half-written.
	an   *query.Analysis
	good *query.Analysis
	opts modules.Options // the loader options an was made with (unsaved buffers)
	// formatted is `morrowc fmt` of text (nil until asked for, by the
	// fix-all code action); fmtOK is false when the text does not format.
	formatted []byte
	fmtOK     bool
	deps      map[string]bool // absolute paths of the modules it imports, transitively
}

type lspServer struct {
	in          *bufio.Reader
	out         io.Writer
	docs        map[string]*lspDoc // URI -> open document
	initialized bool
	shutdown    bool
	pending     string // a header line recovered from the middle of junk
	werr        error  // first write error: the client is gone
	// resolveEdits: the client resolves a code action's edit lazily
	// (codeAction/resolve), so the fix-all action is formatted only when
	// chosen.
	resolveEdits bool
}

func newLSPServer(in io.Reader, out io.Writer) *lspServer {
	return &lspServer{in: bufio.NewReader(in), out: out, docs: map[string]*lspDoc{}}
}

type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return e.Message }

// JSON-RPC and LSP error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	rpcInvalidParams  = -32602
	rpcInternalError  = -32603
	lspNotInitialized = -32002
)

func invalidParams(format string, args ...any) *rpcError {
	return &rpcError{Code: rpcInvalidParams, Message: "invalid params: " + fmt.Sprintf(format, args...)}
}

// frameError is a malformed frame: it is answered and reading goes on.
type frameError struct{ msg string }

func (e *frameError) Error() string { return e.msg }

// serve runs until the client sends exit or the input ends.
func (s *lspServer) serve() int {
	for s.werr == nil {
		body, err := s.read()
		if err != nil {
			var fe *frameError
			if !errors.As(err, &fe) {
				break // end of input or a read error: the client is gone
			}
			s.reply(nil, nil, &rpcError{Code: rpcParseError, Message: "malformed message: " + fe.msg})
			continue
		}
		if s.handle(body) {
			break
		}
	}
	return boolStatus(s.shutdown)
}

func boolStatus(ok bool) int {
	if ok {
		return exitOK
	}
	return exitError
}

// maxHeaderLine bounds one header line, newline included. A longer line
// is skipped without being held in memory (errLongLine), so a client
// that sends gigabytes without a newline cannot exhaust the server.
const maxHeaderLine = 1 << 20

// errLongLine reports a header line longer than maxHeaderLine.
var errLongLine = errors.New("header line too long")

// nextLine returns the next header line, including its newline.
func (s *lspServer) nextLine() (string, error) {
	if s.pending != "" {
		l := s.pending
		s.pending = ""
		return l, nil
	}
	var line []byte
	for {
		chunk, err := s.in.ReadSlice('\n')
		if len(line)+len(chunk) > maxHeaderLine {
			for err == bufio.ErrBufferFull {
				_, err = s.in.ReadSlice('\n')
			}
			return "", errLongLine
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return string(line), err
		}
	}
}

const contentLength = "content-length:"

// read returns the body of the next framed message. It returns io.EOF (or
// the read error) when the input ends between messages, and a *frameError
// for a malformed frame.
func (s *lspServer) read() ([]byte, error) {
	h, err := s.readHeader()
	if err != nil {
		return nil, err
	}
	return s.readBody(h)
}

// frameHeader is what a frame's header said: its length (-1 when not
// given) and the first problem found in it.
type frameHeader struct {
	length  int
	problem string
}

// note records p unless an earlier problem was recorded.
func (h *frameHeader) note(p string) {
	if h.problem == "" {
		h.problem = p
	}
}

// contentLength takes the value of a Content-Length header.
func (h *frameHeader) contentLength(value string) {
	v := strings.TrimSpace(value)
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 0 || v[0] == '+':
		h.note("bad Content-Length " + quoteShort(v))
	case h.length >= 0 && n != h.length:
		h.note("conflicting Content-Length headers")
	default:
		h.length = n
	}
}

// readHeader reads a frame's header lines up to the blank line that ends
// them, skipping blank lines before the header.
func (s *lspServer) readHeader() (frameHeader, error) {
	h := frameHeader{length: -1}
	seen := false
	for {
		line, err := s.nextLine()
		if err != nil {
			return h, headerReadError(err, seen, line)
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if line == "" {
			if !seen {
				continue // tolerate blank lines between messages
			}
			return h, nil
		}
		seen = true
		if err := s.headerLine(&h, line); err != nil {
			return h, err
		}
	}
}

// headerReadError is read's error when reading a header line failed:
// the read error itself at the end of the input between messages, a
// *frameError otherwise.
func headerReadError(err error, seen bool, line string) error {
	if err == errLongLine {
		return &frameError{fmt.Sprintf("header line longer than %d bytes", maxHeaderLine)}
	}
	if !seen && strings.TrimSpace(line) == "" {
		return err
	}
	return &frameError{"input ended inside a message header"}
}

// headerLine takes one header line into h. Data that is not a header is
// noted as a problem, perhaps the body of a frame whose length was
// unusable; a header glued to its end starts the next frame (the error).
func (s *lspServer) headerLine(h *frameHeader, line string) error {
	name, value, ok := strings.Cut(line, ":")
	if !ok || !headerName(name) {
		if i := indexASCIIFold(line, contentLength); i > 0 {
			s.pending = line[i:] + "\n"
			return &frameError{fmt.Sprintf("data outside a message: %s", quoteShort(line[:i]))}
		}
		h.note("not a header line: " + quoteShort(line))
		return nil
	}
	if strings.EqualFold(name, "Content-Length") {
		h.contentLength(value)
	}
	// Content-Type and other headers are accepted and ignored.
	return nil
}

// readBody reads the body of a frame with header h; when the header had a
// problem or the body is too large, it skips the body (so that the next
// frame is found) and reports the problem.
func (s *lspServer) readBody(h frameHeader) ([]byte, error) {
	if h.length < 0 {
		if h.problem != "" {
			return nil, &frameError{h.problem}
		}
		return nil, &frameError{"missing Content-Length header"}
	}
	if h.problem != "" || h.length > maxLSPMessage {
		if n, _ := io.CopyN(io.Discard, s.in, int64(h.length)); n < int64(h.length) {
			return nil, &frameError{"input ended inside a message body"}
		}
		h.note(fmt.Sprintf("message of %d bytes exceeds the %d-byte limit", h.length, maxLSPMessage))
		return nil, &frameError{h.problem}
	}
	body, err := io.ReadAll(io.LimitReader(s.in, int64(h.length)))
	if err != nil || len(body) < h.length {
		return nil, &frameError{"input ended inside a message body"}
	}
	return body, nil
}

// indexASCIIFold is strings.Index ignoring ASCII case, for a lower-case
// needle. Unlike strings.ToLower it never changes byte offsets (invalid
// UTF-8 stays as it is).
func indexASCIIFold(s, lower string) int {
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for ; j < len(lower); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return i
		}
	}
	return -1
}

// headerName reports whether s is an HTTP-style header field name (a
// token of tchar bytes).
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tchar[s[i]] {
			return false
		}
	}
	return true
}

// tchar marks the bytes allowed in a header field name: ASCII letters,
// digits and "!#$%&'*+-.^_`|~".
var tchar = func() (t [256]bool) {
	for _, c := range "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" {
		t[c] = true
	}
	return t
}()

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// jsonKind classifies a raw JSON value by its first byte.
func jsonKind(raw json.RawMessage) byte {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return 0
	}
	switch c := b[0]; c {
	case '{', '[', '"', 't', 'f', 'n':
		return c
	default:
		return '0' // a number
	}
}

// lspMessage is a request or notification whose envelope is valid.
type lspMessage struct {
	id     json.RawMessage // nil for a notification
	hasID  bool
	method string
	params json.RawMessage // nil when absent or null
}

// handle processes one message body and reports whether the server must
// stop (the exit notification).
func (s *lspServer) handle(body []byte) (stop bool) {
	m, ok := s.envelope(body)
	if !ok {
		return false
	}
	defer func() {
		// A bug in a handler must not take the editor's server down.
		if r := recover(); r != nil {
			stop = false
			msg := fmt.Sprintf("internal error handling %s: %v", m.method, r)
			if m.hasID {
				s.reply(m.id, nil, &rpcError{Code: rpcInternalError, Message: msg})
			} else {
				s.logError(msg)
			}
		}
	}()
	return s.dispatch(m)
}

// dispatch runs a valid message: a request is answered, exit stops the
// server, other notifications are handled once initialized.
func (s *lspServer) dispatch(m *lspMessage) (stop bool) {
	if m.hasID {
		result, err := s.request(m.method, m.params)
		if err != nil {
			s.reply(m.id, nil, err)
		} else {
			s.reply(m.id, result, nil)
		}
		return false
	}
	if m.method == "exit" {
		return true
	}
	if !s.initialized || s.shutdown {
		return false // notifications are dropped before initialize and after shutdown
	}
	if err := s.notification(m.method, m.params); err != nil {
		s.logError(m.method + ": " + err.Error())
	}
	return false
}

// envelope checks a message's JSON-RPC envelope, replying to an invalid
// one; ok is false when there is nothing more to do (an error was sent,
// or the message is a response, which the server never asks for).
func (s *lspServer) envelope(body []byte) (*lspMessage, bool) {
	fields, rerr := messageFields(body)
	if rerr != nil {
		s.reply(nil, nil, rerr)
		return nil, false
	}
	m := &lspMessage{}
	if rawID, hasID := fields["id"]; hasID {
		if k := jsonKind(rawID); k != '0' && k != '"' {
			s.reply(nil, nil, &rpcError{Code: rpcInvalidRequest, Message: "id must be a number or a string"})
			return nil, false
		}
		m.id, m.hasID = rawID, true
	}
	if _, hasMethod := fields["method"]; !hasMethod && m.hasID && isResponse(fields) {
		return nil, false // a response; the server sends no requests, so it answers none
	}
	if rerr := m.setMethod(fields); rerr != nil {
		s.reply(m.id, nil, rerr)
		return nil, false
	}
	if !s.setParams(m, fields["params"]) {
		return nil, false
	}
	return m, true
}

// setParams checks a message's params (absent, null, an object or an
// array) and sets m.params, null as nil; a bad one is answered (or
// logged, for a notification) and ok is false.
func (s *lspServer) setParams(m *lspMessage, params json.RawMessage) (ok bool) {
	switch jsonKind(params) {
	case 0, '{', '[':
		m.params = params
	case 'n':
		m.params = nil
	default:
		if m.hasID {
			s.reply(m.id, nil, invalidParams("params must be an object or an array"))
		} else {
			s.logError(m.method + ": invalid params: params must be an object or an array")
		}
		return false
	}
	return true
}

// messageFields decodes a message body into its members; it must be a
// JSON object (batches are not supported).
func messageFields(body []byte) (map[string]json.RawMessage, *rpcError) {
	if !json.Valid(body) {
		return nil, &rpcError{Code: rpcParseError, Message: "invalid JSON"}
	}
	var fields map[string]json.RawMessage
	if jsonKind(body) != '{' || json.Unmarshal(body, &fields) != nil {
		msg := "a message must be a JSON object"
		if jsonKind(body) == '[' {
			msg = "batch messages are not supported"
		}
		return nil, &rpcError{Code: rpcInvalidRequest, Message: msg}
	}
	return fields, nil
}

// isResponse reports whether a message without a method carries a result or an error.
func isResponse(fields map[string]json.RawMessage) bool {
	_, isResult := fields["result"]
	_, isError := fields["error"]
	return isResult || isError
}

// setMethod checks the message's method and jsonrpc version and sets m.method.
func (m *lspMessage) setMethod(fields map[string]json.RawMessage) *rpcError {
	rawMethod, hasMethod := fields["method"]
	if !hasMethod {
		return &rpcError{Code: rpcInvalidRequest, Message: "missing method"}
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return &rpcError{Code: rpcInvalidRequest, Message: `"jsonrpc" must be "2.0"`}
	}
	if json.Unmarshal(rawMethod, &m.method) != nil || jsonKind(rawMethod) != '"' {
		return &rpcError{Code: rpcInvalidRequest, Message: "method must be a string"}
	}
	return nil
}

// request answers one request.
func (s *lspServer) request(method string, params json.RawMessage) (any, *rpcError) {
	switch {
	case s.shutdown:
		return nil, &rpcError{Code: rpcInvalidRequest, Message: "server is shutting down; only exit is accepted"}
	case method == "initialize":
		if s.initialized {
			return nil, &rpcError{Code: rpcInvalidRequest, Message: "server already initialized"}
		}
		if err := checkInitializeParams(params); err != nil {
			return nil, err
		}
		s.initialized = true
		s.resolveEdits = clientResolvesEdits(params)
		return map[string]any{
			"capabilities": lspCapabilities(), // lsp_features.go
			"serverInfo":   map[string]any{"name": "morrowc", "version": "0.1.0"},
		}, nil
	case !s.initialized:
		return nil, &rpcError{Code: lspNotInitialized, Message: "server not initialized"}
	case method == "shutdown":
		s.shutdown = true
		return nil, nil
	case method == "textDocument/formatting":
		return s.formatting(params)
	default:
		if r, err, ok := s.featureRequest(method, params); ok {
			return r, err
		}
		return nil, &rpcError{Code: rpcMethodNotFound, Message: "method not supported: " + method}
	}
}

// checkInitializeParams checks the members of InitializeParams the types
// of which the protocol fixes; the server uses none of them.
func checkInitializeParams(params json.RawMessage) *rpcError {
	if jsonKind(params) != '{' {
		return invalidParams("initialize needs an InitializeParams object")
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil {
		return invalidParams("%v", err)
	}
	want := map[string]string{"processId": "0n", "rootUri": "\"n", "rootPath": "\"n", "capabilities": "{", "workspaceFolders": "[n", "locale": "\""}
	for name, kinds := range want {
		if v, ok := p[name]; ok && strings.IndexByte(kinds, jsonKind(v)) < 0 {
			return invalidParams("initialize: %s has the wrong type", name)
		}
	}
	if v, ok := p["processId"]; ok && jsonKind(v) == '0' {
		var n int64
		if json.Unmarshal(v, &n) != nil {
			return invalidParams("initialize: processId must be an integer")
		}
	}
	return nil
}

type lspTextDocument struct {
	URI     string  `json:"uri"`
	Text    *string `json:"text"`
	Version *int    `json:"version"`
}

// notification handles one notification after initialize.
func (s *lspServer) notification(method string, params json.RawMessage) error {
	switch method {
	case "textDocument/didOpen":
		return s.didOpen(params)
	case "textDocument/didChange":
		return s.didChange(params)
	case "textDocument/didClose":
		return s.didClose(params)
	}
	// Other notifications (initialized, didSave, $/cancelRequest,
	// $/setTrace, configuration changes, ...) need no action.
	return nil
}

// didOpen opens a document (within the limit of open documents) and
// publishes its diagnostics.
func (s *lspServer) didOpen(params json.RawMessage) error {
	var p struct {
		TextDocument *lspTextDocument `json:"textDocument"`
	}
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" || p.TextDocument.Text == nil {
		return invalidParams("didOpen needs textDocument.uri and textDocument.text")
	}
	if _, open := s.docs[p.TextDocument.URI]; !open && len(s.docs) >= maxLSPDocs {
		return fmt.Errorf("%s not opened: at most %d documents may be open at once", p.TextDocument.URI, maxLSPDocs)
	}
	d := &lspDoc{uri: p.TextDocument.URI, text: *p.TextDocument.Text}
	if p.TextDocument.Version != nil {
		d.version = *p.TextDocument.Version
	}
	s.docs[p.TextDocument.URI] = d
	s.publishChanged(p.TextDocument.URI)
	return nil
}

// lspChange is one of didChange's content changes: a range and its new
// text, or the whole new text when Range is nil.
type lspChange struct {
	Range *lspRange `json:"range"`
	Text  *string   `json:"text"`
}

// didChange applies content changes to an open document and publishes
// its diagnostics.
func (s *lspServer) didChange(params json.RawMessage) error {
	var p struct {
		TextDocument   *lspTextDocument `json:"textDocument"`
		ContentChanges []lspChange      `json:"contentChanges"`
	}
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" {
		return invalidParams("didChange needs textDocument.uri")
	}
	d, ok := s.docs[p.TextDocument.URI]
	if !ok {
		return invalidParams("didChange for %s, which is not open", p.TextDocument.URI)
	}
	text, err := applyChanges(d.text, p.ContentChanges)
	if err != nil {
		return err
	}
	d.text = text
	d.formatted = nil
	if p.TextDocument.Version != nil {
		d.version = *p.TextDocument.Version
	}
	s.publishChanged(p.TextDocument.URI)
	return nil
}

// applyChanges applies content changes to a copy of text, so that a bad
// change leaves the document as it was.
func applyChanges(text string, changes []lspChange) (string, error) {
	for i, c := range changes {
		if c.Text == nil {
			return "", invalidParams("contentChanges[%d] has no text", i)
		}
		if c.Range == nil {
			text = *c.Text
			continue
		}
		start, end, ok := rangeOffsets(text, *c.Range)
		if !ok || start > end {
			return "", invalidParams("contentChanges[%d] has an invalid range", i)
		}
		text = text[:start] + *c.Text + text[end:]
	}
	return text, nil
}

// didClose closes a document, republishes the documents that import it
// and clears its diagnostics.
func (s *lspServer) didClose(params json.RawMessage) error {
	uri, e := documentURI(params, "didClose")
	if e != nil {
		return e
	}
	delete(s.docs, uri)
	s.publishImporters(uri)
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": uri, "diagnostics": []any{}})
	return nil
}

// documentURI decodes the params of a message (what, for the error) that
// names a document by textDocument.uri, and returns that URI.
func documentURI(params json.RawMessage, what string) (string, *rpcError) {
	var p struct {
		TextDocument *lspTextDocument `json:"textDocument"`
	}
	if err := decodeParams(params, &p); err != nil {
		return "", err.(*rpcError)
	}
	if p.TextDocument == nil || p.TextDocument.URI == "" {
		return "", invalidParams("%s needs textDocument.uri", what)
	}
	return p.TextDocument.URI, nil
}

func decodeParams(params json.RawMessage, v any) error {
	if jsonKind(params) != '{' {
		return invalidParams("params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return invalidParams("%s has the wrong type", te.Field)
		}
		return invalidParams("%v", err)
	}
	return nil
}

// rangeOffsets converts an LSP range to byte offsets in text.
func rangeOffsets(text string, r lspRange) (lo, hi int, ok bool) {
	lo, ok1 := utf16Offset(text, r.Start)
	hi, ok2 := utf16Offset(text, r.End)
	return lo, hi, ok1 && ok2
}

// utf16Offset converts an LSP position to a byte offset in text. A line
// past the end means the end of the text and a character past the end of
// its line means the end of the line, as the protocol says.
func utf16Offset(text string, p lspPosition) (int, bool) {
	if p.Line < 0 || p.Character < 0 {
		return 0, false
	}
	off, ok := lineOffset(text, p.Line)
	if !ok {
		return len(text), true
	}
	n := 0
	for i, r := range text[off:] {
		if n >= p.Character || r == '\n' || r == '\r' {
			return off + i, true
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return len(text), true
}

// lineOffset is the byte offset where 0-based line starts in text; ok is
// false when text has fewer lines.
func lineOffset(text string, line int) (off int, ok bool) {
	for l := 0; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	return off, true
}

func (s *lspServer) write(m rpcMessage) {
	if s.werr != nil {
		return
	}
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		body, _ = json.Marshal(rpcMessage{JSONRPC: "2.0", ID: m.ID, Error: &rpcError{Code: rpcInternalError, Message: "cannot encode reply"}})
	}
	_, s.werr = fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
}

func (s *lspServer) reply(id json.RawMessage, result any, e *rpcError) {
	if id == nil {
		id = json.RawMessage("null")
	}
	m := rpcMessage{ID: id, Error: e}
	if e == nil {
		if result == nil {
			result = json.RawMessage("null")
		}
		m.Result = result
	}
	s.write(m)
}

func (s *lspServer) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err != nil {
		return
	}
	s.write(rpcMessage{Method: method, Params: b})
}

// logError reports a problem that has no request to answer.
func (s *lspServer) logError(msg string) {
	s.notify("window/logMessage", map[string]any{"type": 1, "message": "morrowc: " + msg})
}

// uriPath turns a file URI into the path shown in messages.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return uri
	}
	return u.Path
}

type lspPosition struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start lspPosition `json:"start"`
	End   lspPosition `json:"end"`
}

func lspPos(f *source.File, off int) lspPosition {
	if off < 0 {
		off = 0
	}
	if off > len(f.Src) {
		off = len(f.Src)
	}
	return lspPosition{Line: f.Line(off) - 1, Character: f.UTF16Column(off)}
}

func lspRangeOf(f *source.File, sp source.Span) lspRange {
	end := sp.End
	if end < sp.Start {
		end = sp.Start
	}
	return lspRange{Start: lspPos(f, sp.Start), End: lspPos(f, end)}
}

// lspDiagnostic converts one diagnostic of the document named name; notes
// and the hint are appended to the message, since LSP has no fields for
// them. A diagnostic located in another file is shown at the top of the
// document with its own location in the message.
func lspDiagnostic(uri, name string, d *diag.Diagnostic) map[string]any {
	sev := 1
	if d.Severity == diag.Warning {
		sev = 2
	}
	msg := d.Message
	if d.Label != "" {
		msg += " (" + d.Label + ")"
	}
	for _, n := range d.Notes {
		msg += "\nnote: " + n
	}
	if d.Hint != "" {
		msg += "\nhint: " + d.Hint
	}
	out := map[string]any{"severity": sev, "code": string(d.Code), "source": "morrowc", "message": msg, "range": lspRange{}}
	if d.File == nil {
		return out
	}
	if d.File.Name != name {
		p := d.File.Position(d.Span.Start)
		out["message"] = fmt.Sprintf("%s:%d:%d: %s", d.File.Name, p.Line, p.Column, msg)
		return out
	}
	out["range"] = lspRangeOf(d.File, d.Span)
	var rel []any
	for _, r := range d.Related {
		rel = append(rel, map[string]any{
			"location": map[string]any{"uri": uri, "range": lspRangeOf(d.File, r.Span)},
			"message":  r.Message,
		})
	}
	if len(rel) > 0 {
		out["relatedInformation"] = rel
	}
	return out
}

// publish checks one open document with the modules it imports (unsaved
// buffers of open documents over the files on disk) and sends its
// diagnostics; the diagnostics of imported files that are not open go to
// those files, and an imported file without any gets an empty list, which
// clears stale ones (docs/modules.md).
func (s *lspServer) publish(uri string) {
	d, ok := s.docs[uri]
	if !ok {
		return
	}
	name := uriPath(uri)
	overlay, open := s.overlay()
	// Every document is checked as a module (Library): a file without
	// main is a module others import, not a program missing its entry.
	d.opts = modules.Options{Overlay: overlay, Library: true}
	d.an = query.Analyze(name, []byte(d.text), d.opts)
	if d.an.ParseOK {
		d.good = d.an
	}
	u := d.an.Unit
	list, others := splitDiagnostics(uri, name, u.Diags, open)
	if err := d.an.Err; err != nil {
		list = append(list, map[string]any{
			"range": lspRange{}, "severity": 1, "source": "morrowc",
			"message": "internal compiler error (please report): " + oneLine(err.Error()),
		})
	}
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": uri, "version": d.version, "diagnostics": list})
	if u.Modules == nil {
		return
	}
	d.deps = map[string]bool{}
	for _, m := range u.Modules.Modules {
		if !m.Entry {
			d.deps[m.Abs] = true
		}
	}
	s.publishImported(u.Modules, open, others)
}

// overlay returns the texts of the open documents that are files, by
// absolute path, to be read over the files on disk, and the set of those paths.
func (s *lspServer) overlay() (map[string][]byte, map[string]bool) {
	overlay := map[string][]byte{}
	open := map[string]bool{}
	for du, doc := range s.docs {
		if p := uriPath(du); p != du {
			if abs, err := filepath.Abs(p); err == nil {
				overlay[abs] = []byte(doc.text)
				open[abs] = true
			}
		}
	}
	return overlay, open
}

// splitDiagnostics converts the diagnostics of a check of document uri
// (file name): those of imported files that are not open go to others,
// by absolute path; the rest are the document's own list.
func splitDiagnostics(uri, name string, diags diag.List, open map[string]bool) (list []any, others map[string][]any) {
	list = []any{}
	others = map[string][]any{}
	for _, dg := range diags {
		if dg.File != nil && dg.File.Name != name {
			if abs, e := filepath.Abs(dg.File.Name); e == nil && !open[abs] {
				others[abs] = append(others[abs], lspDiagnostic(fileURI(abs), dg.File.Name, dg))
				continue
			}
		}
		list = append(list, lspDiagnostic(uri, name, dg))
	}
	return list, others
}

// publishImported sends the diagnostics of each imported module that is
// not open, an empty list for those without any.
func (s *lspServer) publishImported(prog *modules.Program, open map[string]bool, others map[string][]any) {
	for _, m := range prog.Modules {
		if m.Entry || open[m.Abs] {
			continue
		}
		l := others[m.Abs]
		if l == nil {
			l = []any{}
		}
		s.notify("textDocument/publishDiagnostics", map[string]any{"uri": fileURI(m.Abs), "diagnostics": l})
	}
}

// publishChanged publishes a document that was opened or changed, and
// then every other open document that imports it (their diagnostics may
// depend on its unsaved text).
func (s *lspServer) publishChanged(uri string) {
	s.publish(uri)
	s.publishImporters(uri)
}

// publishImporters publishes every other open document that imports the
// file of uri, directly or not: after it changed, or was closed (its file
// on disk counts again). Documents that do not depend on it are not
// checked again.
func (s *lspServer) publishImporters(uri string) {
	abs, err := filepath.Abs(uriPath(uri))
	if err != nil {
		return
	}
	var others []string
	for o, d := range s.docs {
		if o != uri && d.deps[abs] {
			others = append(others, o)
		}
	}
	sort.Strings(others)
	for _, o := range others {
		s.publish(o)
	}
}

// fileURI is the file URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
