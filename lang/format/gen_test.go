package format

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// gen writes a random Morrow program that parses, in a random layout:
// bodies inline or as blocks of random width, line breaks and comments
// inside brackets, multi-line lambdas, match, receive, if chains, pipes
// continued on new lines, blank lines, long and short names (so lines
// land on both sides of the width limit). The fuzz input drives every
// choice, so the fuzzer explores the program space, not the byte space.
type gen struct {
	data     []byte
	i        int
	b        strings.Builder
	indent   int // indentation of the current physical line
	depth    int
	brackets int // open brackets: a with chain's commas need none
}

func (g *gen) n(k int) int {
	if k <= 1 {
		return 0
	}
	if g.i >= len(g.data) {
		return 0
	}
	v := int(g.data[g.i]) % k
	g.i++
	return v
}

func (g *gen) w(s string) { g.b.WriteString(s) }

// newline starts a new physical line at indent.
func (g *gen) newline(indent int) {
	g.w("\n" + strings.Repeat(" ", indent))
	g.indent = indent
}

var genNames = []string{"x", "y", "acc", "value", "a_rather_long_identifier_name", "Process.self", "List.map",
	"another_quite_long_name_for_width", "n", "String.len"}

func (g *gen) name() string { return genNames[g.n(len(genNames))] }

func (g *gen) lower() string {
	for {
		s := g.name()
		if !strings.Contains(s, ".") {
			return s
		}
	}
}

func (g *gen) comment() string {
	if g.n(2) == 0 {
		return fmt.Sprintf("# note %d", g.n(100))
	}
	return fmt.Sprintf("/* c%d */", g.n(100))
}

// gap is what separates two tokens inside brackets: a space, a line break
// (with an optional comment before it), or an inline block comment.
func (g *gen) gap() {
	switch g.n(9) {
	case 0:
		g.newline(g.indent + g.n(3)*2)
	case 8:
		g.w("\n")
		g.newline(g.indent + g.n(3)*2)
	case 1:
		g.w(" # c" + fmt.Sprint(g.n(50)))
		g.newline(g.indent + g.n(3)*2)
	case 2:
		g.w(" /* i */ ")
	default:
		g.w(" ")
	}
}

func (g *gen) program() string {
	if g.n(3) == 0 {
		g.w("# leading comment\n")
	}
	for k := g.n(3) + 1; k > 0; k-- {
		switch g.n(6) {
		case 0:
			g.w("type T" + fmt.Sprint(g.n(9)) + ":")
			for v := g.n(3) + 1; v > 0; v-- {
				g.newline(4)
				g.w("V" + fmt.Sprint(v))
				if g.n(2) == 0 {
					g.w("(Int, String)")
				}
			}
		case 1:
			g.w("newtype Id = Id(Int)")
		default:
			g.fn()
		}
		g.w("\n")
		for b := g.n(3); b > 0; b-- {
			g.w("\n")
		}
		if g.n(4) == 0 {
			g.w("# between declarations\n")
		}
		g.indent = 0
	}
	return g.b.String()
}

func (g *gen) fn() {
	g.w("fn f" + fmt.Sprint(g.n(99)) + "(")
	for p := g.n(4); p > 0; p-- {
		g.w(g.lower() + ": Int")
		if p > 1 {
			g.w(",")
			g.gap()
		}
	}
	g.w(")")
	if g.n(2) == 0 {
		g.w(" -> Int")
	}
	g.w(":")
	if g.n(3) == 0 {
		g.w(" ")
		g.expr()
		return
	}
	g.block()
}

// block writes an indented block under the current line.
func (g *gen) block() {
	hdr := g.indent
	ind := hdr + 2 + 2*g.n(2)
	for s := g.n(4) + 1; s > 0; s-- {
		if g.n(6) == 0 {
			g.w("\n")
		}
		if g.n(6) == 0 {
			g.newline(ind + g.n(3))
			g.w(g.comment())
		}
		g.newline(ind)
		g.stmt()
	}
	g.indent = hdr
}

