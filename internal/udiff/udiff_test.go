package udiff

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnifiedExample(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n"
	b := "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\n"
	want := `--- a.mr
+++ b.mr
@@ -1,6 +1,6 @@
 one
 two
-three
+THREE
 four
 five
 six
@@ -8,3 +8,4 @@
 eight
 nine
 ten
+eleven
`
	if got := Unified("a.mr", "b.mr", []byte(a), []byte(b)); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if Unified("a", "b", []byte(a), []byte(a)) != "" {
		t.Error("equal texts must give no diff")
	}
}

func TestNoNewlineAtEnd(t *testing.T) {
	got := Unified("a", "b", []byte("x\ny"), []byte("x\ny\n"))
	want := "--- a\n+++ b\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+y\n"
	if got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
	got = Unified("a", "b", []byte(""), []byte("x\n"))
	want = "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"
	if got != want {
		t.Errorf("got:\n%q\nwant:\n%q", got, want)
	}
}

// apply applies a unified diff produced by Unified to a, checking that
// every context and deleted line matches.
func apply(t *testing.T, a, d string) string {
	t.Helper()
	if d == "" {
		return a
	}
	al := splitLines(a)
	lines := strings.SplitAfter(d, "\n")
	var out []string
	pos := 0
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		switch l[0] {
		case '@':
			var as, an, bs, bn int
			parseRange(strings.Fields(l)[1][1:], &as, &an)
			parseRange(strings.Fields(l)[2][1:], &bs, &bn)
			start := as - 1
			if an == 0 {
				start = as
			}
			for pos < start {
				out = append(out, al[pos])
				pos++
			}
		case ' ', '-':
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			if pos >= len(al) || al[pos] != text {
				t.Fatalf("diff line %d %q does not match line %d of a", i, l, pos+1)
			}
			if l[0] == ' ' {
				out = append(out, text)
			}
			pos++
		case '+':
			text := l[1:]
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\`) {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			out = append(out, text)
		}
	}
	out = append(out, al[pos:]...)
	return strings.Join(out, "")
}

func parseRange(s string, start, n *int) {
	parts := strings.SplitN(s, ",", 2)
	*start = atoi(parts[0])
	*n = 1
	if len(parts) == 2 {
		*n = atoi(parts[1])
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func randomText(r *rand.Rand, lines int) string {
	words := []string{"a\n", "b\n", "c\n", "d\n", "e"}
	var b strings.Builder
	for i := 0; i < lines; i++ {
		b.WriteString(words[r.Intn(len(words)-1)])
	}
	if r.Intn(4) == 0 {
		b.WriteString(words[4])
	}
	return b.String()
}

// TestRoundTrip checks, on random texts, that applying the diff to a gives
// b, and that the diff is minimal in the number of changed lines where
// the system diff is there to compare with.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := 0; i < 500; i++ {
		a, b := randomText(r, r.Intn(30)), randomText(r, r.Intn(30))
		if got := apply(t, a, Unified("a", "b", []byte(a), []byte(b))); got != b {
			t.Fatalf("applying the diff of\n%q\nto\n%q gave\n%q", a, b, got)
		}
	}
}

func changed(d string) int {
	n := 0
	for _, l := range strings.Split(d, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			n++
		}
	}
	return n
}

func TestMinimalLikeDiff(t *testing.T) {
	diffCmd, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff command to compare with")
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(5))
	for i := 0; i < 100; i++ {
		a, b := randomText(r, r.Intn(40)), randomText(r, r.Intn(40))
		pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(pa, []byte(a), 0o644)
		os.WriteFile(pb, []byte(b), 0o644)
		out, _ := exec.Command(diffCmd, "-u", "-d", pa, pb).Output()
		if got, want := changed(Unified("a", "b", []byte(a), []byte(b))), changed(string(out)); got != want {
			t.Fatalf("%d changed lines, diff -d finds %d, for\n%q\n%q", got, want, a, b)
		}
	}
}

func TestLargeDissimilarTexts(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	var a, b strings.Builder
	for i := 0; i < 20000; i++ {
		a.WriteString(string(rune('a'+r.Intn(26))) + "\n")
		b.WriteString(string(rune('a'+r.Intn(26))) + "\n")
	}
	d := Unified("a", "b", []byte(a.String()), []byte(b.String()))
	if got := apply(t, a.String(), d); got != b.String() {
		t.Fatal("a diff that gave up on minimality must still be correct")
	}
}
