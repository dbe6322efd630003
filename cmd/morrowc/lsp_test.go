package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/compiler"
)

// The tests drive `morrowc lsp` as an editor does: framed messages go in
// through an io.Pipe, and framed replies and notifications come out of
// another one.

// frame encodes one JSON-RPC message with its Content-Length header.
func frame(t testing.TB, m any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return rawFrame(string(b))
}

func rawFrame(body string) string {
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
}

// readFrame reads one framed message the server wrote, insisting on the
// exact form the protocol prescribes.
func readFrame(r *bufio.Reader) (map[string]any, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(line, "Content-Length: ") || !strings.HasSuffix(line, "\r\n") {
		return nil, fmt.Errorf("bad header %q", line)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(line, "Content-Length: "), "\r\n"))
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad Content-Length in %q", line)
	}
	if blank, _ := r.ReadString('\n'); blank != "\r\n" {
		return nil, fmt.Errorf("header not terminated by CRLF CRLF: %q", blank)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("short body: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("body is not a JSON object: %s: %v", body, err)
	}
	if m["jsonrpc"] != "2.0" {
		return nil, fmt.Errorf("message without jsonrpc 2.0: %s", body)
	}
	return m, nil
}

// lspClient is a test editor connected to a server running the real
// command through pipes.
type lspClient struct {
	t      *testing.T
	w      *io.PipeWriter
	msgs   chan map[string]any
	status chan int
}

func startLSP(t *testing.T) *lspClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lspClient{t: t, w: inW, msgs: make(chan map[string]any, 256), status: make(chan int, 1)}
	go func() {
		code := runEnv([]string{"lsp"}, &env{stdin: inR, stdout: outW, stderr: io.Discard, getenv: func(string) string { return "" }})
		inR.Close() // the server no longer reads: later writes fail instead of hanging
		outW.Close()
		c.status <- code
	}()
	go func() {
		r := bufio.NewReader(outR)
		defer close(c.msgs)
		for {
			m, err := readFrame(r)
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Errorf("server output: %v", err)
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func (c *lspClient) sendRaw(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.w, s); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

func (c *lspClient) send(m map[string]any) {
	c.t.Helper()
	m["jsonrpc"] = "2.0"
	c.sendRaw(frame(c.t, m))
}

func (c *lspClient) next() map[string]any {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("server closed its output")
		}
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatal("no message from the server within 20s")
	}
	return nil
}

// initialize performs the handshake and returns the initialize result.
func (c *lspClient) initialize() map[string]any {
	c.t.Helper()
	c.send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{
		"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}})
	m := c.next()
	res, ok := m["result"].(map[string]any)
	if !ok || m["id"] != float64(1) {
		c.t.Fatalf("initialize reply: %v", m)
	}
	c.send(map[string]any{"method": "initialized", "params": map[string]any{}})
	return res
}

func (c *lspClient) open(uri, text string, version int) {
	c.t.Helper()
	c.send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "morrow", "version": version, "text": text}}})
}

