package proc

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"sync"

	"github.com/morrow-lang/morrow/runtime/value"
)

// The name registry (docs/reference/runtime.md#features-beyond-the-core-language, docs/supervisors.md).
//
// A name maps to an address (a *Process) together with the run-time key
// of its mailbox type: a canonical rendering of M that the code generator
// passes from the checker's types (types.MailboxKey). whereis answers
// only when the key it is asked for is the registered one, so a program
// never obtains a Pid(M) at the wrong M. One name per process, one
// process per name, as in OTP.
//
// Lock order: the registry lock, then a process lock, never the other
// way round. Register checks under the process lock that the mailbox is
// still open; Retire frees the name after it has closed the mailbox
// (step 3 of docs/reference/runtime.md#retiring-a-process, before any exit signal or Down is
// published), so a register that raced with the exit either saw the
// mailbox closed or inserted a name that Retire then removes, and a
// process that has received the Down never finds the old name.

// MaxNameBytes is the longest registered name, in UTF-8 bytes.
const MaxNameBytes = 4096

type regEntry struct {
	p   *Process
	key string
}

// registry is the invocation's name table.
type registry struct {
	mu     sync.Mutex
	names  map[string]regEntry
	byProc map[*Process]string
}

// Register binds name to p whose mailbox type has run-time key key. It
// returns Ok(()) or the Err(Process.Error) of Process.register: the
// name is empty, longer than MaxNameBytes or taken, p is dead, p
// already has a name, or p is not a process (a reply address).
func (inv *Invocation) Register(name string, pid value.Value, key string) value.Value {
	p := Of(pid)
	if p == nil || pid.Kind() != value.KPid || pid.Payload() <= 0 {
		return ptype.ErrProcess(ptype.ErrInvalidOptions)
	}
	if p.epoch != inv.Epoch {
		return ptype.ErrProcess(ptype.ErrForeignInvocation)
	}
	if name == "" || len(name) > MaxNameBytes || p.Kind == KindRoot {
		return ptype.ErrProcess(ptype.ErrInvalidOptions)
	}
	r := &inv.rc.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, taken := r.names[name]; taken {
		return ptype.ErrProcess(ptype.ErrInvalidOptions)
	}
	if _, named := r.byProc[p]; named {
		return ptype.ErrProcess(ptype.ErrInvalidOptions)
	}
	p.mu.Lock()
	dead := p.closed || p.phase != phaseLive
	p.mu.Unlock()
	if dead {
		return ptype.ErrProcess(ptype.ErrInvalidOptions)
	}
	if r.names == nil {
		r.names = map[string]regEntry{}
		r.byProc = map[*Process]string{}
	}
	r.names[name] = regEntry{p: p, key: key}
	r.byProc[p] = name
	return okUnitValue
}

// Whereis returns Some(pid) when name is registered to a live process
// whose mailbox key is key, else None.
func (inv *Invocation) Whereis(name, key string) value.Value {
	r := &inv.rc.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.names[name]
	if !ok || e.key != key {
		return value.None()
	}
	e.p.mu.Lock()
	dead := e.p.closed
	e.p.mu.Unlock()
	if dead {
		return value.None()
	}
	return value.Some(e.p.Pid())
}

// Unregister removes name and reports whether it was registered.
func (inv *Invocation) Unregister(name string) bool {
	r := &inv.rc.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.names[name]
	if !ok {
		return false
	}
	delete(r.names, name)
	delete(r.byProc, e.p)
	return true
}

// NameOf returns the name registered to p, if any.
func (inv *Invocation) NameOf(p *Process) (string, bool) {
	r := &inv.rc.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	n, ok := r.byProc[p]
	return n, ok
}

// freeName is part of step 3 of docs/reference/runtime.md#retiring-a-process: the retiring q (its
// mailbox already closed) loses its name.
func (inv *Invocation) freeName(q *Process) {
	r := &inv.rc.reg
	r.mu.Lock()
	if name, ok := r.byProc[q]; ok {
		delete(r.byProc, q)
		delete(r.names, name)
	}
	r.mu.Unlock()
}

var okUnitValue = value.Ok(value.Unit)
