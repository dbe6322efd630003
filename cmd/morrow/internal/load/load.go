// Package load reads compiled Morrow programs (.mrb files) for the runner.
//
// Decoding and verifying are runtime/bytecode.Load's job (the one place
// that turns bytes into a runnable program); this package names the file
// in the refusal and folds it into one line, which the runner prints as
// its whole report. It depends only on runtime/bytecode, never on the
// parser or the type checker: running a .mrb file must not need the front
// end (the import edge is enforced by internal/archtest).
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
func Bytecode(path string, data []byte) (*bytecode.Verified, error) {
	v, err := bytecode.Load(data)
	if err != nil {
		return nil, &Error{Path: path, Reason: oneLine(err.Error())}
	}
	return v, nil
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
