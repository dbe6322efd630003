package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// repoFiles lists every .mr file in the repository.
func repoFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir("../..", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".mr") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// checkGuarantees formats src and checks every guarantee of the formatter
// directly (Format checks the first three itself; this test does not rely
// on that): the output parses to the same tree, keeps the comments in
// order, is a fixed point, and compiles to the same bytecode (modulo line
// tables) when the input compiles. It reports whether src parsed.
func checkGuarantees(t *testing.T, name string, src []byte) bool {
	t.Helper()
	out, dl, err := Format(src, name)
	if dl.HasErrors() {
		if out != nil {
			t.Fatalf("output for a file with syntax errors")
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	tree1, _ := parser.Parse(source.NewFile(name, src))
	tree2, dl2 := parser.Parse(source.NewFile(name, out))
	if dl2.HasErrors() {
		t.Fatalf("formatted output does not parse: %v\n%s", dl2[0], out)
	}
	if d := DiffTrees(tree1, tree2); d != "" {
		t.Fatalf("formatting changed the tree: %s\n%s", d, out)
	}
	c1, _ := Comments(src)
	c2, _ := Comments(out)
	if strings.Join(c1, "\x00") != strings.Join(c2, "\x00") {
		t.Fatalf("formatting changed the comments:\n%q\n%q", c1, c2)
	}
	again, _, err := Format(out, name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, out) {
		t.Fatalf("not idempotent:\n--- once\n%s\n--- twice\n%s", out, again)
	}
	for i, line := range strings.Split(string(out), "\n") {
		if strings.TrimRight(line, " \t") != line && !inString(out, i) {
			t.Fatalf("line %d has trailing blanks: %q", i+1, line)
		}
	}
	if len(out) > 0 && (!bytes.HasSuffix(out, []byte("\n")) || bytes.HasSuffix(out, []byte("\n\n"))) {
		t.Fatalf("output does not end with exactly one newline")
	}
	if bytes.Contains(out, []byte("\r\n")) && !bytes.Contains(src, []byte("\r\n")) {
		t.Fatalf("output has CRLF line endings")
	}
	p1, d1, err1 := compiler.Compile(name, src)
	if err1 != nil || d1.HasErrors() || p1 == nil {
		return true
	}
	p2, d2, err2 := compiler.Compile(name, out)
	if err2 != nil || d2.HasErrors() || p2 == nil {
		t.Fatalf("the input compiles, the formatted output does not: %v %v", err2, d2)
	}
	if a, b := disasm(t, p1), disasm(t, p2); a != b {
		t.Fatalf("the bytecode changed:\n--- before\n%s\n--- after\n%s", a, b)
	}
	return true
}

// inString reports whether output line i (0-based) lies inside a
// multi-line string token, where trailing blanks belong to the string.
func inString(out []byte, i int) bool {
	L, err := lex("", out)
	if err != nil {
		return false
	}
	for _, tk := range L.toks {
		if tk.multiLine && tk.line <= i+1 && i+1 < tk.endLine {
			return true
		}
	}
	return false
}

func disasm(t *testing.T, p *bytecode.Program) string {
	t.Helper()
	s, err := Disassembly(p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRepositoryFiles formats every .mr file of the repository and checks
// the guarantees on each. Files that do not parse (fixtures of syntax
// errors, on purpose) are refused with their diagnostics and skipped.
func TestRepositoryFiles(t *testing.T) {
	formatted, refused, compiled := 0, 0, 0
	for _, path := range repoFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := strings.TrimPrefix(filepath.ToSlash(path), "../../")
		t.Run(rel, func(t *testing.T) {
			if !checkGuarantees(t, rel, src) {
				refused++
				return
			}
			formatted++
			if p, d, err := compiler.Compile(rel, src); err == nil && !d.HasErrors() && p != nil {
				compiled++
			}
		})
	}
	t.Logf("%d files formatted (idempotent, same tree and comments), %d of them compared as bytecode; %d refused for syntax errors", formatted, compiled, refused)
	if formatted < 400 {
		t.Errorf("only %d repository files formatted; the walk is broken", formatted)
	}
}
