// Package engine runs a loaded program: the root context (main or a
// library start function) and, later, the process schedulers.
// PLACEHOLDER: replaced by the engine implementation.
package engine

import (
	"context"
	"io"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

// Options configures one invocation.
type Options struct {
	Stdout, Stderr io.Writer
	Schedulers     int   // 1..64; 0 means the default (1)
	Steal          bool  // work stealing between schedulers
	Seed           int64 // deterministic schedule seed
	Reductions     int   // reductions per turn; 0 means the default
	Trace          io.Writer
}

// Run executes the program and returns the process exit status: main's
// Int result, 0 for Unit/Ok, 1 for a runtime fault or Err from main.
// Runtime faults are written to Stderr as `morrow: runtime error: <text>`.
func Run(ctx context.Context, p *bytecode.Program, opts Options) int {
	io.WriteString(opts.Stderr, "morrow: engine not implemented yet\n")
	return 1
}
