// Package builtins is the one registry of Morrow's builtin functions and
// library types: every function a program may call without declaring it
// (print, List.map, Process.monitor, ...) is one Entry of table.go, and
// every nominal type of a library module (Process.ExitReason, ...) is one
// TypeDecl of types.go.
//
// # What an entry says
//
// An Entry gives the qualified name, the signature in a small type
// language (Sig, parsed once into a Type), the parameter labels of the
// builtins called with labels, how the builtin is implemented (Impl: a Go
// native of the native table by the same name, a Morrow function of the
// prelude, or instructions the code generator emits for a Lowering), the
// context it may run in (Context), the checks beyond its signature (Rule,
// Req, Flags) and one line of documentation (Doc).
//
// # Who reads it
//
// The registry is data: it names implementations and never imports them,
// so every stage can read it (internal/archtest keeps it below the front
// end and the runtime).
//
//   - lang/types builds its builtin signatures, the labeled builtins, the
//     actor-context, defer and effect rules, the call-only set, the
//     reserved names and modules, the did-you-mean lists and the library
//     types' TypeDefs from it.
//   - lang/codegen resolves a call of a builtin through it: a native call
//     by name, a prelude function, or the instructions of a Lowering.
//   - stdlib builds the runtime's native.Table from it, joining each
//     native entry to its Go body (stdlib/core, stdlib/process) by name;
//     stdlib/process takes the Process types' run-time descriptors
//     (TypeDecl.Info) from it.
//   - Reference renders the reference section of docs/stdlib.md.
//
// A test in stdlib fails when any of these has a builtin the registry
// lacks, or the other way round.
//
// # Adding a builtin
//
// Add one Entry to table.go, then write its body: a native registered
// under the same name in stdlib/core or stdlib/process, a function of
// stdlib/core/prelude.mr, or, for a new Lowering, its case in
// lang/codegen. Regenerate the reference with
// `GOLDIE_UPDATE=1 go test ./stdlib/builtins`.
package builtins

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Impl says how a builtin is implemented.
type Impl uint8

const (
	// ImplNative: a Go function of the runtime's native table, registered
	// under the entry's Name; the code generator emits CALL_NATIVE.
	ImplNative Impl = iota + 1
	// ImplPrelude: a Morrow function of stdlib/core/prelude.mr
	// (Entry.PreludeFn), compiled with each program that calls it; used
	// for the higher-order functions, which call back into Morrow code.
	ImplPrelude
	// ImplOpcode: instructions the code generator emits for
	// Entry.Lower. Such a builtin has no function value: it may only be
	// called directly (CallOnly).
	ImplOpcode
)

func (i Impl) String() string {
	switch i {
	case ImplNative:
		return "native"
	case ImplPrelude:
		return "prelude"
	case ImplOpcode:
		return "instructions"
	}
	return fmt.Sprintf("Impl(%d)", int(i))
}

// Lowering names the instructions of an ImplOpcode builtin. The code
// generator maps each to its opcodes; a new one needs a case there and
// the VM's support.
type Lowering uint8

const (
	LowerNone          Lowering = iota
	LowerSpawn                  // SPAWN, legacy mode: spawn(entry) -> Pid(M)
	LowerSpawnIsolated          // SPAWN, Process.spawn
	LowerSpawnMonitor           // SPAWN, Process.spawn_monitor
	LowerSpawnLink              // SPAWN, Process.spawn_link
	LowerSupervise              // TUPLE of the two arguments, then SPAWN, supervise mode
	LowerSend                   // SEND
	LowerSelf                   // SELF
	LowerSleep                  // a receive with only a timeout arm
	LowerCall                   // CALL_REPLY, a call of the request function, CALL_WAIT (Process.call)
	LowerSendWait               // SEND_WAIT (Process.send_wait)
)

// Lowerings lists every Lowering but LowerNone.
var Lowerings = []Lowering{LowerSpawn, LowerSpawnIsolated, LowerSpawnMonitor, LowerSpawnLink,
	LowerSupervise, LowerSend, LowerSelf, LowerSleep, LowerCall, LowerSendWait}

// Context is where a builtin may be called (docs/reference/checks.md#contexts).
type Context uint8

const (
	// Anywhere: an ordinary library function.
	Anywhere Context = iota
	// RootOrActor: a process operation that the root context (main, a
	// library's start) may call as well as a process.
	RootOrActor
	// ActorOnly: the operation needs a mailbox. The checker refuses it
	// in the root context, and a function that calls it gets a mailbox
	// effect (it becomes an actor function).
	ActorOnly
)

func (c Context) String() string {
	switch c {
	case RootOrActor:
		return "root or actor"
	case ActorOnly:
		return "actor"
	}
	return "any"
}

