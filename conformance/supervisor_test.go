package conformance_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The supervisor scenarios (docs/supervisors.md, issue 11) live in their own
// directory and run through the same harness as scenarios/ (setupErlang,
// erlangOutput, morrowSide in conformance_test.go). Each NAME.erl at +S 1,
// 2 and 4 must print exactly NAME.expected (TestSupervisorErlang), and
// each NAME.mr must print NAME.expected in the six Morrow configurations
// (TestSupervisorMorrow), so the two sides agree line for line. As for
// scenarios/, every mapping between OTP's terms and Morrow's vocabulary
// lives in scenarios/morrow_obs.erl (docs/conformance.md); the Erlang
// twins share their worker and observer steps in supervisor/sup_kit.erl.
const (
	supervisorDir = "supervisor"
	// minSupervisorScenarios is the number issue 11 asks for.
	minSupervisorScenarios = 12
)

// TestSupervisorScenarioFiles checks the shape of the supervisor suite
// without Erlang: what checkSuiteFiles checks for every suite, plus a row
// in supervisor/README.md and an expected output for every scenario.
func TestSupervisorScenarioFiles(t *testing.T) {
	names := checkSuiteFiles(t, supervisorDir, "supervisor/", minSupervisorScenarios)
	readme, err := os.ReadFile(filepath.Join(supervisorDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !strings.Contains(string(readme), "`"+n+"`") {
			t.Errorf("%s/README.md does not list %s", supervisorDir, n)
		}
		if _, err := os.Stat(expectedPath(n)); err != nil {
			t.Errorf("%s: no expected output: %v", n, err)
		}
	}
}

func expectedPath(name string) string { return filepath.Join(supervisorDir, name+".expected") }

// TestSupervisorErlang runs the Erlang side of every supervisor scenario
// at +S 1, 2 and 4 and compares each run with NAME.expected. Without erl
// it fails and asks for erlang-nox, unless MORROW_SKIP_ERLANG=1.
// GOLDIE_UPDATE=1 rewrites the expected files from the +S 1 run (read
// the diff before committing it: they are the Morrow side's target).
func TestSupervisorErlang(t *testing.T) {
	names := scenarioNames(t, supervisorDir)
	erl := setupErlang(t, supervisorDir, names)
	if erl.skip != "" {
		t.Skip(erl.skip)
	}
	update := os.Getenv("GOLDIE_UPDATE") == "1"
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out := erlangOutput(t, erl, name)
			if update {
				if err := os.WriteFile(expectedPath(name), []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(expectedPath(name))
			if err != nil {
				t.Fatal(err)
			}
			if d := lineDiff(string(want), out); d != "" {
				t.Errorf("erlang side differs from %s.expected: %s", name, d)
			}
		})
	}
}

// TestSupervisorMorrow runs the Morrow side of every supervisor scenario
// in-process at 1, 2 and 4 schedulers with stealing off and on, and
// compares each run with NAME.expected, the output of its Erlang twin
// (which TestSupervisorErlang checks against OTP itself).
func TestSupervisorMorrow(t *testing.T) {
	for _, name := range scenarioNames(t, supervisorDir) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want, err := os.ReadFile(expectedPath(name))
			if err != nil {
				t.Fatal(err)
			}
			morrowSide(t, filepath.Join(supervisorDir, name+".mr"), string(want), name+".expected (Erlang/OTP)")
		})
	}
}
