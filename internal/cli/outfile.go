package cli

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteOutput writes data to the output file path of a command (`morrowc
// build -o`, `morrowc fmt`, `morrow trace render -o`) without ever
// replacing something that is not a regular file:
//
//   - A symbolic link is followed to the file it names, so the link
//     stays and its file gets the data (`fmt` on a link formats the
//     real file).
//   - A regular file, or a path that does not exist yet, is written
//     through a temporary file next to it and a rename, so a failed
//     write never leaves a truncated file. The file gets mode (and a
//     new file too).
//   - A directory is refused.
//   - Anything else (a FIFO, a device such as /dev/null or /dev/full, a
//     socket) is opened and written in place, as a shell's `>` would:
//     it is never replaced, and a failed write is an error.
func WriteOutput(path string, data []byte, mode fs.FileMode) error {
	target := path
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			// A link to a file that does not exist yet: create it
			// through the link.
			return writeInPlace(path, data, os.O_CREATE, mode)
		}
		target = real
	}
	info, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return replaceFile(target, data, mode)
	case err != nil:
		return err
	case info.Mode().IsRegular():
		return replaceFile(target, data, mode)
	case info.IsDir():
		return errors.New("is a directory")
	}
	return writeInPlace(target, data, 0, mode)
}

// writeInPlace opens path for writing (truncating it) and writes data.
func writeInPlace(path string, data []byte, flag int, mode fs.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC|flag, mode)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// replaceFile writes data to a temporary file in path's directory and
// renames it over path.
func replaceFile(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, mode)
	}
	if err == nil {
		err = os.Rename(name, path)
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}
