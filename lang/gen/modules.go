package gen

import (
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strings"

	"github.com/morrow-lang/morrow/lang/graph"
)

// Split turns a generated program into a program of several modules
// (docs/modules.md) that must behave exactly as the one file does. It
// works on the text, like the rest of the generator:
//
//   - every type, newtype and alias goes, made pub, to the module
//     lib.types, which lib/mod.mr re-exports (`pub import lib.types.{*}`);
//   - functions are grouped so that a function without full annotations
//     (which cannot be pub) stays with every function that refers to it,
//     and a group that refers back to main's stays with main; the groups
//     are ordered callee first and dealt out, in that order, to up to
//     three modules m1, m2, m3, so no import cycle can arise; a function
//     is pub when it is fully annotated;
//   - each module imports what it refers to, in a form the seed picks:
//     `.{*}`, a selective list of the names it uses, the module qualified
//     (the names are then written `mod.name`), or an alias (`as q1`).
//
// References are found by scanning identifiers, which may over-count (a
// name inside a string): that costs at most an import nothing uses (a
// W7001 warning), never a wrong program. Split returns the files by path
// from the project root; the entry is main.mr.
func Split(src string, seed int64) map[string]string {
	r := rand.New(rand.NewSource(seed))
	chunks := splitDecls(src)
	var types, fns []*chunk
	var lead strings.Builder
	for _, c := range chunks {
		switch c.kind {
		case "type":
			types = append(types, c)
		case "fn":
			fns = append(fns, c)
		default:
			lead.WriteString(c.text)
		}
	}
	byName := map[string]*chunk{}
	for _, c := range fns {
		byName[c.name] = c
	}
	typeNames := map[string]bool{}
	for _, c := range types {
		for _, n := range c.names {
			typeNames[n] = true
		}
	}
	// Groups: union a function that is not fully annotated with every
	// function that refers to it.
	parent := map[string]string{}
	var find func(string) string
	find = func(n string) string {
		if parent[n] == "" || parent[n] == n {
			return n
		}
		parent[n] = find(parent[n])
		return parent[n]
	}
	union := func(a, b string) { parent[find(a)] = find(b) }
	for _, c := range fns {
		parent[c.name] = c.name
	}
	for _, c := range fns {
		for id := range c.refs {
			if callee := byName[id]; callee != nil && callee != c && !callee.annotated {
				union(c.name, callee.name)
			}
		}
	}
	// Merge groups until the group graph is acyclic and nothing depends
	// on main's group: repeat over strongly connected components.
	for {
		edges := map[string]map[string]bool{}
		for _, c := range fns {
			g := find(c.name)
			for id := range c.refs {
				if callee := byName[id]; callee != nil && find(callee.name) != g {
					if edges[g] == nil {
						edges[g] = map[string]bool{}
					}
					edges[g][find(callee.name)] = true
				}
			}
		}
		merged := false
		for _, comp := range sccs(groupNames(fns, find), edges) {
			for _, g := range comp[1:] {
				union(g, comp[0])
				merged = true
			}
		}
		if main := byName["main"]; main != nil {
			mg := find("main")
			for g := range reaching(mg, edges) {
				if g != mg {
					union(g, mg)
					merged = true
				}
			}
		}
		if !merged {
			break
		}
	}
	// Order the groups callee first and deal them out to the modules.
	order := topo(groupNames(fns, find), func(g string) []string {
		var out []string
		for _, c := range fns {
			if find(c.name) != g {
				continue
			}
			for id := range c.refs {
				if callee := byName[id]; callee != nil && find(callee.name) != g {
					out = append(out, find(callee.name))
				}
			}
		}
		sort.Strings(out)
		return out
	})
	mainGroup := ""
	if byName["main"] != nil {
		mainGroup = find("main")
	}
	var others []string
	for _, g := range order {
		if g != mainGroup {
			others = append(others, g)
		}
	}
	nmods := min(len(others), 1+r.Intn(3))
	modOf := map[string]string{} // group -> module name ("" for main)
	for i, g := range others {
		modOf[g] = fmt.Sprintf("m%d", 1+i*nmods/max(len(others), 1))
	}
	// Module contents, in the original order of the declarations.
	type module struct {
		name  string
		decls []*chunk
		names map[string]bool // what it declares
	}
	mods := map[string]*module{"": {names: map[string]bool{}}}
	var modNames []string
	for i := 1; i <= nmods; i++ {
		n := fmt.Sprintf("m%d", i)
		mods[n] = &module{name: n, names: map[string]bool{}}
		modNames = append(modNames, n)
	}
	for _, c := range fns {
		m := mods[modOf[find(c.name)]]
		if m == nil {
			m = mods[""]
		}
		m.decls = append(m.decls, c)
		m.names[c.name] = true
	}
	files := map[string]string{}
	var tb strings.Builder
	for i, c := range types {
		if i > 0 {
			tb.WriteString("\n")
		}
		tb.WriteString(pubText(c))
	}
	files["lib/types.mr"] = tb.String()
	files["lib/mod.mr"] = "# Re-exports the types of the program.\npub import lib.types.{*}\n"
	// imports writes the import lines of a module whose text is body and
	// returns body with qualified references rewritten.
	imports := func(decls []*chunk, self *module) (string, []string) {
		refs := map[string]bool{}
		for _, c := range decls {
			for id := range c.refs {
				refs[id] = true
			}
		}
		var lines []string
		rename := map[string]string{}
		// Types: through the re-exporting lib, or lib.types itself.
		var used []string
		for n := range refs {
			if typeNames[n] {
				used = append(used, n)
			}
		}
		sort.Strings(used)
		if len(used) > 0 {
			switch r.Intn(3) {
			case 0:
				lines = append(lines, "import lib.{*}")
			case 1:
				lines = append(lines, "import lib.types.{"+strings.Join(used, ", ")+"}")
			default:
				lines = append(lines, "import lib.{"+strings.Join(used, ", ")+"}")
			}
		}
		for _, mn := range modNames {
			m := mods[mn]
			if m == self {
				continue
			}
			var names []string
			for n := range refs {
				if m.names[n] && !self.names[n] {
					names = append(names, n)
				}
			}
			if len(names) == 0 {
				continue
			}
			sort.Strings(names)
			switch r.Intn(4) {
			case 0:
				lines = append(lines, "import "+mn+".{*}")
			case 1:
				lines = append(lines, "import "+mn+".{"+strings.Join(names, ", ")+"}")
			case 2:
				lines = append(lines, "import "+mn)
				for _, n := range names {
					rename[n] = mn + "." + n
				}
			default:
				q := "q" + mn[1:]
				lines = append(lines, "import "+mn+" as "+q)
				for _, n := range names {
					rename[n] = q + "." + n
				}
			}
		}
		var body []string
		for _, c := range decls {
			text := c.text
			if self.name != "" && c.annotated && !c.pub {
				text = "pub " + text
			}
			body = append(body, qualify(text, c.name, rename))
		}
		return strings.Join(lines, "\n"), body
	}
	for _, mn := range modNames {
		m := mods[mn]
		head, body := imports(m.decls, m)
		files[mn+".mr"] = joinModule(head, body)
	}
	head, body := imports(mods[""].decls, mods[""])
	files["main.mr"] = lead.String() + joinModule(head, body)
	return files
}

