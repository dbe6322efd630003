package sched

import (
	"strings"
	"unicode"

	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// entryName names a process in the trace's spawn line by its entry
// function: the function-table name (bytecode.Function.Name). A lambda
// that only forwards to a named function, such as `() -> worker(n)`
// (its code pushes arguments, then tail-calls), is named after that
// function, so the trace says "worker" rather than "watch.lambda@9".
// The name is made one trace word: whitespace and control characters
// become '_', and an empty name is "?".
func entryName(p *bytecode.Program, f value.Value) string {
	c, ok := f.Closure()
	if f.Kind() != value.KFunc || !ok || c.Fn < 0 || c.Fn >= len(p.Functions) {
		return "?"
	}
	fn := c.Fn
	// Follow forwarding lambdas a few hops (a lambda forwarding to a
	// lambda); a cycle ends at the hop limit.
	for hop := 0; hop < 4; hop++ {
		next, ok := forwards(p.Functions[fn])
		if !ok || next < 0 || next >= len(p.Functions) {
			break
		}
		fn = next
	}
	return traceWord(p.Functions[fn].Name)
}

// forwards reports the function a lambda tail-calls when its code does
// nothing but push operands and call it.
func forwards(f *bytecode.Function) (int, bool) {
	if !f.Flags.Has(bytecode.FlagLambda) {
		return 0, false
	}
	for i, in := range f.Code {
		switch in.Op {
		case bytecode.LOAD, bytecode.FREE, bytecode.CONST, bytecode.INT,
			bytecode.UNIT, bytecode.TRUE, bytecode.FALSE:
		case bytecode.TAIL_CALL:
			return int(in.A), true
		case bytecode.CALL:
			if i+1 < len(f.Code) && f.Code[i+1].Op == bytecode.RETURN {
				return int(in.A), true
			}
			return 0, false
		default:
			return 0, false
		}
	}
	return 0, false
}

// traceWord makes s a single word of a trace line.
func traceWord(s string) string {
	if s == "" {
		return "?"
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return '_'
		}
		return r
	}, s)
}
