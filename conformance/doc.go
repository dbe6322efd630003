// Package conformance checks Morrow's process semantics differentially
// against Erlang/OTP (docs/reference/runtime.md#conformance-with-erlangotp). It has no library code.
//
// Each scenario is written twice, scenarios/NAME.mr and scenarios/NAME.erl,
// and both print the same observation lines in Morrow's vocabulary
// (`down normal`, `exit killed`, `demonitor true`, ...). The Erlang
// programs render every OTP term through scenarios/morrow_obs.erl, the one
// place where deliberate differences between the two models (typed reasons,
// noproc versus NoProcess, the synchronous NoProcess Down, ...) are mapped;
// docs/conformance.md has the same table.
//
// conformance_test.go compiles the Erlang modules with erlc, runs each at
// +S 1, +S 2 and +S 4, runs the Morrow program in-process through
// lang/compiler and runtime/engine at 1, 2 and 4 schedulers with work
// stealing off and on, and compares the outputs line by line. It runs as
// part of go test ./...; without erl on the PATH it fails and asks for
// erlang-nox, unless MORROW_SKIP_ERLANG=1 is set.
//
// supervisor/ holds the scenarios of docs/supervisors.md (supervisors, registry,
// typed call): supervisor_test.go runs their Erlang side at +S 1, 2 and 4
// and their Morrow side in the six configurations through the same
// harness, each against the checked-in NAME.expected files. Steps that
// several Erlang twins share live in the helper modules
// scenarios/morrow_obs.erl and supervisor/sup_kit.erl, compiled with every
// suite.
package conformance
