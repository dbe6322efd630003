package source

import (
	"bytes"
	"os"
	"testing"
)

// endless is a reader that never ends (like /dev/zero).
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += int64(len(p))
	return len(p), nil
}

// TestReadLimited: at most limit+1 bytes are read, so an endless input
// is refused as too large instead of read until memory runs out.
func TestReadLimited(t *testing.T) {
	e := &endless{}
	b, err := ReadLimited(e, MaxBytes)
	if err != nil || len(b) != MaxBytes+1 || e.n > 2*MaxBytes {
		t.Fatalf("endless input: %d bytes (read %d), %v", len(b), e.n, err)
	}
	b, err = ReadLimited(bytes.NewReader(make([]byte, 10)), 10)
	if err != nil || len(b) != 10 {
		t.Fatalf("input at the limit: %d bytes, %v", len(b), err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		b, err := ReadFileLimited("/dev/zero", MaxBytes)
		if err != nil || len(b) != MaxBytes+1 {
			t.Fatalf("/dev/zero: %d bytes, %v", len(b), err)
		}
	}
	if _, err := ReadFileLimited("/nonexistent/file.mr", 10); err == nil {
		t.Fatal("a missing file read without error")
	}
}
