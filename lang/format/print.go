package format

import "strings"

// The layout rules, one function per construct. Each function emits the
// construct's tokens through the printer; trail is the width that must
// stay free after the construct on its line (a closing bracket, a ':'),
// and stmt reports that the construct stands alone at the head of a
// statement or body, where an inline form that does not fit may be
// expanded into blocks.

func (p *printer) file(decls []decl) {
	for i, d := range decls {
		lo, _ := d.bounds()
		if i > 0 {
			p.attachFollowing(lo)
			if isImport(decls[i-1]) && isImport(d) {
				p.nl(0, nlPlain) // imports stay one block
			} else {
				p.nl(0, nlBlank)
			}
		}
		switch d := d.(type) {
		case *fnDecl:
			p.fnDecl(d)
		case *typeDecl:
			p.typeDecl(d)
		case *newtypeDecl:
			p.newtypeDecl(d)
		case *rawDecl:
			p.rawDecl(d)
		}
	}
	p.finish()
}

// attachFollowing keeps a paragraph of comments that directly follows a
// declaration (no blank line before it, one after it) with that
// declaration instead of the next one.
func (p *printer) attachFollowing(next int) {
	C := p.L.comments
	i := p.s.ci
	if i >= len(C) || C[i].nextTok != next || C[i].kind != ownLine || C[i].line != p.s.lastSrcLine+1 {
		return
	}
	j := i
	for j+1 < len(C) && C[j+1].nextTok == next && C[j+1].kind == ownLine && C[j+1].line == C[j].endLine+1 {
		j++
	}
	if !C[j].blankAfter {
		return
	}
	for ; i <= j; i++ {
		p.nl(0, nlPlain)
		p.ownComment(&C[i])
		p.s.ci++
	}
}

func isImport(d decl) bool {
	r, ok := d.(*rawDecl)
	return ok && r.kind == "import"
}

// importLine prints a module or import line on one line, spaced
// canonically: `import a.b.{X, y}`, `pub import a.b as c`.
func (p *printer) importLine(d *rawDecl) {
	for i := d.lo; i <= d.hi; i++ {
		v := p.L.toks[i].val
		if v == "," && i < d.hi && p.L.toks[i+1].val == "}" {
			p.emit(",", true) // a trailing comma in the list
			continue
		}
		if i > d.lo {
			prev := p.L.toks[i-1].val
			if prev != "." && prev != "{" && v != "." && v != "," && v != "}" {
				p.sp()
			}
		}
		p.word()
	}
	p.queueTrailing()
}

// rawDecl copies an out-of-scope declaration as written (it is not
// parsed), removing only trailing blanks.
func (p *printer) rawDecl(d *rawDecl) {
	if d.kind != "" && p.importFits(d) {
		p.importLine(d)
		return
	}
	p.tok(p.L.toks[d.lo].val)
	for i := d.lo + 1; i <= d.hi; i++ {
		gap := string(p.L.src[p.L.toks[i-1].end:p.L.toks[i].off])
		lines := splitLines(gap)
		for k := range lines[:len(lines)-1] {
			lines[k] = trimRightBlank(lines[k])
		}
		p.raw(joinLines(lines))
		// comments inside the copied text are part of it
		for p.s.ci < len(p.L.comments) && p.L.comments[p.s.ci].nextTok == i {
			p.s.ci++
		}
		p.raw(p.L.toks[i].val)
		p.s.cur++
		p.s.lastSrcLine = p.L.toks[i].endLine
	}
	p.queueTrailing()
}

// importFits reports whether an import line can be printed canonically:
// all its tokens are real (no layout tokens) and no comment sits inside.
func (p *printer) importFits(d *rawDecl) bool {
	for i := d.lo; i <= d.hi; i++ {
		switch p.L.toks[i].kind {
		case kIndent, kDedent, kNewline:
			return false
		}
	}
	for _, c := range p.L.comments {
		if c.nextTok > d.lo && c.nextTok <= d.hi {
			return false
		}
	}
	return true
}

func (p *printer) fnDecl(d *fnDecl) {
	if d.pub {
		p.tok("pub")
		p.sp()
	}
	p.tok("fn")
	p.sp()
	p.word()
	trail := 0
	switch {
	case d.arrow != nil && d.colon:
		trail = p.retWidth(d) // `-> Ret:` follows the parameters on their line
	case d.arrow != nil:
		trail = 3
	case d.colon:
		trail = 1
	}
	p.params(d.params, trail)
	if d.arrow != nil {
		p.sp()
		p.tok("->")
		p.sp()
		if d.colon {
			p.expr(d.arrow, 1, false)
		} else {
			p.expr(d.arrow, 0, false)
		}
	}
	if d.colon {
		p.tok(":")
		p.inlineBody(d.body, 0, true)
	}
}

