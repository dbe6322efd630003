package docs

// The doc-block convention. Every fenced block in docs/*.md and README.md
// that shows what the toolchain prints is one of these, and this test
// runs it:
//
//   - ```output after a ```morrow block (prose may come between): the
//     program is compiled and run (one scheduler); its stdout must be the
//     block. `#! exit N` and `#! stderr "text"` comments in the program
//     set the expected exit status and stderr, as in fixtures/.
//   - ```trace after a ```morrow block: the lifecycle trace of that run.
//   - ```diagnostics after a ```morrow block: what `morrowc check FILE`
//     writes on stderr, summary line included. FILE is the name given by
//     an `<!-- file: NAME -->` comment right before the ```morrow block
//     (default example.mr).
//   - ```console: lines `$ morrowc ...` or `$ morrow ...`, each followed by
//     the output it writes (stdout and stderr, in order). A command that
//     ends with `# exit N` must exit with N, any other with 0. Commands run
//     in a directory holding the page's `<!-- file: NAME -->` programs and
//     links to the repository's examples/ and fixtures/.
//   - ```repl: a `morrow repl` session as a terminal shows it. Lines that
//     start with the prompt `morrow> ` or the continuation prompt
//     `   ...> ` are what the user types; the other lines are what the
//     REPL must print for them (the session runs through a pipe, so
//     without banner and prompts).
//
// Every ```morrow block must compile without errors or warnings, unless a
// ```diagnostics block follows it, or it is a named file that a ```console
// block after it uses. A plain or ```text block whose
// introducing paragraph says it shows output ("prints", "Output") is an
// error: it must use one of the kinds above.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/repl"
	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// block is one fenced block of a page.
type block struct {
	page  string
	line  int    // line of the opening fence
	info  string // the info string: morrow, output, console, ...
	body  string
	file  string // <!-- file: NAME --> before the block
	intro string // the prose paragraph before the block
}

var fileCommentRE = regexp.MustCompile(`^<!-- file: (\S+) -->$`)

// parseBlocks splits a Markdown page into its fenced blocks.
func parseBlocks(page, text string) []block {
	lines := strings.Split(text, "\n")
	var out []block
	var prose []string
	file := ""
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "```") {
			if m := fileCommentRE.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
				file = m[1]
			} else if strings.TrimSpace(l) == "" {
				if len(prose) > 0 && prose[len(prose)-1] != "" {
					prose = append(prose, "")
				}
			} else if !strings.HasPrefix(l, "<!--") {
				if len(prose) > 0 && prose[len(prose)-1] == "" {
					prose = nil
				}
				prose = append(prose, l)
				file = ""
			}
			continue
		}
		b := block{page: page, line: i + 1, info: strings.TrimSpace(strings.TrimPrefix(l, "```")), file: file, intro: strings.Join(prose, " ")}
		var body []string
		for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
			body = append(body, lines[i])
		}
		b.body = strings.Join(body, "\n") + "\n"
		if len(body) == 0 {
			b.body = ""
		}
		out = append(out, b)
		file, prose = "", nil
	}
	return out
}

func (b block) where() string { return fmt.Sprintf("%s:%d", b.page, b.line) }

// pages returns every documentation page with its text.
func pages(t *testing.T) map[string]string {
	t.Helper()
	names, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := filepath.Glob("reference/*.md")
	if err != nil {
		t.Fatal(err)
	}
	names = append(append(names, ref...), "../README.md")
	out := map[string]string{}
	for _, n := range names {
		raw, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimPrefix(n, "../")] = string(raw)
	}
	return out
}

var (
	exitRE   = regexp.MustCompile(`(?m)^#!\s*exit\s+(\d+)\s*$`)
	stderrRE = regexp.MustCompile(`(?m)^#!\s*stderr\s+"((?:[^"\\]|\\.)*)"\s*$`)
	claimRE  = regexp.MustCompile(`(?i)\bprints\b|\boutput\b|\bwrites\b`)
)

