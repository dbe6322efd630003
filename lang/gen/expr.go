package gen

import (
	"fmt"
	"strings"
)

// expr writes an expression of type t.
func (c *ctx) expr(s *scope, t *Type, o eopt) val {
	g := c.g
	if t.K == tResult {
		return c.resultExpr(s, t, o)
	}
	if o.depth <= 0 || g.chance(5) {
		return c.leaf(s, t, o)
	}
	for try := 0; try < 6; try++ {
		if v, ok := c.compound(s, t, o); ok {
			return v
		}
	}
	return c.leaf(s, t, o)
}

// leaf is a local, a projection of a local or a literal.
func (c *ctx) leaf(s *scope, t *Type, o eopt) val {
	g := c.g
	if ls := s.ofType(t); len(ls) > 0 && g.r.Intn(100) < 65 {
		l := pick(g, ls)
		return val{s: l.name, atom: true, lo: l.lo, hi: l.hi}
	}
	if g.chance(3) {
		if v, ok := c.projection(s, t); ok {
			return v
		}
	}
	if v, ok := c.lit(s, t, o); ok {
		return v
	}
	if ls := s.ofType(t); len(ls) > 0 {
		l := pick(g, ls)
		return val{s: l.name, atom: true, lo: l.lo, hi: l.hi}
	}
	if v, ok := c.projection(s, t); ok {
		return v
	}
	if t.K == tTuple && c.canMake(s, t) {
		return c.tupleOf(s, t, eopt{depth: 0, anch: o.anch})
	}
	if o.depth > -3 {
		if v, ok := c.callSome(s, t, o); ok {
			return v
		}
	}
	panic(fmt.Sprintf("gen: no value of type %s in scope", t))
}

// projection reads a component of a local: `.0`, `.field`.
func (c *ctx) projection(s *scope, t *Type) (val, bool) {
	g := c.g
	var cands []string
	for _, l := range s.visible() {
		switch l.t.K {
		case tTuple:
			for i, a := range l.t.Args {
				if a.equal(t) {
					cands = append(cands, fmt.Sprintf("%s.%d", l.name, i))
				}
				if a.K == tTuple {
					for j, b := range a.Args {
						if b.equal(t) {
							cands = append(cands, fmt.Sprintf("%s.%d.%d", l.name, i, j))
						}
					}
				}
			}
		case tUser:
			d := l.t.D
			if d.kind == declRecord || d.kind == declNewtype {
				m := d.instMap(l.t.Args)
				for _, f := range d.fields {
					if f.t.subst(m).equal(t) {
						cands = append(cands, l.name+"."+f.name)
					}
				}
			}
		}
	}
	if len(cands) == 0 {
		return val{}, false
	}
	g.use("projection")
	return val{s: pick(g, cands), atom: true, hi: listCap}, true
}

// canMake reports whether a value of type t can be written here: data
// always; process handles, type variables and unions only through
// locals of that type.
func (c *ctx) canMake(s *scope, t *Type) bool {
	switch {
	case t.dataLike(), t.K == tFunc:
		return true
	case t.K == tTuple:
		for _, a := range t.Args {
			if !c.canMake(s, a) {
				return false
			}
		}
		return true
	}
	return len(s.ofType(t)) > 0
}

// keyedNative decides, one time in three, that a scalar comes from a Map
// native or (one time in two of those) a Set native, and picks the key
// type: Int or String.
func (c *ctx) keyedNative() (kt *Type, set, ok bool) {
	g := c.g
	if !g.chance(3) {
		return nil, false, false
	}
	g.use("map-native")
	kt = pick(g, []*Type{intT, stringT})
	if g.chance(2) {
		g.use("set-native")
		return kt, true, true
	}
	return kt, false, true
}

