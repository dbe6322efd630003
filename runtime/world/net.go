package world

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"
)

// Error codes of the Net functions (docs/io.md).
const (
	ErrRefused  = 1 // refused or unreachable
	ErrPerm     = 2 // permission
	ErrOther    = 3 // anything else, and the socket limit
	ErrNotOwner = 4 // the caller does not own the socket
	ErrClosed   = 5 // the socket or listener is closed
	ErrTimeout  = 7 // read_line's timeout passed
	ErrInUse    = 8 // the address is in use
	ErrLong     = 9 // a line longer than 1 MiB (the connection is closed)
)

// resource is a socket or a listener.
type resource interface {
	closeRes()
}

// Owned is the set of resources of one process, and the cancel function
// of the outside operation it is parked on. The process model creates
// it on the first open and closes it when the process retires.
type Owned struct {
	resSet
	cancel context.CancelFunc // under resSet.mu
}

// resSet is a set of open resources that refuses new ones once it is
// closed: a process's (Owned) and the whole invocation's (World).
type resSet struct {
	mu     sync.Mutex
	closed bool
	res    map[resource]struct{}
}

// add puts r in the set; false when the set is closed.
func (s *resSet) add(r resource) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	if s.res == nil {
		s.res = map[resource]struct{}{}
	}
	s.res[r] = struct{}{}
	return true
}

func (s *resSet) remove(r resource) {
	s.mu.Lock()
	delete(s.res, r)
	s.mu.Unlock()
}

// shut closes the set and empties it, returning what it held; the
// caller holds s.mu and closes the resources after releasing it.
func (s *resSet) shut() []resource {
	s.closed = true
	rs := make([]resource, 0, len(s.res))
	for r := range s.res {
		rs = append(rs, r)
	}
	s.res = nil
	return rs
}

// SetCancel records the cancel function of the outside operation the
// process starts (nil when it is over). It reports false when the set is
// closed (the process is retiring): the operation must not start.
func (o *Owned) SetCancel(c context.CancelFunc) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return false
	}
	o.cancel = c
	return true
}

// Close closes every resource of the set and cancels the outside
// operation in flight; the set then refuses new resources. It is the
// retire path's step for sockets (runtime/proc).
func (o *Owned) Close() {
	if o == nil {
		return
	}
	o.mu.Lock()
	rs := o.shut()
	c := o.cancel
	o.cancel = nil
	o.mu.Unlock()
	if c != nil {
		c()
	}
	for _, r := range rs {
		r.closeRes()
	}
}

// Len returns the number of resources in the set.
func (o *Owned) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.res)
}

// handle is what sockets and listeners share: identity, owner, state.
type handle struct {
	w      *World
	id     int64
	owner  atomic.Pointer[Owned]
	closed atomic.Bool
}

var nextID atomic.Int64

// ID is the handle's serial number (its value's payload).
func (h *handle) ID() int64 { return h.id }

// Owner returns the owning set.
func (h *handle) Owner() *Owned { return h.owner.Load() }

// Closed reports whether the handle is closed.
func (h *handle) Closed() bool { return h.closed.Load() }

// transfer moves r from its owner to to; false when to is closed (the
// target process has retired).
func transfer(h *handle, r resource, to *Owned) bool {
	from := h.owner.Load()
	if from == to {
		return true
	}
	if !to.add(r) {
		return false
	}
	h.owner.Store(to)
	from.remove(r)
	if h.closed.Load() {
		to.remove(r)
	}
	return true
}

// Listener is a listening TCP socket.
type Listener struct {
	handle
	l    net.Listener
	port int
}

// Socket is a TCP connection carrying text lines.
type Socket struct {
	handle
	c  net.Conn
	lr *lineReader
	rm sync.Mutex // one reader at a time
	wm sync.Mutex // one writer at a time
}

// release closes r, whose handle is h and whose connection is c, once:
// the world no longer counts or holds it.
func (h *handle) release(r resource, c io.Closer) {
	if h.closed.CompareAndSwap(false, true) {
		c.Close()
		h.w.open.Add(-1)
		h.w.all.remove(r)
	}
}

