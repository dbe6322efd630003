package types

import (
	"fmt"
	"sort"
	"strings"
)

// Built-in nominal types. They are shared by every check; their
// constructors are found by name like user constructors.
var (
	ListDef       = &TypeDef{Name: "List", Kind: OpaqueDef, Builtin: true}
	OptionDef     = &TypeDef{Name: "Option", Kind: SumDef, Builtin: true}
	ResultDef     = &TypeDef{Name: "Result", Kind: SumDef, Builtin: true}
	PidDef        = &TypeDef{Name: "Pid", Kind: OpaqueDef, Builtin: true}
	OrderingDef   = &TypeDef{Name: "Ordering", Kind: SumDef, Builtin: true}
	ExitReasonDef = &TypeDef{Name: "Process.ExitReason", Kind: SumDef, Builtin: true}
	ProcErrorDef  = &TypeDef{Name: "Process.Error", Kind: SumDef, Builtin: true}
	EventDef      = &TypeDef{Name: "Process.Event", Kind: SumDef, Builtin: true}
	DemonOptsDef  = &TypeDef{Name: "Process.DemonitorOptions", Kind: RecordDef, Builtin: true}
)

// builtinTypeDefs maps the names usable in type positions to their defs.
var builtinTypeDefs = map[string]*TypeDef{}

var tparamSeq = 0

func newTParam(name string) *TParam {
	tparamSeq++
	return &TParam{Name: name, ID: -tparamSeq}
}

func defineCtors(d *TypeDef, ctors ...*Ctor) {
	for i, c := range ctors {
		c.Def = d
		c.Tag = i
	}
	d.Ctors = ctors
}

func init() {
	all := map[string]bool{"Show": true, "Eq": true, "Ord": true, "Clone": true}
	a := newTParam("a")
	ListDef.Params = []*TParam{a}
	oa := newTParam("a")
	OptionDef.Params = []*TParam{oa}
	defineCtors(OptionDef, &Ctor{Name: "Some", Fields: []Type{oa}}, &Ctor{Name: "None"})
	ra, re := newTParam("a"), newTParam("e")
	ResultDef.Params = []*TParam{ra, re}
	defineCtors(ResultDef, &Ctor{Name: "Ok", Fields: []Type{ra}}, &Ctor{Name: "Err", Fields: []Type{re}})
	PidDef.Params = []*TParam{newTParam("m")}
	defineCtors(OrderingDef, &Ctor{Name: "Less"}, &Ctor{Name: "Equal"}, &Ctor{Name: "Greater"})
	defineCtors(ExitReasonDef,
		&Ctor{Name: "Normal"}, &Ctor{Name: "Shutdown"},
		&Ctor{Name: "ShutdownDetail", Fields: []Type{StringT}},
		&Ctor{Name: "Fault", Fields: []Type{IntT}},
		&Ctor{Name: "Failure", Fields: []Type{StringT}},
		&Ctor{Name: "Kill"}, &Ctor{Name: "Killed"}, &Ctor{Name: "NoProcess"})
	defineCtors(ProcErrorDef,
		&Ctor{Name: "ResourceLimit"}, &Ctor{Name: "ForeignInvocation"},
		&Ctor{Name: "WrongMonitorOwner"}, &Ctor{Name: "UnsupportedTarget"},
		&Ctor{Name: "InvalidOptions"})
	em := newTParam("m")
	EventDef.Params = []*TParam{em}
	reason := &Named{Def: ExitReasonDef}
	defineCtors(EventDef,
		&Ctor{Name: "Message", Fields: []Type{em}},
		&Ctor{Name: "Down", Fields: []Type{MonitorRef, ProcessIDT, reason}},
		&Ctor{Name: "Exit", Fields: []Type{ProcessIDT, reason}})
	DemonOptsDef.Fields = []string{"flush", "info"}
	defineCtors(DemonOptsDef, &Ctor{Name: "DemonitorOptions", Fields: []Type{BoolT, BoolT}, FieldNames: []string{"flush", "info"}})
	for _, d := range []*TypeDef{ListDef, OptionDef, ResultDef, ExitReasonDef, ProcErrorDef, EventDef, DemonOptsDef} {
		d.Derives = all
	}
	// STDLIB.md lists Ordering among the types without Show.
	OrderingDef.Derives = map[string]bool{"Eq": true, "Clone": true}
	PidDef.Derives = map[string]bool{"Eq": true}
	for _, d := range []*TypeDef{ListDef, OptionDef, ResultDef, PidDef, OrderingDef, ExitReasonDef, ProcErrorDef, EventDef, DemonOptsDef} {
		builtinTypeDefs[d.Name] = d
	}
	for name, spec := range builtinSpecs {
		builtinSigs[name] = parseSig(spec.sig)
		if spec.kind == bkLabeled {
			bs := builtinSigs[name]
			sig := &FuncSig{Name: name, Ret: bs.Ret, Generics: bs.Generics}
			for i, l := range []string{"left", "right"} {
				sig.Params = append(sig.Params, &ParamSig{Label: l, Name: l, Type: bs.Params[i], Declared: true})
				sig.NeedsLabel = append(sig.NeedsLabel, true)
			}
			sig.obj = &Object{Kind: ObjBuiltin, Name: name, Builtin: name, Func: sig}
			labeledSigs[name] = sig
		}
	}
}

