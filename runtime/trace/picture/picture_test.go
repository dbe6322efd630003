package picture

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/trace"
)

func parseFile(t testing.TB, path string) []trace.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	evs, err := trace.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func render(t testing.TB, evs []trace.Event, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, evs, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// element is a parsed SVG element.
type element struct {
	name    string
	class   []string
	attrs   map[string]string
	parents [][]string // classes of the enclosing elements, innermost last
	text    string
}

func (e *element) is(c string) bool {
	for _, x := range e.class {
		if x == c {
			return true
		}
	}
	return false
}

// within reports whether an enclosing element has class c.
func (e *element) within(c string) bool {
	for _, cls := range e.parents {
		for _, x := range cls {
			if x == c {
				return true
			}
		}
	}
	return false
}

// parseSVG checks that b is well-formed XML with an svg root and returns
// its elements in document order.
func parseSVG(t testing.TB, b []byte) []*element {
	t.Helper()
	var out []*element
	var stack []*element
	for _, tok := range testrun.XMLTokens(t, b) {
		switch tk := tok.(type) {
		case xml.StartElement:
			e := &element{name: tk.Name.Local, attrs: map[string]string{}}
			for _, a := range tk.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			e.class = strings.Fields(e.attrs["class"])
			for _, p := range stack {
				e.parents = append(e.parents, p.class)
			}
			if len(stack) == 0 && (e.name != "svg" || tk.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v", tk.Name)
			}
			stack = append(stack, e)
			out = append(out, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(tk)
			}
		}
	}
	return out
}

// count returns the elements named name with class c (any class if "").
func count(els []*element, name, c string) []*element {
	var out []*element
	for _, e := range els {
		if e.name == name && (c == "" || e.is(c)) && !e.within("legend") && !e.is("legend") {
			out = append(out, e)
		}
	}
	return out
}

// arrows are the lines with an arrow head inside rows (not the legend).
func arrows(els []*element) []*element {
	var out []*element
	for _, e := range els {
		if (e.name == "line" || e.name == "path") && e.attrs["marker-end"] != "" && !e.within("legend") {
			out = append(out, e)
		}
	}
	return out
}

func TestSVGStructure(t *testing.T) {
	evs := parseFile(t, "testdata/mixed.trace")
	b := render(t, evs, Options{})
	els := parseSVG(t, b)
	// One lifeline per process number (port, root, 3..7).
	if n := len(count(els, "g", "lifeline")); n != 7 {
		t.Errorf("%d lifelines, want 7", n)
	}
	for _, id := range []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7"} {
		found := false
		for _, e := range count(els, "g", "lifeline") {
			found = found || e.attrs["id"] == id
		}
		if !found {
			t.Errorf("no lifeline %s", id)
		}
	}
	// Arrows: 5 spawns, 1 monitor, 1 unlink, 2 exit signals, 1 down and
	// the messages: the ping-pong (8 sends + 1 never received) folds
	// into its first two rows repeated, then the unreceived one, the
	// dead one and the one to the port.
	if n := len(arrows(els)); n != 5+1+1+2+1+2+1+1+1 {
		t.Errorf("%d arrows, want 15", n)
	}
	if n := len(count(els, "g", "fold")); n != 1 {
		t.Errorf("%d folds, want 1", n)
	}
	// Faults are red: the Fault(1) end, its Down, the fatal end, the
	// deadlock; the lifelines of 4 and 7 carry the fault class.
	var faults []string
	for _, e := range count(els, "g", "fault") {
		if e.within("legend") {
			continue
		}
		if e.is("row") {
			faults = append(faults, texts(els, e))
		} else if e.is("lifeline") {
			faults = append(faults, e.attrs["id"])
		}
	}
	want := []string{"p4", "p7", "Fault(1)", "Down Fault(1)", "fatal Fault(0): the program stops", "deadlock: no process can run and no timer is pending"}
	if fmt.Sprint(faults) != fmt.Sprint(want) {
		t.Errorf("fault elements %q, want %q", faults, want)
	}
	style := count(els, "style", "")[0].text
	if !strings.Contains(style, ".row.fault line,.row.fault path{stroke:#d00}") {
		t.Errorf("fault rows are not drawn red:\n%s", style)
	}
	// The Normal signal to a non-trapping process is ignored, the lost
	// and unreceived messages are marked.
	for _, c := range []string{"ignored", "lost", "unreceived", "note", "end", "global"} {
		if len(count(els, "g", c)) == 0 {
			t.Errorf("no element of class %s", c)
		}
	}
	if !bytes.Contains(b, []byte("5 processes, the root and 1 port, 11 messages (1 refused, 1 never received), 2 faults, 2 other abnormal exits, 0 trapped exits, deadlock; 1 repeated run folded (6 rows)")) {
		t.Errorf("summary missing:\n%s", b)
	}
	// Self-contained: no reference outside the document.
	for _, bad := range []string{"href", "@import", "url(http", "<script", "<image", "font-face"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Errorf("SVG contains %q", bad)
		}
	}
}

