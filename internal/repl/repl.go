// Package repl is `morrow repl`: an interactive session that evaluates
// one entry at a time (docs/reference/checks.md#repl, issue 14).
//
// # Entries
//
// An entry is an expression, a `let`, or a `fn`/`type` declaration.
// Each one is compiled as a whole program by the ordinary pipeline
// (lang/compiler): the declarations accepted so far, an empty `main`,
// and a function `__repl_N` whose body is the entry and whose parameters
// are the `let` bindings made so far, annotated with their types as the
// checker inferred them (past 200 bindings they travel in tuple
// parameters of 200, see layout, so their number is not bounded by the
// 255 parameters of a function). The bindings' values are passed to `__repl_N`
// as arguments when it runs, so earlier entries are never run again and
// their effects never replayed. A `let` entry returns the values of the
// names it binds (a tuple of them); an expression entry returns its
// value, which is printed as `VALUE : TYPE` unless its type is Unit. A
// declaration replaces an earlier one of the same name.
//
// Values built by one entry's program and used by a later one keep
// their meaning: the descriptors of user types are interned by name
// and structure, so every program of the session shares them; a
// closure names its code by a function index of the program that made
// it, so a `let` whose value holds a function keeps its entry's code in
// every later program (as a function nobody calls), and the closure is
// moved to the new program's index of the same code (values.go,
// remapper).
//
// # Actors
//
// One deterministic runtime (runtime/sched with Config.Session and a
// FIFO policy) lives as long as the session: each entry's root runs in
// it, then every legacy actor runs until all wait in receive with no
// timer pending. The virtual clock advances 1 ms per actor turn and jumps
// to the next `after` deadline when nothing else can run. Limits: 256
// live actors, 4,096 queued messages, 16 MiB, 100,000 steps per entry.
// Waiting actors stay for the next entry; `:stop`, `:reset`, `:quit` and
// the end of the input cancel them and run their defers. A fault of a
// legacy actor, the step limit or Ctrl-C (the context of Eval) stop the
// entry and every actor.
//
// Typed Process operations and receive_event are refused before anything
// runs, even when a declaration only mentions them.
//
// # Errors
//
// Every error is one line `error: MESSAGE` on the output; the failed
// entry leaves no binding and no declaration behind.
package repl

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/compiler"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
	"github.com/morrow-lang/morrow/lang/types"
	"github.com/morrow-lang/morrow/runtime/bytecode"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/sched"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/runtime/vm"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// Limits of a session (docs/reference/checks.md#repl).
const (
	MaxActors    = 256
	MaxQueued    = 4096
	MemoryBudget = 16 << 20
	MaxSteps     = 100_000
	TurnTick     = 1_000_000 // nanoseconds: 1 ms of virtual time per actor turn
)

// NativeOnly is the error of an entry that uses typed Process operations
// or receive_event.
const NativeOnly = "typed Process operations and receive_event require the native backend"

// NoOutside is the error of an entry that uses Net or System.read_line:
// the REPL reads its own standard input, and its deterministic runtime
// cannot wait on the network (docs/io.md).
const NoOutside = "Net and System.read_line are not available in the REPL"

// Session is one REPL session.
type Session struct {
	// Terminal says that the output is a terminal (:clear clears it).
	Terminal bool

	out    io.Writer
	output *sched.Output
	rt     *sched.Runtime

	decls   []*decl  // in the order they were accepted
	imports []string // accepted import entries (docs/modules.md), in order
	// typeImports are qualified imports of the modules whose types the
	// bindings' types name (Session.typeSource).
	typeImports []string
	lets        []*binding // the visible bindings, in the order they were made
	kept        []*kept    // entries whose code later programs keep
	seq         int        // entries compiled so far

	types map[string]*value.TypeInfo // interned descriptors of user types
	keys  map[*vm.Image]*imageKeys
	srcs  map[*vm.Image]map[string]string // top-level function name -> its source, per program
}

// decl is an accepted declaration.
type decl struct {
	name string
	typ  bool // a type, not a function
	src  string
}

// binding is a `let` binding: its value is relative to the program img
// (closures name functions of img).
//
// A weak binding's type has variables that no use has fixed yet (`let
// sink = spawn(idle)` where idle receives `[] -> ()`: Pid(List(a))). It
// is passed as a parameter without annotation, and the body starts with
// a call of a generic function whose parameter has the binding's type:
// the call gives the parameter that shape with fresh variables, which the
// entry's uses may fix (`send(sink, [1])`), as OCaml's weak variables;
// after the entry ran its type is read back from the checker.
type binding struct {
	name string
	typ  string // in source syntax, for the parameter annotation
	weak bool
	val  value.Value
	img  *vm.Image
	knew map[string]bool // the user types declared when the value was made
}