func (l *Listener) closeRes() { l.release(l, l.l) }

func (s *Socket) closeRes() { s.release(s, s.c) }

// Port is the listener's bound port.
func (l *Listener) Port() int { return l.port }

// Transfer hands the listener to another owner.
func (l *Listener) Transfer(to *Owned) bool { return transfer(&l.handle, l, to) }

// Transfer hands the socket to another owner.
func (s *Socket) Transfer(to *Owned) bool { return transfer(&s.handle, s, to) }

// closeFor closes r, whose handle is h, for its owner: ErrClosed when it
// already is.
func (h *handle) closeFor(r resource) int {
	if h.closed.Load() {
		return ErrClosed
	}
	if o := h.owner.Load(); o != nil {
		o.remove(r)
	}
	r.closeRes()
	return 0
}

// Close closes the listener for its owner: ErrClosed when it already is.
func (l *Listener) Close() int { return l.closeFor(l) }

// Close closes the socket for its owner: ErrClosed when it already is.
func (s *Socket) Close() int { return s.closeFor(s) }

// adopt registers a new resource with the world and its owner; false
// (and the resource closed) when either is closed.
func (w *World) adopt(r resource, h *handle, owner *Owned) bool {
	h.w = w
	h.id = nextID.Add(1)
	h.owner.Store(owner)
	if !w.all.add(r) {
		r.closeRes()
		return false
	}
	if !owner.add(r) {
		r.closeRes()
		return false
	}
	return true
}

// Listen opens a listener on host:port for owner (port 0: a free one).
func (w *World) Listen(ctx context.Context, host string, port int, owner *Owned) (*Listener, int) {
	if port < 0 || port > 65535 {
		return nil, ErrOther
	}
	if !w.reserve() {
		return nil, ErrOther
	}
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		w.open.Add(-1)
		return nil, code(err)
	}
	ln := &Listener{l: l, port: l.Addr().(*net.TCPAddr).Port}
	if !w.adopt(ln, &ln.handle, owner) {
		return nil, ErrClosed
	}
	return ln, 0
}

