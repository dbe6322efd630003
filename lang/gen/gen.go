// Package gen generates random well-typed Morrow programs and breaks them
// on purpose: it is the net that keeps the checker sound (issue 8).
//
// Generate(seed, cfg) writes one complete program. The generator is
// type-directed: it first invents the program's types (records, sums with
// derived Show/Eq/Ord, generic records, recursive sums, newtypes, aliases,
// union aliases), then functions with random signatures (labeled and
// pattern parameters, generic ones, higher-order ones, Result-returning
// ones, counter-bounded recursion and mutual recursion, closure makers,
// actor entries), and finally fills every body by asking for "an
// expression of type T" or "a block of type T" in a scope that knows
// every visible local and its type. Each request picks one of the forms
// that can produce T (literals, locals, projections, operators, stdlib
// natives, calls through labels and pipes, lambdas, if/match/let-else,
// loops, Result consumers, ...) and recurses with a shrinking depth.
//
// Three invariants make every program well typed, terminating and cheap:
//
//   - Typing: a form is only chosen when its typing rule holds for T in
//     the current context (labels the docs/reference/syntax.md#calls rule demands, exhaustive match
//     arms built from the scrutinee's type, Results produced only where
//     something handles them — a match on Ok/Err, `?`, a return, a
//     combinator, printing, a handler helper, a deferred handler —,
//     no actor operation in main, lambdas given to List.* or in defer,
//     mailbox types fixed by annotations and receive patterns). Values
//     whose type the context does not fix (`[]`, `None`, `Ok(x)`) are only
//     written where the context anchors them.
//   - Size: every list the program can build has at most listCap
//     elements; the generator tracks lower and upper length bounds of
//     each list expression and never writes an operation that could
//     exceed the cap, so `List.head`/`xs[i]` are only written where the
//     list is provably long enough (except in deliberately faulting
//     programs).
//   - Cost: each function gets an estimated cost (the sum of its calls'
//     costs, multiplied by enclosing loop and callback bounds); a call is
//     only written while the caller stays within budget. Recursion is
//     driven by a counter that callers pass as a small value, there is no
//     unbounded loop, and every receive has an `after` timeout, so every
//     process finishes.
//
// Some programs deliberately fault (division by zero, head of an empty
// list, a list index out of range, a negative exponent): those are the
// documented faults of docs/reference/actors.md#fault-codes, not failures.
//
// Known checker bugs are avoided behind named switches (Config.Avoid,
// DefaultAvoid): each names a minimized reproducer under
// testdata/known/, and the switch can be removed once the bug is fixed.
//
// Mutations: while writing the program the generator marks places where
// one edit makes it ill-typed (sites.go). Program.Mutant(i) renders the
// program with mutation i applied; the checker must reject every mutant
// with a coded diagnostic and without crashing.
//
// Why lang/gen and not lang/types/typegen: the generator tests the whole
// pipeline (parser, checker, code generator, verifier, encoder, runtime),
// not the checker's internals, and it knows Morrow only through its
// specification (docs/reference/README.md, docs/stdlib.md), never through lang/types. It
// only produces text, so it depends on nothing else in the module; its
// tests drive lang/compiler, runtime/bytecode and runtime/engine the way
// `morrowc build` and `morrow run` do. docs/generator.md says how to run
// it and what it found.
package gen

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// Config tunes the generator. The zero value is usable: every construct
// enabled, no known bug avoided.
type Config struct {
	// Avoid names constructs that trigger known checker bugs; see
	// DefaultAvoid and testdata/known.
	Avoid map[string]bool
	// NoActors turns off actor code (spawn, send, receive, Process.*).
	NoActors bool
	// NoFaults turns off deliberately faulting programs.
	NoFaults bool
	// Size scales the number of functions (default 1.0).
	Size float64
}

// Program is one generated program.
type Program struct {
	Seed int64
	raw  string
	// Source is the well-typed program.
	Source string
	// Features counts the constructs the program uses (names as in
	// FeatureNames).
	Features map[string]int
	// Faulty is set when the program may deliberately fault.
	Faulty bool
	// Actors is set when the program spawns processes.
	Actors bool
	sites  []site
	live   []int // the sites whose text made it into the program
}

// Mutations is the number of mutation sites.
func (p *Program) Mutations() int { return len(p.live) }

// Mutant returns the program with mutation i applied, the mutation kind
// and a note saying what it does.
func (p *Program) Mutant(i int) (src, kind, note string) {
	id := p.live[i]
	return render(p.raw, p.sites, id), p.sites[id].kind, p.sites[id].note
}

// MutationKind returns the id and kind of mutation i without rendering
// it.
func (p *Program) MutationKind(i int) (int, string) {
	id := p.live[i]
	return id, p.sites[id].kind
}

// MutationKinds lists the kinds of mutation the generator can mark.
var MutationKinds = []string{
	mutWrongArg, mutDropResult, mutUnusedResult, mutMissingArm, mutWrongMailbox,
	mutUnlabeled, mutWrongReturn, mutGuardCall, mutWrongLet, mutIfBranch,
}