// chunk is one top-level declaration of a generated program.
type chunk struct {
	kind      string // "fn", "type" or "" (comments, anything else)
	name      string
	names     []string // a type's names: the type and its constructors
	text      string
	pub       bool
	annotated bool // a function with every parameter and its result annotated
	refs      map[string]bool
}

var identRE = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)

// splitDecls cuts a program at its column-0 lines that are code: not
// inside a string literal, a bracket or a comment.
func splitDecls(src string) []*chunk {
	mask := textMask(src)
	var out []*chunk
	var cur *chunk
	depth, off := 0, 0
	for _, line := range strings.SplitAfter(src, "\n") {
		if line == "" {
			continue
		}
		c := line[0]
		starts := !mask[off] && depth == 0 && c != ' ' && c != '\t' && c != '\n' && c != '#' && c != '\r'
		for k := 0; k < len(line); k++ {
			if mask[off+k] {
				continue
			}
			switch line[k] {
			case '(', '[':
				depth++
			case ')', ']':
				depth = max(depth-1, 0)
			}
		}
		if starts || cur == nil {
			cur = &chunk{}
			out = append(out, cur)
			if starts {
				classify(cur, line)
			}
		}
		cur.text += line
		off += len(line)
	}
	for _, c := range out {
		if c.kind == "type" {
			c.names = append(c.names, ctors(c.text)...)
		}
		c.refs = map[string]bool{}
		for _, id := range identRE.FindAllString(c.text, -1) {
			c.refs[id] = true
		}
	}
	return out
}