// kept is an earlier entry compiled into every later program because
// a binding's value holds one of its functions.
type kept struct {
	fn     string
	params []*binding
	body   string
}

// New starts a session writing everything to out.
func New(out io.Writer) *Session {
	s := &Session{out: out}
	s.reset()
	return s
}

func (s *Session) reset() {
	// Every print goes out at once (one goroutine runs the session), so
	// an entry's effects show while it runs.
	s.output = sched.NewDirectOutput(s.out)
	s.rt = sched.New(nil, s.output, sched.Config{Session: true, Policy: &sched.FIFO{}, TurnTick: TurnTick,
		MaxLive: MaxActors, MaxQueued: MaxQueued, MemoryBudget: MemoryBudget, MaxSteps: MaxSteps,
		Stderr: s.output}) // eprint goes to the one output too
	s.decls, s.lets, s.kept, s.imports, s.typeImports = nil, nil, nil, nil, nil
	s.types = map[string]*value.TypeInfo{}
	s.keys = map[*vm.Image]*imageKeys{}
	s.srcs = map[*vm.Image]map[string]string{}
}

// Close cancels the session's actors, running their defers.
func (s *Session) Close() { s.rt.StopAll() }

// errorf writes an error line; a message is always one line.
func (s *Session) errorf(format string, args ...any) {
	msg := strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " ")
	fmt.Fprintf(s.out, "error: %s\n", msg)
}

// Run reads entries from r and evaluates them until the end of the input
// or `:quit`. ctx returns the context of one entry (Ctrl-C cancels it on
// a terminal); nil means context.Background.
func (s *Session) Run(r LineReader, ctx func() (context.Context, func())) {
	defer s.Close()
	for {
		text, err := readEntry(r)
		if err == ErrInterrupt {
			continue
		}
		if text == "" && err != nil {
			return
		}
		c, cancel := context.Background(), func() {}
		if ctx != nil {
			c, cancel = ctx()
		}
		quit := s.Eval(c, text)
		cancel()
		if quit {
			return
		}
	}
}

// Help is the text of :help.
const Help = `Enter an expression, a let, or a fn/type declaration. A line that ends in ':' or '->',
or leaves a bracket open, continues until a blank line.
Commands:
  :type EXPR, :t EXPR  the type of EXPR, without evaluating it
  :actors              the live actors
  :stop                cancel the live actors (their defers run)
  :reset               forget every binding and declaration, and cancel the actors
  :clear               clear the screen
  :paste ... :end      enter several lines as one entry
  :help, :h            this text
  :quit, :q            leave (Ctrl-D too)
`

// Eval evaluates one entry or command and reports whether the session
// should end.
func (s *Session) Eval(ctx context.Context, text string) bool {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return false
	}
	if strings.HasPrefix(trimmed, ":") && !strings.Contains(trimmed, "\n") {
		return s.command(ctx, trimmed)
	}
	s.entry(ctx, text, false)
	return false
}

func (s *Session) command(ctx context.Context, line string) bool {
	cmd, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	switch cmd {
	case ":quit", ":q":
		return true
	case ":help", ":h":
		io.WriteString(s.out, Help)
	case ":type", ":t":
		if arg == "" {
			s.errorf("%s needs an expression", cmd)
			return false
		}
		s.entry(ctx, arg, true)
	case ":clear":
		if s.output != nil {
			s.output.Flush()
		}
		if s.Terminal {
			io.WriteString(s.out, "\x1b[H\x1b[2J")
		}
	case ":reset":
		s.rt.StopAll()
		s.reset()
	case ":stop":
		s.rt.StopAll()
	case ":actors":
		s.actors()
	case ":paste", ":end":
		s.errorf("%s only works at the start of an entry", cmd)
	default:
		s.errorf("unknown command %s (:help lists them)", cmd)
	}
	return false
}

