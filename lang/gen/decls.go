package gen

import (
	"fmt"
	"strings"

	"github.com/morrow-lang/morrow/runtime/bytecode"
)

var sumNames = []string{"Shape", "Token", "Event", "Color", "Move", "Cmd", "Mode", "State", "Signal", "Kind"}
var recNames = []string{"Point", "User", "Item", "Entry", "Config", "Stats", "Cell", "Span"}
var ctorNames = []string{"Red", "Green", "Blue", "Start", "Halt", "Tick", "Push", "Pop", "Idle", "Busy", "Up", "Down", "Left", "Right", "Open", "Closed"}
var fieldNames = []string{"name", "count", "value", "label", "score", "items", "flag", "width", "size", "tag"}

// genDecls invents the program's user types.
func (g *gen) genDecls() {
	n := 1 + g.r.Intn(4)
	for i := 0; i < n; i++ {
		switch g.r.Intn(5) {
		case 0, 1:
			g.genSum()
		case 2, 3:
			g.genRecord()
		default:
			g.genNewtype()
		}
	}
	if g.chance(3) {
		g.genGenericRecord()
	}
	if g.chance(3) {
		g.genRecursiveSum()
	}
	if g.chance(4) {
		// A generic newtype.
		d := &decl{name: g.fresh("Wrap"), kind: declNewtype, params: []string{"a"}}
		d.fields = []field{{name: "0", t: varT("a")}}
		g.setDerives(d)
		g.decls = append(g.decls, d)
		g.use("generic-newtype")
	}
	if g.chance(4) {
		g.union = &decl{name: g.fresh("Either"), kind: declUnion, members: []*Type{intT, stringT}}
		g.use("union-alias")
	}
	if g.chance(3) {
		t := g.dataType(1)
		g.aliases = append(g.aliases, &alias{name: g.fresh("Alias"), t: t})
		g.use("type-alias")
	}
}

// setDerives decides the derived traits from what the fields allow.
func (g *gen) setDerives(d *decl) {
	var args []*Type
	for range d.params {
		args = append(args, intT)
	}
	show, eq, ord := true, true, true
	for _, ft := range d.fieldTypes(args) {
		if ft.K == tUser && ft.D == d {
			continue
		}
		show = show && ft.hasShow()
		eq = eq && ft.hasEq()
		ord = ord && ft.sortable(g)
	}
	d.show = show && g.r.Intn(100) < 85
	d.eq = eq && g.r.Intn(100) < 70
	d.ord = d.eq && ord && g.r.Intn(100) < 40
}

func (g *gen) genSum() {
	d := &decl{name: g.fresh(pick(g, sumNames)), kind: declSum}
	nv := 1 + g.r.Intn(4)
	used := map[string]bool{}
	for i := 0; i < nv; i++ {
		name := pick(g, ctorNames)
		for used[name] {
			name = pick(g, ctorNames)
		}
		used[name] = true
		v := variant{name: name + d.name[len(d.name)-1:] + fmt.Sprint(len(g.decls))}
		nf := 0
		if g.r.Intn(3) > 0 {
			nf = g.r.Intn(3)
		}
		v.named = g.chance(3)
		for j := 0; j < nf; j++ {
			v.fields = append(v.fields, field{name: fieldNames[j%len(fieldNames)], t: g.dataType(1)})
		}
		d.variants = append(d.variants, v)
	}
	g.setDerives(d)
	g.decls = append(g.decls, d)
	g.use("sum-type")
}

func (g *gen) genRecord() {
	d := &decl{name: g.fresh(pick(g, recNames)), kind: declRecord}
	nf := 1 + g.r.Intn(3)
	perm := g.r.Perm(len(fieldNames))
	for j := 0; j < nf; j++ {
		d.fields = append(d.fields, field{name: fieldNames[perm[j]], t: g.dataType(1)})
	}
	g.setDerives(d)
	g.decls = append(g.decls, d)
	g.use("record-type")
}

func (g *gen) genNewtype() {
	d := &decl{name: g.fresh("Id"), kind: declNewtype}
	ft := pick(g, scalarTypes)
	if g.chance(4) {
		ft = g.dataType(1)
	}
	d.fields = []field{{name: "0", t: ft}}
	g.setDerives(d)
	g.decls = append(g.decls, d)
	g.use("newtype")
}