// TestDocBlocks runs every block of the convention on every page.
func TestDocBlocks(t *testing.T) {
	tools := func() *toolchain { return buildTools(t) }
	for page, text := range pages(t) {
		for _, p := range checkPage(t, page, text, tools) {
			t.Error(p)
		}
	}
}

// TestDocBlocksCatchDrift shows that checkPage rejects a page whose
// blocks disagree with the toolchain.
func TestDocBlocksCatchDrift(t *testing.T) {
	tools := func() *toolchain { return buildTools(t) }
	prog := "```morrow\n#! exit 3\nfn main() -> Int:\n    println(\"hi\")\n    3\n```\n\n"
	for _, tc := range []struct {
		name, page string
		problems   int
	}{
		{"faithful output", prog + "```output\nhi\n```\n", 0},
		{"wrong output", prog + "```output\nho\n```\n", 1},
		{"wrong exit status", strings.Replace(prog, "exit 3", "exit 4", 1) + "```output\nhi\n```\n", 1},
		{"output without program", "```output\nhi\n```\n", 1},
		{"untyped output", "It prints:\n\n```\nhi\n```\n", 1},
		{"program with a warning", "```morrow\nfn main():\n    let x = 1\n    println(2)\n```\n", 1},
		{"faithful diagnostics", "<!-- file: d.mr -->\n```morrow\nfn main():\n    println(nope)\n```\n\n```diagnostics\n" +
			"error[E2001]: unknown name 'nope'\n --> d.mr:2:13\n  |\n2 |     println(nope)\n  |             ^^^^ not found in this scope\n\n1 error\n```\n", 0},
		{"wrong diagnostics", "<!-- file: d.mr -->\n```morrow\nfn main():\n    println(nope)\n```\n\n```diagnostics\nerror[E2001]: x\n```\n", 1},
		{"faithful console", "```console\n$ morrow run examples/hello.mr\nHello, Morrow!\n$ morrowc check missing.mr  # exit 1\nmorrowc: cannot read missing.mr: no such file or directory\n```\n", 0},
		{"console with wrong exit", "```console\n$ morrowc check missing.mr\nmorrowc: cannot read missing.mr: no such file or directory\n```\n", 1},
		{"console with wrong output", "```console\n$ morrow run examples/hello.mr\nHello!\n```\n", 1},
		{"console with another tool", "```console\n$ ls\n```\n", 1},
		{"faithful repl", "```repl\nmorrow> let x = 41\nmorrow> x + 1\n42 : Int\nmorrow> if x > 1:\n   ...>     \"big\"\n   ...> else:\n   ...>     \"small\"\n   ...>\n\"big\" : String\n```\n", 0},
		{"repl with wrong output", "```repl\nmorrow> 1 + 1\n3 : Int\n```\n", 1},
	} {
		if got := checkPage(t, "test.md", tc.page, tools); len(got) != tc.problems {
			t.Errorf("%s: %d problems, want %d: %v", tc.name, len(got), tc.problems, got)
		}
	}
}

// checkPage checks every block of one page and returns the problems.
func checkPage(t *testing.T, page, text string, tools func() *toolchain) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	blocks := parseBlocks(page, text)
	files := map[string]string{}
	var prog *block
	for i := range blocks {
		b := &blocks[i]
		switch b.info {
		case "morrow":
			prog = b
			files[b.fileName()] = b.body
			if !followedBy(blocks[i+1:], "diagnostics") && !(b.file != "" && usedByConsole(blocks[i+1:])) {
				if p := checkClean(b); p != "" {
					report("%s", p)
				}
			}
		case "output", "trace":
			if prog == nil {
				report("%s: ```%s block without a ```morrow block before it", b.where(), b.info)
				continue
			}
			problems = append(problems, runProgram(prog, b)...)
		case "diagnostics":
			if prog == nil {
				report("%s: ```diagnostics block without a ```morrow block before it", b.where())
				continue
			}
			name := prog.fileName()
			stdout, stderr, code := tools().run(t, files, "morrowc", "check", name)
			if code != 1 && code != 0 || stdout != "" {
				report("%s: morrowc check %s: exit %d, stdout %q", b.where(), name, code, stdout)
			}
			if stderr != b.body {
				report("%s: morrowc check %s writes:\n%s\nthe page shows:\n%s", b.where(), name, stderr, b.body)
			}
		case "console":
			problems = append(problems, runConsole(t, tools, files, b)...)
		case "repl":
			problems = append(problems, runRepl(b)...)
		case "", "text":
			if claimRE.MatchString(b.intro) && strings.HasSuffix(strings.TrimSpace(b.intro), ":") {
				report("%s: this block shows output (%q); make it an ```output, ```trace, ```diagnostics or ```console block so it is tested", b.where(), b.intro)
			}
		}
	}
	return problems
}