// Flags are the checker's rules on a builtin beyond its signature and
// context. (No flag is needed for guards: a receive guard refuses every
// call, docs/reference/checks.md#receive-guards, and an ordinary match guard accepts every call.)
type Flags uint16

const (
	// NoDefer: refused in a defer body (docs/reference/checks.md#guards-and-defer); the message
	// names "process operations" for the Process module and "actor
	// operations" otherwise.
	NoDefer Flags = 1 << iota
	// Effect: spawns or sends (docs/reference/checks.md#guards-and-defer). A function that calls it,
	// directly or through other functions, may be called directly or be
	// a spawn entry, but not deferred or used as a function value.
	Effect
	// RootCallbacks: function arguments (lambdas) run without an actor
	// context (docs/reference/checks.md#guards-and-defer), as for List.map.
	RootCallbacks
	// MetadataRead: reads only a list's length, so passing a list of
	// Results to it does not handle them (docs/reference/checks.md#result-obligations).
	MetadataRead
	// MailboxKey: the native takes one more, last, argument that the
	// program does not write: the run-time key of the mailbox type m
	// (a String the code generator renders from the checker's types,
	// types.MailboxKey), so the name registry can refuse a Pid at the
	// wrong type (docs/reference/runtime.md#features-beyond-the-core-language). m must be a concrete type at the call,
	// and the builtin may only be called directly (CallOnly).
	MailboxKey
	// Outside: waits on the outside world (standard input, files, the
	// network, HTTP; docs/io.md): it parks only its caller,
	// and it is refused in a defer body as process operations are
	// ("outside-world operations are unsupported in deferred cleanup").
	Outside
	// Unreplayable: its result comes from outside the program and cannot
	// be replayed (standard input, http, Net): `morrow run --explore`
	// and `--replay` refuse a program that calls it, and the REPL
	// refuses the Net module and System.read_line.
	Unreplayable
	// Long: a native whose work grows without bound with its arguments
	// (docs/architecture.md#long-natives). A call whose arguments measure
	// native.OffloadMin or more (their logical size in slots, or the
	// native's own measure, native.Native.Size) runs off the schedulers
	// and parks only its caller, as an outside operation does.
	Long
)

// Has reports whether every flag of g is set.
func (f Flags) Has(g Flags) bool { return f&g == g }

// Rule is a typing rule of the checker that a signature cannot express.
type Rule uint8

const (
	// Plain: the signature says everything.
	Plain Rule = iota
	// SpawnEntry: the first argument is a spawn entry, a zero-argument
	// Unit function; the generic m is the entry's mailbox (docs/reference/types.md#mailbox-types).
	SpawnEntry
	// TypedPid: the first argument must already be a typed Pid(m)
	// ("NAME requires a typed Pid").
	TypedPid
	// OwnMailbox: the result's m is the caller's own mailbox
	// (Process.self).
	OwnMailbox
	// ChildEntry: the second argument is a spawn entry whose mailbox is
	// the generic m of the first (Supervisor.worker's key).
	ChildEntry
)

// Req is a capability that the first generic parameter must have.
type Req uint8

const (
	NoReq     Req = iota
	Printable     // scalar, or a type with Show (print, println)
	Showable      // Show (show)
	Equatable     // Eq (eq)
	Ordered       // Ord (compare, List.sort)
	Scalar        // Int, Float, Bool, String or a newtype over one (List.contains)
	MapKey        // Int, Bool, String or a newtype over one, recursively (Map and Set keys)
	EqualShow     // Eq and Show (Test.equal, Test.not_equal)
)

// Entry is one builtin function.
type Entry struct {
	// Name is the qualified name: "print", "List.len", "Process.monitor".
	Name string
	// Sig is the signature, "(List(a), Int) -> a": see ParseType for the
	// type language. Lowercase single letters are generic parameters.
	Sig string
	// Labels are the parameter labels of a builtin called with labels,
	// like a user function (eq(left:, right:)); every one is required.
	// Nil: positional arguments only.
	Labels []string
	// Impl is how it is implemented; PreludeFn names the prelude
	// function (ImplPrelude), Lower the instructions (ImplOpcode).
	Impl      Impl
	PreludeFn string
	Lower     Lowering
	Context   Context
	Flags     Flags
	Rule      Rule
	Req       Req
	// Mailbox names the signature's type variable that is the mailbox a
	// call fixes: the spawned entry's or supervised child's (SpawnEntry,
	// ChildEntry rules) or the registered Pid's (MailboxKey). The checker
	// reads it here instead of guessing from variable names.
	Mailbox string
	// Reply names the type variable of a reply that travels back to the
	// caller as a message (Process.call), so it must be sendable.
	Reply string
	// Doc is one line for the reference in docs/stdlib.md.
	Doc string

	typ *Type // Sig, parsed
}