const (
	mutWrongArg      = "wrong-arg-type"
	mutDropResult    = "dropped-result"
	mutUnusedResult  = "unused-result-binding"
	mutMissingArm    = "missing-match-arm"
	mutWrongMailbox  = "wrong-mailbox-type"
	mutUnlabeled     = "missing-label"
	mutWrongReturn   = "wrong-return-type"
	mutGuardCall     = "call-in-receive-guard"
	mutWrongLet      = "wrong-let-annotation"
	mutIfBranch      = "if-branch-mismatch"
	mutLetUnderscore = "let-underscore-result"
	mutBuiltinLabel  = "label-on-builtin"
	mutActorInMain   = "actor-operation-in-main"
	mutTryOutside    = "try-outside-result-fn"
	mutBreakOutside  = "break-outside-loop"
	// mutUnannotatedRet: an early return whose type disagrees with the
	// final expression of a function without a return annotation.
	mutUnannotatedRet = "unannotated-return-mismatch"
	// Mailbox types that disagree: a spawn annotation, the pinned
	// Process.self(), an extra receive pattern.
	mutSpawnAnnotation = "wrong-spawn-mailbox"
	mutSelfAnnotation  = "wrong-self-mailbox"
	mutReceivePattern  = "wrong-receive-pattern"
)

// Limits that keep programs small and fast.
const (
	listCap      = 12    // no list ever has more elements
	fnBudget     = 1500  // cost units a function body may spend
	mainBudget   = 12000 // cost units main may spend
	lambdaBudget = 60    // cost of one call through a function value
	maxDepth     = 4     // expression nesting
	maxBlockNest = 3     // nested blocks (if/match/for bodies)
	recDepth     = 6     // recursion counters stay below this
)

// gen holds the state of one generation.
type gen struct {
	r       *rand.Rand
	cfg     Config
	decls   []*decl
	aliases []*alias
	union   *decl
	funcs   []*fnInfo
	sites   []site
	feat    map[string]int
	faulty  bool
	actors  bool
	counter int
	noSites int // >0: do not record mutation sites (text that is copied)
	// helpers created on demand
	sentFn    *fnInfo // fn sent(r: Result((), Int))
	handled   *fnInfo // fn handled(r: Result(a, e)) -> Bool
	unionShow *fnInfo
	handlers  map[string]*fnInfo // by Result type
	scenarios []scenario
	// resultDecls are records with a Result field; they stay out of
	// decls so no ordinary data type contains a Result.
	resultDecls []*decl
	// mainExtra write lines main must contain.
	mainExtra []func(*ctx, *scope) []string
	// inUnannotated: writing the body of a function without a return
	// annotation.
	inUnannotated bool
	// unionUses counts the places where a member of the union alias was
	// written where the union is expected (pinParams reads it).
	unionUses int
}

type alias struct {
	name string
	t    *Type
}

// Generate writes the program for seed.
func Generate(seed int64, cfg Config) *Program {
	if cfg.Size == 0 {
		cfg.Size = 1
	}
	g := &gen{r: rand.New(rand.NewSource(seed)), cfg: cfg, feat: map[string]int{}, handlers: map[string]*fnInfo{}}
	g.faulty = !cfg.NoFaults && g.r.Intn(8) == 0
	raw := g.program()
	p := &Program{Seed: seed, raw: raw, Features: g.feat, Faulty: g.faulty, Actors: g.actors, sites: g.sites, live: liveSites(raw)}
	p.Source = render(raw, g.sites, -1)
	return p
}

func (g *gen) avoid(name string) bool { return g.cfg.Avoid[name] }

func (g *gen) use(feature string) { g.feat[feature]++ }

func (g *gen) chance(n int) bool { return g.r.Intn(n) == 0 }

func (g *gen) pct(p int) bool { return g.r.Intn(100) < p }

func (g *gen) fresh(prefix string) string {
	g.counter++
	return fmt.Sprintf("%s%d", prefix, g.counter)
}

func pick[T any](g *gen, xs []T) T { return xs[g.r.Intn(len(xs))] }

func indent(n int) string { return strings.Repeat(" ", n) }

// program writes the whole program and returns it with site markers.
func (g *gen) program() string {
	g.genDecls()
	nf := int(float64(3+g.r.Intn(6)) * g.cfg.Size)
	for i := 0; i < nf; i++ {
		g.genFunction()
	}
	if !g.cfg.NoActors && g.r.Intn(3) > 0 {
		g.actors = true
		g.genActorScenarios()
	}
	mainFn := g.genMain()

	// Declarations and functions in random order: a function may call one
	// declared later (docs/reference/syntax.md#declarations).
	var items []string
	for _, d := range g.decls {
		items = append(items, g.declText(d))
	}
	for _, a := range g.aliases {
		items = append(items, fmt.Sprintf("type %s = %s\n", a.name, a.t))
	}
	if g.union != nil {
		items = append(items, g.declText(g.union))
	}
	for _, d := range g.resultDecls {
		items = append(items, g.declText(d))
	}
	for _, f := range g.funcs {
		items = append(items, strings.Join(f.lines, "\n")+"\n")
	}
	items = append(items, strings.Join(mainFn.lines, "\n")+"\n")
	g.r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	var b strings.Builder
	fmt.Fprintf(&b, "# generated by lang/gen\n")
	for i, it := range items {
		if i > 0 {
			b.WriteString("\n")
		}
		if g.chance(8) {
			b.WriteString(g.comment() + "\n")
		}
		b.WriteString(it)
	}
	return b.String()
}

func (g *gen) comment() string {
	g.use("comment")
	switch g.r.Intn(4) {
	case 0:
		g.use("block-comment")
		return "/* a block /* nested */ comment */"
	case 1:
		return "# ünïcode comment 🌿"
	default:
		return "# comment " + g.fresh("c")
	}
}

// FeatureNames lists every construct the generator reports in
// Program.Features; the coverage test requires each to appear.
func FeatureNames() []string {
	names := []string{}
	for n := range allFeatures {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// allFeatures is filled by featureList (features.go).
var allFeatures = map[string]bool{}

func init() {
	for _, f := range featureList {
		allFeatures[f.name] = true
	}
}
