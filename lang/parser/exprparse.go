package parser

import (
	"slices"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Expressions are the bulk of every program, and participle's reflective
// matching spent most of its time there (a branch per alternative tried).
// The expression grammar — operator chains, unary operators, postfix
// suffixes, call arguments, names, literals, parentheses, lists and the
// compound primaries (if, match, receive, for, return, fn-lambdas, with,
// %{…}) — is matched by hand here, straight from the layout tokens (a
// cursor, peek.go), into the grammar structs the tags in grammar.go
// describe.
//
// Contract of every matcher: Parse returns NextMatch without consuming
// anything when the next token cannot start its production; any other
// error is reported after consuming, and is final (lookahead 0).

// Parse matches.
func (g *gExpr) Parse(lex *cursor) error {
	return g.parse(lex, false)
}

// parseGuard parses an expression that an arm arrow `->` follows (a match
// or receive guard, a condition-match condition): a parenthesised operand
// at its top level is never a lambda, so `x if (a > b) -> body` and
// `not (a) -> body` end the guard at the arrow. Lambdas nested inside
// brackets or call arguments are unaffected.
func (g *gExpr) parseGuard(lex *cursor) error {
	return g.parse(lex, true)
}

func (g *gExpr) parse(lex *cursor, noLam bool) error {
	if !startsExpr(lex.Peek()) {
		return participle.NextMatch
	}
	start := lex.RawCursor()
	u, err := parseUnary(lex, noLam)
	if err != nil {
		return err
	}
	g.First = u
	for isBinOp(lex.Peek()) {
		opStart := lex.RawCursor()
		op := lex.Next().Value
		if !startsExpr(lex.Peek()) {
			return unexpected(lex, "GPostfix")
		}
		x, err := parseUnary(lex, noLam)
		if err != nil {
			return err
		}
		b := lex.a.binop()
		b.Tokens, b.Op, b.X = lex.Range(opStart, lex.RawCursor()), op, x
		g.Rest = append(g.Rest, b)
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

func unexpected(lex *cursor, expect string) error {
	return &participle.UnexpectedTokenError{Unexpected: *lex.Peek(), Expect: expect}
}

func isKw(t *lexer.Token, words ...string) bool {
	return t.Type == tKeyword && slices.Contains(words, t.Value)
}

func isPunct(t *lexer.Token, v string) bool {
	return (t.Type == tPunct || t.Type == tOp) && t.Value == v
}

func isBinOp(t *lexer.Token) bool {
	return t.Type == tOp || isKw(t, "and", "or", "in")
}

// StartsExprKeyword reports whether the keyword kw can begin an
// expression (the formatter's parser asks too).
func StartsExprKeyword(kw string) bool {
	switch kw {
	case "spawn", "send", "true", "false", "fn", "if", "match", "receive", "receive_event",
		"for", "return", "break", "continue", "with", "not":
		return true
	}
	return false
}

// startsExpr reports whether t can begin an expression.
func startsExpr(t *lexer.Token) bool {
	switch int(t.Type) {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return StartsExprKeyword(t.Value)
	case tPunct:
		return t.Value == "(" || t.Value == "[" || t.Value == "%{" || t.Value == "~~~"
	case tOp:
		return t.Value == "-" || t.Value == "~~~"
	}
	return false
}

func parseUnary(lex *cursor, noLam bool) (*gUnary, error) {
	start := lex.RawCursor()
	u := lex.a.unary()
	for {
		t := lex.Peek()
		if isPunct(t, "-") || isPunct(t, "~~~") || isKw(t, "not") {
			u.Ops = append(u.Ops, lex.Next().Value)
			continue
		}
		break
	}
	if !startsExpr(lex.Peek()) {
		return nil, unexpected(lex, "GPostfix")
	}
	pf, err := parsePostfix(lex, noLam)
	if err != nil {
		return nil, err
	}
	u.X = pf
	u.Tokens = lex.Range(start, lex.RawCursor())
	return u, nil
}

func parsePostfix(lex *cursor, noLam bool) (*gPostfix, error) {
	start := lex.RawCursor()
	pr, err := parsePrimary(lex, noLam)
	if err != nil {
		return nil, err
	}
	pf := lex.a.postfix()
	pf.X = pr
	for {
		t := lex.Peek()
		if !isPunct(t, "(") && !isPunct(t, ".") && !isPunct(t, "[") && !isPunct(t, "?") {
			pf.Tokens = lex.Range(start, lex.RawCursor())
			return pf, nil
		}
		sStart := lex.RawCursor()
		s := lex.a.suffix()
		switch {
		case isPunct(t, "("):
			c, err := parseCallArgs(lex)
			if err != nil {
				return nil, err
			}
			s.Call = c
		case isPunct(t, "."):
			lex.Next()
			n := lex.Peek()
			if n.Type != tIdent && n.Type != tKeyword && n.Type != tInt {
				return nil, unexpected(lex, "(<ident> | <keyword> | <int>)")
			}
			s.Field = lex.Next().Value
		case isPunct(t, "["):
			lex.Next()
			x, err := expectExpr(lex)
			if err != nil {
				return nil, err
			}
			if err := expectPunct(lex, "]"); err != nil {
				return nil, err
			}
			s.Index = x
		case isPunct(t, "?"):
			lex.Next()
			s.Try = true
		default:
			pf.Tokens = lex.Range(start, lex.RawCursor())
			return pf, nil
		}
		s.Tokens = lex.Range(sStart, lex.RawCursor())
		pf.Suf = append(pf.Suf, s)
	}
}

// parseCallArgs parses `( [arg {, arg} [,]] )`; an argument may start with
// `label:`.
func parseCallArgs(lex *cursor) (*gCallArgs, error) {
	start := lex.RawCursor()
	lex.Next() // (
	c := lex.a.callArg()
	c.Open = true
	for !isPunct(lex.Peek(), ")") {
		aStart := lex.RawCursor()
		a := lex.a.arg()
		if t := lex.Peek(); t.Type == tIdent {
			cp := lex.MakeCheckpoint()
			lex.Next()
			if isPunct(lex.Peek(), ":") {
				a.Label = t.Value
				lex.Next()
			} else {
				lex.LoadCheckpoint(cp)
			}
		}
		x := lex.a.expr()
		if err := x.Parse(lex); err == participle.NextMatch {
			if a.Label == "" && len(c.Args) == 0 {
				return nil, unexpected(lex, `")"`)
			}
			return nil, unexpected(lex, "GPostfix")
		} else if err != nil {
			return nil, err
		}
		a.Value = x
		a.Tokens = lex.Range(aStart, lex.RawCursor())
		c.Args = append(c.Args, a)
		if acceptPunct(lex, ",") {
			continue
		}
		if !isPunct(lex.Peek(), ")") {
			return nil, unexpected(lex, `")"`)
		}
	}
	lex.Next() // )
	c.Tokens = lex.Range(start, lex.RawCursor())
	return c, nil
}

// parsePrimary parses one primary. Its *string fields (and the pattern
// literals') point at the Value of the token in the lexer's slice, which is
// never modified once built, instead of at a fresh copy of the string.
func parsePrimary(lex *cursor, noLam bool) (*gPrimary, error) {
	start := lex.RawCursor()
	t := lex.Peek()
	pr := lex.a.primary()
	var err error
	switch {
	case t.Type == tIdent || isKw(t, "spawn", "send"):
		pr.Name = &lex.Next().Value
	case t.Type == tInt:
		pr.Int = &lex.Next().Value
	case t.Type == tString:
		pr.Str = &lex.Next().Value
	case t.Type == tFloat:
		pr.Float = &lex.Next().Value
	case isKw(t, "true"):
		lex.Next()
		pr.True = true
	case isKw(t, "false"):
		lex.Next()
		pr.False = true
	case isKw(t, "break"):
		lex.Next()
		pr.Break = true
	case isKw(t, "continue"):
		lex.Next()
		pr.Continue = true
	case isPunct(t, "("):
		pr.Paren, err = parseParen(lex, noLam)
	case isPunct(t, "["):
		pr.List, err = parseList(lex)
	default:
		switch {
		case isKw(t, "if"):
			pr.If = lex.a.ifExpr()
			err = pr.If.Parse(lex)
		case isKw(t, "match"):
			pr.Match = lex.a.match()
			err = pr.Match.Parse(lex)
		case isKw(t, "fn"):
			pr.FnLam = &gFnLambda{}
			err = pr.FnLam.Parse(lex)
		case isKw(t, "return"):
			pr.Return = &gReturn{}
			err = pr.Return.Parse(lex)
		case isPunct(t, "%{"):
			pr.Brace = &gBrace{}
			err = pr.Brace.Parse(lex)
		case isKw(t, "receive", "receive_event"):
			pr.Recv = &gReceive{}
			err = pr.Recv.Parse(lex)
		case isKw(t, "for"):
			pr.For = &gFor{}
			err = pr.For.Parse(lex)
		case isKw(t, "with"):
			pr.With = &gWith{}
			err = pr.With.Parse(lex)
		default:
			return nil, unexpected(lex, "GPostfix")
		}
	}
	if err != nil {
		return nil, err
	}
	pr.Tokens = lex.Range(start, lex.RawCursor())
	return pr, nil
}

// parseParen parses `( [elem {, elem} [,]] ) [-> body]` where an element is
// `expr [: Type]` (annotations are only valid on lambda parameters; the
// lowering pass checks that). With noLam the group ends at `)`: a following
// `->` belongs to the enclosing arm.
func parseParen(lex *cursor, noLam bool) (*gParen, error) {
	start := lex.RawCursor()
	lex.Next() // (
	g := &gParen{}
	for !isPunct(lex.Peek(), ")") {
		eStart := lex.RawCursor()
		if keywordAsName(lex) {
			// `(match) -> …`: a keyword where a lambda parameter belongs
			return nil, unexpected(lex, "GParam")
		}
		e := &gParenElem{}
		x := lex.a.expr()
		if err := x.Parse(lex); err == participle.NextMatch {
			if len(g.Elems) == 0 {
				return nil, unexpected(lex, `")"`)
			}
			return nil, unexpected(lex, "GPostfix")
		} else if err != nil {
			return nil, err
		}
		e.X = x
		if acceptPunct(lex, ":") {
			ty, err := requireType(lex, "GType")
			if err != nil {
				return nil, err
			}
			e.Type = ty
		}
		e.Tokens = lex.Range(eStart, lex.RawCursor())
		g.Elems = append(g.Elems, e)
		if acceptPunct(lex, ",") {
			if isPunct(lex.Peek(), ")") {
				g.Trail = true
			}
			continue
		}
		if !isPunct(lex.Peek(), ")") {
			return nil, unexpected(lex, `")"`)
		}
	}
	lex.Next() // )
	if !noLam && isPunct(lex.Peek(), "->") {
		lex.Next()
		g.Arrow = true
		b, err := expectBody(lex)
		if err != nil {
			return nil, err
		}
		g.Body = b
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return g, nil
}

// keywordAsName reports whether the next token is a keyword standing alone
// as a parenthesised element (followed by `,`, `)` or `:`), which only makes
// sense as a misnamed lambda parameter. Keywords that are complete
// expressions on their own are excluded.
func keywordAsName(lex *cursor) bool {
	t := lex.Peek()
	if t.Type != tKeyword || isKw(t, "true", "false", "break", "continue", "return") {
		return false
	}
	n := peekSecond(lex)
	if isPunct(n, ":") && isKw(t, "match", "receive", "receive_event") && armsFollow(lex) {
		return false // `(match: c -> a, _ -> b)`: a condition match or a receive
	}
	return isPunct(n, ",") || isPunct(n, ")") || isPunct(n, ":")
}

// armsFollow reports, at `match :` or `receive :` inside parentheses,
// whether arms follow the colon (a block, or an `->` before the next `,`
// or `)` at bracket depth 0) rather than a parameter's type
// (`(receive: Int) -> …`).
func armsFollow(lex *cursor) bool {
	cp := lex.MakeCheckpoint()
	defer lex.LoadCheckpoint(cp)
	lex.Next() // the keyword
	lex.Next() // :
	if lex.Peek().Type == tNewline {
		return true
	}
	depth := 0
	for {
		t := lex.Next()
		switch {
		case t.EOF():
			return false
		case isPunct(t, "(") || isPunct(t, "[") || isPunct(t, "%{") || isPunct(t, "{"):
			depth++
		case isPunct(t, ")") || isPunct(t, "]") || isPunct(t, "}"):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && isPunct(t, ","):
			return false
		case depth == 0 && isPunct(t, "->"):
			return true
		}
	}
}

func parseList(lex *cursor) (*gList, error) {
	start := lex.RawCursor()
	lex.Next() // [
	g := &gList{}
	for !isPunct(lex.Peek(), "]") {
		x := lex.a.expr()
		if err := x.Parse(lex); err == participle.NextMatch {
			if len(g.Elems) == 0 {
				return nil, unexpected(lex, `"]"`)
			}
			return nil, unexpected(lex, "GPostfix")
		} else if err != nil {
			return nil, err
		}
		g.Elems = append(g.Elems, x)
		if acceptPunct(lex, ",") {
			continue
		}
		if !isPunct(lex.Peek(), "]") {
			return nil, unexpected(lex, `"]"`)
		}
	}
	lex.Next() // ]
	g.Tokens = lex.Range(start, lex.RawCursor())
	return g, nil
}

// Statements and bodies are matched by hand too (they are on every line).

// Parse matches for a body: an indented block
// (NEWLINE INDENT stmt+ DEDENT) or a single inline expression.
func (g *gBody) Parse(lex *cursor) error {
	start := lex.RawCursor()
	t := lex.Peek()
	if t.Type == tNewline {
		b := lex.a.block()
		if err := b.Parse(lex); err != nil {
			return err
		}
		g.Block = b
	} else if err := parseDeferOrExpr(lex, t, &g.Defer, &g.Expr); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// parseDeferOrExpr matches what a body and a statement may both be:
// `defer X`, stored in *deferred (an inline defer body is
// `fn main(): defer println("bye")`), or an expression, stored in *expr.
// It returns NextMatch when t starts neither.
func parseDeferOrExpr(lex *cursor, t *lexer.Token, deferred, expr **gExpr) error {
	switch {
	case isKw(t, "defer"):
		lex.Next()
		x, err := expectExpr(lex)
		if err != nil {
			return err
		}
		*deferred = x
	case startsExpr(t):
		x := lex.a.expr()
		if err := x.Parse(lex); err != nil {
			return err
		}
		*expr = x
	default:
		return participle.NextMatch
	}
	return nil
}

// Parse matches for NEWLINE INDENT stmt+ DEDENT.
func (g *gBlock) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if lex.Peek().Type != tNewline {
		return participle.NextMatch
	}
	lex.Next()
	if lex.Peek().Type != tIndent {
		return unexpected(lex, "<indent>")
	}
	lex.Next()
	for {
		s := lex.a.stmt()
		err := s.Parse(lex)
		if err == participle.NextMatch {
			if len(g.Stmts) > 0 && lex.Peek().Type == tDedent {
				break
			}
			return unexpected(lex, "GStmt")
		}
		if err != nil {
			return err
		}
		g.Stmts = append(g.Stmts, s)
	}
	lex.Next() // DEDENT
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for one statement and its NEWLINE.
func (g *gStmt) Parse(lex *cursor) error {
	start := lex.RawCursor()
	t := lex.Peek()
	if isKw(t, "let") {
		l := lex.a.let()
		if err := l.Parse(lex); err != nil {
			return err
		}
		g.Let = l
	} else if err := parseDeferOrExpr(lex, t, &g.Defer, &g.Expr); err != nil {
		return err
	}
	if acceptKw(lex, "if") {
		c, err := expectExpr(lex)
		if err != nil {
			return err
		}
		g.Cond = c
	}
	if lex.Peek().Type != tNewline {
		return unexpected(lex, "<newline>")
	}
	lex.Next()
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// startsPattern reports whether t can begin a pattern.
func startsPattern(t *lexer.Token) bool {
	switch int(t.Type) {
	case tIdent, tInt, tFloat, tString:
		return true
	case tKeyword:
		return t.Value == "true" || t.Value == "false"
	}
	return isPunct(t, "(") || isPunct(t, "[") || isPunct(t, "-")
}

// Parse matches for `let PAT [: T] = X [else: BODY]`.
func (g *gLet) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "let") {
		return participle.NextMatch
	}
	pat := lex.a.pattern()
	if err := require(lex, "GPattern", pat.Parse); err != nil {
		return err
	}
	g.Pat = pat
	if acceptPunct(lex, ":") {
		ty, err := requireType(lex, "GType")
		if err != nil {
			return err
		}
		g.Type = ty
	}
	if err := expectPunct(lex, "="); err != nil {
		return err
	}
	x, err := expectExpr(lex)
	if err != nil {
		return err
	}
	g.Value = x
	if acceptKw(lex, "else") {
		if err := expectPunct(lex, ":"); err != nil {
			return err
		}
		b, err := expectBody(lex)
		if err != nil {
			return err
		}
		g.Else = b
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Types and patterns are small LL(1) grammars used everywhere (parameters,
// annotations, arms); they are matched by hand as well.

// Parse matches for `atom {'|' atom}`.
func (g *gType) Parse(lex *cursor) error {
	return g.parse(lex, false)
}

// parse parses a type; arm is set for the annotation of an arm pattern
// (`PAT: Type -> body`), where the arm arrow follows the type: there
// `(A, B) -> …` is a tuple type followed by the arm's arrow unless the
// return type is itself followed by an arm arrow, guard or `after` (write
// `fn(A, B) -> C` to be unambiguous).
func (g *gType) parse(lex *cursor, arm bool) error {
	start := lex.RawCursor()
	if !startsType(lex.Peek()) {
		return participle.NextMatch
	}
	for {
		a, err := parseTypeAtom(lex, arm)
		if err != nil {
			return err
		}
		g.Alts = append(g.Alts, a)
		if !isPunct(lex.Peek(), "|") {
			break
		}
		lex.Next()
		if !startsType(lex.Peek()) {
			return unexpected(lex, "GType")
		}
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// parseFnTypeRet parses `-> R` after a parenthesised type list. In an arm
// annotation (arm), it returns nil without consuming anything when the arrow
// is the arm's own.
func parseFnTypeRet(lex *cursor, arm bool) (*gTypeAtom, error) {
	cp := lex.MakeCheckpoint()
	lex.Next() // ->
	if !startsType(lex.Peek()) {
		if arm {
			lex.LoadCheckpoint(cp)
			return nil, nil
		}
		return nil, unexpected(lex, "GType")
	}
	r, err := parseTypeAtom(lex, arm)
	if arm && (err != nil || !endsArmType(lex.Peek())) {
		// The arrow was the arm's: `t: (Int, Int) -> body`.
		lex.LoadCheckpoint(cp)
		return nil, nil
	}
	return r, err
}

// endsArmType reports whether t can follow the type annotation of an arm
// pattern.
func endsArmType(t *lexer.Token) bool {
	return isPunct(t, "->") || isPunct(t, "|") || isKw(t, "if", "after")
}

func startsType(t *lexer.Token) bool {
	return t.Type == tIdent || isKw(t, "fn") || isPunct(t, "(")
}

// parseTypeList parses `( [T {, T} [,]] )` and reports a trailing comma.
func parseTypeList(lex *cursor) ([]*gType, bool, error) {
	lex.Next() // (
	var out []*gType
	trail := false
	for !isPunct(lex.Peek(), ")") {
		t := lex.a.typ()
		if err := t.Parse(lex); err == participle.NextMatch {
			if len(out) == 0 {
				return nil, false, unexpected(lex, `")"`)
			}
			return nil, false, unexpected(lex, "GType")
		} else if err != nil {
			return nil, false, err
		}
		out = append(out, t)
		if acceptPunct(lex, ",") {
			trail = isPunct(lex.Peek(), ")")
			continue
		}
		if !isPunct(lex.Peek(), ")") {
			return nil, false, unexpected(lex, `")"`)
		}
	}
	lex.Next() // )
	return out, trail, nil
}

func parseTypeAtom(lex *cursor, arm bool) (*gTypeAtom, error) {
	start := lex.RawCursor()
	a := lex.a.typeAtom()
	t := lex.Peek()
	switch {
	case isKw(t, "fn"):
		lex.Next()
		if !isPunct(lex.Peek(), "(") {
			return nil, unexpected(lex, `"("`)
		}
		ps, _, err := parseTypeList(lex)
		if err != nil {
			return nil, err
		}
		if err := expectPunct(lex, "->"); err != nil {
			return nil, err
		}
		if !startsType(lex.Peek()) {
			return nil, unexpected(lex, "GType")
		}
		r, err := parseTypeAtom(lex, false)
		if err != nil {
			return nil, err
		}
		a.Fn = &gFnType{Tokens: lex.Range(start, lex.RawCursor()), Params: ps, Ret: r}
	case isPunct(t, "("):
		ps, trail, err := parseTypeList(lex)
		if err != nil {
			return nil, err
		}
		p := &gTypeParen{Elems: ps, Trail: trail}
		if isPunct(lex.Peek(), "->") {
			r, err := parseFnTypeRet(lex, arm)
			if err != nil {
				return nil, err
			}
			p.Ret = r
		}
		p.Tokens = lex.Range(start, lex.RawCursor())
		a.Paren = p
	case t.Type == tIdent:
		n := lex.a.namedType()
		n.Parts = append(n.Parts, lex.Next().Value)
		for isPunct(lex.Peek(), ".") {
			lex.Next()
			if lex.Peek().Type != tIdent {
				return nil, unexpected(lex, "<ident>")
			}
			n.Parts = append(n.Parts, lex.Next().Value)
		}
		if isPunct(lex.Peek(), "(") {
			args, _, err := parseTypeList(lex)
			if err != nil {
				return nil, err
			}
			n.Args = args
		}
		n.Tokens = lex.Range(start, lex.RawCursor())
		a.Named = n
	default:
		return nil, unexpected(lex, "GType")
	}
	a.Tokens = lex.Range(start, lex.RawCursor())
	return a, nil
}

// Parse matches for a pattern.
func (g *gPattern) Parse(lex *cursor) error {
	start := lex.RawCursor()
	t := lex.Peek()
	switch {
	case isPunct(t, "-"):
		lex.Next()
		n := &gNegLit{}
		switch v := lex.Peek(); v.Type {
		case tInt:
			n.Int = &lex.Next().Value
		case tFloat:
			n.Float = &lex.Next().Value
		default:
			return unexpected(lex, "(<int> | <float>)")
		}
		n.Tokens = lex.Range(start, lex.RawCursor())
		g.Neg = n
	case t.Type == tInt:
		g.Int = &lex.Next().Value
	case t.Type == tFloat:
		g.Float = &lex.Next().Value
	case t.Type == tString:
		g.Str = &lex.Next().Value
	case isKw(t, "true"):
		lex.Next()
		g.True = true
	case isKw(t, "false"):
		lex.Next()
		g.False = true
	case isPunct(t, "("):
		lex.Next()
		p := &gPatParen{}
		for !isPunct(lex.Peek(), ")") {
			if isPunct(lex.Peek(), "..") {
				// A tuple rest (docs/reference/syntax.md#match) ends the pattern.
				rStart := lex.RawCursor()
				lex.Next()
				r := &gPatElem{Rest: true}
				if lex.Peek().Type == tIdent {
					r.Name = lex.Next().Value
				}
				r.Tokens = lex.Range(rStart, lex.RawCursor())
				p.Rest = r
				acceptPunct(lex, ",")
				if !isPunct(lex.Peek(), ")") {
					return unexpected(lex, `")"`)
				}
				break
			}
			e := &gPattern{}
			if err := e.Parse(lex); err == participle.NextMatch {
				if len(p.Elems) == 0 {
					return unexpected(lex, `")"`)
				}
				return unexpected(lex, "GPattern")
			} else if err != nil {
				return err
			}
			p.Elems = append(p.Elems, e)
			if acceptPunct(lex, ",") {
				p.Trail = isPunct(lex.Peek(), ")")
				continue
			}
			if !isPunct(lex.Peek(), ")") {
				return unexpected(lex, `")"`)
			}
		}
		lex.Next()
		p.Tokens = lex.Range(start, lex.RawCursor())
		g.Tuple = p
	case isPunct(t, "["):
		lex.Next()
		l := &gPatList{}
		for !isPunct(lex.Peek(), "]") {
			eStart := lex.RawCursor()
			e := &gPatElem{}
			if acceptPunct(lex, "..") {
				e.Rest = true
				if lex.Peek().Type == tIdent {
					e.Name = lex.Next().Value
				}
			} else {
				p := &gPattern{}
				if err := p.Parse(lex); err == participle.NextMatch {
					if len(l.Elems) == 0 {
						return unexpected(lex, `"]"`)
					}
					return unexpected(lex, "GPattern")
				} else if err != nil {
					return err
				}
				e.Pat = p
			}
			e.Tokens = lex.Range(eStart, lex.RawCursor())
			l.Elems = append(l.Elems, e)
			if acceptPunct(lex, ",") {
				continue
			}
			if !isPunct(lex.Peek(), "]") {
				return unexpected(lex, `"]"`)
			}
		}
		lex.Next()
		l.Tokens = lex.Range(start, lex.RawCursor())
		g.List = l
	case t.Type == tIdent:
		n := lex.a.patName()
		n.Parts = append(n.Parts, lex.Next().Value)
		for isPunct(lex.Peek(), ".") {
			lex.Next()
			if v := lex.Peek(); v.Type != tIdent && v.Type != tKeyword {
				return unexpected(lex, "(<ident> | <keyword>)")
			}
			n.Parts = append(n.Parts, lex.Next().Value)
		}
		if acceptPunct(lex, "(") {
			n.Parens = true
			for !isPunct(lex.Peek(), ")") {
				a := &gPattern{}
				if err := a.Parse(lex); err == participle.NextMatch {
					if len(n.Args) == 0 {
						return unexpected(lex, `")"`)
					}
					return unexpected(lex, "GPattern")
				} else if err != nil {
					return err
				}
				n.Args = append(n.Args, a)
				if acceptPunct(lex, ",") {
					continue
				}
				if !isPunct(lex.Peek(), ")") {
					return unexpected(lex, `")"`)
				}
			}
			lex.Next()
		}
		n.Tokens = lex.Range(start, lex.RawCursor())
		g.Ctor = n
	default:
		return participle.NextMatch
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Declaration headers, parameters and the compound expressions (if,
// match, receive, for, return, fn-lambdas) follow; type and newtype
// declarations are in declparse.go, with and %{…} in braceparse.go.

// require runs a matcher for a part the grammar requires here: NextMatch
// (the part does not start here) becomes an error whose Expect names it.
func require(lex *cursor, expect string, match func(*cursor) error) error {
	if err := match(lex); err != participle.NextMatch {
		return err
	}
	return unexpected(lex, expect)
}

// requireExpr parses a required expression; expect names it in the error.
func requireExpr(lex *cursor, expect string) (*gExpr, error) {
	x := lex.a.expr()
	if err := require(lex, expect, x.Parse); err != nil {
		return nil, err
	}
	return x, nil
}

// requireType parses a required type; expect names it in the error.
func requireType(lex *cursor, expect string) (*gType, error) {
	t := lex.a.typ()
	if err := require(lex, expect, t.Parse); err != nil {
		return nil, err
	}
	return t, nil
}

// requireBody parses a required body; expect names it in the error.
func requireBody(lex *cursor, expect string) (*gBody, error) {
	b := lex.a.body()
	if err := require(lex, expect, b.Parse); err != nil {
		return nil, err
	}
	return b, nil
}

// requireToken consumes a token of type typ (NEWLINE, INDENT, DEDENT).
func requireToken(lex *cursor, typ int, expect string) error {
	if int(lex.Peek().Type) != typ {
		return unexpected(lex, expect)
	}
	lex.Next()
	return nil
}

// expectExpr parses a required expression.
func expectExpr(lex *cursor) (*gExpr, error) { return requireExpr(lex, "GPostfix") }

// expectGuard parses a required guard expression (see gExpr.parseGuard).
func expectGuard(lex *cursor) (*gExpr, error) {
	x := lex.a.expr()
	if err := require(lex, "GPostfix", x.parseGuard); err != nil {
		return nil, err
	}
	return x, nil
}

// expectArrowBody parses the `-> body` that ends every kind of arm.
func expectArrowBody(lex *cursor) (*gBody, error) {
	if err := expectPunct(lex, "->"); err != nil {
		return nil, err
	}
	return expectBody(lex)
}

// expectBody parses a required body (block or inline expression).
func expectBody(lex *cursor) (*gBody, error) { return requireBody(lex, "GBody") }

// acceptPunct consumes the punctuation or operator v when it comes next
// and reports whether it did.
func acceptPunct(lex *cursor, v string) bool {
	if isPunct(lex.Peek(), v) {
		lex.Next()
		return true
	}
	return false
}

// acceptKw consumes the keyword kw when it comes next and reports whether
// it did.
func acceptKw(lex *cursor, kw string) bool {
	if isKw(lex.Peek(), kw) {
		lex.Next()
		return true
	}
	return false
}

// expectPunct consumes the punctuation or operator v that the grammar
// requires here.
func expectPunct(lex *cursor, v string) error {
	if !isPunct(lex.Peek(), v) {
		return unexpected(lex, `"`+v+`"`)
	}
	lex.Next()
	return nil
}

// Parse matches for `[pub] (fn | type | newtype) …`.
func (g *gDecl) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if acceptKw(lex, "pub") {
		g.Pub = true
	}
	t := lex.Peek()
	var err error
	switch {
	case isKw(t, "fn"):
		g.Fn = &gFn{}
		err = g.Fn.Parse(lex)
	case isKw(t, "type"):
		g.Type = &gTypeDecl{}
		err = g.Type.Parse(lex)
	case isKw(t, "newtype"):
		g.Newtype = &gNewtype{}
		err = g.Newtype.Parse(lex)
	case g.Pub:
		return unexpected(lex, "GDecl")
	default:
		return participle.NextMatch
	}
	if err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

func parseName(lex *cursor) (*gName, error) {
	start := lex.RawCursor()
	if lex.Peek().Type != tIdent {
		return nil, unexpected(lex, "<ident>")
	}
	n := &gName{Name: lex.Next().Value}
	n.Tokens = lex.Range(start, lex.RawCursor())
	return n, nil
}

// parseParams parses `( [param {, param} [,]] )`.
func parseParams(lex *cursor) ([]*gParam, error) {
	if err := expectPunct(lex, "("); err != nil {
		return nil, err
	}
	var out []*gParam
	for !isPunct(lex.Peek(), ")") {
		prm := lex.a.param()
		if err := prm.Parse(lex); err == participle.NextMatch {
			if len(out) == 0 {
				return nil, unexpected(lex, `")"`)
			}
			return nil, unexpected(lex, "GParam")
		} else if err != nil {
			return nil, err
		}
		out = append(out, prm)
		if acceptPunct(lex, ",") {
			continue
		}
		if !isPunct(lex.Peek(), ")") {
			return nil, unexpected(lex, `")"`)
		}
	}
	lex.Next()
	return out, nil
}

// Parse matches for `fn name(params) [-> X] [: body]`.
func (g *gFn) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "fn") {
		return participle.NextMatch
	}
	n, err := parseName(lex)
	if err != nil {
		return err
	}
	g.Name = n
	if g.Params, err = parseParams(lex); err != nil {
		return err
	}
	if acceptPunct(lex, "->") {
		if g.Arrow, err = expectExpr(lex); err != nil {
			return err
		}
	}
	if acceptPunct(lex, ":") {
		g.Colon = true
		if g.Body, err = expectBody(lex); err != nil {
			return err
		}
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `[label] PAT [: Type]`.
func (g *gParam) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if t := lex.Peek(); t.Type == tIdent {
		cp := lex.MakeCheckpoint()
		lex.Next()
		if lex.Peek().Type == tIdent {
			g.Label = &gName{Name: t.Value, Tokens: lex.Range(start, lex.RawCursor())}
		} else {
			lex.LoadCheckpoint(cp)
		}
	}
	pat := lex.a.pattern()
	if err := pat.Parse(lex); err == participle.NextMatch {
		if g.Label != nil {
			return unexpected(lex, "GPattern")
		}
		if lex.Peek().Type == tKeyword {
			// `fn(match) -> …`: a keyword where a parameter name belongs
			return unexpected(lex, "GParam")
		}
		return participle.NextMatch
	} else if err != nil {
		return err
	}
	g.Pat = pat
	if acceptPunct(lex, ":") {
		ty, err := requireType(lex, "GType")
		if err != nil {
			return err
		}
		g.Type = ty
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `if C: body [else: body]`.
func (g *gIf) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "if") {
		return participle.NextMatch
	}
	var err error
	if g.Cond, err = expectExpr(lex); err != nil {
		return err
	}
	if err := expectPunct(lex, ":"); err != nil {
		return err
	}
	if g.Then, err = expectBody(lex); err != nil {
		return err
	}
	if acceptKw(lex, "else") {
		// `else if C: …` is `else: if C: …`.
		if !isKw(lex.Peek(), "if") {
			if err := expectPunct(lex, ":"); err != nil {
				return err
			}
		}
		if g.Else, err = expectBody(lex); err != nil {
			return err
		}
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `fn(params) -> body`.
func (g *gFnLambda) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "fn") {
		return participle.NextMatch
	}
	var err error
	if g.Params, err = parseParams(lex); err != nil {
		return err
	}
	body, err := expectArrowBody(lex)
	if err != nil {
		return err
	}
	g.Body = body
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `PAT [: Type]`.
func (g *gArmPat) Parse(lex *cursor) error {
	start := lex.RawCursor()
	pat := lex.a.pattern()
	if err := pat.Parse(lex); err != nil {
		return err
	}
	g.Pat = pat
	if acceptPunct(lex, ":") {
		ty := lex.a.typ()
		if err := require(lex, "GType", func(lex *cursor) error { return ty.parse(lex, true) }); err != nil {
			return err
		}
		g.Type = ty
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for a receive arm:
// `after X -> body`, `PAT after X -> body` or `PAT [if G] -> body`.
func (g *gRecvArm) Parse(lex *cursor) error {
	start := lex.RawCursor()
	var err error
	if g.After, err = keywordGuard(lex, "after"); err != nil || g.After != nil {
		return g.end(lex, start, err)
	}
	ap := lex.a.armPat()
	if err := ap.Parse(lex); err != nil {
		return err
	}
	g.Pat = ap
	if g.After2, err = keywordGuard(lex, "after"); err != nil || g.After2 != nil {
		return g.end(lex, start, err)
	}
	g.Guard, err = keywordGuard(lex, "if")
	return g.end(lex, start, err)
}

// end parses the `-> body` of a receive arm unless err is set.
func (g *gRecvArm) end(lex *cursor, start int, err error) error {
	if err != nil {
		return err
	}
	if g.Body, err = expectArrowBody(lex); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// keywordGuard parses `kw EXPR` (a guard `if G`, a timeout `after N`) when
// the next token is the keyword kw, and returns nil otherwise.
func keywordGuard(lex *cursor, kw string) (*gExpr, error) {
	if !isKw(lex.Peek(), kw) {
		return nil, nil
	}
	lex.Next()
	return expectGuard(lex)
}

// Parse matches for `PAT [if G] -> body`.
func (g *gArm) Parse(lex *cursor) error {
	start := lex.RawCursor()
	ap := lex.a.armPat()
	if err := ap.Parse(lex); err != nil {
		return err
	}
	g.Pat = ap
	var err error
	if g.Guard, err = keywordGuard(lex, "if"); err != nil {
		return err
	}
	body, err := expectArrowBody(lex)
	if err != nil {
		return err
	}
	g.Body = body
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `COND -> body`.
func (g *gCondArm) Parse(lex *cursor) error {
	start := lex.RawCursor()
	c := lex.a.expr()
	if err := c.parseGuard(lex); err != nil {
		return err
	}
	g.Cond = c
	body, err := expectArrowBody(lex)
	if err != nil {
		return err
	}
	g.Body = body
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// collectArms parses the arms of a match or receive with parseArms and
// stores them in block (an indented block of arms) or inline (arms on the
// header line), as the source wrote them. The arms parsed before an error
// are kept, so the caller's tree shows how far parsing got. newArm
// returns an empty arm.
func collectArms[P interface{ Parse(*cursor) error }](lex *cursor, block, inline *[]P, newArm func() P) error {
	var arms []P
	isBlock, err := parseArms(lex, func() error {
		a := newArm()
		if err := a.Parse(lex); err != nil {
			return err
		}
		arms = append(arms, a)
		return nil
	})
	if isBlock {
		*block = arms
	} else {
		*inline = arms
	}
	return err
}

// parseArms parses arms as an indented block (one per line) or inline,
// separated by commas. next parses one arm and returns NextMatch when the
// token cannot start one.
func parseArms(lex *cursor, next func() error) (block bool, err error) {
	if lex.Peek().Type == tNewline {
		lex.Next()
		if lex.Peek().Type != tIndent {
			return true, unexpected(lex, "<indent>")
		}
		lex.Next()
		n := 0
		for {
			err := next()
			if err == participle.NextMatch {
				if n > 0 && lex.Peek().Type == tDedent {
					break
				}
				return true, unexpected(lex, "GArm")
			}
			if err != nil {
				return true, err
			}
			n++
			if lex.Peek().Type != tNewline {
				return true, unexpected(lex, "<newline>")
			}
			lex.Next()
		}
		lex.Next() // DEDENT
		return true, nil
	}
	for {
		err := next()
		if err == participle.NextMatch {
			return false, unexpected(lex, "GArm")
		}
		if err != nil {
			return false, err
		}
		if !isPunct(lex.Peek(), ",") || !armFollowsComma(lex) {
			return false, nil
		}
		lex.Next()
	}
}

// armFollowsComma decides, at a `,` after an inline arm, whether another arm
// follows or the comma belongs to an enclosing list, as in
// `f(match x: 1 -> a, _ -> b, y)`. The segment after the comma is an arm
// when it has an `->` at bracket depth 0 before the next `,`, closing
// bracket or end of line; an indented block opened later on the line (the
// body of a multi-line lambda) counts as a bracket, not as the line's end. A segment without an arrow is the enclosing
// list's next element when a closing bracket of that list follows on the
// line; otherwise (no enclosing bracket) it is parsed as an arm so that the
// usual "expected '->'" error is given.
func armFollowsComma(lex *cursor) bool {
	cp := lex.MakeCheckpoint()
	defer lex.LoadCheckpoint(cp)
	lex.Next() // ,
	depth := 0
	seg := true // still in the segment right after the comma
	for {
		t := lex.Peek()
		switch {
		case t.EOF():
			return true
		case t.Type == tNewline && depth == 0:
			if peekSecond(lex).Type != tIndent {
				return true // the end of the line
			}
			// NEWLINE INDENT opens a block (a multi-line lambda or arm
			// body later on the line): it is skipped like a bracket.
		case t.Type == tIndent || isPunct(t, "(") || isPunct(t, "[") || isPunct(t, "%{") || isPunct(t, "{"):
			depth++
		case t.Type == tDedent:
			depth--
		case isPunct(t, ")") || isPunct(t, "]") || isPunct(t, "}"):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && isPunct(t, ","):
			seg = false
		case depth == 0 && seg && isPunct(t, "->"):
			return true
		}
		lex.Next()
	}
}

// Parse matches for `match [X]:` and its arms.
func (g *gMatch) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "match") {
		return participle.NextMatch
	}
	if isPunct(lex.Peek(), ":") {
		cStart := lex.RawCursor()
		lex.Next()
		cb := &gCondBody{}
		var arms []*gCondArm
		block, err := parseArms(lex, func() error {
			a := &gCondArm{}
			if err := a.Parse(lex); err != nil {
				return err
			}
			arms = append(arms, a)
			return nil
		})
		if block {
			cb.Arms = arms
		} else {
			cb.Inline = arms
		}
		if err != nil {
			return err
		}
		cb.Tokens = lex.Range(cStart, lex.RawCursor())
		g.Cond = cb
	} else {
		var err error
		if g.Subject, err = expectExpr(lex); err != nil {
			return err
		}
		if err := expectPunct(lex, ":"); err != nil {
			return err
		}
		if err := collectArms(lex, &g.Arms, &g.Inline, lex.a.arm); err != nil {
			return err
		}
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

func newRecvArm() *gRecvArm { return &gRecvArm{} }

// Parse matches for `receive:`/`receive_event:`
// and its arms.
func (g *gReceive) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !isKw(lex.Peek(), "receive", "receive_event") {
		return participle.NextMatch
	}
	g.Kw = lex.Next().Value
	if err := expectPunct(lex, ":"); err != nil {
		return err
	}
	if err := collectArms(lex, &g.Arms, &g.Inline, newRecvArm); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `for PAT in X: body`.
func (g *gFor) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "for") {
		return participle.NextMatch
	}
	pat := lex.a.pattern()
	if err := require(lex, "GPattern", pat.Parse); err != nil {
		return err
	}
	g.Pat = pat
	if !isKw(lex.Peek(), "in") {
		return unexpected(lex, `"in"`)
	}
	lex.Next()
	var err error
	if g.Iter, err = expectExpr(lex); err != nil {
		return err
	}
	if err := expectPunct(lex, ":"); err != nil {
		return err
	}
	if g.Body, err = expectBody(lex); err != nil {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}

// Parse matches for `return [X]`.
func (g *gReturn) Parse(lex *cursor) error {
	start := lex.RawCursor()
	if !acceptKw(lex, "return") {
		return participle.NextMatch
	}
	g.Kw = true
	x := lex.a.expr()
	if err := x.Parse(lex); err == nil {
		g.X = x
	} else if err != participle.NextMatch {
		return err
	}
	g.Tokens = lex.Range(start, lex.RawCursor())
	return nil
}
