package bytecode_test

import (
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// loopHead makes local 1 an iterator over [1, 2, 3] (the code the
// compiler emits for `for`).
const loopHead = `
    INT 1
    INT 2
    INT 3
    LIST 3
    ITER
    STORE 1
`

// TestIteratorsNeverLeaveTheirFrame: every way hand-made bytecode could
// move a loop iterator out of its frame (into a closure capture, a
// message, a data value, a tuple or list, a return value, an argument, a
// deferred call) is refused by the verifier; the compiler's own loop
// shape is accepted.
func TestIteratorsNeverLeaveTheirFrame(t *testing.T) {
	const tail = `
func id params=1
    LOAD 0
    RETURN
func take captures=1
    UNIT
    RETURN
type Box sum Box(_)
`
	cases := []struct {
		name, code, want string
	}{
		{"capture", "    LOAD 1\n    CLOSURE take 1\n    POP\n", "reads iterator slot 1"},
		{"message", "    SELF\n    LOAD 1\n    SEND\n    POP\n", "reads iterator slot 1"},
		{"data value", "    LOAD 1\n    DATA Box 0\n    POP\n", "reads iterator slot 1"},
		{"tuple", "    LOAD 1\n    INT 0\n    TUPLE 2\n    POP\n", "reads iterator slot 1"},
		{"argument", "    LOAD 1\n    CALL id 1\n    POP\n", "reads iterator slot 1"},
		{"return", "    LOAD 1\n    RETURN\n", "reads iterator slot 1"},
		{"receive timeout", "    RECV_START 1 0\n", "reads iterator slot 1"},
		{"dup after ITER", "    INT 0\n    LIST 1\n    ITER\n    DUP\n    STORE 2\n    STORE 3\n", "ITER is followed by DUP"},
		{"ITER straight into a capture", "    INT 0\n    LIST 1\n    ITER\n    CLOSURE take 1\n    POP\n", "ITER is followed by CLOSURE"},
		{"ITER straight into a return", "    INT 0\n    LIST 1\n    ITER\n    RETURN\n", "ITER is followed by RETURN"},
		{"ITER_NEXT on a plain local", "l:\n    ITER_NEXT 2 e\n    POP\n    JUMP l\ne:\n", "ITER_NEXT on local 2"},
	}
	for _, c := range cases {
		src := "func main locals=4\n" + loopHead + c.code + "    UNIT\n    RETURN\n" + tail
		p, err := vmtest.Assemble(src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		err = bytecode.Verify(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: verify = %v, want %q", c.name, err, c.want)
		}
	}
	// The compiler's shape: ITER; STORE it; ITER_NEXT it, reused later
	// for another loop; other locals are free to use.
	ok := "func main locals=4\n" + loopHead + `
l:
    ITER_NEXT 1 e
    STORE 2
    LOAD 2
    POP
    JUMP l
e:
    INT 4
    INT 6
    RANGE 0
    ITER
    STORE 1
m:
    ITER_NEXT 1 f
    POP
    JUMP m
f:
    UNIT
    RETURN
`
	if err := bytecode.Verify(vmtest.MustAssemble(ok)); err != nil {
		t.Errorf("the compiler's loop shape: %v", err)
	}
}