func (g *gen) genGenericRecord() {
	d := &decl{name: g.fresh("Box"), kind: declRecord, params: []string{"a"}}
	d.fields = []field{{name: "value", t: varT("a")}}
	if g.chance(2) {
		d.fields = append(d.fields, field{name: "count", t: intT})
	}
	if g.chance(3) {
		d.fields = append(d.fields, field{name: "items", t: listOf(varT("a"))})
	}
	g.setDerives(d)
	g.decls = append(g.decls, d)
	g.use("generic-type")
}

func (g *gen) genRecursiveSum() {
	d := &decl{name: g.fresh("Tree"), kind: declSum, recursive: true}
	self := &Type{K: tUser, D: d}
	leaf := variant{name: "Leaf" + fmt.Sprint(g.counter)}
	if g.chance(2) {
		leaf.fields = []field{{name: "v", t: intT}}
	}
	node := variant{name: "Node" + fmt.Sprint(g.counter), fields: []field{{name: "l", t: self}, {name: "v", t: pick(g, scalarTypes)}, {name: "r", t: self}}}
	d.variants = []variant{leaf, node}
	if g.chance(2) {
		d.variants = append(d.variants, variant{name: "Wrap" + fmt.Sprint(g.counter), fields: []field{{name: "inner", t: self}}})
	}
	g.setDerives(d)
	g.decls = append(g.decls, d)
	g.use("recursive-type")
}

func (d *decl) deriveText() string { return bytecode.DeriveClause(d.show, d.eq, d.ord) }

// declText renders a declaration.
func (g *gen) declText(d *decl) string {
	var b strings.Builder
	head := d.name
	if len(d.params) > 0 {
		head += "(" + strings.Join(d.params, ", ") + ")"
	}
	switch d.kind {
	case declUnion:
		var ms []string
		for _, m := range d.members {
			ms = append(ms, m.String())
		}
		fmt.Fprintf(&b, "type %s = %s\n", d.name, strings.Join(ms, " | "))
	case declNewtype:
		fmt.Fprintf(&b, "newtype %s%s = %s(%s)\n", head, d.deriveText(), d.name, d.fields[0].t)
	case declRecord:
		fmt.Fprintf(&b, "type %s%s:\n", head, d.deriveText())
		for _, f := range d.fields {
			fmt.Fprintf(&b, "    %s: %s\n", f.name, f.t)
		}
	case declSum:
		fmt.Fprintf(&b, "type %s%s:\n", head, d.deriveText())
		for _, v := range d.variants {
			b.WriteString("    " + v.name)
			if len(v.fields) > 0 {
				var fs []string
				for _, f := range v.fields {
					if v.named {
						fs = append(fs, f.name+": "+f.t.String())
					} else {
						fs = append(fs, f.t.String())
					}
				}
				b.WriteString("(" + strings.Join(fs, ", ") + ")")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// dataType picks a type for data: no Result, no function, no Pid. depth
// bounds nesting.
func (g *gen) dataType(depth int) *Type {
	if depth <= 0 || g.r.Intn(100) < 55 {
		return pick(g, scalarTypes)
	}
	switch g.r.Intn(9) {
	case 0, 1:
		n := 2 + g.r.Intn(2)
		if g.chance(8) {
			n = 1
		}
		var ts []*Type
		for i := 0; i < n; i++ {
			ts = append(ts, g.dataType(depth-1))
		}
		return tupleOf(ts...)
	case 2, 3:
		if g.chance(5) {
			// A map: keys meet the key rule (docs/maps.md).
			return mapOf(pick(g, []*Type{intT, stringT}), g.dataType(depth-1))
		}
		return listOf(g.dataType(depth - 1))
	case 4:
		return optionOf(g.dataType(depth - 1))
	default:
		if t := g.userType(depth - 1); t != nil {
			return t
		}
		return pick(g, scalarTypes)
	}
}

// userType instantiates a random user type declared so far.
func (g *gen) userType(depth int) *Type {
	if len(g.decls) == 0 {
		return nil
	}
	d := pick(g, g.decls)
	t := &Type{K: tUser, D: d}
	for range d.params {
		t.Args = append(t.Args, g.dataType(depth))
	}
	return t
}

// msgType picks a mailbox type: sendable data, often a user sum.
func (g *gen) msgType() *Type {
	for i := 0; i < 10; i++ {
		var t *Type
		switch g.r.Intn(4) {
		case 0:
			t = pick(g, scalarTypes)
		case 1:
			t = g.userType(1)
		default:
			t = g.dataType(2)
		}
		if t != nil && t.sendable() && t.hasShow() {
			return t
		}
	}
	return intT
}
