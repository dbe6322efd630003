package supervisor

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestStartup(t *testing.T) {
	f := flags(OneForOne, 3, 5)
	runScripts(t, []script{{
		name:     "children start one at a time in declaration order",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, imm)},
		steps: cat(
			[]step{
				{0, "begin", "start a#1"},
				{0, "ack 1", "start b#2"},
				{0, "ack 2", "start c#3"},
				{0, "ack 3", "startup Ok"},
			},
			[]step{{0, "req 1 which", "reply r1 Ok([a:Worker:Running#1, b:Worker:Running#2, c:Worker:Running#3])"}},
		),
	}, {
		name:     "no children commits at once",
		flags:    f,
		children: nil,
		steps: []step{
			{0, "begin", "startup Ok"},
			{0, "req 1 which", "reply r1 Ok([])"},
		},
	}, {
		name:     "ignored: a Temporary spec is removed, others are kept Stopped",
		flags:    f,
		children: []Spec{w("a", Temporary, imm), w("b", Transient, imm), w("c", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ignore 1", "start b#2"},
			{0, "ignore 2", "start c#3"},
			{0, "ack 3", "startup Ok"},
			{0, "req 1 which", "reply r1 Ok([b:Worker:Stopped, c:Worker:Running#3])"},
			{0, "exit 1 normal", ""}, // the ignored process's own exit is stale
		},
	}, {
		name:     "a failed start rolls back in reverse order and exits Shutdown",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), w("b", Transient, grace(100)), w("c", Permanent, inf), w("d", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ack 1", "start b#2"},
			{0, "ack 2", "start c#3"},
			{0, "fail 3 failure:boom", "shutdown b#2; arm t1 100ms"},
			{0, "exit 3 failure:boom", ""}, // the failed child's own exit is stale
			{0, "exit 2 shutdown", "cancel t1; kill a#1"},
			{0, "exit 1 killed", `startup Err(StartFailed("c", failure:boom)); retire shutdown`},
			{0, "req 1 which", "reply r1 Err(SupervisorStopped)"},
		},
	}, {
		name:     "a child that exits before acknowledging has failed to start",
		flags:    f,
		children: []Spec{w("a", Permanent, inf), w("b", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ack 1", "start b#2"},
			{0, "exit 2 fault:4", "shutdown a#1"},
			{0, "exit 1 shutdown", `startup Err(StartFailed("b", fault:4)); retire shutdown`},
		},
	}, {
		name:     "the first child failing starts nothing else and stops nothing",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "fail 1 shutdown_detail:no", `startup Err(StartFailed("a", shutdown_detail:no)); retire shutdown`},
		},
	}, {
		name:     "a started child that died during start-up is not stopped again by the rollback",
		flags:    f,
		children: []Spec{w("a", Permanent, grace(50)), w("b", Permanent, imm), w("c", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ack 1", "start b#2"},
			{0, "exit 1 fault:1", ""}, // deferred: start-up is in progress
			{0, "ack 2", "start c#3"},
			{0, "fail 3 normal", "kill b#2"},
			{0, "exit 2 killed", `startup Err(StartFailed("c", normal)); retire shutdown`},
		},
	}, {
		name:     "an exit during start-up is handled after the start-up commits (and charged)",
		flags:    flags(OneForOne, 0, 5),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ack 1", "start b#2"},
			{0, "exit 1 fault:1", ""},
			{0, "ack 2", "startup Ok; kill b#2"}, // intensity 0: the first restart shuts down
			{0, "exit 2 killed", "retire shutdown"},
		},
	}, {
		name:     "requests during start-up wait until it is done",
		flags:    f,
		children: []Spec{w("a", Permanent, imm)},
		steps: []step{
			{0, "req 7 which", ""},
			{0, "begin", "start a#1"},
			{0, "req 8 current a", ""},
			{0, "ack 1", "startup Ok; reply r7 Ok([a:Worker:Running#1]); reply r8 Ok(#1)"},
		},
	}, {
		name:     "stale start results and timers are ignored",
		flags:    f,
		children: []Spec{w("a", Permanent, imm)},
		steps: []step{
			{0, "begin", "start a#1"},
			{0, "ack 9", ""},
			{0, "timer 1", ""},
			{0, "ack 1", "startup Ok"},
			{0, "ack 1", ""},
			{0, "fail 1 fault:2", ""},
			{0, "begin", ""},
		},
	}})
}

