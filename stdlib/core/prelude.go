package core

import _ "embed" // for the prelude source

// Prelude is the Morrow source of the prelude (prelude.mr): the
// higher-order library functions, written in Morrow over the first-order
// natives. The code generator parses it and compiles it together with each
// program.
//
//go:embed prelude.mr
var Prelude string

// PreludeFile is the name diagnostics and line tables use for Prelude.
const PreludeFile = "<prelude>"

// PreludeFuncs maps each library function implemented in the prelude to
// the name of its Morrow function in Prelude. Other top-level functions of
// the prelude are private helpers of these.
var PreludeFuncs = map[string]string{
	"List.map":              "list_map",
	"List.filter":           "list_filter",
	"List.fold":             "list_fold",
	"List.find":             "list_find",
	"List.any":              "list_any",
	"List.all":              "list_all",
	"List.sort_by":          "list_sort_by",
	"Option.map":            "option_map",
	"Result.map":            "result_map",
	"Result.and_then":       "result_and_then",
	"Result.unwrap_or_else": "result_unwrap_or_else",
}