// fileName is the name a morrow block is saved under.
func (b block) fileName() string {
	if b.file == "" {
		return "example.mr"
	}
	return b.file
}

// followedBy reports whether a block of kind info follows before the
// next morrow block.
func followedBy(rest []block, info string) bool {
	for _, b := range rest {
		if b.info == "morrow" {
			return false
		}
		if b.info == info {
			return true
		}
	}
	return false
}

// usedByConsole reports whether a ```console block follows a named
// file, with only other named files in between (the files of a program
// of several modules, docs/modules.md).
func usedByConsole(rest []block) bool {
	for _, b := range rest {
		switch {
		case b.info == "console":
			return true
		case b.info == "morrow" && b.file == "":
			return false
		}
	}
	return false
}

// checkClean requires a program to compile without errors or warnings.
func checkClean(b *block) string {
	u, err := compiler.Build(b.where(), []byte(b.body))
	if err != nil {
		return fmt.Sprintf("%s: %v", b.where(), err)
	}
	if len(u.Diags) > 0 {
		var out bytes.Buffer
		diag.Render(&out, u.Diags, diag.RenderOptions{})
		return fmt.Sprintf("%s: the program does not compile cleanly:\n%s", b.where(), out.String())
	}
	return ""
}

// runProgram runs prog once at one scheduler and compares the block.
func runProgram(prog, b *block) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	u, err := compiler.Build(prog.where(), []byte(prog.body))
	if err != nil || u.Program == nil {
		report("%s: the program for the ```%s block does not compile (%v)", b.where(), b.info, err)
		return problems
	}
	wantExit := 0
	if m := exitRE.FindStringSubmatch(prog.body); m != nil {
		wantExit, _ = strconv.Atoi(m[1])
	}
	var stdout, stderr, trace testrun.Buffer
	opts := engine.Options{Stdout: &stdout, Stderr: &stderr, Schedulers: 1}
	if b.info == "trace" {
		opts.Trace = &trace
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code := engine.Run(ctx, u.Program, opts)
	if code != wantExit {
		report("%s: exit status %d, want %d (stderr %q)", b.where(), code, wantExit, stderr.String())
	}
	wantStderr := stderrRE.FindAllStringSubmatch(prog.body, -1)
	for _, m := range wantStderr {
		if !strings.Contains(stderr.String(), strings.ReplaceAll(m[1], `\"`, `"`)) {
			report("%s: stderr %q lacks %q", b.where(), stderr.String(), m[1])
		}
	}
	if len(wantStderr) == 0 && stderr.String() != "" {
		report("%s: unexpected stderr %q", b.where(), stderr.String())
	}
	got := stdout.String()
	if b.info == "trace" {
		got = trace.String()
	}
	if got != b.body {
		report("%s: the program prints:\n%s\nthe page shows:\n%s", b.where(), got, b.body)
	}
	return problems
}

// consoleCmdRE reads `$ tool args [# exit N]`.
var consoleCmdRE = regexp.MustCompile(`^\$ (morrowc|morrow)((?: [^#]*?)?)\s*(?:# exit (\d+))?$`)

