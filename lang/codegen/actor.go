package codegen

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"fmt"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// Actor lowering
//
// The builtins that the registry (stdlib/builtins) implements as
// instructions name a Lowering; lowerings maps each to its code. spawn,
// supervise, Process.spawn, Process.spawn_monitor and Process.spawn_link
// compile to SPAWN with the mode of stdlib/process (supervise packs its
// two arguments into a tuple first), send and Process.self to SEND and
// SELF, Process.sleep to a receive with only a timeout (see sleep),
// Process.call to CALL_REPLY, a call of the request function and
// CALL_WAIT (see processCall), and Process.send_wait to SEND_WAIT.
// The other Process operations are natives (stdlib/process).
//
// receive and receive_event compile to the RECV_* protocol of
// bytecode/opcodes.go:
//
//	    <timeout expression>; STORE t      (only with an `after` arm)
//	    RECV_START t, event
//	scan:
//	    RECV_PEEK wait
//	    STORE m
//	    <arm 1: pattern tests on m, guard; JUMP_IF_FALSE next1>
//	    RECV_TAKE; <arm 1 body>; JUMP end (or return it in tail position)
//	next1: ...
//	    RECV_SKIP; JUMP scan             (when no arm is unconditional)
//	wait:
//	    RECV_WAIT scan
//	    <timeout body>                   (FAIL when there is no `after` arm)
//	end:
//
// The library types (Process.ExitReason, Error, Event, DemonitorOptions)
// enter a program's type table the first time one of their constructors
// is used, as copies of the registry's run-time descriptors.

// ctor looks up a constructor by name; constructors of library types
// (Process.X, Process.Type.X) are added on first use.
func (c *compiler) ctor(name string) (ctorInfo, bool) {
	if ci, ok := c.ctors[name]; ok {
		return ci, true
	}
	t, tag, ok := builtins.FindCtor(name)
	if !ok || t.Info() == nil {
		return ctorInfo{}, false
	}
	idx, known := c.typeIndex[t.Name]
	if !known {
		cp := *t.Info()
		idx = c.addType(&cp)
	}
	ci := ctorInfo{idx, tag, len(t.Variants[tag].Fields)}
	c.ctors[name] = ci
	return ci, true
}

// processType returns the type table index of a library type named in a
// typed pattern (`r: Process.ExitReason` on a union), adding it on first
// use like its constructors.
func (c *compiler) processType(name string) (int, bool) {
	t := builtins.LookupType(name)
	if t == nil || t.Info() == nil {
		return 0, false
	}
	cp := *t.Info()
	return c.addType(&cp), true
}

// lowerings gives the code of each Lowering of the builtin registry,
// emitted after the arguments.
var lowerings = map[builtins.Lowering]func(fs *fnState){
	builtins.LowerSpawn:         spawnMode(ptype.SpawnLegacy),
	builtins.LowerSpawnIsolated: spawnMode(ptype.SpawnIsolated),
	builtins.LowerSpawnMonitor:  spawnMode(ptype.SpawnMonitor),
	builtins.LowerSpawnLink:     spawnMode(ptype.SpawnLink),
	builtins.LowerSupervise: func(fs *fnState) {
		fs.emit(bytecode.TUPLE, 2, 0)
		fs.emit(bytecode.SPAWN, ptype.SpawnSupervise, 0)
	},
	builtins.LowerSend:  func(fs *fnState) { fs.emit(bytecode.SEND, 0, 0) },
	builtins.LowerSelf:  func(fs *fnState) { fs.emit(bytecode.SELF, 0, 0) },
	builtins.LowerSleep: (*fnState).sleep,
	builtins.LowerCall:  (*fnState).processCall,
	builtins.LowerSendWait: func(fs *fnState) {
		fs.emit(bytecode.SEND_WAIT, 0, 0)
	},
}

// processCall compiles Process.call(pid, request, timeout), whose
// arguments are on the stack: a fresh reply address, the request
// function called with it, then CALL_WAIT, which sends the request and
// parks until the call is decided.
//
//	STORE t; STORE f; CALL_REPLY; STORE r
//	LOAD f; LOAD r; CALL_VALUE 1      (the request message)
//	LOAD t; LOAD r; CALL_WAIT         (pid msg t r -> Result)
func (fs *fnState) processCall() {
	t, f, r := fs.newSlot(), fs.newSlot(), fs.newSlot()
	fs.emit(bytecode.STORE, t, 0)
	fs.emit(bytecode.STORE, f, 0)
	fs.emit(bytecode.CALL_REPLY, 0, 0)
	fs.emit(bytecode.STORE, r, 0)
	fs.emit(bytecode.LOAD, f, 0)
	fs.emit(bytecode.LOAD, r, 0)
	fs.emit(bytecode.CALL_VALUE, 1, 0)
	fs.emit(bytecode.LOAD, t, 0)
	fs.emit(bytecode.LOAD, r, 0)
	fs.emit(bytecode.CALL_WAIT, 0, 0)
}