// processCtor finds a constructor of one of the Process types by its bare
// name (`Normal`, `Down`, `ResourceLimit`, `DemonitorOptions`).
func processCtor(name string) *Ctor {
	for _, d := range []*TypeDef{ExitReasonDef, ProcErrorDef, EventDef, DemonOptsDef} {
		for _, c := range d.Ctors {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

// builtinCtor finds Some/None/Ok/Err/Less/Equal/Greater by bare name.
func builtinCtor(name string) *Ctor {
	for _, d := range []*TypeDef{OptionDef, ResultDef, OrderingDef} {
		for _, c := range d.Ctors {
			if c.Name == name {
				return c
			}
		}
	}
	return nil
}

// BuiltinSig is a builtin function's generic signature.
type BuiltinSig struct {
	Generics []*TParam
	Params   []Type
	Ret      Type
}

// builtinKind marks builtins that need checks beyond their signature.
type builtinKind int

const (
	bkPlain builtinKind = iota
	bkPrint
	bkShow
	bkContains
	bkSort
	bkSpawn
	bkSend
	bkProcID
	bkSelf
	bkActorOnly // Process operation allowed only with a mailbox
	bkLabeled   // eq/compare: called like a user function with labels
)

type builtinSpec struct {
	sig  string
	kind builtinKind
}

// builtinSpecs is the builtin signature table (LANGUAGE.md §7.1, §8 and
// STDLIB.md). Lowercase single letters are generic parameters.
var builtinSpecs = map[string]builtinSpec{
	"print":              {"(a) -> Unit", bkPrint},
	"eq":                 {"(a, a) -> Bool", bkLabeled},
	"compare":            {"(a, a) -> Ordering", bkLabeled},
	"println":            {"(a) -> Unit", bkPrint},
	"show":               {"(a) -> String", bkShow},
	"send":               {"(Pid(m), m) -> Result(Unit, Int)", bkSend},
	"spawn":              {"(() -> Unit) -> Pid(m)", bkSpawn},
	"supervise":          {"(() -> Unit, Int) -> Pid(m)", bkSpawn},
	"supervised_current": {"(Pid(m)) -> Result(Pid(m), Int)", bkPlain},

	"List.head":      {"(List(a)) -> a", bkPlain},
	"List.get":       {"(List(a), Int) -> a", bkPlain},
	"List.tail":      {"(List(a)) -> List(a)", bkPlain},
	"List.len":       {"(List(a)) -> Int", bkPlain},
	"List.is_empty":  {"(List(a)) -> Bool", bkPlain},
	"List.first":     {"(List(a)) -> Option(a)", bkPlain},
	"List.last":      {"(List(a)) -> Option(a)", bkPlain},
	"List.at":        {"(List(a), Int) -> Option(a)", bkPlain},
	"List.push":      {"(List(a), a) -> List(a)", bkPlain},
	"List.concat":    {"(List(a), List(a)) -> List(a)", bkPlain},
	"List.reverse":   {"(List(a)) -> List(a)", bkPlain},
	"List.take":      {"(List(a), Int) -> List(a)", bkPlain},
	"List.drop":      {"(List(a), Int) -> List(a)", bkPlain},
	"List.range":     {"(Int, Int) -> List(Int)", bkPlain},
	"List.zip":       {"(List(a), List(b)) -> List((a, b))", bkPlain},
	"List.contains":  {"(List(a), a) -> Bool", bkContains},
	"List.sum":       {"(List(Int)) -> Int", bkPlain},
	"List.sort":      {"(List(a)) -> List(a)", bkSort},
	"List.sort_by":   {"(List(a), (a, a) -> Ordering) -> List(a)", bkPlain},
	"List.map":       {"(List(a), (a) -> b) -> List(b)", bkPlain},
	"List.filter":    {"(List(a), (a) -> Bool) -> List(a)", bkPlain},
	"List.fold":      {"(List(a), b, (b, a) -> b) -> b", bkPlain},
	"List.find":      {"(List(a), (a) -> Bool) -> Option(a)", bkPlain},
	"List.any":       {"(List(a), (a) -> Bool) -> Bool", bkPlain},
	"List.all":       {"(List(a), (a) -> Bool) -> Bool", bkPlain},
	"List.enumerate": {"(List(a)) -> List((Int, a))", bkPlain},

	"String.len":         {"(String) -> Int", bkPlain},
	"String.concat":      {"(String, String) -> String", bkPlain},
	"String.eq":          {"(String, String) -> Bool", bkPlain},
	"String.compare":     {"(String, String) -> Int", bkPlain},
	"String.repeat":      {"(String, Int) -> String", bkPlain},
	"String.slice":       {"(String, Int, Int) -> String", bkPlain},
	"String.split":       {"(String, String) -> List(String)", bkPlain},
	"String.join":        {"(List(String), String) -> String", bkPlain},
	"String.contains":    {"(String, String) -> Bool", bkPlain},
	"String.starts_with": {"(String, String) -> Bool", bkPlain},
	"String.ends_with":   {"(String, String) -> Bool", bkPlain},
	"String.trim":        {"(String) -> String", bkPlain},
	"String.trim_start":  {"(String) -> String", bkPlain},
	"String.trim_end":    {"(String) -> String", bkPlain},
	"String.to_upper":    {"(String) -> String", bkPlain},
	"String.to_lower":    {"(String) -> String", bkPlain},
	"String.replace":     {"(String, String, String) -> String", bkPlain},
	"String.quote":       {"(String) -> String", bkPlain},
	"String.is_empty":    {"(String) -> Bool", bkPlain},
	"String.index_of":    {"(String, String) -> Option(Int)", bkPlain},
	"String.char_at":     {"(String, Int) -> Option(Int)", bkPlain},
	"String.lines":       {"(String) -> List(String)", bkPlain},
	"String.is_decimal":  {"(String) -> Bool", bkPlain},

	"Int.parse":       {"(String) -> Option(Int)", bkPlain},
	"Int.checked_add": {"(Int, Int) -> Option(Int)", bkPlain},
	"Int.checked_sub": {"(Int, Int) -> Option(Int)", bkPlain},
	"Int.checked_mul": {"(Int, Int) -> Option(Int)", bkPlain},
	"Int.checked_div": {"(Int, Int) -> Option(Int)", bkPlain},
	"Int.checked_rem": {"(Int, Int) -> Option(Int)", bkPlain},
	"Int.checked_neg": {"(Int) -> Option(Int)", bkPlain},

	"Option.is_some":   {"(Option(a)) -> Bool", bkPlain},
	"Option.is_none":   {"(Option(a)) -> Bool", bkPlain},
	"Option.unwrap_or": {"(Option(a), a) -> a", bkPlain},
	"Option.map":       {"(Option(a), (a) -> b) -> Option(b)", bkPlain},

	"Result.is_ok":          {"(Result(a, e)) -> Bool", bkPlain},
	"Result.is_err":         {"(Result(a, e)) -> Bool", bkPlain},
	"Result.unwrap_or":      {"(Result(a, e), a) -> a", bkPlain},
	"Result.unwrap_or_else": {"(Result(a, e), (e) -> a) -> a", bkPlain},
	"Result.map":            {"(Result(a, e), (a) -> b) -> Result(b, e)", bkPlain},
	"Result.and_then":       {"(Result(a, e), (a) -> Result(b, e)) -> Result(b, e)", bkPlain},

	"Process.spawn":         {"(() -> Unit) -> Result(Pid(m), Process.Error)", bkSpawn},
	"Process.spawn_monitor": {"(() -> Unit) -> Result((Pid(m), MonitorRef), Process.Error)", bkSpawn},
	"Process.spawn_link":    {"(() -> Unit) -> Result(Pid(m), Process.Error)", bkSpawn},
	"Process.self":          {"() -> Pid(m)", bkSelf},
	"Process.id":            {"(Pid(m)) -> ProcessId", bkProcID},
	"Process.monitor":       {"(ProcessId) -> Result(MonitorRef, Process.Error)", bkActorOnly},
	"Process.demonitor":     {"(MonitorRef, Process.DemonitorOptions) -> Result(Bool, Process.Error)", bkActorOnly},
	"Process.link":          {"(ProcessId) -> Result(Unit, Process.Error)", bkActorOnly},
	"Process.unlink":        {"(ProcessId) -> Result(Unit, Process.Error)", bkActorOnly},
	"Process.trap_exit":     {"(Bool) -> Bool", bkActorOnly},
	"Process.exit":          {"(Process.ExitReason) -> Never", bkActorOnly},
	"Process.signal_exit":   {"(ProcessId, Process.ExitReason) -> Result(Unit, Process.Error)", bkActorOnly},
	"Process.sleep":         {"(Int) -> Unit", bkActorOnly},

	// Conversions and helpers beyond STDLIB.md (docs/stdlib.md records the
	// decisions); natives in stdlib/core/extra.go.
	"Int.to_float":     {"(Int) -> Float", bkPlain},
	"Float.from_int":   {"(Int) -> Float", bkPlain},
	"Float.to_int":     {"(Float) -> Int", bkPlain},
	"Float.round":      {"(Float) -> Int", bkPlain},
	"List.max":         {"(List(a)) -> Option(a)", bkSort},
	"List.min":         {"(List(a)) -> Option(a)", bkSort},
	"String.pad_left":  {"(String, Int, String) -> String", bkPlain},
	"String.pad_right": {"(String, Int, String) -> String", bkPlain},
}

var builtinSigs = map[string]*BuiltinSig{}

// labeledSigs holds the builtins called with labels (eq, compare).
var labeledSigs = map[string]*FuncSig{}

// BuiltinNames returns the qualified names of every builtin function the
// checker knows (print, println, show, send, spawn, supervise,
// supervised_current, List.*, String.*, Int.*, Option.*, Result.* and
// Process.*), sorted. A test compares it with the runtime's natives.
func BuiltinNames() []string {
	out := make([]string, 0, len(builtinSpecs))
	for n := range builtinSpecs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// LookupBuiltin returns the signature of a builtin function by qualified
// name, or nil.
func LookupBuiltin(name string) *BuiltinSig { return builtinSigs[name] }

// builtinModules are the namespaces whose members are builtin functions.
var builtinModules = map[string]bool{"List": true, "String": true, "Int": true, "Float": true, "Option": true, "Result": true, "Process": true,
	"Map": true, "Set": true, "System": true, "fs": true, "json": true, "http": true, "sql": true, "actors": true}

// reservedNames are names a user function, type or constructor may not take.
var reservedNames = map[string]bool{"print": true, "println": true, "show": true, "send": true, "spawn": true,
	"supervise": true, "supervised_current": true, "eq": true, "compare": true}

// ---------------------------------------------------------------- signature mini-language

type sigParser struct {
	s      string
	pos    int
	params map[string]*TParam
	order  []*TParam
}

// parseSig parses a builtin signature such as "(List(a), (a) -> b) -> List(b)".
// It panics on a malformed table entry (a programming error caught by tests).
func parseSig(s string) *BuiltinSig {
	p := &sigParser{s: s, params: map[string]*TParam{}}
	t := p.typ()
	p.ws()
	if p.pos != len(p.s) {
		panic(fmt.Sprintf("types: bad builtin signature %q at %d", s, p.pos))
	}
	f, ok := t.(*Func)
	if !ok {
		panic("types: builtin signature is not a function: " + s)
	}
	return &BuiltinSig{Generics: p.order, Params: f.Params, Ret: f.Ret}
}

func (p *sigParser) ws() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *sigParser) eat(tok string) bool {
	p.ws()
	if strings.HasPrefix(p.s[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *sigParser) list() []Type {
	var out []Type
	if p.eat(")") {
		return out
	}
	for {
		out = append(out, p.typ())
		if p.eat(")") {
			return out
		}
		if !p.eat(",") {
			panic("types: bad builtin signature " + p.s)
		}
	}
}

func (p *sigParser) typ() Type {
	if p.eat("(") {
		elems := p.list()
		if p.eat("->") {
			return &Func{Params: elems, Ret: p.typ()}
		}
		if len(elems) == 0 {
			return UnitT
		}
		if len(elems) == 1 {
			return elems[0]
		}
		return &Tuple{Elems: elems}
	}
	p.ws()
	start := p.pos
	for p.pos < len(p.s) && (isWordByte(p.s[p.pos]) || p.s[p.pos] == '.') {
		p.pos++
	}
	name := p.s[start:p.pos]
	var args []Type
	if p.pos < len(p.s) && p.s[p.pos] == '(' {
		p.pos++
		args = p.list()
	}
	switch name {
	case "Int":
		return IntT
	case "Float":
		return FloatT
	case "Bool":
		return BoolT
	case "String":
		return StringT
	case "Unit":
		return UnitT
	case "Never":
		return NeverT
	case "Range":
		return RangeT
	case "ProcessId":
		return ProcessIDT
	case "MonitorRef":
		return MonitorRef
	}
	if d, ok := builtinTypeDefs[name]; ok {
		return &Named{Def: d, Args: args}
	}
	if len(name) == 1 {
		if tp, ok := p.params[name]; ok {
			return tp
		}
		tp := newTParam(name)
		p.params[name] = tp
		p.order = append(p.order, tp)
		return tp
	}
	panic("types: unknown type in builtin signature: " + name)
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// coreCtor reports the constructor names no user declaration may take:
// those of Option and Result. The prelude's Ordering constructors (Less,
// Equal, Greater) may be shadowed by a user type's.
func coreCtor(name string) bool {
	switch name {
	case "Some", "None", "Ok", "Err":
		return true
	}
	return false
}
