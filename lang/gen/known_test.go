package gen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/gen"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// Each file in testdata/known is a minimized reproducer of a bug the
// generator or the mutator found. Its header says what should happen:
//
//	# known: rejects-valid | parser | runtime   the program must check,
//	                                          compile and run cleanly
//	                                          (stdout = NAME.out if present)
//	# known: accepts-invalid                  check must reject it with a
//	                                          coded diagnostic
//
// TestKnownBugs runs every file and fails for one that misbehaves: a
// known bug is never parked silently. A switch in gen.KnownBugs keeps the
// generator away from the bug while it is being fixed, so the seeded
// runs stay useful; the reproducer fails the suite until the fix lands.
// Then the reproducer moves to fixtures/ and its switch goes. The
// directory is empty when every bug found so far is fixed.

func knownKind(src string) string {
	for _, l := range strings.Split(src, "\n") {
		if k, ok := strings.CutPrefix(l, "# known: "); ok {
			return strings.TrimSpace(k)
		}
	}
	return ""
}

// misbehaves returns why the reproducer still shows its bug ("" when it
// behaves).
func misbehaves(name string, src []byte, want []byte, hasWant bool) string {
	kind := knownKind(string(src))
	switch kind {
	case "accepts-invalid":
		_, failure := checkMutant(0, string(src))
		return failure
	case "rejects-valid", "parser", "runtime":
	default:
		return fmt.Sprintf("unknown header %q", kind)
	}
	u, err := compiler.Build(name, src)
	if err != nil {
		return "internal compiler error: " + err.Error()
	}
	if u.Diags.HasErrors() {
		return "check rejects it: " + u.Diags.Err().Error()
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	var stdout, stderr bytes.Buffer
	status := engine.Run(ctx, u.Program, engine.Options{Stdout: &stdout, Stderr: &stderr})
	if stderr.Len() > 0 || status != 0 {
		return fmt.Sprintf("run: status %d, stderr %q", status, stderr.String())
	}
	if hasWant && !bytes.Equal(stdout.Bytes(), want) {
		return fmt.Sprintf("run: stdout %q, want %q", stdout.String(), want)
	}
	return ""
}

func TestKnownBugs(t *testing.T) {
	files, err := filepath.Glob("testdata/known/*.mr")
	if err != nil {
		t.Fatal(err)
	}
	switches := map[string]string{}
	for _, k := range gen.KnownBugs {
		switches[k.File] = k.Switch
		if _, err := os.Stat(filepath.Join("testdata/known", k.File)); err != nil {
			t.Errorf("switch %s names a missing reproducer: %v", k.Switch, err)
		}
	}
	for _, f := range files {
		base := filepath.Base(f)
		t.Run(strings.TrimSuffix(base, ".mr"), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, werr := os.ReadFile(strings.TrimSuffix(f, ".mr") + ".out")
			sw := switches[base]
			if sw == "" {
				t.Errorf("%s is not named by any switch in gen.KnownBugs", base)
			}
			if why := misbehaves(base, src, want, werr == nil); why != "" {
				t.Fatalf("still misbehaves (avoid[%q] is on meanwhile): %s", sw, why)
			}
			t.Errorf("behaves now: move %s to fixtures/ and remove avoid[%q]", base, sw)
		})
	}
}