// retWidth measures ` -> Ret:` after the parameter list.
func (p *printer) retWidth(d *fnDecl) int {
	st := p.save()
	w := maxWidth + 1
	p.flatRun(func() {
		p.paramsFlat(d.params)
		start := p.s.col
		p.sp()
		p.tok("->")
		p.sp()
		p.expr(d.arrow, 0, false)
		p.tok(":")
		w = p.s.col - start
	})
	p.restore(st)
	return w
}

func (p *printer) paramsFlat(ps []*param) {
	p.groupFlat("(", ")", len(ps), func(i, _ int) { p.param(ps[i]) }, false)
}

func (p *printer) params(ps []*param, trail int) {
	p.group("(", ")", len(ps), func(i, _ int) { p.param(ps[i]) }, trail, false)
}

// annotation prints `: t` when there is a type t.
func (p *printer) annotation(t *typeN) {
	if t != nil {
		p.tok(":")
		p.sp()
		p.typ(t)
	}
}

// breakOrSpace starts a new line at column hdr when brk, else writes a
// space.
func (p *printer) breakOrSpace(brk bool, hdr int) {
	if brk {
		p.nl(hdr, nlPlain)
	} else {
		p.sp()
	}
}

func (p *printer) param(pr *param) {
	if pr.label {
		p.word()
		p.sp()
	}
	p.pattern(pr.pat)
	p.annotation(pr.typ)
}

// names prints `(a, b)` of type parameters or derives, on one line.
func (p *printer) names(n int) {
	p.tok("(")
	for i := 0; i < n; i++ {
		if i > 0 {
			p.tok(",")
			p.sp()
		}
		p.word()
	}
	p.dropComma()
	p.tok(")")
}

// typeHead prints the head of a type or newtype declaration (keyword kw).
func (p *printer) typeHead(kw string, h *typeHead) {
	if h.pub {
		p.tok("pub")
		p.sp()
	}
	p.tok(kw)
	p.sp()
	p.word()
	if h.hasParams {
		p.names(h.nparams)
	}
	if h.hasDerive {
		p.sp()
		p.tok("derive")
		p.names(h.derive)
	}
}

func (p *printer) typeDecl(d *typeDecl) {
	p.typeHead("type", &d.typeHead)
	if d.alias != nil {
		p.sp()
		p.tok("=")
		p.sp()
		p.typ(d.alias)
		return
	}
	p.tok(":")
	if len(d.lines) == 0 {
		return
	}
	hdr := p.curIndent()
	ind := hdr + indentWidth
	col := p.L.toks[d.lines[0].lo].lineIndentCols
	for i, l := range d.lines {
		p.itemLine(ind, i)
		p.word()
		p.annotation(l.fieldType)
		if l.paren {
			p.tok("(")
			commaList(p, l.fields, func(f *vfield) {
				if f.named {
					p.word()
					p.tok(":")
					p.sp()
				}
				p.typ(f.typ)
			})
			p.dropComma()
			p.tok(")")
		}
	}
	p.claimComments(ind, col)
	p.nl(hdr, nlPlain)
}

func (p *printer) newtypeDecl(d *newtypeDecl) {
	p.typeHead("newtype", &d.typeHead)
	p.sp()
	p.tok("=")
	p.sp()
	p.word()
	p.tok("(")
	p.typ(d.typ)
	p.tok(")")
}

// ---------------------------------------------------------------- types

func (p *printer) typ(t *typeN) {
	for i, a := range t.alts {
		if i > 0 {
			p.sp()
			p.tok("|")
			p.sp()
		}
		p.typeAtom(a)
	}
}

func (p *printer) typeList(ts []*typeN, keepOne bool) {
	p.tok("(")
	commaList(p, ts, func(t *typeN) { p.typ(t) })
	if len(ts) == 1 && keepOne {
		p.tok(",")
	} else {
		p.dropComma()
	}
	p.tok(")")
}

func (p *printer) typeAtom(a *typeAtom) {
	switch {
	case a.fn != nil:
		p.tok("fn")
		p.typeList(a.fn.params, false)
		p.sp()
		p.tok("->")
		p.sp()
		p.typeAtom(a.fn.ret)
	case a.paren != nil:
		p.typeList(a.paren.elems, a.paren.trail)
		if a.paren.ret != nil {
			p.sp()
			p.tok("->")
			p.sp()
			p.typeAtom(a.paren.ret)
		}
	case a.named != nil:
		p.word()
		for i := 1; i < a.named.nparts; i++ {
			p.tok(".")
			p.word()
		}
		if a.named.hasArgs {
			p.typeList(a.named.args, false)
		}
	}
}