// Module is the part of Name before the dot ("List"), or "" for a
// top-level builtin ("print").
func (e *Entry) Module() string {
	m, _, ok := strings.Cut(e.Name, ".")
	if !ok {
		return ""
	}
	return m
}

// Member is the part of Name after the module ("len"), or Name itself.
func (e *Entry) Member() string {
	_, m, ok := strings.Cut(e.Name, ".")
	if !ok {
		return e.Name
	}
	return m
}

// Type is the parsed signature: a function type. (The table's signatures
// are parsed on first use, by index.)
func (e *Entry) Type() *Type {
	index()
	return e.typ
}

// Arity is the number of parameters, read from Sig without parsing it
// (validation checks that the parse agrees).
func (e *Entry) Arity() int { return sigArity(e.Sig) }

// sigArity is the number of parameters of a function type written in the
// signature language: the top-level commas of its first parenthesised
// list, plus one, or 0 for "()". It reads a well-formed signature only
// (validation compares it with the parse).
func sigArity(sig string) int {
	depth, commas, open := 0, 0, 0
	for i := 0; i < len(sig); i++ {
		switch sig[i] {
		case '(':
			if depth == 0 {
				open = i
			}
			depth++
		case ')':
			depth--
			if depth == 0 {
				if strings.TrimSpace(sig[open+1:i]) == "" {
					return 0
				}
				return commas + 1
			}
		case ',':
			if depth == 1 {
				commas++
			}
		}
	}
	return -1
}

// Has reports whether every flag of f is set on e.
func (e *Entry) Has(f Flags) bool { return e.Flags.Has(f) }

// CallOnly reports whether e has no function value: it is lowered to
// instructions, so it may only be called directly.
func (e *Entry) CallOnly() bool { return e.Impl == ImplOpcode || e.Has(MailboxKey) }

// NativeArity is the number of arguments the native of e receives: its
// parameters, plus the hidden mailbox key of a MailboxKey builtin.
func (e *Entry) NativeArity() int {
	if e.Has(MailboxKey) {
		return e.Arity() + 1
	}
	return e.Arity()
}

// ProcessModule is the module of the Process operations.
const ProcessModule = "Process"

// SupervisorModule is the module of the Supervisor operations.
const SupervisorModule = "Supervisor"

// ReservedModules are module names kept for library modules this project
// does not have yet: a program may not declare a type, constructor or
// function by these names.
var ReservedModules = []string{"Map", "Set", "System", "fs", "json", "http", "sql", "actors"}

// knownTypes are the type names signatures may use (LanguageTypes and
// the library types) with their number of type arguments.
var knownTypes map[string]int

// The library types are validated when the package is initialised: the
// runtime's descriptors (TypeDecl.Info, read by runtime/ptype's
// initialisation) come from their validation. The entries are validated
// and indexed on first use (index), since a program run from bytecode
// reads only what Entries gives.
func init() {
	known, err := validateTypes(typeTable)
	if err != nil {
		panic("builtins: " + err.Error())
	}
	knownTypes = known
	for _, t := range typeTable {
		typeByName[t.Name] = t
	}
}

// entryIndex is the validated table: its entries by name, sorted, and
// their modules.
type entryIndex struct {
	byName  map[string]*Entry
	sorted  []*Entry
	modules []string
}

// index validates the table's entries (parsing their signatures) and
// indexes them, once, on the first call.
var index = sync.OnceValue(newIndex)