// actors writes the process table (runtime/sched, table.go) of the live
// actors: one line per actor, where and how it waits and its mailbox
// length, as `morrow run` prints it on SIGQUIT and after a deadlock.
func (s *Session) actors() {
	n := 0
	for _, pi := range s.rt.Table() {
		if pi.NoMailbox {
			continue // the root of the entry that is running :actors
		}
		// Positions are in the session's combined program, which the
		// user never sees: the function names the place.
		pi.Func, pi.File, pi.Line = replFunc(pi.Func), "", 0
		fmt.Fprintln(s.out, pi.String())
		n++
	}
	if n == 0 {
		fmt.Fprintln(s.out, "no live actors")
	}
}

// replFunc names a function of an entry as the entry wrote it: "counter",
// not "__repl_3.counter"; "lambda" for a lambda.
func replFunc(name string) string {
	if _, kind, ok := strings.Cut(name, "."); ok && strings.HasPrefix(name, "__repl_") {
		if i := strings.IndexByte(kind, '@'); i >= 0 && strings.HasPrefix(kind[:i], "lambda") {
			return "lambda"
		}
		return kind
	}
	return name
}

// replName is the file name of the generated programs; imports resolve
// from the directory it stands for, the current one.
const replName = "<repl>"

// entryKind says what an entry is.
type entryKind int

const (
	kindExpr entryKind = iota
	kindLet
	kindFn
	kindType
	kindImport
)

func classify(text string) (entryKind, string) {
	t := strings.TrimSpace(text)
	first := t
	if i := strings.IndexAny(t, " \t\n(:"); i >= 0 {
		first = t[:i]
	}
	rest := strings.TrimSpace(strings.TrimPrefix(t, first))
	if first == "pub" {
		first, _, _ = strings.Cut(rest, " ")
		rest = strings.TrimSpace(strings.TrimPrefix(rest, first))
	}
	name := rest
	if i := strings.IndexAny(rest, " \t\n(:=[<"); i >= 0 {
		name = rest[:i]
	}
	switch first {
	case "import":
		return kindImport, t
	case "let":
		return kindLet, ""
	case "fn":
		return kindFn, name
	case "type", "newtype":
		return kindType, name
	}
	return kindExpr, ""
}

// region is a byte range of the generated program.
type region struct{ start, end int }

func (r region) has(off int) bool { return off >= r.start && off < r.end }

// program is the generated source of one entry.
type program struct {
	src     string
	entry   region   // the entry's own text (its declaration, or its function)
	decls   []region // each accepted declaration, in s.decls order (the replaced one excluded)
	keptAt  []region // each kept entry
	declSrc map[string]string
}