// ---------------------------------------------------------------- patterns

func (p *printer) pattern(pt *pattern) {
	switch pt.kind {
	case patLit:
		p.word()
	case patNeg:
		p.tok("-")
		p.word()
	case patRest:
		p.tok("..")
		if pt.named {
			p.word()
		}
	case patTuple:
		p.tok("(")
		commaList(p, pt.elems, func(e *pattern) { p.pattern(e) })
		if len(pt.elems) == 1 && pt.trail {
			p.tok(",")
		} else {
			p.dropComma()
		}
		p.tok(")")
	case patList:
		p.tok("[")
		commaList(p, pt.list, func(e *patElem) {
			if e.rest {
				p.tok("..")
				if e.hasName {
					p.word()
				}
			} else {
				p.pattern(e.pat)
			}
		})
		p.dropComma()
		p.tok("]")
	case patName:
		p.word()
		for i := 1; i < pt.nparts; i++ {
			p.tok(".")
			p.word()
		}
		if pt.parens {
			p.tok("(")
			commaList(p, pt.elems, func(e *pattern) { p.pattern(e) })
			p.dropComma()
			p.tok(")")
		}
	}
}

// ---------------------------------------------------------------- lists

// group prints a bracketed, comma-separated list: on one line when it
// fits (without a trailing comma), otherwise one element per line, each
// followed by a comma. keepOne keeps the comma of a one-element tuple.
func (p *printer) group(open, close string, n int, elem func(i, trail int), trail int, keepOne bool) {
	if p.try(trail, func() { p.groupFlat(open, close, n, elem, keepOne) }) {
		return
	}
	p.groupBroken(open, close, n, elem)
}

func (p *printer) groupFlat(open, close string, n int, elem func(i, trail int), keepOne bool) {
	p.tok(open)
	for i := 0; i < n; i++ {
		if i > 0 {
			p.tok(",")
			p.sp()
		}
		elem(i, 1)
	}
	if n == 1 && keepOne {
		p.tok(",")
	} else {
		p.dropComma()
	}
	p.tok(close)
}

// itemLine starts item i of an indented list at column ind: the first on
// a plain new line, the others as items (keeping a blank line between).
func (p *printer) itemLine(ind, i int) {
	if i == 0 {
		p.nl(ind, nlPlain)
	} else {
		p.nl(ind, nlItem)
	}
}

// commaList prints xs on the current line, separated by ", ".
func commaList[T any](p *printer, xs []T, item func(T)) {
	for i, x := range xs {
		if i > 0 {
			p.tok(",")
			p.sp()
		}
		item(x)
	}
}

// brokenItems prints n items (item(i) prints one) one per line, a step
// deeper than the current line's indent hdr (ind), with commas between
// them.
func (p *printer) brokenItems(n int, item func(i int)) (hdr, ind int) {
	hdr = p.curIndent()
	ind = hdr + indentWidth
	for i := 0; i < n; i++ {
		if i > 0 {
			p.tok(",")
		}
		p.itemLine(ind, i)
		item(i)
	}
	return hdr, ind
}

func (p *printer) groupBroken(open, close string, n int, elem func(i, trail int)) {
	p.tok(open)
	hdr, ind := p.brokenItems(n, func(i int) { elem(i, 1) })
	if n > 0 {
		p.comma()
	}
	p.claimComments(ind, 0)
	p.nl(hdr, nlPlain)
	p.tok(close)
}

// ---------------------------------------------------------------- bodies

// block prints an indented block under the current line.
func (p *printer) block(b *block) {
	defer p.enterBlock()()
	hdr := p.curIndent()
	ind := hdr + indentWidth
	col := p.L.toks[b.stmts[0].lo].lineIndentCols
	for i, s := range b.stmts {
		p.itemLine(ind, i)
		p.stmt(s)
	}
	p.claimComments(ind, col)
	p.nl(hdr, nlPlain)
}

// enterBlock records that a block starts (for commaEndsBlock) and
// returns the function that ends it.
func (p *printer) enterBlock() func() {
	saved, savedEmb := p.s.blockDepth, p.s.embedded
	p.s.blockDepth, p.s.embedded = p.s.depth, p.s.depth > 0
	return func() { p.s.blockDepth, p.s.embedded = saved, savedEmb }
}

// commaEndsBlock reports whether a comma written here would end the
// current block: in a block inside brackets (an embedded suite), a comma
// outside any bracket of its own closes the block. Inline arms there
// must become a block of arms.
func (p *printer) commaEndsBlock() bool {
	return p.s.embedded && p.s.depth == p.s.blockDepth
}

