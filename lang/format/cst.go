package format

import (
	"fmt"
	"slices"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/morrow-lang/morrow/lang/parser"
)

// The formatter's concrete syntax tree. It mirrors the parser's grammar
// (lang/parser/grammar.go and exprparse.go) but records only structure:
// the printer emits the source tokens themselves, in order, so the tree
// needs no names or literal values. Fields named lo/hi are indexes of real
// tokens (the first and last token of the node).

type decl interface{ bounds() (lo, hi int) }

type fnDecl struct {
	lo, hi int
	pub    bool
	params []*param
	arrow  *expr // return type (when a ':' body follows) or arrow body
	colon  bool
	body   *body
}

type param struct {
	label bool
	pat   *pattern
	typ   *typeN
}

// typeHead is what type and newtype declarations share: `[pub] type
// Name [(params)] [derive(names)]`.
type typeHead struct {
	lo, hi    int
	pub       bool
	nparams   int
	hasParams bool
	derive    int
	hasDerive bool
}

type typeDecl struct {
	typeHead
	alias *typeN
	colon bool
	lines []*typeLine
}

type typeLine struct {
	lo, hi    int
	fieldType *typeN
	paren     bool
	fields    []*vfield
}

type vfield struct {
	named bool
	typ   *typeN
}

type newtypeDecl struct {
	typeHead
	typ *typeN
}

// rawDecl is an out-of-scope declaration (module, import, const, trait,
// impl, foreign): the parser skips it, and the formatter copies it.
type rawDecl struct {
	lo, hi int
	kind   string // "import" or "module" for those lines (printed canonically); "" otherwise
}

func (d *fnDecl) bounds() (int, int)      { return d.lo, d.hi }
func (d *typeDecl) bounds() (int, int)    { return d.lo, d.hi }
func (d *newtypeDecl) bounds() (int, int) { return d.lo, d.hi }
func (d *rawDecl) bounds() (int, int)     { return d.lo, d.hi }

// ---------------------------------------------------------------- types

type typeN struct{ alts []*typeAtom }

type typeAtom struct {
	fn    *fnType
	paren *typeParen
	named *namedType
}

type fnType struct {
	params []*typeN
	ret    *typeAtom
}

type typeParen struct {
	elems []*typeN
	trail bool
	ret   *typeAtom
}

type namedType struct {
	nparts  int
	hasArgs bool
	args    []*typeN
}

// ---------------------------------------------------------------- patterns

type patKind int

const (
	patLit   patKind = iota // one token: Int, Float, String, true, false
	patNeg                  // '-' Int|Float
	patTuple                // ( … )
	patList                 // [ … ]
	patName                 // a.b.C with optional ( args )
	patRest                 // `..` or `..name`: the rest of a tuple pattern
)

type pattern struct {
	kind   patKind
	elems  []*pattern // tuple elements, constructor arguments
	trail  bool
	list   []*patElem
	nparts int
	parens bool
	named  bool // patRest: `..name` rather than `..`
}

type patElem struct {
	rest    bool
	hasName bool
	pat     *pattern
}

// ---------------------------------------------------------------- statements

type body struct {
	block *block
	x     *expr
}

type block struct {
	stmts []*stmt
}

type stmt struct {
	lo, hi int
	let    *letStmt
	deferX *expr
	x      *expr
	cond   *expr
}

type letStmt struct {
	pat   *pattern
	typ   *typeN
	value *expr
	els   *body
}

// ---------------------------------------------------------------- expressions

type expr struct {
	lo, hi int
	first  *unary
	rest   []*binOp
}

type binOp struct {
	opTok int
	op    string
	x     *unary
}

type unary struct {
	ops []string
	x   *postfix
}

type postfix struct {
	x   primary
	suf []*suffix
}

type sufKind int

const (
	sufCall sufKind = iota
	sufField
	sufIndex
	sufTry
)

type suffix struct {
	kind  sufKind
	call  []*arg
	index *expr
}

