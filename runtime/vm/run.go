package vm

import (
	"fmt"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/value"
)

// maxPanics bounds how many recovered Go panics one State survives; past
// it the computation ends at once with its fault, skipping further
// cleanup, so a broken cleanup path cannot loop forever.
const maxPanics = 64

// Run executes st for at most budget steps (at least one) and reports how
// it stopped. One step is one instruction, or one step of running cleanup
// while returning or unwinding. Calling Run on a finished State returns its
// terminal outcome again with Steps 0.
func Run(st *State, host Host, budget int) Outcome {
	if st.finished {
		o := st.final
		o.Steps = 0
		return o
	}
	if budget < 1 {
		budget = 1
	}
	start := st.steps
	panics := 0
	for {
		left := budget - int(st.steps-start)
		if left < 1 {
			return Outcome{Status: StatusYield, Steps: int(st.steps - start)}
		}
		out, crashed := st.run(host, left)
		if !crashed {
			out.Steps = int(st.steps - start)
			return out
		}
		panics++
		if panics > maxPanics {
			st.frames = nil
			st.finish(Outcome{Status: StatusFault, Fault: st.fault})
			o := st.final
			o.Steps = int(st.steps - start)
			return o
		}
	}
}

// finish records the terminal outcome.
func (st *State) finish(o Outcome) {
	st.finished = true
	st.final = o
	st.stack = nil
	st.frames = nil
	st.Release()
}

