package supervisor

import (
	"hash/fnv"
	"strconv"
	"strings"
	"testing"
)

// The machine tests are scripts: each step feeds one input, written in a
// small language, at a time in seconds, and names the effects it must
// produce (Format's rendering, "" for none).
//
//	begin                           Begin
//	ack G | ignore G                StartResult{G, Acked|Ignored}
//	fail G REASON                   StartResult{G, Failed, REASON}
//	exit G REASON                   ChildExit{G, REASON}
//	timer T | retry T               TimerFired{T} | RetryDue{T}
//	parent REASON                   ParentExit{REASON}
//	req ID which|stop               Request{ID, which_children|stop}
//	req ID current NAME [KEYNAME]   Request{ID, current, NAME, key of KEYNAME (default NAME)}
//	req ID terminate|restart|delete NAME
//	req ID start NAME               Request{ID, start_child, the case's extra spec NAME}
//
// REASON is a reason as Reason.String prints it (normal, shutdown,
// shutdown_detail:x, fault:3, failure:x, kill, killed, no_process).

type step struct {
	at   int64
	in   string
	want string
}

type script struct {
	name     string
	flags    Flags
	children []Spec
	extra    []Spec // specs for `req ID start NAME`
	level    int
	steps    []step
}

func keyOf(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64() | 1
}

// w is a worker spec; opts may set significant ("sig").
func w(name string, r Restart, sd Shutdown, opts ...string) Spec {
	s := Spec{Name: name, Kind: Worker, Key: keyOf(name), Policy: Policy{Restart: r, Shutdown: sd}}
	for _, o := range opts {
		if o == "sig" {
			s.Policy.Significant = true
		}
	}
	return s
}

func br(name string, f Flags, p Policy, children ...Spec) Spec {
	return Spec{Name: name, Kind: Branch, Policy: p, Flags: f, Children: children}
}

var (
	imm = Shutdown{Kind: Immediate}
	inf = Shutdown{Kind: Infinity}
)

func grace(ms int64) Shutdown { return Shutdown{Kind: Graceful, Ms: ms} }

func flags(s Strategy, intensity, period int64) Flags {
	return Flags{Strategy: s, Intensity: intensity, PeriodSeconds: period}
}

func parseReason(t *testing.T, s string) Reason {
	t.Helper()
	kind, arg, _ := strings.Cut(s, ":")
	switch kind {
	case "normal":
		return Normal
	case "shutdown":
		return ShutdownExit
	case "shutdown_detail":
		return Reason{Kind: ReasonShutdownDetail, Text: arg}
	case "fault":
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			t.Fatalf("bad fault code in %q", s)
		}
		return Reason{Kind: ReasonFault, Code: n}
	case "failure":
		return Reason{Kind: ReasonFailure, Text: arg}
	case "kill":
		return Reason{Kind: ReasonKill}
	case "killed":
		return Killed
	case "no_process":
		return Reason{Kind: ReasonNoProcess}
	}
	t.Fatalf("bad reason %q", s)
	return Reason{}
}

func parseInput(t *testing.T, sc *script, line string) Input {
	t.Helper()
	f := strings.Fields(line)
	num := func(i int) uint64 {
		t.Helper()
		if i >= len(f) {
			t.Fatalf("input %q: missing operand %d", line, i)
		}
		n, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil {
			t.Fatalf("input %q: operand %d is not a number", line, i)
		}
		return n
	}
	switch f[0] {
	case "begin":
		return Begin{}
	case "ack":
		return StartResult{Gen: Gen(num(1)), Outcome: Acked}
	case "ignore":
		return StartResult{Gen: Gen(num(1)), Outcome: Ignored}
	case "fail":
		return StartResult{Gen: Gen(num(1)), Outcome: Failed, Reason: parseReason(t, f[2])}
	case "exit":
		return ChildExit{Gen: Gen(num(1)), Reason: parseReason(t, f[2])}
	case "timer":
		return TimerFired{Token: Token(num(1))}
	case "retry":
		return RetryDue{Token: Token(num(1))}
	case "parent":
		return ParentExit{Reason: parseReason(t, f[1])}
	case "req":
		r := Request{ID: RequestID(num(1))}
		switch f[2] {
		case "which":
			r.Op = OpWhichChildren
		case "stop":
			r.Op = OpStop
		case "current":
			r.Op, r.Name, r.Key = OpCurrent, f[3], keyOf(f[3])
			if len(f) > 4 {
				r.Key = keyOf(f[4])
			}
		case "terminate":
			r.Op, r.Name = OpTerminateChild, f[3]
		case "restart":
			r.Op, r.Name = OpRestartChild, f[3]
		case "delete":
			r.Op, r.Name = OpDeleteChild, f[3]
		case "start":
			r.Op = OpStartChild
			found := false
			for _, s := range sc.extra {
				if s.Name == f[3] {
					r.Spec, found = s, true
				}
			}
			if !found {
				t.Fatalf("input %q: no extra spec %s", line, f[3])
			}
		default:
			t.Fatalf("input %q: unknown request", line)
		}
		return r
	}
	t.Fatalf("unknown input %q", line)
	return nil
}

func runScripts(t *testing.T, scripts []script) {
	t.Helper()
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			m, err := New(Config{Flags: sc.flags, Children: sc.children, Level: sc.level})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			for i, st := range sc.steps {
				got := Format(m.Step(st.at, parseInput(t, &sc, st.in)))
				if got != st.want {
					t.Fatalf("step %d (t=%d) %q:\n got: %s\nwant: %s", i+1, st.at, st.in, got, st.want)
				}
			}
		})
	}
}

// startAll returns the steps of a start-up in which the n children all
// acknowledge, with generations 1..n.
func startAll(names ...string) []step {
	steps := []step{{0, "begin", "start " + names[0] + "#1"}}
	for i := range names {
		want := "startup Ok"
		if i+1 < len(names) {
			want = "start " + names[i+1] + "#" + strconv.Itoa(i+2)
		}
		steps = append(steps, step{0, "ack " + strconv.Itoa(i+1), want})
	}
	return steps
}

func cat(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
