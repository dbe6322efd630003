package main

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// TestGovernorOptions checks how --max-processes and --memory-budget and
// their environment variables become engine options.
func TestGovernorOptions(t *testing.T) {
	checkOptions(t, []optionsCase{
		{nil, nil, engine.Options{}, ""},
		{nil, []string{"--max-processes=5"}, engine.Options{MaxProcesses: 5}, ""},
		{nil, []string{"--max-processes=0"}, engine.Options{MaxProcesses: engine.Unlimited}, ""},
		{nil, []string{"--max-processes=-1"}, engine.Options{}, "usage"},
		{nil, []string{"--memory-budget=4096"}, engine.Options{MemoryBudget: 4096}, ""},
		{nil, []string{"--memory-budget=0"}, engine.Options{}, "usage"},
		{map[string]string{"MORROW_MAX_PROCESSES": "7", "MORROW_MEMORY_BUDGET": "9000"}, nil, engine.Options{MaxProcesses: 7, MemoryBudget: 9000}, ""},
		{map[string]string{"MORROW_MAX_PROCESSES": "0"}, nil, engine.Options{MaxProcesses: engine.Unlimited}, ""},
		{map[string]string{"MORROW_MAX_PROCESSES": "7"}, []string{"--max-processes=3"}, engine.Options{MaxProcesses: 3}, ""},
		{map[string]string{"MORROW_MEMORY_BUDGET": "9000"}, []string{"--memory-budget=100"}, engine.Options{MemoryBudget: 100}, ""},
		{map[string]string{"MORROW_MAX_PROCESSES": "-2"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_MAX_PROCESSES": "lots"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_MEMORY_BUDGET": "0"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_MEMORY_BUDGET": "64MiB"}, nil, engine.Options{}, "config"},
	}, func(o engine.Options) engine.Options {
		return engine.Options{MaxProcesses: o.MaxProcesses, MemoryBudget: o.MemoryBudget}
	})
}

const parkSrc = testrun.Park + `
fn park(n: Int, acc: List(Pid(()))) -> List(Pid(())):
    if n == 0:
        acc
    else:
        match Process.spawn(parked):
            Ok(p) -> park(n - 1, List.push(acc, p))
            Err(e) ->
                println("Err({show(e)})")
                acc

fn main():
    let ps = park(1500, [])
    println("parked {List.len(ps)}")
    release(ps)
`

// TestMaxProcessesRun runs a program that parks 1,500 actors under the
// default limit, a small one, no limit, and the environment variable.
func TestMaxProcessesRun(t *testing.T) {
	file := testrun.WriteFile(t, t.TempDir(), "park.mr", parkSrc)
	for _, c := range []struct {
		vars map[string]string
		args []string
		want string
		code int
	}{
		{nil, nil, "Err(ResourceLimit)\nparked 1024\n", 0},
		{nil, []string{"--max-processes", "3"}, "Err(ResourceLimit)\nparked 3\n", 0},
		{nil, []string{"--max-processes", "0"}, "parked 1500\n", 0},
		{map[string]string{"MORROW_MAX_PROCESSES": "2000"}, nil, "parked 1500\n", 0},
		{map[string]string{"MORROW_MAX_PROCESSES": "0"}, []string{"--max-processes=10"}, "Err(ResourceLimit)\nparked 10\n", 0},
	} {
		r := runCLI(t, c.vars, append(append([]string{"run"}, c.args...), file)...)
		if r.code != c.code || r.stdout != c.want || r.stderr != "" {
			t.Errorf("%v %v: %+v, want %q", c.vars, c.args, r, c.want)
		}
	}
	r := runCLI(t, map[string]string{"MORROW_MEMORY_BUDGET": "none"}, "run", file)
	if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "morrow: runtime error: actor resource limit exceeded\nmorrow: invalid MORROW_MEMORY_BUDGET") {
		t.Errorf("invalid MORROW_MEMORY_BUDGET: %+v", r)
	}
	r = runCLI(t, nil, "run", "--max-processes=-4", file)
	if r.code != 2 || !strings.Contains(r.stderr, "--max-processes must be 0 (no limit) or positive") {
		t.Errorf("negative --max-processes: %+v", r)
	}
}
