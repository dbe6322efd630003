package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// Compile builds a Morrow bench program (or any source) into a verified
// program, turning diagnostics into an error.
func Compile(name string, src []byte) (*bytecode.Program, error) {
	u, err := compiler.Build(name, src)
	if err != nil {
		return nil, err
	}
	if u.Program == nil {
		var b bytes.Buffer
		diag.Render(&b, u.Diags, diag.RenderOptions{Format: diag.FormatShort})
		return nil, fmt.Errorf("%s does not compile:\n%s", name, b.String())
	}
	return u.Program, nil
}

// MorrowRun is what one in-process run of a Morrow program produced.
type MorrowRun struct {
	Elapsed time.Duration
	Status  int
	Stdout  string
	Stderr  string
	// Marks maps each `morrow-bench-mark NAME` line to the live Go heap
	// (HeapAlloc + StackInuse after a GC) when the line was written.
	Marks map[string]uint64
}

// RunConfig is one scheduler configuration.
type RunConfig struct {
	Schedulers int
	Steal      bool
	Timeout    time.Duration
}

// markWriter is the program's stdout: it keeps the text and samples the
// heap when a complete mark line arrives. Sampling happens inside Write,
// i.e. while the runtime is flushing the marking process's output.
type markWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	marks   map[string]uint64
}

const markPrefix = "morrow-bench-mark "

func (w *markWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		if name, ok := strings.CutPrefix(line, markPrefix); ok {
			w.marks[name] = liveHeap()
		}
	}
	return len(p), nil
}

// liveHeap is the Go heap in use by reachable objects plus goroutine
// stacks, after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc + ms.StackInuse
}

// BenchMemoryBudget is the logical memory budget of a benchmark run
// (16 GiB; the default is 64 MiB).
const BenchMemoryBudget = 16 << 30

// BenchStackBudget is the stack budget of a benchmark run (16 GiB; the
// default is 1 GiB, which skynet's million processes may approach).
const BenchStackBudget = 16 << 30

// BenchMaxQueued is the invocation's queued-message limit in a benchmark
// run: 4 M user messages (the default is 65,536), far more than skynet's
// 1,111,111 processes can have queued at once. It is a finite limit, not
// Unlimited, so that the runtime keeps its message count and logical
// bytes in one word as it does with the default limits
// (proc.PackedLimits): with no count limit and a 16 GiB budget it would
// count them apart, which costs every send and every receive a locked
// instruction more than a default run pays.
const BenchMaxQueued = 4 << 20

// RunMorrow runs a compiled program once and times engine.Run.
func RunMorrow(p *bytecode.Program, c RunConfig) (MorrowRun, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out := &markWriter{marks: map[string]uint64{}}
	var stderr bytes.Buffer
	// The benchmarks raise the resource governor's reference limits
	// (docs/reference/runtime.md#features-beyond-the-core-language): skynet has 1,111,111 processes and idle memory
	// parks 100,000, far past the default 1,024 live actors; skynet's
	// leaves also queue more than the 65,536 user messages an invocation
	// holds by default before their parents collect them (BenchMaxQueued).
	opts := engine.Options{Stdout: out, Stderr: &stderr, Schedulers: c.Schedulers, Steal: c.Steal,
		MaxProcesses: engine.Unlimited, MemoryBudget: BenchMemoryBudget, StackBudget: BenchStackBudget,
		MaxQueued: BenchMaxQueued}
	runtime.GC()
	start := time.Now()
	status := engine.Run(ctx, p, opts)
	elapsed := time.Since(start)
	r := MorrowRun{Elapsed: elapsed, Status: status, Stdout: out.buf.String(), Stderr: stderr.String(), Marks: out.marks}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return r, fmt.Errorf("timed out after %v", timeout)
	}
	if status != 0 {
		return r, fmt.Errorf("exit status %d; stderr:\n%s", status, stderr.String())
	}
	return r, nil
}
