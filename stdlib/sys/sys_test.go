package sys_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

func run(t *testing.T, src string, opts engine.Options) (int, string, string) {
	t.Helper()
	p := testrun.Compile(t, "io.mr", src)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code, out, errb := testrun.Run(ctx, p, opts)
	if ctx.Err() != nil {
		t.Fatalf("timed out; stdout:\n%s", out)
	}
	return code, out, errb
}

// testHelpers are the functions the programs below share: ignoring a
// result, and spawns that must succeed (Msg is each program's own type).
const testHelpers = `
fn ignore_p(r: Result((), Process.Error)):
    match r:
        Ok(()) -> ()
        Err(_) -> ()

fn start(r: Result(Pid(Unit), Process.Error)) -> ProcessId:
    match r:
        Ok(p) -> Process.id(p)
        Err(_) -> Process.exit(Process.Failure("spawn"))

fn start_msg(r: Result(Pid(Msg), Process.Error)) -> ProcessId:
    match r:
        Ok(p) -> Process.id(p)
        Err(_) -> Process.exit(Process.Failure("spawn"))

fn start_mon(r: Result((Pid(Unit), MonitorRef), Process.Error)) -> ProcessId:
    match r:
        Ok((p, _)) -> Process.id(p)
        Err(_) -> Process.exit(Process.Failure("spawn"))

fn ignore(r: Result((), Int)):
    match r:
        Ok(()) -> ()
        Err(_) -> ()
`

// testMain runs each program's tester in a process of its own.
const testMain = `
fn main():
    match Process.spawn(tester):
        Ok(p) ->
            let _p: Pid(Msg) = p
        Err(_) -> println("spawn failed")
`

// killSrc parks one process in Net.accept and one in Net.read_line, kills
// both with Process.signal_exit(Kill), and checks that their sockets and
// listener were closed by the retire path: the port refuses connections.
const killSrc = `type Msg:
    Port(Int)
    Ready
` + testHelpers + `
fn acceptor(back: Pid(Msg)):
    let Ok(l) = Net.listen("127.0.0.1", 0) else: Process.exit(Process.Failure("listen"))
    ignore(send(back, Port(Net.port(l))))
    match Net.accept(l):
        Ok(_) -> println("accepted: wrong")
        Err(c) -> println("accept: wrong {c}")

fn reader(port: Int, back: Pid(Msg)):
    let Ok(s) = Net.connect("127.0.0.1", port) else: Process.exit(Process.Failure("connect"))
    ignore(send(back, Ready))
    match Net.read_line(s, -1):
        Ok(_) -> println("read: wrong")
        Err(c) -> println("read: wrong {c}")

fn down():
    receive_event:
        Process.Down(_, _, reason) -> println("down: {show(reason)}")

fn tester():
    let me: Pid(Msg) = Process.self()
    let a = start_mon(Process.spawn_monitor(() -> acceptor(me)))
    let port = receive:
        Port(p) -> p
        Ready -> 0
    # The acceptor parks in accept; the reader connects to another
    # listener and parks in read_line with nothing to read.
    let Ok(l2) = Net.listen("127.0.0.1", 0) else: Process.exit(Process.Failure("listen"))
    let port2 = Net.port(l2)
    let r = start_mon(Process.spawn_monitor(() -> reader(port: port2, back: me)))
    let Ok(_s2) = Net.accept(l2) else: Process.exit(Process.Failure("accept"))
    receive:
        Ready -> ()
        Port(_) -> ()
    Process.sleep(20)
    ignore_p(Process.signal_exit(a, Process.Kill))
    down()
    ignore_p(Process.signal_exit(r, Process.Kill))
    down()
    match Net.connect("127.0.0.1", port):
        Ok(_) -> println("the listener is still open")
        Err(c) -> println("connect after the kill: Err({c})")
` + testMain

// TestKillParked: a process parked on an outside operation stays
// killable; its operation is abandoned and its handles closed.
func TestKillParked(t *testing.T) {
	for _, n := range []int{1, 2} {
		code, out, errb := run(t, killSrc, engine.Options{Schedulers: n, Steal: n > 1})
		want := "down: Killed\ndown: Killed\nconnect after the kill: Err(1)\n"
		if code != 0 || out != want {
			t.Errorf("schedulers %d: exit %d, stdout %q, stderr %q; want %q", n, code, out, errb, want)
		}
	}
}

