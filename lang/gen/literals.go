package gen

import (
	"fmt"
	"strings"
)

var plainStrings = []string{"a", "hello", "x y", "", "Morrow", "tab", "ab,cd,ef", "  padded  ", "MiXeD", "42", "-7", "zz"}
var fancyStrings = []string{`é🌿`, `ünï`, `日本語`, `tab\there`, `quote \"q\"`, `brace \{x\}`, `line\nbreak`, `back\\slash`, `cr\rx`, `a,é,🌿`}

func (g *gen) intLit() string {
	switch g.r.Intn(20) {
	case 0:
		return pick(g, []string{"9223372036854775807", "-9223372036854775808", "4611686018427387904", "-1"})
	case 1:
		g.use("int-literal-forms")
		return pick(g, []string{"0xFF", "0x1f", "0o17", "0b1011", "1_000", "0X10", "0B11", "0O7"})
	case 2, 3:
		return fmt.Sprint(g.r.Intn(2000) - 1000)
	default:
		return fmt.Sprint(g.r.Intn(13) - 3)
	}
}

func (g *gen) smallInt() string { return fmt.Sprint(g.r.Intn(6)) }

func (g *gen) floatLit() string {
	g.use("float")
	return pick(g, []string{"0.5", "1.25", "3.0", "2e3", "1.5e-3", "100.0", "-2.5", "0.1", "7.75", "1e-7", "12.0"})
}

// strLit is a string literal, sometimes with escapes, Unicode or
// interpolation of locals.
func (c *ctx) strLit(s *scope, o eopt) string {
	g := c.g
	if !o.interp && !c.interp && g.chance(25) {
		g.use("triple-quoted-string")
		body := pick(g, []string{"first line\n  second {x}\nthird", "one \"quoted\" word", "multi\nline", "plain"})
		if strings.Contains(body, "{x}") {
			if v := c.interpLocal(s); v != "" {
				body = strings.ReplaceAll(body, "{x}", "{"+v+"}")
			} else {
				body = strings.ReplaceAll(body, "{x}", "x")
			}
		}
		return `"""` + body + `"""`
	}
	if g.chance(4) {
		g.use("string-escape-unicode")
		return `"` + pick(g, fancyStrings) + `"`
	}
	return `"` + pick(g, plainStrings) + `"`
}