// commentBreaksBody reports whether a comment that must end its line
// comes between a ':' or '->' and the inline body after it, at the level
// of a block (inside brackets a body may continue on the next line; see
// forceBreak). The body is then printed as a block: continuing it on a
// deeper line would make it one anyway (the layout rules).
func (p *printer) commentBreaksBody() bool {
	if p.s.depth > p.s.blockDepth {
		return false
	}
	if len(p.s.pending) > 0 && p.pendingNeedsBreak() {
		return true
	}
	for i := p.s.ci; i < len(p.L.comments) && p.L.comments[i].nextTok == p.s.cur; i++ {
		if p.L.comments[i].kind == ownLine {
			return true
		}
	}
	return false
}

// blockOf prints one expression as an indented block: an inline body
// expanded because it does not fit.
func (p *printer) blockOf(x *expr) {
	if p.L.toks[x.lo].multiLine {
		// The parser measures a line that starts with a string spanning
		// lines as not indented at all, so such a body stays inline.
		p.sp()
		p.expr(x, 0, false)
		return
	}
	defer p.enterBlock()()
	hdr := p.curIndent()
	p.nl(hdr+indentWidth, nlPlain)
	p.expr(x, 0, true)
	p.nl(hdr, nlPlain)
}

// inlineBody prints the body after a ':' or '->': a block as a block; an
// inline expression on the same line when it fits (or, when it contains
// a block, when its first line fits), otherwise, where expand allows, as
// a block.
// printedAsBlock prints b as a block when it is one or when a comment breaks
// it, and reports whether it did.
func (p *printer) printedAsBlock(b *body) bool {
	if b.block != nil {
		p.block(b.block)
		return true
	}
	if p.commentBreaksBody() {
		p.blockOf(b.x)
		return true
	}
	return false
}

func (p *printer) inlineBody(b *body, trail int, expand bool) {
	if p.printedAsBlock(b) {
		return
	}
	if !expand {
		p.sp()
		p.expr(b.x, trail, false)
		return
	}
	if p.try(trail, func() {
		p.sp()
		p.expr(b.x, trail, false)
	}) {
		return
	}
	if p.hasBlock(b.x) {
		st := p.save()
		start := len(p.out)
		p.sp()
		p.expr(b.x, trail, false)
		if p.firstLineFits(start) {
			return
		}
		p.restore(st)
	}
	p.blockOf(b.x)
}

func (p *printer) stmt(s *stmt) {
	switch {
	case s.let != nil:
		p.let(s.let)
	case s.deferX != nil:
		p.tok("defer")
		p.sp()
		p.expr(s.deferX, 0, false)
	default:
		p.expr(s.x, 0, s.cond == nil)
	}
	if s.cond != nil {
		p.sp()
		p.tok("if")
		p.sp()
		p.expr(s.cond, 0, false)
	}
}

func (p *printer) let(l *letStmt) {
	print := func(expand bool) {
		p.tok("let")
		p.sp()
		p.pattern(l.pat)
		p.annotation(l.typ)
		p.sp()
		p.tok("=")
		p.sp()
		if l.els == nil {
			p.expr(l.value, 0, true)
			return
		}
		p.expr(l.value, 0, false)
		p.sp()
		p.tok("else")
		p.tok(":")
		if expand {
			p.inlineBody(l.els, 0, true)
		} else {
			p.inlineBody(l.els, 0, false)
		}
	}
	if l.els != nil && l.els.block == nil && p.try(0, func() { print(false) }) {
		return
	}
	print(true)
}

// ---------------------------------------------------------------- expressions

// bare returns the primary of an expression that is nothing but one
// primary (no operator, no suffix).
func bare(e *expr) primary {
	if e == nil || len(e.rest) > 0 || len(e.first.ops) > 0 || len(e.first.x.suf) > 0 {
		return nil
	}
	return e.first.x.x
}

func (p *printer) expr(e *expr, trail int, stmt bool) {
	if len(e.rest) == 0 {
		p.unary(e.first, trail, stmt)
		return
	}
	base := p.curIndent()
	if p.s.nlPending {
		base = p.s.nlIndent
	}
	p.unary(e.first, 0, false)
	for i, b := range e.rest {
		t := 0
		if i == len(e.rest)-1 {
			t = trail
		}
		switch {
		case p.s.nlPending:
			// The operand ended with an indented block (an if or match):
			// the operator starts the next line at the header's
			// indentation, so that it continues the whole expression.
			p.tok(b.op)
			p.sp()
		case b.op == "|>" && p.L.toks[b.opTok].firstOnLine:
			p.nl(base+indentWidth, nlPlain)
			p.tok("|>")
			p.sp()
		case b.op == ".." || b.op == "..=":
			p.tok(b.op)
		default:
			p.sp()
			p.tok(b.op)
			p.sp()
		}
		p.unary(b.x, t, false)
	}
}

