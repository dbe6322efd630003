// Package bench is Morrow's benchmark suite: the workloads of
// docs/reference/runtime.md#benchmarks-and-targets, each written twice, as a Morrow program (morrow/<name>.mr) and as a
// function of one Erlang module (erlang/morrow_bench.erl), doing the same
// work with the same process shapes.
//
// Measurement. Each side is timed inside its own VM, excluding start-up:
//   - Morrow: the program is compiled once, then engine.Run is timed in
//     this Go process; the run time of an empty program (morrow/empty.mr,
//     i.e. loading plus scheduler start and stop) is subtracted.
//   - BEAM: the Erlang function times itself with erlang:monotonic_time
//     and prints `morrow-bench <name> size=N micros=T check=C`.
//
// The two sides of a figure run in turn (Morrow, BEAM, Morrow, ...), so a
// change in the machine's load affects both alike; each figure is the
// median of its runs, reported with their range, and the ratio is the
// median of the run-by-run ratios.
//
// Both programs print a check value (a count or a sum that depends on the
// size) which the driver verifies, so a run that did less work is an
// error, not a fast result. Ring's token counts the hops it makes, so its
// check value proves them. Figures are derived from the elapsed time by
// one formula per workload (Workload.Units), the same for both sides.
//
// Idle memory is measured as heap growth: Morrow's idle.mr prints a mark
// before it starts its processes and one when all are parked, pausing
// after each; the driver's stdout writer runs runtime.GC and reads
// runtime.MemStats (HeapAlloc + StackInuse) when it sees a mark. Erlang
// reports the growth of erlang:memory(processes).
//
// Mailboxes hold at most 4,096 messages in Morrow (docs/reference/actors.md#spawn-send-and-receive), so
// workloads that would queue more (counting, spawn, idle) pace their
// senders in batches of 1,000, and the Erlang programs do exactly the same.
package bench

import (
	"embed"
	"fmt"
	"regexp"
	"strconv"
)

//go:embed morrow/*.mr erlang/*.erl
var files embed.FS

// Kind says how a workload's figure is computed and compared.
type Kind int

const (
	// Rate figures are units per second; ratio = Morrow / BEAM.
	Rate Kind = iota
	// Seconds figures are elapsed seconds; ratio = BEAM / Morrow (speed).
	Seconds
	// Memory figures are bytes per process; ratio = Morrow / BEAM.
	Memory
	// CompileRate is lines per second of `morrowc build`; no BEAM side.
	CompileRate
)

// Workload is one benchmark.
type Workload struct {
	Name      string // file base name and Erlang workload name
	Title     string // as in docs/reference/runtime.md#benchmarks-and-targets
	Size      int    // the size docs/reference/runtime.md#benchmarks-and-targets asks for
	QuickSize int    // a small size for tests and -quick runs
	Kind      Kind
	Unit      string                 // unit of the figure, e.g. "msg/s"
	Units     func(size int) float64 // units of work done, for Rate
	Check     func(size int) string  // expected check value
	// Target is the docs/reference/runtime.md#benchmarks-and-targets goal for the ratio: at least Target for
	// Rate, Seconds and CompileRate (CompileRate compares the figure
	// itself), at most Target for Memory.
	Target float64
	// SizeStep: sizes must be multiples of it (batching).
	SizeStep int
}

func itoa(n int) string { return strconv.Itoa(n) }

// scaled is the Units of a workload that does k units of work per unit
// of size.
func scaled(k float64) func(int) float64 {
	return func(n int) float64 { return k * float64(n) }
}

// itoaTimes is the Check of a workload whose check value is k times its
// size.
func itoaTimes(k int) func(int) string {
	return func(n int) string { return itoa(k * n) }
}

