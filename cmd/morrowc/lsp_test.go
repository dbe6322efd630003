package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// frame encodes one JSON-RPC message with its Content-Length header.
func frame(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b), b)
}

// readFrames decodes every framed message the server wrote.
func readFrames(t *testing.T, out string) []map[string]any {
	t.Helper()
	r := bufio.NewReader(strings.NewReader(out))
	var msgs []map[string]any
	for {
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			return msgs
		}
		if !strings.HasPrefix(line, "Content-Length: ") {
			t.Fatalf("bad header %q", line)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "Content-Length: ")))
		if blank, _ := r.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("header not terminated by CRLF CRLF: %q", blank)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("bad body %s: %v", body, err)
		}
		msgs = append(msgs, m)
	}
}

func TestLSPSession(t *testing.T) {
	uri := "file:///work/demo.mr"
	// The emoji takes two UTF-16 code units: the error column must count them.
	bad := "fn main():\n    println(\"🌿\" + nope)\n"
	good := "fn main():\n    println(\"ok\")\n"
	in := frame(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "languageId": "morrow", "version": 1, "text": bad}}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": map[string]any{}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": good}}}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "textDocument/didClose", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri}}}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "id": 3, "method": "shutdown"}) +
		frame(t, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	var out, errb bytes.Buffer
	code := runEnv([]string{"lsp"}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	msgs := readFrames(t, out.String())
	if len(msgs) != 6 {
		t.Fatalf("want 6 messages (init, diags, hover error, diags, close diags, shutdown), got %d:\n%s", len(msgs), out.String())
	}
	if caps, _ := msgs[0]["result"].(map[string]any)["capabilities"].(map[string]any); caps["textDocumentSync"] == nil {
		t.Errorf("initialize result lacks textDocumentSync: %v", msgs[0])
	}
	pub := msgs[1]["params"].(map[string]any)
	if msgs[1]["method"] != "textDocument/publishDiagnostics" || pub["uri"] != uri {
		t.Fatalf("second message is not the diagnostics of the document: %v", msgs[1])
	}
	ds := pub["diagnostics"].([]any)
	if len(ds) == 0 {
		t.Fatalf("no diagnostics for a bad document")
	}
	found := false
	for _, d := range ds {
		d := d.(map[string]any)
		r := d["range"].(map[string]any)
		start := r["start"].(map[string]any)
		if d["code"] == "E2001" {
			found = true
			// `    println("🌿" + nope)`: nope starts after 4+8+4 code points
			// where the emoji counts twice in UTF-16: character 19.
			if start["line"].(float64) != 1 || start["character"].(float64) != 19 {
				t.Errorf("E2001 at %v, want line 1 character 19 (UTF-16)", start)
			}
		}
		if d["severity"].(float64) != 1 || d["source"] != "morrowc" {
			t.Errorf("diagnostic fields: %v", d)
		}
	}
	if !found {
		t.Errorf("no E2001 for the unknown name: %v", ds)
	}
	if e, _ := msgs[2]["error"].(map[string]any); e == nil || e["code"].(float64) != -32601 || msgs[2]["id"].(float64) != 2 {
		t.Errorf("unsupported request not answered with MethodNotFound: %v", msgs[2])
	}
	for i := 3; i <= 4; i++ {
		if d := msgs[i]["params"].(map[string]any)["diagnostics"].([]any); len(d) != 0 {
			t.Errorf("message %d: want no diagnostics, got %v", i, d)
		}
	}
	if msgs[5]["id"].(float64) != 3 {
		t.Errorf("shutdown not answered: %v", msgs[5])
	}
	if _, ok := msgs[5]["result"]; !ok {
		t.Errorf("shutdown reply has no result member: %v", msgs[5])
	}
}

func TestLSPExitWithoutShutdownAndBadInput(t *testing.T) {
	in := frame(t, map[string]any{"jsonrpc": "2.0", "method": "exit"})
	var out bytes.Buffer
	if code := runEnv([]string{"lsp"}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }}); code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
	out.Reset()
	in = frame(t, map[string]any{"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover"}) + "Content-Length: 5\r\n\r\n{oops"
	runEnv([]string{"lsp"}, &env{stdin: strings.NewReader(in), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }})
	msgs := readFrames(t, out.String())
	if len(msgs) != 2 {
		t.Fatalf("want 2 error replies, got %v", msgs)
	}
	if e := msgs[0]["error"].(map[string]any); e["code"].(float64) != -32002 {
		t.Errorf("request before initialize: %v", msgs[0])
	}
	if e := msgs[1]["error"].(map[string]any); e["code"].(float64) != -32700 {
		t.Errorf("malformed JSON: %v", msgs[1])
	}
	out.Reset()
	if code := runEnv([]string{"lsp"}, &env{stdin: strings.NewReader("Content-Length: x\r\n\r\n"), stdout: &out, stderr: io.Discard, getenv: func(string) string { return "" }}); code != 1 {
		t.Errorf("bad header: status %d", code)
	}
}