func TestStrategies(t *testing.T) {
	abcd := []Spec{w("a", Permanent, imm), w("b", Permanent, grace(10)), w("c", Permanent, inf), w("d", Permanent, imm)}
	runScripts(t, []script{{
		name:     "OneForOne restarts only the child that exited",
		flags:    flags(OneForOne, 5, 5),
		children: abcd,
		steps: cat(startAll("a", "b", "c", "d"), []step{
			{1, "exit 2 fault:3", "start b#5"},
			{1, "ack 5", ""},
			{1, "req 1 which", "reply r1 Ok([a:Worker:Running#1, b:Worker:Running#5, c:Worker:Running#3, d:Worker:Running#4])"},
		}),
	}, {
		name:     "OneForAll stops the others in reverse order, then starts all in order",
		flags:    flags(OneForAll, 1, 5),
		children: abcd,
		steps: cat(startAll("a", "b", "c", "d"), []step{
			{1, "exit 3 fault:3", "kill d#4"},
			{1, "exit 4 killed", "shutdown b#2; arm t1 10ms"},
			{1, "timer 1", "kill b#2"},
			{1, "exit 2 killed", "kill a#1"},
			{1, "exit 1 killed", "start a#5"},
			{1, "ack 5", "start b#6"},
			{1, "ack 6", "start c#7"},
			{1, "ack 7", "start d#8"},
			{1, "ack 8", ""},
			// One charge for the whole group: intensity 1 is now used up.
			{2, "exit 5 fault:3", "kill d#8"},
			{2, "exit 8 killed", "shutdown c#7"},
			{2, "exit 7 shutdown", "shutdown b#6; arm t2 10ms"},
			{2, "exit 6 shutdown", "cancel t2; retire shutdown"},
			{2, "req 1 which", "reply r1 Err(SupervisorStopped)"},
		}),
	}, {
		name:     "RestForOne stops the later children in reverse order, then starts it and them in order",
		flags:    flags(RestForOne, 5, 5),
		children: abcd,
		steps: cat(startAll("a", "b", "c", "d"), []step{
			{1, "exit 2 failure:x", "kill d#4"},
			{1, "exit 4 killed", "shutdown c#3"},
			{1, "exit 3 shutdown", "start b#5"},
			{1, "ack 5", "start c#6"},
			{1, "ack 6", "start d#7"},
			{1, "ack 7", ""},
			{1, "req 1 which", "reply r1 Ok([a:Worker:Running#1, b:Worker:Running#5, c:Worker:Running#6, d:Worker:Running#7])"},
			// The last child restarts alone.
			{1, "exit 7 fault:1", "start d#8"},
		}),
	}, {
		name:     "a Temporary sibling stopped by a group restart is removed, not restarted",
		flags:    flags(OneForAll, 5, 5),
		children: []Spec{w("a", Permanent, imm), w("t", Temporary, imm), w("c", Transient, imm)},
		steps: cat(startAll("a", "t", "c"), []step{
			{1, "exit 1 fault:1", "kill c#3"},
			{1, "exit 3 killed", "kill t#2"},
			{1, "exit 2 killed", "start a#4"},
			{1, "ack 4", "start c#5"},
			{1, "ack 5", ""},
			{1, "req 1 which", "reply r1 Ok([a:Worker:Running#4, c:Worker:Running#5])"},
		}),
	}, {
		name:     "OneForAll also starts a sibling that was Stopped (as OTP does)",
		flags:    flags(OneForAll, 5, 5),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, imm)},
		steps: cat(startAll("a", "b", "c"), []step{
			{0, "req 1 terminate b", "kill b#2"},
			{0, "exit 2 killed", "reply r1 Ok"},
			{1, "exit 3 fault:1", "kill a#1"},
			{1, "exit 1 killed", "start a#4"},
			{1, "ack 4", "start b#5"},
			{1, "ack 5", "start c#6"},
			{1, "ack 6", ""},
		}),
	}, {
		name:     "a group member that dies while the group is being stopped is not stopped again, and costs no charge",
		flags:    flags(OneForAll, 1, 5),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, inf)},
		steps: cat(startAll("a", "b", "c"), []step{
			{1, "exit 1 fault:1", "shutdown c#3"},
			{1, "exit 2 fault:2", ""}, // b died on its own meanwhile: deferred
			{1, "exit 3 shutdown", "start a#4"},
			{1, "ack 4", "start b#5"},
			{1, "ack 5", "start c#6"},
			{1, "ack 6", ""},
			{1, "req 1 which", "reply r1 Ok([a:Worker:Running#4, b:Worker:Running#5, c:Worker:Running#6])"},
		}),
	}, {
		name:     "an exit outside the group waits until the group restart is done",
		flags:    flags(RestForOne, 5, 5),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, imm)},
		steps: cat(startAll("a", "b", "c"), []step{
			{1, "exit 2 fault:1", "kill c#3"},
			{1, "exit 1 fault:9", ""},
			{1, "exit 3 killed", "start b#4"},
			{1, "ack 4", "start c#5"},
			// Done: now a's exit restarts a, b and c.
			{1, "ack 5", "kill c#5"},
			{1, "exit 5 killed", "kill b#4"},
			{1, "exit 4 killed", "start a#6"},
		}),
	}})
}

