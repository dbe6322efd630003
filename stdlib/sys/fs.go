package sys

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"unicode/utf8"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Limits and error codes of the file functions (docs/io.md).
const (
	MaxFileBytes  = 64 << 20
	MaxDirEntries = 1 << 20

	fsMissing = 1
	fsPerm    = 2
	fsOther   = 3
	fsNotDir  = 5
)

// fsCode maps a file error to its code.
func fsCode(err error) int {
	switch {
	case errors.Is(err, syscall.ENOTDIR):
		return fsNotDir
	case errors.Is(err, fs.ErrNotExist):
		return fsMissing
	case errors.Is(err, fs.ErrPermission):
		return fsPerm
	}
	return fsOther
}

func fsErr(err error) value.Value { return errInt(fsCode(err)) }

// fsRead reads a whole file of valid UTF-8 up to MaxFileBytes.
func fsRead(path string) value.Value {
	f, err := os.Open(path)
	if err != nil {
		return fsErr(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return fsErr(err)
	} else if st.IsDir() || st.Size() > MaxFileBytes {
		return errInt(fsOther)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return fsErr(err)
	}
	if len(b) > MaxFileBytes || !utf8.Valid(b) {
		return errInt(fsOther)
	}
	return value.Ok(value.String(string(b)))
}

// fsWrite replaces path atomically: the text goes to a temporary file in
// the same directory, which is then renamed over path, so a crash leaves
// the old file or the new one, never half of one.
func fsWrite(path, text string) value.Value {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return errInt(fsOther)
		}
		mode = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return fsErr(err)
	}
	name := tmp.Name()
	_, err = io.WriteString(tmp, text)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
		return fsErr(err)
	}
	return value.Ok(value.Int(int64(len(text))))
}

func fsAppend(path, text string) value.Value {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fsErr(err)
	}
	_, err = io.WriteString(f, text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fsErr(err)
	}
	return value.Ok(value.Int(int64(len(text))))
}

func fsDelete(path string) value.Value {
	if err := os.Remove(path); err != nil {
		return fsErr(err)
	}
	return value.Ok(value.Int(0))
}

func fsSize(path string) value.Value {
	st, err := os.Stat(path)
	if err != nil {
		return fsErr(err)
	}
	if st.IsDir() {
		return errInt(fsOther)
	}
	return value.Ok(value.Int(st.Size()))
}

func fsListDir(path string) value.Value {
	f, err := os.Open(path)
	if err != nil {
		return fsErr(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(MaxDirEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return fsErr(err)
	}
	if len(names) > MaxDirEntries {
		return errInt(fsOther)
	}
	slices.Sort(names)
	out := make([]value.Value, len(names))
	for i, n := range names {
		out[i] = value.String(n)
	}
	return value.Ok(value.NewList(out))
}

func init() {
	for _, m := range []string{"fs", "File"} {
		one := func(name string, op func(string) value.Value) {
			reg(m+"."+name, []value.Kind{kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
				if v, f, open := h.Resume(); open {
					return v, f
				}
				path := a[0].AsString()
				return h.Await(false, func(context.Context) value.Value { return op(path) })
			})
		}
		two := func(name string, op func(string, string) value.Value) {
			reg(m+"."+name, []value.Kind{kS, kS}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
				if v, f, open := h.Resume(); open {
					return v, f
				}
				path, text := a[0].AsString(), a[1].AsString()
				return h.Await(false, func(context.Context) value.Value { return op(path, text) })
			})
		}
		one("read", fsRead)
		two("write", fsWrite)
		two("append", fsAppend)
		one("exists", func(path string) value.Value {
			_, err := os.Stat(path)
			return value.Bool(err == nil)
		})
		one("delete", fsDelete)
		one("size", fsSize)
		one("list_dir", fsListDir)
	}
}