func (g *gen) stmt() {
	g.depth++
	defer func() { g.depth-- }()
	switch g.n(20) {
	case 0:
		g.w("let " + g.lower() + " = ")
		g.expr()
	case 1:
		g.w("if ")
		g.expr()
		g.w(":")
		hdr := g.indent
		g.body()
		if g.n(2) == 0 {
			if g.n(3) == 0 {
				g.newline(hdr + g.n(9))
				g.w("# before else")
			}
			g.newline(hdr)
			g.w("else:")
			if g.n(4) == 0 {
				g.w("  # after else")
				g.block()
			} else {
				g.body()
			}
		}
	case 2:
		g.w("match ")
		g.expr()
		g.w(":")
		g.arms()
	case 3:
		g.w("for " + g.lower() + " in ")
		g.expr()
		g.w(":")
		g.body()
	case 4:
		g.w("defer ")
		g.call()
	case 5:
		g.w("let Ok(" + g.lower() + ") = ")
		g.expr()
		g.w(" else: return ")
		g.leaf()
	case 6:
		g.w("let " + g.lower() + " = ")
		g.leaf()
		for k := g.n(3) + 1; k > 0; k-- {
			if g.n(2) == 0 {
				if g.n(3) == 0 {
					g.newline(g.indent + g.n(9))
					g.w("# before a pipe")
				}
				g.newline(g.indent + 4)
				g.w("|> ")
			} else {
				g.w(" |> ")
			}
			g.call()
		}
	case 7:
		g.w("receive:")
		g.arms()
	case 8:
		g.w("if ")
		g.expr()
		g.w(": ")
		g.leaf()
		g.w(" else: if ")
		g.expr()
		g.w(": ")
		g.leaf()
		g.w(" else: ")
		g.expr()
	case 9:
		// the two-line inline if, maybe with a comment before else
		g.w("if ")
		g.expr()
		g.w(": ")
		g.expr()
		if g.n(3) == 0 {
			g.newline(g.indent + g.n(6))
			g.w("# before else")
		}
		g.newline(g.indent)
		g.w("else: ")
		g.expr()
	case 10:
		g.twoArms("match:", func() {
			g.expr()
			g.w(" -> ")
			g.leaf()
		}, func() {
			g.w("_ -> ")
			g.expr()
		})
	case 11:
		g.twoArms("receive_event:", func() {
			g.w("Process.Down(r, _, reason) if r == " + g.lower() + " -> ")
			g.expr()
		}, func() {
			g.w("after 100 ->")
			g.body()
		})
	case 12:
		g.call()
		g.w(" if ")
		g.expr()
	case 13:
		g.w("return ")
		g.expr()
	case 14:
		if g.brackets > 0 {
			g.call()
			break
		}
		g.w("let r = with")
		hdr := g.indent
		g.newline(hdr + 4)
		g.w("a <- ")
		g.call()
		g.w(",")
		g.newline(hdr + 4)
		g.w("b <- ")
		g.call()
		g.newline(hdr)
		g.w("do")
		g.block()
		if g.n(2) == 0 {
			g.newline(hdr)
			g.w("else")
			g.newline(hdr + 4)
			g.w("Err(e) -> ")
			g.expr()
			g.indent = hdr
		}
	case 15:
		g.w("let s = \"\"\"\n  raw   \ntext {" + g.lower() + "}\"\"\"")
	default:
		g.call()
	}
	if g.n(5) == 0 {
		g.w("  # trailing")
	}
}

// body writes an inline body or a block after a ':'.
// twoArms writes head and then two arms, each on its own line indented
// under it.
func (g *gen) twoArms(head string, first, second func()) {
	g.w(head)
	hdr := g.indent
	g.newline(hdr + 4)
	first()
	g.newline(hdr + 4)
	second()
	g.indent = hdr
}

// blockLambda writes prefix and a lambda with a block body, `(x) ->`,
// with *level raised while the block is written, then maybe a line break
// before what closes it.
func (g *gen) blockLambda(prefix string, level *int) {
	g.w(prefix + "(" + g.lower() + ") ->")
	*level++
	g.block()
	*level--
	if g.n(2) == 0 {
		g.newline(g.indent)
	}
}

func (g *gen) body() {
	if g.n(2) == 0 || g.depth > 3 {
		g.w(" ")
		g.expr()
		return
	}
	g.block()
}

func (g *gen) arms() {
	if g.n(4) == 0 {
		g.w(" 1 -> ")
		g.leaf()
		g.w(", _ -> ")
		g.leaf()
		return
	}
	hdr := g.indent
	ind := hdr + 4
	for a := g.n(3) + 1; a > 0; a-- {
		g.newline(ind)
		switch g.n(4) {
		case 0:
			g.w("Some(" + g.lower() + ") if ")
			g.expr()
		case 1:
			g.w("(_, " + g.lower() + ")")
		default:
			g.w(fmt.Sprint(a))
		}
		g.w(" ->")
		if g.n(3) == 0 && g.depth < 4 {
			g.depth++
			g.block()
			g.depth--
		} else {
			g.w(" ")
			g.expr()
		}
	}
	g.newline(ind)
	g.w("_ -> ")
	g.leaf()
	g.indent = hdr
}