// ctors lists the constructors a type declaration declares: its
// variants, a record's own name, a newtype's constructor.
func ctors(text string) []string {
	lines := strings.Split(text, "\n")
	head := lines[0]
	if i := strings.Index(head, "="); i >= 0 {
		if strings.Contains(head, "newtype ") {
			return []string{identRE.FindString(head[i+1:])}
		}
		return nil // an alias
	}
	var out []string
	record := false
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' {
			continue
		}
		id := identRE.FindString(t)
		if strings.HasPrefix(t[len(id):], ":") {
			record = true
			continue
		}
		if id != "" && id[0] >= 'A' && id[0] <= 'Z' {
			out = append(out, id)
		}
	}
	if record {
		name := identRE.FindString(strings.TrimPrefix(strings.TrimPrefix(head, "pub "), "type "))
		out = append(out, name)
	}
	return out
}

// classify reads a declaration's head line.
func classify(c *chunk, line string) {
	rest := line
	if strings.HasPrefix(rest, "pub ") {
		c.pub = true
		rest = rest[4:]
	}
	word := func(s string) string { return identRE.FindString(s) }
	switch {
	case strings.HasPrefix(rest, "fn "):
		c.kind = "fn"
		c.name = word(rest[3:])
		c.annotated = fullyAnnotated(rest)
	case strings.HasPrefix(rest, "type "), strings.HasPrefix(rest, "newtype "):
		c.kind = "type"
		c.name = word(rest[strings.Index(rest, " ")+1:])
		c.names = []string{c.name}
	}
}

// fullyAnnotated reports whether a function's head annotates every
// parameter (a ':' at the parameter's top level) and its result (`->`
// followed by a ':' at the top level, which an arrow body lacks).
func fullyAnnotated(head string) bool {
	open := strings.Index(head, "(")
	if open < 0 {
		return false
	}
	depth, start := 0, open+1
	var params []string
	closeAt := -1
	for i := open; i < len(head) && closeAt < 0; i++ {
		switch head[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				params = append(params, head[start:i])
				closeAt = i
			}
		case ',':
			if depth == 1 {
				params = append(params, head[start:i])
				start = i + 1
			}
		}
	}
	if closeAt < 0 {
		return false
	}
	for _, p := range params {
		if strings.TrimSpace(p) != "" && !topLevelColon(p) {
			return false
		}
	}
	rest := strings.TrimSpace(head[closeAt+1:])
	return strings.HasPrefix(rest, "->") && topLevelColon(rest)
}

func topLevelColon(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '"':
			return false
		case ':':
			if depth == 0 {
				return true
			}
		}
	}
	return false
}

// pubText makes a type declaration pub.
func pubText(c *chunk) string {
	if c.pub {
		return c.text
	}
	return "pub " + c.text
}

