package trace

import (
	"errors"
	"strings"
	"testing"
)

// goodLines has at least one line of every kind, with every option.
var goodLines = []struct {
	line string
	want Event
}{
	{"spawn 1 root", Event{Kind: KindRoot, Proc: 1}},
	{"spawn 2 by 1 worker", Event{Kind: KindSpawn, Proc: 2, Peer: 1, Name: "worker"}},
	{"spawn 2 by 1 watch.lambda@9", Event{Kind: KindSpawn, Proc: 2, Peer: 1, Name: "watch.lambda@9"}},
	{"spawn 2 by 1", Event{Kind: KindSpawn, Proc: 2, Peer: 1}},
	{"spawn 7 supervised restart of 5", Event{Kind: KindRestart, Proc: 7, Peer: 5}},
	{"port 1", Event{Kind: KindPort, Proc: 1}},
	{"discard 4 (ResourceLimit)", Event{Kind: KindDiscard, Proc: 4}},
	{"monitor 2 -> 3 ref 1", Event{Kind: KindMonitor, Proc: 2, Peer: 3, Ref: 1}},
	{"monitor 2 -> 2 ref 4 (self, inert)", Event{Kind: KindMonitor, Proc: 2, Peer: 2, Ref: 4, Inert: true}},
	{"demonitor 2 ref 4", Event{Kind: KindDemonitor, Proc: 2, Ref: 4}},
	{"link 2 <-> 4", Event{Kind: KindLink, Proc: 2, Peer: 4}},
	{"unlink 2 <-> 4", Event{Kind: KindUnlink, Proc: 2, Peer: 4}},
	{"trap 2 on", Event{Kind: KindTrap, Proc: 2, On: true}},
	{"trap 2 off", Event{Kind: KindTrap, Proc: 2}},
	{"exit signal 2 -> 3 Shutdown (direct)", Event{Kind: KindExitSignal, Proc: 2, Peer: 3, Reason: "Shutdown", Direct: true}},
	{`exit signal 5 -> 2 Failure("boom (direct)")`, Event{Kind: KindExitSignal, Proc: 5, Peer: 2, Reason: `Failure("boom (direct)")`}},
	{"exit signal 4 -> 2 Killed", Event{Kind: KindExitSignal, Proc: 4, Peer: 2, Reason: "Killed"}},
	{"down 3 -> 2 NoProcess", Event{Kind: KindDown, Proc: 3, Peer: 2, Reason: "NoProcess"}},
	{`down 4 -> 2 ShutdownDetail("a \"quoted\" \\ text\n")`, Event{Kind: KindDown, Proc: 4, Peer: 2, Reason: `ShutdownDetail("a \"quoted\" \\ text\n")`}},
	{"retire 1 Normal", Event{Kind: KindRetire, Proc: 1, Reason: "Normal"}},
	{"retire 9 Fault(1)", Event{Kind: KindRetire, Proc: 9, Reason: "Fault(1)"}},
	{"retire 3 Fault(-9223372036854775808)", Event{Kind: KindRetire, Proc: 3, Reason: "Fault(-9223372036854775808)"}},
	{"exit signal 5 -> 2 Fault(-1) (direct)", Event{Kind: KindExitSignal, Proc: 5, Peer: 2, Reason: "Fault(-1)", Direct: true}},
	{"retire 9 Kill", Event{Kind: KindRetire, Proc: 9, Reason: "Kill"}},
	{"fatal 2 Fault(0)", Event{Kind: KindFatal, Proc: 2, Reason: "Fault(0)"}},
	{"deadlock", Event{Kind: KindDeadlock}},
	{"send 3 -> 2", Event{Kind: KindSend, Proc: 3, Peer: 2}},
	{"send 3 -> 2 (dead)", Event{Kind: KindSend, Proc: 3, Peer: 2, Send: SendDead}},
	{"send 3 -> 2 (full)", Event{Kind: KindSend, Proc: 3, Peer: 2, Send: SendFull}},
	{"send 3 -> 3", Event{Kind: KindSend, Proc: 3, Peer: 3}},
	{"recv 2 <- 3", Event{Kind: KindRecv, Proc: 2, Peer: 3}},
	{"arrive 2 <- 3 message 1", Event{Kind: KindArrive, Proc: 2, Peer: 3, Cell: CellMessage, Seq: 1}},
	{"arrive 2 <- 3 exit 12", Event{Kind: KindArrive, Proc: 2, Peer: 3, Cell: CellExit, Seq: 12}},
	{"arrive 2 <- 3 down 4", Event{Kind: KindArrive, Proc: 2, Peer: 3, Cell: CellDown, Seq: 4}},
	{"retire 18446744073709551615 Normal", Event{Kind: KindRetire, Proc: 18446744073709551615, Reason: "Normal"}},
}