// run is the interpreter loop. It returns crashed = true after recovering
// a Go panic (the State is then unwinding an internal-error fault and Run
// calls run again).
func (st *State) run(host Host, budget int) (out Outcome, crashed bool) {
	var (
		fr    *frame
		bp    int // fr.base, cached
		code  []bytecode.Instr
		pc    int
		sp    = st.sp
		stack = st.stack
		steps = 0
	)
	p := st.img.Prog
	fns := st.img.fns
	types := st.img.types
	consts := p.Consts
	// The recovery reads only st: capturing the loop's locals (pc, sp,
	// fr) in a closure would keep them out of registers. After a panic
	// the location is the top frame's last saved pc (its last call or
	// fault), which is good enough for an internal error.
	defer func() {
		if r := recover(); r != nil {
			out, crashed = st.recovered(r)
		}
	}()

outer:
	for {
		fr = &st.frames[len(st.frames)-1]
		if fr.mode != modeNormal {
			if steps >= budget {
				st.sp = sp
				st.steps += int64(steps)
				return Outcome{Status: StatusYield}, false
			}
			steps++
			st.sp = sp
			if o, done := st.cleanupStep(host); done {
				st.steps += int64(steps)
				return o, false
			}
			sp, stack = st.sp, st.stack
			continue outer
		}
		code = fr.fn.Code
		pc = fr.pc
		bp = fr.base
		for {
			if steps >= budget {
				fr.pc = pc
				st.sp = sp
				st.steps += int64(steps)
				return Outcome{Status: StatusYield}, false
			}
			steps++
			in := code[pc]
			pc++
			switch in.Op {
			case bytecode.NOP:
			case bytecode.POP:
				sp--
			case bytecode.DUP:
				stack[sp] = stack[sp-1]
				sp++
			case bytecode.SWAP:
				stack[sp-1], stack[sp-2] = stack[sp-2], stack[sp-1]
			case bytecode.UNIT:
				stack[sp] = value.Unit
				sp++
			case bytecode.TRUE:
				stack[sp] = value.Bool(true)
				sp++
			case bytecode.FALSE:
				stack[sp] = value.Bool(false)
				sp++
			case bytecode.INT:
				stack[sp] = value.Int(int64(in.A))
				sp++
			case bytecode.CONST:
				stack[sp] = consts[in.A]
				sp++

			case bytecode.LOAD:
				stack[sp] = stack[bp+int(in.A)]
				sp++
			case bytecode.STORE:
				sp--
				stack[bp+int(in.A)] = stack[sp]
			case bytecode.FREE:
				stack[sp] = fr.free[in.A]
				sp++
			case bytecode.FUNC:
				stack[sp] = st.img.funcVals[in.A]
				sp++
			case bytecode.CLOSURE:
				n := int(in.B)
				free := make([]value.Value, n)
				copy(free, stack[sp-n:sp])
				sp -= n
				stack[sp] = value.NewClosure(int(in.A), free)
				sp++
			case bytecode.NATIVE:
				stack[sp] = st.img.nativeVals[in.A]
				sp++

			case bytecode.CALL:
				callee := fns[in.A]
				fr.pc = pc
				base := sp - int(in.B)
				n := len(st.frames)
				top := base + callee.Locals
				if n < cap(st.frames) && n < st.maxDepth && top+callee.MaxStack <= len(stack) {
					// Fast path: a spare frame slot and enough stack.
					clear(stack[sp:top])
					st.frames = st.frames[:n+1]
					fr = &st.frames[n]
					fr.fn, fr.pc, fr.base, fr.retSP, fr.free, fr.cl, fr.mode = callee, 0, base, base, nil, nil, modeNormal
					bp = base
				} else {
					if f := st.pushFrame(callee, base, base, nil); f != nil {
						st.fail(fr, pc, sp, f)
						continue outer
					}
					stack = st.stack
					fr = &st.frames[n]
					bp = fr.base
				}
				code = callee.Code
				pc = 0
				sp = top
			case bytecode.CALL_VALUE:
				n := int(in.A)
				fv := stack[sp-n-1]
				if c, ok := fv.Closure(); ok {
					callee, f := st.closureCallee(c, n)
					if f == nil {
						fr.pc = pc
						base := sp - n
						f = st.pushFrame(callee, base, base-1, c.Free)
					}
					if f != nil {
						st.fail(fr, pc, sp, f)
						continue outer
					}
					stack = st.stack
					fr = &st.frames[len(st.frames)-1]
					bp = fr.base
					code = callee.Code
					pc = 0
					sp = fr.base + callee.Locals
				} else if c, ok := fv.NativeFunc(); ok {
					if c.ID < 0 || c.ID >= len(st.img.natives) {
						st.fail(fr, pc, sp, internalFault("call of an unknown native %d", c.ID))
						continue outer
					}
					res, nf, work := st.img.natives[c.ID].CallWork(host, stack[sp-n:sp])
					steps += int(min(work, maxCharge))
					if nf != nil {
						st.fail(fr, pc, sp, nf)
						continue outer
					}
					sp -= n + 1
					stack[sp] = res
					sp++
				} else {
					st.fail(fr, pc, sp, internalFault("call of a %s value", fv.Kind()))
					continue outer
				}
			case bytecode.CALL_NATIVE:
				n := int(in.B)
				res, nf, work := st.img.natives[in.A].CallWork(host, stack[sp-n:sp])
				steps += int(min(work, maxCharge))
				if nf != nil {
					st.fail(fr, pc, sp, nf)
					continue outer
				}
				sp -= n
				stack[sp] = res
				sp++
			case bytecode.TAIL_CALL:
				callee := fns[in.A]
				n := int(in.B)
				st.sp = sp
				grown, f := st.grow(fr.base + callee.Locals + callee.MaxStack)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack = grown
				copy(stack[fr.base:], stack[sp-n:sp])
				fr.fn, fr.free = callee, nil
				clear(stack[fr.base+n : fr.base+callee.Locals])
				code = callee.Code
				pc = 0
				sp = fr.base + callee.Locals
			case bytecode.TAIL_CALL_VALUE:
				n := int(in.A)
				fv := stack[sp-n-1]
				if c, ok := fv.Closure(); ok {
					callee, f := st.closureCallee(c, n)
					if f != nil {
						st.fail(fr, pc, sp, f)
						continue outer
					}
					st.sp = sp
					grown, f := st.grow(fr.base + callee.Locals + callee.MaxStack)
					if f != nil {
						st.fail(fr, pc, sp, f)
						continue outer
					}
					stack = grown
					copy(stack[fr.base:], stack[sp-n:sp])
					fr.fn, fr.free = callee, c.Free
					clear(stack[fr.base+n : fr.base+callee.Locals])
					code = callee.Code
					pc = 0
					sp = fr.base + callee.Locals
				} else if c, ok := fv.NativeFunc(); ok {
					if c.ID < 0 || c.ID >= len(st.img.natives) {
						st.fail(fr, pc, sp, internalFault("call of an unknown native %d", c.ID))
						continue outer
					}
					res, nf, work := st.img.natives[c.ID].CallWork(host, stack[sp-n:sp])
					steps += int(min(work, maxCharge))
					if nf != nil {
						st.fail(fr, pc, sp, nf)
						continue outer
					}
					fr.pc = pc
					st.sp = sp
					if o, done := st.returnValue(res); done {
						st.steps += int64(steps)
						return o, false
					}
					sp, stack = st.sp, st.stack
					continue outer
				} else {
					st.fail(fr, pc, sp, internalFault("call of a %s value", fv.Kind()))
					continue outer
				}
			case bytecode.RETURN:
				v := stack[sp-1]
				n := len(st.frames)
				if fr.cl == nil && n > 1 && st.frames[n-2].mode == modeNormal {
					retSP := fr.retSP
					fr.free = nil
					st.frames = st.frames[:n-1]
					fr = &st.frames[n-2]
					bp = fr.base
					stack[retSP] = v
					sp = retSP + 1
					code = fr.fn.Code
					pc = fr.pc
					continue
				}
				fr.pc = pc
				st.sp = sp
				if o, done := st.returnValue(v); done {
					st.steps += int64(steps)
					return o, false
				}
				sp, stack = st.sp, st.stack
				continue outer

			case bytecode.JUMP:
				pc = int(in.A)
			case bytecode.JUMP_IF_FALSE:
				sp--
				if stack[sp].AsInt() == 0 {
					pc = int(in.A)
				}
			case bytecode.JUMP_IF_TRUE:
				sp--
				if stack[sp].AsInt() != 0 {
					pc = int(in.A)
				}

			case bytecode.ADD:
				x, y := stack[sp-2], stack[sp-1]
				sp--
				if x.IsInt() && y.IsInt() {
					stack[sp-1] = value.Int(x.AsInt() + y.AsInt())
					continue
				}
				r, f := arith(in.Op, x, y)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = r
			case bytecode.SUB:
				x, y := stack[sp-2], stack[sp-1]
				sp--
				if x.IsInt() && y.IsInt() {
					stack[sp-1] = value.Int(x.AsInt() - y.AsInt())
					continue
				}
				r, f := arith(in.Op, x, y)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = r
			case bytecode.MUL, bytecode.DIV, bytecode.MOD, bytecode.POW,
				bytecode.BITAND, bytecode.BITOR, bytecode.BITXOR, bytecode.SHL, bytecode.SHR:
				x, y := stack[sp-2], stack[sp-1]
				sp--
				r, f := arith(in.Op, x, y)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = r
			case bytecode.EQ, bytecode.NE:
				x, y := stack[sp-2], stack[sp-1]
				sp--
				eq, cost := equal(x, y)
				steps += cost
				if in.Op == bytecode.NE {
					eq = !eq
				}
				stack[sp-1] = value.Bool(eq)
			case bytecode.LT, bytecode.LE, bytecode.GT, bytecode.GE:
				x, y := stack[sp-2], stack[sp-1]
				sp--
				if x.IsInt() && y.IsInt() {
					var r bool
					switch in.Op {
					case bytecode.LT:
						r = x.AsInt() < y.AsInt()
					case bytecode.LE:
						r = x.AsInt() <= y.AsInt()
					case bytecode.GT:
						r = x.AsInt() > y.AsInt()
					default:
						r = x.AsInt() >= y.AsInt()
					}
					stack[sp-1] = value.Bool(r)
					continue
				}
				r, f := order(in.Op, x, y)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = value.Bool(r)
			case bytecode.IN:
				x, xs := stack[sp-2], stack[sp-1]
				sp--
				r, cost, f := member(x, xs)
				steps += cost
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = value.Bool(r)
			case bytecode.NEG:
				x := stack[sp-1]
				switch x.Kind() {
				case value.KInt:
					stack[sp-1] = value.Int(-x.AsInt())
				case value.KFloat:
					stack[sp-1] = value.Float(-x.AsFloat())
				default:
					st.fail(fr, pc, sp, internalFault("NEG of a %s value", x.Kind()))
					continue outer
				}
			case bytecode.NOT:
				x := stack[sp-1]
				if x.Kind() != value.KBool {
					st.fail(fr, pc, sp, internalFault("NOT of a %s value", x.Kind()))
					continue outer
				}
				stack[sp-1] = value.Bool(x.AsInt()&1 == 0)
			case bytecode.BITNOT:
				x := stack[sp-1]
				if x.Kind() != value.KInt {
					st.fail(fr, pc, sp, internalFault("BITNOT of a %s value", x.Kind()))
					continue outer
				}
				stack[sp-1] = value.Int(^x.AsInt())

			case bytecode.TUPLE:
				n := int(in.A)
				elems := make([]value.Value, n)
				copy(elems, stack[sp-n:sp])
				sp -= n
				stack[sp] = value.NewTuple(elems...)
				sp++
			case bytecode.LIST:
				n := int(in.A)
				var items []value.Value
				if n > 0 {
					items = make([]value.Value, n)
					copy(items, stack[sp-n:sp])
				}
				sp -= n
				stack[sp] = value.NewList(items)
				sp++
			case bytecode.DATA:
				t := types[in.A]
				n := len(t.Variants[in.B].Fields)
				if n == 0 {
					stack[sp] = st.img.nullary[in.A][in.B]
					sp++
					continue
				}
				fields := make([]value.Value, n)
				copy(fields, stack[sp-n:sp])
				sp -= n
				stack[sp] = value.NewData(t, int(in.B), fields...)
				sp++
			case bytecode.RANGE:
				lo, hi := stack[sp-2], stack[sp-1]
				sp--
				if lo.Kind() != value.KInt || hi.Kind() != value.KInt {
					st.fail(fr, pc, sp, internalFault("RANGE of %s and %s", lo.Kind(), hi.Kind()))
					continue outer
				}
				stack[sp-1] = value.NewRange(lo.AsInt(), hi.AsInt(), in.A == 1)

			case bytecode.TEST_TAG:
				d, ok := stack[sp-1].Data()
				stack[sp-1] = value.Bool(ok && d.Tag == int(in.A))
			case bytecode.TEST_KIND:
				stack[sp-1] = value.Bool(stack[sp-1].Kind() == value.Kind(in.A))
			case bytecode.TEST_TYPE:
				d, ok := stack[sp-1].Data()
				stack[sp-1] = value.Bool(ok && d.Type == types[in.A])
			case bytecode.EQ_CONST:
				eq, cost := equal(stack[sp-1], consts[in.A])
				steps += cost
				stack[sp-1] = value.Bool(eq)
			case bytecode.ELEM:
				r, f := elem(stack[sp-1], int(in.A))
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = r
			case bytecode.FIELD:
				r, f := field(stack[sp-1], consts[in.A].AsString())
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = r
			case bytecode.LIST_LEN:
				l, ok := stack[sp-1].List()
				if !ok {
					st.fail(fr, pc, sp, internalFault("LIST_LEN of a %s value", stack[sp-1].Kind()))
					continue outer
				}
				stack[sp-1] = value.Int(int64(len(l.Items)))
			case bytecode.LIST_ELEM:
				l, ok := stack[sp-1].List()
				if !ok || int(in.A) >= len(l.Items) {
					st.fail(fr, pc, sp, internalFault("LIST_ELEM %d of a %s value", in.A, stack[sp-1].Kind()))
					continue outer
				}
				stack[sp-1] = l.Items[in.A]
			case bytecode.LIST_SLICE:
				l, ok := stack[sp-1].List()
				if !ok || int(in.A) > len(l.Items) {
					st.fail(fr, pc, sp, internalFault("LIST_SLICE %d of a %s value", in.A, stack[sp-1].Kind()))
					continue outer
				}
				stack[sp-1] = l.Drop(int(in.A))
			case bytecode.INDEX:
				xs, i := stack[sp-2], stack[sp-1]
				sp--
				l, ok := xs.List()
				if !ok || i.Kind() != value.KInt {
					st.fail(fr, pc, sp, internalFault("INDEX of %s by %s", xs.Kind(), i.Kind()))
					continue outer
				}
				if i.AsInt() < 0 || i.AsInt() >= int64(len(l.Items)) {
					st.fail(fr, pc, sp, fault.New(fault.Index))
					continue outer
				}
				stack[sp-1] = l.Items[i.AsInt()]
			case bytecode.UPDATE:
				r, v := stack[sp-2], stack[sp-1]
				sp--
				nr, f := update(r, consts[in.A].AsString(), v)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = nr

			case bytecode.ITER:
				it, f := newIter(stack[sp-1])
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				stack[sp-1] = it.value()
			case bytecode.ITER_NEXT:
				it, ok := stack[bp+int(in.A)].Ref().(*iter)
				if !ok {
					st.fail(fr, pc, sp, internalFault("ITER_NEXT on a %s value", stack[bp+int(in.A)].Kind()))
					continue outer
				}
				if v, more := it.next(); more {
					stack[sp] = v
					sp++
				} else {
					pc = int(in.B)
				}
			case bytecode.INTERP:
				n := int(in.A)
				s, cost, f := interp(stack[sp-n : sp])
				steps += cost
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				sp -= n
				stack[sp] = value.String(s)
				sp++
			case bytecode.DEFER:
				sp--
				if st.defers >= MaxDefers {
					st.fail(fr, pc, sp, fault.New(fault.Resource))
					continue outer
				}
				if fr.cl == nil {
					fr.cl = &cleanup{}
				}
				fr.cl.defers = append(fr.cl.defers, stack[sp])
				st.defers++
			case bytecode.FAIL:
				st.fail(fr, pc, sp, internalFault("%s", consts[in.A].AsString()))
				continue outer

			case loadIntOp, loadIntOp + 1, loadIntOp + 2, loadIntOp + 3,
				loadIntOp + 4, loadIntOp + 5, loadIntOp + 6, loadIntOp + 7:
				x := stack[bp+int(in.A)]
				if x.IsInt() && steps+2 <= budget {
					steps += 2
					k := int(in.Op) - loadIntOp
					n, b := intOp(k, x.AsInt(), int64(in.B))
					if k < 2 {
						stack[sp] = value.Int(n)
					} else {
						stack[sp] = value.Bool(b)
					}
					pc += 2
				} else {
					stack[sp] = x // just the LOAD
				}
				sp++
			case loadIntCmpJump + 2, loadIntCmpJump + 3, loadIntCmpJump + 4,
				loadIntCmpJump + 5, loadIntCmpJump + 6, loadIntCmpJump + 7:
				x := stack[bp+int(in.A)]
				if x.IsInt() && steps+3 <= budget {
					steps += 3
					if _, b := intOp(int(in.Op)-loadIntCmpJump, x.AsInt(), int64(in.B)); b {
						pc += 3
					} else {
						pc = int(code[pc+2].A)
					}
				} else {
					stack[sp] = x // just the LOAD
					sp++
				}
			case loadLoadOp, loadLoadOp + 1, loadLoadOp + 2, loadLoadOp + 3,
				loadLoadOp + 4, loadLoadOp + 5, loadLoadOp + 6, loadLoadOp + 7:
				x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
				if x.IsInt() && y.IsInt() && steps+2 <= budget {
					steps += 2
					k := int(in.Op) - loadLoadOp
					n, b := intOp(k, x.AsInt(), y.AsInt())
					if k < 2 {
						stack[sp] = value.Int(n)
					} else {
						stack[sp] = value.Bool(b)
					}
					pc += 2
				} else {
					stack[sp] = x // just the first LOAD
				}
				sp++
			case loadLoadCmpJump + 2, loadLoadCmpJump + 3, loadLoadCmpJump + 4,
				loadLoadCmpJump + 5, loadLoadCmpJump + 6, loadLoadCmpJump + 7:
				x, y := stack[bp+int(in.A)], stack[bp+int(in.B)]
				if x.IsInt() && y.IsInt() && steps+3 <= budget {
					steps += 3
					if _, b := intOp(int(in.Op)-loadLoadCmpJump, x.AsInt(), y.AsInt()); b {
						pc += 3
					} else {
						pc = int(code[pc+2].A)
					}
				} else {
					stack[sp] = x // just the first LOAD
					sp++
				}
			case cmpJump + 2, cmpJump + 3, cmpJump + 4, cmpJump + 5, cmpJump + 6, cmpJump + 7:
				x, y := stack[sp-2], stack[sp-1]
				k := int(in.Op) - cmpJump
				if x.IsInt() && y.IsInt() && steps+1 <= budget {
					steps++
					sp -= 2
					if _, b := intOp(k, x.AsInt(), y.AsInt()); b {
						pc++
					} else {
						pc = int(in.A)
					}
					continue
				}
				// Just the comparison.
				sp--
				op := fusedOps[k]
				var r bool
				switch op {
				case bytecode.EQ, bytecode.NE:
					eq, cost := equal(x, y)
					steps += cost
					r = eq == (op == bytecode.EQ)
				default:
					var f *fault.Fault
					if r, f = order(op, x, y); f != nil {
						st.fail(fr, pc, sp, f)
						continue outer
					}
				}
				stack[sp-1] = value.Bool(r)

			default:
				// The actor opcodes (RECV_*, SPAWN, SEND, SELF): actor.go.
				fr.pc = pc
				st.sp = sp
				npc, nsp, cost, park, f := st.actorOp(host, in, pc, sp)
				if f != nil {
					st.fail(fr, pc, sp, f)
					continue outer
				}
				pc, sp = npc, nsp
				steps += cost
				if park {
					fr.pc = pc
					st.sp = sp
					st.steps += int64(steps)
					return Outcome{Status: StatusPark}, false
				}
			}
		}
	}
}

