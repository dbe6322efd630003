package format

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/parser"
	"github.com/morrow-lang/morrow/lang/source"
)

// layoutCases pin down the canonical layout: each input formats to want
// (and want formats to itself, which TestLayout checks too).
var layoutCases = []struct {
	name, in, want string
}{
	{"spacing",
		"fn  f( a:Int,b :Int )->Int :a+b*2\n",
		"fn f(a: Int, b: Int) -> Int: a + b * 2\n"},
	{"operators and punctuation",
		"fn main():\n  let x=-y\n  let r=0..n\n  let s=1..=n\n  let t=( a ,)\n  let u=not(a)and b or c|||d\n  let v=xs[ i ].0.name\n  let w=f( k:1 )?\n  let z=%{ r|a:1,b:2 }\n",
		"fn main():\n    let x = -y\n    let r = 0..n\n    let s = 1..=n\n    let t = (a,)\n    let u = not (a) and b or c ||| d\n    let v = xs[i].0.name\n    let w = f(k: 1)?\n    let z = %{r | a: 1, b: 2}\n"},
	{"a field of an Int literal keeps its space (0.0 would be a Float)",
		"fn main():\n    let () = 0  .0\n",
		"fn main():\n    let () = 0 .0\n"},
	{"parentheses are kept and never added",
		"fn f(a, b, c) -> Int: (a + b) * c + a * b\n",
		"fn f(a, b, c) -> Int: (a + b) * c + a * b\n"},
	{"blank lines: one between declarations, at most one kept in bodies",
		"fn a(): 1\nfn b():\n\n    let x = 1\n\n\n\n    let y = 2\n    x + y\n\n\n\ntype T:\n    A\n\n    B\n",
		"fn a(): 1\n\nfn b():\n    let x = 1\n\n    let y = 2\n    x + y\n\ntype T:\n    A\n\n    B\n"},
	{"tabs, odd widths, CRLF, trailing blanks, no final newline",
		"fn main():\r\n\tif x:   \r\n\t\tprintln(1)\r\n\telse:\r\n\t\tprintln(2)",
		"fn main():\n    if x:\n        println(1)\n    else:\n        println(2)\n"},
	{"a long call breaks one argument per line and joins again",
		"fn main():\n    report(\"queued flush=false info=false\", Process.demonitor(r1, Process.DemonitorOptions(false, false)))\n    f(\n        a,\n        b,\n    )\n",
		"fn main():\n    report(\n        \"queued flush=false info=false\",\n        Process.demonitor(r1, Process.DemonitorOptions(false, false)),\n    )\n    f(a, b)\n"},
	{"long lists, tuples and parameters break",
		"fn f(first_parameter: Int, second_parameter: String, third_parameter: List(Int), fourth: Bool) -> Int:\n    let xs = [first_parameter, first_parameter, first_parameter, first_parameter, first_parameter, 1]\n    let t = (first_parameter, second_parameter, third_parameter, fourth, first_parameter, 2222222222222)\n    1\n",
		"fn f(\n    first_parameter: Int,\n    second_parameter: String,\n    third_parameter: List(Int),\n    fourth: Bool,\n) -> Int:\n    let xs = [\n        first_parameter,\n        first_parameter,\n        first_parameter,\n        first_parameter,\n        first_parameter,\n        1,\n    ]\n    let t = (\n        first_parameter,\n        second_parameter,\n        third_parameter,\n        fourth,\n        first_parameter,\n        2222222222222,\n    )\n    1\n"},
	{"a lambda with a block body hugs the call",
		"fn main():\n    let ys = List.map(xs, (x) ->\n        let y = x * 10\n        y + 1\n    )\n    let total = List.fold(List.map(xs, (x) ->\n        x\n    ), 0, (acc, x) -> acc + x)\n",
		"fn main():\n    let ys = List.map(xs, (x) ->\n        let y = x * 10\n        y + 1\n    )\n    let total = List.fold(\n        List.map(xs, (x) ->\n            x\n        ),\n        0,\n        (acc, x) -> acc + x,\n    )\n"},
	{"a lone long string argument is not broken out",
		"fn main():\n    println(\"a very long message that does not fit in one line of one hundred columns, whatever we do\")\n",
		"fn main():\n    println(\"a very long message that does not fit in one line of one hundred columns, whatever we do\")\n"},
	{"inline forms kept when they fit",
		"fn sign(n: Int) -> String: if n < 0: \"negative\" else: \"non-negative\"\nfn main():\n    match x: 1 -> a, _ -> b\n    for i in xs: println(i)\n    if c: a\n    else: b\n",
		"fn sign(n: Int) -> String: if n < 0: \"negative\" else: \"non-negative\"\n\nfn main():\n    match x: 1 -> a, _ -> b\n    for i in xs: println(i)\n    if c: a\n    else: b\n"},
	{"inline forms expanded when they do not fit",
		"fn f(n: Int) -> String: if n < 0: \"a rather long string for the negative case\" else: \"and another long one, longer still\"\nfn g():\n    match some_value_with_a_long_name: 1 -> \"the first answer, long\", _ -> \"the other answer, long too\"\n    let Ok(first) = Process.monitor(Process.id(w)) else: Process.exit(Process.Failure(\"monitor failed\"))\n    match r:\n        Process.Down(ref, _, reason) if ref == r2 -> println(\"untrapped partner: down {reason_text(reason)}\")\n",
		"fn f(n: Int) -> String:\n    if n < 0:\n        \"a rather long string for the negative case\"\n    else:\n        \"and another long one, longer still\"\n\nfn g():\n    match some_value_with_a_long_name:\n        1 -> \"the first answer, long\"\n        _ -> \"the other answer, long too\"\n    let Ok(first) = Process.monitor(Process.id(w)) else:\n        Process.exit(Process.Failure(\"monitor failed\"))\n    match r:\n        Process.Down(ref, _, reason) if ref == r2 ->\n            println(\"untrapped partner: down {reason_text(reason)}\")\n"},
	{"an else-if chain expands as a whole",
		"fn main():\n    if score >= 90: \"A grade that is very good\" else: if score >= 80: \"B grade that is good\" else: \"C\"\n",
		"fn main():\n    if score >= 90:\n        \"A grade that is very good\"\n    else: if score >= 80:\n        \"B grade that is good\"\n    else:\n        \"C\"\n"},
	{"an inline defer body expands to a block",
		"fn main(): defer println(\"bye\")\nfn f(x):\n    if x: defer println(x)\n",
		"fn main():\n    defer println(\"bye\")\n\nfn f(x):\n    if x:\n        defer println(x)\n"},
	{"a line continuing an if or match block stays at the header's indentation",
		"fn f(n):\n    let x = match n:\n        0 -> 1\n        _ -> 2\n    + 10\n    let v = if n > 0:\n        Ok(n)\n    else:\n        Err(n)\n    ?\n    match x:\n        1 -> 2\n        _ -> 3\n    |> double\n",
		"fn f(n):\n    let x = match n:\n        0 -> 1\n        _ -> 2\n    + 10\n    let v = if n > 0:\n        Ok(n)\n    else:\n        Err(n)\n    ?\n    match x:\n        1 -> 2\n        _ -> 3\n    |> double\n"},
	{"else if is kept as written",
		"fn f(n: Int) -> Int:\n    if n == 0:\n        0\n    else if n == 1:\n        1\n    else:\n        2\nfn g(n: Int) -> Int: if n == 0: 0 else if n == 1: 1 else: 2\n",
		"fn f(n: Int) -> Int:\n    if n == 0:\n        0\n    else if n == 1:\n        1\n    else:\n        2\n\nfn g(n: Int) -> Int: if n == 0: 0 else if n == 1: 1 else: 2\n"},
	{"blocks are never joined",
		"fn f():\n    if c:\n        a\n    else:\n        b\n",
		"fn f():\n    if c:\n        a\n    else:\n        b\n"},
	{"pipes that start lines stay on their lines",
		"fn main():\n    let v = xs\n          |> List.map((x) -> x * 2)\n      |> List.sum()\n    let w = xs |> List.sum()\n",
		"fn main():\n    let v = xs\n        |> List.map((x) -> x * 2)\n        |> List.sum()\n    let w = xs |> List.sum()\n"},
	{"strings are untouched",
		"fn main():\n    println(\"a  {x+1}  b\\t\\{\")\n    let s = \"\"\"\n  keep   \n\tthis {y}\n\"\"\"\n",
		"fn main():\n    println(\"a  {x+1}  b\\t\\{\")\n    let s = \"\"\"\n  keep   \n\tthis {y}\n\"\"\"\n"},
	{"comments stay where they were",
		"# top\nfn main():  # header\n    # before x\n    let x = 1 # after x\n    let y = /* inline */ 2\n       # odd indentation\n    f(a, # after a\n      b)\n    # end of main\n# between\n\nfn g(): 1\n",
		"# top\nfn main():  # header\n    # before x\n    let x = 1  # after x\n    let y = /* inline */ 2\n    # odd indentation\n    f(\n        a,  # after a\n        b,\n    )\n    # end of main\n# between\n\nfn g(): 1\n"},
	{"a comment group right after a declaration stays with it",
		"fn a(): 1\n# about a\n\n# about b\nfn b(): 2\n",
		"fn a(): 1\n# about a\n\n# about b\nfn b(): 2\n"},
	{"a comment before the next declaration gets the blank line",
		"fn a(): 1\n# about b\nfn b(): 2\n",
		"fn a(): 1\n\n# about b\nfn b(): 2\n"},
	{"a comment moves a comma before it",
		"fn main():\n    f(a # note\n      , b)\n",
		"fn main():\n    f(\n        a,  # note\n        b,\n    )\n"},
	{"a comment after '->' inside brackets: a deeper line is a block",
		"fn main():\n    List.map(xs, (x) -> # why\n        x)\n",
		"fn main():\n    List.map(xs, (x) ->  # why\n        x\n    )\n"},
	{"a comment after '->' inside brackets: an inline body stays inline",
		"fn main():\n    List.map(xs, (x) -> # why\n    x)\n",
		"fn main():\n    List.map(\n        xs,\n        (x) ->  # why\n        x,\n    )\n"},
	{"attributes and block comments",
		"@moduledoc \"\"\"The module.\"\"\"\n/* a block\n   comment */\n@doc \"Doubles.\"\nfn double(x: Int) -> Int: x * 2\n",
		"@moduledoc \"\"\"The module.\"\"\"\n/* a block\n   comment */\n@doc \"Doubles.\"\nfn double(x: Int) -> Int: x * 2\n"},
	{"types and newtypes",
		"pub type  Shape(a)derive( Show,Eq ):\n  Circle( radius:Float )\n  Rect(Float,Float)\ntype V=Int|String\ntype F =\n    (Int, a) -> fn(Int) -> Bool\nnewtype Id derive(Show)=Id( Int )\n",
		"pub type Shape(a) derive(Show, Eq):\n    Circle(radius: Float)\n    Rect(Float, Float)\n\ntype V = Int | String\n\ntype F = (Int, a) -> fn(Int) -> Bool\n\nnewtype Id derive(Show) = Id(Int)\n"},
	{"patterns, receive and with",
		"fn main():\n    match v:\n        (a,[h,..rest],Some( -1 )) if a>0 -> 1\n        n: Int -> 2\n        _ -> 3\n    receive:\n        Ping(from) -> ()\n        _ after 100 -> ()\n    let r = with\n        x <- parse(a),\n        y <- parse(b)\n    do\n        Ok(x + y)\n    else\n        Err(e) -> Err(e)\n",
		"fn main():\n    match v:\n        (a, [h, ..rest], Some(-1)) if a > 0 -> 1\n        n: Int -> 2\n        _ -> 3\n    receive:\n        Ping(from) -> ()\n        _ after 100 -> ()\n    let r = with\n        x <- parse(a),\n        y <- parse(b)\n    do\n        Ok(x + y)\n    else\n        Err(e) -> Err(e)\n"},
	{"out-of-scope declarations are copied",
		"trait   Shape   # why\nconst X: Int = 5\nfn main(): 1\n",
		"trait   Shape  # why\n\nconst X: Int = 5\n\nfn main(): 1\n"},
	{"module and import lines are spaced canonically and kept together",
		"module  app   # why\nimport   geometry.shapes   # why\npub import geo.{ Shape ,area, }\nimport a  as b\nfn main(): 1\n",
		"module app  # why\n\nimport geometry.shapes  # why\npub import geo.{Shape, area}\nimport a as b\n\nfn main(): 1\n"},
	{"byte order mark dropped, empty file stays empty",
		"\xef\xbb\xbffn main(): 1\n",
		"fn main(): 1\n"},
	{"empty", "", ""},
	{"only comments", "\n\n# just a comment   \n\n\n", "# just a comment\n"},
}