// Workloads lists every benchmark in table order.
var Workloads = []Workload{
	{Name: "pingpong", Title: "ping-pong", Size: 1_000_000, QuickSize: 2_000, Kind: Rate, Unit: "msg/s",
		Units: scaled(2), Check: itoa, Target: 1.0, SizeStep: 1},
	{Name: "ring", Title: "ring", Size: 1_000_000, QuickSize: 3_000, Kind: Rate, Unit: "msg/s",
		Units: scaled(1), Check: itoa, Target: 1.0, SizeStep: 1},
	{Name: "counting", Title: "counting", Size: 1_000_000, QuickSize: 5_000, Kind: Rate, Unit: "msg/s",
		Units: scaled(1), Check: itoa, Target: 1.0, SizeStep: 1000},
	{Name: "request_reply", Title: "request-reply", Size: 50_000, QuickSize: 100, Kind: Rate, Unit: "replies/s",
		Units: scaled(32), Check: itoaTimes(32), Target: 1.0, SizeStep: 1},
	{Name: "call", Title: "call", Size: 50_000, QuickSize: 100, Kind: Rate, Unit: "calls/s",
		Units: scaled(32), Check: itoaTimes(32), Target: 1.0, SizeStep: 1},
	{Name: "spawn", Title: "spawn", Size: 100_000, QuickSize: 3_000, Kind: Rate, Unit: "procs/s",
		Units: scaled(1), Check: itoa, Target: 1.0, SizeStep: 1000},
	{Name: "skynet", Title: "skynet", Size: 1_000_000, QuickSize: 100, Kind: Seconds, Unit: "s",
		Check: func(n int) string { return strconv.FormatInt(int64(n)*int64(n-1)/2, 10) }, Target: 1.0, SizeStep: 1},
	{Name: "idle", Title: "idle memory", Size: 100_000, QuickSize: 1_000, Kind: Memory, Unit: "B/proc",
		Check: itoa, Target: 0.5, SizeStep: 1000},
	{Name: "lifecycle", Title: "lifecycle", Size: 10_000, QuickSize: 400, Kind: Rate, Unit: "Downs/s",
		Units: scaled(1),
		Check: func(n int) string { return fmt.Sprintf("normal:%d,fault:%d", n/2, n/2) }, Target: 1.0, SizeStep: 200},
	// supervisor_restart's figure is restarts per second; the intensity
	// of one supervisor is at most 1,024, so the work is split over
	// supervisors of 1,000 restarts each (SizeStep).
	{Name: "supervisor_restart", Title: "supervisor-restart", Size: 10_000, QuickSize: 1_000, Kind: Rate, Unit: "restarts/s",
		Units: scaled(1), Check: itoa, Target: 1.0, SizeStep: 1000},
	{Name: "fib", Title: "fib", Size: 30, QuickSize: 15, Kind: Seconds, Unit: "s",
		Check: func(n int) string { return strconv.Itoa(fib(n)) }, Target: 0.5, SizeStep: 1},
	// maps: size puts, 5*size gets and size/2 deletes (docs/maps.md);
	// the check is the gets' sum plus the fold over the odd keys left.
	{Name: "maps", Title: "maps", Size: 200_000, QuickSize: 1_000, Kind: Rate, Unit: "ops/s",
		Units:  scaled(6.5),
		Check:  func(n int) string { return strconv.FormatInt(5*int64(n)*int64(n-1)+int64(n)*int64(n)/2, 10) },
		Target: 1.0, SizeStep: 2},
	// map_send and list_send: a 10,000-entry map, and a 10,000-element
	// list, sent back and forth size times (2*size messages).
	{Name: "map_send", Title: "map-send", Size: 10_000, QuickSize: 100, Kind: Rate, Unit: "msg/s",
		Units: scaled(2), Check: itoaTimes(10_000), Target: 1.0, SizeStep: 1},
	{Name: "list_send", Title: "list-send", Size: 10_000, QuickSize: 100, Kind: Rate, Unit: "msg/s",
		Units: scaled(2), Check: itoaTimes(10_000), Target: 1.0, SizeStep: 1},
	// compile's size is a number of generated functions (CompileSource);
	// 1,169 is the most that fit in the 65,536-token limit.
	{Name: "compile", Title: "compile", Size: 1_169, QuickSize: 100, Kind: CompileRate, Unit: "lines/s",
		Target: 100_000, SizeStep: 1},
}

func fib(n int) int {
	a, b := 0, 1
	for i := 0; i < n; i++ {
		a, b = b, a+b
	}
	return a
}

// Lookup finds a workload by name.
func Lookup(name string) (Workload, bool) {
	for _, w := range Workloads {
		if w.Name == name {
			return w, true
		}
	}
	return Workload{}, false
}

// ValidSize reports whether size suits the workload's batching.
func (w Workload) ValidSize(size int) error {
	if size <= 0 {
		return fmt.Errorf("%s: size must be positive, got %d", w.Name, size)
	}
	if w.SizeStep > 1 && size%w.SizeStep != 0 {
		return fmt.Errorf("%s: size must be a multiple of %d, got %d", w.Name, w.SizeStep, size)
	}
	if w.Name == "skynet" {
		for n := size; n > 1; n /= 10 {
			if n%10 != 0 {
				return fmt.Errorf("skynet: size must be a power of 10, got %d", size)
			}
		}
	}
	return nil
}

// sizeRE finds the `fn size() -> Int: N` line of a Morrow bench program.
var sizeRE = regexp.MustCompile(`(?m)^fn size\(\) -> Int: (\d+)$`)

// MorrowSource returns the Morrow program of a workload with its size()
// set to size.
func MorrowSource(name string, size int) ([]byte, error) {
	src, err := files.ReadFile("morrow/" + name + ".mr")
	if err != nil {
		return nil, err
	}
	if name == "empty" {
		return src, nil
	}
	if len(sizeRE.FindAllIndex(src, -1)) != 1 {
		return nil, fmt.Errorf("morrow/%s.mr: want exactly one line `fn size() -> Int: N`", name)
	}
	return sizeRE.ReplaceAll(src, []byte("fn size() -> Int: "+strconv.Itoa(size))), nil
}

// ErlangSource returns the Erlang benchmark module.
func ErlangSource() []byte {
	b, err := files.ReadFile("erlang/morrow_bench.erl")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}