type arg struct {
	label bool
	value *expr
}

type primary interface{}

type (
	wordP  struct{} // a name or a literal: one token
	parenP struct {
		elems []*parenElem
		trail bool
		arrow bool
		body  *body
	}
	listP struct{ elems []*expr }
	ifP   struct {
		cond      *expr
		then      *body
		els       *body
		elseOwnLn bool // `else` started a line in the source
		elseIf    bool // written `else if` (no ':' after else)
	}
	matchP struct {
		subject *expr // nil for a condition match
		arms    []*arm
		block   bool
	}
	recvP struct {
		arms  []*arm
		block bool
	}
	fnLamP struct {
		params []*param
		body   *body
	}
	returnP struct{ x *expr }
	braceP  struct {
		first *expr
		upd   []*expr // record update values (each after `name:`)
		mapV  *expr
		more  [][2]*expr
		isUpd bool
		isMap bool
	}
	forP struct {
		pat  *pattern
		iter *expr
		body *body
	}
	withP struct {
		steps      []*withStep
		blockSteps bool
		doOwnLn    bool
		elseOwnLn  bool
		doColon    bool
		body       *body
		hasElse    bool
		elseColon  bool
		elseBlock  bool
		els        []*arm
	}
)

type parenElem struct {
	x   *expr
	typ *typeN
}

type withStep struct {
	pat *pattern
	x   *expr
	nl  bool // a NEWLINE token followed the comma before this step
}

type armKind int

const (
	armPattern  armKind = iota // PAT [: T] [if G] -> body
	armCond                    // COND -> body (condition match)
	armAfter                   // after X -> body (receive)
	armPatAfter                // PAT after X -> body (receive)
)

type arm struct {
	lo, hi int
	kind   armKind
	pat    *pattern
	typ    *typeN
	cond   *expr // condition arm's condition, or the after timeout
	guard  *expr
	body   *body
}

// ---------------------------------------------------------------- parser

// syntaxError is a token sequence the formatter's parser does not accept
// although the real parser did: a formatter bug, reported as internal.
type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

type cstParser struct {
	L *lexed
	i int // index into L.all
}

func (p *cstParser) peek() *token {
	if p.i < len(p.L.all) {
		return &p.L.all[p.i]
	}
	return &token{kind: kEOF, ri: len(p.L.toks)}
}

func (p *cstParser) peekAt(k int) *token {
	if p.i+k < len(p.L.all) {
		return &p.L.all[p.i+k]
	}
	return &token{kind: kEOF, ri: len(p.L.toks)}
}

func (p *cstParser) next() *token {
	t := p.peek()
	if p.i < len(p.L.all) {
		p.i++
	}
	return t
}

func (p *cstParser) fail(format string, args ...any) {
	t := p.peek()
	panic(&syntaxError{at: t.off, msg: fmt.Sprintf("offset %d (%q): ", t.off, t.val) + fmt.Sprintf(format, args...)})
}

func (p *cstParser) isP(v string) bool {
	t := p.peek()
	return (t.kind == kPunct || t.kind == kOp) && t.val == v
}

// accept consumes the punctuation v when it comes next and reports
// whether it did.
func (p *cstParser) accept(v string) bool {
	if p.isP(v) {
		p.next()
		return true
	}
	return false
}

func (p *cstParser) isKw(v ...string) bool {
	t := p.peek()
	return t.kind == kKeyword && slices.Contains(v, t.val)
}

func (p *cstParser) expect(v string) *token {
	t := p.peek()
	if !((t.kind == kPunct || t.kind == kOp || t.kind == kKeyword) && t.val == v) {
		p.fail("expected %q", v)
	}
	return p.next()
}

func (p *cstParser) expectKind(k lexer.TokenType) *token {
	t := p.peek()
	if t.kind != k {
		p.fail("unexpected token")
	}
	return p.next()
}

