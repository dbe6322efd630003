package main

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// TestStackBudgetOption checks how --stack-budget and MORROW_STACK_BUDGET
// become engine options, and that docs/cli.md documents both.
func TestStackBudgetOption(t *testing.T) {
	checkOptions(t, []optionsCase{
		{nil, nil, engine.Options{}, ""},
		{nil, []string{"--stack-budget=1048576"}, engine.Options{StackBudget: 1 << 20}, ""},
		{nil, []string{"--stack-budget=0"}, engine.Options{}, "usage"},
		{map[string]string{"MORROW_STACK_BUDGET": "9000"}, nil, engine.Options{StackBudget: 9000}, ""},
		{map[string]string{"MORROW_STACK_BUDGET": "9000"}, []string{"--stack-budget=100"}, engine.Options{StackBudget: 100}, ""},
		{map[string]string{"MORROW_STACK_BUDGET": "-1"}, nil, engine.Options{}, "config"},
		{map[string]string{"MORROW_STACK_BUDGET": "1GiB"}, nil, engine.Options{}, "config"},
	}, func(o engine.Options) engine.Options { return engine.Options{StackBudget: o.StackBudget} })
	if !strings.Contains(testrun.ReadDoc(t, "cli.md"), "MORROW_STACK_BUDGET") {
		t.Error("docs/cli.md does not mention MORROW_STACK_BUDGET")
	}
}