// fail raises f at the instruction before pc of frame fr.
func (st *State) fail(fr *frame, pc, sp int, f *fault.Fault) {
	fr.pc = pc
	st.sp = sp
	st.raise(f)
}

// recovered turns a recovered Go panic into an internal-error fault.
func (st *State) recovered(r any) (Outcome, bool) {
	if len(st.frames) == 0 {
		st.finish(Outcome{Status: StatusFault, Fault: internalFault("interpreter failure: %v", r)})
		return st.final, false
	}
	st.steps++
	st.raise(internalFault("interpreter failure: %v", r))
	return Outcome{}, true
}

// pushFrame pushes a frame for f whose locals start at base (the arguments
// are already there). It returns fault 9 when the call depth limit, the
// slot limit or the stack budget is hit.
func (st *State) pushFrame(f *bytecode.Function, base, retSP int, free []value.Value) *fault.Fault {
	if len(st.frames) >= st.maxDepth {
		return fault.New(fault.Resource)
	}
	stack, fault := st.grow(base + f.Locals + f.MaxStack)
	if fault != nil {
		return fault
	}
	n := len(st.frames)
	if n == cap(st.frames) {
		if fault := st.growFrames(); fault != nil {
			return fault
		}
	}
	clear(stack[base+f.Params : base+f.Locals])
	st.frames = st.frames[:n+1]
	nf := &st.frames[n]
	nf.fn, nf.pc, nf.base, nf.retSP, nf.free, nf.mode = f, 0, base, retSP, free, modeNormal
	if nf.cl != nil {
		nf.cl = nil
	}
	return nil
}