// lastReal is the index of the last real token consumed so far.
func (p *cstParser) lastReal() int {
	for j := p.i - 1; j >= 0; j-- {
		if p.L.all[j].ri >= 0 {
			return p.L.all[j].ri
		}
	}
	return -1
}

func (p *cstParser) curReal() int {
	for j := p.i; j < len(p.L.all); j++ {
		if p.L.all[j].ri >= 0 {
			return p.L.all[j].ri
		}
	}
	return len(p.L.toks)
}

// parseFile parses the whole token stream into declarations.
func parseFile(L *lexed) (decls []decl, err error) {
	p := &cstParser{L: L}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*syntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	for {
		for p.peek().kind == kNewline {
			p.next()
		}
		if p.peek().kind == kEOF {
			return decls, nil
		}
		decls = append(decls, p.decl())
	}
}

var unsupportedKinds = map[string]bool{
	"module": true, "import": true, "const": true, "trait": true, "impl": true, "foreign": true,
}

func (p *cstParser) decl() decl {
	lo := p.curReal()
	t := p.peek()
	k := t
	if t.is("pub") {
		k = p.peekAt(1)
	}
	if (k.kind == kKeyword || k.kind == kIdent) && unsupportedKinds[k.val] && (k.kind == kKeyword || k.val == "foreign") {
		d := p.rawDecl(lo).(*rawDecl)
		if k.kind == kKeyword && (k.val == "import" || k.val == "module") {
			d.kind = k.val
		}
		return d
	}
	if t.is("else") || t.is("do") || t.is("|>") {
		// Lines before the first declaration that start with a word the
		// layout joins to the previous line belong to no declaration, and
		// the parser skips them: copy them.
		return p.rawDecl(lo)
	}
	pub := false
	if p.isKw("pub") {
		p.next()
		pub = true
	}
	var d decl
	switch {
	case p.isKw("fn"):
		d = p.fnDecl(lo, pub)
	case p.isKw("type"):
		d = p.typeDecl(lo, pub)
	case p.isKw("newtype"):
		d = p.newtypeDecl(lo, pub)
	default:
		p.fail("expected a declaration")
	}
	if p.peek().kind != kNewline && p.peek().kind != kEOF {
		p.fail("expected the end of the declaration")
	}
	return d
}

// rawDecl skips an out-of-scope declaration: everything up to the next
// NEWLINE at indentation depth 0.
func (p *cstParser) rawDecl(lo int) decl {
	depth := 0
	for {
		t := p.peek()
		switch t.kind {
		case kEOF:
			return &rawDecl{lo: lo, hi: p.lastReal()}
		case kIndent:
			depth++
		case kDedent:
			depth--
		case kNewline:
			if depth == 0 && p.peekAt(1).kind != kIndent {
				return &rawDecl{lo: lo, hi: p.lastReal()}
			}
		}
		p.next()
	}
}

func (p *cstParser) fnDecl(lo int, pub bool) *fnDecl {
	d := &fnDecl{lo: lo, pub: pub}
	p.expect("fn")
	p.expectKind(kIdent)
	d.params = p.params()
	if p.accept("->") {
		d.arrow = p.exprReq(false)
	}
	if p.accept(":") {
		d.colon = true
		d.body = p.bodyReq()
	}
	d.hi = p.lastReal()
	return d
}

// items parses `item {, item} [,] close` (the opening bracket is already
// consumed), calling item for each element, and consumes close. trail
// reports a trailing comma.
func (p *cstParser) items(close string, item func()) (trail bool) {
	for !p.isP(close) {
		item()
		if p.accept(",") {
			trail = p.isP(close)
			continue
		}
		if !p.isP(close) {
			p.fail("expected %q", close)
		}
	}
	p.next()
	return trail
}

func (p *cstParser) params() []*param {
	p.expect("(")
	var out []*param
	p.items(")", func() {
		out = append(out, p.param())
	})
	return out
}

func (p *cstParser) param() *param {
	pr := &param{}
	if p.peek().kind == kIdent && p.peekAt(1).kind == kIdent {
		p.next()
		pr.label = true
	}
	pr.pat = p.pattern()
	if p.accept(":") {
		pr.typ = p.typ(false)
	}
	return pr
}

