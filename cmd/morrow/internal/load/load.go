// Package load reads compiled Morrow programs (.mrb files) for the runner.
//
// It depends only on runtime/bytecode, never on the parser or the type
// checker: running a .mrb file must not need the front end (the import
// edge is enforced by internal/archtest). Every failure (truncated or
// corrupted image, another format version, a program that fails
// verification, even a decoder panic) becomes one error whose message
// fits on one line, which the runner prints as its whole report.
package load

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Error is a refusal to load a bytecode image.
type Error struct {
	Path   string
	Reason string // one line
}

func (e *Error) Error() string {
	return fmt.Sprintf("cannot load %s: %s", e.Path, e.Reason)
}

// Bytecode decodes and verifies the image read from path.
func Bytecode(path string, data []byte) (p *bytecode.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			p, err = nil, &Error{Path: path, Reason: oneLine(fmt.Sprintf("corrupt bytecode file (decoder panic: %v)", r))}
		}
	}()
	p, err = bytecode.Decode(data)
	if err != nil {
		return nil, &Error{Path: path, Reason: oneLine(err.Error())}
	}
	if p == nil {
		return nil, &Error{Path: path, Reason: "empty program"}
	}
	if err := bytecode.Verify(p); err != nil {
		return nil, &Error{Path: path, Reason: oneLine("bytecode does not verify: " + err.Error())}
	}
	return p, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