// indent indents the lines of an entry to make them a function body;
// a line that starts inside a triple-quoted string is part of the string
// and stays as it is.
func indent(text string) string {
	lines := strings.Split(text, "\n")
	var sc scanState
	for i, l := range lines {
		inString := sc.triple
		sc.line(l)
		if strings.TrimSpace(l) != "" && !inString {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}

// Bindings beyond the parameter limit: up to maxDirect bindings are
// parameters of their own; past that, every binding whose type is fixed
// travels in a tuple parameter of up to envChunk of them, which the body
// takes apart first (`let (a, b, …) = __env_0`), so the number of
// bindings is not bounded by the 255 parameters of a function. Weak
// bindings stay parameters of their own (they have no annotation).
const (
	maxDirect = 200
	envChunk  = 200
)

// slot is one parameter of an entry's function: one binding, or a group
// of them passed as a tuple.
type slot struct {
	one   *binding
	group []*binding
}

// layout decides the parameters of a function whose bindings are bs.
func layout(bs []*binding) []slot {
	var out []slot
	if len(bs) <= maxDirect {
		for _, b := range bs {
			out = append(out, slot{one: b})
		}
		return out
	}
	var fixed []*binding
	for _, b := range bs {
		if b.weak {
			out = append(out, slot{one: b})
		} else {
			fixed = append(fixed, b)
		}
	}
	for len(fixed) > 0 {
		n := min(envChunk, len(fixed))
		if n == 1 {
			out = append(out, slot{one: fixed[0]})
		} else {
			out = append(out, slot{group: fixed[:n:n]})
		}
		fixed = fixed[n:]
	}
	return out
}

// fnSource writes function fn with the bindings bs as parameters (see
// layout) and body as its body; shapes gets the declarations of the
// shape functions of weak bindings.
func fnSource(fn string, bs []*binding, body string, shapes *strings.Builder) string {
	var ps, pre []string
	env := 0
	for i, sl := range layout(bs) {
		if g := sl.group; g != nil {
			names := make([]string, len(g))
			typs := make([]string, len(g))
			for j, b := range g {
				names[j], typs[j] = b.name, b.typ
			}
			p := fmt.Sprintf("__env_%d", env)
			env++
			ps = append(ps, p+": ("+strings.Join(typs, ", ")+")")
			pre = append(pre, "let ("+strings.Join(names, ", ")+") = "+p)
			continue
		}
		b := sl.one
		if !b.weak {
			ps = append(ps, b.name+": "+b.typ)
			continue
		}
		ps = append(ps, b.name)
		shape := fmt.Sprintf("%s_shape_%d", fn, i)
		fmt.Fprintf(shapes, "fn %s(x: %s):\n    ()\n\n", shape, b.typ)
		pre = append(pre, shape+"("+b.name+")")
	}
	if len(pre) > 0 {
		body = strings.Join(pre, "\n") + "\n" + body
	}
	return fmt.Sprintf("fn %s(%s):\n%s", fn, strings.Join(ps, ", "), indent(body))
}

// generate builds the program of an entry. For a declaration entry,
// newDecl is its text and replaces the declaration of the same name;
// otherwise body is the body of the function fn.
func (s *Session) generate(kind entryKind, name, newDecl, fn, body string) *program {
	var b strings.Builder
	pg := &program{declSrc: map[string]string{}}
	// Imports come first; they resolve from the current directory.
	for _, im := range s.imports {
		b.WriteString(im)
		b.WriteString("\n")
	}
	for _, im := range s.typeImports {
		b.WriteString(im)
		b.WriteString("\n")
	}
	if kind == kindImport {
		start := b.Len()
		b.WriteString(newDecl)
		pg.entry = region{start, b.Len()}
		b.WriteString("\n")
		newDecl = ""
	}
	b.WriteString("\n")
	for _, d := range s.decls {
		if newDecl != "" && d.name == name && d.typ == (kind == kindType) {
			pg.decls = append(pg.decls, region{-1, -1})
			continue
		}
		start := b.Len()
		b.WriteString(d.src)
		pg.decls = append(pg.decls, region{start, b.Len()})
		b.WriteString("\n\n")
		if !d.typ {
			pg.declSrc[d.name] = d.src
		}
	}
	if newDecl != "" {
		start := b.Len()
		b.WriteString(newDecl)
		pg.entry = region{start, b.Len()}
		b.WriteString("\n\n")
		if kind == kindFn {
			pg.declSrc[name] = newDecl
		}
	}
	var shapes strings.Builder
	for _, k := range s.kept {
		start := b.Len()
		b.WriteString(fnSource(k.fn, k.params, k.body, &shapes))
		pg.keptAt = append(pg.keptAt, region{start, b.Len()})
		b.WriteString("\n\n")
		pg.declSrc[k.fn] = k.body
	}
	var entry string
	if fn != "" {
		entry = fnSource(fn, s.lets, body, &shapes)
	}
	b.WriteString(shapes.String())
	if _, ok := pg.declSrc["main"]; !ok {
		// Every program needs a main; the user may declare their own.
		b.WriteString("fn main():\n    ()\n\n")
	}
	if fn != "" {
		start := b.Len()
		b.WriteString(entry)
		b.WriteString("\n")
		pg.entry = region{start, b.Len()}
		pg.declSrc[fn] = body
	}
	pg.src = b.String()
	return pg
}

// letNames returns the names a `let` entry binds, in pattern order.
func letNames(text string) ([]string, bool) {
	src := "fn probe():\n" + indent(text) + "\n"
	f, ds := parser.Parse(source.NewFile("<repl>", []byte(src)))
	if ds.HasErrors() || f == nil || len(f.Decls) != 1 {
		return nil, false
	}
	fd, ok := f.Decls[0].(*ast.FnDecl)
	if !ok {
		return nil, false
	}
	blk, ok := fd.Body.(*ast.Block)
	if !ok || len(blk.Stmts) != 1 {
		return nil, false
	}
	let, ok := blk.Stmts[0].(*ast.LetStmt)
	if !ok {
		return nil, false
	}
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && n != "_" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	ast.Inspect(let.Pattern, func(n ast.Node) bool {
		switch p := n.(type) {
		case *ast.BindPat:
			add(p.Name)
		case *ast.TypedPat:
			add(p.Name)
		}
		return true
	})
	return names, true
}

// nativeOnly reports whether the nodes of the region use typed Process
// operations or receive_event.
func nativeOnly(f *ast.File, r region) bool {
	return anyNode(f, r, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Path:
			return len(x.Parts) > 0 && x.Parts[0] == "Process"
		case *ast.NamedType:
			return strings.HasPrefix(x.Name, "Process.")
		case *ast.CtorPat:
			return strings.HasPrefix(x.Name, "Process.")
		case *ast.Receive:
			return x.Event
		}
		return false
	})
}

