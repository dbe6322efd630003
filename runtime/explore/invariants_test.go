package explore

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/trace"
)

const repo = "../.."

var errorAnnotation = regexp.MustCompile(`#\s*(ERROR|WARNING)\b`)

// processFixtures returns the run fixtures of fixtures/process,
// fixtures/actors and (without -race) fixtures/process/supervisor.
func processFixtures(t *testing.T) []string {
	t.Helper()
	var out []string
	dirs := []string{"process", "actors"}
	if !raceEnabled {
		// A deterministic run is one goroutine, so the race detector has
		// little to find in it; under -race the package is already near
		// go test's default timeout, and the supervisor fixtures are
		// explored without it.
		dirs = append(dirs, filepath.Join("process", "supervisor"))
	}
	for _, dir := range dirs {
		m, err := filepath.Glob(filepath.Join(repo, "fixtures", dir, "*.mr"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if errorAnnotation.Match(src) {
				continue
			}
			if name := Unreplayable(compile(t, f).Program()); name != "" {
				// Exploration refuses a program whose results come from
				// outside it (Refusal): its schedules cannot be replayed.
				continue
			}
			out = append(out, f)
		}
	}
	if len(out) < 80 {
		t.Fatalf("only %d process and actor fixtures found", len(out))
	}
	return out
}

func compile(t testing.TB, path string) *bytecode.Verified {
	t.Helper()
	return testrun.CompileFile(t, path).Verified
}

// schedulesPerFixture is how many schedules TestInvariants explores of
// each fixture at most (MORROW_EXPLORE_SCHEDULES raises it).
func schedulesPerFixture(t *testing.T) int {
	if v := os.Getenv("MORROW_EXPLORE_SCHEDULES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("MORROW_EXPLORE_SCHEDULES=%q: want a positive number", v)
		}
		return n
	}
	if testing.Short() {
		return 10
	}
	return 200
}

// stepsPerFixture bounds the VM steps TestInvariants spends on one
// fixture: a fixture whose schedules are long gets fewer of them (at
// least minSchedules). Steps are reductions (a call, a backward jump,
// an actor operation: runtime/vm), about a fifth of the instructions
// executed.
const (
	stepsPerFixture = 2_000_000
	minSchedules    = 2
)

// TestInvariants explores every process and actor fixture and checks
// the model's ordering guarantees on the trace of each schedule
// (CheckTrace). Outputs may differ between schedules (a fixture may
// race a timeout against a message, which the model allows); what must
// hold is the order of events, and no schedule may hit an internal
// error.
func TestInvariants(t *testing.T) {
	if raceEnabled {
		// An explored run is one goroutine under the deterministic
		// policy, so the race detector has nothing to find here, and it
		// makes each schedule ten times slower (the whole test then ran
		// past go test's ten minutes). make test runs it without -race.
		t.Skip("explored without -race only: a deterministic run is one goroutine")
	}
	limit := schedulesPerFixture(t)
	for _, f := range processFixtures(t) {
		t.Run(strings.TrimSuffix(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), ".mr"), func(t *testing.T) {
			t.Parallel()
			v := compile(t, f)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			base := engine.Options{}
			pl := Prepare(ctx, v, base)
			n := limit
			for i := 0; i < n; i++ {
				seed := SeedFor(0, i)
				var out, errs, tr testrun.Buffer
				o := base
				o.Stdout, o.Stderr, o.Trace, o.TraceMessages = &out, &errs, &tr, true
				r := pl.Run(ctx, v, o, seed)
				if i == 0 {
					n = max(minSchedules, min(limit, int(stepsPerFixture/max(r.Steps, 1))))
				}
				if strings.Contains(errs.String(), "internal error") {
					t.Fatalf("seed %d (%s): %s", seed, StrategyOf(seed), errs.String())
				}
				evs, err := trace.Parse(strings.NewReader(tr.String()))
				if err != nil {
					t.Fatalf("seed %d: the trace does not parse: %v", seed, err)
				}
				if bad := CheckTrace(evs, 5); len(bad) > 0 {
					t.Fatalf("seed %d (%s): %d violations, the first: %v\nreplay: morrow run --replay %d --trace - --trace-messages %s",
						seed, StrategyOf(seed), len(bad), bad, seed, f)
				}
			}
		})
	}
}