// TestRestartTypes is the table of restart type × exit reason.
func TestRestartTypes(t *testing.T) {
	reasons := []string{"normal", "shutdown", "shutdown_detail:bye", "fault:3", "failure:x", "kill", "killed", "no_process"}
	var scripts []script
	for _, r := range []Restart{Permanent, Transient, Temporary} {
		for _, reason := range reasons {
			normal := reason == "normal" || reason == "shutdown" || strings.HasPrefix(reason, "shutdown_detail")
			restarts := r == Permanent || (r == Transient && !normal)
			sc := script{
				name:     fmt.Sprintf("%s/%s", r, reason),
				flags:    flags(OneForOne, 5, 5),
				children: []Spec{w("x", r, imm), w("y", Permanent, imm)},
				steps:    startAll("x", "y"),
			}
			if restarts {
				sc.steps = append(sc.steps,
					step{1, "exit 1 " + reason, "start x#3"},
					step{1, "ack 3", ""},
					step{1, "req 1 which", "reply r1 Ok([x:Worker:Running#3, y:Worker:Running#2])"})
			} else {
				want := "reply r1 Ok([x:Worker:Stopped, y:Worker:Running#2])"
				if r == Temporary {
					want = "reply r1 Ok([y:Worker:Running#2])"
				}
				sc.steps = append(sc.steps,
					step{1, "exit 1 " + reason, ""},
					step{1, "req 1 which", want})
			}
			scripts = append(scripts, sc)
		}
	}
	runScripts(t, scripts)
}

func TestShutdownPolicies(t *testing.T) {
	f := flags(OneForOne, 5, 5)
	runScripts(t, []script{{
		name:     "Graceful: Shutdown, then Kill at the deadline",
		flags:    f,
		children: []Spec{w("a", Permanent, grace(250))},
		steps: cat(startAll("a"), []step{
			{0, "req 1 terminate a", "shutdown a#1; arm t1 250ms"},
			{0, "req 2 which", ""}, // waits for the stop
			{0, "timer 1", "kill a#1"},
			{0, "timer 1", ""},
			{0, "exit 1 killed", "reply r1 Ok; reply r2 Ok([a:Worker:Stopped])"},
		}),
	}, {
		name:     "Graceful: a child that exits in time cancels the deadline",
		flags:    f,
		children: []Spec{w("a", Permanent, grace(250))},
		steps: cat(startAll("a"), []step{
			{0, "req 1 terminate a", "shutdown a#1; arm t1 250ms"},
			{0, "exit 1 shutdown", "cancel t1; reply r1 Ok"},
			{0, "timer 1", ""},
		}),
	}, {
		name:     "Graceful(0) against a child that holds on: killed",
		flags:    f,
		children: []Spec{w("a", Permanent, grace(0))},
		steps: cat(startAll("a"), []step{
			{0, "req 1 terminate a", "shutdown a#1; arm t1 0ms"},
			{0, "timer 1", "kill a#1"},
			{0, "exit 1 killed", "reply r1 Ok"},
		}),
	}, {
		name:     "Infinity: Shutdown and wait, whatever happens meanwhile",
		flags:    f,
		children: []Spec{w("a", Permanent, inf)},
		steps: cat(startAll("a"), []step{
			{0, "req 1 terminate a", "shutdown a#1"},
			{0, "timer 1", ""},
			{100, "exit 1 shutdown", "reply r1 Ok"},
		}),
	}, {
		name:     "Immediate: Kill at once",
		flags:    f,
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{0, "req 1 terminate a", "kill a#1"},
			{0, "exit 1 killed", "reply r1 Ok"},
		}),
	}})
}

