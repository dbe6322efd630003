package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"

	"github.com/morrow-lang/morrow/runtime/engine"
)

// sendWaitBudgetSrc: a hog holds most of the memory budget in its
// mailbox; the server's mailbox is full (4,095 Small and the Go it waits
// for); the client's send_wait of a Big message parks (or is refused at
// once, when the server took Go first). The server drains everything,
// then the hog is killed, freeing the budget. The refused admission must
// answer the client Err(4): before, the client stayed parked for ever at
// the head of the queue (nothing took a message any more) and the empty
// server answered every send Err(4).
const sendWaitBudgetSrc = `
type Msg:
    Small(Int)
    Go
    Big(String)
    Ping(Pid(Int))

fn hog():
    receive:
        "stop" -> ()

fn serve(n: Int):
    receive:
        Small(_) -> serve(n + 1)
        Go -> serve(n)
        Big(_) -> serve(n)
        Ping(r) ->
            match send(r, n):
                Ok(()) -> ()
                Err(_) -> ()

fn server():
    receive:
        Go -> serve(0)

fn fill(p: Pid(Msg), n: Int):
    if n > 0:
        match send(p, Small(n)):
            Ok(()) -> fill(p, n - 1)
            Err(code) -> println("fill refused: {code}")

fn hogs(p: Pid(String), msg: String, n: Int):
    if n > 0:
        match send(p, msg):
            Ok(()) -> hogs(p, msg, n - 1)
            Err(code) -> println("hog refused: {code}")

fn client():
    let Ok(h) = Process.spawn(hog) else: Process.exit(Process.Failure("spawn"))
    let Ok(s) = Process.spawn(server) else: Process.exit(Process.Failure("spawn"))
    hogs(h, String.repeat("h", 10000), HOGS)
    fill(s, 4095)
    match send(s, Go):
        Ok(()) -> ()
        Err(code) -> println("go refused: {code}")
    match Process.send_wait(s, Big(String.repeat("b", 500000))):
        Ok(()) -> println("send_wait: Ok")
        Err(code) -> println("send_wait: Err({code})")
    match Process.signal_exit(Process.id(h), Process.Kill):
        Ok(()) -> ()
        Err(_) -> println("kill failed")
    match Process.call(s, (r) -> Ping(r), -1):
        Ok(n) -> println("the server took {n} messages and answers")
        Err(e) -> println("call: {show(e)}")

fn main():
    let _c: Pid(()) = spawn(client)
`

// TestSendWaitRefusedAdmission runs sendWaitBudgetSrc at 1, 2 and 4
// schedulers, stealing off and on.
func TestSendWaitRefusedAdmission(t *testing.T) {
	const budget = 2 << 20
	// The hog takes all but about 450,000 bytes: the full server mailbox
	// fits, the 500,000-byte Big message does not, even beside an empty
	// mailbox, until the hog dies.
	hogs := (budget - 450_000) / (32 + 16 + 10000)
	src := strings.ReplaceAll(sendWaitBudgetSrc, "HOGS", fmt.Sprint(hogs))
	prog := testrun.Compile(t, "e2e.mr", src)
	want := "send_wait: Err(4)\nthe server took 4095 messages and answers\n"
	for _, scheds := range []int{1, 2, 4} {
		for _, steal := range []bool{false, true} {
			// Before the fix the client waited for ever: a deadline
			// turns the hang into a failure.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			code, out, stderr := testrun.Run(ctx, prog, engine.Options{Schedulers: scheds, Steal: steal, MemoryBudget: budget})
			cancel()
			if code != 0 || out != want || stderr != "" {
				t.Errorf("schedulers=%d steal=%v: status %d stdout %q stderr %q, want %q", scheds, steal, code, out, stderr, want)
			}
		}
	}
}
