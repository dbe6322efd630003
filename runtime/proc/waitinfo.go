package proc

import "github.com/morrow-lang/morrow/runtime/vm"

// WaitInfo is what a process is doing, as the process table shows it
// (runtime/sched, table.go): the deadlock report of `morrow run`, the
// SIGQUIT table, the REPL's :actors.
type WaitInfo struct {
	Status Status
	// Site is where the process stands (its innermost function of the
	// program and line); HasSite is false for a process without a State
	// (a supervisor) and for a running one, whose frames cannot be read.
	Site    vm.Site
	HasSite bool
	// Receive: it waits in a receive (Event: a receive_event; Timeout: a
	// timer is armed for it).
	Receive, Event, Timeout bool
	// CallTo: it waits in a Process.call to this process.
	CallTo *Process
	// SendWaitTo: it waits in send_wait for room in this process's
	// mailbox.
	SendWaitTo *Process
	// Native: it waits in a native wait (a Supervisor operation), which
	// names the operation and the process that will answer.
	Native     bool
	NativeOn   *Process
	NativeWhat string
	// Queued is the number of cells in its mailbox.
	Queued int
}

// WaitInfo returns what p is doing. It takes p's lock and reads the
// receive side and the State's frames only when p is not running (the
// scheduler that runs p owns them then), so it may be called from any
// goroutine at any time; the table it feeds is a snapshot of each process
// at its own moment.
func (p *Process) WaitInfo() WaitInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	w := WaitInfo{Status: p.status}
	if p.status == Running || p.status == Done {
		return w
	}
	w.Queued = len(p.box) - p.head + len(p.inbox)
	if p.State != nil {
		w.Site, w.HasSite = p.State.WaitSite()
	}
	if p.status != Parked {
		return w
	}
	if x := p.rc.Load(); x != nil && x.blocked {
		if c := x.call; c != nil {
			w.CallTo = c.target
		}
		if s := x.sw; s != nil {
			w.SendWaitTo = s.target
		}
		w.Timeout = p.armed != 0
		return w
	}
	if n := p.nwait; n != nil {
		w.Native, w.NativeOn, w.NativeWhat = true, n.On, n.What
		return w
	}
	if p.Wait.Active {
		w.Receive, w.Event = true, p.Wait.Event
		w.Timeout = p.armed != 0 && p.armed == p.Wait.Epoch
	}
	return w
}

// StartupOpen reports whether p is a supervised child that has not yet
// ended its start-up (Process.init_ack, init_ignore or init_fail), and
// the supervisor that waits for it. Like WaitInfo it reads p's state
// only when p is not running.
func (p *Process) StartupOpen() (sup *Process, open bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.status == Running || p.status == Done || p.Startup == nil || p.Startup.Done {
		return nil, false
	}
	return p.Startup.Sup, true
}