// closureCallee checks a closure call of n arguments.
func (st *State) closureCallee(c *value.Closure, n int) (*bytecode.Function, *fault.Fault) {
	fns := st.img.fns
	if c.Fn < 0 || c.Fn >= len(fns) {
		return nil, internalFault("closure of an unknown function %d", c.Fn)
	}
	callee := fns[c.Fn]
	if callee.Params != n || len(c.Free) != callee.Captures {
		return nil, internalFault("%s called with %d arguments and %d captured values (want %d and %d)", callee.Name, n, len(c.Free), callee.Params, callee.Captures)
	}
	return callee, nil
}

// returnValue returns v from the top frame: if the frame has defers it
// starts running them (the frame becomes "returning"), otherwise the frame
// is popped. The top frame's pc and st.sp must be saved.
func (st *State) returnValue(v value.Value) (Outcome, bool) {
	fr := &st.frames[len(st.frames)-1]
	if fr.hasDefers() {
		fr.mode = modeReturning
		fr.cl.ret = v
		st.sp = fr.base + fr.fn.Locals
		return Outcome{}, false
	}
	return st.finishReturn(v)
}

// finishReturn pops the top frame and delivers v to its caller: pushed
// for a normal caller, discarded for a caller that is running cleanup.
// When the last frame returns, the computation is done.
func (st *State) finishReturn(v value.Value) (Outcome, bool) {
	n := len(st.frames)
	retSP := st.frames[n-1].retSP
	st.frames[n-1] = frame{}
	st.frames = st.frames[:n-1]
	if n == 1 {
		st.finish(Outcome{Status: StatusDone, Value: v})
		return st.final, true
	}
	if st.frames[n-2].mode == modeNormal {
		st.stack[retSP] = v
		st.sp = retSP + 1
	} else {
		st.sp = retSP
	}
	return Outcome{}, false
}

