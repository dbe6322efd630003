// Package codegen lowers a checked Morrow syntax tree to bytecode
// (runtime/bytecode). It never reports user errors: the checker ran first,
// so an error returned here is an internal compiler bug.
//
// # Algorithm
//
// Compile makes two passes over the file. The first builds the program's
// tables: one bytecode.Function slot per top-level `fn` (in declaration
// order, so a function may call one declared later), and one
// value.TypeInfo per `type`/`newtype` declaration, whose constructors go
// into a name table (bare `Circle` and qualified `Shape.Circle`) next to
// the built-in Some/None/Ok/Err/Less/Equal/Greater. The second pass
// compiles each function body by a recursive walk over the tree that emits
// stack-machine code directly:
//
//   - Every expression leaves exactly one value on the operand stack. The
//     walker tracks the static stack depth (from the opcode stack-effect
//     table) to record MaxStack and to pop the right number of values when
//     `break`/`continue` leave a loop from inside an expression. A
//     diverging expression (return, break, `?` on Err, a tail call) is
//     accounted as if it pushed its value; the code after it is dead.
//   - Locals get fresh slots per binding (shadowing allocates a new slot;
//     slots are never reused), so a pattern binding can alias the slot it
//     was matched from and closures can capture by value at creation time.
//   - Lambdas and `defer` bodies are compiled eagerly as separate
//     functions while the enclosing function's scope is current. A name
//     they do not bind is looked up in the enclosing function (recursively
//     through enclosing lambdas) and becomes a captured value: the
//     enclosing code pushes the captured values and emits CLOSURE. This is
//     closure conversion with capture by value.
//   - Functions are compiled in "return mode": a tail expression (the last
//     expression of the body, of an if branch, of a match, receive or with
//     arm in tail position, recursively) returns by itself. A tail call of
//     the function itself becomes argument stores plus JUMP 0 (unless the
//     function has a defer or captures); another tail call becomes
//     TAIL_CALL or TAIL_CALL_VALUE. A function that contains `defer` gets
//     no tail calls, so RETURN always runs its defers after the call.
//     The branch of an else-less if in tail position, and the body of a
//     function declared Unit, are in "unit mode" (tailMode): the code
//     returns (), a call of Unit type there is still a tail call, and any
//     other value is popped and replaced by ().
//   - Patterns compile to a sequence of tests on a value held in a local
//     slot, each jumping to the arm's failure label (TEST_TAG, EQ_CONST,
//     LIST_LEN comparisons, ...), then extractions (ELEM, LIST_ELEM,
//     LIST_SLICE) into fresh slots for sub-patterns. A match tries its arms
//     in order; after the last refutable arm it emits FAIL, which a checked
//     (exhaustive) program never reaches.
//   - Call arguments are evaluated exactly once, left to right in written
//     order (a piped value first); when labels or a pipe placeholder make
//     parameter order differ from evaluation order they go through
//     temporary slots and are then loaded in parameter order.
//   - A call of a library function becomes CALL_NATIVE by qualified name,
//     except the higher-order ones, which are Morrow functions in the
//     prelude (stdlib/core.Prelude). The prelude is parsed on first use and
//     only the prelude functions the program reaches are compiled.
//
// The VM is dynamically tagged, so no types are needed here: arithmetic,
// equality, printing and interpolation dispatch on runtime tags, and a
// record field is read by name.
package codegen

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/value"
)

// Compile lowers a file that checked without errors. It never reports
// user errors; an error here is an internal compiler bug.
func Compile(f *ast.File, info *types.Info) (prog *bytecode.Program, err error) {
	if f == nil {
		return nil, fmt.Errorf("codegen: nil file")
	}
	defer func() {
		// A panic here is a compiler bug on some unexpected tree shape;
		// report it as an internal error instead of crashing the driver.
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("codegen: internal error: %v", r)
		}
	}()
	name := ""
	if f.Src != nil {
		name = f.Src.Name
	}
	c := newCompiler(name)
	if err := c.declare(f, info); err != nil {
		return nil, err
	}
	if err := c.compileAll(); err != nil {
		return nil, err
	}
	return c.prog, nil
}