// compound picks one non-leaf form for t.
func (c *ctx) compound(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	if !t.dataLike() && t.K != tFunc {
		// Process handles and type variables: only what holds one.
		switch g.r.Intn(3) {
		case 0:
			return c.callSome(s, t, o)
		case 1:
			if t.K == tTuple {
				return c.tupleOf(s, t, o), true
			}
			return val{}, false
		default:
			if !c.canMake(s, t) {
				return val{}, false
			}
			return c.ifExpr(s, t, o)
		}
	}
	// The forms of any data type, by the number drawn (a call twice as
	// likely); 9 is an actor expression, the rest t's own forms below.
	forms := [...]func(c *ctx, s *scope, t *Type, o eopt) (val, bool){
		(*ctx).callSome, (*ctx).callSome, (*ctx).ifExpr, (*ctx).consumeResult, (*ctx).optionUnwrap,
		(*ctx).listElem, (*ctx).fold, (*ctx).inlineMatch, (*ctx).callFuncLocal,
	}
	switch k := g.r.Intn(14); {
	case k < len(forms):
		return forms[k](c, s, t, o)
	case k == 9:
		if c.mailbox != nil && !c.pure {
			return c.actorExpr(s, t, o)
		}
		return c.callSome(s, t, o)
	}
	switch t.K {
	case tInt:
		return c.intExpr(s, o)
	case tFloat:
		return c.floatExpr(s, o)
	case tBool:
		return c.boolExpr(s, o)
	case tString:
		return c.stringExpr(s, o)
	case tList:
		return c.listExpr(s, t, o)
	case tOption:
		return c.optionExpr(s, t, o)
	case tMap:
		return c.mapExpr(s, t, o)
	case tTuple:
		return c.tupleOf(s, t, o), true
	case tUser:
		if t.D.kind == declRecord && g.chance(3) {
			if ls := s.ofType(t); len(ls) > 0 {
				l := pick(g, ls)
				f := pick(g, t.D.fields)
				ft := f.t.subst(t.D.instMap(t.Args))
				g.use("record-update")
				return atom(fmt.Sprintf("%%{ %s | %s: %s }", l.name, f.name, c.expr(s, ft, o.down().anchored()).s)), true
			}
		}
		return c.ctorValue(s, t, o, false)
	case tFunc:
		v, _ := c.lambda(s, t, o)
		return v, true
	case tUnit:
		if c.pure && !c.inDefer {
			return atom("()"), true
		}
		if ts := printableTypes(c, s); len(ts) > 0 {
			pt := pick(g, ts)
			return atom("println(" + c.expr(s, pt, o.down().unanch()).s + ")"), true
		}
	case tOrdering:
		return c.compareExpr(s, o)
	}
	return val{}, false
}

func (c *ctx) tupleOf(s *scope, t *Type, o eopt) val {
	var parts []string
	for _, a := range t.Args {
		parts = append(parts, c.expr(s, a, o.down()).s)
	}
	if len(parts) == 1 {
		return atom("(" + parts[0] + ",)")
	}
	return atom("(" + strings.Join(parts, ", ") + ")")
}

func printableTypes(c *ctx, s *scope) []*Type {
	ts := []*Type{intT, stringT, boolT, floatT}
	for _, l := range s.visible() {
		if l.t.printable() && l.t.dataLike() {
			ts = append(ts, l.t)
		}
	}
	return ts
}

// binop joins two operands.
func binop(a val, op string, b val) val {
	return val{s: a.paren() + " " + op + " " + b.paren()}
}

func (c *ctx) intExpr(s *scope, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	e := func() val { return c.expr(s, intT, d) }
	switch g.r.Intn(16) {
	case 0, 1, 2:
		g.use("arith")
		return binop(e(), pick(g, []string{"+", "-", "*"}), e()), true
	case 3:
		g.use("div-mod")
		op := pick(g, []string{"/", "%"})
		if g.faulty && g.chance(3) {
			g.use("fault-div")
			return binop(e(), op, e()), true
		}
		// b % 7 + 8 is in 2..14: never zero.
		return binop(e(), op, val{s: "(" + e().paren() + " % 7 + 8)", atom: true}), true
	case 4:
		g.use("power")
		if g.faulty && g.chance(3) {
			g.use("fault-power")
			return binop(e(), "**", atom("(0 - 1)")), true
		}
		return binop(e(), "**", atom(g.smallInt())), true
	case 5:
		g.use("bitwise")
		return binop(e(), pick(g, []string{"&&&", "|||", "^^^", "<<<", ">>>"}), e()), true
	case 6:
		g.use("unary")
		return val{s: pick(g, []string{"-", "~~~"}) + e().paren()}, true
	case 7:
		g.use("string-native")
		arg := c.expr(s, stringT, d).s
		return atom("String.len(" + g.mark(mutBuiltinLabel, arg, "text: "+arg, "labels an argument of a runtime builtin") + ")"), true
	case 8:
		if kt, set, ok := c.keyedNative(); ok {
			if set {
				return atom("Set.len(Set.from_list(" + c.expr(s, listOf(kt), d.unanch()).s + "))"), true
			}
			return atom("Map.len(" + c.expr(s, mapOf(kt, c.someType(s)), d.unanch()).s + ")"), true
		}
		g.use("list-native")
		et := c.someType(s)
		return atom("List.len(" + c.expr(s, listOf(et), d.unanch()).s + ")"), true
	case 9:
		g.use("list-native")
		return atom("List.sum(" + c.expr(s, listOf(intT), d.anchored()).s + ")"), true
	case 10:
		g.use("string-native")
		return atom(fmt.Sprintf("String.compare(%s, %s)", c.expr(s, stringT, d).s, c.expr(s, stringT, d).s)), true
	case 11:
		g.use("option-native")
		fn := pick(g, []string{"Int.checked_add", "Int.checked_sub", "Int.checked_mul", "Int.checked_div", "Int.checked_rem"})
		return atom(fmt.Sprintf("Option.unwrap_or(%s(%s, %s), %s)", fn, e().s, e().s, e().s)), true
	case 12:
		g.use("option-native")
		return atom(fmt.Sprintf("Option.unwrap_or(Int.parse(%s), %s)", c.expr(s, stringT, d).s, e().s)), true
	case 13:
		g.use("pipe")
		return c.pipeBuiltin(s, intT, o)
	case 14:
		g.use("string-native")
		fn := pick(g, []string{"String.index_of", "String.char_at"})
		arg := c.expr(s, stringT, d).s
		if fn == "String.char_at" {
			return atom(fmt.Sprintf("Option.unwrap_or(%s(%s, %s), -1)", fn, c.expr(s, stringT, d).s, e().s)), true
		}
		return atom(fmt.Sprintf("Option.unwrap_or(%s(%s, %s), -1)", fn, c.expr(s, stringT, d).s, arg)), true
	default:
		return binop(e(), pick(g, []string{"+", "-"}), e()), true
	}
}