// idents parses `( [Ident {, Ident} [,]] )` and returns the count.
func (p *cstParser) idents() int {
	p.expect("(")
	n := 0
	p.items(")", func() {
		p.expectKind(kIdent)
		n++
	})
	return n
}

// typeHead parses the head of a type or newtype declaration (keyword kw).
func (p *cstParser) typeHead(kw string, lo int, pub bool) typeHead {
	h := typeHead{lo: lo, pub: pub}
	p.expect(kw)
	p.expectKind(kIdent)
	if p.isP("(") {
		h.hasParams = true
		h.nparams = p.idents()
	}
	if p.isKw("derive") {
		p.next()
		h.hasDerive = true
		h.derive = p.idents()
	}
	return h
}

func (p *cstParser) typeDecl(lo int, pub bool) *typeDecl {
	d := &typeDecl{typeHead: p.typeHead("type", lo, pub)}
	switch {
	case p.isP("="):
		p.next()
		if p.peek().kind == kNewline && p.peekAt(1).kind == kIndent {
			p.next()
			p.next()
			d.alias = p.typ(false)
			p.expectKind(kNewline)
			p.expectKind(kDedent)
		} else {
			d.alias = p.typ(false)
		}
	case p.isP(":"):
		p.next()
		d.colon = true
		if p.peek().kind == kNewline && p.peekAt(1).kind == kIndent {
			p.next()
			p.next()
			for p.peek().kind != kDedent {
				d.lines = append(d.lines, p.typeLine())
			}
			p.next()
		}
	default:
		p.fail(`expected "=" or ":"`)
	}
	d.hi = p.lastReal()
	return d
}

func (p *cstParser) typeLine() *typeLine {
	l := &typeLine{lo: p.curReal()}
	p.expectKind(kIdent)
	if p.accept(":") {
		l.fieldType = p.typ(false)
	}
	if p.accept("(") {
		l.paren = true
		p.items(")", func() {
			f := &vfield{named: p.label()}
			f.typ = p.typ(false)
			l.fields = append(l.fields, f)
		})
	}
	l.hi = p.lastReal()
	p.expectKind(kNewline)
	return l
}

func (p *cstParser) newtypeDecl(lo int, pub bool) *newtypeDecl {
	d := &newtypeDecl{typeHead: p.typeHead("newtype", lo, pub)}
	p.expect("=")
	p.expectKind(kIdent)
	p.expect("(")
	d.typ = p.typ(false)
	p.expect(")")
	d.hi = p.lastReal()
	return d
}

// ---------------------------------------------------------------- types

func (p *cstParser) startsType() bool {
	t := p.peek()
	return t.kind == kIdent || t.is("fn") || p.isP("(")
}

func (p *cstParser) typ(arm bool) *typeN {
	if !p.startsType() {
		p.fail("expected a type")
	}
	n := &typeN{}
	for {
		n.alts = append(n.alts, p.typeAtom(arm))
		if !p.isP("|") {
			return n
		}
		p.next()
	}
}

func (p *cstParser) typeList() ([]*typeN, bool) {
	p.expect("(")
	var out []*typeN
	trail := p.items(")", func() { out = append(out, p.typ(false)) })
	return out, trail
}

func (p *cstParser) typeAtom(arm bool) *typeAtom {
	a := &typeAtom{}
	switch {
	case p.isKw("fn"):
		p.next()
		ps, _ := p.typeList()
		p.expect("->")
		a.fn = &fnType{params: ps, ret: p.typeAtom(false)}
	case p.isP("("):
		ps, trail := p.typeList()
		tp := &typeParen{elems: ps, trail: trail}
		if p.isP("->") {
			tp.ret = p.fnTypeRet(arm)
		}
		a.paren = tp
	case p.peek().kind == kIdent:
		n := &namedType{nparts: 1}
		p.next()
		for p.isP(".") {
			p.next()
			p.expectKind(kIdent)
			n.nparts++
		}
		if p.isP("(") {
			n.hasArgs = true
			n.args, _ = p.typeList()
		}
		a.named = n
	default:
		p.fail("expected a type")
	}
	return a
}