func (c *lspClient) change(uri string, version int, changes ...map[string]any) {
	c.t.Helper()
	list := []any{}
	for _, ch := range changes {
		list = append(list, ch)
	}
	c.send(map[string]any{"method": "textDocument/didChange", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": version}, "contentChanges": list}})
}

func rangeEdit(l1, c1, l2, c2 int, text string) map[string]any {
	return map[string]any{"text": text, "range": map[string]any{
		"start": map[string]any{"line": l1, "character": c1}, "end": map[string]any{"line": l2, "character": c2}}}
}

// diagnostics waits for the next publishDiagnostics of uri.
func (c *lspClient) diagnostics(uri string) (list []map[string]any, params map[string]any) {
	c.t.Helper()
	m := c.next()
	params, _ = m["params"].(map[string]any)
	if m["method"] != "textDocument/publishDiagnostics" || params["uri"] != uri {
		c.t.Fatalf("want diagnostics of %s, got %v", uri, m)
	}
	raw, ok := params["diagnostics"].([]any)
	if !ok {
		c.t.Fatalf("diagnostics is not a list: %v", m)
	}
	for _, d := range raw {
		list = append(list, d.(map[string]any))
	}
	return list, params
}

// errorReply waits for an error reply and checks its id and code.
func (c *lspClient) errorReply(id any, code int) {
	c.t.Helper()
	m := c.next()
	e, ok := m["error"].(map[string]any)
	if !ok || e["code"] != float64(code) || fmt.Sprint(m["id"]) != fmt.Sprint(id) {
		c.t.Fatalf("want error %d for id %v, got %v", code, id, m)
	}
	if msg, _ := e["message"].(string); msg == "" {
		c.t.Errorf("error without message: %v", m)
	}
	if _, has := m["result"]; has {
		c.t.Errorf("error reply also has a result: %v", m)
	}
}

func (c *lspClient) shutdownAndExit(want int) {
	c.t.Helper()
	c.send(map[string]any{"id": 99, "method": "shutdown"})
	m := c.next()
	if _, ok := m["result"]; !ok || m["id"] != float64(99) || m["error"] != nil {
		c.t.Fatalf("shutdown reply: %v", m)
	}
	c.send(map[string]any{"method": "exit"})
	c.wait(want)
}

func (c *lspClient) wait(want int) {
	c.t.Helper()
	select {
	case code := <-c.status:
		if code != want {
			c.t.Errorf("exit status %d, want %d", code, want)
		}
	case <-time.After(20 * time.Second):
		c.t.Fatal("server did not exit")
	}
	if m, ok := <-c.msgs; ok {
		c.t.Errorf("unexpected message after exit: %v", m)
	}
}

type wantDiag struct {
	code                 string
	line, char, eline, e int
}

func checkDiags(t *testing.T, got []map[string]any, want []wantDiag) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d diagnostics, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		d := got[i]
		r := d["range"].(map[string]any)
		s, e := r["start"].(map[string]any), r["end"].(map[string]any)
		pos := [4]float64{s["line"].(float64), s["character"].(float64), e["line"].(float64), e["character"].(float64)}
		if d["code"] != w.code || pos != [4]float64{float64(w.line), float64(w.char), float64(w.eline), float64(w.e)} {
			t.Errorf("diagnostic %d: %v at %v, want %s at %d:%d-%d:%d", i, d["code"], pos, w.code, w.line, w.char, w.eline, w.e)
		}
		sev := float64(1) // errors are 1, warnings (W codes) 2
		if strings.HasPrefix(w.code, "W") {
			sev = 2
		}
		if d["severity"] != sev || d["source"] != "morrowc" {
			t.Errorf("diagnostic %d: severity/source %v", i, d)
		}
		if msg, _ := d["message"].(string); msg == "" {
			t.Errorf("diagnostic %d without message", i)
		}
	}
}

// Three independent errors; the second sits after two emoji, which take
// two UTF-16 code units each.
const lspBad = "fn f() -> Int:\n" +
	"    return \"x\"\n" +
	"\n" +
	"fn main():\n" +
	"    println(\"🌿🌿\" + nope)\n" +
	"    let y: Int = true\n"