// ctorInfo describes one constructor: the type table index, the variant
// tag and the number of fields.
type ctorInfo struct {
	typ, tag, arity int
}

// unit is one group of top-level functions compiled from one source file:
// the user's file or the prelude. Names resolve within the unit.
type unit struct {
	src     *source.File
	prelude bool
	decls   map[string]*ast.FnDecl
	index   map[string]int // function name -> index in prog.Functions (once declared)
	aliases map[string]ast.TypeExpr
}

// compiler holds the program being built and the name tables.
type compiler struct {
	prog      *bytecode.Program
	user      *unit
	prelude   *unit // nil until first needed
	ctors     map[string]ctorInfo
	typeIndex map[string]int // nominal type name -> index in prog.Types
	wrappers  map[string]int // constructor name -> index of its function-value wrapper
	queue     []pending      // functions declared but not yet compiled
	info      *types.Info    // the checker's side tables (may be nil)
	// codeBufs and lineBufs are the free code and line-table buffers
	// (newFnState, finish).
	codeBufs [][]bytecode.Instr
	lineBufs [][]bytecode.LineEntry
	// localBufs and markBufs are the free scope stacks (fnState.locals
	// and marks), reused the same way.
	localBufs [][]local
	markBufs  [][]int
}

// pending is a declared function whose body is still to be compiled.
type pending struct {
	u    *unit
	decl *ast.FnDecl
	idx  int
}

func newCompiler(name string) *compiler {
	c := &compiler{
		prog:      bytecode.NewProgram(name),
		ctors:     map[string]ctorInfo{},
		typeIndex: map[string]int{},
		wrappers:  map[string]int{},
	}
	c.typeIndex["Option"] = bytecode.TypeOption
	c.typeIndex["Result"] = bytecode.TypeResult
	c.typeIndex["Ordering"] = bytecode.TypeOrdering
	for _, b := range []struct {
		typ  int
		name string
		tag  int
		n    int
	}{
		{bytecode.TypeOption, "None", value.TagNone, 0},
		{bytecode.TypeOption, "Some", value.TagSome, 1},
		{bytecode.TypeResult, "Ok", value.TagOk, 1},
		{bytecode.TypeResult, "Err", value.TagErr, 1},
		{bytecode.TypeOrdering, "Less", bytecode.TagLess, 0},
		{bytecode.TypeOrdering, "Equal", bytecode.TagEqual, 0},
		{bytecode.TypeOrdering, "Greater", bytecode.TagGreater, 0},
	} {
		ci := ctorInfo{b.typ, b.tag, b.n}
		c.ctors[b.name] = ci
		c.ctors[c.prog.Types[b.typ].Name+"."+b.name] = ci
	}
	return c
}

// declare runs the first pass over the user's file.
func (c *compiler) declare(f *ast.File, info *types.Info) error {
	u := &unit{src: f.Src, decls: map[string]*ast.FnDecl{}, index: map[string]int{}, aliases: map[string]ast.TypeExpr{}}
	c.user = u
	c.info = info
	if err := c.declareTypes(u, f); err != nil {
		return err
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FnDecl); ok {
			if _, dup := u.decls[fd.Name]; dup {
				continue // the checker reported it
			}
			u.decls[fd.Name] = fd
			c.declareFunc(u, fd)
		}
	}
	return c.setEntry(u, f, info != nil && info.Library)
}

// declareTypes declares the file's types and newtypes.
func (c *compiler) declareTypes(u *unit, f *ast.File) error {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.TypeDecl:
			if err := c.declareType(u, d); err != nil {
				return err
			}
		case *ast.NewtypeDecl:
			c.declareNewtype(d)
		}
	}
	return nil
}

