package engine_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// fixtureImages compiles every fixture program that compiles cleanly and
// returns its .mrb image: the seed corpus of FuzzRun.
func fixtureImages(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	root := filepath.Join("..", "..", "fixtures")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".mr") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil || len(src) > 64<<10 {
			return err
		}
		p, _, err := compiler.Compile(filepath.Base(path), src)
		if err != nil || p == nil {
			return nil
		}
		out = append(out, bytecode.Encode(p))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(out) < 50 {
		tb.Fatalf("only %d fixture programs compiled", len(out))
	}
	return out
}

// FuzzRun decodes a program image, mutates it (mut drives changes to
// instructions, operands and types, on top of what the fuzzer does to
// the bytes), and when the result still verifies, loads it and runs it
// in the actor runtime for a bounded number of steps. A verified program
// may fault, even with an internal error, but it must never crash the
// interpreter or a scheduler (a recovered Go panic is a failure), hang
// past the step limit, or break the runtime's isolation checks. The
// seed corpus is the compiled fixtures.
func FuzzRun(f *testing.F) {
	for i, img := range fixtureImages(f) {
		f.Add(img, []byte{})
		f.Add(img, []byte{byte(i), byte(i >> 8), 7, 0x42, 1, byte(i), 3, 9})
	}
	f.Fuzz(func(t *testing.T, img, mut []byte) {
		if len(img) >= 10 {
			// Keep the checksum right so the mutations reach the
			// decoder's sections, the verifier and the VM.
			img = bytes.Clone(img)
			binary.LittleEndian.PutUint32(img[len(img)-4:], crc32.ChecksumIEEE(img[:len(img)-4]))
		}
		p, err := bytecode.Decode(img)
		if err != nil {
			return
		}
		mutate(p, mut)
		if bytecode.Verify(p) != nil {
			return
		}
		var stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		engine.Run(ctx, p, engine.Options{Stdout: &capped{n: 1 << 20}, Stderr: &stderr, Schedulers: 1,
			MaxSteps: 200_000, MaxProcesses: 64, StackBudget: 16 << 20, MemoryBudget: 4 << 20, ReportDeadlock: true})
		if msg := stderr.String(); strings.Contains(msg, "interpreter failure") || strings.Contains(msg, "internal error: scheduler") {
			t.Fatalf("a verified program crashed the runtime:\n%s", msg)
		}
	})
}

// capped discards output past n bytes.
type capped struct{ n int }

func (c *capped) Write(b []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.ErrShortWrite
	}
	c.n -= len(b)
	return len(b), nil
}

// mutate applies the changes mut describes, four bytes each: an action,
// a function, a pc and a value. Functions' MaxStack is recomputed so
// that a mutation that keeps the stack discipline still verifies.
func mutate(p *bytecode.Program, mut []byte) {
	if len(p.Functions) == 0 {
		return
	}
	for i := 0; i+4 <= len(mut); i += 4 {
		action, v := mut[i], mut[i+3]
		fn := p.Functions[int(mut[i+1])%len(p.Functions)]
		if fn == nil || len(fn.Code) == 0 {
			continue
		}
		pc := int(mut[i+2]) % len(fn.Code)
		code := append([]bytecode.Instr(nil), fn.Code...)
		switch action % 6 {
		case 0:
			code[pc].Op = bytecode.Opcode(int(v) % int(bytecode.OpcodeCount))
		case 1:
			code[pc].A = int32(int8(v))
		case 2:
			code[pc].B = int32(int8(v))
		case 3:
			if pc+1 < len(code) {
				code[pc], code[pc+1] = code[pc+1], code[pc]
			}
		case 4:
			code[pc] = bytecode.Instr{Op: bytecode.NOP}
		case 5:
			// Change a type: drop a variant's last field or rename it.
			if n := len(p.Types); n > bytecode.NumBuiltinTypes {
				ti := bytecode.NumBuiltinTypes + int(v)%(n-bytecode.NumBuiltinTypes)
				t := *p.Types[ti]
				t.Variants = append(t.Variants[:0:0], t.Variants...)
				vi := pc % len(t.Variants)
				if fs := t.Variants[vi].Fields; len(fs) > 0 {
					t.Variants[vi].Fields = fs[:len(fs)-1]
				} else {
					t.Name = "Process.ExitReason"
				}
				p.Types[ti] = &t
			}
		}
		fn.Code = code
	}
	for _, fn := range p.Functions {
		if fn == nil {
			continue
		}
		if d, err := bytecode.MaxStackDepth(p, fn); err == nil {
			fn.MaxStack = d
		}
	}
}