// fnTypeRet mirrors the parser's parseFnTypeRet: in an arm annotation the
// arrow belongs to the arm unless a complete return type follows and is
// itself followed by something that ends an arm type.
func (p *cstParser) fnTypeRet(arm bool) (ret *typeAtom) {
	save := p.i
	p.next() // ->
	if !p.startsType() {
		if arm {
			p.i = save
			return nil
		}
		p.fail("expected a type")
	}
	if !arm {
		return p.typeAtom(false)
	}
	ok := func() (ok bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, isSE := r.(*syntaxError); !isSE {
					panic(r)
				}
				ok = false
			}
		}()
		ret = p.typeAtom(true)
		return p.isP("->") || p.isP("|") || p.isKw("if", "after")
	}()
	if !ok {
		p.i = save
		return nil
	}
	return ret
}

// ---------------------------------------------------------------- patterns

func (p *cstParser) startsPattern() bool {
	t := p.peek()
	if t.wordLike() || t.is("true") || t.is("false") {
		return true
	}
	return p.isP("(") || p.isP("[") || p.isP("-")
}

func (p *cstParser) pattern() *pattern {
	t := p.peek()
	switch {
	case p.isP("-"):
		p.next()
		if k := p.peek().kind; k != kInt && k != kFloat {
			p.fail("expected a number")
		}
		p.next()
		return &pattern{kind: patNeg}
	case t.kind == kInt || t.kind == kFloat || t.kind == kString || t.is("true") || t.is("false"):
		p.next()
		return &pattern{kind: patLit}
	case p.isP("("):
		p.next()
		pt := &pattern{kind: patTuple}
		pt.trail = p.items(")", func() {
			if p.accept("..") {
				rest := &pattern{kind: patRest}
				if p.peek().kind == kIdent {
					p.next()
					rest.named = true
				}
				pt.elems = append(pt.elems, rest)
			} else {
				pt.elems = append(pt.elems, p.pattern())
			}
		})
		return pt
	case p.isP("["):
		p.next()
		pt := &pattern{kind: patList}
		p.items("]", func() {
			e := &patElem{}
			if p.accept("..") {
				e.rest = true
				if p.peek().kind == kIdent {
					p.next()
					e.hasName = true
				}
			} else {
				e.pat = p.pattern()
			}
			pt.list = append(pt.list, e)
		})
		return pt
	case t.kind == kIdent:
		p.next()
		pt := &pattern{kind: patName, nparts: 1}
		for p.isP(".") {
			p.next()
			if k := p.peek().kind; k != kIdent && k != kKeyword {
				p.fail("expected a name")
			}
			p.next()
			pt.nparts++
		}
		if p.accept("(") {
			pt.parens = true
			p.items(")", func() {
				pt.elems = append(pt.elems, p.pattern())
			})
		}
		return pt
	}
	p.fail("expected a pattern")
	return nil
}

// ---------------------------------------------------------------- statements

func (p *cstParser) startsExpr() bool {
	t := p.peek()
	if t.wordLike() {
		return true
	}
	switch t.kind {
	case kKeyword:
		return parser.StartsExprKeyword(t.val)
	case kPunct:
		return t.val == "(" || t.val == "[" || t.val == "%{" || t.val == "~~~"
	case kOp:
		return t.val == "-" || t.val == "~~~"
	}
	return false
}

func (p *cstParser) bodyReq() *body {
	switch {
	case p.peek().kind == kNewline:
		return &body{block: p.block()}
	case p.isKw("defer"):
		// An inline defer body prints as a block of that one statement.
		s := &stmt{lo: p.curReal()}
		p.next()
		s.deferX = p.exprReq(false)
		s.hi = p.lastReal()
		return &body{block: &block{stmts: []*stmt{s}}}
	case p.startsExpr():
		return &body{x: p.expr(false)}
	}
	p.fail("expected a body")
	return nil
}

