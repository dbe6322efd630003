package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteOutput: a regular file is replaced with the mode given; a
// link keeps being a link and its file gets the data (even a dangling
// one); a FIFO and a device are written in place, never replaced; a
// directory is refused; a full device is an error.
func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "out.mrb")
	if err := WriteOutput(reg, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(reg, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(reg); string(b) != "two" {
		t.Fatalf("regular file holds %q", b)
	}
	if info, _ := os.Stat(reg); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", info.Mode().Perm())
	}

	// A relative link into another directory.
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	realFile := filepath.Join(dir, "real", "f.mr")
	os.WriteFile(realFile, []byte("old"), 0o640)
	link := filepath.Join(dir, "link.mr")
	if err := os.Symlink(filepath.Join("real", "f.mr"), link); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(link, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", info, err)
	}
	if b, _ := os.ReadFile(realFile); string(b) != "new" {
		t.Fatalf("the real file holds %q", b)
	}
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "made.txt"), dangling)
	if err := WriteOutput(dangling, []byte("made"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "made.txt")); string(b) != "made" {
		t.Fatalf("a dangling link's file holds %q", b)
	}
	if info, _ := os.Lstat(dangling); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the dangling link was replaced")
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteOutput(fifo, []byte("through"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Fatalf("the FIFO's reader got %q", s)
	}
	if info, _ := os.Lstat(fifo); info.Mode()&os.ModeNamedPipe == 0 {
		t.Fatal("the FIFO was replaced")
	}

	if err := WriteOutput("/dev/null", []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Lstat("/dev/null"); info.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null was replaced")
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if err := WriteOutput("/dev/full", []byte("x"), 0o644); err == nil {
			t.Error("a write to /dev/full succeeded")
		}
	}
	if err := WriteOutput(dir, []byte("x"), 0o644); err == nil {
		t.Error("a directory was written")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if filepath.Ext(e.Name()) == ".tmp" {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
