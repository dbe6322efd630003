// Package sys holds the natives that talk to the outside world
// (docs/io.md): System (arguments, environment, exit, clocks, standard
// input, eprint), fs and its alias File, the http client and Net (TCP).
//
// # Data flow
//
// Each native is registered under the name of its builtin registry entry
// (stdlib/builtins) and joined to it by stdlib.Build, like the natives of
// stdlib/core. A native that waits on the world hands the wait to the
// runtime through native.Host.Await: the operation runs on a goroutine of
// its own while only the calling process is parked, and the native runs
// again with the result when the process resumes (runtime/sched,
// outside.go). The invocation's arguments, environment, standard input
// and sockets are a world.World (runtime/world), which the host hands
// out (Host.World); the sockets a process owns are its world.Owned set
// (Host.Sockets), which the retire path closes.
//
// Every failure is an Err with the code docs/io.md gives, never a fault: the
// only faults are a System.exit status outside 0..255 (fault 18) and the
// rendering limit of eprint.
package sys

import (
	"context"
	"io"
	"time"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/world"
	"github.com/morrow-lang/morrow/stdlib/core"
)

var natives []*native.Native

func reg(name string, args []value.Kind, fn native.Func) {
	natives = append(natives, &native.Native{Name: name, Arity: len(args), Args: args, Fn: fn})
}

// regWork registers a native that reports its work and returns it, for
// the caller to complete (a long native's Size).
func regWork(name string, args []value.Kind, fn native.WorkFunc) *native.Native {
	n := &native.Native{Name: name, Arity: len(args), Args: args, FnWork: fn}
	natives = append(natives, n)
	return n
}

// Natives returns the bodies of the outside-world natives.
func Natives() []*native.Native { return natives }

var (
	kS = value.KString
	kI = value.KInt
	kO = value.KOpaque
)

// start is the monotonic clock's origin.
var start = time.Now()

func errInt(code int) value.Value { return value.Err(value.Int(int64(code))) }

func init() {
	reg("System.args", nil, func(h native.Host, _ []value.Value) (value.Value, *fault.Fault) {
		var out []value.Value
		if w := h.World(); w != nil {
			for _, a := range w.Args {
				out = append(out, value.String(a))
			}
		}
		return value.NewList(out), nil
	})
	reg("System.env", []value.Kind{kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if w := h.World(); w != nil && w.Getenv != nil {
			if v, ok := w.Getenv(a[0].AsString()); ok {
				return value.Some(value.String(v)), nil
			}
		}
		return value.None(), nil
	})
	reg("System.exit", []value.Kind{kI}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		n := a[0].AsInt()
		if n < 0 || n > 255 {
			return value.Unit, fault.New(fault.ExitStatus)
		}
		return value.Unit, h.Halt(int(n))
	})
	reg("System.time_ms", nil, func(native.Host, []value.Value) (value.Value, *fault.Fault) {
		return value.Int(time.Now().UnixMilli()), nil
	})
	reg("System.monotonic_ms", nil, func(native.Host, []value.Value) (value.Value, *fault.Fault) {
		return value.Int(time.Since(start).Milliseconds()), nil
	})
	reg("System.read_line", nil, func(h native.Host, _ []value.Value) (value.Value, *fault.Fault) {
		if v, f, open := h.Resume(); open {
			return v, f
		}
		w := h.World()
		if w == nil {
			return value.None(), nil
		}
		return h.Await(false, func(ctx context.Context) value.Value {
			l, ok := w.ReadLine(ctx)
			if !ok || l.EOF {
				return value.None()
			}
			return value.Some(value.String(l.Text))
		})
	})
	eprint := func(nl string) native.WorkFunc {
		return func(h native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, f := core.RenderDisplay(a[0])
			if f != nil {
				return value.Unit, f, core.MaxStringBytes / 16
			}
			_, _ = io.WriteString(h.Stderr(), s+nl)
			return value.Unit, nil, int64(len(s) / 16)
		}
	}
	// Long natives, measured as print (docs/architecture.md#long-natives).
	regWork("eprint", []value.Kind{native.KAny}, eprint("")).Size = native.Logical
	regWork("eprintln", []value.Kind{native.KAny}, eprint("\n")).Size = native.Logical
}

// world of a host, or a fault for a host without one.
func worldOf(h native.Host) (*world.World, *fault.Fault) {
	w := h.World()
	if w == nil {
		return nil, fault.New(fault.Descriptor)
	}
	return w, nil
}
