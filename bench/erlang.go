package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/morrow-lang/morrow/internal/beam"
)

// Erlang runs the BEAM side: the module compiled once with erlc into a
// temporary directory, then one `erl` invocation per run.
type Erlang struct {
	Erl, Erlc string // executables
	dir       string // holds morrow_bench.beam
}

// NewErlang compiles the Erlang module. erl and erlc are looked up in
// PATH when empty.
func NewErlang(erl, erlc string) (*Erlang, error) {
	erl, erlc, err := beam.Find(erl, erlc)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "morrow-bench-erl-")
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, "morrow_bench.erl")
	if err := os.WriteFile(src, ErlangSource(), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := beam.Compile(erlc, dir, 10*time.Minute, nil, src); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &Erlang{Erl: erl, Erlc: erlc, dir: dir}, nil
}

// Close removes the compiled module.
func (e *Erlang) Close() error { return os.RemoveAll(e.dir) }

// Version is the OTP release and ERTS version, e.g. "OTP 25, ERTS 13.1.5".
func (e *Erlang) Version() (string, error) {
	out, err := beam.Eval(e.Erl, time.Minute,
		`io:format("OTP ~s, ERTS ~s~n", [erlang:system_info(otp_release), erlang:system_info(version)]), halt().`)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// ErlangRun is one parsed result line.
type ErlangRun struct {
	Elapsed         time.Duration
	Check           string
	BytesPerProcess float64 // idle only
	Output          string
}

var resultRE = regexp.MustCompile(`(?m)^morrow-bench (\S+) size=(\d+) micros=(\d+) check=(\S+)(?: bytes_per_process=([0-9.]+))?$`)

// ParseErlang extracts the result line of workload name from output.
func ParseErlang(name string, size int, output string) (ErlangRun, error) {
	m := resultRE.FindStringSubmatch(output)
	if m == nil {
		return ErlangRun{Output: output}, fmt.Errorf("no result line in the Erlang output:\n%s", output)
	}
	if m[1] != name || m[2] != strconv.Itoa(size) {
		return ErlangRun{Output: output}, fmt.Errorf("result line is for %s size %s, want %s size %d", m[1], m[2], name, size)
	}
	micros, err := strconv.ParseInt(m[3], 10, 64)
	if err != nil {
		return ErlangRun{Output: output}, err
	}
	r := ErlangRun{Elapsed: time.Duration(micros) * time.Microsecond, Check: m[4], Output: output}
	if m[5] != "" {
		if r.BytesPerProcess, err = strconv.ParseFloat(m[5], 64); err != nil {
			return r, err
		}
	}
	return r, nil
}

// Run runs workload name at size on n schedulers (`+S n:n`).
func (e *Erlang) Run(name string, size, schedulers int, timeout time.Duration) (ErlangRun, error) {
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	s := strconv.Itoa(schedulers)
	var out bytes.Buffer
	err := beam.Run(e.Erl, "", timeout, &out, &out, "-noshell", "+S", s+":"+s, "+P", "4000000",
		"-pa", e.dir, "-run", "morrow_bench", "main", name, strconv.Itoa(size), "-s", "init", "stop")
	if err != nil {
		return ErlangRun{Output: out.String()}, fmt.Errorf("erl: %v\n%s", err, out.String())
	}
	return ParseErlang(name, size, out.String())
}