// cleanupStep performs one step for a top frame that is returning or
// unwinding: call its next defer, or complete the return, or pop it.
func (st *State) cleanupStep(host Host) (Outcome, bool) {
	fr := &st.frames[len(st.frames)-1]
	st.sp = fr.base + fr.fn.Locals
	if fr.hasDefers() {
		n := len(fr.cl.defers)
		d := fr.cl.defers[n-1]
		fr.cl.defers[n-1] = value.Value{}
		fr.cl.defers = fr.cl.defers[:n-1]
		st.defers--
		st.callDefer(host, d)
		return Outcome{}, false
	}
	if fr.mode == modeReturning {
		fr.mode = modeNormal
		return st.finishReturn(fr.cl.ret)
	}
	// Unwinding a fault: drop the frame.
	n := len(st.frames)
	st.frames[n-1] = frame{}
	st.frames = st.frames[:n-1]
	if n == 1 {
		f := st.fault
		if f == nil {
			f = internalFault("unwinding without a fault")
		}
		st.finish(Outcome{Status: StatusFault, Fault: f})
		return st.final, true
	}
	return Outcome{}, false
}

// callDefer starts the cleanup d (a zero-argument function value) on top
// of the current frame. A native cleanup runs at once.
func (st *State) callDefer(host Host, d value.Value) {
	if c, ok := d.Closure(); ok {
		callee, f := st.closureCallee(c, 0)
		if f == nil {
			base := st.sp
			if f = st.pushFrame(callee, base, base, c.Free); f == nil {
				// The operand stack starts above the callee's locals, as
				// for any call; otherwise a defer body with locals (a for
				// loop, a let) would overwrite them with its operands.
				st.sp = base + callee.Locals
			}
		}
		if f != nil {
			st.raise(f)
		}
	} else if c, ok := d.NativeFunc(); ok {
		if c.ID < 0 || c.ID >= len(st.img.natives) {
			st.raise(internalFault("deferred call of an unknown native %d", c.ID))
			return
		}
		if _, nf := st.img.natives[c.ID].Call(host, nil); nf != nil {
			st.raise(nf)
		}
	} else {
		st.raise(internalFault("deferred call of a %s value", d.Kind()))
	}
}

// String describes the State for debugging.
func (st *State) String() string {
	if st.finished {
		return fmt.Sprintf("vm.State{finished %s}", st.final.Status)
	}
	top := "-"
	if n := len(st.frames); n > 0 {
		top = st.frames[n-1].fn.Name
	}
	return fmt.Sprintf("vm.State{depth %d, top %s, steps %d}", len(st.frames), top, st.steps)
}