func (g *gen) leaf() {
	switch g.n(6) {
	case 0:
		g.w(fmt.Sprint(g.n(1000)))
	case 1:
		g.w(`"text {` + g.lower() + `} more"`)
	case 2:
		g.w(`"a string literal that is long enough to push things past the limit"`)
	default:
		g.w(g.name())
	}
}

func (g *gen) call() {
	g.w(g.name() + "(")
	g.args(")")
}

func (g *gen) open(s string) {
	g.w(s)
	g.brackets++
}

// args writes the elements of a bracketed list and its closer.
func (g *gen) args(closer string) {
	g.brackets++
	defer func() { g.brackets-- }()
	n := g.n(5)
	for k := 0; k < n; k++ {
		if k > 0 {
			g.w(",")
			g.gap()
		} else if g.n(4) == 0 {
			g.newline(g.indent + 4)
		}
		if k == n-1 && g.n(3) == 0 && g.depth < 4 {
			// a lambda with a block body as the last element
			g.blockLambda("", &g.depth)
			g.w(closer)
			return
		}
		g.expr()
	}
	if n > 0 && g.n(4) == 0 {
		g.w(",")
	}
	g.w(closer)
}

func (g *gen) expr() {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 5 {
		g.leaf()
		return
	}
	switch g.n(20) {
	case 0, 1:
		g.call()
	case 2:
		g.w("[")
		g.args("]")
	case 3:
		g.w("(")
		g.expr()
		g.w(", ")
		g.expr()
		g.w(")")
	case 4:
		g.expr()
		g.w([]string{" + ", " * ", " == ", " and ", "..", " - "}[g.n(6)])
		g.expr()
	case 5:
		g.w("(" + g.lower() + ") -> ")
		g.expr()
	case 6:
		g.w("if ")
		g.leaf()
		g.w(": ")
		g.expr()
		g.w(" else: ")
		g.expr()
	case 7:
		g.w("(")
		g.expr()
		g.w(")")
	case 8:
		g.w("%{" + g.lower() + " | field: ")
		g.expr()
		g.w("}")
	case 9:
		g.call()
		g.w([]string{".field", "?", "[0]"}[g.n(3)])
	case 10:
		g.w([]string{"-", "not ", "~~~"}[g.n(3)])
		g.leaf()
	case 11:
		g.w("fn(" + g.lower() + ") -> ")
		g.expr()
	case 12:
		g.w(g.name() + "(" + g.lower() + ": ")
		g.expr()
		g.w(", other: ")
		g.leaf()
		g.w(")")
	case 13:
		g.w("match ")
		g.leaf()
		g.w(": 1 -> ")
		g.leaf()
		g.w(", _ -> ")
		g.leaf()
	case 14:
		// a lambda with a block body that is not the last element
		g.blockLambda("[", &g.brackets)
		g.w(", ")
		g.leaf()
		g.w("]")
	case 15:
		g.w("(" + g.lower() + ") ->")
		g.gap()
		g.expr()
	case 16:
		// never first on a line: the parser measures such a line as not
		// indented (see blockOf)
		g.w(g.lower() + " + \"\"\"multi\n  line {" + g.lower() + "}\"\"\"")
	default:
		g.leaf()
	}
}

// generate turns fuzz input into a program.
func generate(data []byte) string {
	g := &gen{data: data}
	src := g.program()
	if len(data) > 0 && data[0]%16 == 0 {
		// indent with tabs instead (only at line starts)
		lines := strings.Split(src, "\n")
		for i, l := range lines {
			t := strings.TrimLeft(l, " ")
			lines[i] = strings.Repeat("\t", (len(l)-len(t))/2) + t
		}
		src = strings.Join(lines, "\n")
	}
	return src
}

// FuzzGenerated formats programs written by gen and checks every
// guarantee on each.
func FuzzGenerated(f *testing.F) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 64; i++ {
		b := make([]byte, 64+i*8)
		r.Read(b)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkGuarantees(t, "gen.mr", []byte(generate(data)))
	})
}

// TestGeneratedPrograms runs a fixed sample of generated programs, so the
// plain test run covers the generator; most of them must parse, 3 in 5 at least (or the
// generator has rotted and the fuzz target tests nothing).
func TestGeneratedPrograms(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	parsed := 0
	const total = 400
	for i := 0; i < total; i++ {
		b := make([]byte, 32+r.Intn(400))
		r.Read(b)
		src := generate(b)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if checkGuarantees(t, "gen.mr", []byte(src)) {
				parsed++
			}
		})
		if t.Failed() {
			t.Logf("program %d:\n%s", i, src)
			return
		}
	}
	t.Logf("%d of %d generated programs parsed and kept every guarantee", parsed, total)
	if parsed < total*3/5 {
		t.Errorf("only %d of %d generated programs parse", parsed, total)
	}
}