func newIndex() *entryIndex {
	if err := validateEntries(table, knownTypes); err != nil {
		panic("builtins: " + err.Error())
	}
	x := &entryIndex{byName: make(map[string]*Entry, len(table))}
	seen := map[string]bool{}
	for _, e := range table {
		x.byName[e.Name] = e
		if m := e.Module(); m != "" && !seen[m] {
			seen[m] = true
			x.modules = append(x.modules, m)
		}
	}
	x.sorted = slices.Clone(table)
	slices.SortFunc(x.sorted, func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(x.modules)
	return x
}

// All returns every entry, sorted by name. The entries are shared:
// callers must not modify them.
func All() []*Entry { return index().sorted }

// Entries returns every entry in declaration order without validating
// the table or parsing a signature: for the runtime's native table
// (stdlib.Build), which reads only names, implementations, contexts and
// arities, when a program that is already compiled starts. Everything
// else uses All or Lookup. The entries are shared: callers must not
// modify them.
func Entries() []*Entry { return table }

// Lookup returns the entry called name, or nil.
func Lookup(name string) *Entry { return index().byName[name] }

// Names returns the qualified names of all entries, sorted.
func Names() []string {
	sorted := index().sorted
	out := make([]string, len(sorted))
	for i, e := range sorted {
		out[i] = e.Name
	}
	return out
}

// Modules returns the modules that have builtin functions, sorted.
func Modules() []string { return index().modules }

// Validate checks a table of entries and types: unique names, signatures
// and field types that parse and name only known types, labels that
// match the parameters, and an implementation that fits the entry. The
// registry validates its own tables at start-up; a test uses Validate on
// tables of builtins that do not exist yet.
func Validate(entries []*Entry, types []*TypeDecl) error {
	known, err := validateTypes(types)
	if err != nil {
		return err
	}
	return validateEntries(entries, known)
}

// validateTypes checks the library types and returns the type names
// signatures may use with their number of type arguments.
func validateTypes(types []*TypeDecl) (map[string]int, error) {
	known := make(map[string]int, len(LanguageTypes)+len(types))
	for n, a := range LanguageTypes {
		known[n] = a
	}
	for _, t := range types {
		if err := t.validateHead(); err != nil {
			return nil, err
		}
		if _, dup := known[t.Name]; dup {
			return nil, fmt.Errorf("type %s is declared twice", t.Name)
		}
		known[t.Name] = len(t.Params)
	}
	slabs := &typeSlabs{}
	for _, t := range types {
		if err := t.validateFields(known, slabs); err != nil {
			return nil, err
		}
	}
	return known, nil
}

// validateEntries checks the entries against the known types, and
// records each one's parsed signature.
func validateEntries(entries []*Entry, known map[string]int) error {
	names := make(map[string]bool, len(entries))
	slabs := &typeSlabs{}
	for _, e := range entries {
		if err := e.validate(known, slabs); err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		if names[e.Name] {
			return fmt.Errorf("%s is listed twice", e.Name)
		}
		names[e.Name] = true
	}
	return nil
}

func (e *Entry) validate(known map[string]int, slabs *typeSlabs) error {
	if e.Name == "" || strings.Count(e.Name, ".") > 1 {
		return fmt.Errorf("bad name")
	}
	t, err := parseType(e.Sig, slabs)
	if err != nil {
		return err
	}
	if t.Ret == nil {
		return fmt.Errorf("signature %q is not a function type", e.Sig)
	}
	if err := t.check(known, nil); err != nil {
		return fmt.Errorf("signature %q: %w", e.Sig, err)
	}
	if n := sigArity(e.Sig); n != len(t.Args) {
		return fmt.Errorf("signature %q: arity %d read without parsing, %d parsed", e.Sig, n, len(t.Args))
	}
	e.typ = t
	if e.Labels != nil && len(e.Labels) != len(t.Args) {
		return fmt.Errorf("%d labels for %d parameters", len(e.Labels), len(t.Args))
	}
	if e.Doc == "" {
		return fmt.Errorf("no Doc line")
	}
	switch e.Impl {
	case ImplNative:
		if e.PreludeFn != "" || e.Lower != LowerNone {
			return fmt.Errorf("a native has no prelude function or lowering")
		}
	case ImplPrelude:
		if e.PreludeFn == "" || e.Lower != LowerNone {
			return fmt.Errorf("a prelude builtin names its prelude function and no lowering")
		}
	case ImplOpcode:
		if e.PreludeFn != "" || !slices.Contains(Lowerings, e.Lower) {
			return fmt.Errorf("an opcode builtin names its lowering and no prelude function")
		}
	default:
		return fmt.Errorf("no implementation")
	}
	if e.Rule != Plain && len(t.Args) == 0 && e.Rule != OwnMailbox {
		return fmt.Errorf("rule %d needs a first argument", e.Rule)
	}
	needsMailbox := e.Rule == SpawnEntry || e.Rule == ChildEntry || e.Has(MailboxKey)
	if needsMailbox != (e.Mailbox != "") {
		return fmt.Errorf("a spawn, child or mailbox-key builtin, and only one, names its mailbox type variable (mailbox)")
	}
	for _, v := range []string{e.Mailbox, e.Reply} {
		if v != "" && !strings.Contains(e.Sig, "("+v+")") && !strings.Contains(e.Sig, "("+v+",") && !strings.Contains(e.Sig, " "+v+")") {
			return fmt.Errorf("type variable %s is not in the signature", v)
		}
	}
	if e.Has(MailboxKey) && (e.Impl != ImplNative || !strings.Contains(e.Sig, "Pid("+e.Mailbox+")")) {
		return fmt.Errorf("a mailbox-key builtin is a native whose signature has Pid(%s)", e.Mailbox)
	}
	if e.Has(Long) && e.Impl != ImplNative {
		return fmt.Errorf("only a native can be long")
	}
	if e.Req != NoReq && !t.hasVar() {
		return fmt.Errorf("a requirement needs a generic parameter")
	}
	return nil
}
