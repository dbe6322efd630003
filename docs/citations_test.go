package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// trackedFiles lists the repository's files (git ls-files), relative to the
// repository root; the test is skipped outside a git checkout.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", "..", "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	return strings.Fields(string(out))
}

// outsideDocs are the contract documents this project was written from.
// They live outside the repository, so nothing in it may cite them: a
// reader of a clone could not follow the citation. docs/reference/ holds
// the language reference in the repository's own words.
var outsideDocs = regexp.MustCompile(`\b(LANGUAGE|RUNTIME|STDLIB|SUPERVISOR|COLLECTIONS|MODULES|IO|TESTING|EDITORS|ARCHITECTURE)\.md\b|shared/spec/|shared/design/`)

// docPath is a citation of a page of docs/ in source comments and text:
// docs/name.md or docs/reference/name.md, with an optional #anchor.
var docPath = regexp.MustCompile(`\bdocs/((?:reference/)?[a-z0-9_-]+\.md)(#[a-z0-9-]+)?`)

// mdLink is a relative Markdown link target in a page.
var mdLink = regexp.MustCompile(`\]\(([^)#:\s]+\.md)(#[a-z0-9-]+)?\)`)

func isText(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".md", ".mr", ".erl", ".golden", ".txt", ".json", ".yml", ".yaml", ".sh", "":
		return true
	}
	return strings.HasSuffix(name, "Makefile")
}

// TestNoCitationOutsideTheRepository: no tracked file cites a contract
// document that is not in the repository, and every docs/ page that a file
// cites (with its #anchor) exists.
func TestNoCitationOutsideTheRepository(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		raw, err := os.ReadFile(filepath.Join("..", page))
		if err != nil {
			anchors[page] = nil
			return nil
		}
		a := map[string]bool{}
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "#") {
				a[slug(strings.TrimLeft(line, "# "))] = true
			}
		}
		anchors[page] = a
		return a
	}
	check := func(file, page, anchor string) {
		a := anchorsOf(page)
		if a == nil {
			t.Errorf("%s cites %s, which is not in the repository", file, page)
			return
		}
		if anchor != "" && !a[strings.TrimPrefix(anchor, "#")] {
			t.Errorf("%s cites %s%s, which has no such heading", file, page, anchor)
		}
	}
	for _, f := range trackedFiles(t) {
		if !isText(f) || strings.HasPrefix(f, ".") || f == "docs/citations_test.go" {
			continue
		}
		raw, err := os.ReadFile(filepath.Join("..", f))
		if err != nil {
			continue
		}
		text := string(raw)
		if m := outsideDocs.FindString(text); m != "" {
			t.Errorf("%s cites %s, a document outside the repository; cite its page under docs/reference/ instead", f, m)
		}
		for _, m := range docPath.FindAllStringSubmatch(text, -1) {
			check(f, "docs/"+m[1], m[2])
		}
		if strings.HasSuffix(f, ".md") {
			for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
				page := filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f), m[1])))
				check(f, page, m[2])
			}
		}
	}
}

// slug is the anchor GitHub-style renderers give a heading: lower case,
// punctuation dropped, spaces as hyphens.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		case r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