func TestLSPPipeSession(t *testing.T) {
	const uri = "file:///work/demo.mr"
	c := startLSP(t)
	res := c.initialize()
	caps, _ := res["capabilities"].(map[string]any)
	sync, _ := caps["textDocumentSync"].(map[string]any)
	if sync["openClose"] != true || sync["change"] != float64(2) {
		t.Errorf("textDocumentSync: %v", caps)
	}

	// Unsaved text: the URI names no file on disk.
	c.open(uri, lspBad, 1)
	got, params := c.diagnostics(uri)
	if params["version"] != float64(1) {
		t.Errorf("version %v, want 1", params["version"])
	}
	// `    println("🌿🌿" + nope)`: 12 units to the quote, 1 + 2*2 + 1 for the
	// string, 3 for " + ": nope starts at UTF-16 character 21 (code point
	// column 19).
	checkDiags(t, got, []wantDiag{{"E3001", 1, 11, 1, 14}, {"E2001", 4, 21, 4, 25}, {"E3001", 5, 17, 5, 21}})
	// ALL diagnostics: as many as the compiler reports for the text.
	if ds, err := compiler.Check("demo.mr", []byte(lspBad)); err != nil || len(ds) != len(got) {
		t.Errorf("compiler reports %d diagnostics (%v), server published %d", len(ds), err, len(got))
	}

	// Incremental edit: replace `nope` (after the emoji) with `1`.
	c.change(uri, 2, rangeEdit(4, 21, 4, 25, "1"))
	got, params = c.diagnostics(uri)
	if params["version"] != float64(2) {
		t.Errorf("version %v, want 2", params["version"])
	}
	// String + Int is now the error on that line; the others stay.
	if len(got) != 3 || got[0]["code"] != "E3001" || got[2]["code"] != "E3001" {
		t.Errorf("after the edit: %v", got)
	}
	// Two edits in one notification, applied in order: fix the return
	// type, then delete the bad line (the range runs to the next line).
	// The file is now clean apart from a warning: f is never used.
	c.change(uri, 3, rangeEdit(1, 11, 1, 14, "1"), rangeEdit(4, 0, 6, 0, "    println(\"🌿🌿\")\n"))
	got, _ = c.diagnostics(uri)
	checkDiags(t, got, []wantDiag{{"W0002", 0, 3, 0, 4}})

	// A range inside the line with the emoji, given in UTF-16 units:
	// insert ` + nope` after the closing quote at character 18.
	c.change(uri, 4, rangeEdit(4, 18, 4, 18, " + nope"))
	got, _ = c.diagnostics(uri)
	checkDiags(t, got, []wantDiag{{"E2001", 4, 21, 4, 25}})

	// Full-document change fixes it: an empty list is published.
	c.change(uri, 5, map[string]any{"text": "fn main():\n    println(\"ok\")\n"})
	got, _ = c.diagnostics(uri)
	checkDiags(t, got, nil)
	c.change(uri, 6, map[string]any{"text": lspBad})
	got, _ = c.diagnostics(uri)
	if len(got) != 3 {
		t.Fatalf("after reintroducing the errors: %v", got)
	}

	// A second document is checked independently.
	const other = "file:///work/other%20file.mr"
	c.open(other, "fn main(:\n", 1)
	got, _ = c.diagnostics(other)
	if len(got) == 0 || !strings.HasPrefix(got[0]["code"].(string), "E0") {
		t.Errorf("parse error not reported: %v", got)
	}

	// Closing clears the diagnostics.
	c.send(map[string]any{"method": "textDocument/didClose", "params": map[string]any{"textDocument": map[string]any{"uri": uri}}})
	got, _ = c.diagnostics(uri)
	checkDiags(t, got, nil)
	c.send(map[string]any{"method": "textDocument/didSave", "params": map[string]any{"textDocument": map[string]any{"uri": other}}})
	c.send(map[string]any{"id": "h", "method": "textDocument/inlayHint", "params": map[string]any{}})
	c.errorReply("h", -32601)
	c.send(map[string]any{"id": "h2", "method": "textDocument/hover", "params": map[string]any{}})
	c.errorReply("h2", -32602)
	c.shutdownAndExit(0)
}