func TestIntensity(t *testing.T) {
	two := []Spec{w("a", Permanent, imm), w("b", Permanent, grace(5))}
	runScripts(t, []script{{
		name:     "a restart exactly at then+period still counts",
		flags:    flags(OneForOne, 1, 5),
		children: two,
		steps: cat(startAll("a", "b"), []step{
			{10, "exit 1 fault:1", "start a#3"},
			{10, "ack 3", ""},
			{15, "exit 3 fault:1", "shutdown b#2; arm t1 5ms"},
			{15, "exit 2 shutdown", "cancel t1; retire shutdown"},
		}),
	}, {
		name:     "one second later it no longer counts",
		flags:    flags(OneForOne, 1, 5),
		children: two,
		steps: cat(startAll("a", "b"), []step{
			{10, "exit 1 fault:1", "start a#3"},
			{10, "ack 3", ""},
			{16, "exit 3 fault:1", "start a#4"},
			{16, "ack 4", ""},
			{21, "exit 4 fault:1", "shutdown b#2; arm t1 5ms"},
		}),
	}, {
		name:     "intensity 0: the first automatic restart stops everything in reverse order",
		flags:    flags(OneForOne, 0, 1),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, inf)},
		steps: cat(startAll("a", "b", "c"), []step{
			{0, "exit 2 fault:1", "shutdown c#3"},
			{0, "exit 3 shutdown", "kill a#1"},
			{0, "req 1 which", ""},
			{0, "exit 1 killed", "reply r1 Err(SupervisorStopped); retire shutdown"},
			{0, "req 2 stop", "reply r2 Err(SupervisorStopped)"},
		}),
	}, {
		name:     "a Transient normal exit is no restart and costs nothing",
		flags:    flags(OneForOne, 0, 1),
		children: []Spec{w("a", Transient, imm)},
		steps: cat(startAll("a"), []step{
			{0, "exit 1 shutdown_detail:done", ""},
			{0, "req 1 which", "reply r1 Ok([a:Worker:Stopped])"},
		}),
	}, {
		name:     "a failed restart leaves the child Restarting; each retry is charged again",
		flags:    flags(OneForOne, 2, 10),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm)},
		steps: cat(startAll("a", "b"), []step{
			{1, "exit 1 fault:1", "start a#3"},        // charge 1
			{1, "fail 3 failure:again", "retry a t1"}, // Restarting
			{1, "req 1 which", "reply r1 Ok([a:Worker:Restarting, b:Worker:Running#2])"},
			{1, "req 2 current a", "reply r2 Err(Restarting)"},
			{2, "retry 1", "start a#4"},               // charge 2
			{2, "exit 4 failure:again", "retry a t2"}, // exits before acking: failed again
			{3, "retry 2", "kill b#2"},                // charge 3 > 2: shut down
			{3, "exit 2 killed", "retire shutdown"},
		}),
	}, {
		name:     "a retry that succeeds puts the child back to Running",
		flags:    flags(OneForOne, 5, 10),
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{1, "exit 1 fault:1", "start a#2"},
			{1, "fail 2 failure:x", "retry a t1"},
			{1, "retry 1", "start a#3"},
			{1, "ack 3", ""},
			{1, "retry 1", ""}, // a duplicate retry finds nothing to do
			{1, "req 1 current a", "reply r1 Ok(#3)"},
		}),
	}, {
		name:     "requests queued before a retry are answered first (OTP's try_again cast)",
		flags:    flags(OneForOne, 5, 10),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm)},
		steps: cat(startAll("a", "b"), []step{
			{1, "exit 1 fault:1", "start a#3"},
			{1, "req 1 which", ""},
			{1, "fail 3 failure:x", "retry a t1; reply r1 Ok([a:Worker:Restarting, b:Worker:Running#2])"},
			{1, "req 2 terminate a", "reply r2 Ok"}, // cancels the pending retry
			{1, "retry 1", ""},
			{1, "req 3 which", "reply r3 Ok([a:Worker:Stopped, b:Worker:Running#2])"},
		}),
	}, {
		name:     "a failed group restart: the failed child is Restarting, the rest of the group Stopped; the retry restarts the group again",
		flags:    flags(OneForAll, 5, 10),
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm), w("c", Permanent, imm)},
		steps: cat(startAll("a", "b", "c"), []step{
			{1, "exit 1 fault:1", "kill c#3"},
			{1, "exit 3 killed", "kill b#2"},
			{1, "exit 2 killed", "start a#4"},
			{1, "ack 4", "start b#5"},
			{1, "fail 5 failure:x", "retry b t1"},
			{1, "req 1 which", "reply r1 Ok([a:Worker:Running#4, b:Worker:Restarting, c:Worker:Stopped])"},
			{2, "retry 1", "kill a#4"},
			{2, "exit 4 killed", "start a#6"},
			{2, "ack 6", "start b#7"},
			{2, "ack 7", "start c#8"},
			{2, "ack 8", ""},
		}),
	}, {
		name:     "a group restart resets a Restarting member: its own pending retry does nothing",
		flags:    flags(OneForAll, 10, 10),
		children: []Spec{w("x", Permanent, imm), w("y", Permanent, imm), w("z", Permanent, imm)},
		steps: cat(startAll("x", "y", "z"), []step{
			{1, "exit 1 fault:1", "kill z#3"},
			{1, "exit 3 killed", "kill y#2"},
			{1, "exit 2 killed", "start x#4"},
			{1, "ack 4", "start y#5"},
			{1, "ack 5", "start z#6"},
			{1, "fail 6 failure:z", "retry z t1"}, // z Restarting, retry t1 pending
			{1, "exit 4 fault:1", "kill y#5"},     // x crashes before t1 is handled
			{1, "exit 5 killed", "start x#7"},
			{1, "fail 7 failure:x", "retry x t2"}, // x fails; y and z stay Stopped
			{1, "req 1 which", "reply r1 Ok([x:Worker:Restarting, y:Worker:Stopped, z:Worker:Stopped])"},
			{1, "retry 1", ""}, // z's old retry: z is no longer Restarting
			{1, "retry 2", "start x#8"},
			{1, "ack 8", "start y#9"},
			{1, "ack 9", "start z#10"},
			{1, "ack 10", ""},
		}),
	}, {
		name:     "manual restarts never count against the intensity",
		flags:    flags(OneForOne, 0, 10),
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{1, "req 1 terminate a", "kill a#1"},
			{1, "exit 1 killed", "reply r1 Ok"},
			{1, "req 2 restart a", "start a#2"},
			{1, "ack 2", "reply r2 Ok"},
			{1, "req 3 terminate a", "kill a#2"},
			{1, "exit 2 killed", "reply r3 Ok"},
			{1, "req 4 restart a", "start a#3"},
			{1, "ack 3", "reply r4 Ok"},
		}),
	}})
}