func (p *cstParser) block() *block {
	p.expectKind(kNewline)
	p.expectKind(kIndent)
	b := &block{}
	for p.peek().kind != kDedent {
		b.stmts = append(b.stmts, p.stmt())
	}
	p.next()
	return b
}

func (p *cstParser) stmt() *stmt {
	s := &stmt{lo: p.curReal()}
	switch {
	case p.isKw("let"):
		p.next()
		l := &letStmt{pat: p.pattern()}
		if p.accept(":") {
			l.typ = p.typ(false)
		}
		p.expect("=")
		l.value = p.exprReq(false)
		if p.isKw("else") {
			p.next()
			p.expect(":")
			l.els = p.bodyReq()
		}
		s.let = l
	case p.isKw("defer"):
		p.next()
		s.deferX = p.exprReq(false)
	case p.startsExpr():
		s.x = p.expr(false)
	default:
		p.fail("expected a statement")
	}
	if p.isKw("if") {
		p.next()
		s.cond = p.exprReq(false)
	}
	s.hi = p.lastReal()
	p.expectKind(kNewline)
	return s
}

// ---------------------------------------------------------------- expressions

func (p *cstParser) exprReq(noLam bool) *expr {
	if !p.startsExpr() {
		p.fail("expected an expression")
	}
	return p.expr(noLam)
}

func (p *cstParser) isBinOp() bool {
	t := p.peek()
	return t.kind == kOp || t.is("and") || t.is("or") || t.is("in")
}

func (p *cstParser) expr(noLam bool) *expr {
	e := &expr{lo: p.curReal()}
	e.first = p.unary(noLam)
	for p.isBinOp() {
		t := p.next()
		e.rest = append(e.rest, &binOp{opTok: t.ri, op: t.val, x: p.unary(noLam)})
	}
	e.hi = p.lastReal()
	return e
}

func (p *cstParser) unary(noLam bool) *unary {
	u := &unary{}
	for p.isP("-") || p.isP("~~~") || p.isKw("not") {
		u.ops = append(u.ops, p.next().val)
	}
	if !p.startsExpr() {
		p.fail("expected an operand")
	}
	u.x = p.postfix(noLam)
	return u
}

func (p *cstParser) postfix(noLam bool) *postfix {
	pf := &postfix{x: p.primary(noLam)}
	for {
		switch {
		case p.isP("("):
			pf.suf = append(pf.suf, &suffix{kind: sufCall, call: p.callArgs()})
		case p.isP("."):
			p.next()
			if k := p.peek().kind; k != kIdent && k != kKeyword && k != kInt {
				p.fail("expected a field")
			}
			p.next()
			pf.suf = append(pf.suf, &suffix{kind: sufField})
		case p.isP("["):
			p.next()
			x := p.exprReq(false)
			p.expect("]")
			pf.suf = append(pf.suf, &suffix{kind: sufIndex, index: x})
		case p.isP("?"):
			p.next()
			pf.suf = append(pf.suf, &suffix{kind: sufTry})
		default:
			return pf
		}
	}
}

// label consumes a `name:` label when one comes next and reports whether
// it did.
func (p *cstParser) label() bool {
	if p.peek().kind == kIdent && p.peekAt(1).is(":") {
		p.next()
		p.next()
		return true
	}
	return false
}

func (p *cstParser) callArgs() []*arg {
	p.expect("(")
	out := []*arg{}
	p.items(")", func() {
		a := &arg{label: p.label()}
		a.value = p.exprReq(false)
		out = append(out, a)
	})
	return out
}