func TestLayout(t *testing.T) {
	for _, c := range layoutCases {
		t.Run(c.name, func(t *testing.T) {
			out, dl, err := Format([]byte(c.in), "case.mr")
			if dl.HasErrors() || err != nil {
				t.Fatalf("diagnostics %v, error %v", dl, err)
			}
			if string(out) != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", out, c.want)
			}
			again, _, err := Format([]byte(c.want), "case.mr")
			if err != nil || string(again) != c.want {
				t.Errorf("the expected layout is not a fixed point (%v):\n%s", err, again)
			}
		})
	}
}

// TestRefusedInputsAreDiagnostics: source with a syntax error or invalid
// UTF-8 gives diagnostics and no output, never an error; invalid UTF-8 is
// reported as E0021.
func TestRefusedInputsAreDiagnostics(t *testing.T) {
	for _, c := range []struct{ src, code string }{
		{"fn main():\n    println(1 +\n", ""},
		{"fn main(\n", ""},
		{"fn main():\n  if x:\n      a\n    b\n", ""},
		{"let x = 1\n", ""},
		{"fn main():\n    println(\"unterminated)\n", ""},
		{"# caf\xe9\nfn main(): 1\n", "E0021"},
		{"fn main(): \"caf\xe9\"\n", "E0021"},
		{"/* \xff */\nfn main(): 1\n", "E0021"},
	} {
		out, dl, err := Format([]byte(c.src), "bad.mr")
		if err != nil || out != nil || !dl.HasErrors() {
			t.Errorf("%q: out %q, diagnostics %v, error %v", c.src, out, dl, err)
			continue
		}
		found := c.code == ""
		for _, d := range dl {
			if string(d.Code) == c.code {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no %s diagnostic in %v", c.src, c.code, dl)
		}
	}
}

// TestVerifyRefusesBadOutput feeds the checks that guard every write
// outputs that break each guarantee, as a formatter bug would.
func TestVerifyRefusesBadOutput(t *testing.T) {
	src := []byte("fn main():\n    # note\n    println(1 + 2)\n")
	tree := parseOK(t, src)
	lx, err := lex("v.mr", src)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, out, want string }{
		{"does not parse", "fn main(:\n", "does not parse"},
		{"changed meaning", "fn main():\n    # note\n    println(1 + 3)\n", "different tree"},
		{"changed grouping", "fn main():\n    # note\n    println((1 + 2))\n", ""},
		{"lost a comment", "fn main():\n    println(1 + 2)\n", "comments changed"},
		{"changed a comment", "fn main():\n    # Note\n    println(1 + 2)\n", "comments changed"},
		{"not a fixed point", "fn main():\n    # note\n    println( 1 + 2 )\n", "not idempotent"},
	}
	for _, c := range cases {
		err := verify("v.mr", src, lx, tree, []byte(c.out))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if err := verify("v.mr", src, lx, tree, []byte("fn main():\n    # note\n    println(1 + 2)\n")); err != nil {
		t.Errorf("the formatted text itself: %v", err)
	}
	e := &InternalError{File: "v.mr", Msg: "boom"}
	if !strings.Contains(e.Error(), "internal formatter error in v.mr: boom") {
		t.Errorf("message %q", e.Error())
	}
}

// TestReadmeCodeIsFormatted keeps the Morrow block of README.md formatted
// (the blocks of docs/tour.md are files of examples/, which make lint
// checks; those of docs/process.md mirror fixtures that keep their layout).
func TestReadmeCodeIsFormatted(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```morrow\n(.*?)```").FindAllStringSubmatch(string(raw), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Morrow code block")
	}
	for _, b := range blocks {
		out, dl, err := Format([]byte(b[1]), "README.md")
		if err != nil || dl.HasErrors() || string(out) != b[1] {
			t.Errorf("README.md block is not formatted (%v %v):\n%s", err, dl, out)
		}
	}
}

func parseOK(t *testing.T, src []byte) *ast.File {
	t.Helper()
	tree, dl := parser.Parse(source.NewFile("v.mr", src))
	if dl.HasErrors() {
		t.Fatal(dl)
	}
	return tree
}

func TestSameBytecode(t *testing.T) {
	src := []byte("fn main():\n    let f = (x) -> x + 1\n    println(f(2))\n")
	cases := []struct{ name, out, want string }{
		{"same code, other lines", "fn main():\n\n    let f = (x) ->\n        x + 1\n\n    println(f(2))\n", ""},
		{"other code", "fn main():\n    let f = (x) -> x + 2\n    println(f(2))\n", "different bytecode"},
		{"does not compile", "fn main():\n    let f = (x) -> x + \"1\"\n    println(f(2))\n", "does not"},
	}
	for _, c := range cases {
		err := sameBytecode("b.mr", src, []byte(c.out))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// a source that does not type-check is formatted without the comparison
	if err := sameBytecode("b.mr", []byte("fn main():\n    nope()\n"), []byte("fn main():\n    other()\n")); err != nil {
		t.Errorf("source with type errors: %v", err)
	}
}
