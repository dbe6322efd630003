package stdlib_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

// longOrderSrc: a process calls a long native (LONG) 24 times in
// a loop while a pinger and a ponger exchange twenty messages; each
// tells the collector when it is done. A long native does not hold its
// scheduler (docs/architecture.md#long-natives), so the exchange, which
// needs a few microseconds per message, ends long before the 24 calls
// do, whichever scheduler each process is on. Before, a pinger or ponger
// that shared the long process's scheduler waited for all 24 calls
// (the loop charges only a few reductions per call, so it never yields
// in between): "long" came first.
const longOrderSrc = `
fn tell(to: Pid(String), s: String):
    match send(to, s):
        Ok(()) -> ()
        Err(_) -> println("send failed")

fn long_loop(n: Int, to: Pid(String)):
    if n == 0:
        tell(to, "long")
    else:
        let v = LONG
        long_loop(n - 1 + USE - USE, to)

fn ponger(n: Int):
    if n > 0:
        receive:
            p ->
                match send(p, n):
                    Ok(()) -> ponger(n - 1)
                    Err(_) -> println("send failed")

fn pinger(n: Int, pong: Pid(Pid(Int)), to: Pid(String)):
    if n == 0:
        tell(to, "exchanged")
    else:
        let me: Pid(Int) = Process.self()
        match send(pong, me):
            Ok(()) ->
                receive:
                    _ -> pinger(n - 1, pong, to)
            Err(_) -> println("send failed")

fn collect(n: Int):
    if n > 0:
        receive:
            s ->
                println(s)
                collect(n - 1)

fn main():
    let c: Pid(String) = spawn(() -> collect(2))
    let _l: Pid(()) = spawn(() -> long_loop(24, c))
    let pong: Pid(Pid(Int)) = spawn(() -> ponger(20))
    let _p: Pid(Int) = spawn(() -> pinger(20, pong, c))
`

// TestLongNativeOrdering: at 1 and 2 schedulers (and 4), stealing off
// and on, a process that makes progress by exchanging messages finishes
// before a process looping on List.range or String.repeat of large
// inputs: an ordering, not a time bound. It failed before long natives
// other than List.sort ran off the schedulers (stealing off: "long"
// first at 1 and 2 schedulers).
func TestLongNativeOrdering(t *testing.T) {
	if testing.Short() {
		t.Skip("builds lists of a million elements")
	}
	for _, c := range []struct{ name, expr, use string }{
		{"List.range", "List.range(0, 1000000)", "List.len(v)"},
		{"String.repeat", `String.repeat("abcdefgh", 1000000)`, "String.len(v)"},
	} {
		src := strings.NewReplacer("LONG", c.expr, "USE", c.use).Replace(longOrderSrc)
		prog := testrun.Compile(t, "long.mr", src)
		for _, scheds := range []int{1, 2, 4} {
			for _, steal := range []bool{false, true} {
				ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
				code, out, stderr := testrun.Run(ctx, prog, engine.Options{Schedulers: scheds, Steal: steal})
				cancel()
				if want := "exchanged\nlong\n"; code != 0 || out != want || stderr != "" {
					t.Errorf("%s, schedulers=%d steal=%v: status %d stdout %q (want %q) stderr %q",
						c.name, scheds, steal, code, out, want, stderr)
				}
			}
		}
	}
}