func TestLSPMalformedInput(t *testing.T) {
	c := startLSP(t)
	// Before initialize.
	c.send(map[string]any{"id": 1, "method": "textDocument/hover", "params": map[string]any{}})
	c.errorReply(1, -32002)
	c.send(map[string]any{"id": 2, "method": "initialize", "params": "x"})
	c.errorReply(2, -32602)
	c.send(map[string]any{"id": 3, "method": "initialize", "params": map[string]any{"processId": "abc"}})
	c.errorReply(3, -32602)
	c.send(map[string]any{"id": 4, "method": "initialize", "params": map[string]any{"capabilities": []any{}}})
	c.errorReply(4, -32602)
	c.initialize()

	// Frames.
	c.sendRaw("Content-Length: x\r\n\r\n")
	c.errorReply(nil, -32700)
	c.sendRaw("Content-Length: 99999999999999999999999\r\n\r\n")
	c.errorReply(nil, -32700)
	c.sendRaw("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")
	c.errorReply(nil, -32700) // missing Content-Length
	c.sendRaw("Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}")
	c.errorReply(nil, -32700) // conflicting lengths; the body is skipped
	c.sendRaw("Content-Length: 1\r\nno colon here\r\n\r\n{")
	c.errorReply(nil, -32700) // a bad header line; the body is skipped
	// A frame whose length is unusable, its body, then a good frame glued
	// to it: the server reports the bad parts and finds the good frame.
	c.sendRaw("Content-Length: -1\r\n\r\n{\"jsonrpc\":\"2.0\"}" + frame(t, map[string]any{"jsonrpc": "2.0", "id": 5, "method": "nope"}))
	c.errorReply(nil, -32700)
	c.errorReply(nil, -32700)
	c.errorReply(5, -32601)
	// Bodies.
	c.sendRaw(rawFrame("{oops"))
	c.errorReply(nil, -32700)
	c.sendRaw(rawFrame(""))
	c.errorReply(nil, -32700)
	c.sendRaw(rawFrame("[1, 2]"))
	c.errorReply(nil, -32600)
	c.sendRaw(rawFrame("42"))
	c.errorReply(nil, -32600)
	c.sendRaw(rawFrame(`"initialize"`))
	c.errorReply(nil, -32600)
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":6,"method":7}`))
	c.errorReply(6, -32600)
	c.sendRaw(rawFrame(`{"jsonrpc":"1.0","id":7,"method":"shutdown"}`))
	c.errorReply(7, -32600)
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}`))
	c.errorReply(nil, -32600)
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":8}`))
	c.errorReply(8, -32600)
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":9,"method":"shutdown","params":true}`))
	c.errorReply(9, -32602)
	c.send(map[string]any{"id": 10, "method": "initialize", "params": map[string]any{}})
	c.errorReply(10, -32600) // initialize twice
	c.send(map[string]any{"id": 11, "method": "$/unknown"})
	c.errorReply(11, -32601)
	// A response from the client and unknown notifications need no answer.
	c.sendRaw(rawFrame(`{"jsonrpc":"2.0","id":12,"result":null}`))
	c.send(map[string]any{"method": "$/unknown", "params": map[string]any{}})

	// Notifications with bad params cannot be answered: they are logged.
	const uri = "file:///t.mr"
	for _, params := range []any{
		map[string]any{"textDocument": map[string]any{"uri": uri}}, // no text
		map[string]any{"textDocument": map[string]any{"uri": 5, "text": ""}},
		"not an object",
	} {
		c.send(map[string]any{"method": "textDocument/didOpen", "params": params})
		if m := c.next(); m["method"] != "window/logMessage" {
			t.Fatalf("bad didOpen params: want window/logMessage, got %v", m)
		}
	}
	c.open(uri, "fn main():\n    println(nope)\n", 1)
	if got, _ := c.diagnostics(uri); len(got) != 1 {
		t.Fatalf("diagnostics: %v", got)
	}
	// A bad change leaves the document unchanged.
	for _, ch := range []map[string]any{
		rangeEdit(1, 5, 0, 0, "x"),  // start after end
		rangeEdit(-1, 0, 0, 0, "x"), // negative line
		{"range": nil},              // no text
	} {
		c.change(uri, 2, ch)
		if m := c.next(); m["method"] != "window/logMessage" {
			t.Fatalf("bad change %v: want window/logMessage, got %v", ch, m)
		}
	}
	c.change("file:///not-open.mr", 1, map[string]any{"text": ""})
	if m := c.next(); m["method"] != "window/logMessage" {
		t.Fatalf("change of an unopened document: %v", m)
	}
	// Positions past the end clamp, as the protocol says: this appends.
	c.change(uri, 3, rangeEdit(9, 0, 9, 0, "fn g():\n    println(nope2)\n"))
	if got, _ := c.diagnostics(uri); len(got) != 2 {
		t.Fatalf("after the appending change: %v", got)
	}

	// After shutdown only exit is accepted.
	c.send(map[string]any{"id": 20, "method": "shutdown"})
	if m := c.next(); m["id"] != float64(20) || m["error"] != nil {
		t.Fatalf("shutdown: %v", m)
	}
	c.send(map[string]any{"id": 21, "method": "initialize", "params": map[string]any{}})
	c.errorReply(21, -32600)
	c.send(map[string]any{"method": "exit"})
	c.wait(0)
}