// texts is the text of the text elements inside g.
func texts(els []*element, g *element) string {
	for i, e := range els {
		if e == g {
			for _, x := range els[i+1:] {
				if x.name == "text" && !x.within("legend") {
					return x.text
				}
			}
		}
	}
	return ""
}

func TestTrappedExit(t *testing.T) {
	els := parseSVG(t, render(t, parseFile(t, "testdata/links.trace"), Options{}))
	tr := count(els, "g", "trapped")
	if len(tr) != 1 || texts(els, tr[0]) != `exit Failure("disk full") (trapped)` {
		t.Fatalf("trapped rows %d", len(tr))
	}
	// The supervisor's lifeline is marked while it traps.
	if n := len(count(els, "line", "trapping")); n != 1 {
		t.Errorf("%d trapping spans, want 1", n)
	}
	// A trap off ends the span; a direct Kill is never trapped.
	evs := mustParse(t, "spawn 1 root\nspawn 2 by 1 a\ntrap 2 on\ntrap 2 off\ntrap 2 on\nexit signal 1 -> 2 Kill (direct)\nretire 2 Killed\n")
	els = parseSVG(t, render(t, evs, Options{}))
	if n := len(count(els, "line", "trapping")); n != 2 {
		t.Errorf("%d trapping spans, want 2", n)
	}
	if n := len(count(els, "g", "trapped")); n != 0 {
		t.Errorf("a direct Kill drawn as trapped")
	}
}

func mustParse(t testing.TB, s string) []trace.Event {
	t.Helper()
	evs, err := trace.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestMessageOptions(t *testing.T) {
	var b strings.Builder
	b.WriteString("spawn 1 root\nspawn 2 by 1 a\nspawn 3 by 1 b\n")
	for i := 0; i < 5; i++ {
		// Distinct partners so nothing folds.
		fmt.Fprintf(&b, "send 2 -> 3\nrecv 3 <- 2\nsend 3 -> 1\nsend 1 -> 2\nrecv 2 <- 1\n")
	}
	evs := mustParse(t, b.String())
	msgs := func(opt Options) int {
		return len(count(parseSVG(t, render(t, evs, opt)), "g", "msg"))
	}
	// Folding: the block of three message rows repeats five times.
	if n := msgs(Options{}); n != 3 {
		t.Errorf("all: %d message rows, want 3 (folded)", n)
	}
	if n := msgs(Options{HideMessages: true}); n != 0 {
		t.Errorf("none: %d message rows", n)
	}
	// The first two messages only: no repetition left to fold.
	out := render(t, evs, Options{MaxMessages: 2})
	if n := len(count(parseSVG(t, out), "g", "msg")); n != 2 {
		t.Errorf("max 2: %d message rows", n)
	}
	if !bytes.Contains(out, []byte("15 messages (first 2 drawn, 5 never received)")) {
		t.Errorf("summary of max 2:\n%s", out)
	}
	if out := render(t, evs, Options{HideMessages: true}); !bytes.Contains(out, []byte("15 messages (not drawn, 5 never received)")) {
		t.Errorf("summary of none:\n%s", out)
	}
}

func TestGoldens(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("testdata"))
	for _, name := range []string{"links", "mixed"} {
		evs := parseFile(t, filepath.Join("testdata", name+".trace"))
		g.Assert(t, name+".svg", render(t, evs, Options{Title: name + ".trace"}))
		g.Assert(t, name+".mmd", render(t, evs, Options{Format: Mermaid, Title: name + ".trace"}))
	}
}

// TestDeterministic renders the same trace twice.
func TestDeterministic(t *testing.T) {
	evs := fifty()
	a := render(t, evs, Options{})
	b := render(t, evs, Options{})
	if !bytes.Equal(a, b) {
		t.Fatal("two renders differ")
	}
}