func (c *ctx) floatExpr(s *scope, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	e := func() val { return c.expr(s, floatT, d) }
	g.use("float-arith")
	switch g.r.Intn(4) {
	case 0:
		return val{s: "-" + e().paren()}, true
	case 1:
		return binop(e(), "**", atom(pick(g, []string{"2.0", "0.5", "1.0"}))), true
	default:
		return binop(e(), pick(g, []string{"+", "-", "*", "/"}), e()), true
	}
}

func (c *ctx) boolExpr(s *scope, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	switch g.r.Intn(13) {
	case 0, 1:
		g.use("compare-op")
		t := pick(g, []*Type{intT, intT, floatT})
		return binop(c.expr(s, t, d), pick(g, []string{"<", "<=", ">", ">="}), c.expr(s, t, d)), true
	case 2, 3:
		g.use("equality")
		t := c.eqType(s)
		return binop(c.expr(s, t, d.unanch()), pick(g, []string{"==", "!="}), c.expr(s, t, d.anchored())), true
	case 4:
		g.use("logic")
		return binop(c.expr(s, boolT, d), pick(g, []string{"and", "or"}), c.expr(s, boolT, d)), true
	case 5:
		g.use("logic")
		return val{s: "not " + c.expr(s, boolT, d).paren()}, true
	case 6:
		g.use("string-native")
		fn := pick(g, []string{"String.contains", "String.starts_with", "String.ends_with", "String.eq"})
		return atom(fmt.Sprintf("%s(%s, %s)", fn, c.expr(s, stringT, d).s, c.expr(s, stringT, d).s)), true
	case 7:
		if kt, set, ok := c.keyedNative(); ok {
			if set {
				return binop(c.expr(s, kt, d), "in", atom("Set.from_list("+c.expr(s, listOf(kt), d.unanch()).s+")")), true
			}
			return atom(fmt.Sprintf("Map.contains(%s, %s)", c.expr(s, mapOf(kt, c.someType(s)), d.unanch()).s, c.expr(s, kt, d).s)), true
		}
		g.use("list-native")
		if g.chance(2) {
			fn := pick(g, []string{"String.is_empty", "String.is_decimal"})
			return atom(fn + "(" + c.expr(s, stringT, d).s + ")"), true
		}
		return atom("List.is_empty(" + c.expr(s, listOf(c.someType(s)), d.unanch()).s + ")"), true
	case 8:
		g.use("higher-order")
		et := c.someType(s)
		xs := c.expr(s, listOf(et), d.unanch())
		body, k := c.lambda(s, funcOf([]*Type{et}, boolT), d.anchored().withHOF(true))
		c.spend(max(1, xs.hi) * k)
		return atom(fmt.Sprintf("%s(%s, %s)", pick(g, []string{"List.any", "List.all"}), xs.s, body.s)), true
	case 9:
		g.use("membership")
		et := pick(g, scalarTypes)
		if g.chance(2) {
			return binop(c.expr(s, et, d), "in", c.expr(s, listOf(et), d.anchored())), true
		}
		return atom(fmt.Sprintf("List.contains(%s, %s)", c.expr(s, listOf(et), d.unanch()).s, c.expr(s, et, d).s)), true
	case 10:
		g.use("option-native")
		t := c.someType(s)
		return atom(fmt.Sprintf("%s(%s)", pick(g, []string{"Option.is_some", "Option.is_none"}), c.expr(s, optionOf(t), d.unanch()).s)), true
	case 11:
		g.use("eq-builtin")
		t := c.eqType(s)
		return atom(fmt.Sprintf("eq(left: %s, right: %s)", c.expr(s, t, d.unanch()).s, c.expr(s, t, d.anchored()).s)), true
	default:
		if g.union != nil && !c.pure {
			return c.callSome(s, boolT, o)
		}
		return binop(c.expr(s, intT, d), pick(g, []string{"==", "<"}), c.expr(s, intT, d)), true
	}
}

// eqType picks a type `==` accepts, preferring the types of locals.
func (c *ctx) eqType(s *scope) *Type {
	if t := c.localType(s, func(t *Type) bool { return t.hasEq() && t.dataLike() }); t != nil {
		return t
	}
	return c.g.dataTypeWith(1, (*Type).hasEq)
}

// localType returns, half of the time when there is one, the type of a
// visible local that keep accepts; otherwise nil.
func (c *ctx) localType(s *scope, keep func(*Type) bool) *Type {
	var ts []*Type
	for _, l := range s.visible() {
		if keep(l.t) {
			ts = append(ts, l.t)
		}
	}
	if len(ts) > 0 && c.g.chance(2) {
		return pick(c.g, ts)
	}
	return nil
}