func (p *cstParser) primary(noLam bool) primary {
	t := p.peek()
	switch {
	case t.wordLike() || t.is("spawn") || t.is("send") || t.is("true") || t.is("false") || t.is("break") || t.is("continue"):
		p.next()
		return &wordP{}
	case p.isP("("):
		return p.paren(noLam)
	case p.isP("["):
		p.next()
		l := &listP{}
		p.items("]", func() {
			l.elems = append(l.elems, p.exprReq(false))
		})
		return l
	case t.is("if"):
		return p.ifExpr()
	case t.is("match"):
		return p.match()
	case t.is("receive") || t.is("receive_event"):
		p.next()
		p.expect(":")
		r := &recvP{}
		r.arms, r.block = p.arms(armAfter)
		return r
	case t.is("fn"):
		p.next()
		l := &fnLamP{params: p.params()}
		p.expect("->")
		l.body = p.bodyReq()
		return l
	case t.is("return"):
		p.next()
		r := &returnP{}
		if p.startsExpr() {
			r.x = p.expr(false)
		}
		return r
	case p.isP("%{"):
		return p.brace()
	case t.is("for"):
		p.next()
		f := &forP{pat: p.pattern()}
		p.expect("in")
		f.iter = p.exprReq(false)
		p.expect(":")
		f.body = p.bodyReq()
		return f
	case t.is("with"):
		return p.with()
	}
	p.fail("expected an expression")
	return nil
}

// ifExpr parses an if expression; the current token is its `if`.
func (p *cstParser) ifExpr() *ifP {
	p.next()
	x := &ifP{cond: p.exprReq(false)}
	p.expect(":")
	x.then = p.bodyReq()
	if p.isKw("else") {
		et := p.next()
		x.elseOwnLn = p.L.toks[et.ri].firstOnLine
		if p.isKw("if") {
			x.elseIf = true // `else if C:`, kept as written
		} else {
			p.expect(":")
		}
		x.els = p.bodyReq()
	}
	return x
}

// match parses a match expression; the current token is its `match`.
func (p *cstParser) match() *matchP {
	p.next()
	m := &matchP{}
	if p.accept(":") {
		m.arms, m.block = p.arms(armCond)
		return m
	}
	m.subject = p.exprReq(false)
	p.expect(":")
	m.arms, m.block = p.arms(armPattern)
	return m
}

func (p *cstParser) paren(noLam bool) *parenP {
	p.expect("(")
	g := &parenP{}
	g.trail = p.items(")", func() {
		e := &parenElem{x: p.exprReq(false)}
		if p.accept(":") {
			e.typ = p.typ(false)
		}
		g.elems = append(g.elems, e)
	})
	if !noLam && p.isP("->") {
		p.next()
		g.arrow = true
		g.body = p.bodyReq()
	}
	return g
}

func (p *cstParser) brace() *braceP {
	p.expect("%{")
	b := &braceP{}
	if p.accept("}") {
		return b
	}
	b.first = p.exprReq(false)
	switch {
	case p.isP("|"):
		p.next()
		b.isUpd = true
		for {
			p.expectKind(kIdent)
			p.expect(":")
			b.upd = append(b.upd, p.exprReq(false))
			if p.accept(",") {
				if p.isP("}") {
					break
				}
				continue
			}
			break
		}
	case p.isP(":"):
		p.next()
		b.isMap = true
		b.mapV = p.exprReq(false)
		for p.isP(",") {
			p.next()
			if p.isP("}") {
				break
			}
			k := p.exprReq(false)
			p.expect(":")
			b.more = append(b.more, [2]*expr{k, p.exprReq(false)})
		}
	default:
		p.fail(`expected "|" or ":"`)
	}
	p.expect("}")
	return b
}