// TestCheckTraceCatches shows that CheckTrace finds each kind of
// violation in a hand-made trace.
func TestCheckTraceCatches(t *testing.T) {
	head := "spawn 1 root\nspawn 2 by 1 a\nspawn 3 by 1 b\n"
	for _, c := range []struct {
		name, body, want string
	}{
		{"faithful", "send 2 -> 3\nsend 2 -> 3\narrive 3 <- 2 message 1\narrive 3 <- 2 message 2\nrecv 3 <- 2\nrecv 3 <- 2\n", ""},
		{"fifo broken", "send 2 -> 3\nsend 2 -> 3\narrive 3 <- 2 message 2\n", "sender's order is broken"},
		{"invented cell", "arrive 3 <- 2 message 1\n", "only 0 were sent"},
		{"kind mixed up", "monitor 3 -> 2 ref 1\nsend 2 -> 3\nretire 2 Normal\ndown 2 -> 3 Normal\narrive 3 <- 2 down 1\n", "published as a message"},
		{"down before messages", "monitor 3 -> 2 ref 1\nsend 2 -> 3\nretire 2 Normal\ndown 2 -> 3 Normal\narrive 3 <- 2 message 1\narrive 3 <- 2 down 2\n", ""},
		{"down published as message", "monitor 3 -> 2 ref 1\nretire 2 Normal\ndown 2 -> 3 Normal\narrive 3 <- 2 message 1\n", "published as a down"},
		{"down before retire", "monitor 3 -> 2 ref 1\ndown 2 -> 3 Normal\n", "before it retired"},
		{"exit after down", "link 2 <-> 3\nmonitor 1 -> 2 ref 1\nretire 2 Normal\ndown 2 -> 1 Normal\nexit signal 2 -> 3 Normal\n", "after one of its Downs"},
		{"linked exit before retire", "link 2 <-> 3\nexit signal 2 -> 3 Normal\n", "before it retired"},
		{"recv before arrival", "send 2 -> 3\nrecv 3 <- 2\n", "had not arrived"},
		{"send after retire", "retire 2 Normal\nsend 2 -> 3\n", "after it retired"},
		{"arrival after retire", "send 2 -> 3\nretire 3 Normal\narrive 3 <- 2 message 1\n", "after it retired"},
		{"two downs, one monitor", "monitor 3 -> 2 ref 1\nretire 2 Normal\ndown 2 -> 3 Normal\ndown 2 -> 3 Normal\n", "more Downs"},
		{"late monitor without its down", "retire 2 Normal\nmonitor 3 -> 2 ref 1\nsend 3 -> 1\n", "Down(NoProcess)"},
		{"late monitor", "retire 2 Normal\nmonitor 3 -> 2 ref 1\ndown 2 -> 3 NoProcess\n", ""},
		{"trapped exit", "trap 3 on\nlink 2 <-> 3\nretire 2 Fault(1)\nexit signal 2 -> 3 Fault(1)\narrive 3 <- 2 exit 1\n", ""},
		{"untrapped exit is no cell", "link 2 <-> 3\nretire 2 Fault(1)\nexit signal 2 -> 3 Fault(1)\narrive 3 <- 2 exit 1\n", "only 0 were sent"},
		{"acts before spawn", "send 4 -> 2\n", "before its spawn"},
	} {
		evs, err := trace.Parse(strings.NewReader(head + c.body))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		errs := CheckTrace(evs, 0)
		switch {
		case c.want == "" && len(errs) > 0:
			t.Errorf("%s: unexpected violations %v", c.name, errs)
		case c.want != "" && (len(errs) == 0 || !strings.Contains(errs[0].Error(), c.want)):
			t.Errorf("%s: got %v, want a violation containing %q", c.name, errs, c.want)
		}
	}
}