func (p *printer) unary(u *unary, trail int, stmt bool) {
	for _, op := range u.ops {
		p.tok(op)
		if op == "not" {
			p.sp()
		}
	}
	p.postfix(u.x, trail, stmt && len(u.ops) == 0)
}

func (p *printer) postfix(pf *postfix, trail int, stmt bool) {
	n := len(pf.suf)
	t := trail
	if n > 0 {
		t = 0
	}
	p.primary(pf.x, t, stmt && n == 0)
	for i, s := range pf.suf {
		t := 0
		if i == n-1 {
			t = trail
		}
		switch s.kind {
		case sufCall:
			p.callArgs(s.call, t)
		case sufField:
			if i == 0 && p.s.cur > 0 && p.L.toks[p.s.cur-1].kind == kInt {
				p.raw(" ") // `0 .0`: written together they would be a Float
			}
			p.tok(".")
			p.word()
		case sufIndex:
			p.tok("[")
			p.expr(s.index, t+1, false)
			p.tok("]")
		case sufTry:
			p.tok("?")
		}
	}
}

func (p *printer) arg(a *arg, trail int) {
	if a.label {
		p.word()
		p.tok(":")
		p.sp()
	}
	p.expr(a.value, trail, false)
}

// callArgs prints `(args)`: on one line when it fits; with the last
// argument hugging the parentheses when it is a lambda, match or if whose
// body is a block (`List.map(xs, (x) ->` … `)`); otherwise one argument
// per line.
func (p *printer) callArgs(args []*arg, trail int) {
	n := len(args)
	elem := func(i, t int) { p.arg(args[i], t) }
	if p.try(trail, func() { p.groupFlat("(", ")", n, elem, false) }) {
		return
	}
	if n == 1 && !args[0].label && !breakable(args[0].value) {
		// a lone argument that cannot get shorter (a long string): breaking
		// the call would not make it fit
		p.groupFlatLong("(", ")", n, elem)
		return
	}
	if n > 0 && p.hugs(args[n-1].value) {
		last := args[n-1]
		hdr := p.curIndent()
		st := p.save()
		if p.try(0, func() {
			p.tok("(")
			for i := 0; i < n-1; i++ {
				elem(i, 0)
				p.tok(",")
				p.sp()
			}
			if last.label {
				p.word()
				p.tok(":")
				p.sp()
			}
			p.hugHead(bare(last.value))
		}) {
			p.hugTail(bare(last.value))
			p.dropComma()
			p.nl(hdr, nlPlain)
			p.tok(")")
			return
		}
		p.restore(st)
	}
	p.groupBroken("(", ")", n, elem)
}

// groupFlatLong prints a list on one line even though it is too long.
func (p *printer) groupFlatLong(open, close string, n int, elem func(i, trail int)) {
	st := p.save()
	p.noWidth++
	ok := p.flatRun(func() { p.groupFlat(open, close, n, elem, false) })
	p.noWidth--
	if !ok {
		p.restore(st)
		p.groupBroken(open, close, n, elem)
	}
}

// breakable reports whether an expression holds a list the formatter
// could break (a call, list, tuple, record or lambda).
func breakable(e *expr) bool {
	found := false
	check := func(u *unary) {
		if len(u.x.suf) > 0 {
			for _, s := range u.x.suf {
				if s.kind == sufCall || s.kind == sufIndex {
					found = true
				}
			}
		}
		if _, ok := u.x.x.(*wordP); !ok {
			found = true
		}
	}
	check(e.first)
	for _, b := range e.rest {
		check(b.x)
	}
	return found
}

// hugs reports whether an argument can hug the call's parentheses: a
// lambda, match, receive or if whose body is a block.
func (p *printer) hugs(e *expr) bool {
	switch x := bare(e).(type) {
	case *parenP:
		return x.arrow && p.blockBody(x.body)
	case *fnLamP:
		return p.blockBody(x.body)
	case *matchP:
		return x.block
	case *recvP:
		return x.block
	case *ifP:
		return p.blockBody(x.then)
	}
	return false
}

// blockBody reports whether a body is a block.
func (p *printer) blockBody(b *body) bool { return b.block != nil }

// hugHead prints the part of a hugging argument before its block.
func (p *printer) hugHead(x primary) {
	switch x := x.(type) {
	case *parenP:
		p.lambdaParams(x)
		p.sp()
		p.tok("->")
	case *fnLamP:
		p.tok("fn")
		p.paramsFlat(x.params)
		p.sp()
		p.tok("->")
	case *matchP:
		p.matchHead(x)
	case *recvP:
		p.word()
		p.tok(":")
	case *ifP:
		p.ifHead(x)
	}
}

