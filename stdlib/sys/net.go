package sys

import (
	"context"
	"time"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/world"
)

// A Net.Listener or Net.Socket value is a KOpaque handle whose payload is
// the resource's serial number and whose reference is the
// *world.Listener or *world.Socket: equality is identity.

func listenerValue(l *world.Listener) value.Value { return value.Opaque(value.KOpaque, l.ID(), l) }
func socketValue(s *world.Socket) value.Value     { return value.Opaque(value.KOpaque, s.ID(), s) }

func listenerOf(v value.Value) (*world.Listener, *fault.Fault) {
	if l, ok := v.Ref().(*world.Listener); ok {
		return l, nil
	}
	return nil, fault.Internalf("Net: not a listener")
}

func socketOf(v value.Value) (*world.Socket, *fault.Fault) {
	if s, ok := v.Ref().(*world.Socket); ok {
		return s, nil
	}
	return nil, fault.Internalf("Net: not a socket")
}

var okUnit = value.Ok(value.Unit)

// closable is a socket or a listener: owned by one process, closed once.
type closable interface {
	Closed() bool
	Owner() *world.Owned
	Close() int
}

// closeOwned closes c for the calling process: Ok(()), or Err with the
// code of why it cannot (not the owner, already closed, the close failed).
func closeOwned(h native.Host, c closable) value.Value {
	if code := usable(h, c.Closed(), c.Owner()); code != 0 {
		return errInt(code)
	}
	if code := c.Close(); code != 0 {
		return errInt(code)
	}
	return okUnit
}

// usable is the error code for using a resource that is closed (5) or
// that the caller does not own (4), or 0.
func usable(h native.Host, closed bool, owner *world.Owned) int {
	switch {
	case closed:
		return world.ErrClosed
	case owner != h.Sockets():
		return world.ErrNotOwner
	}
	return 0
}

// opened is the result of an accept or a connect: Ok(the socket), or
// Err(code).
func opened(s *world.Socket, code int) value.Value {
	if code != 0 {
		return errInt(code)
	}
	return value.Ok(socketValue(s))
}

// ownSocket is the socket v when the calling process may use it; nil
// with the fault (v is not a socket) or the Err result (closed, not the
// owner) to return otherwise.
func ownSocket(h native.Host, v value.Value) (*world.Socket, value.Value, *fault.Fault) {
	s, f := socketOf(v)
	if f != nil {
		return nil, value.Unit, f
	}
	if code := usable(h, s.Closed(), s.Owner()); code != 0 {
		return nil, errInt(code), nil
	}
	return s, value.Unit, nil
}

// parkableOnSocket begins a call on socket v that may park: done with
// its result when the call is resumed after its park, or when v is not
// a socket the caller may use; otherwise the socket.
func parkableOnSocket(h native.Host, v value.Value) (*world.Socket, value.Value, *fault.Fault, bool) {
	if r, f, open := h.Resume(); open {
		return nil, r, f, true
	}
	s, r, f := ownSocket(h, v)
	return s, r, f, s == nil
}

func init() {
	reg("Net.listen", []value.Kind{kS, kI}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		w, f := worldOf(h)
		if f != nil {
			return value.Unit, f
		}
		l, code := w.Listen(context.Background(), a[0].AsString(), int(a[1].AsInt()), h.Sockets())
		if code != 0 {
			return errInt(code), nil
		}
		return value.Ok(listenerValue(l)), nil
	})
	reg("Net.port", []value.Kind{kO}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		l, f := listenerOf(a[0])
		if f != nil {
			return value.Unit, f
		}
		return value.Int(int64(l.Port())), nil
	})
	reg("Net.accept", []value.Kind{kO}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if v, f, open := h.Resume(); open {
			return v, f
		}
		l, f := listenerOf(a[0])
		if f != nil {
			return value.Unit, f
		}
		w, f := worldOf(h)
		if f != nil {
			return value.Unit, f
		}
		if code := usable(h, l.Closed(), l.Owner()); code != 0 {
			return errInt(code), nil
		}
		owner := h.Sockets()
		return h.Await(false, func(ctx context.Context) value.Value {
			return opened(w.Accept(ctx, l, owner))
		})
	})
	reg("Net.connect", []value.Kind{kS, kI}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		if v, f, open := h.Resume(); open {
			return v, f
		}
		w, f := worldOf(h)
		if f != nil {
			return value.Unit, f
		}
		host, port, owner := a[0].AsString(), int(a[1].AsInt()), h.Sockets()
		return h.Await(false, func(ctx context.Context) value.Value {
			return opened(w.Connect(ctx, host, port, owner))
		})
	})
	reg("Net.read_line", []value.Kind{kO, kI}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		s, r, f, done := parkableOnSocket(h, a[0])
		if done {
			return r, f
		}
		timeout := time.Duration(a[1].AsInt()) * time.Millisecond
		if a[1].AsInt() < 0 {
			timeout = -1
		}
		read := func(ctx context.Context) value.Value {
			line, eof, code := s.ReadLine(ctx, timeout)
			switch {
			case code != 0:
				return errInt(code)
			case eof:
				return value.Ok(value.None())
			}
			return value.Ok(value.Some(value.String(line)))
		}
		// A whole line at hand (buffered, or in the kernel already) is
		// read without a park.
		return h.Await(s.TryLine(), read)
	})
	reg("Net.write", []value.Kind{kO, kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		s, r, f, done := parkableOnSocket(h, a[0])
		if done {
			return r, f
		}
		// Most writes fit in the kernel's buffer at once: no park.
		text, code := s.TryWrite(a[1].AsString())
		if code != 0 {
			return errInt(code), nil
		}
		if text == "" {
			return okUnit, nil
		}
		return h.Await(false, func(ctx context.Context) value.Value {
			if code := s.Write(ctx, text); code != 0 {
				return errInt(code)
			}
			return okUnit
		})
	})
	reg("Net.close", []value.Kind{kO}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		s, f := socketOf(a[0])
		if f != nil {
			return value.Unit, f
		}
		return closeOwned(h, s), nil
	})
	reg("Net.close_listener", []value.Kind{kO}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		l, f := listenerOf(a[0])
		if f != nil {
			return value.Unit, f
		}
		return closeOwned(h, l), nil
	})
	reg("Net.transfer", []value.Kind{kO, value.KProcID}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		s, bad, f := ownSocket(h, a[0])
		if s == nil {
			return bad, f
		}
		to := h.SocketsOf(a[1])
		if to == nil || !s.Transfer(to) {
			return errInt(world.ErrOther), nil
		}
		return okUnit, nil
	})
}
