// Package world is an invocation's connection to the outside world
// (docs/io.md): the program's arguments and environment, its standard
// input read line by line, and the TCP sockets and listeners its
// processes own, with the per-invocation socket limit.
//
// # Ownership
//
// Every process that opens or accepts a socket (or a listener) gets an
// Owned set; the resource belongs to exactly one set at a time, and only
// the process of that set may use it (Err(4) otherwise, checked by the
// natives in stdlib/sys). Transfer moves a resource between sets. The
// one retire path (runtime/proc, Invocation.Retire) closes the retiring
// process's set: every resource in it is closed and the outside
// operation it was parked on, if any, is cancelled. World.Close closes
// whatever is left when the invocation ends (System.exit, a fatal
// fault, a cancelled run), so no file descriptor outlives the run.
//
// # Why a leaf package
//
// The natives (stdlib/sys) use the resources through native.Host, and
// the process model (runtime/proc) closes them when their owner
// retires; neither may import the other, so the shared types live here.
// It imports only the standard library.
package world

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
)

// DefaultMaxSockets is the default per-invocation limit of open sockets
// and listeners (docs/io.md).
const DefaultMaxSockets = 10000

// MaxLine is the longest line a socket or standard input delivers
// (1 MiB, without its newline).
const MaxLine = 1 << 20

// World is one invocation's outside world. The zero value has no
// arguments, no environment, an empty standard input and the default
// socket limit.
type World struct {
	// Args are the program's arguments (everything after `--`).
	Args []string
	// Getenv looks up an environment variable (nil: none is set).
	Getenv func(string) (string, bool)
	// Stdin is the program's standard input (nil: empty).
	Stdin io.Reader
	// MaxSockets bounds the open sockets and listeners (0: the default;
	// negative: no limit).
	MaxSockets int

	open atomic.Int64 // sockets and listeners open

	all resSet // every open resource, for Close

	stdinOnce sync.Once
	lines     chan Line
	initOnce  sync.Once
	done      chan struct{}
	doneOnce  sync.Once
	ctx       context.Context // cancelled by Close (init)
	cancel    context.CancelFunc
}

// Line is one line of standard input: Text without its line ending, or
// EOF at the end of input.
type Line struct {
	Text string
	EOF  bool
}

func (w *World) limit() int64 {
	switch {
	case w.MaxSockets == 0:
		return DefaultMaxSockets
	case w.MaxSockets < 0:
		return -1
	}
	return int64(w.MaxSockets)
}

// reserve counts one more open resource; false when the limit is reached.
func (w *World) reserve() bool {
	lim := w.limit()
	if n := w.open.Add(1); lim >= 0 && n > lim {
		w.open.Add(-1)
		return false
	}
	return true
}

// Open returns the number of sockets and listeners open.
func (w *World) Open() int64 { return w.open.Load() }

// Close ends the invocation's outside world: every resource still open
// is closed and the standard input reader stops. Later opens fail.
func (w *World) Close() {
	w.all.mu.Lock()
	rs := w.all.shut()
	w.all.mu.Unlock()
	for _, r := range rs {
		r.closeRes()
	}
	w.init()
	w.doneOnce.Do(func() { close(w.done) })
	w.cancel()
}

func (w *World) init() {
	w.initOnce.Do(func() {
		w.done = make(chan struct{})
		w.ctx, w.cancel = context.WithCancel(context.Background())
	})
}

// Context is cancelled when the world is closed: every outside
// operation's context derives from it, so an HTTP request still running
// when the run ends (System.exit, a fatal fault) is abandoned too.
func (w *World) Context() context.Context {
	w.init()
	return w.ctx
}

// ReadLine waits for the next line of standard input, or for ctx to
// end (ok false: the line, if one arrives later, is kept for the next
// reader). Lines longer than MaxLine are split; a final line without a
// newline is still a line; the line ending (\n or \r\n) is dropped.
func (w *World) ReadLine(ctx context.Context) (l Line, ok bool) {
	w.stdinOnce.Do(w.startStdin)
	select {
	case l, open := <-w.lines:
		if !open {
			return Line{EOF: true}, true
		}
		return l, true
	case <-ctx.Done():
		return Line{}, false
	}
}

// startStdin starts the one goroutine that reads standard input: it
// reads one line ahead and hands it to the next reader, so a reader that
// gives up (its process was killed) loses no line.
func (w *World) startStdin() {
	w.init()
	w.lines = make(chan Line)
	done, in := w.done, w.Stdin
	go func() {
		defer close(w.lines)
		if in == nil {
			return
		}
		lr := newLineReader(in)
		for {
			text, err := lr.read(MaxLine, true)
			if err != nil {
				return
			}
			select {
			case w.lines <- Line{Text: string(trimCR(text))}:
			case <-done:
				return
			}
		}
	}()
}

// errTooLong: a line longer than the limit (sockets refuse it).
var errTooLong = errors.New("line too long")

// lineReader reads lines of at most a limit from a stream. A read that
// fails part-way (a timeout) keeps what it read for the next one.
type lineReader struct {
	r       *bufio.Reader
	carry   []byte // bytes read past a split line, before r's
	partial []byte // the start of the line being read
}

func newLineReader(r io.Reader) *lineReader { return newLineReaderSize(r, 64<<10) }

// newLineReaderSize reads through a buffer of size bytes (lines may be
// longer: they are gathered piece by piece).
func newLineReaderSize(r io.Reader, size int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, size)}
}

// buffered reports whether a whole line (or the rest of a split one)
// can be read without waiting.
func (lr *lineReader) buffered() bool {
	if bytes.IndexByte(lr.carry, '\n') >= 0 {
		return true
	}
	b, _ := lr.r.Peek(lr.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// read returns the next line without its newline. A line longer than
// max is split (split) or refused with errTooLong. At the end of input
// a last line without a newline is returned, then io.EOF.
func (lr *lineReader) read(max int, split bool) ([]byte, error) {
	for {
		var chunk []byte
		var err error
		if len(lr.carry) > 0 {
			if i := bytes.IndexByte(lr.carry, '\n'); i >= 0 {
				chunk, lr.carry = lr.carry[:i+1], lr.carry[i+1:]
			} else {
				chunk, lr.carry, err = lr.carry, nil, bufio.ErrBufferFull
			}
		} else {
			chunk, err = lr.r.ReadSlice('\n')
		}
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		if len(lr.partial)+len(body) > max {
			if !split {
				lr.partial = nil
				return nil, errTooLong
			}
			need := max - len(lr.partial)
			line := append(lr.partial, body[:need]...)
			lr.partial = nil
			lr.carry = append(append([]byte(nil), body[need:]...), lr.carry...)
			if err == nil {
				lr.carry = append(lr.carry, '\n')
			}
			return line, nil
		}
		lr.partial = append(lr.partial, body...)
		switch err {
		case nil:
			line := lr.partial
			lr.partial = nil
			return line, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(lr.partial) > 0 {
				line := lr.partial
				lr.partial = nil
				return line, nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}