// interpLocal names a visible local that interpolation accepts.
func (c *ctx) interpLocal(s *scope) string {
	var names []string
	for _, l := range s.visible() {
		if l.t.interpolable() {
			names = append(names, l.name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return pick(c.g, names)
}

// litText is the text of a literal of type t (see lit).
func (c *ctx) litText(s *scope, t *Type, o eopt) (string, bool) {
	v, ok := c.lit(s, t, o)
	return v.s, ok
}

// litParts writes the n parts of a compound literal, or fails with the
// first part that fails.
func litParts(n int, part func(i int) (string, bool)) ([]string, bool) {
	var parts []string
	for i := 0; i < n; i++ {
		p, ok := part(i)
		if !ok {
			return nil, false
		}
		parts = append(parts, p)
	}
	return parts, true
}

// lit writes a literal of type t; ok is false when t has none.
func (c *ctx) lit(s *scope, t *Type, o eopt) (val, bool) {
	g := c.g
	switch t.K {
	case tInt:
		v := g.intLit()
		return val{s: v, atom: !strings.HasPrefix(v, "-")}, true
	case tFloat:
		v := g.floatLit()
		return val{s: v, atom: !strings.HasPrefix(v, "-")}, true
	case tBool:
		return atom(pick(g, []string{"true", "false"})), true
	case tString:
		return atom(c.strLit(s, o)), true
	case tUnit:
		return atom("()"), true
	case tTuple:
		parts, ok := litParts(len(t.Args), func(i int) (string, bool) { return c.litText(s, t.Args[i], o.down()) })
		if !ok {
			return val{}, false
		}
		if len(parts) == 1 {
			g.use("one-tuple")
			return atom("(" + parts[0] + ",)"), true
		}
		g.use("tuple")
		return atom("(" + strings.Join(parts, ", ") + ")"), true
	case tList:
		if o.anch && g.chance(4) {
			g.use("empty-list")
			return val{s: "[]", atom: true}, true
		}
		n := 1 + g.r.Intn(3)
		parts, ok := litParts(n, func(int) (string, bool) { return c.litText(s, t.Args[0], o.down()) })
		if !ok {
			return val{}, false
		}
		trail := ""
		if g.chance(10) {
			trail = ","
		}
		return val{s: "[" + strings.Join(parts, ", ") + trail + "]", atom: true, lo: n, hi: n}, true
	case tMap:
		if o.anch && g.chance(4) {
			g.use("empty-map")
			return atom("%{}"), true
		}
		parts, ok := litParts(1+g.r.Intn(3), func(int) (string, bool) {
			k, ok := c.litText(s, t.Args[0], o.down())
			if !ok {
				return "", false
			}
			v, ok := c.litText(s, t.Args[1], o.down())
			return k + ": " + v, ok
		})
		if !ok {
			return val{}, false
		}
		g.use("map-literal")
		return atom("%{" + strings.Join(parts, ", ") + "}"), true
	case tOption:
		if o.anch && g.chance(3) {
			return atom("None"), true
		}
		v, ok := c.lit(s, t.Args[0], o.down())
		if !ok {
			return val{}, false
		}
		return atom("Some(" + v.s + ")"), true
	case tUser:
		return c.ctorValue(s, t, o, true)
	case tUnion:
		if !o.anch {
			return val{}, false
		}
		return c.lit(s, pick(g, t.D.members), o)
	case tFunc:
		v, _ := c.funcArg(s, t, o)
		return v, true
	case tOrdering:
		g.use("ordering")
		return atom(pick(g, []string{"Less", "Equal", "Greater"})), true
	case tExitReason:
		return atom(c.exitReason(s)), true
	case tProcError:
		return atom("Process.ResourceLimit"), true
	}
	return val{}, false
}

func (c *ctx) exitReason(s *scope) string {
	g := c.g
	switch g.r.Intn(7) {
	case 0:
		return "Process.Normal"
	case 1:
		return "Process.Shutdown"
	case 2:
		return `Process.ShutdownDetail("detail")`
	case 3:
		return "Process.Fault(" + g.intLit() + ")"
	case 4:
		return `Process.Failure("failed")`
	case 5:
		return "Process.Kill"
	default:
		return "Process.ExitReason.Normal"
	}
}

// ctorValue builds a value of a user type with its constructor. litOnly
// restricts the arguments to literals.
func (c *ctx) ctorValue(s *scope, t *Type, o eopt, litOnly bool) (val, bool) {
	g := c.g
	d := t.D
	m := d.instMap(t.Args)
	arg := func(ft *Type) (string, bool) {
		ft = ft.subst(m)
		self := d.recursive && ft.K == tUser && ft.D == d
		if self && o.depth <= 0 {
			return "", false
		}
		ao := o.down()
		// A generic record infers its argument from the field values,
		// so they are only anchored when the record is.
		if len(d.params) > 0 && !o.anch {
			ao.anch = false
		} else if len(d.params) == 0 {
			ao.anch = true
		}
		if litOnly {
			v, ok := c.lit(s, ft, ao)
			return v.s, ok
		}
		return c.expr(s, ft, ao).s, true
	}
	switch d.kind {
	case declNewtype, declRecord:
		var parts []string
		for _, f := range d.fields {
			a, ok := arg(f.t)
			if !ok {
				return val{}, false
			}
			parts = append(parts, a)
		}
		if d.kind == declRecord {
			g.use("record-construct")
		} else {
			g.use("newtype-construct")
		}
		return atom(d.name + "(" + strings.Join(parts, ", ") + ")"), true
	case declSum:
		order := g.r.Perm(len(d.variants))
		for _, vi := range order {
			v := d.variants[vi]
			var parts []string
			ok := true
			for _, f := range v.fields {
				a, aok := arg(f.t)
				if !aok {
					ok = false
					break
				}
				parts = append(parts, a)
			}
			if !ok {
				continue
			}
			name := v.name
			if g.chance(10) {
				g.use("qualified-ctor")
				name = d.name + "." + name
			}
			if len(parts) == 0 {
				return atom(name), true
			}
			return atom(name + "(" + strings.Join(parts, ", ") + ")"), true
		}
	}
	return val{}, false
}
