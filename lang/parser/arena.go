package parser

import "github.com/morrow-lang/morrow/lang/ast"

// The grammar structs of one declaration are garbage as soon as it is
// lowered into lang/ast, and most of a parse's allocations used to be
// these structs (a gExpr, gUnary, gPostfix and gPrimary per operand). An
// arena hands them out from chunks that it keeps for the whole file and
// reuses for every declaration: fileParser.chunk resets it once the
// declaration is lowered, so after the first few declarations parsing
// allocates the lang/ast nodes and little else.
//
// Reuse is safe because lowering copies everything it keeps (strings,
// spans, values) out of the grammar structs into fresh AST nodes; nothing
// the lowerer returns points into a grammar struct or into the slices
// they own. A struct handed out is cleared first; the slices its
// matcher appends to keep their capacity (cut to length 0), so they are
// not reallocated either.
type arena struct {
	exprs     pool[gExpr]
	binops    pool[gBinOp]
	unaries   pool[gUnary]
	postfixes pool[gPostfix]
	suffixes  pool[gSuffix]
	primaries pool[gPrimary]
	callArgs  pool[gCallArgs]
	args      pool[gArg]
	bodies    pool[gBody]
	blocks    pool[gBlock]
	stmts     pool[gStmt]
	lets      pool[gLet]
	patterns  pool[gPattern]
	types     pool[gType]
	typeAtoms pool[gTypeAtom]
	named     pool[gNamedType]
	ifs       pool[gIf]
	matches   pool[gMatch]
	arms      pool[gArm]
	armPats   pool[gArmPat]
	patNames  pool[gPatName]
	params    pool[gParam]
}

// reset makes every struct handed out so far available again. The caller
// guarantees that none of them is reachable any more.
func (a *arena) reset() {
	a.exprs.reset()
	a.binops.reset()
	a.unaries.reset()
	a.postfixes.reset()
	a.suffixes.reset()
	a.primaries.reset()
	a.callArgs.reset()
	a.args.reset()
	a.bodies.reset()
	a.blocks.reset()
	a.stmts.reset()
	a.lets.reset()
	a.patterns.reset()
	a.types.reset()
	a.typeAtoms.reset()
	a.named.reset()
	a.ifs.reset()
	a.matches.reset()
	a.arms.reset()
	a.armPats.reset()
	a.patNames.reset()
	a.params.reset()
}

func (a *arena) expr() *gExpr {
	g := a.exprs.get()
	*g = gExpr{Rest: g.Rest[:0]}
	return g
}

func (a *arena) binop() *gBinOp {
	g := a.binops.get()
	*g = gBinOp{}
	return g
}

func (a *arena) unary() *gUnary {
	g := a.unaries.get()
	*g = gUnary{Ops: g.Ops[:0]}
	return g
}

func (a *arena) postfix() *gPostfix {
	g := a.postfixes.get()
	*g = gPostfix{Suf: g.Suf[:0]}
	return g
}

func (a *arena) suffix() *gSuffix {
	g := a.suffixes.get()
	*g = gSuffix{}
	return g
}

func (a *arena) primary() *gPrimary {
	g := a.primaries.get()
	*g = gPrimary{}
	return g
}

func (a *arena) callArg() *gCallArgs {
	g := a.callArgs.get()
	*g = gCallArgs{Args: g.Args[:0]}
	return g
}

func (a *arena) arg() *gArg {
	g := a.args.get()
	*g = gArg{}
	return g
}

func (a *arena) body() *gBody {
	g := a.bodies.get()
	*g = gBody{}
	return g
}

func (a *arena) block() *gBlock {
	g := a.blocks.get()
	*g = gBlock{Stmts: g.Stmts[:0]}
	return g
}

func (a *arena) stmt() *gStmt {
	g := a.stmts.get()
	*g = gStmt{}
	return g
}

func (a *arena) let() *gLet {
	g := a.lets.get()
	*g = gLet{}
	return g
}

func (a *arena) pattern() *gPattern {
	g := a.patterns.get()
	*g = gPattern{}
	return g
}

func (a *arena) typ() *gType {
	g := a.types.get()
	*g = gType{Alts: g.Alts[:0]}
	return g
}

func (a *arena) typeAtom() *gTypeAtom {
	g := a.typeAtoms.get()
	*g = gTypeAtom{}
	return g
}

func (a *arena) namedType() *gNamedType {
	g := a.named.get()
	*g = gNamedType{Parts: g.Parts[:0]}
	return g
}

func (a *arena) ifExpr() *gIf {
	g := a.ifs.get()
	*g = gIf{}
	return g
}

func (a *arena) match() *gMatch {
	g := a.matches.get()
	*g = gMatch{}
	return g
}

func (a *arena) arm() *gArm {
	g := a.arms.get()
	*g = gArm{}
	return g
}

func (a *arena) armPat() *gArmPat {
	g := a.armPats.get()
	*g = gArmPat{}
	return g
}

func (a *arena) patName() *gPatName {
	g := a.patNames.get()
	*g = gPatName{Parts: g.Parts[:0], Args: g.Args[:0]}
	return g
}

func (a *arena) param() *gParam {
	g := a.params.get()
	*g = gParam{}
	return g
}

// pool hands out *T from chunks of growing size (8 to 256 elements, so a
// small file costs little), which it keeps across resets. get returns an
// element as its last user left it; the arena's methods clear it.
type pool[T any] struct {
	chunks [][]T
	ci, n  int // the chunk being handed out, and how much of it is used
}

func (p *pool[T]) get() *T {
	for p.ci < len(p.chunks) {
		if c := p.chunks[p.ci]; p.n < len(c) {
			p.n++
			return &c[p.n-1]
		}
		p.ci++
		p.n = 0
	}
	p.chunks = append(p.chunks, make([]T, 8<<min(len(p.chunks), 5)))
	p.n = 1
	return &p.chunks[p.ci][0]
}

func (p *pool[T]) reset() { p.ci, p.n = 0, 0 }

// nodeSlabs allocates the AST nodes a file has most of (names, binary
// operations, integer literals, binding patterns) in blocks instead of one
// by one. Unlike the arena these are the parser's result: a block is never
// reused, and lives as long as any node in it (they all belong to the
// same tree).
type nodeSlabs struct {
	idents   slab[ast.Ident]
	binaries slab[ast.Binary]
	intLits  slab[ast.IntLit]
	bindPats slab[ast.BindPat]
}

// slab hands out zeroed *T from blocks of growing size (8 to 256).
type slab[T any] struct {
	free []T
	size int
}

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.size = min(max(2*s.size, 8), 256)
		s.free = make([]T, s.size)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}
