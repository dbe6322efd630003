package gen_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/gen"
	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// TestModules splits generated programs into modules (gen.Split) and
// requires each split program to check and compile without errors, and a program without processes
// to print the same and end with the same status as the one file.
func TestModules(t *testing.T) {
	ss := seeds(150, 30)
	var failures []string
	var mu sync.Mutex
	parallel(ss, func(seed int64) {
		p := gen.Generate(seed, config())
		if msg := checkSplit(t, p); msg != "" {
			mu.Lock()
			failures = append(failures, "seed "+itoa(seed)+": "+msg)
			mu.Unlock()
		}
	})
	reportFailures(t, failures, "modules")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func checkSplit(t *testing.T, p *gen.Program) string {
	dir, err := os.MkdirTemp(t.TempDir(), "split")
	if err != nil {
		return err.Error()
	}
	files := gen.Split(p.Source, p.Seed)
	var listing strings.Builder
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			return err.Error()
		}
		listing.WriteString("=== " + name + "\n" + src)
	}
	entry := filepath.Join(dir, "main.mr")
	u, err := compiler.Build(entry, []byte(files["main.mr"]))
	if err != nil {
		return "internal error: " + err.Error() + "\n" + listing.String()
	}
	var bad diag.List
	for _, d := range u.Diags {
		if d.Severity == diag.Error {
			bad = append(bad, d)
		}
	}
	if len(bad) > 0 || u.Program == nil {
		return "the split program does not compile cleanly: " + bad.Err().Error() + "\n" + listing.String()
	}
	if p.Actors {
		return ""
	}
	one, err := compiler.Build("one.mr", []byte(p.Source))
	if err != nil || one.Program == nil {
		return "" // the one-file program's own problems are TestWellTyped's
	}
	a, sa, _ := run(one.Program, p.Seed)
	b, sb, _ := run(roundTrip(u.Program), p.Seed)
	if a.stdout != b.stdout || sa != sb {
		return "the split program behaves differently:\n--- one file (status " + itoa(int64(sa)) + ")\n" + a.stdout + "--- split (status " + itoa(int64(sb)) + ")\n" + b.stdout + "\n" + listing.String()
	}
	return ""
}

func roundTrip(p *bytecode.Program) *bytecode.Program {
	d, err := bytecode.Decode(bytecode.Encode(p))
	if err != nil {
		return p
	}
	return d
}