// fifty is a run of 50 workers under one boss: each is spawned,
// monitored and linked, plays 100 rounds of ping-pong with the boss and
// ends; every seventh faults, every eleventh is never answered.
func fifty() []trace.Event {
	var b strings.Builder
	b.WriteString("spawn 1 root\nspawn 2 by 1 boss\nretire 1 Normal\ntrap 2 on\n")
	ref := 0
	for i := 3; i < 53; i++ {
		ref++
		fmt.Fprintf(&b, "spawn %d by 2 worker\nmonitor 2 -> %d ref %d\nlink 2 <-> %d\n", i, i, ref, i)
		for r := 0; r < 100; r++ {
			fmt.Fprintf(&b, "send 2 -> %d\nrecv %d <- 2\nsend %d -> 2\nrecv 2 <- %d\n", i, i, i, i)
		}
		if i%11 == 0 {
			fmt.Fprintf(&b, "send 2 -> %d\n", i)
		}
		reason := "Normal"
		if i%7 == 0 {
			reason = "Fault(1)"
		}
		fmt.Fprintf(&b, "retire %d %s\nexit signal %d -> 2 %s\ndown %d -> 2 %s\n", i, reason, i, reason, i, reason)
	}
	b.WriteString("retire 2 Normal\n")
	evs, err := trace.Parse(strings.NewReader(b.String()))
	if err != nil {
		panic(err)
	}
	return evs
}

func TestFiftyProcesses(t *testing.T) {
	evs := fifty()
	out := render(t, evs, Options{})
	els := parseSVG(t, out)
	if n := len(count(els, "g", "lifeline")); n != 52 {
		t.Errorf("%d lifelines, want 52", n)
	}
	// Each worker's 100 rounds fold into one bracket of two rows.
	folds := count(els, "g", "fold")
	if len(folds) != 50 {
		t.Errorf("%d folds, want 50", len(folds))
	}
	for _, f := range folds {
		if txt := texts(els, f); txt != "×100" {
			t.Errorf("fold says %q", txt)
			break
		}
	}
	// 10,000 message rows become 100 plus 4 never received.
	if n := len(count(els, "g", "msg")); n != 104 {
		t.Errorf("%d message rows, want 104", n)
	}
	if n := len(count(els, "g", "unreceived")); n != 4 {
		t.Errorf("%d unreceived, want 4", n)
	}
	if !bytes.Contains(out, []byte("51 processes and the root, 10004 messages (4 never received), 7 faults, 50 trapped exits; 50 repeated runs folded (9900 rows)")) {
		t.Errorf("summary: %s", count(els, "text", "summary")[0].text)
	}
	// Lifelines that end early stop: each worker's line ends at its X.
	for _, e := range count(els, "line", "life") {
		if e.attrs["y2"] == "" {
			t.Fatal("lifeline without end")
		}
	}
	// The picture stays a manageable size.
	if len(out) > 400<<10 {
		t.Errorf("SVG of %d bytes", len(out))
	}
	// Mermaid: one participant per lifeline, one loop per fold.
	mm := string(render(t, evs, Options{Format: Mermaid}))
	if n := strings.Count(mm, "\n    participant "); n != 52 {
		t.Errorf("%d participants", n)
	}
	if n := strings.Count(mm, "\n    loop ×100\n"); n != 50 {
		t.Errorf("%d loops", n)
	}
}

func TestEscaping(t *testing.T) {
	evs := mustParse(t, "spawn 1 root\nspawn 2 by 1 <w&x>\n"+
		`retire 2 Failure("<b>&\"'`+"\x01\x7f"+` #;%{}")`+"\n")
	els := parseSVG(t, render(t, evs, Options{}))
	found := false
	for _, e := range count(els, "text", "") {
		if strings.HasPrefix(e.text, `Failure("<b>&\"'`+"\uFFFD\x7f #;%{}") {
			found = true
		}
	}
	if !found {
		t.Error("reason text not preserved")
	}
	mm := string(render(t, evs, Options{Format: Mermaid}))
	if !strings.Contains(mm, "participant P2 as 2 #lt;w&x#gt;") || !strings.Contains(mm, `Failure(#quot;#lt;b#gt;&\#quot;'`+"\uFFFD\uFFFD"+` #35;#59;#37;#123;#125;#quot;)`) {
		t.Errorf("mermaid escaping:\n%s", mm)
	}
}

// FuzzRender: whatever parses renders to well-formed XML and to Mermaid
// without panicking.
func FuzzRender(f *testing.F) {
	for _, name := range []string{"links", "mixed"} {
		b, err := os.ReadFile(filepath.Join("testdata", name+".trace"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("recv 5 <- 9\nretire 9 Normal\nretire 9 Normal\ntrap 3 off\nspawn 2 by 7\n")
	f.Fuzz(func(t *testing.T, data string) {
		evs, err := trace.Parse(strings.NewReader(data))
		if err != nil {
			return
		}
		for _, opt := range []Options{{}, {MaxMessages: 1}, {HideMessages: true}} {
			parseSVG(t, render(t, evs, opt))
			opt.Format = Mermaid
			render(t, evs, opt)
		}
	})
}