func TestStaleExits(t *testing.T) {
	runScripts(t, []script{{
		name:     "an exit of an earlier generation is ignored",
		flags:    flags(OneForOne, 1, 60),
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{1, "exit 1 fault:1", "start a#2"},
			{1, "ack 2", ""},
			{1, "exit 1 fault:1", ""}, // would exceed intensity 1 if it counted
			{1, "exit 7 fault:1", ""}, // never started
			{1, "req 1 current a", "reply r1 Ok(#2)"},
		}),
	}, {
		name:     "children the supervisor stopped never restart on their own account",
		flags:    flags(OneForOne, 5, 60),
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{1, "req 1 terminate a", "kill a#1"},
			{1, "exit 1 killed", "reply r1 Ok"},
			{1, "exit 1 killed", ""},
			{1, "req 2 which", "reply r2 Ok([a:Worker:Stopped])"},
		}),
	}})
}

func TestAutoShutdown(t *testing.T) {
	any := Flags{Strategy: OneForOne, Intensity: 5, PeriodSeconds: 5, AutoShutdown: AnySignificant}
	all := Flags{Strategy: OneForOne, Intensity: 5, PeriodSeconds: 5, AutoShutdown: AllSignificant}
	runScripts(t, []script{{
		name:     "AnySignificant: the first natural exit of a significant child stops the supervisor",
		flags:    any,
		children: []Spec{w("a", Permanent, imm), w("s", Transient, imm, "sig"), w("c", Permanent, imm)},
		steps: cat(startAll("a", "s", "c"), []step{
			{1, "exit 2 normal", "kill c#3"},
			{1, "exit 3 killed", "kill a#1"},
			{1, "exit 1 killed", "retire shutdown"},
		}),
	}, {
		name:     "AnySignificant: a significant child that is restarted does not count",
		flags:    any,
		children: []Spec{w("s", Transient, imm, "sig")},
		steps: cat(startAll("s"), []step{
			{1, "exit 1 fault:1", "start s#2"},
			{1, "ack 2", ""},
		}),
	}, {
		name:     "AnySignificant: a Temporary significant child counts for any reason",
		flags:    any,
		children: []Spec{w("s", Temporary, imm, "sig"), w("b", Permanent, imm)},
		steps: cat(startAll("s", "b"), []step{
			{1, "exit 1 fault:3", "kill b#2"},
			{1, "exit 2 killed", "retire shutdown"},
		}),
	}, {
		name:     "AllSignificant: only when no significant child is left running",
		flags:    all,
		children: []Spec{w("s1", Temporary, imm, "sig"), w("s2", Transient, imm, "sig"), w("w", Permanent, imm)},
		steps: cat(startAll("s1", "s2", "w"), []step{
			{1, "exit 1 normal", ""},
			{1, "req 1 which", "reply r1 Ok([s2:Worker:Running#2, w:Worker:Running#3])"},
			{1, "exit 2 shutdown", "kill w#3"},
			{1, "exit 3 killed", "retire shutdown"},
		}),
	}, {
		name:     "terminate_child of a significant child never triggers auto-shutdown",
		flags:    any,
		children: []Spec{w("s", Transient, imm, "sig"), w("b", Permanent, imm)},
		steps: cat(startAll("s", "b"), []step{
			{1, "req 1 terminate s", "kill s#1"},
			{1, "exit 1 killed", "reply r1 Ok"},
			{1, "req 2 which", "reply r2 Ok([s:Worker:Stopped, b:Worker:Running#2])"},
		}),
	}, {
		name:     "a significant child stopped by a group restart never triggers auto-shutdown",
		flags:    Flags{Strategy: OneForAll, Intensity: 5, PeriodSeconds: 5, AutoShutdown: AnySignificant},
		children: []Spec{w("s", Transient, imm, "sig"), w("b", Permanent, imm)},
		steps: cat(startAll("s", "b"), []step{
			{1, "exit 2 fault:1", "kill s#1"},
			{1, "exit 1 killed", "start s#3"},
			{1, "ack 3", "start b#4"},
			{1, "ack 4", ""},
		}),
	}, {
		name:     "Never: significant children cannot even be given",
		flags:    flags(OneForOne, 1, 1),
		children: nil,
		extra:    []Spec{w("s", Transient, imm, "sig")},
		steps: []step{
			{0, "begin", "startup Ok"},
			{0, "req 1 start s", "reply r1 Err(InvalidOptions)"},
		},
	}})
}

