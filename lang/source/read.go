package source

import (
	"io"
	"os"
)

// MaxBytes is the largest source file (docs/reference/syntax.md#source-files: 1 MiB). The
// parser refuses a longer one with E0019.
const MaxBytes = 1 << 20

// ReadLimited reads r to its end, but at most limit+1 bytes: enough to
// tell that the input is over the limit without holding all of it (a
// file like /dev/zero never ends). The result is longer than limit
// exactly when the input is.
func ReadLimited(r io.Reader, limit int64) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, limit+1))
}

// ReadFileLimited is ReadLimited on the named file.
func ReadFileLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadLimited(f, limit)
}
