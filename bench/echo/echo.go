// Package echo is the echo benchmark (docs/io.md): the same
// line echo server written in Morrow (echo_server.mr, one process per
// connection) and in Erlang (morrow_echo.erl, gen_tcp in {active, once}
// mode, one process per connection), each run as its own OS process and
// driven by one load generator (Load): C connections, each sending a
// line and waiting for its echo, as fast as it can, for a fixed time.
// The figure is lines echoed per second. bench/cmd/echobench prints the
// side-by-side table (`make bench` runs it).
package echo

import (
	"bufio"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/runtime/engine"
)

//go:embed echo_server.mr
var morrowSource []byte

//go:embed morrow_echo.erl
var erlangSource []byte

var listeningRE = regexp.MustCompile(`listening on port (\d+)`)

// Load drives the server at addr with conns connections for d: each
// sends a short line and waits for its echo, over and over. It returns
// the lines echoed; a wrong echo is an error.
func Load(addr string, conns int, d time.Duration) (int64, error) {
	var total atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	deadline := time.Now().Add(d)
	for c := 0; c < conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			conn.SetDeadline(deadline.Add(10 * time.Second))
			line := []byte(fmt.Sprintf("connection %d says hello\n", c))
			r := bufio.NewReader(conn)
			n := int64(0)
			for time.Now().Before(deadline) {
				if _, err := conn.Write(line); err != nil {
					errs <- err
					return
				}
				got, err := r.ReadSlice('\n')
				if err != nil || string(got) != string(line) {
					errs <- fmt.Errorf("connection %d: echo %q, %v", c, got, err)
					return
				}
				n++
			}
			total.Add(n)
		}()
	}
	wg.Wait()
	close(errs)
	return total.Load(), <-errs
}

// Server is a running echo server.
type Server struct {
	Addr string
	stop func() error
}

// Stop ends the server.
func (s *Server) Stop() error { return s.stop() }

// ServeMorrow runs the Morrow server in this process until ctx ends
// (echobench runs it in a child process of its own: Start).
func ServeMorrow(ctx context.Context, schedulers int, stdout, stderr io.Writer) int {
	u, err := compiler.Build("echo_server.mr", morrowSource)
	if err != nil || u.Program == nil {
		fmt.Fprintf(stderr, "echo_server.mr does not compile: %v\n", err)
		return 1
	}
	return engine.Run(ctx, u.Program, engine.Options{Stdout: stdout, Stderr: stderr,
		Schedulers: schedulers, Steal: schedulers > 1, MaxProcesses: engine.Unlimited})
}

// CompileMorrow checks that the Morrow server compiles.
func CompileMorrow() error {
	u, err := compiler.Build("echo_server.mr", morrowSource)
	if err != nil {
		return err
	}
	if u.Program == nil {
		return errors.New("echo_server.mr does not compile")
	}
	return nil
}

// Start runs cmd, waits for its "listening on port N" line and returns
// the server; Stop kills it.
func Start(cmd *exec.Cmd) (*Server, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() error {
		cmd.Process.Kill()
		cmd.Wait()
		return nil
	}
	port := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := listeningRE.FindStringSubmatch(sc.Text()); m != nil {
				port <- m[1]
			}
		}
		close(port)
	}()
	select {
	case p, ok := <-port:
		if !ok {
			stop()
			return nil, fmt.Errorf("%s ended without announcing its port", cmd.Path)
		}
		return &Server{Addr: "127.0.0.1:" + p, stop: stop}, nil
	case <-time.After(30 * time.Second):
		stop()
		return nil, fmt.Errorf("%s did not announce its port", cmd.Path)
	}
}

// ErlangCommand compiles morrow_echo.erl into dir and returns the command
// that runs it on n schedulers.
func ErlangCommand(erl, erlc, dir string, schedulers int) (*exec.Cmd, error) {
	src := filepath.Join(dir, "morrow_echo.erl")
	if err := os.WriteFile(src, erlangSource, 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.Command(erlc, "-o", dir, src).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("erlc: %v\n%s", err, out)
	}
	s := strconv.Itoa(schedulers)
	return exec.Command(erl, "-noshell", "+S", s+":"+s, "+P", "4000000", "-pa", dir, "-run", "morrow_echo", "main"), nil
}