// usesOutside reports whether the nodes of the region name the Net
// module or System.read_line.
func usesOutside(f *ast.File, r region) bool {
	return anyNode(f, r, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Path:
			return len(x.Parts) > 0 && x.Parts[0] == "Net" ||
				strings.Join(x.Parts, ".") == "System.read_line"
		case *ast.NamedType:
			return strings.HasPrefix(x.Name, "Net.")
		}
		return false
	})
}

// anyNode reports whether is holds for a node of the declarations that
// start inside r; the walk stops at the first.
func anyNode(f *ast.File, r region, is func(ast.Node) bool) bool {
	found := false
	for _, d := range f.Decls {
		if s := d.Span(); s.Start < r.start || s.Start >= r.end {
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			found = found || is(n)
			return !found
		})
		if found {
			return true
		}
	}
	return false
}

// firstError is the message of the first error of ds inside r (any
// error when r is nil).
func firstError(ds diag.List, in func(off int) bool) (string, bool) {
	for _, d := range ds {
		if d.Severity != diag.Error {
			continue
		}
		if d.File != nil && d.File.Name != replName {
			// An error in an imported module's file (docs/modules.md):
			// name the file, whatever region is asked for.
			return fmt.Sprintf("%s:%d: %s", d.File.Name, d.File.Position(d.Span.Start).Line, d.Message), true
		}
		if in == nil || in(d.Span.Start) {
			return d.Message, true
		}
	}
	return "", false
}

// entry compiles and (unless typeOnly) runs one entry.
func (s *Session) entry(ctx context.Context, text string, typeOnly bool) {
	kind, name := classify(text)
	if typeOnly {
		kind = kindExpr
	}
	var names []string
	if kind == kindLet {
		var ok bool
		if names, ok = letNames(text); !ok {
			// Let the compiler report the syntax error.
			names = nil
		}
	}
	s.seq++
	fn := fmt.Sprintf("__repl_%d", s.seq)
	body := text
	newDecl := ""
	switch kind {
	case kindFn, kindType, kindImport:
		fn, body, newDecl = "", "", strings.TrimRight(text, " \t\n")
	case kindLet:
		body = strings.TrimRight(text, " \t\n") + "\n" + tupleOf(names)
	}
	u, pg, err := s.compile(kind, name, newDecl, fn, body, typeOnly)
	if err != "" {
		s.errorf("%s", err)
		return
	}
	if kind == kindImport {
		for _, im := range s.imports {
			if im == newDecl {
				return
			}
		}
		s.imports = append(s.imports, newDecl)
		return
	}
	if kind == kindFn || kind == kindType {
		s.acceptDecl(kind, name, newDecl)
		return
	}
	fd := findFn(u.AST, fn)
	if fd == nil {
		s.errorf("internal error: the entry's function is missing")
		return
	}
	sig := u.Info.Funcs[fd]
	if typeOnly {
		fmt.Fprintln(s.out, typeDisplay(sig.Ret))
		return
	}
	if u.Info.HasMailbox[fd] {
		s.errorf("receive requires an actor context; spawn an actor that receives")
		return
	}
	img, idx, err2 := s.load(u, fn, pg)
	if err2 != "" {
		s.errorf("%s", err2)
		return
	}
	args, dropped := s.args(img, pg)
	if len(dropped) > 0 {
		// Their code is gone (acceptDecl drops them first; this is
		// the last line of defence): forget them and compile again.
		for _, n := range dropped {
			s.unbind(n)
		}
		s.seq--
		s.entry(ctx, text, typeOnly)
		return
	}
	st, e := vm.NewState(img, idx, args)
	if e != nil {
		s.errorf("internal error: %v", e)
		return
	}
	res := s.rt.RunEntry(ctx, st)
	switch {
	case res.Cancelled:
		s.rt.StopAll()
		s.errorf("interrupted")
		return
	case res.Fatal:
		s.rt.StopAll()
		s.errorf("%s", reportText(res.Report))
		return
	case res.Report != "":
		s.errorf("%s", reportText(res.Report))
		return
	}
	v := res.RootValue
	s.settle(u, fd)
	if kind == kindLet {
		s.bind(u, fd, names, v, img, text, fn)
		s.prune()
		return
	}
	defer s.prune()
	if t := types.Resolve(sig.Ret); t == types.UnitT || t == types.NeverT {
		return
	}
	shown, f := core.RenderShow(v)
	if f != nil {
		s.errorf("%s", f.Msg)
		return
	}
	fmt.Fprintf(s.out, "%s : %s\n", shown, typeDisplay(sig.Ret))
}