// qualify rewrites references to renamed names (not the declaration's
// own name, not a label `name:` or a field after '.').
func qualify(text, self string, rename map[string]string) string {
	if len(rename) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	mask := textMask(text)
	for _, loc := range identRE.FindAllStringIndex(text, -1) {
		id := text[loc[0]:loc[1]]
		to, ok := rename[id]
		if !ok || id == self || loc[0] > 0 && (text[loc[0]-1] == '.' || isIdentByte(text[loc[0]-1])) {
			continue
		}
		if loc[1] < len(text) && text[loc[1]] == ':' && (loc[1]+1 >= len(text) || text[loc[1]+1] != ':') {
			continue // a label
		}
		if mask[loc[0]] {
			continue
		}
		b.WriteString(text[last:loc[0]])
		b.WriteString(to)
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// textMask marks the bytes of text that are inside string literals
// (outside their `{...}` interpolations): a name there is text, not code.
func textMask(text string) []bool {
	mask := make([]bool, len(text))
	// Each frame is a string being read (triple or not) or, with
	// interp set, an interpolation inside one.
	type frame struct{ triple, interp bool }
	var stack []frame
	inStr := func() (frame, bool) {
		if len(stack) == 0 || stack[len(stack)-1].interp {
			return frame{}, false
		}
		return stack[len(stack)-1], true
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if f, ok := inStr(); ok {
			mask[i] = true
			switch {
			case c == '\\':
				if i+1 < len(text) {
					mask[i+1] = true
				}
				i++
			case f.triple && strings.HasPrefix(text[i:], `"""`):
				mask[i+1], mask[i+2] = true, true
				i += 2
				stack = stack[:len(stack)-1]
			case !f.triple && c == '"':
				stack = stack[:len(stack)-1]
			case c == '{':
				stack = append(stack, frame{interp: true})
			}
			continue
		}
		switch {
		case strings.HasPrefix(text[i:], `"""`):
			stack = append(stack, frame{triple: true})
			i += 2
		case c == '"':
			stack = append(stack, frame{})
		case c == '}' && len(stack) > 0:
			stack = stack[:len(stack)-1] // the end of an interpolation
		case c == '#' && len(stack) == 0:
			for i < len(text) && text[i] != '\n' {
				mask[i] = true
				i++
			}
		}
	}
	return mask
}

func joinModule(head string, body []string) string {
	out := ""
	if head != "" {
		out = head + "\n\n"
	}
	return out + strings.Join(body, "\n")
}

func groupNames(fns []*chunk, find func(string) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range fns {
		if g := find(c.name); !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// sccs returns the strongly connected components of the graph with more
// than one node, visiting nodes in order and successors by name.
func sccs(nodes []string, edges map[string]map[string]bool) [][]string {
	at := make(map[string]int, len(nodes))
	for i, v := range nodes {
		at[v] = i
	}
	succ := func(v int) []int {
		var names []string
		for w := range edges[nodes[v]] {
			names = append(names, w)
		}
		sort.Strings(names)
		out := make([]int, len(names))
		for i, w := range names {
			out[i] = at[w]
		}
		return out
	}
	var out [][]string
	for _, comp := range graph.SCC(len(nodes), succ) {
		if len(comp) > 1 {
			names := make([]string, len(comp))
			for i, v := range comp {
				names[i] = nodes[v]
			}
			out = append(out, names)
		}
	}
	return out
}

// reaching returns the nodes from which target can be reached.
func reaching(target string, edges map[string]map[string]bool) map[string]bool {
	out := map[string]bool{target: true}
	for changed := true; changed; {
		changed = false
		for v, ws := range edges {
			if out[v] {
				continue
			}
			for w := range ws {
				if out[w] {
					out[v] = true
					changed = true
					break
				}
			}
		}
	}
	return out
}

// topo orders an acyclic graph so that every node comes after the nodes
// it points to.
func topo(nodes []string, succ func(string) []string) []string {
	done := map[string]bool{}
	var out []string
	var visit func(string)
	visit = func(v string) {
		if done[v] {
			return
		}
		done[v] = true
		for _, w := range succ(v) {
			visit(w)
		}
		out = append(out, v)
	}
	for _, v := range nodes {
		visit(v)
	}
	return out
}
