package fault

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTableOrder: Table[i] is code i+1, names are the constants' and
// texts are unique.
func TestTableOrder(t *testing.T) {
	texts := map[string]bool{}
	for i, e := range Table {
		if e.Code != Code(i+1) {
			t.Errorf("Table[%d] is code %d", i, e.Code)
		}
		if e.Code.String() != e.Name || e.Code.Text() != e.Text || New(e.Code).Msg != e.Text {
			t.Errorf("code %d: name %s, text %q", e.Code, e.Code, e.Code.Text())
		}
		if texts[e.Text] {
			t.Errorf("text %q used twice", e.Text)
		}
		texts[e.Text] = true
	}
	if !Descriptor.Wide() || !Clock.Wide() || Resource.Wide() || Exit.Wide() {
		t.Error("only codes 11 and 12 always end the invocation")
	}
	if Code(99).Text() != "fault 99" || Exit.String() != "Exit" {
		t.Errorf("unknown code: %q, %s", Code(99).Text(), Exit)
	}
}

// TestTableMatchesDocs: docs/stdlib.md ("Faults") lists exactly the codes
// of Table, each with its name and text.
func TestTableMatchesDocs(t *testing.T) {
	b, err := os.ReadFile("../../docs/stdlib.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| (?:\\*\\*)?(\\d+)(?:\\*\\*)? \\| `(\\w+)` \\| `([^`]+)` \\|")
	rows := row.FindAllStringSubmatch(string(b), -1)
	if len(rows) != len(Table) {
		t.Errorf("docs/stdlib.md lists %d fault codes, the table has %d", len(rows), len(Table))
	}
	for _, r := range rows {
		n, _ := strconv.Atoi(r[1])
		c := Code(n)
		if c.info() == nil {
			t.Errorf("docs/stdlib.md lists code %d, which the table lacks", n)
			continue
		}
		if r[2] != c.String() || r[3] != c.Text() {
			t.Errorf("docs/stdlib.md: code %d is %s %q, the table says %s %q", n, r[2], r[3], c, c.Text())
		}
	}
}

func TestReport(t *testing.T) {
	f := New(DivZero)
	f.File, f.Line = "p.mr", 3
	f.Trace = []Frame{{"f", "p.mr", 3}, {"f", "p.mr", 3}, {"main", "p.mr", 9}}
	want := "morrow: runtime error: integer division by zero\n  at p.mr:3\n  in f (p.mr:3) [2 times]\n  in main (p.mr:9)\n"
	if got := f.Report(); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	i := Internalf("bad %s", "thing")
	if !i.Internal || i.Code != 0 || !strings.HasPrefix(i.Report(), "morrow: internal error: bad thing\n") {
		t.Errorf("internal error: %+v %q", i, i.Report())
	}
	if !NewExit().IsExit() || New(Resource).IsExit() || (&Fault{Code: Exit, Internal: true}).IsExit() {
		t.Error("IsExit")
	}
}
