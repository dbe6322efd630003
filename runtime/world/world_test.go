package world

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestLineReaderSplitAndRefuse: a line over the limit is split (stdin)
// or refused (sockets); \r\n, a last line without \n and empty lines.
func TestLineReaderSplitAndRefuse(t *testing.T) {
	in := "ab\r\n\n" + strings.Repeat("x", 10) + "\nlast"
	lr := newLineReaderSize(strings.NewReader(in), 16)
	var got []string
	for {
		b, err := lr.read(4, true)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	want := []string{"ab\r", "", "xxxx", "xxxx", "xx", "last"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("split: %q, want %q", got, want)
	}
	lr = newLineReaderSize(strings.NewReader("12345\nok\n"), 16)
	if _, err := lr.read(4, false); !errors.Is(err, errTooLong) {
		t.Errorf("refuse: %v, want errTooLong", err)
	}
}

// TestReadLineStdin: lines without their endings, then EOF; a reader
// that gives up loses no line.
func TestReadLineStdin(t *testing.T) {
	pr, pw := io.Pipe()
	w := &World{Stdin: pr}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	if _, ok := w.ReadLine(ctx); ok {
		t.Fatal("a line before any was written")
	}
	cancel()
	go func() {
		io.WriteString(pw, "one\r\ntwo\n")
		pw.Close()
	}()
	for _, want := range []Line{{Text: "one"}, {Text: "two"}, {EOF: true}, {EOF: true}} {
		if l, ok := w.ReadLine(context.Background()); !ok || l != want {
			t.Errorf("got %+v %v, want %+v", l, ok, want)
		}
	}
}

// TestOwnedClose: closing a set closes its resources and cancels its
// operation; a closed set refuses new resources.
func TestOwnedClose(t *testing.T) {
	w := &World{MaxSockets: 2}
	o := &Owned{}
	l, code := w.Listen(context.Background(), "127.0.0.1", 0, o)
	if code != 0 {
		t.Fatalf("listen: %d", code)
	}
	cancelled := false
	o.SetCancel(func() { cancelled = true })
	if w.Open() != 1 || o.Len() != 1 {
		t.Fatalf("open %d, owned %d", w.Open(), o.Len())
	}
	o.Close()
	if !l.Closed() || !cancelled || w.Open() != 0 {
		t.Errorf("after Close: closed %v, cancelled %v, open %d", l.Closed(), cancelled, w.Open())
	}
	if _, code := w.Listen(context.Background(), "127.0.0.1", 0, o); code != ErrClosed || w.Open() != 0 {
		t.Errorf("listen for a closed set: code %d, open %d", code, w.Open())
	}
}

// TestCloseCancelsContext: closing the world cancels the context every
// outside operation derives from.
func TestCloseCancelsContext(t *testing.T) {
	w := &World{}
	ctx := w.Context()
	if ctx.Err() != nil {
		t.Fatal("cancelled before Close")
	}
	w.Close()
	if ctx.Err() == nil {
		t.Error("not cancelled by Close")
	}
}
