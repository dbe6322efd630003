package bytecode

import (
	"fmt"
	"sync/atomic"
)

// Loading
//
// A program reaches the VM in one of two ways: the compiler builds it
// (lang/compiler verifies what codegen produced) or a runner reads a .mrb
// image (Load: decode, then verify). Either way it is verified exactly
// once, and the result is a *Verified, the only thing runtime/vm.Load
// accepts: the type carries the proof, so no later stage verifies again
// and none can skip verification.

// Verified is a program that has passed Verify. Only Check and Load make
// one. The program must not be changed afterwards (programs are immutable
// once built; the VM shares one among all processes).
type Verified struct{ p *Program }

// Program returns the verified program.
func (v *Verified) Program() *Program { return v.p }

// Check verifies p and returns the proof that it passed.
func Check(p *Program) (*Verified, error) {
	if err := Verify(p); err != nil {
		return nil, err
	}
	return &Verified{p: p}, nil
}

// Load decodes a .mrb image and verifies the program: the one place that
// turns bytes into a program the VM may run. Every failure (a truncated,
// corrupted or foreign image, a program that does not verify, even a
// panic in either step, which would be a bug) is an error with a one-line
// message.
func Load(data []byte) (v *Verified, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("corrupt bytecode file (decoder panic: %v)", r)
		}
	}()
	p, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, fmt.Errorf("empty program")
	}
	if v, err = Check(p); err != nil {
		return nil, fmt.Errorf("bytecode does not verify: %w", err)
	}
	return v, nil
}

var verifications atomic.Int64

// Verifications returns how many times Verify has run in this process.
// Tests use it to prove that a run verifies its program once.
func Verifications() int64 { return verifications.Load() }