func tupleOf(names []string) string {
	switch len(names) {
	case 0:
		return "()"
	case 1:
		return names[0]
	}
	return "(" + strings.Join(names, ", ") + ")"
}

func findFn(f *ast.File, name string) *ast.FnDecl {
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FnDecl); ok && fd.Name == name {
			return fd
		}
	}
	return nil
}

// reportText turns a runtime report into the message of an error line.
func reportText(report string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(report), "\n")
	line = strings.TrimPrefix(line, "morrow: ")
	line = strings.TrimPrefix(line, "runtime error: ")
	if rest, ok := strings.CutPrefix(line, "stopped after the step limit of "); ok {
		return "the entry ran for more than " + strings.TrimSuffix(rest, " steps") + " steps"
	}
	return line
}

// compile builds the program of an entry. Errors inside kept entries
// (an entry whose code no longer checks after a declaration changed)
// drop those entries and the bindings that need them, and the program
// is built again.
func (s *Session) compile(kind entryKind, name, newDecl, fn, body string, typeOnly bool) (*compiler.Unit, *program, string) {
	for {
		pg := s.generate(kind, name, newDecl, fn, body)
		build := compiler.Build
		if typeOnly {
			build = compiler.Analyze
		}
		u, err := build(replName, []byte(pg.src))
		if err != nil {
			return nil, nil, "internal error: " + err.Error()
		}
		if u.AST != nil && nativeOnly(u.AST, pg.entry) {
			return nil, nil, NativeOnly
		}
		if u.AST != nil && usesOutside(u.AST, pg.entry) {
			return nil, nil, NoOutside
		}
		if !u.Diags.HasErrors() {
			return u, pg, ""
		}
		if msg, ok := firstError(u.Diags, pg.entry.has); ok {
			return nil, nil, msg
		}
		var bad []int
		for i, r := range pg.keptAt {
			if _, ok := firstError(u.Diags, r.has); ok {
				bad = append(bad, i)
			}
		}
		if len(bad) == 0 {
			msg, _ := firstError(u.Diags, nil)
			for i, r := range pg.decls {
				if _, ok := firstError(u.Diags, r.has); ok {
					msg = fmt.Sprintf("this would break the declaration of %s: %s", s.decls[i].name, msg)
					break
				}
			}
			return nil, nil, msg
		}
		s.dropKept(bad)
	}
}

// dropKept forgets kept entries (by index) and the bindings whose values
// need their code.
func (s *Session) dropKept(bad []int) {
	gone := map[string]bool{}
	var keep []*kept
	for i, k := range s.kept {
		if containsInt(bad, i) {
			gone[k.fn] = true
		} else {
			keep = append(keep, k)
		}
	}
	s.kept = keep
	var lets []*binding
	for _, b := range s.lets {
		if !hasFunc(b.val) || !s.needs(b, gone) {
			lets = append(lets, b)
		}
	}
	s.lets = lets
}

