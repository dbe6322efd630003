package sched

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

func TestEntryName(t *testing.T) {
	lambda := bytecode.FlagLambda
	p := &bytecode.Program{Functions: []*bytecode.Function{
		0: {Name: "worker"},
		// () -> worker(n): FREE 0; TAIL_CALL 0 1
		1: {Name: "main.lambda@3", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.FREE}, {Op: bytecode.TAIL_CALL, A: 0, B: 1}}},
		// a lambda forwarding to the forwarding lambda, with CALL; RETURN
		2: {Name: "main.lambda@4", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.CALL, A: 1}, {Op: bytecode.RETURN}}},
		// a lambda that does work of its own keeps its name
		3: {Name: "main.lambda@5", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.INT, A: 1}, {Op: bytecode.INT, A: 2}, {Op: bytecode.ADD}, {Op: bytecode.RETURN}}},
		// a named function that only forwards is still itself
		4: {Name: "start", Code: []bytecode.Instr{{Op: bytecode.TAIL_CALL, A: 0}}},
		5: {Name: "odd name\twith\x01spaces"},
		6: {Name: ""},
		// two lambdas forwarding to each other: the hop limit ends it
		7: {Name: "a.lambda@1", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.TAIL_CALL, A: 8}}},
		8: {Name: "b.lambda@2", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.TAIL_CALL, A: 7}}},
		// a forward to a function index out of range stays put
		9: {Name: "c.lambda@3", Flags: lambda, Code: []bytecode.Instr{{Op: bytecode.TAIL_CALL, A: 99}}},
	}}
	fn := func(i int) value.Value { return value.NewClosure(i, nil) }
	for _, c := range []struct {
		f    value.Value
		want string
	}{
		{fn(0), "worker"},
		{fn(1), "worker"},
		{fn(2), "worker"},
		{fn(3), "main.lambda@5"},
		{fn(4), "start"},
		{fn(5), "odd_name_with_spaces"},
		{fn(6), "?"},
		{fn(7), "a.lambda@1"},
		{fn(9), "c.lambda@3"},
		{fn(42), "?"},
		{value.Int(3), "?"},
	} {
		if got := entryName(p, c.f); got != c.want {
			t.Errorf("entryName(%v) = %q, want %q", c.f, got, c.want)
		}
	}
}
