package types

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