func TestRequests(t *testing.T) {
	f := flags(OneForOne, 5, 5)
	abc := []Spec{w("a", Permanent, imm), w("t", Temporary, imm), w("c", Transient, imm)}
	runScripts(t, []script{{
		name:     "terminate_child",
		flags:    f,
		children: abc,
		steps: cat(startAll("a", "t", "c"), []step{
			{0, "req 1 terminate zz", "reply r1 Err(Removed)"},
			{0, "req 2 terminate t", "kill t#2"},
			{0, "exit 2 killed", "reply r2 Ok"},
			{0, "req 3 terminate a", "kill a#1"},
			{0, "exit 1 killed", "reply r3 Ok"},
			{0, "req 4 terminate a", "reply r4 Ok"}, // already Stopped: nothing to do
			{0, "req 5 which", "reply r5 Ok([a:Worker:Stopped, c:Worker:Running#3])"},
		}),
	}, {
		name:     "restart_child",
		flags:    f,
		children: abc,
		steps: cat(startAll("a", "t", "c"), []step{
			{0, "req 1 restart zz", "reply r1 Err(Removed)"},
			{0, "req 2 restart a", "reply r2 Err(AlreadyRunning)"},
			{0, "req 3 terminate a", "kill a#1"},
			{0, "exit 1 killed", "reply r3 Ok"},
			{0, "req 4 restart a", "start a#4"},
			{0, "fail 4 failure:no", `reply r4 Err(StartFailed("a", failure:no))`},
			{0, "req 5 current a", "reply r5 Err(Stopped)"},
			{0, "req 6 restart a", "start a#5"},
			{0, "ignore 5", "reply r6 Ok"},
			{0, "req 7 current a", "reply r7 Err(Stopped)"},
			{0, "req 8 restart a", "start a#6"},
			{0, "ack 6", "reply r8 Ok"},
			{0, "req 9 current a", "reply r9 Ok(#6)"},
		}),
	}, {
		name:     "delete_child",
		flags:    f,
		children: abc,
		steps: cat(startAll("a", "t", "c"), []step{
			{0, "req 1 delete zz", "reply r1 Err(Removed)"},
			{0, "req 2 delete a", "reply r2 Err(AlreadyRunning)"},
			{0, "req 3 terminate a", "kill a#1"},
			{0, "exit 1 killed", "reply r3 Ok"},
			{0, "req 4 delete a", "reply r4 Ok"},
			{0, "req 5 delete a", "reply r5 Err(Removed)"},
			{0, "req 6 which", "reply r6 Ok([t:Worker:Running#2, c:Worker:Running#3])"},
		}),
	}, {
		name:     "restart_child and delete_child refuse a Restarting child",
		flags:    f,
		children: []Spec{w("a", Permanent, imm)},
		steps: cat(startAll("a"), []step{
			{1, "exit 1 fault:1", "start a#2"},
			{1, "fail 2 failure:x", "retry a t1"},
			{1, "req 1 restart a", "reply r1 Err(Restarting)"},
			{1, "req 2 delete a", "reply r2 Err(Restarting)"},
		}),
	}, {
		name:     "start_child",
		flags:    f,
		children: []Spec{w("a", Permanent, imm)},
		extra: []Spec{
			w("a", Permanent, imm), w("n", Transient, imm), w("bad", Permanent, grace(600001)),
			w("f", Permanent, imm), w("ti", Temporary, imm), w("pi", Permanent, imm),
		},
		steps: cat(startAll("a"), []step{
			{0, "req 1 start a", "reply r1 Err(AlreadyRunning)"},
			{0, "req 2 start bad", "reply r2 Err(InvalidOptions)"},
			{0, "req 3 start n", "start n#2"},
			{0, "req 4 which", ""},
			{0, "ack 2", "reply r3 Ok; reply r4 Ok([a:Worker:Running#1, n:Worker:Running#2])"},
			{0, "req 5 start f", "start f#3"},
			{0, "fail 3 fault:7", `reply r5 Err(StartFailed("f", fault:7))`},
			{0, "req 6 start ti", "start ti#4"},
			{0, "ignore 4", "reply r6 Ok"},
			{0, "req 7 start pi", "start pi#5"},
			{0, "ignore 5", "reply r7 Ok"},
			{0, "req 8 start pi", "reply r8 Err(AlreadyPresent)"},
			{0, "req 9 which", "reply r9 Ok([a:Worker:Running#1, n:Worker:Running#2, pi:Worker:Stopped])"},
			// A dynamic child is stopped first (reverse order) by stop.
			{0, "req 10 stop", "kill n#2"},
			{0, "exit 2 killed", "kill a#1"},
			{0, "exit 1 killed", "reply r10 Ok; retire normal"},
		}),
	}, {
		name:     "current",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), br("b", flags(OneForOne, 1, 1), Policy{Shutdown: inf})},
		steps: cat(startAll("a", "b"), []step{
			{0, "req 1 current a", "reply r1 Ok(#1)"},
			{0, "req 2 current a other", "reply r2 Err(WrongChildKey)"},
			{0, "req 3 current zz", "reply r3 Err(Removed)"},
			{0, "req 4 current b", "reply r4 Err(WrongChildKey)"},
			{0, "req 5 which", "reply r5 Ok([a:Worker:Running#1, b:Branch:Running#2])"},
		}),
	}, {
		name:     "stop: every child in reverse order, Ok, then exit Normal; later requests SupervisorStopped",
		flags:    f,
		children: []Spec{w("a", Permanent, grace(20)), w("b", Temporary, inf), w("c", Transient, imm)},
		steps: cat(startAll("a", "b", "c"), []step{
			{0, "req 1 stop", "kill c#3"},
			{0, "req 2 which", ""},
			{0, "exit 3 killed", "shutdown b#2"},
			{0, "exit 2 shutdown", "shutdown a#1; arm t1 20ms"},
			{0, "req 3 stop", ""},
			{0, "exit 1 shutdown", "cancel t1; reply r1 Ok; reply r2 Err(SupervisorStopped); reply r3 Err(SupervisorStopped); retire normal"},
			{0, "req 4 current a", "reply r4 Err(SupervisorStopped)"},
			{0, "exit 1 shutdown", ""},
		}),
	}, {
		name:     "the parent's exit stops the children and retires with its reason",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, inf)},
		steps: cat(startAll("a", "b"), []step{
			{0, "parent normal", "shutdown b#2"},
			{0, "exit 2 shutdown", "kill a#1"},
			{0, "exit 1 killed", "retire normal"},
		}),
	}, {
		name:     "a parent exit during a restart waits until the restart is done",
		flags:    f,
		children: []Spec{w("a", Permanent, imm), w("b", Permanent, imm)},
		steps: cat(startAll("a", "b"), []step{
			{0, "exit 1 fault:1", "start a#3"},
			{0, "parent fault:3", ""},
			{0, "ack 3", "kill b#2"},
			{0, "exit 2 killed", "kill a#3"},
			{0, "exit 3 killed", "retire fault:3"},
		}),
	}})
}