// dataTypeWith draws up to five data types of the given depth and
// returns the first one that ok accepts, or Int.
func (g *gen) dataTypeWith(depth int, ok func(*Type) bool) *Type {
	for i := 0; i < 5; i++ {
		if t := g.dataType(depth); ok(t) {
			return t
		}
	}
	return intT
}

// someType picks a data type, preferring the types of locals.
func (c *ctx) someType(s *scope) *Type {
	if t := c.localType(s, (*Type).dataLike); t != nil {
		return t
	}
	return c.g.dataType(1)
}

func (c *ctx) stringExpr(s *scope, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	e := func() val { return c.expr(s, stringT, d) }
	switch g.r.Intn(15) {
	case 0, 1:
		g.use("interpolation")
		return atom(c.interpolated(s, o)), true
	case 2:
		g.use("string-concat")
		return binop(e(), "+", e()), true
	case 3:
		g.use("string-native")
		return atom(fmt.Sprintf("String.concat(%s, %s)", e().s, e().s)), true
	case 4:
		g.use("string-native")
		n := g.smallInt()
		if g.faulty && g.chance(6) {
			g.use("fault-string-size")
			n = "9000000"
		}
		return atom(fmt.Sprintf("String.repeat(%s, %s)", e().s, n)), true
	case 5:
		g.use("string-slice")
		return atom(fmt.Sprintf("String.slice(%s, %s, %s)", e().s, g.intLit(), g.intLit())), true
	case 6:
		g.use("string-native")
		fn := pick(g, []string{"String.trim", "String.to_upper", "String.to_lower", "String.quote", "String.trim_start", "String.trim_end"})
		return atom(fn + "(" + e().s + ")"), true
	case 7:
		g.use("string-native")
		return atom(fmt.Sprintf("String.replace(%s, %s, %s)", e().s, e().s, e().s)), true
	case 8:
		g.use("string-native")
		xs := c.expr(s, listOf(stringT), d.anchored())
		return atom(fmt.Sprintf("String.join(%s, %s)", xs.s, e().s)), true
	case 9:
		g.use("show")
		t := c.showType(s)
		return atom("show(" + c.expr(s, t, d.unanch()).s + ")"), true
	case 10:
		g.use("higher-order")
		et := c.someType(s)
		if !et.interpolable() && !et.hasShow() {
			et = intT
		}
		xs := c.expr(s, listOf(et), d.unanch())
		lam, k := c.lambda(s, funcOf([]*Type{et}, stringT), d.anchored().withHOF(true))
		c.spend(max(1, xs.hi) * k)
		return atom(fmt.Sprintf("String.join(List.map(%s, %s), %s)", xs.s, lam.s, e().s)), true
	case 11:
		if g.union != nil && !c.pure {
			return c.unionCall(s, o)
		}
		return binop(e(), "+", e()), true
	case 12:
		g.use("pipe")
		return c.pipeBuiltin(s, stringT, o)
	case 13:
		g.use("string-native")
		return atom(fmt.Sprintf("String.join(List.take(String.split(%s, %s), %d), %s)", e().s, pick(g, []string{`","`, `" "`, `""`, `"é"`}), 1+g.r.Intn(4), e().s)), true
	default:
		return binop(e(), "+", atom(c.strLit(s, o))), true
	}
}

// interpolated is a string literal with `{expr}` parts.
func (c *ctx) interpolated(s *scope, o eopt) string {
	g := c.g
	var b strings.Builder
	b.WriteByte('"')
	n := 1 + g.r.Intn(3)
	for i := 0; i < n; i++ {
		b.WriteString(pick(g, []string{"v=", " ", "x", "", "é", "\\{lit\\} "}))
		t := pick(g, scalarTypes)
		io := eopt{depth: min(o.depth-1, 2), interp: true}
		if o.interp || c.interp {
			io.depth = 0
		}
		ic := c.with(func(d *ctx) { d.interp = true })
		b.WriteString("{" + ic.expr(s, t, io).s + "}")
	}
	b.WriteByte('"')
	return b.String()
}

// showType picks a type with Show, preferring locals' types.
func (c *ctx) showType(s *scope) *Type {
	if t := c.localType(s, func(t *Type) bool { return t.hasShow() && t.dataLike() && t.K != tUnit }); t != nil {
		return t
	}
	return c.g.dataTypeWith(2, (*Type).hasShow)
}

