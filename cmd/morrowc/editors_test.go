package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEditorsGrammar checks editors/: the TextMate grammar is valid JSON
// with the Morrow scope, every keyword of the lexer is highlighted by one
// of its keyword rules, and the VS Code extension points at the grammar
// and at `morrowc lsp`.
func TestEditorsGrammar(t *testing.T) {
	root := filepath.Join("..", "..", "editors")
	raw, err := os.ReadFile(filepath.Join(root, "morrow.tmLanguage.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		ScopeName  string         `json:"scopeName"`
		FileTypes  []string       `json:"fileTypes"`
		Repository map[string]any `json:"repository"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatalf("grammar: %v", err)
	}
	if g.ScopeName != "source.morrow" || len(g.FileTypes) != 1 || g.FileTypes[0] != "mr" {
		t.Errorf("grammar head: %s %v", g.ScopeName, g.FileTypes)
	}
	// The keyword rules use only syntax Go's regexp also has.
	var rules []*regexp.Regexp
	kw := g.Repository["keywords"].(map[string]any)["patterns"].([]any)
	for _, p := range kw {
		re, err := regexp.Compile(p.(map[string]any)["match"].(string))
		if err != nil {
			t.Fatalf("keyword rule: %v", err)
		}
		rules = append(rules, re)
	}
	for _, k := range keywords {
		hit := false
		for _, re := range rules {
			hit = hit || re.FindString(k) == k
		}
		if !hit {
			t.Errorf("keyword %q is not highlighted", k)
		}
	}
	var pkg struct {
		Main        string `json:"main"`
		Contributes struct {
			Languages []struct {
				ID         string   `json:"id"`
				Extensions []string `json:"extensions"`
			} `json:"languages"`
			Grammars []struct {
				Language, ScopeName, Path string
			} `json:"grammars"`
		} `json:"contributes"`
		Scripts map[string]string `json:"scripts"`
	}
	raw, err = os.ReadFile(filepath.Join(root, "vscode", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pkg); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	c := pkg.Contributes
	if len(c.Languages) != 1 || c.Languages[0].ID != "morrow" || c.Languages[0].Extensions[0] != ".mr" ||
		len(c.Grammars) != 1 || c.Grammars[0].ScopeName != "source.morrow" || c.Grammars[0].Path != "./syntaxes/morrow.tmLanguage.json" {
		t.Errorf("package.json contributes: %+v", c)
	}
	if !strings.Contains(pkg.Scripts["prepare"], "../morrow.tmLanguage.json") {
		t.Errorf("package.json does not copy the grammar: %v", pkg.Scripts)
	}
	js, err := os.ReadFile(filepath.Join(root, "vscode", pkg.Main))
	if err != nil || !strings.Contains(string(js), "args: ['lsp']") {
		t.Errorf("extension.js does not start morrowc lsp: %v", err)
	}
}
