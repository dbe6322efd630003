package main

// `morrowc lsp`: a Language Server Protocol server over stdio.
//
// The server keeps the text of every open document (full-document sync),
// checks a document with compiler.Analyze whenever it is opened or
// changed, and publishes all of its diagnostics. LSP positions are 0-based
// lines and 0-based UTF-16 code-unit columns; source.File converts byte
// offsets to both. Messages are JSON-RPC 2.0 framed by a Content-Length
// header. Requests the server does not implement get MethodNotFound;
// unknown notifications are ignored, as the protocol asks.

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

func newLSP(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the Language Server Protocol server on stdin/stdout",
		Long: "lsp speaks the Language Server Protocol over standard input and output\n" +
			"(Content-Length framing) and publishes the diagnostics of open documents.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s := &lspServer{in: bufio.NewReader(e.stdin), out: e.stdout, docs: map[string]string{}}
			if code := s.serve(); code != exitOK {
				return exitStatus(code)
			}
			return nil
		},
	}
}

// maxLSPMessage bounds one message body; sources are limited to 1 MiB.
const maxLSPMessage = 64 << 20

type lspServer struct {
	in       *bufio.Reader
	out      io.Writer
	docs     map[string]string // URI -> text
	shutdown bool
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

// JSON-RPC and LSP error codes.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
	rpcMethodNotFound = -32601
	lspNotInitialized = -32002
)

// serve runs until the client sends exit or closes the stream. The exit
// status follows the protocol: 0 after shutdown, 1 otherwise.
func (s *lspServer) serve() int {
	initialized := false
	for {
		body, err := s.read()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return boolStatus(s.shutdown)
			}
			s.reply(nil, nil, &rpcError{Code: rpcParseError, Message: err.Error()})
			return exitError
		}
		var m rpcMessage
		if err := json.Unmarshal(body, &m); err != nil {
			s.reply(nil, nil, &rpcError{Code: rpcParseError, Message: "invalid JSON: " + err.Error()})
			continue
		}
		isRequest := len(m.ID) > 0 && string(m.ID) != "null"
		if m.Method == "" {
			if isRequest {
				s.reply(m.ID, nil, &rpcError{Code: rpcInvalidRequest, Message: "missing method"})
			}
			continue
		}
		if !initialized && m.Method != "initialize" && m.Method != "exit" {
			if isRequest {
				s.reply(m.ID, nil, &rpcError{Code: lspNotInitialized, Message: "server not initialized"})
			}
			continue
		}
		switch m.Method {
		case "initialize":
			initialized = true
			s.reply(m.ID, map[string]any{
				"capabilities": map[string]any{
					"textDocumentSync": map[string]any{"openClose": true, "change": 1},
				},
				"serverInfo": map[string]any{"name": "morrowc", "version": "0.1.0"},
			}, nil)
		case "initialized", "textDocument/didSave", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration":
		case "shutdown":
			s.shutdown = true
			s.reply(m.ID, nil, nil)
		case "exit":
			return boolStatus(s.shutdown)
		case "textDocument/didOpen":
			var p struct {
				TextDocument struct {
					URI  string `json:"uri"`
					Text string `json:"text"`
				} `json:"textDocument"`
			}
			if json.Unmarshal(m.Params, &p) == nil && p.TextDocument.URI != "" {
				s.docs[p.TextDocument.URI] = p.TextDocument.Text
				s.publish(p.TextDocument.URI)
			}
		case "textDocument/didChange":
			var p struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Range *json.RawMessage `json:"range"`
					Text  string           `json:"text"`
				} `json:"contentChanges"`
			}
			if json.Unmarshal(m.Params, &p) == nil && len(p.ContentChanges) > 0 {
				// Full sync: the last whole-document change wins.
				for _, c := range p.ContentChanges {
					if c.Range == nil {
						s.docs[p.TextDocument.URI] = c.Text
					}
				}
				s.publish(p.TextDocument.URI)
			}
		case "textDocument/didClose":
			var p struct {
				TextDocument struct {
					URI string `json:"uri"`
				} `json:"textDocument"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				delete(s.docs, p.TextDocument.URI)
				s.notify("textDocument/publishDiagnostics", map[string]any{"uri": p.TextDocument.URI, "diagnostics": []any{}})
			}
		default:
			if isRequest {
				s.reply(m.ID, nil, &rpcError{Code: rpcMethodNotFound, Message: "method not supported: " + m.Method})
			}
		}
	}
}

func boolStatus(ok bool) int {
	if ok {
		return exitOK
	}
	return exitError
}

// read returns the body of the next framed message.
func (s *lspServer) read() ([]byte, error) {
	length := -1
	for {
		line, err := s.in.ReadString('\n')
		if err != nil {
			if line == "" && length < 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length < 0 {
				continue // tolerate stray blank lines between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxLSPMessage {
				return nil, fmt.Errorf("bad Content-Length %q", strings.TrimSpace(value))
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, fmt.Errorf("reading body: %w", err)
	}
	return body, nil
}

func (s *lspServer) write(m rpcMessage) {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return
	}
	fmt.Fprintf(s.out, "Content-Length: %d\r\n\r\n%s", len(body), body)
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

// lspDiagnostic converts one diagnostic; notes and the hint are appended
// to the message, since LSP has no fields for them.
func lspDiagnostic(uri string, d *diag.Diagnostic) map[string]any {
	sev := 1
	if d.Severity == diag.Warning {
		sev = 2
	}
	msg := d.Message
	for _, n := range d.Notes {
		msg += "\nnote: " + n
	}
	if d.Hint != "" {
		msg += "\nhint: " + d.Hint
	}
	out := map[string]any{"severity": sev, "code": string(d.Code), "source": "morrowc", "message": msg}
	if d.File != nil {
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
	} else {
		out["range"] = lspRange{}
	}
	return out
}

// publish checks one open document and sends its diagnostics.
func (s *lspServer) publish(uri string) {
	text, ok := s.docs[uri]
	if !ok {
		return
	}
	ds, err := compiler.Check(uriPath(uri), []byte(text))
	list := []any{}
	for _, d := range ds {
		list = append(list, lspDiagnostic(uri, d))
	}
	if err != nil {
		list = append(list, map[string]any{
			"range": lspRange{}, "severity": 1, "source": "morrowc", "message": oneLine(err.Error()),
		})
	}
	s.notify("textDocument/publishDiagnostics", map[string]any{"uri": uri, "diagnostics": list})
}