// needs reports whether a binding's value holds a function of one of
// the named top-level functions.
func (s *Session) needs(b *binding, owners map[string]bool) bool {
	keys := s.keysOf(b.img)
	var refers func(v value.Value) bool
	refers = func(v value.Value) bool {
		c, ok := v.Closure()
		if !ok {
			return false
		}
		if c.Fn >= 0 && c.Fn < len(keys.keys) && owners[keys.keys[c.Fn].owner] {
			return true
		}
		for _, f := range c.Free {
			if anyValue(f, refers) {
				return true
			}
		}
		return false
	}
	return anyValue(b.val, refers)
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (s *Session) keysOf(img *vm.Image) *imageKeys {
	k, ok := s.keys[img]
	if !ok {
		k = keysOf(img)
		s.keys[img] = k
	}
	return k
}

// load interns the program's user types and loads it; it returns the
// image and the index of the function fn.
func (s *Session) load(u *compiler.Unit, fn string, pg *program) (*vm.Image, int, string) {
	p := u.Program
	for i := bytecode.NumBuiltinTypes; i < len(p.Types); i++ {
		t := p.Types[i]
		if old, ok := s.types[t.Name]; ok && sameType(old, t) {
			p.Types[i] = old
		} else {
			s.types[t.Name] = t
		}
	}
	img, err := engine.Load(u.Verified)
	if err != nil {
		return nil, 0, "internal error: " + err.Error()
	}
	// The virtual clock never sleeps, so the REPL takes timeouts up to
	// Erlang's limit for `after` (2^32 - 1 ms) instead of 600,000 ms.
	img.SetTimeoutLimit(replTimeoutLimit)
	s.srcs[img] = pg.declSrc
	for i, f := range p.Functions {
		if f.Name == fn {
			return img, i, ""
		}
	}
	return nil, 0, "internal error: the entry's function is missing"
}

// replTimeoutLimit is the largest `after` of a REPL session, in ms.
const replTimeoutLimit = 1<<32 - 1

func sameType(a, b *value.TypeInfo) bool {
	if a.Kind != b.Kind || len(a.Variants) != len(b.Variants) || a.Show != b.Show || a.Eq != b.Eq || a.Ord != b.Ord {
		return false
	}
	for i, v := range a.Variants {
		w := b.Variants[i]
		if v.Name != w.Name || len(v.Fields) != len(w.Fields) {
			return false
		}
		for j := range v.Fields {
			if v.Fields[j] != w.Fields[j] {
				return false
			}
		}
	}
	return true
}

// args returns the values of the bindings for the program img, moved to
// it, as the parameters of layout; dropped names the bindings that could
// not be moved.
func (s *Session) args(img *vm.Image, pg *program) ([]value.Value, []string) {
	vals := map[*binding]value.Value{}
	var dropped []string
	for _, b := range s.lets {
		if !hasFunc(b.val) || b.img == img {
			vals[b] = b.val
			continue
		}
		m := &remapper{from: s.keysOf(b.img), to: s.keysOf(img), same: func(owner string) bool {
			if owner == "" {
				return true
			}
			return s.srcs[b.img][owner] == s.srcs[img][owner]
		}}
		v, ok := m.value(b.val)
		if !ok {
			dropped = append(dropped, b.name)
			continue
		}
		vals[b] = v
	}
	if len(dropped) > 0 {
		return nil, dropped
	}
	var out []value.Value
	for _, sl := range layout(s.lets) {
		if sl.group == nil {
			out = append(out, vals[sl.one])
			continue
		}
		elems := make([]value.Value, len(sl.group))
		for j, b := range sl.group {
			elems[j] = vals[b]
		}
		out = append(out, value.NewTuple(elems...))
	}
	return out, nil
}

// bind records the bindings of a `let` entry that ran.
func (s *Session) bind(u *compiler.Unit, fd *ast.FnDecl, names []string, v value.Value, img *vm.Image, text, fn string) {
	if len(names) == 0 {
		return // `let _ = …`: effects only
	}
	vals := []value.Value{v}
	if len(names) > 1 {
		vals = v.AsTuple().Elems
	}
	rt, ok := types.Resolve(u.Info.Funcs[fd].Ret).(*types.Tuple)
	var ts []types.Type
	switch {
	case len(names) == 1:
		ts = []types.Type{u.Info.Funcs[fd].Ret}
	case len(names) > 1 && ok:
		ts = rt.Elems
	}
	if len(ts) != len(names) || len(vals) != len(names) {
		s.errorf("internal error: the bindings of the entry are missing")
		return
	}
	knew := map[string]bool{}
	for _, d := range s.decls {
		if d.typ {
			knew[d.name] = true
		}
	}
	var added []*binding
	funcs := false
	for i, n := range names {
		text, ok, weak := s.typeSource(ts[i])
		if !ok {
			s.errorf("the type of %s cannot be written down, so it cannot be kept", n)
			return
		}
		added = append(added, &binding{name: n, typ: text, weak: weak, val: vals[i], img: img, knew: knew})
		funcs = funcs || hasFunc(vals[i])
	}
	if funcs {
		s.kept = append(s.kept, &kept{fn: fn, params: append([]*binding(nil), s.lets...), body: strings.TrimRight(text, " \t\n") + "\n" + tupleOf(names)})
	}
	for _, b := range added {
		s.unbind(b.name)
		s.lets = append(s.lets, b)
	}
}

// typeSource is the source text of a binding's type. A type of an
// imported module is written module-qualified (geo.shapes.Shape), and the
// module is imported qualified into every later program so that the text
// resolves (docs/modules.md).
func (s *Session) typeSource(t types.Type) (string, bool, bool) {
	text, ok, weak := typeSource(t)
	if !ok || !strings.Contains(text, ast.ModuleSep) {
		return text, ok, weak
	}
	for _, m := range mangledTypes().FindAllStringSubmatch(text, -1) {
		imp := "import " + strings.ReplaceAll(m[1], "/", ".")
		if !slices.Contains(s.typeImports, imp) {
			s.typeImports = append(s.typeImports, imp)
		}
	}
	return ast.Qualified(text), ok, weak
}

// mangledTypes finds the modules named in a type's text; compiled on
// first use (a program run without the REPL never needs it).
var mangledTypes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(ast.ModuleSep + `([\p{L}\p{N}_/]+)`)
})