// runConsole runs the commands of a console block.
func runConsole(t *testing.T, tools func() *toolchain, files map[string]string, b *block) []string {
	var problems []string
	report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	lines := strings.Split(strings.TrimSuffix(b.body, "\n"), "\n")
	for i := 0; i < len(lines); {
		m := consoleCmdRE.FindStringSubmatch(lines[i])
		if m == nil {
			report("%s: line %q is not a `$ morrowc …` or `$ morrow …` command", b.where(), lines[i])
			return problems
		}
		want := ""
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(lines[j], "$ "); j++ {
			want += lines[j] + "\n"
		}
		wantExit := 0
		if m[3] != "" {
			wantExit, _ = strconv.Atoi(m[3])
		}
		args := append([]string{m[1]}, strings.Fields(m[2])...)
		out, code := tools().combined(t, files, args...)
		if code != wantExit {
			report("%s: `%s` exits %d, the page says %d\n%s", b.where(), strings.Join(args, " "), code, wantExit, out)
		}
		if out != want {
			report("%s: `%s` writes:\n%s\nthe page shows:\n%s", b.where(), strings.Join(args, " "), out, want)
		}
		i = j
	}
	return problems
}

// toolchain is a build of morrowc and morrow for the console blocks.
type toolchain struct{ bin string }

var (
	buildOnce sync.Once
	built     *toolchain
	buildErr  error
)

// TestMain removes the toolchain build once every test has run, so a
// run of the suite leaves nothing behind in the temporary directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if built != nil {
		os.RemoveAll(built.bin)
	}
	os.Exit(code)
}

func buildTools(t *testing.T) *toolchain {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "morrow-docs-bin")
		if err != nil {
			buildErr = err
			return
		}
		cmd := exec.Command("go", "build", "-o", dir, "../cmd/morrowc", "../cmd/morrow")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			os.RemoveAll(dir)
			return
		}
		built = &toolchain{bin: dir}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// workdir makes a directory with the page's programs and links to the
// repository's examples and fixtures.
func (tc *toolchain) workdir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := testrun.WriteTree(t, files)
	for _, d := range []string{"examples", "fixtures"} {
		abs, err := filepath.Abs(filepath.Join("..", d))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(filepath.Join(dir, d)); err == nil {
			continue
		}
		if err := os.Symlink(abs, filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	return dir
}

func (tc *toolchain) command(t *testing.T, files map[string]string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(tc.bin, args[0]), args[1:]...)
	cmd.Dir = tc.workdir(t, files)
	cmd.Env = []string{"PATH=" + tc.bin + ":/usr/bin:/bin", "HOME=" + cmd.Dir}
	return cmd
}

func exitCode(t *testing.T, err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// run returns stdout, stderr and the exit status of one command.
func (tc *toolchain) run(t *testing.T, files map[string]string, args ...string) (string, string, int) {
	cmd := tc.command(t, files, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitCode(t, cmd.Run())
	return out.String(), errb.String(), code
}

// combined returns stdout and stderr as one stream, in order, and the
// exit status.
func (tc *toolchain) combined(t *testing.T, files map[string]string, args ...string) (string, int) {
	cmd := tc.command(t, files, args...)
	var out testrun.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	code := exitCode(t, cmd.Run())
	return out.String(), code
}

// runRepl feeds the typed lines of a ```repl block to a session and
// compares what it prints with the block's other lines.
func runRepl(b *block) []string {
	var in, want strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(b.body, "\n"), "\n") {
		if typed, ok := strings.CutPrefix(l, strings.TrimRight(repl.Prompt, " ")); ok {
			in.WriteString(strings.TrimPrefix(typed, " ") + "\n")
		} else if typed, ok := strings.CutPrefix(l, strings.TrimRight(repl.MorePrompt, " ")); ok {
			in.WriteString(strings.TrimPrefix(typed, " ") + "\n")
		} else {
			want.WriteString(l + "\n")
		}
	}
	var out bytes.Buffer
	repl.New(&out).Run(repl.NewPipeReader(strings.NewReader(in.String())), nil)
	if out.String() != want.String() {
		return []string{fmt.Sprintf("%s: the REPL prints:\n%s\nthe page shows:\n%s", b.where(), out.String(), want.String())}
	}
	return nil
}
