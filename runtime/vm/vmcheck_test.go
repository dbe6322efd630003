//go:build vmcheck

package vm

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// TestCheckedFastLoop: in the -tags vmcheck build the fast loop's stack
// indexing is bounds-checked, so an out-of-range local that slipped past
// the verifier (here: an image built by hand) is an internal fault, not a
// read outside the stack.
func TestCheckedFastLoop(t *testing.T) {
	p := vmtest.MustAssemble("func main\n LOAD 0\n RETURN\n")
	p.Functions[0].Locals = 1
	p.Functions[0].Code[0].A = 1 << 20
	if _, err := load(p); err == nil {
		t.Fatalf("verifier accepted an out-of-range local")
	}
	good, err := load(vmtest.MustAssemble("func main\n UNIT\n RETURN\n"))
	if err != nil {
		t.Fatal(err)
	}
	img := &Image{Prog: p, natives: good.natives, funcVals: good.funcVals, nativeVals: good.nativeVals, nullary: good.nullary}
	img.fns = functions(p)
	st, err := NewState(img, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := Run(st, &testHost{}, 1000)
	if o.Status != StatusFault || !o.Fault.Internal {
		t.Fatalf("outcome %+v", o)
	}
}
