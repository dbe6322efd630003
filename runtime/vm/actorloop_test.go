package vm

import (
	"fmt"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm/vmtest"
)

// mailHost is a Host with a mailbox of its own: SEND appends to it
// (whatever the pid), the receive instructions work on it, and RECV_WAIT
// times out when nothing is left past the cursor. It asks for
// preemption at every preempt-th host call (0: never), logs every call,
// and answers a SEND of faultOn with fault 9.
type mailHost struct {
	testHost
	st      *State
	box     []value.Value
	cursor  int
	calls   int
	preempt int
	faultOn int64
	log     []string
}

func (h *mailHost) call(what string) {
	h.calls++
	h.log = append(h.log, fmt.Sprintf("%s@%d", what, h.st.Steps()))
	if h.preempt > 0 && h.calls%h.preempt == 0 {
		h.st.Preempt()
	}
}

func (h *mailHost) RecvStart(timeout int64, event bool) (value.Value, bool, *fault.Fault) {
	h.call(fmt.Sprintf("start(%d,%v)", timeout, event))
	h.cursor = 0
	v, ok := h.peek()
	return v, ok, nil
}

func (h *mailHost) peek() (value.Value, bool) {
	if h.cursor < len(h.box) {
		return h.box[h.cursor], true
	}
	return value.Unit, false
}

func (h *mailHost) RecvPeek() (value.Value, bool) {
	h.call("peek")
	return h.peek()
}

func (h *mailHost) RecvTake() {
	h.call("take")
	h.box = append(h.box[:h.cursor], h.box[h.cursor+1:]...)
	h.cursor = 0
}

func (h *mailHost) RecvSkip() {
	h.call("skip")
	h.cursor++
}

func (h *mailHost) RecvWait() WaitResult {
	h.call("wait")
	if h.cursor < len(h.box) {
		return WaitRetry
	}
	return WaitTimeout
}

func (h *mailHost) Send(pid, msg value.Value) (value.Value, *fault.Fault) {
	h.call("send")
	if h.faultOn != 0 && msg.IsInt() && msg.AsInt() == h.faultOn {
		return value.Unit, fault.New(fault.Resource)
	}
	h.box = append(h.box, msg)
	return value.Ok(value.Unit), nil
}

// actorLoop sends i and -1 for i in 0..29 and receives after each pair
// the first message >= 0, skipping the -1s (which pile up, so the scan
// gets longer); a receive that finds none times out. It returns the sum
// of the messages taken. The receive's timeout (slot 3) and
// receive_event flag are operands of RECV_START: %s.
const actorLoop = `
func main locals=4
    INT 0
    STORE 0
    INT 0
    STORE 2
    INT 5
    STORE 3
loop:
    LOAD 0
    INT 30
    LT
    JUMP_IF_FALSE done
    INT 0
    LOAD 0
    SEND
    POP
    INT 0
    INT -1
    SEND
    POP
    LOAD 0
    INT 1
    ADD
    STORE 0
    RECV_START %s
scan:
    RECV_PEEK wait
    STORE 1
    LOAD 1
    INT 0
    GE
    JUMP_IF_FALSE skip
    RECV_TAKE
    LOAD 2
    LOAD 1
    ADD
    STORE 2
    JUMP loop
skip:
    RECV_SKIP
    JUMP scan
wait:
    RECV_WAIT scan
    JUMP loop
done:
    LOAD 2
    RETURN
`

// runActors runs src to completion in slices of budget steps with a
// mailHost, with or without the fast loop.
func runActors(t *testing.T, img *Image, budget, preempt int, faultOn int64, general bool) (string, []string, int64, int) {
	t.Helper()
	st, err := NewState(img, img.Prog.Entry, nil)
	if err != nil {
		t.Fatal(err)
	}
	st.generalOnly = general
	h := &mailHost{st: st, preempt: preempt, faultOn: faultOn}
	runs := 0
	for {
		o := Run(st, h, budget)
		runs++
		if o.Status != StatusYield {
			return describe(o), h.log, st.Steps(), runs
		}
		if runs > 1_000_000 {
			t.Fatal("program does not finish")
		}
	}
}

// TestActorInstructionsFromTheLoop: SEND, RECV_START (with the RECV_PEEK
// after it) and RECV_TAKE run from the fast loop (actor.go) with the
// charges, budget checks, preemptions and faults of the general path:
// for every budget and preemption pattern both give the same outcome,
// the same host calls at the same step counts, the same total steps and
// the same number of Runs.
func TestActorInstructionsFromTheLoop(t *testing.T) {
	for _, operands := range []string{"-1 0", "3 0", "-1 1"} {
		img := mustLoad(t, vmtest.MustAssemble(fmt.Sprintf(actorLoop, operands)))
		for _, faultOn := range []int64{0, 17} {
			for _, preempt := range []int{0, 1, 2, 3, 7} {
				for budget := 1; budget <= 40; budget++ {
					o, log, steps, runs := runActors(t, img, budget, preempt, faultOn, false)
					og, logg, stepsg, runsg := runActors(t, img, budget, preempt, faultOn, true)
					if o != og || steps != stepsg || runs != runsg || fmt.Sprint(log) != fmt.Sprint(logg) {
						t.Fatalf("RECV_START %s, fault on %d, preempt %d, budget %d: fast loop and general path differ:\n fast: %s, %d steps, %d runs\n general: %s, %d steps, %d runs\n fast calls: %v\n general calls: %v",
							operands, faultOn, preempt, budget, o, steps, runs, og, stepsg, runsg, log, logg)
					}
					want := "done 435"
					if faultOn != 0 {
						want = "fault"
					}
					if len(o) < len(want) || o[:len(want)] != want {
						t.Fatalf("RECV_START %s, fault on %d: outcome %s, want %s", operands, faultOn, o, want)
					}
				}
			}
		}
	}
}
