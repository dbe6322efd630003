package supervisor

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// chain returns a branch nested n levels deep (n >= 1) with one worker at
// the bottom.
func chain(n int) Spec {
	s := w("leaf", Permanent, imm)
	for i := 0; i < n; i++ {
		s = br(fmt.Sprintf("b%d", i), flags(OneForOne, 1, 1), Policy{Shutdown: inf}, s)
	}
	return s
}

func TestValidate(t *testing.T) {
	ok := flags(OneForOne, 1, 5)
	any := Flags{Strategy: OneForAll, Intensity: 1, PeriodSeconds: 5, AutoShutdown: AnySignificant}
	many := func(n int) []Spec {
		out := make([]Spec, n)
		for i := range out {
			out[i] = w(fmt.Sprintf("c%d", i), Permanent, imm)
		}
		return out
	}
	cases := []struct {
		name  string
		flags Flags
		specs []Spec
		level int
		want  error
	}{
		{"plain", ok, []Spec{w("a", Permanent, imm)}, 1, nil},
		{"intensity 0", flags(OneForOne, 0, 1), nil, 1, nil},
		{"intensity 1,024", flags(OneForOne, 1024, 1), nil, 1, nil},
		{"intensity 1,025", flags(OneForOne, 1025, 1), nil, 1, ErrInvalidOptions},
		{"intensity -1", flags(OneForOne, -1, 1), nil, 1, ErrInvalidOptions},
		{"period 0", flags(OneForOne, 1, 0), nil, 1, ErrInvalidOptions},
		{"period 86,400", flags(OneForOne, 1, 86400), nil, 1, nil},
		{"period 86,401", flags(OneForOne, 1, 86401), nil, 1, ErrInvalidOptions},
		{"bad strategy (ABI only)", Flags{Strategy: 3, Intensity: 1, PeriodSeconds: 1}, nil, 1, ErrInvalidOptions},
		{"bad auto_shutdown (ABI only)", Flags{AutoShutdown: 3, Intensity: 1, PeriodSeconds: 1}, nil, 1, ErrInvalidOptions},
		{"Graceful(0)", ok, []Spec{w("a", Permanent, grace(0))}, 1, nil},
		{"Graceful(600,000)", ok, []Spec{w("a", Permanent, grace(600000))}, 1, nil},
		{"Graceful(600,001)", ok, []Spec{w("a", Permanent, grace(600001))}, 1, ErrInvalidOptions},
		{"Graceful(-1)", ok, []Spec{w("a", Permanent, grace(-1))}, 1, ErrInvalidOptions},
		{"significant Permanent", any, []Spec{w("a", Permanent, imm, "sig")}, 1, ErrInvalidOptions},
		{"significant Transient under AnySignificant", any, []Spec{w("a", Transient, imm, "sig")}, 1, nil},
		{"significant Temporary under AllSignificant", Flags{Intensity: 1, PeriodSeconds: 1, AutoShutdown: AllSignificant}, []Spec{w("a", Temporary, imm, "sig")}, 1, nil},
		{"significant under Never", ok, []Spec{w("a", Transient, imm, "sig")}, 1, ErrInvalidOptions},
		{"duplicate names", ok, []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("a", Temporary, imm)}, 1, ErrDuplicateName},
		{"same name in different branches", ok, []Spec{w("a", Permanent, imm), br("b", ok, Policy{}, w("a", Permanent, imm))}, 1, nil},
		{"duplicate inside a branch", ok, []Spec{br("b", ok, Policy{}, w("a", Permanent, imm), w("a", Permanent, imm))}, 1, ErrDuplicateName},
		{"bad flags inside a branch", ok, []Spec{br("b", flags(OneForOne, 1, 0), Policy{})}, 1, ErrInvalidOptions},
		{"significant checked against the branch's own flags", any, []Spec{br("b", ok, Policy{}, w("s", Transient, imm, "sig"))}, 1, ErrInvalidOptions},
		{"1,024 children", ok, many(1024), 1, nil},
		{"1,025 children", ok, many(1025), 1, ErrResourceLimit},
		{"depth 64 (63 branch levels under the top)", ok, []Spec{chain(63)}, 1, nil},
		{"depth 65", ok, []Spec{chain(64)}, 1, ErrResourceLimit},
		{"depth counts the level the supervisor starts at", ok, []Spec{chain(62)}, 3, ErrResourceLimit},
		{"name of 4,096 bytes", ok, []Spec{w(strings.Repeat("x", 4096), Permanent, imm)}, 1, nil},
		{"name of 4,097 bytes", ok, []Spec{w(strings.Repeat("x", 4097), Permanent, imm)}, 1, ErrInvalidOptions},
		{"flags are checked before duplicates", flags(OneForOne, 1, 0), []Spec{w("a", Permanent, imm), w("a", Permanent, imm)}, 1, ErrInvalidOptions},
		{"a bad policy is reported before a later duplicate", ok, []Spec{w("a", Permanent, imm), w("a", Permanent, grace(-5))}, 1, ErrInvalidOptions},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Validate(c.flags, c.specs, c.level)
			if !errors.Is(got, c.want) && got != c.want {
				t.Fatalf("Validate = %v, want %v", got, c.want)
			}
			_, err := New(Config{Flags: c.flags, Children: c.specs, Level: c.level})
			if err != got {
				t.Fatalf("New = %v, Validate = %v", err, got)
			}
		})
	}
}