// churnSrc serves 200 connections, one process per connection, while
// clients connect, exchange a line and close; 50 more clients are
// killed while their handler is parked in read_line.
const churnSrc = `type Msg:
    Port(Int)
    Done
` + testHelpers + `
fn handle(s: Net.Socket, back: Pid(Msg)):
    match Net.read_line(s, -1):
        Ok(Some(line)) ->
            ignore(Net.write(s, line + "\n"))
            handle(s, back)
        Ok(None) ->
            ignore(Net.close(s))
            ignore(send(back, Done))
        Err(_) -> ()

fn handler(back: Pid(Msg)):
    receive:
        s: Net.Socket -> handle(s, back)

fn serve(l: Net.Listener, n: Int, back: Pid(Msg)):
    if n > 0:
        match Net.accept(l):
            Ok(s) ->
                match Process.spawn(() -> handler(back)):
                    Ok(h) ->
                        let h2: Pid(Net.Socket) = h
                        ignore(Net.transfer(s, Process.id(h2)))
                        ignore(send(h2, s))
                    Err(_) -> ()
                serve(l, n - 1, back)
            Err(c) -> println("accept failed {c}")

fn server(back: Pid(Msg), n: Int):
    let Ok(l) = Net.listen("127.0.0.1", 0) else: Process.exit(Process.Failure("listen"))
    ignore(send(back, Port(Net.port(l))))
    serve(l, n, back)
    receive:
        Done -> ()

fn client(port: Int, back: Pid(Msg), i: Int):
    let Ok(s) = Net.connect("127.0.0.1", port) else: Process.exit(Process.Failure("connect"))
    ignore(Net.write(s, "line {i}\n"))
    match Net.read_line(s, 5000):
        Ok(Some(l)) if l == "line {i}" -> ()
        _ -> println("client {i}: bad echo")
    ignore(Net.close(s))
    ignore(send(back, Done))

fn idle(port: Int, back: Pid(Msg)):
    let Ok(_s) = Net.connect("127.0.0.1", port) else: Process.exit(Process.Failure("connect"))
    ignore(send(back, Done))
    receive:
        Done -> ()

fn spawn_idle(port: Int, me: Pid(Msg), n: Int, acc: List(ProcessId)) -> List(ProcessId):
    if n == 0:
        acc
    else:
        spawn_idle(port: port, me: me, n: n - 1, acc: List.push(acc, start_msg(Process.spawn(() -> idle(port, me)))))

fn wait(n: Int):
    if n > 0:
        receive:
            Done -> wait(n - 1)
            Port(_) -> wait(n)

fn tester():
    let me: Pid(Msg) = Process.self()
    let srv = start_msg(Process.spawn(() -> server(me, 250)))
    let port = receive:
        Port(p) -> p
        Done -> 0
    for i in 0..200:
        let _c = start(Process.spawn(() -> client(port: port, back: me, i: i)))
    # 200 clients done and 200 handlers ended, in any order.
    wait(400)
    let idles = spawn_idle(port: port, me: me, n: 50, acc: [])
    wait(50)
    for p in idles:
        ignore_p(Process.signal_exit(p, Process.Kill))
    # The killed clients' sockets were closed as they retired: their
    # handlers see the end of the stream and end.
    wait(50)
    ignore_p(Process.signal_exit(srv, Process.Kill))
    println("served")
` + testMain

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// TestNoLeaks: churning connections (and killing parked handlers)
// leaves no file descriptor and no goroutine behind.
func TestNoLeaks(t *testing.T) {
	p := testrun.Compile(t, "churn.mr", churnSrc)
	runtime.GC()
	fds, gs := openFDs(t), runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code, out, errb := testrun.Run(ctx, p, engine.Options{Schedulers: 2, Steal: true})
	if code != 0 || out != "served\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errb)
	}
	var nf, ng int
	for i := 0; i < 100; i++ {
		if nf, ng = openFDs(t), runtime.NumGoroutine(); nf <= fds && ng <= gs {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	buf := make([]byte, 1<<16)
	t.Errorf("descriptors %d -> %d, goroutines %d -> %d\n%s", fds, nf, gs, ng, buf[:runtime.Stack(buf, true)])
}

// TestFsLimits: code 2 for a permission error (as a user that
// permissions apply to), code 3 for a file over 64 MiB.
func TestFsLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(64<<20 + 1) // sparse: no disk used
	f.Close()
	exact := filepath.Join(dir, "exact.txt")
	os.WriteFile(exact, []byte(strings.Repeat("a", 10)), 0o644)
	locked := filepath.Join(dir, "locked")
	os.Mkdir(locked, 0o000)
	defer os.Chmod(locked, 0o755)
	src := `fn main():
    println(fs.read("` + big + `"))
    println(fs.size("` + big + `"))
    println(fs.read("` + exact + `"))
    println(fs.list_dir("` + locked + `"))
    println(fs.write("` + locked + `/x", "x"))
`
	_, out, _ := run(t, src, engine.Options{})
	want := "Err(3)\nOk(67108865)\nOk(\"aaaaaaaaaa\")\n"
	if os.Geteuid() == 0 {
		want += "Ok([])\nOk(1)\n" // root ignores permissions
	} else {
		want += "Err(2)\nErr(2)\n"
	}
	if out != want {
		t.Errorf("stdout %q, want %q", out, want)
	}
}
