package vm

import (
	"strings"
	"testing"
)

// TestInternalErrorsNameTheInstruction: states a checked program never
// reaches (a failed match in generated code, a native called with a
// value of the wrong kind, operands of the wrong kinds, a bad value
// shape) are internal errors, reported apart from the program's own
// faults and naming the instruction: opcode with operands, function, pc
// and source line.
func TestInternalErrorsNameTheInstruction(t *testing.T) {
	cases := []struct {
		name, code, report string
	}{
		{"failed match", `
func main
    @3
    INT 1
    @4
    FAIL "no match arm matched"
`, "morrow: internal error: no match arm matched [at FAIL 0 in main, pc 1, test.mr:4]\n  at test.mr:4\n  in main (test.mr:4)\n"},
		{"native given the wrong kind", `
func main
    @7
    INT 5
    CALL_NATIVE List.len 1
    RETURN
`, "morrow: internal error: List.len argument 1: expected List, found Int [at CALL_NATIVE 0 1 in main, pc 1, test.mr:7]\n"},
		{"operands of the wrong kinds", `
func main locals=2
    @2
    INT 1
    STORE 0
    CONST "s"
    STORE 1
    @9
    LOAD 0
    LOAD 1
    ADD
    RETURN
`, "morrow: internal error: ADD of Int and String [at ADD in main, pc 6, test.mr:9]\n"},
		{"a bad value shape", `
func main
    @5
    INT 1
    CALL f 1
    RETURN
func f params=1
    @12
    LOAD 0
    ELEM 3
    RETURN
`, "morrow: internal error: ELEM 3 of a Int value [at ELEM 3 in f, pc 1, test.mr:12]\n"},
	}
	for _, c := range cases {
		o, _ := run(t, c.code, 1<<20)
		if o.Status != StatusFault || !o.Fault.Internal || o.Fault.Code != 0 {
			t.Errorf("%s: outcome %+v", c.name, o)
			continue
		}
		if got := o.Fault.Report(); !strings.HasPrefix(got, c.report) {
			t.Errorf("%s: report\n%s\nwant it to start with\n%s", c.name, got, c.report)
		}
	}
	// A program's own fault keeps the runtime-error headline.
	o, _ := run(t, "func main\n @1\n INT 1\n INT 0\n DIV\n RETURN\n", 1<<20)
	if got := o.Fault.Report(); !strings.HasPrefix(got, "morrow: runtime error: integer division by zero\n") || o.Fault.Internal {
		t.Errorf("user fault report %q", got)
	}
}
