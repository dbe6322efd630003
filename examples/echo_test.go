package examples

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
)

var listeningRE = regexp.MustCompile(`listening on port (\d+)`)

// TestEchoServer runs examples/echo_server.mr and serves 50 concurrent
// clients (three lines each), then a client whose 2 MiB line is refused
// (its connection closes) while the server goes on serving; an
// interrupt then ends the run.
func TestEchoServer(t *testing.T) {
	src, err := os.ReadFile("echo_server.mr")
	if err != nil {
		t.Fatal(err)
	}
	p := testrun.Compile(t, "examples/echo_server.mr", string(src))
	for _, n := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		var out, errb testrun.Buffer
		done := make(chan int, 1)
		go func() {
			done <- engine.Run(ctx, p, engine.Options{Stdout: &out, Stderr: &errb, Schedulers: n, Steal: n > 1})
		}()
		port := ""
		for deadline := time.Now().Add(10 * time.Second); port == "" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if m := listeningRE.FindStringSubmatch(out.String()); m != nil {
				port = m[1]
			}
		}
		if port == "" {
			cancel()
			t.Fatalf("no port announced; stdout %q stderr %q", out.String(), errb.String())
		}
		addr := "127.0.0.1:" + port
		var wg sync.WaitGroup
		errs := make(chan error, 60)
		for c := 0; c < 50; c++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- echoClient(addr, c)
			}()
		}
		wg.Wait()
		// A 2 MiB line: the server closes that connection...
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			go conn.Write([]byte(strings.Repeat("x", 2<<20) + "\n"))
			if _, err := bufio.NewReader(conn).ReadString('\n'); err == nil {
				errs <- fmt.Errorf("a 2 MiB line was echoed")
			}
			conn.Close()
		}
		// ... and keeps serving.
		errs <- echoClient(addr, 99)
		close(errs)
		for err := range errs {
			if err != nil {
				t.Errorf("schedulers %d: %v", n, err)
			}
		}
		// The connection closes before its process reports the error.
		for deadline := time.Now().Add(5 * time.Second); !strings.Contains(errb.String(), "connection error 9") && time.Now().Before(deadline); {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
		if code := <-done; code != engine.ExitInterrupted {
			t.Errorf("schedulers %d: exit %d after the interrupt; stderr %q", n, code, errb.String())
		}
		if !strings.Contains(errb.String(), "connection error 9") {
			t.Errorf("schedulers %d: stderr %q, want the refused line's error 9", n, errb.String())
		}
	}
}

func echoClient(addr string, c int) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	for i := 0; i < 3; i++ {
		line := fmt.Sprintf("client %d line %d", c, i)
		if _, err := fmt.Fprintf(conn, "%s\n", line); err != nil {
			return err
		}
		got, err := r.ReadString('\n')
		if err != nil || got != line+"\n" {
			return fmt.Errorf("client %d: got %q, %v", c, got, err)
		}
	}
	return nil
}