func TestRequestQueue(t *testing.T) {
	steps := cat(startAll("a"), []step{{0, "req 1000 terminate a", "kill a#1"}})
	var answers []string
	for i := 1; i <= MaxQueued; i++ {
		steps = append(steps, step{0, "req " + strconv.Itoa(i) + " current a", ""})
		answers = append(answers, "reply r"+strconv.Itoa(i)+" Err(Stopped)")
	}
	steps = append(steps,
		step{0, "req 65 which", "reply r65 Err(ResourceLimit)"},
		step{0, "req 66 stop", "reply r66 Err(ResourceLimit)"},
		step{0, "exit 1 killed", "reply r1000 Ok; " + strings.Join(answers, "; ")},
		step{0, "req 67 current a", "reply r67 Err(Stopped)"},
	)
	runScripts(t, []script{{
		name:     "64 requests wait while the supervisor is busy, more answer ResourceLimit",
		flags:    flags(OneForOne, 1, 1),
		children: []Spec{w("a", Permanent, imm)},
		steps:    steps,
	}})
}

func TestStartChildLimit(t *testing.T) {
	full := make([]Spec, MaxChildren)
	for i := range full {
		full[i] = w(fmt.Sprintf("c%d", i), Permanent, imm)
	}
	full[0].Policy.Restart = Temporary
	m, err := New(Config{Flags: flags(OneForOne, 1, 1), Children: full})
	if err != nil {
		t.Fatal(err)
	}
	m.Step(0, Begin{})
	for g := Gen(1); g <= MaxChildren; g++ {
		m.Step(0, StartResult{Gen: g, Outcome: Acked})
	}
	if got := Format(m.Step(0, Request{ID: 1, Op: OpStartChild, Spec: w("x", Permanent, imm)})); got != "reply r1 Err(ResourceLimit)" {
		t.Errorf("1,025th child: %s", got)
	}
	// Once the Temporary child is gone there is room for one more.
	if got := Format(m.Step(0, ChildExit{Gen: 1, Reason: Normal})); got != "" {
		t.Errorf("temporary exit: %s", got)
	}
	if got := Format(m.Step(0, Request{ID: 2, Op: OpStartChild, Spec: w("x", Permanent, imm)})); got != "start x#1025" {
		t.Errorf("1,024th child: %s", got)
	}
}
