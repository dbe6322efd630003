package core

import _ "embed" // for the prelude source

// Prelude is the Morrow source of the prelude (prelude.mr): the
// higher-order library functions, written in Morrow over the first-order
// natives. The code generator parses it and compiles the functions a
// program reaches together with it. The builtin registry
// (stdlib/builtins) names the prelude function of each library function
// (List.map -> list_map); the other top-level functions are their private
// helpers.
//
//go:embed prelude.mr
var Prelude string

// PreludeFile is the name diagnostics and line tables use for Prelude.
const PreludeFile = "<prelude>"
