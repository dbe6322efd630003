package supervisor_test

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/supervisor"
)

// The example of the package comment, executed.
func ExampleMachine() {
	key := func(n uint64) uint64 { return n }
	m, err := supervisor.New(supervisor.Config{
		Flags: supervisor.Flags{Strategy: supervisor.OneForOne, Intensity: 3, PeriodSeconds: 5},
		Children: []supervisor.Spec{
			{Name: "a", Key: key(1), Policy: supervisor.Policy{Restart: supervisor.Permanent, Shutdown: supervisor.Shutdown{Kind: supervisor.Immediate}}},
			{Name: "b", Key: key(2), Policy: supervisor.Policy{Restart: supervisor.Permanent, Shutdown: supervisor.Shutdown{Kind: supervisor.Graceful, Ms: 5000}}},
		},
	})
	if err != nil {
		panic(err)
	}
	step := func(now int64, in supervisor.Input) {
		fmt.Println(supervisor.Format(m.Step(now, in)))
	}
	step(0, supervisor.Begin{})
	step(0, supervisor.StartResult{Gen: 1, Outcome: supervisor.Acked})
	step(0, supervisor.StartResult{Gen: 2, Outcome: supervisor.Acked})
	step(7, supervisor.ChildExit{Gen: 1, Reason: supervisor.Reason{Kind: supervisor.ReasonFault, Code: 3}})
	step(7, supervisor.StartResult{Gen: 3, Outcome: supervisor.Acked})
	step(8, supervisor.Request{ID: 5, Op: supervisor.OpStop})
	step(8, supervisor.ChildExit{Gen: 2, Reason: supervisor.ShutdownExit})
	step(8, supervisor.ChildExit{Gen: 3, Reason: supervisor.Killed})
	// Output:
	// start a#1
	// start b#2
	// startup Ok
	// start a#3
	//
	// shutdown b#2; arm t1 5000ms
	// cancel t1; kill a#3
	// reply r5 Ok; retire normal
}
