package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTools makes a directory holding stub commands for ensure-erlang:
// `id` prints uid, `apt-get` logs its arguments to log and, on install,
// creates working erl/erlc stubs in erlDir (unless erlDir is ""). With
// erlang set, erl and erlc exist from the start.
func fakeTools(t *testing.T, uid string, aptGet, erlang bool, erlDir string) (bin, log string) {
	t.Helper()
	bin = t.TempDir()
	log = filepath.Join(bin, "apt.log")
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("id", "echo "+uid+"\n")
	if aptGet {
		install := ""
		if erlDir != "" {
			install = "printf '#!/bin/sh\\n' > " + erlDir + "/erl; printf '#!/bin/sh\\n' > " + erlDir + "/erlc; /bin/chmod +x " + erlDir + "/erl " + erlDir + "/erlc\n"
		}
		write("apt-get", "echo \"$*\" >> "+log+"\ncase \"$*\" in *install*) "+install+";; esac\n")
	}
	if erlang {
		write("erl", "")
		write("erlc", "")
	}
	return bin, log
}

// ensureErlang runs ../.ci/ensure-erlang with PATH=path.
func ensureErlang(t *testing.T, path string, extraEnv ...string) (stdout, stderr string, code int) {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	cmd := exec.Command(sh, "../.ci/ensure-erlang")
	cmd.Env = append([]string{"PATH=" + path}, extraEnv...)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func readLog(t *testing.T, log string) string {
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

func TestEnsureErlangPresent(t *testing.T) {
	bin, log := fakeTools(t, "0", true, true, "")
	out, errOut, code := ensureErlang(t, bin)
	if code != 0 || out != "" || errOut != "" || readLog(t, log) != "" {
		t.Errorf("with erl present: code %d, stdout %q, stderr %q, apt-get calls %q", code, out, errOut, readLog(t, log))
	}
}

func TestEnsureErlangInstallsAsRoot(t *testing.T) {
	erlDir := t.TempDir()
	bin, log := fakeTools(t, "0", true, false, erlDir)
	out, errOut, code := ensureErlang(t, bin+":"+erlDir)
	if code != 0 || errOut != "" {
		t.Fatalf("root install: code %d, stderr %q", code, errOut)
	}
	if got := readLog(t, log); got != "update -qq\ninstall -y -qq erlang-nox\n" {
		t.Errorf("apt-get calls:\n%s", got)
	}
	if !strings.Contains(out, "installing erlang-nox") {
		t.Errorf("stdout %q does not say it installs erlang-nox", out)
	}
}

func TestEnsureErlangInstallThatDoesNotHelp(t *testing.T) {
	bin, _ := fakeTools(t, "0", true, false, "")
	_, errOut, code := ensureErlang(t, bin)
	if code != 1 || !strings.Contains(errOut, "still not on PATH") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}

func TestEnsureErlangNotRoot(t *testing.T) {
	bin, log := fakeTools(t, "1000", true, false, "")
	out, errOut, code := ensureErlang(t, bin)
	if code != 1 || out != "" {
		t.Errorf("code %d, stdout %q", code, out)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "'sudo apt-get install -y erlang-nox'") {
		t.Errorf("want one line with the exact command, got %q", errOut)
	}
	if got := readLog(t, log); got != "" {
		t.Errorf("apt-get must not run without root, got calls %q", got)
	}
}

func TestEnsureErlangNoAptGet(t *testing.T) {
	bin, _ := fakeTools(t, "0", false, false, "")
	_, errOut, code := ensureErlang(t, bin)
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "erlang-nox") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}

func TestEnsureErlangSkip(t *testing.T) {
	bin, log := fakeTools(t, "1000", true, false, "")
	out, errOut, code := ensureErlang(t, bin, "MORROW_SKIP_ERLANG=1")
	if code != 0 || errOut != "" || !strings.Contains(out, "MORROW_SKIP_ERLANG=1") || readLog(t, log) != "" {
		t.Errorf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestMakeTestRunsEnsureErlang: the README's `make test` and CI's
// .ci/run both go through the script.
func TestMakeTestRunsEnsureErlang(t *testing.T) {
	mk, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), "test: erlang\n") || !strings.Contains(string(mk), "erlang:\n\t@sh .ci/ensure-erlang\n") {
		t.Error("Makefile: `test` must depend on `erlang`, which runs .ci/ensure-erlang")
	}
	ci, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sh .ci/ensure-erlang\n", "make lint\n", "make build\n", "make test\n"} {
		if !strings.Contains(string(ci), want) {
			t.Errorf(".ci/run does not run %q", strings.TrimSpace(want))
		}
	}
}

// TestReadmeListsEveryDoc: README.md names every page of docs/.
func TestReadmeListsEveryDoc(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("*.md")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no docs pages: %v", err)
	}
	for _, p := range pages {
		if !strings.Contains(string(readme), "`docs/"+p+"`") {
			t.Errorf("README.md does not list docs/%s", p)
		}
	}
}