// listExpr builds a list with the stdlib, keeping the length bounds.
func (c *ctx) listExpr(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	et := t.Args[0]
	d := o.down()
	sub := func() val { return c.expr(s, t, d) }
	g.use("list-native")
	switch g.r.Intn(16) {
	case 0, 1:
		n := 1 + g.r.Intn(3)
		var parts []string
		for i := 0; i < n; i++ {
			parts = append(parts, c.expr(s, et, d).s)
		}
		return val{s: "[" + strings.Join(parts, ", ") + "]", atom: true, lo: n, hi: n}, true
	case 2:
		g.use("higher-order")
		at := c.someType(s)
		xs := c.expr(s, listOf(at), d.unanch())
		f, k := c.funcArg(s, funcOf([]*Type{at}, et), d.withHOF(true))
		c.spend(max(1, xs.hi) * k)
		return val{s: fmt.Sprintf("List.map(%s, %s)", xs.s, f.s), atom: true, lo: xs.lo, hi: xs.hi}, true
	case 3:
		g.use("higher-order")
		xs := sub()
		f, k := c.funcArg(s, funcOf([]*Type{et}, boolT), d.withHOF(!d.anch))
		c.spend(max(1, xs.hi) * k)
		return val{s: fmt.Sprintf("List.filter(%s, %s)", xs.s, f.s), atom: true, hi: xs.hi}, true
	case 4:
		xs := sub()
		if xs.hi+1 > listCap {
			return val{}, false
		}
		return val{s: fmt.Sprintf("List.push(%s, %s)", xs.s, c.expr(s, et, d).s), atom: true, lo: xs.lo + 1, hi: xs.hi + 1}, true
	case 5:
		xs, ys := sub(), sub()
		if xs.hi+ys.hi > listCap {
			return val{}, false
		}
		return val{s: fmt.Sprintf("List.concat(%s, %s)", xs.s, ys.s), atom: true, lo: xs.lo + ys.lo, hi: xs.hi + ys.hi}, true
	case 6:
		xs := sub()
		return val{s: fmt.Sprintf("List.reverse(%s)", xs.s), atom: true, lo: xs.lo, hi: xs.hi}, true
	case 7:
		xs := sub()
		k := g.r.Intn(4)
		return val{s: fmt.Sprintf("List.take(%s, %d)", xs.s, k), atom: true, lo: min(xs.lo, k), hi: min(xs.hi, k)}, true
	case 8:
		xs := sub()
		if g.chance(2) {
			return val{s: fmt.Sprintf("List.tail(%s)", xs.s), atom: true, lo: max(0, xs.lo-1), hi: xs.hi}, true
		}
		k := g.r.Intn(3)
		return val{s: fmt.Sprintf("List.drop(%s, %d)", xs.s, k), atom: true, lo: max(0, xs.lo-k), hi: xs.hi}, true
	case 9:
		if !et.sortable(g) {
			return val{}, false
		}
		g.use("sort")
		xs := sub()
		return val{s: fmt.Sprintf("List.sort(%s)", xs.s), atom: true, lo: xs.lo, hi: xs.hi}, true
	case 10:
		g.use("sort-by")
		xs := sub()
		cmp, k := c.comparator(s, et, d)
		c.spend(max(1, xs.hi*xs.hi) * k)
		return val{s: fmt.Sprintf("List.sort_by(%s, %s)", xs.s, cmp), atom: true, lo: xs.lo, hi: xs.hi}, true
	case 11:
		if et.K != tInt {
			return val{}, false
		}
		g.use("range")
		a := g.r.Intn(10) - 3
		b := a + g.r.Intn(listCap)
		return val{s: fmt.Sprintf("List.range(%d, %d)", a, b), atom: true, lo: b - a, hi: b - a}, true
	case 12:
		if et.K != tTuple || len(et.Args) != 2 {
			return val{}, false
		}
		if et.Args[0].K == tInt && g.chance(2) {
			g.use("enumerate")
			xs := c.expr(s, listOf(et.Args[1]), d)
			return val{s: fmt.Sprintf("List.enumerate(%s)", xs.s), atom: true, lo: xs.lo, hi: xs.hi}, true
		}
		g.use("zip")
		xs := c.expr(s, listOf(et.Args[0]), d)
		ys := c.expr(s, listOf(et.Args[1]), d)
		return val{s: fmt.Sprintf("List.zip(%s, %s)", xs.s, ys.s), atom: true, lo: min(xs.lo, ys.lo), hi: min(xs.hi, ys.hi)}, true
	case 13:
		if et.K != tString {
			return val{}, false
		}
		k := 1 + g.r.Intn(4)
		if g.chance(3) {
			return val{s: fmt.Sprintf("List.take(String.lines(%s), %d)", c.expr(s, stringT, d).s, k), atom: true, hi: k}, true
		}
		return val{s: fmt.Sprintf("List.take(String.split(%s, %s), %d)", c.expr(s, stringT, d).s, c.expr(s, stringT, d).s, k), atom: true, hi: k}, true
	case 14:
		g.use("pipe")
		xs := sub()
		if g.chance(2) {
			return val{s: fmt.Sprintf("(%s |> List.reverse())", xs.s), atom: true, lo: xs.lo, hi: xs.hi}, true
		}
		return val{s: fmt.Sprintf("(%s |> List.take(_, %d))", xs.s, 2), atom: true, lo: min(xs.lo, 2), hi: min(xs.hi, 2)}, true
	default:
		if g.faulty || !o.anch {
			return val{}, false
		}
		return val{s: "[]", atom: true}, true
	}
}