func TestParseLine(t *testing.T) {
	seen := map[Kind]bool{}
	for _, c := range goodLines {
		e, err := ParseLine(c.line)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if e != c.want {
			t.Errorf("%q: got %+v, want %+v", c.line, e, c.want)
		}
		if s := e.String(); s != c.line {
			t.Errorf("%q: String() = %q", c.line, s)
		}
		seen[e.Kind] = true
	}
	for _, k := range Kinds() {
		if !seen[k] {
			t.Errorf("no test line of kind %s", k)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"spawn", `unknown event "spawn"`},
		{"hello world", `unknown event "hello"`},
		{"spawn 0 root", "numbers start at 1"},
		{"spawn 02 root", "numbers start at 1"},
		{"spawn x root", "expected a process (a number)"},
		{"spawn 2  by 1", `expected " root"`},
		{"spawn 2 by 1 two words", "not one word"},
		{"spawn 2 by 1 ", "not one word"},
		{"spawn 99999999999999999999 root", "too large"},
		{"monitor 2 -> 3", `expected " ref "`},
		{"monitor 2 -> 3 ref 1 (self, inert)", "inert self-monitor names two"},
		{"link 2 -> 3", `expected " <-> "`},
		{"trap 2 maybe", `expected " on" or " off"`},
		{"retire 2", `expected " "`},
		{"retire 2 Fine", "expected an exit reason"},
		{"retire 2 Normal extra", `unexpected " extra" at the end`},
		{"retire 2 Failure(boom)", `expected "(\""`},
		{`retire 2 Failure("boom)`, "unterminated text"},
		{`retire 2 Failure("bo\om")`, `unknown escape \o`},
		{`retire 2 Failure("x")(`, "at the end"},
		{"retire 2 Fault()", "expected a fault code"},
		{"retire 2 Fault(-0)", "expected a fault code"},
		{"retire 2 Fault(-)", "expected a fault code"},
		{"retire 2 Fault(007)", "expected a fault code"},
		{"retire 2 Fault(-9223372036854775809)", "too large"},
		{"retire 2 Fault(99999999999999999999)", "fault code"},
		{"fatal 2 Normal", "carries Fault(C)"},
		{"exit signal 2 -> 3 Normal (indirect)", "at the end"},
		{"send 3 -> 2 (lost)", "at the end"},
		{"recv 2 -> 3", `expected " <- "`},
		{"arrive 2 <- 3 letter 1", `expected " message ", " exit " or " down "`},
		{"arrive 2 <- 3 down 0", "numbers start at 1"},
		{"arrive 2 <- 3 down", `expected " message ", " exit " or " down "`},
		{"deadlock now", "at the end"},
		{"retire 2 Failure(\"\xff\")", "not valid UTF-8"},
	} {
		_, err := ParseLine(c.line)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.line, err, c.want)
		}
	}
}

func TestParse(t *testing.T) {
	evs, err := Parse(strings.NewReader("spawn 1 root\r\n\nspawn 2 by 1 worker\nretire 1 Normal\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 3 || evs[0].Line != 1 || evs[1].Line != 3 || evs[2].Line != 4 {
		t.Fatalf("events %+v", evs)
	}
	_, err = Parse(strings.NewReader("spawn 1 root\nspawn 2 by 1 worker\nretire two Normal\nretire 1 Normal\n"))
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || !strings.HasPrefix(err.Error(), "line 3: column 8: expected a process") {
		t.Fatalf("error %v", err)
	}
	_, err = Parse(strings.NewReader("spawn 1 root\nretire 1 Failure(\"" + strings.Repeat("x", MaxLine) + "\")\n"))
	if !errors.As(err, &se) || se.Line != 2 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("long line: %v", err)
	}
}

func TestReason(t *testing.T) {
	for _, c := range []struct {
		r           Reason
		tag, text   string
		normal, flt bool
	}{
		{"Normal", "Normal", "", true, false},
		{"Fault(3)", "Fault", "", false, true},
		{`Failure("a\"b\\c\nd")`, "Failure", "a\"b\\c\nd", false, false},
		{`ShutdownDetail("")`, "ShutdownDetail", "", false, false},
		{"Killed", "Killed", "", false, false},
	} {
		if c.r.Tag() != c.tag || c.r.Text() != c.text || c.r.IsNormal() != c.normal || c.r.IsFault() != c.flt {
			t.Errorf("%s: tag %q text %q normal %v fault %v", c.r, c.r.Tag(), c.r.Text(), c.r.IsNormal(), c.r.IsFault())
		}
	}
}

// FuzzParse: any input either parses, and then every event renders back
// to its line, or fails with a *SyntaxError naming a line of the input;
// it never panics.
func FuzzParse(f *testing.F) {
	for _, c := range goodLines {
		f.Add(c.line + "\n")
	}
	f.Add("spawn 1 root\nspawn 2 by 1 worker\nsend 1 -> 2\nrecv 2 <- 1\nretire 2 Fault(1)\n")
	f.Add("retire 2 Failure(\"unterminated\n")
	f.Add("exit signal 1 -> 2 ShutdownDetail(\"\\\")\n")
	f.Fuzz(func(t *testing.T, data string) {
		evs, err := Parse(strings.NewReader(data))
		lines := strings.Split(data, "\n")
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Line < 1 || se.Line > len(lines) {
				t.Fatalf("error names line %d of %d", se.Line, len(lines))
			}
			return
		}
		for _, e := range evs {
			if got, want := e.String(), strings.TrimSuffix(lines[e.Line-1], "\r"); got != want {
				t.Fatalf("line %d %q renders as %q", e.Line, want, got)
			}
		}
	})
}