// hugTail prints the rest of a hugging argument.
func (p *printer) hugTail(x primary) {
	switch x := x.(type) {
	case *parenP:
		p.lambdaBody(x.body, 0)
	case *fnLamP:
		p.lambdaBody(x.body, 0)
	case *matchP:
		p.armBlock(x.arms, false)
	case *recvP:
		p.armBlock(x.arms, false)
	case *ifP:
		p.ifTail(x, 0, false)
	}
}

func (p *printer) primary(x primary, trail int, stmt bool) {
	switch x := x.(type) {
	case *wordP:
		p.word()
	case *parenP:
		p.paren(x, trail)
	case *listP:
		p.group("[", "]", len(x.elems), func(i, t int) { p.expr(x.elems[i], t, false) }, trail, false)
	case *ifP:
		p.ifX(x, trail, stmt)
	case *matchP:
		hdr := p.curIndent()
		p.matchHead(x)
		p.arms(x.arms, x.block, trail, stmt, hdr)
	case *recvP:
		hdr := p.curIndent()
		p.word()
		p.tok(":")
		p.arms(x.arms, x.block, trail, stmt, hdr)
	case *fnLamP:
		p.tok("fn")
		p.params(x.params, 4)
		p.sp()
		p.tok("->")
		p.lambdaBody(x.body, trail)
	case *returnP:
		p.tok("return")
		if x.x != nil {
			p.sp()
			p.expr(x.x, trail, stmt)
		}
	case *braceP:
		p.brace(x, trail)
	case *forP:
		p.tok("for")
		p.sp()
		p.pattern(x.pat)
		p.sp()
		p.tok("in")
		p.sp()
		p.expr(x.iter, 1, false)
		p.tok(":")
		p.inlineBody(x.body, trail, stmt)
	case *withP:
		p.with(x)
	default:
		p.bug("unknown primary %T", x)
	}
}

func (p *printer) lambdaParams(x *parenP) {
	p.tok("(")
	commaList(p, x.elems, func(e *parenElem) {
		p.expr(e.x, 0, false)
		p.annotation(e.typ)
	})
	p.dropComma()
	p.tok(")")
}

func (p *printer) lambdaBody(b *body, trail int) {
	if p.printedAsBlock(b) {
		return
	}
	p.sp()
	p.expr(b.x, trail, false)
}

func (p *printer) paren(x *parenP, trail int) {
	switch {
	case x.arrow:
		p.lambdaParams(x)
		p.sp()
		p.tok("->")
		p.lambdaBody(x.body, trail)
	case len(x.elems) == 0:
		p.tok("(")
		p.tok(")")
	case len(x.elems) == 1 && !x.trail:
		p.tok("(")
		p.expr(x.elems[0].x, trail+1, false)
		p.tok(")")
	default:
		p.group("(", ")", len(x.elems), func(i, t int) { p.expr(x.elems[i].x, t, false) }, trail, true)
	}
}

func (p *printer) brace(x *braceP, trail int) {
	if x.first == nil {
		p.tok("%{")
		p.tok("}")
		return
	}
	n := len(x.upd)
	if x.isMap {
		n = 1 + len(x.more)
	}
	field := func(i int) {
		if x.isUpd {
			p.word()
			p.tok(":")
			p.sp()
			p.expr(x.upd[i], 1, false)
			return
		}
		k, v := x.first, x.mapV
		if i > 0 {
			k, v = x.more[i-1][0], x.more[i-1][1]
		}
		p.expr(k, 0, false)
		p.tok(":")
		p.sp()
		p.expr(v, 1, false)
	}
	head := func() {
		p.tok("%{")
		if x.isUpd {
			p.expr(x.first, 0, false)
			p.sp()
			p.tok("|")
		}
	}
	if p.try(trail, func() {
		head()
		for i := 0; i < n; i++ {
			if i > 0 {
				p.tok(",")
			}
			if i > 0 || x.isUpd {
				p.sp()
			}
			field(i)
		}
		p.dropComma()
		p.tok("}")
	}) {
		return
	}
	head()
	hdr, ind := p.brokenItems(n, field)
	p.comma()
	p.claimComments(ind, 0)
	p.nl(hdr, nlPlain)
	p.tok("}")
}

// ---------------------------------------------------------------- if

func (p *printer) ifHead(x *ifP) {
	p.tok("if")
	p.sp()
	p.expr(x.cond, 1, false)
	p.tok(":")
}