func (c *ctx) comparator(s *scope, et *Type, o eopt) (string, int) {
	g := c.g
	a, b := g.fresh("a"), g.fresh("b")
	ann := ""
	if g.chance(3) || et.K == tTuple || et.K == tUser {
		ann = ": " + et.String()
	}
	inner := s.child()
	inner.add(&local{name: a, t: et, hi: listCap})
	inner.add(&local{name: b, t: et, hi: listCap})
	lc := c.lambdaCtx()
	var body string
	switch {
	case et.sortable(g) && g.chance(2):
		g.use("compare-builtin")
		body = fmt.Sprintf("compare(left: %s, right: %s)", a, b)
	case et.ordered():
		body = fmt.Sprintf("if %s < %s: Less else: if %s == %s: Equal else: Greater", a, b, a, b)
	default:
		body = lc.expr(inner, orderingT, o.anchored()).s
	}
	return fmt.Sprintf("(%s%s, %s%s) -> %s", a, ann, b, ann, body), *lc.cost + 1
}

func (c *ctx) compareExpr(s *scope, o eopt) (val, bool) {
	g := c.g
	for i := 0; i < 4; i++ {
		t := c.someType(s)
		if t.sortable(g) {
			g.use("compare-builtin")
			return atom(fmt.Sprintf("compare(left: %s, right: %s)", c.expr(s, t, o.down().unanch()).s, c.expr(s, t, o.down().anchored()).s)), true
		}
	}
	return val{}, false
}

func (c *ctx) optionExpr(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	et := t.Args[0]
	d := o.down()
	g.use("option-native")
	switch g.r.Intn(8) {
	case 0:
		return atom("Some(" + c.expr(s, et, d).s + ")"), true
	case 1:
		fn := pick(g, []string{"List.first", "List.last"})
		return atom(fn + "(" + c.expr(s, listOf(et), d).s + ")"), true
	case 2:
		return atom(fmt.Sprintf("List.at(%s, %s)", c.expr(s, listOf(et), d).s, c.expr(s, intT, d).s)), true
	case 3:
		g.use("higher-order")
		xs := c.expr(s, listOf(et), d)
		f, k := c.funcArg(s, funcOf([]*Type{et}, boolT), d.withHOF(!d.anch))
		c.spend(max(1, xs.hi) * k)
		return atom(fmt.Sprintf("List.find(%s, %s)", xs.s, f.s)), true
	case 4:
		if et.K != tInt {
			return val{}, false
		}
		return atom("Int.parse(" + c.expr(s, stringT, d).s + ")"), true
	case 5:
		if et.K != tInt {
			return val{}, false
		}
		return atom(fmt.Sprintf("Int.checked_%s(%s, %s)", pick(g, []string{"add", "sub", "mul", "div", "rem"}), c.expr(s, intT, d).s, c.expr(s, intT, d).s)), true
	case 6:
		g.use("higher-order")
		at := c.someType(s)
		src := c.expr(s, optionOf(at), d.unanch())
		f, k := c.funcArg(s, funcOf([]*Type{at}, et), d.withHOF(true))
		c.spend(k)
		return atom(fmt.Sprintf("Option.map(%s, %s)", src.s, f.s)), true
	default:
		if !o.anch {
			return val{}, false
		}
		return atom("None"), true
	}
}

// optionUnwrap: Option.unwrap_or(o, d).
func (c *ctx) optionUnwrap(s *scope, t *Type, o eopt) (val, bool) {
	d := o.down()
	c.g.use("option-native")
	return atom(fmt.Sprintf("Option.unwrap_or(%s, %s)", c.expr(s, optionOf(t), d.unanch()).s, c.expr(s, t, d.anchored()).s)), true
}

// listElem reads an element of a list that is long enough: List.head,
// xs[i], List.get. Faulty programs sometimes skip the check.
func (c *ctx) listElem(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	xs := c.expr(s, listOf(t), o.down())
	if xs.lo < 1 && !(g.faulty && g.chance(2)) {
		return val{}, false
	}
	i := 0
	if xs.lo > 1 {
		i = g.r.Intn(xs.lo)
	}
	if xs.lo < 1 {
		g.use("fault-list")
		i = g.r.Intn(3)
	}
	g.use("list-index")
	switch g.r.Intn(3) {
	case 0:
		return atom("List.head(" + xs.s + ")"), true
	case 1:
		return atom(fmt.Sprintf("%s[%d]", xs.paren(), i)), true
	default:
		return atom(fmt.Sprintf("List.get(%s, %d)", xs.s, i)), true
	}
}

// fold: List.fold(xs, init, (acc, x) -> …).
func (c *ctx) fold(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	if t.K == tList || t.K == tFunc || t.hasVar() {
		return val{}, false
	}
	g.use("higher-order")
	g.use("fold")
	d := o.down()
	et := c.someType(s)
	xs := c.expr(s, listOf(et), d.unanch())
	// The accumulator's shape must be known when the callback is checked
	// (it may read acc.0): the initial value fixes its own type.
	init := c.expr(s, t, d.unanch())
	acc, x := g.fresh("acc"), g.fresh("x")
	inner := s.child()
	inner.add(&local{name: acc, t: t, hi: listCap})
	inner.add(&local{name: x, t: et, hi: listCap})
	lc := c.lambdaCtx()
	body := lc.expr(inner, t, d.anchored())
	c.spend(max(1, xs.hi) * (*lc.cost + 1))
	return atom(fmt.Sprintf("List.fold(%s, %s, (%s, %s) -> %s)", xs.s, init.s, acc, x, body.s)), true
}