// setEntry chooses the program's entry function: main, else (in a file
// checked for tests) its first test, else start, which makes the program
// a library.
func (c *compiler) setEntry(u *unit, f *ast.File, library bool) error {
	entry, ok := u.index["main"]
	if !ok && !library {
		entry, ok = firstTest(u, f)
	}
	if !ok || library {
		if s, found := u.index["start"]; found {
			entry, ok, library = s, true, true
		}
	}
	if !ok {
		return fmt.Errorf("codegen: program has neither main nor start")
	}
	c.prog.Entry = entry
	c.prog.Library = library
	return nil
}

// firstTest returns the function index of the file's first test. A file
// checked for `morrow test` (types.CheckTests) may have neither main nor
// start: its entries are its tests, which the runner starts by name; the
// first one stands as the program's entry.
func firstTest(u *unit, f *ast.File) (int, bool) {
	for _, d := range f.Decls {
		// (a test of an imported module is not one: lang/modules)
		if fd, isFn := d.(*ast.FnDecl); isFn && types.IsTest(fd) && len(fd.Params) == 0 && !strings.Contains(fd.Name, ast.ModuleSep) {
			return u.index[fd.Name], true
		}
	}
	return 0, false
}

// declareFunc allocates the function slot of a top-level function and
// queues its body.
func (c *compiler) declareFunc(u *unit, fd *ast.FnDecl) int {
	// A function of an imported module is named module-qualified
	// (geo.shapes.area) and keeps its file (lang/modules).
	fn := &bytecode.Function{Name: ast.Qualified(fd.Name), Params: len(fd.Params), Line: lineOf(u.src, fd.S.Start), File: c.fileOf(u, fd.S.Start)}
	if u.prelude {
		fn.Flags |= bytecode.FlagPrelude
	}
	c.prog.Functions = append(c.prog.Functions, fn)
	idx := len(c.prog.Functions) - 1
	u.index[fd.Name] = idx
	c.queue = append(c.queue, pending{u, fd, idx})
	return idx
}

// derives turns a derive list into TypeInfo flags.
func derives(ti *value.TypeInfo, ds []ast.Ident) {
	for _, d := range ds {
		switch d.Name {
		case "Show":
			ti.Show = true
		case "Eq":
			ti.Eq = true
		case "Ord":
			ti.Ord = true
		}
	}
}

func (c *compiler) addType(ti *value.TypeInfo) int {
	key := ti.Name
	// Values show the names their module wrote (Circle, not the global
	// name of an imported module's constructor).
	ti.Name = ast.PlainName(ti.Name)
	for i := range ti.Variants {
		ti.Variants[i].Name = ast.PlainName(ti.Variants[i].Name)
	}
	c.prog.Types = append(c.prog.Types, ti)
	idx := len(c.prog.Types) - 1
	c.typeIndex[key] = idx
	return idx
}

// fileOf is the file of a function at offset off of a unit's text when
// it is not the program's source (a module of a many-file program), or "".
func (c *compiler) fileOf(u *unit, off int) string {
	if u.src == nil || u.prelude {
		return ""
	}
	if f, _ := u.src.Locate(off); f.Name != c.prog.Source {
		return f.Name
	}
	return ""
}

func (c *compiler) declareType(u *unit, d *ast.TypeDecl) error {
	switch d.Kind {
	case ast.AliasType:
		u.aliases[d.Name] = d.Alias
		return nil
	case ast.RecordType:
		ti := &value.TypeInfo{Name: d.Name, Kind: value.TRecord}
		derives(ti, d.Derives)
		v := value.VariantInfo{Name: d.Name}
		for _, f := range d.Fields {
			v.Fields = append(v.Fields, f.Name)
		}
		ti.Variants = []value.VariantInfo{v}
		idx := c.addType(ti)
		c.ctors[d.Name] = ctorInfo{idx, 0, len(v.Fields)}
		return nil
	case ast.SumType:
		ti := &value.TypeInfo{Name: d.Name, Kind: value.TSum}
		derives(ti, d.Derives)
		for _, v := range d.Variants {
			vi := value.VariantInfo{Name: v.Name}
			for _, f := range v.Fields {
				vi.Fields = append(vi.Fields, f.Name)
			}
			ti.Variants = append(ti.Variants, vi)
		}
		idx := c.addType(ti)
		for tag, v := range d.Variants {
			ci := ctorInfo{idx, tag, len(v.Fields)}
			if _, taken := c.ctors[v.Name]; !taken {
				c.ctors[v.Name] = ci
			}
			c.ctors[d.Name+"."+v.Name] = ci
		}
		return nil
	}
	return fmt.Errorf("codegen: type %s has unknown kind %d", d.Name, d.Kind)
}