func TestValidateParts(t *testing.T) {
	if err := ValidateWorker("w", Policy{Restart: Permanent, Significant: true}); err != ErrInvalidOptions {
		t.Errorf("significant Permanent worker: %v", err)
	}
	if err := ValidateWorker("w", Policy{Restart: Transient, Significant: true}); err != nil {
		t.Errorf("significant Transient worker alone is fine until it is given to a supervisor: %v", err)
	}
	if err := ValidateBranch(strings.Repeat("n", 4097), flags(OneForOne, 1, 1), nil, Policy{}); err != ErrInvalidOptions {
		t.Errorf("long branch name: %v", err)
	}
	if err := ValidateBranch("b", flags(OneForOne, 1, 1), []Spec{chain(64)}, Policy{}); err != ErrResourceLimit {
		t.Errorf("branch of depth 65: %v", err)
	}
	if err := ValidateBranch("b", flags(OneForOne, 1, 1), []Spec{chain(63)}, Policy{}); err != nil {
		t.Errorf("branch of depth 64: %v", err)
	}
	if err := ValidateBranch("b", flags(OneForOne, 1, 1), nil, Policy{Shutdown: grace(700000)}); err != ErrInvalidOptions {
		t.Errorf("branch policy: %v", err)
	}
	// start_child checks depth from the supervisor's own level.
	m, err := New(Config{Flags: flags(OneForOne, 1, 1), Level: 60})
	if err != nil {
		t.Fatal(err)
	}
	m.Step(0, Begin{})
	if got := Format(m.Step(0, Request{ID: 1, Op: OpStartChild, Spec: chain(5)})); got != "reply r1 Err(ResourceLimit)" {
		t.Errorf("start_child too deep: %s", got)
	}
	if got := Format(m.Step(0, Request{ID: 2, Op: OpStartChild, Spec: chain(4)})); got != "start b3#1" {
		t.Errorf("start_child at the depth limit: %s", got)
	}
	if _, err := New(Config{Flags: flags(OneForOne, 1, 1), Level: -1}); err != ErrResourceLimit {
		t.Errorf("negative level: %v", err)
	}
}

func TestReasonNormal(t *testing.T) {
	normal := map[ReasonKind]bool{ReasonNormal: true, ReasonShutdown: true, ReasonShutdownDetail: true}
	for k := ReasonNormal; k <= ReasonNoProcess; k++ {
		if got := (Reason{Kind: k}).Normal(); got != normal[k] {
			t.Errorf("%v.Normal() = %v", Reason{Kind: k}, got)
		}
	}
	if ErrSupervisorStopped != 12 || ErrStartFailed != 11 || ErrInvalidOptions != 0 {
		t.Error("Error tags must follow docs/supervisors.md's tag order")
	}
	if Running != 0 || Stopped != 1 || Restarting != 2 || Branch != 1 || Immediate != 2 || RestForOne != 2 || Temporary != 2 || AllSignificant != 2 {
		t.Error("enum tags must follow docs/supervisors.md's tag order")
	}
}
