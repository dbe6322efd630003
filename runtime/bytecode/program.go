// Package bytecode defines Morrow's compiled program format: the
// instruction set of a small dynamically tagged stack machine (opcodes.go)
// and the layout of a compiled program (this file).
//
// A Program is a flat table of functions plus shared tables: a constant
// pool (Int, Float and String values), a type table of nominal types (the
// runtime's value.TypeInfo, with the built-in Option, Result and Ordering
// at fixed indexes), and a native table naming the Go natives a program
// calls by qualified name ("List.len", "println"); the loader resolves
// those names to stdlib natives and refuses a program that names an
// unknown one.
//
// Execution model (what runtime/vm implements):
//   - A frame has Locals slots (the first Params hold the arguments), an
//     operand stack of at most MaxStack values, the running closure's
//     captured values (FREE reads them) and a defer list. Calls push a new
//     frame; RETURN runs the frame's defers in reverse order of
//     registration, pops it and pushes the result on the caller's stack.
//   - TAIL_CALL replaces the current frame (code generation never emits it
//     in a function that has defers, so a frame's defers always run before
//     the frame goes away).
//   - The entry function (Program.Entry) runs in the root context: `main`
//     with no arguments, or in library mode `start(port)`.
//   - Every instruction has a source line through the function's line
//     table, so a fault can report the Morrow line and a backtrace of
//     function names.
//
// The in-memory form here is what the .mrb encoder serialises (encode.go)
// and the decoder rebuilds (decode.go); Verify (verify.go) checks the
// structural invariants documented on each field before a program runs.
package bytecode

import (
	"github.com/morrow-lang/morrow/runtime/value"
)

// Program is a compiled Morrow program.
type Program struct {
	// Source is the name of the user's source file, as given to the
	// compiler (used in fault locations).
	Source string
	// Functions holds every compiled function: the user's, lambdas
	// (closure-converted to functions with captured values), deferred
	// expressions, and the prelude functions the program reaches.
	Functions []*Function
	// Consts is the constant pool. Invariant: every entry has kind
	// value.KInt, value.KFloat or value.KString.
	Consts []value.Value
	// Types is the table of nominal types. Invariant: Types[TypeOption],
	// Types[TypeResult] and Types[TypeOrdering] are value.OptionType,
	// value.ResultType and value.OrderingType (the decoder re-links them by
	// pointer so that runtime code comparing TypeInfo pointers works).
	Types []*value.TypeInfo
	// Natives names the native functions the program uses by qualified
	// name ("List.len", "String.slice", "println", "show"). Operands of
	// kind OpNative index this table.
	Natives []string
	// Entry is the index in Functions of the entry point: `main`, or
	// `start` when Library is set.
	Entry int
	// Library is true when the program has no main and is run through
	// `pub fn start(port: Pid(String)) -> ()` (docs/cli.md).
	Library bool
}

// Indexes of the built-in nominal types in Program.Types.
const (
	TypeOption   = 0
	TypeResult   = 1
	TypeOrdering = 2
	// NumBuiltinTypes is the number of built-in types at the start of the
	// type table; user types follow.
	NumBuiltinTypes = 3
)

// Variant tags of the built-in Ordering type.
const (
	TagLess    = 0
	TagEqual   = 1
	TagGreater = 2
)

// BuiltinTypes returns the built-in prefix of every program's type table.
func BuiltinTypes() []*value.TypeInfo {
	return []*value.TypeInfo{value.OptionType, value.ResultType, value.OrderingType}
}

// NewProgram returns an empty program whose type table holds the
// built-in types.
func NewProgram(source string) *Program {
	return &Program{Source: source, Types: BuiltinTypes()}
}

// FuncFlags are properties of a compiled function.
type FuncFlags uint32

// Function flags.
const (
	// FlagHasDefer: the function contains DEFER. Such a function is never
	// tail-call optimised and its frame keeps a defer list.
	FlagHasDefer FuncFlags = 1 << iota
	// FlagLambda: the function was compiled from a lambda expression.
	FlagLambda
	// FlagDefer: the function is the body of a `defer` expression.
	FlagDefer
	// FlagPrelude: the function comes from the Morrow-source standard
	// prelude; its line table refers to the prelude, not Program.Source.
	FlagPrelude
)

// FileOf is the source file a function's line table refers to: the
// prelude's, the function's module's, or Program.Source.
func (p *Program) FileOf(f *Function, prelude string) string {
	switch {
	case f.Flags.Has(FlagPrelude):
		return prelude
	case f.File != "":
		return f.File
	}
	return p.Source
}

// Has reports whether all flags in g are set.
func (f FuncFlags) Has(g FuncFlags) bool { return f&g == g }

// Function is one compiled function.
type Function struct {
	// Name is the Morrow name used in backtraces: the declared name
	// ("main", "fib"), "List.map" style names for prelude functions, and
	// "outer.lambda@12" / "outer.defer@7" for lambdas and defer bodies
	// (outer is the enclosing top-level function, however deep they nest;
	// the number is the source line).
	Name string
	// Params is the number of parameters; arguments land in locals
	// 0..Params-1.
	Params int
	// Locals is the total number of local slots (>= Params).
	Locals int
	// Captures is the number of captured values a closure of this function
	// carries (FREE operands are < Captures). 0 for top-level functions.
	Captures int
	// MaxStack is the maximum operand-stack depth the code reaches.
	MaxStack int
	// Flags holds the FuncFlags.
	Flags FuncFlags
	// Line is the source line of the declaration.
	Line int
	// File is the source file of the function when it is not
	// Program.Source: a module of a many-file program (docs/modules.md),
	// as the compiler was given it. "" means Program.Source.
	File string
	// Code is the instruction sequence. Invariant: the last instruction is
	// terminal (control never runs off the end).
	Code []Instr
	// Lines maps pcs to source lines: entry i says that instructions from
	// Lines[i].PC up to the next entry's PC come from Lines[i].Line.
	// Entries are sorted by PC and the first has PC 0.
	Lines []LineEntry
}

// LineEntry is one row of a function's line table.
type LineEntry struct {
	PC   int32
	Line int32
}

// LineAt returns the source line of the instruction at pc (0 when the
// function has no line table).
func (f *Function) LineAt(pc int) int {
	line := 0
	for _, e := range f.Lines {
		if int(e.PC) > pc {
			break
		}
		line = int(e.Line)
	}
	return line
}

// AddConst returns the index of c in the constant pool, adding it if
// needed. c must be an Int, Float or String.
func (p *Program) AddConst(c value.Value) int {
	for i, x := range p.Consts {
		if x.Kind() == c.Kind() && x.Payload() == c.Payload() && x.AsString() == c.AsString() {
			return i
		}
	}
	p.Consts = append(p.Consts, c)
	return len(p.Consts) - 1
}

// AddNative returns the index of the native called name, adding it if
// needed.
func (p *Program) AddNative(name string) int {
	for i, n := range p.Natives {
		if n == name {
			return i
		}
	}
	p.Natives = append(p.Natives, name)
	return len(p.Natives) - 1
}

// FuncByName returns the index of the first function called name, or -1.
func (p *Program) FuncByName(name string) int {
	for i, f := range p.Functions {
		if f.Name == name {
			return i
		}
	}
	return -1
}