func TestLSPExitStatus(t *testing.T) {
	// exit without shutdown: 1.
	c := startLSP(t)
	c.initialize()
	c.send(map[string]any{"method": "exit"})
	c.wait(1)
	// exit before initialize: 1.
	c = startLSP(t)
	c.send(map[string]any{"method": "exit"})
	c.wait(1)
	// The input ends without shutdown: 1; after shutdown: 0.
	c = startLSP(t)
	c.initialize()
	c.w.Close()
	c.wait(1)
	c = startLSP(t)
	c.initialize()
	c.send(map[string]any{"id": 2, "method": "shutdown"})
	c.next()
	c.w.Close()
	c.wait(0)
	// Input that ends inside a frame is reported, then the server stops.
	c = startLSP(t)
	c.sendRaw("Content-Length: 10\r\n\r\n{\"a\"")
	c.w.Close()
	c.errorReply(nil, -32700)
	c.wait(1)
}

// lspSeeds are whole sessions for the fuzzer to mutate.
func lspSeeds(t testing.TB) []string {
	init := frame(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}})
	open := frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///f.mr", "version": 1, "text": lspBad}}})
	change := frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
		"textDocument": map[string]any{"uri": "file:///f.mr", "version": 2}, "contentChanges": []any{rangeEdit(4, 18, 5, 3, "🌿x")}}})
	end := frame(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) + frame(t, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	return []string{
		"",
		init + open + change + end,
		init + open + rawFrame(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///f.mr"}}}`) + end,
		init + "Content-Length: x\r\n\r\n{}" + rawFrame("[1]") + rawFrame("{") + end,
		"Content-Length: 3\r\n\r\n{}}" + init,
		// Found by the fuzzer: invalid UTF-8 before a glued header once
		// shifted byte offsets.
		"00000000\xa2\xa2\xa2\xa2\xa2\xa2\xa2\xa2Content-Length:\n",
	}
}

func FuzzLSP(f *testing.F) {
	for _, s := range lspSeeds(f) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		code := runEnv([]string{"lsp"}, &env{stdin: bytes.NewReader(data), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }})
		if code != 0 && code != 1 {
			t.Fatalf("exit status %d", code)
		}
		// Whatever came in, what goes out is well-framed JSON-RPC.
		r := bufio.NewReader(&out)
		for {
			m, err := readFrame(r)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, isErr := m["error"]; isErr {
				if _, hasID := m["id"]; !hasID {
					t.Fatalf("error reply without id: %v", m)
				}
			}
		}
	})
}

// TestLSPHelperProcess is the server process of TestLSPNeovim: the test
// binary re-runs itself with MORROWC_LSP_HELPER=1 and becomes `morrowc lsp`.
func TestLSPHelperProcess(t *testing.T) {
	if os.Getenv("MORROWC_LSP_HELPER") != "1" {
		t.Skip("not a test: the server process that TestLSPNeovim starts")
	}
	os.Exit(run([]string{"lsp"}, os.Stdin, os.Stdout, os.Stderr))
}

