package types

import "strings"

// callOnly lists the builtins that the code generator lowers to opcodes
// (stdlib/process.OpcodeBuiltins) instead of calling a native: they have
// no function value, so they may only be called directly. A test in
// stdlib/process keeps the two lists equal.
var callOnly = map[string]bool{
	"spawn": true, "supervise": true, "send": true,
	"Process.spawn": true, "Process.spawn_monitor": true, "Process.spawn_link": true,
	"Process.self": true, "Process.sleep": true,
}

// CallOnly reports whether the builtin name may only be called directly,
// never used as a function value.
func CallOnly(name string) bool { return callOnly[name] }

// callOnlyLambda writes the lambda that calls a call-only builtin, for
// the hint: `(a, b) -> send(a, b)`.
func callOnlyLambda(name string) string {
	n := 0
	if bs := builtinSigs[name]; bs != nil {
		n = len(bs.Params)
	}
	ps := make([]string, n)
	for i := range ps {
		ps[i] = string(rune('a' + i))
	}
	list := strings.Join(ps, ", ")
	return "(" + list + ") -> " + name + "(" + list + ")"
}