// ifX prints an if. At the head of a statement an inline if that does not
// fit (`if c: a else: b`, or the two-line form with `else:` on the next
// line) is expanded, all the way down an `else: if` chain.
func (p *printer) ifX(x *ifP, trail int, stmt bool) {
	if !stmt || x.then.block != nil {
		p.ifHead(x)
		p.ifTail(x, trail, false)
		return
	}
	st := p.save()
	if p.ifInline(x, trail) {
		return
	}
	p.restore(st)
	p.ifHead(x)
	p.ifTail(x, trail, true)
}

// ifInline tries an if whose then-branch is inline, keeping its form.
func (p *printer) ifInline(x *ifP, trail int) bool {
	if x.els == nil || !x.elseOwnLn {
		return p.try(trail, func() {
			p.ifHead(x)
			p.ifTail(x, trail, false)
		})
	}
	hdr := p.curIndent()
	if !p.try(0, func() {
		p.ifHead(x)
		p.sp()
		p.expr(x.then.x, 0, false)
	}) {
		return false
	}
	p.nl(hdr, nlPlain)
	if x.els.block != nil {
		p.tok("else")
		p.tok(":")
		p.block(x.els.block)
		return true
	}
	return p.try(trail, func() {
		p.tok("else")
		p.tok(":")
		p.sp()
		p.expr(x.els.x, trail, false)
	})
}

// ifTail prints an if after its header; expand turns inline branches
// into blocks.
func (p *printer) ifTail(x *ifP, trail int, expand bool) {
	hdr := p.curIndent()
	thenBlock := x.then.block != nil || expand || p.commentBreaksBody()
	switch {
	case x.then.block != nil:
		p.block(x.then.block)
	case thenBlock:
		p.blockOf(x.then.x)
	default:
		p.sp()
		p.expr(x.then.x, 0, false)
	}
	if x.els == nil {
		return
	}
	p.breakOrSpace(thenBlock || x.elseOwnLn, hdr)
	p.tok("else")
	if inner, ok := bare(x.els.x).(*ifP); ok && x.elseIf {
		p.sp()
		p.ifHead(inner)
		p.ifTail(inner, trail, expand)
		return
	}
	p.tok(":")
	switch {
	case x.els.block != nil:
		p.block(x.els.block)
	case p.commentBreaksBody():
		p.blockOf(x.els.x)
	case expand:
		if inner, ok := bare(x.els.x).(*ifP); ok {
			p.sp()
			p.ifHead(inner)
			p.ifTail(inner, trail, true)
			return
		}
		p.blockOf(x.els.x)
	default:
		p.sp()
		p.expr(x.els.x, trail, false)
	}
}

// ---------------------------------------------------------------- match

func (p *printer) matchHead(x *matchP) {
	p.tok("match")
	if x.subject != nil {
		p.sp()
		p.expr(x.subject, 1, false)
	}
	p.tok(":")
}

// arms prints the arms of a match or receive: a block of arms as a block;
// inline arms on the line when they fit, else (at the head of a
// statement) as a block.
func (p *printer) arms(arms []*arm, block bool, trail int, stmt bool, hdr int) {
	if block || p.commaEndsBlock() {
		p.armBlock(arms, !block)
		return
	}
	if !stmt {
		p.inlineArms(arms, trail)
		return
	}
	if p.try(trail, func() { p.inlineArms(arms, trail) }) {
		return
	}
	p.armBlock(arms, true)
}

func (p *printer) inlineArms(arms []*arm, trail int) {
	for i, a := range arms {
		if i > 0 {
			p.tok(",")
		}
		p.sp()
		t := 1
		if i == len(arms)-1 {
			t = trail
		}
		p.armHead(a)
		p.lambdaBody(a.body, t)
	}
}

// armBlock prints arms one per line; fromInline drops the commas of arms
// that were written inline.
func (p *printer) armBlock(arms []*arm, fromInline bool) {
	defer p.enterBlock()()
	hdr := p.curIndent()
	ind := hdr + indentWidth
	col := p.L.toks[arms[0].lo].lineIndentCols
	for i, a := range arms {
		if i > 0 && fromInline {
			p.emit(",", true)
		}
		p.itemLine(ind, i)
		p.armHead(a)
		p.inlineBody(a.body, 0, true)
	}
	if !fromInline {
		p.claimComments(ind, col)
	}
	p.nl(hdr, nlPlain)
}

func (p *printer) armHead(a *arm) {
	switch a.kind {
	case armCond:
		p.expr(a.cond, 3, false)
	case armAfter:
		p.tok("after")
		p.sp()
		p.expr(a.cond, 3, false)
	default:
		p.pattern(a.pat)
		p.annotation(a.typ)
		if a.kind == armPatAfter {
			p.sp()
			p.tok("after")
			p.sp()
			p.expr(a.cond, 3, false)
		}
		if a.guard != nil {
			p.sp()
			p.tok("if")
			p.sp()
			p.expr(a.guard, 3, false)
		}
	}
	p.sp()
	p.tok("->")
}