// nvimScript is run by `nvim --headless`: it attaches Neovim's own LSP
// client to a buffer, edits the buffer without saving, and prints what
// vim.diagnostic holds at each step. Neovim converts the UTF-16 columns
// it receives to byte columns, so the columns printed are bytes.
const nvimScript = `
local out = assert(io.open(os.getenv('MORROW_NV_OUT'), 'w'))
local function say(s) out:write(s .. '\n'); out:flush() end
local exit_code = nil
local config = {
  name = 'morrowc',
  cmd = { os.getenv('MORROW_NV_SERVER'), '-test.run=^TestLSPHelperProcess$' },
  root_dir = os.getenv('MORROW_NV_DIR'),
  on_exit = function(code) exit_code = code end,
}
vim.cmd('edit ' .. os.getenv('MORROW_NV_FILE'))
local id
if vim.lsp.start then
  id = vim.lsp.start(config)
else
  id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(0, id)
end
local function show(tag, ok)
  if not ok then say(tag .. ' timeout') end
  local ds = vim.diagnostic.get(0)
  table.sort(ds, function(a, b) return a.lnum < b.lnum end)
  say(tag .. ' ' .. #ds)
  for _, d in ipairs(ds) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    say(string.format('%s %d:%d-%d:%d %s %s %s', tag, d.lnum, d.col, d.end_lnum, d.end_col, tostring(code), tostring(d.source), (d.message:gsub('\n', ' | '))))
  end
end
show('open', vim.wait(10000, function() return #vim.diagnostic.get(0) == 3 end, 20))
-- Replace 'nope' (bytes 25 to 29 of line 4, after two 4-byte emoji) by 1.
vim.api.nvim_buf_set_text(0, 4, 25, 4, 29, { '1' })
show('edit', vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.message:find('nope') then return false end
  end
  return #vim.diagnostic.get(0) > 0
end, 20))
vim.api.nvim_buf_set_lines(0, 0, -1, false, { 'fn main():', '    println("🌿 fixed")' })
show('fixed', vim.wait(10000, function() return #vim.diagnostic.get(0) == 0 end, 20))
-- The language features, through Neovim's client (request_sync).
vim.api.nvim_buf_set_lines(0, 0, -1, false, {
  'fn twice(n: Int) -> Int: n * 2',
  '',
  'fn main():',
  '    let total = twice(21)',
  '    println(total)',
  '    let xs = List.map([1], twice)',
  '    println(List.len(xs))',
})
vim.wait(500)
local client = vim.lsp.get_client_by_id(id)
local uri = vim.uri_from_bufnr(0)
local function at(line, ch) return { textDocument = { uri = uri }, position = { line = line, character = ch } } end
local function req(method, params)
  local r = client.request_sync(method, params, 5000, 0)
  if not r then return nil, 'timeout' end
  return r.result, r.err
end
local h = req('textDocument/hover', at(4, 13))
say('hover ' .. (h and h.contents.value:gsub('\n', ' | ') or 'nil'))
local d = req('textDocument/definition', at(3, 17))
say(string.format('definition %d:%d', d.range.start.line, d.range.start.character))
local refs = req('textDocument/references', vim.tbl_extend('force', at(0, 4), { context = { includeDeclaration = true } }))
say('references ' .. #refs)
local p = at(3, 9); p.newName = 'sum'
local ws = req('textDocument/rename', p)
say('rename ' .. #ws.changes[uri])
local syms = req('textDocument/documentSymbol', { textDocument = { uri = uri } })
local names = {}
for _, s in ipairs(syms) do table.insert(names, s.name) end
say('symbols ' .. table.concat(names, ' '))
local st = req('textDocument/semanticTokens/full', { textDocument = { uri = uri } })
say('tokens ' .. (#st.data / 5))
vim.api.nvim_buf_set_lines(0, 6, 7, false, { '    println(List.' })
vim.wait(500)
local c = req('textDocument/completion', at(6, 17))
local found = 'no map'
for _, it in ipairs(c.items) do if it.label == 'map' then found = 'map ' .. it.detail end end
say('completion ' .. found)
vim.api.nvim_buf_set_lines(0, 6, 7, false, { '    println(twice(' })
vim.wait(500)
local sh = req('textDocument/signatureHelp', at(6, 18))
say('signature ' .. sh.signatures[1].label)
local _, err = req('textDocument/rename', vim.tbl_extend('force', at(6, 6), { newName = 'x' }))
say('refused ' .. tostring(err and err.code))
vim.lsp.get_client_by_id(id).stop()
vim.wait(10000, function() return exit_code ~= nil end, 20)
say('exit ' .. tostring(exit_code))
out:close()
vim.cmd('qa!')
`