func (p *cstParser) with() *withP {
	p.expect("with")
	w := &withP{}
	step := func() *withStep {
		s := &withStep{pat: p.pattern()}
		p.expect("<-")
		s.x = p.exprReq(false)
		return s
	}
	if p.peek().kind == kNewline {
		p.next()
		p.expectKind(kIndent)
		w.blockSteps = true
		w.steps = append(w.steps, step())
		for p.isP(",") {
			p.next()
			nl := false
			if p.peek().kind == kNewline {
				p.next()
				nl = true
			}
			s := step()
			s.nl = nl
			w.steps = append(w.steps, s)
		}
		p.expectKind(kNewline)
		p.expectKind(kDedent)
	} else {
		w.steps = append(w.steps, step())
		for p.isP(",") {
			p.next()
			w.steps = append(w.steps, step())
		}
	}
	w.doOwnLn = p.L.toks[p.expect("do").ri].firstOnLine
	if p.accept(":") {
		w.doColon = true
	}
	w.body = p.bodyReq()
	if p.isKw("else") {
		w.elseOwnLn = p.L.toks[p.next().ri].firstOnLine
		w.hasElse = true
		if p.accept(":") {
			w.elseColon = true
		}
		if p.peek().kind == kNewline {
			p.next()
			p.expectKind(kIndent)
			w.elseBlock = true
			for {
				w.els = append(w.els, p.arm(armPattern))
				p.expectKind(kNewline)
				if p.peek().kind == kDedent {
					p.next()
					break
				}
			}
		} else {
			w.els = append(w.els, p.arm(armPattern))
			for p.isP(",") {
				p.next()
				w.els = append(w.els, p.arm(armPattern))
			}
		}
	}
	return w
}

// arms parses the arms of a match (kind armPattern or armCond) or receive
// (armAfter: pattern or timeout arms), as an indented block or inline.
func (p *cstParser) arms(kind armKind) ([]*arm, bool) {
	var out []*arm
	if p.peek().kind == kNewline {
		p.next()
		p.expectKind(kIndent)
		for {
			out = append(out, p.arm(kind))
			p.expectKind(kNewline)
			if p.peek().kind == kDedent {
				p.next()
				return out, true
			}
		}
	}
	for {
		out = append(out, p.arm(kind))
		if !p.isP(",") || !p.armFollowsComma() {
			return out, false
		}
		p.next()
	}
}

// armFollowsComma mirrors the parser's decision at a ',' after an inline arm.
func (p *cstParser) armFollowsComma() bool {
	j := p.i + 1
	depth := 0
	seg := true
	for ; j < len(p.L.all); j++ {
		t := &p.L.all[j]
		isP := func(v string) bool { return (t.kind == kPunct || t.kind == kOp) && t.val == v }
		switch {
		case t.kind == kNewline && depth == 0:
			if j+1 >= len(p.L.all) || p.L.all[j+1].kind != kIndent {
				return true // the end of the line
			}
			// NEWLINE INDENT opens a block later on the line (a
			// multi-line lambda): skipped like a bracket
		case t.kind == kIndent || isP("(") || isP("[") || isP("%{") || isP("{"):
			depth++
		case t.kind == kDedent:
			depth--
		case isP(")") || isP("]") || isP("}"):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && isP(","):
			seg = false
		case depth == 0 && seg && isP("->"):
			return true
		}
	}
	return true
}

func (p *cstParser) arm(kind armKind) *arm {
	a := &arm{lo: p.curReal(), kind: kind}
	switch kind {
	case armCond:
		a.cond = p.exprReq(true)
	case armAfter:
		if p.isKw("after") {
			p.next()
			a.cond = p.exprReq(true)
			break
		}
		a.kind = armPattern
		p.armPat(a)
		switch {
		case p.isKw("after"):
			p.next()
			a.kind = armPatAfter
			a.cond = p.exprReq(true)
		case p.isKw("if"):
			p.next()
			a.guard = p.exprReq(true)
		}
	default:
		p.armPat(a)
		if p.isKw("if") {
			p.next()
			a.guard = p.exprReq(true)
		}
	}
	p.expect("->")
	a.body = p.bodyReq()
	a.hi = p.lastReal()
	return a
}

func (p *cstParser) armPat(a *arm) {
	a.pat = p.pattern()
	if p.accept(":") {
		a.typ = p.typ(true)
	}
}
