package sched

import (
	"context"
	"io"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/proc"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/world"
)

// Outside operations (docs/io.md): a native that waits on the
// outside world (standard input, a file, the network, an HTTP request)
// calls Host.Await with the operation, which runs off the schedulers
// (goOutside, offload.go: the wait happens in Go's netpoller or a
// blocked system call, never on a scheduler) and parks only the calling
// process; the native runs again and Await hands it the result. Output
// is flushed whenever a process parks on one.

// Stderr is where eprint and eprintln write.
func (h *host) Stderr() io.Writer {
	h.settle()
	return errWriter{h.s.rt}
}

// errWriter flushes stdout before every write, so the two streams keep
// the order of the calls.
type errWriter struct{ rt *Runtime }

func (e errWriter) Write(b []byte) (int, error) {
	e.rt.Out.Flush()
	if e.rt.cfg.Stderr == nil {
		return len(b), nil
	}
	e.rt.errMu.Lock()
	defer e.rt.errMu.Unlock()
	if e.rt.halted.Load() {
		return len(b), nil
	}
	return e.rt.cfg.Stderr.Write(b)
}

// World is the invocation's outside world.
func (h *host) World() *world.World {
	h.settle()
	return h.s.rt.World
}

// Sockets is the running process's socket set.
func (h *host) Sockets() *world.Owned {
	h.settle()
	return h.p.Sockets()
}

// SocketsOf is the socket set of the live process id, or nil.
func (h *host) SocketsOf(id value.Value) *world.Owned {
	h.settle()
	t := proc.Of(id)
	if t == nil || t.Epoch() != h.s.rt.Inv.Epoch || t.Kind == proc.KindPort || t.Driver != nil {
		return nil
	}
	return t.Sockets()
}

// Resume answers a native that runs again after its Await or Offload
// parked it.
func (h *host) Resume() (value.Value, *fault.Fault, bool) {
	h.settle()
	if v, open, done := h.p.TakeNativeWait(); open {
		if done {
			return v, nil, true
		}
		return value.Unit, fault.NewPark(), true
	}
	return value.Unit, nil, false
}

// Await runs op off the schedulers and parks the running process until
// it returns.
func (h *host) Await(ready bool, op func(ctx context.Context) value.Value) (value.Value, *fault.Fault) {
	h.settle()
	if v, f, open := h.Resume(); open {
		return v, f
	}
	rt := h.s.rt
	if ready {
		return op(context.Background()), nil
	}
	if rt.det != nil {
		// A deterministic run (explore, replay, the REPL) does the
		// operation in place: only files and the clock reach here.
		return op(context.Background()), nil
	}
	rt.Out.Flush()
	if !h.goOutside(op) {
		// Retiring: the operation sees a cancelled context.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return op(ctx), nil
	}
	return value.Unit, fault.NewPark()
}

// Halt implements System.exit.
func (h *host) Halt(status int) *fault.Fault {
	h.settle()
	rt := h.s.rt
	rt.mu.Lock()
	if rt.cfg.Session {
		// The REPL: the entry ends, the session and its output live on.
		rt.Out.Flush()
		rt.stopLocked()
	} else if !rt.stopped && !rt.halted.Load() {
		rt.res.Halted, rt.res.HaltStatus = true, status
		rt.Out.Close()
		rt.halted.Store(true)
		rt.stopLocked()
	}
	rt.mu.Unlock()
	return &fault.Fault{Msg: "System.exit", Aborted: true}
}
