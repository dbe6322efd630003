package main

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
)

// TestStackBudgetOption checks how --stack-budget and MORROW_STACK_BUDGET
// become engine options, and that docs/cli.md documents both.
func TestStackBudgetOption(t *testing.T) {
	cases := []struct {
		vars map[string]string
		args []string
		want int64
		err  string
	}{
		{nil, nil, 0, ""},
		{nil, []string{"--stack-budget=1048576"}, 1 << 20, ""},
		{nil, []string{"--stack-budget=0"}, 0, "usage"},
		{map[string]string{"MORROW_STACK_BUDGET": "9000"}, nil, 9000, ""},
		{map[string]string{"MORROW_STACK_BUDGET": "9000"}, []string{"--stack-budget=100"}, 100, ""},
		{map[string]string{"MORROW_STACK_BUDGET": "-1"}, nil, 0, "config"},
		{map[string]string{"MORROW_STACK_BUDGET": "1GiB"}, nil, 0, "config"},
	}
	for i, c := range cases {
		opts, err := runOptions(t, i, c.vars, c.args)
		if wantOptionsError(t, i, c.err, err) && (err != nil || opts.StackBudget != c.want) {
			t.Errorf("case %d: got stack budget %d, %v", i, opts.StackBudget, err)
		}
	}
	if !strings.Contains(testrun.ReadDoc(t, "cli.md"), "MORROW_STACK_BUDGET") {
		t.Error("docs/cli.md does not mention MORROW_STACK_BUDGET")
	}
}