// TestLSPNeovim connects Neovim's LSP client, a real editor, to the server.
func TestLSPNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install neovim); the pipe tests above cover the protocol")
	}
	if testing.Short() {
		t.Skip("starts Neovim; skipped in -short mode")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary to run as the server: %v", err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "demo.mr")
	if err := os.WriteFile(file, []byte(lspBad), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "test.lua")
	if err := os.WriteFile(script, []byte(nvimScript), 0o644); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(dir, "out.txt")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile "+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MORROWC_LSP_HELPER=1", "MORROW_NV_SERVER="+exe, "MORROW_NV_DIR="+dir,
		"MORROW_NV_FILE="+file, "MORROW_NV_OUT="+outFile, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir, "XDG_DATA_HOME="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited, err := testrun.Wait(cmd, 60*time.Second)
	if !exited {
		t.Fatalf("nvim did not finish within 60s\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, stderr.String())
	}
	got, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	want := []string{
		"open 3",
		"open 1:11-1:14 E3001 morrowc ",
		// The emoji are 4 bytes and 2 UTF-16 units each: UTF-16 21-25 is
		// bytes 25-29, so the conversion both ways agrees with Neovim.
		"open 4:25-4:29 E2001 morrowc unknown name 'nope'",
		"open 5:17-5:21 E3001 morrowc ",
		"edit 3",
		"edit 1:11-1:14 E3001 morrowc ",
		"edit 4:",
		"edit 5:17-5:21 E3001 morrowc ",
		"fixed 0",
		"hover ```morrow | total: Int | ```",
		"definition 0:3",
		"references 3",
		"rename 2",
		"symbols twice main",
		"tokens ",
		"completion map fn List.map(",
		"signature fn twice(n: Int) -> Int",
		"refused -32803",
		"exit 0",
	}
	if len(lines) != len(want) {
		t.Fatalf("Neovim saw:\n%s\nwant %d lines", got, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want prefix %q", i, lines[i], w)
		}
	}
}

// TestLSPEditorsDocExample replays the session shown in docs/editors.md
// and requires the documented output to be what the server writes.
func TestLSPEditorsDocExample(t *testing.T) {
	doc := testrun.ReadDoc(t, "editors.md")
	i := strings.Index(doc, "Example (`morrowc lsp < session`")
	if i < 0 {
		t.Fatal("docs/editors.md has no example session")
	}
	start := strings.Index(doc[i:], "```\n")
	end := strings.Index(doc[i+start+4:], "```")
	if start < 0 || end < 0 {
		t.Fatal("example session has no code block")
	}
	want := strings.TrimSpace(doc[i+start+4 : i+start+4+end])
	in := frame(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
			"uri": "file:///tmp/demo.mr", "languageId": "morrow", "version": 1, "text": "fn main():\n    println(\"🌿\" + nope)\n"}}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "shutdown"}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	var out bytes.Buffer
	if code := runEnv([]string{"lsp"}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }}); code != 0 {
		t.Errorf("exit status %d", code)
	}
	if got := strings.ReplaceAll(out.String(), "\r\n", "\n"); got != want {
		t.Errorf("docs/editors.md example is out of date; the server writes:\n%s", got)
	}
}

// TestLSPModules: an open file is checked with the modules it imports;
// an open module's unsaved text wins over the disk; an imported file that
// is not open gets its own diagnostics, and an empty list once fixed.
func TestLSPModules(t *testing.T) {
	dir := t.TempDir()
	testrun.WriteFile(t, dir, "main.mr", "import lib\n\nfn main():\n    println(lib.f())\n")
	testrun.WriteFile(t, dir, "lib.mr", "pub fn f() -> Int: \"no\"\n")
	mainURI := fileURI(filepath.Join(dir, "main.mr"))
	libURI := fileURI(filepath.Join(dir, "lib.mr"))
	c := startLSP(t)
	c.initialize()
	c.open(mainURI, "import lib\n\nfn main():\n    println(lib.f())\n", 1)
	got, _ := c.diagnostics(mainURI)
	if len(got) != 0 {
		t.Errorf("main.mr: %v", got)
	}
	got, _ = c.diagnostics(libURI)
	checkDiags(t, got, []wantDiag{{"E3001", 0, 19, 0, 23}})
	// The module opened with a fix in its unsaved buffer: main.mr's
	// next check uses it.
	c.open(libURI, "pub fn f() -> Int: 1\n", 1)
	if got, _ = c.diagnostics(libURI); len(got) != 0 {
		t.Errorf("lib.mr opened: %v", got)
	}
	// main.mr imports lib.mr: it is checked again.
	if got, _ = c.diagnostics(mainURI); len(got) != 0 {
		t.Errorf("main.mr after lib.mr opened: %v", got)
	}
	c.change(libURI, 2, rangeEdit(0, 7, 0, 8, "g"))
	if got, _ = c.diagnostics(libURI); len(got) != 0 {
		t.Errorf("lib.mr renamed f to g: %v", got)
	}
	got, _ = c.diagnostics(mainURI)
	checkDiags(t, got, []wantDiag{{"E7009", 3, 12, 3, 17}})
	c.change(libURI, 3, rangeEdit(0, 7, 0, 8, "f"))
	c.diagnostics(libURI)
	c.diagnostics(mainURI)
	c.change(mainURI, 2, rangeEdit(3, 16, 3, 17, "g"))
	got, _ = c.diagnostics(mainURI)
	checkDiags(t, got, []wantDiag{{"E7009", 3, 12, 3, 17}})
	c.shutdownAndExit(0)
}