// settle reads back the types of the weak bindings from the entry that
// ran: its uses may have fixed some of their variables.
func (s *Session) settle(u *compiler.Unit, fd *ast.FnDecl) {
	sl := layout(s.lets)
	if len(fd.Params) != len(sl) {
		return
	}
	for i, p := range sl {
		b := p.one
		if b == nil || !b.weak {
			continue
		}
		obj := u.Info.Defs[fd.Params[i]]
		if obj == nil || obj.Name != b.name {
			continue
		}
		if text, ok, weak := s.typeSource(obj.Type); ok {
			b.typ, b.weak = text, weak
		}
	}
}

// prune forgets what the session knows about programs that no binding
// refers to any more.
func (s *Session) prune() {
	used := map[*vm.Image]bool{}
	for _, b := range s.lets {
		used[b.img] = true
	}
	for img := range s.srcs {
		if !used[img] {
			delete(s.srcs, img)
			delete(s.keys, img)
		}
	}
}

func (s *Session) unbind(name string) {
	var lets []*binding
	for _, b := range s.lets {
		if b.name != name {
			lets = append(lets, b)
		}
	}
	s.lets = lets
}

// retype forgets what a redeclaration of the type name makes
// unusable. A redeclared type is a new type: the types whose
// declarations mention it (at any depth: `newtype W = W(Pid(T))`) are
// new types too, and get new descriptors; a binding whose type mentions
// any of them, or whose value holds a function made while one of them
// was declared (it may hide an old value, such as a Pid(T) captured by a
// closure), is dropped, so no value of the old layout ever meets code of
// the new one. Actors made before keep running their own code with the
// old layout, and nothing new can reach them with a value of the new.
func (s *Session) retype(name string) {
	changed := map[string]bool{name: true}
	for grew := true; grew; {
		grew = false
		for _, d := range s.decls {
			if !d.typ || changed[d.name] {
				continue
			}
			for c := range changed {
				if mentions(d.src, c) {
					changed[d.name] = true
					grew = true
					break
				}
			}
		}
	}
	for c := range changed {
		delete(s.types, c)
	}
	var lets []*binding
	for _, b := range s.lets {
		drop := false
		for c := range changed {
			if mentions(b.typ, c) || hasFunc(b.val) && b.knew[c] {
				drop = true
				break
			}
		}
		if !drop {
			lets = append(lets, b)
		}
	}
	s.lets = lets
}

// acceptDecl records a declaration that compiled: it replaces the one of
// the same name. A type that changed makes the bindings whose types name
// it unusable, so they are dropped.
func (s *Session) acceptDecl(kind entryKind, name, src string) {
	d := &decl{name: name, typ: kind == kindType, src: src}
	for i, old := range s.decls {
		if old.name == name && old.typ == d.typ {
			s.decls = append(s.decls[:i], s.decls[i+1:]...)
			if !d.typ && old.src != src {
				// Function values made by the old code cannot move to
				// the new one.
				var lets []*binding
				for _, b := range s.lets {
					if !hasFunc(b.val) || !s.needs(b, map[string]bool{name: true}) {
						lets = append(lets, b)
					}
				}
				s.lets = lets
			}
			if d.typ {
				s.retype(name)
			}
			break
		}
	}
	s.decls = append(s.decls, d)
}