// ifExpr: an inline `if c: a else: b`.
func (c *ctx) ifExpr(s *scope, t *Type, o eopt) (val, bool) {
	c.g.use("if-expr")
	d := o.down()
	cond := c.expr(s, boolT, d)
	a := c.expr(s, t, d)
	b := c.expr(s, t, d.anchored())
	if t.scalar() && c.g.chance(4) {
		b.s = c.g.mark(mutIfBranch, b.s, wrongScalar(t), "gives the branches of an if different types")
	}
	return val{s: fmt.Sprintf("(if %s: %s else: %s)", cond.s, a.s, b.s), atom: true, lo: min(a.lo, b.lo), hi: max(a.hi, b.hi)}, true
}

// inlineMatch: `(match x: p -> a, _ -> b)` on a scalar.
func (c *ctx) inlineMatch(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	if o.interp {
		return val{}, false
	}
	d := o.down()
	g.use("inline-match")
	if g.chance(3) {
		g.use("condition-match")
		return atom(fmt.Sprintf("(match: %s -> %s, _ -> %s)", c.expr(s, boolT, d).paren(), c.expr(s, t, d).s, c.expr(s, t, d.anchored()).s)), true
	}
	st := pick(g, []*Type{intT, stringT, boolT})
	scrut := c.expr(s, st, d)
	var arms []string
	var lits []string
	for i := 0; i < 1+g.r.Intn(2); i++ {
		p := c.litPattern(st)
		if contains(lits, p) {
			continue
		}
		lits = append(lits, p)
		arms = append(arms, p+" -> "+c.expr(s, t, d).s)
	}
	if st.K == tBool && len(lits) == 2 {
		return atom("(match " + scrut.s + ": " + strings.Join(arms, ", ") + ")"), true
	}
	arms = append(arms, "_ -> "+c.expr(s, t, d.anchored()).s)
	return atom("(match " + scrut.s + ": " + strings.Join(arms, ", ") + ")"), true
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (c *ctx) litPattern(t *Type) string {
	g := c.g
	switch t.K {
	case tInt:
		return fmt.Sprint(g.r.Intn(7) - 2)
	case tBool:
		return pick(g, []string{"true", "false"})
	default:
		if g.chance(5) {
			g.use("escaped-string-pattern")
			return `"` + pick(g, fancyStrings) + `"`
		}
		return `"` + pick(g, plainStrings) + `"`
	}
}

// lambdaCtx is the context of a lambda body: pure, no return, no loop,
// its own cost counter.
func (c *ctx) lambdaCtx() *ctx {
	cost := 0
	return c.with(func(d *ctx) {
		d.ret, d.errT, d.loop, d.pure, d.mailbox = nil, nil, false, true, nil
		d.mult, d.cost, d.budget = 1, &cost, lambdaBudget
		d.ind = c.ind + 4
		d.inDefer = false
		d.root = false
	})
}

// lambda writes a lambda of function type ft and returns its cost per
// call.
func (c *ctx) lambda(s *scope, ft *Type, o eopt) (val, int) {
	g := c.g
	g.use("lambda")
	inner := s.child()
	var ps []string
	annotate := !o.anch || g.chance(3)
	for _, pt := range ft.params() {
		n := g.fresh("p")
		inner.add(&local{name: n, t: pt, hi: listCap})
		// A projection on a parameter needs its shape when the body is
		// checked: only an earlier argument of a stdlib call gives it.
		shape := pt.K == tTuple || pt.K == tUser
		if (annotate || shape && !o.hof) && pt.concrete() {
			ps = append(ps, n+": "+pt.String())
		} else {
			ps = append(ps, n)
		}
	}
	lc := c.lambdaCtx()
	if len(s.visible()) > 0 {
		g.use("closure")
	}
	var body string
	bo := eopt{depth: min(o.depth, 2), anch: o.anch || ft.result().K == tFunc}
	if !o.anch {
		bo.anch = false
	}
	body = lc.expr(inner, ft.result(), bo).s
	kw := ""
	if g.chance(8) {
		g.use("fn-lambda")
		kw = "fn"
	}
	return val{s: kw + "(" + strings.Join(ps, ", ") + ") -> " + body}, *lc.cost + 1
}

// funcArg is a function value for a builtin higher-order parameter: a
// lambda, or a named function of exactly that type.
func (c *ctx) funcArg(s *scope, ft *Type, o eopt) (val, int) {
	g := c.g
	if g.chance(4) {
		var cands []*fnInfo
		for _, f := range g.funcs {
			if f.firstClass() && f.typ().equal(ft) {
				cands = append(cands, f)
			}
		}
		if len(cands) > 0 {
			f := pick(g, cands)
			g.use("function-value")
			return atom(f.name), f.cost
		}
	}
	if g.chance(5) {
		for _, l := range s.ofType(ft) {
			g.use("function-value")
			return atom(l.name), lambdaBudget
		}
	}
	if b := builtinValue(g, ft); b != "" && (o.anch || o.hof || strings.HasPrefix(b, "String.")) && g.chance(2) {
		g.use("builtin-function-value")
		return atom(b), 2
	}
	v, k := c.lambda(s, ft, o)
	return val{s: v.s}, k
}

// firstClass: the function may be used as a value (docs/reference/checks.md#guards-and-defer; no counter, so
// no unbounded recursion through a callback).
func (f *fnInfo) firstClass() bool {
	return !f.effect && f.mailbox == nil && !f.counter && !f.never && len(f.tvars) == 0 && f.cost <= lambdaBudget && f.role != "main"
}

// callFuncLocal calls a local of function type.
func (c *ctx) callFuncLocal(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	var cands []*local
	for _, l := range s.visible() {
		if l.t.K == tFunc && l.t.result().equal(t) {
			cands = append(cands, l)
		}
	}
	if len(cands) == 0 || !c.afford(lambdaBudget) {
		return val{}, false
	}
	l := pick(g, cands)
	c.spend(lambdaBudget)
	g.use("call-function-value")
	var args []string
	for _, pt := range l.t.params() {
		args = append(args, c.expr(s, pt, o.down().anchored()).s)
	}
	return atom(l.name + "(" + strings.Join(args, ", ") + ")"), true
}

// pipeBuiltin writes a pipe into a stdlib function.
func (c *ctx) pipeBuiltin(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	switch t.K {
	case tInt:
		if g.chance(2) {
			return atom("(" + c.expr(s, stringT, d).s + " |> String.len)"), true
		}
		return atom("(" + c.expr(s, listOf(intT), d).s + " |> List.sum())"), true
	case tString:
		if g.chance(2) {
			return atom("(" + c.expr(s, stringT, d).s + " |> String.concat(" + c.expr(s, stringT, d).s + ", _))"), true
		}
		return atom("(" + c.expr(s, stringT, d).s + " |> String.to_upper())"), true
	}
	return val{}, false
}

// builtinValue names a stdlib function of type ft, or "".
func builtinValue(g *gen, ft *Type) string {
	ps := ft.params()
	r := ft.result()
	var cands []string
	if len(ps) == 1 {
		p := ps[0]
		switch {
		case p.K == tString && r.K == tInt:
			cands = append(cands, "String.len")
		case p.K == tString && r.K == tString:
			cands = append(cands, "String.to_upper", "String.to_lower", "String.trim", "String.quote")
		case p.K == tString && r.K == tBool:
			cands = append(cands, "String.is_empty", "String.is_decimal")
		case p.K == tList && r.K == tInt:
			cands = append(cands, "List.len")
		case p.K == tList && r.K == tBool:
			cands = append(cands, "List.is_empty")
		case p.K == tList && r.equal(p):
			cands = append(cands, "List.reverse", "List.tail")
		case p.K == tOption && r.K == tBool:
			cands = append(cands, "Option.is_some", "Option.is_none")
		case p.K == tList && r.K == tOption && r.Args[0].equal(p.Args[0]):
			cands = append(cands, "List.first", "List.last")
		}
	}
	if len(ps) == 2 && ps[0].K == tList && ps[1].equal(ps[0].Args[0]) && r.K == tBool && ps[1].scalarLike() {
		cands = append(cands, "List.contains")
	}
	if len(ps) == 2 && ps[0].K == tString && ps[1].K == tString {
		switch r.K {
		case tBool:
			cands = append(cands, "String.contains", "String.starts_with", "String.ends_with", "String.eq")
		case tString:
			cands = append(cands, "String.concat")
		case tInt:
			cands = append(cands, "String.compare")
		}
	}
	if len(cands) == 0 {
		return ""
	}
	return pick(g, cands)
}

// mapExpr builds a map: a literal, or a put, delete, update, merge or
// from_list over other map expressions (docs/maps.md).
func (c *ctx) mapExpr(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	d := o.down()
	kt, vt := t.Args[0], t.Args[1]
	m := func() string { return c.expr(s, t, d.unanch()).s }
	switch g.r.Intn(6) {
	case 0:
		g.use("map-native")
		return atom(fmt.Sprintf("Map.put(%s, %s, %s)", m(), c.expr(s, kt, d).s, c.expr(s, vt, d).s)), true
	case 1:
		g.use("map-native")
		return atom(fmt.Sprintf("Map.delete(%s, %s)", m(), c.expr(s, kt, d).s)), true
	case 2:
		g.use("map-native")
		return atom(fmt.Sprintf("Map.merge(%s, %s)", m(), m())), true
	case 3:
		g.use("map-native")
		return atom("Map.from_list(" + c.expr(s, listOf(tupleOf(kt, vt)), d.unanch()).s + ")"), true
	}
	return c.lit(s, t, o)
}