func (c *compiler) declareNewtype(d *ast.NewtypeDecl) {
	ti := &value.TypeInfo{Name: d.Name, Kind: value.TNewtype,
		Variants: []value.VariantInfo{{Name: d.Ctor, Fields: []string{""}}}}
	derives(ti, d.Derives)
	idx := c.addType(ti)
	ci := ctorInfo{idx, 0, 1}
	c.ctors[d.Ctor] = ci
	c.ctors[d.Name+"."+d.Ctor] = ci
}

// compileAll compiles queued function bodies until none are left (prelude
// functions are queued as the code reaches them).
func (c *compiler) compileAll() error {
	for len(c.queue) > 0 {
		p := c.queue[0]
		c.queue = c.queue[1:]
		if err := c.compileFunc(p); err != nil {
			return err
		}
	}
	return nil
}

// preludeFunc returns the function index of the prelude function that
// implements the library function qualified (e.g. "List.map"), declaring
// it on first use.
func (c *compiler) preludeFunc(qualified string) (int, bool, error) {
	name, ok := preludeFunction(qualified)
	if !ok {
		return 0, false, nil
	}
	u, err := c.preludeUnit()
	if err != nil {
		return 0, false, err
	}
	idx, ok := c.unitFunc(u, name)
	if !ok {
		return 0, false, fmt.Errorf("codegen: prelude has no function %s for %s", name, qualified)
	}
	// Backtraces show the library name the program called.
	c.prog.Functions[idx].Name = qualified
	return idx, true, nil
}

// unitFunc returns the index of the top-level function name of u,
// declaring it (and queueing its body) on first use.
func (c *compiler) unitFunc(u *unit, name string) (int, bool) {
	if idx, ok := u.index[name]; ok {
		return idx, true
	}
	fd, ok := u.decls[name]
	if !ok {
		return 0, false
	}
	return c.declareFunc(u, fd), true
}

// qualifiedName joins a path.
func qualifiedName(parts []string) string { return strings.Join(parts, ".") }

// lineOf returns the 1-based line of a byte offset (0 without a file).
func lineOf(f *source.File, off int) int {
	if f == nil {
		return 0
	}
	return f.Line(off)
}

// resolved follows a checked type's bound inference variables (at most
// 100 links, as a guard) to the type they stand for.
func resolved(t types.Type) types.Type {
	for i := 0; i < 100; i++ {
		v, ok := t.(*types.TVar)
		if !ok || v.Ref == nil {
			break
		}
		t = v.Ref
	}
	return t
}

// tupleArity is the number of elements of the tuple a pattern was checked
// against, from the checker's results.
func (c *compiler) tupleArity(p ast.Pattern) (int, bool) {
	if c.info == nil || c.info.PatTypes == nil {
		return 0, false
	}
	switch t := resolved(c.info.PatTypes[p]).(type) {
	case *types.Tuple:
		return len(t.Elems), true
	case *types.Basic:
		if t.Kind == types.KUnit {
			return 0, true
		}
	}
	return 0, false
}

// knownNonUnit reports whether the checker recorded a type for e (in the
// user's file) that is neither Unit nor Never. Without checker results it
// reports false.
func (c *compiler) knownNonUnit(e ast.Expr) bool {
	if c.info == nil || c.info.Types == nil {
		return false
	}
	switch t := resolved(c.info.TypeOf(e)).(type) {
	case nil:
		return false
	case *types.Basic:
		return t.Kind != types.KUnit && t.Kind != types.KNever && t.Kind != types.KInvalid
	case *types.TVar:
		return false
	}
	return true
}