func spawnMode(mode int) func(*fnState) {
	return func(fs *fnState) { fs.emit(bytecode.SPAWN, mode, 0) }
}

// actorCall compiles a call of a builtin the registry lowers to
// instructions.
func (fs *fnState) actorCall(e *ast.Call, b *builtins.Entry, tail tailMode) error {
	lower, ok := lowerings[b.Lower]
	if !ok {
		return fmt.Errorf("codegen: %s has no lowering", b.Name)
	}
	if len(e.Args) != b.Arity() {
		return fmt.Errorf("codegen: %s called with %d arguments, takes %d", b.Name, len(e.Args), b.Arity())
	}
	if err := fs.args(e, nil); err != nil {
		return err
	}
	fs.setLine(e.S.Start)
	lower(fs)
	if tail != notTail {
		fs.returnTop(tail)
		fs.depth = 0
	}
	return nil
}

// sleep compiles Process.sleep(ms), whose argument is on the stack, as a
// receive with no message arm and an `after ms -> ()` arm: the process
// parks with a timer (RECV_START checks the range and raises fault 8
// outside 0..600000), messages that arrive meanwhile are skipped and stay
// queued, exit signals are handled as in any receive (a Kill still
// retires the process), and the call's value is ().
//
//	    STORE t; RECV_START t, 0
//	scan:
//	    RECV_PEEK wait; POP; RECV_SKIP; JUMP scan
//	wait:
//	    RECV_WAIT scan
//	    UNIT
func (fs *fnState) sleep() {
	t := fs.newSlot()
	fs.emit(bytecode.STORE, t, 0)
	fs.emit(bytecode.RECV_START, t, 0)
	before := fs.depth
	scan, wait := fs.newLabel(), fs.newLabel()
	fs.place(scan)
	fs.jump(bytecode.RECV_PEEK, wait)
	fs.emit(bytecode.POP, 0, 0)
	fs.emit(bytecode.RECV_SKIP, 0, 0)
	fs.jump(bytecode.JUMP, scan)
	fs.depth = before
	fs.place(wait)
	fs.jump(bytecode.RECV_WAIT, scan)
	fs.emit(bytecode.UNIT, 0, 0)
}

// receive compiles receive / receive_event; in tail mode the emitted code
// returns the selected arm's value itself.
func (fs *fnState) receive(r *ast.Receive, mode tailMode) error {
	tslot, err := fs.recvTimeout(r)
	if err != nil {
		return err
	}
	event := 0
	if r.Event {
		event = 1
	}
	fs.setLine(r.S.Start)
	fs.emit(bytecode.RECV_START, tslot, event)
	before := fs.depth
	scan := fs.newLabel()
	fs.place(scan)
	wait := fs.newLabel()
	end := fs.newLabel()
	fs.jump(bytecode.RECV_PEEK, wait)
	m := fs.newSlot()
	fs.emit(bytecode.STORE, m, 0)
	exhaustive, err := fs.armChain(m, r.Arms, mode, end, before, func() { fs.emit(bytecode.RECV_TAKE, 0, 0) })
	if err != nil {
		return err
	}
	if !exhaustive {
		fs.emit(bytecode.RECV_SKIP, 0, 0)
		fs.jump(bytecode.JUMP, scan)
	}
	fs.depth = before
	fs.place(wait)
	fs.jump(bytecode.RECV_WAIT, scan)
	if err := fs.recvWoken(r, mode, before); err != nil {
		return err
	}
	fs.joinArms(end, before, mode)
	return nil
}

// recvTimeout evaluates a receive's after timeout into a fresh slot and
// returns the slot (-1 without an after).
func (fs *fnState) recvTimeout(r *ast.Receive) (int, error) {
	if r.After == nil {
		return -1, nil
	}
	if err := fs.expr(r.After.Timeout); err != nil {
		return 0, err
	}
	tslot := fs.newSlot()
	fs.emit(bytecode.STORE, tslot, 0)
	return tslot, nil
}

// recvWoken compiles what follows a wait that took no message: the after
// body, or (without an after, which cannot happen) a fault.
func (fs *fnState) recvWoken(r *ast.Receive, mode tailMode, before int) error {
	if r.After == nil {
		fs.fail("receive woke without a message or a timeout")
		if mode == notTail {
			fs.depth = before + 1 // FAIL never falls through; keep the join depth
		}
		return nil
	}
	fs.setLine(r.After.S.Start)
	if mode != notTail {
		return fs.tailExpr(r.After.Body, mode)
	}
	return fs.expr(r.After.Body)
}