// ---------------------------------------------------------------- with

func (p *printer) with(w *withP) {
	hdr := p.curIndent()
	p.tok("with")
	for i, s := range w.steps {
		if i > 0 {
			p.tok(",")
		}
		if w.blockSteps {
			p.nl(hdr+indentWidth, nlPlain)
		} else {
			p.sp()
		}
		p.withStep(s)
	}
	p.breakOrSpace(w.blockSteps || w.doOwnLn, hdr)
	p.tok("do")
	if w.doColon {
		p.tok(":")
	}
	p.lambdaBody(w.body, 0)
	if !w.hasElse {
		return
	}
	p.breakOrSpace(w.body.block != nil || w.elseOwnLn, hdr)
	p.tok("else")
	if w.elseColon {
		p.tok(":")
	}
	if w.elseBlock || p.commaEndsBlock() {
		p.armBlock(w.els, !w.elseBlock)
		return
	}
	p.inlineArms(w.els, 0)
}

func (p *printer) withStep(s *withStep) {
	p.pattern(s.pat)
	p.sp()
	p.tok("<-")
	p.sp()
	p.expr(s.x, 1, false)
}

// hasBlock reports whether an expression contains an indented block.
func (p *printer) hasBlock(e *expr) bool {
	found := false
	walkExpr(e, func(b *body) {
		if p.blockBody(b) {
			found = true
		}
	}, func(block bool) {
		if block {
			found = true
		}
	})
	return found
}

// walkExpr calls fb for every body and fa for every arm list (with
// whether it is a block) inside e, not descending into blocks.
func walkExpr(e *expr, fb func(*body), fa func(bool)) {
	if e == nil {
		return
	}
	walkUnary(e.first, fb, fa)
	for _, b := range e.rest {
		walkUnary(b.x, fb, fa)
	}
}

func walkUnary(u *unary, fb func(*body), fa func(bool)) {
	walkPrimary(u.x.x, fb, fa)
	for _, s := range u.x.suf {
		for _, a := range s.call {
			walkExpr(a.value, fb, fa)
		}
		walkExpr(s.index, fb, fa)
	}
}

func walkBody(b *body, fb func(*body), fa func(bool)) {
	if b == nil {
		return
	}
	fb(b)
	walkExpr(b.x, fb, fa)
}

// walkArms walks the arms of a match or receive (block: written as an
// indented block).
func walkArms(block bool, arms []*arm, fb func(*body), fa func(bool)) {
	fa(block)
	for _, a := range arms {
		walkExpr(a.cond, fb, fa)
		walkExpr(a.guard, fb, fa)
		walkBody(a.body, fb, fa)
	}
}

func walkPrimary(x primary, fb func(*body), fa func(bool)) {
	switch x := x.(type) {
	case *parenP:
		for _, e := range x.elems {
			walkExpr(e.x, fb, fa)
		}
		walkBody(x.body, fb, fa)
	case *listP:
		for _, e := range x.elems {
			walkExpr(e, fb, fa)
		}
	case *ifP:
		walkExpr(x.cond, fb, fa)
		walkBody(x.then, fb, fa)
		walkBody(x.els, fb, fa)
	case *matchP:
		walkExpr(x.subject, fb, fa)
		walkArms(x.block, x.arms, fb, fa)
	case *recvP:
		walkArms(x.block, x.arms, fb, fa)
	case *fnLamP:
		walkBody(x.body, fb, fa)
	case *returnP:
		walkExpr(x.x, fb, fa)
	case *braceP:
		walkExpr(x.first, fb, fa)
		walkExpr(x.mapV, fb, fa)
		for _, u := range x.upd {
			walkExpr(u, fb, fa)
		}
		for _, kv := range x.more {
			walkExpr(kv[0], fb, fa)
			walkExpr(kv[1], fb, fa)
		}
	case *forP:
		walkExpr(x.iter, fb, fa)
		walkBody(x.body, fb, fa)
	case *withP:
		fa(x.blockSteps || x.elseBlock)
		for _, s := range x.steps {
			walkExpr(s.x, fb, fa)
		}
		walkBody(x.body, fb, fa)
		for _, a := range x.els {
			walkExpr(a.guard, fb, fa)
			walkBody(a.body, fb, fa)
		}
	}
}

func splitLines(s string) []string { return strings.Split(s, "\n") }

func joinLines(l []string) string { return strings.Join(l, "\n") }

func trimRightBlank(s string) string { return strings.TrimRight(s, " \t\r") }