// Accept waits for a client on l; the new socket belongs to owner. Over
// the socket limit the pending client is closed and the result is
// ErrOther.
func (w *World) Accept(ctx context.Context, l *Listener, owner *Owned) (*Socket, int) {
	stop := context.AfterFunc(ctx, func() { l.l.(*net.TCPListener).SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c, err := l.l.Accept()
	if err != nil {
		if l.closed.Load() {
			return nil, ErrClosed
		}
		if ctx.Err() != nil {
			l.l.(*net.TCPListener).SetDeadline(time.Time{})
		}
		return nil, code(err)
	}
	return w.newSocket(c, owner)
}

func (w *World) newSocket(c net.Conn, owner *Owned) (*Socket, int) {
	if !w.reserve() {
		c.Close()
		return nil, ErrOther
	}
	s := &Socket{c: c, lr: newLineReaderSize(c, 4<<10)}
	if !w.adopt(s, &s.handle, owner) {
		return nil, ErrClosed
	}
	return s, 0
}

// Connect opens a connection to host:port for owner.
func (w *World) Connect(ctx context.Context, host string, port int, owner *Owned) (*Socket, int) {
	if port < 1 || port > 65535 {
		return nil, ErrOther
	}
	if w.limit() >= 0 && w.open.Load() >= w.limit() {
		return nil, ErrOther
	}
	d := net.Dialer{Timeout: 30 * time.Second}
	c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, code(err)
	}
	return w.newSocket(c, owner)
}

// TryLine does one read that does not wait (the socket's data already
// in the kernel) and reports whether a whole line is now buffered, so
// that ReadLine will not wait either. An error or the end of the stream
// also makes ReadLine answer at once (true).
func (s *Socket) TryLine() bool {
	if !s.rm.TryLock() {
		return false
	}
	defer s.rm.Unlock()
	if s.lr.buffered() {
		return true
	}
	if s.closed.Load() {
		return true
	}
	sc, ok := s.c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	// What bufio holds comes before the new bytes: move it to carry.
	lr := s.lr
	if n := lr.r.Buffered(); n > 0 {
		b, _ := lr.r.Peek(n)
		lr.carry = append(lr.carry, b...)
		lr.r.Discard(n)
	}
	var got int
	var rerr error
	bp := spares.Get().(*[]byte)
	defer spares.Put(bp)
	buf := *bp
	rc.Read(func(fd uintptr) bool {
		got, rerr = syscall.Read(int(fd), buf)
		return true // one attempt: never wait
	})
	switch {
	case got > 0:
		lr.carry = append(lr.carry, buf[:got]...)
		return bytes.IndexByte(lr.carry, '\n') >= 0
	case got == 0 && rerr == nil:
		return true // the end of the stream
	}
	return false // EAGAIN (nothing yet) or an error ReadLine will meet
}

// spares are TryLine's read buffers: one per reader at a time, not one
// per socket (a server may hold tens of thousands of sockets).
var spares = sync.Pool{New: func() any { b := make([]byte, 16<<10); return &b }}

// TryWrite writes what the kernel takes at once; it returns the part
// still to write ("" when all went out) and an error code.
func (s *Socket) TryWrite(text string) (rest string, errc int) {
	s.wm.Lock()
	defer s.wm.Unlock()
	if s.closed.Load() {
		return "", ErrClosed
	}
	sc, ok := s.c.(syscall.Conn)
	if !ok {
		return text, 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return text, 0
	}
	b := []byte(text)
	for len(b) > 0 {
		var n int
		var werr error
		rc.Write(func(fd uintptr) bool {
			n, werr = syscall.Write(int(fd), b)
			return true
		})
		if n > 0 {
			b = b[n:]
			continue
		}
		if werr == syscall.EAGAIN || werr == nil {
			break
		}
		if s.closed.Load() || werr == syscall.EPIPE || werr == syscall.ECONNRESET {
			return "", ErrClosed
		}
		return "", code(werr)
	}
	return text[len(text)-len(b):], 0
}

// ReadLine reads the next line (without its \n): ok with eof at the end
// of the stream, or an error code. timeout < 0 waits forever. A line
// over MaxLine closes the connection (ErrLong); invalid UTF-8 is
// ErrOther.
func (s *Socket) ReadLine(ctx context.Context, timeout time.Duration) (line string, eof bool, errc int) {
	s.rm.Lock()
	defer s.rm.Unlock()
	if s.closed.Load() {
		return "", false, ErrClosed
	}
	var deadline time.Time
	if timeout >= 0 {
		deadline = time.Now().Add(timeout)
	}
	if !s.lr.buffered() {
		s.c.SetReadDeadline(deadline)
		stop := context.AfterFunc(ctx, func() { s.c.SetReadDeadline(time.Unix(1, 0)) })
		defer stop()
	}
	b, err := s.lr.read(MaxLine, false)
	switch {
	case err == nil:
		if !utf8.Valid(b) {
			return "", false, ErrOther
		}
		return string(b), false, 0
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
		// A reset is the peer closing with data unread: the end too.
		return "", true, 0
	case errors.Is(err, errTooLong):
		s.Close()
		return "", false, ErrLong
	case s.closed.Load():
		return "", false, ErrClosed
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "", false, ErrTimeout
	}
	return "", false, code(err)
}

// Write writes text as given.
func (s *Socket) Write(ctx context.Context, text string) int {
	s.wm.Lock()
	defer s.wm.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	stop := context.AfterFunc(ctx, func() { s.c.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(s.c, text); err != nil {
		if s.closed.Load() || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) {
			return ErrClosed
		}
		return code(err)
	}
	return 0
}

// code maps a network error to a Net error code.
func code(err error) int {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ENETUNREACH):
		return ErrRefused
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM), errors.Is(err, os.ErrPermission):
		return ErrPerm
	case errors.Is(err, syscall.EADDRINUSE):
		return ErrInUse
	case errors.Is(err, net.ErrClosed):
		return ErrClosed
	case errors.Is(err, os.ErrDeadlineExceeded):
		return ErrTimeout
	}
	return ErrOther
}
