// Package trace is the line format of `morrow run --trace FILE`: the
// Event each line describes, Parse, which reads a trace back, and
// Event.String, which writes a line in the exact form the runtime does.
//
// The runtime (runtime/proc and runtime/sched) writes the lines with
// fmt at its trace call sites; this package is the reader's side and the
// one place that lists every kind (Kinds). docs/process.md ("Tracing")
// documents each line, and the tests check that every kind the runtime
// emits while running the process fixtures parses, is listed there and
// round-trips through String. The picture renderer
// (runtime/trace/picture) draws a parsed trace.
//
// A trace is UTF-8 text, one event per line (a trailing "\r" is
// ignored, and so are empty lines). Processes are numbered by their
// generation, starting at 1; a REASON is the `show` text of a
// Process.ExitReason: Normal, Shutdown, ShutdownDetail("…"), Fault(N),
// Failure("…"), Kill, Killed or NoProcess, the text quoted with the
// escapes \" \\ \n \r \t. The grammar, one line per Kind:
//
//	spawn N root                          KindRoot
//	spawn N by P [NAME]                   KindSpawn (NAME: entry function; absent in old traces)
//	spawn N supervised restart of M       KindRestart
//	port N                                KindPort
//	discard N (ResourceLimit)             KindDiscard
//	monitor A -> B ref R [(self, inert)]  KindMonitor
//	demonitor A ref R                     KindDemonitor
//	link A <-> B                          KindLink
//	unlink A <-> B                        KindUnlink
//	trap N on|off                         KindTrap
//	exit signal A -> B REASON [(direct)]  KindExitSignal
//	down A -> B REASON                    KindDown
//	retire N REASON                       KindRetire
//	fatal N Fault(C)                      KindFatal
//	deadlock                              KindDeadlock
//	send A -> B [(dead)|(full)]           KindSend (only with --trace-messages)
//	recv B <- A                           KindRecv (only with --trace-messages)
//	arrive B <- A KIND N                  KindArrive (only with --trace-messages, in
//	                                      schedules with cells in flight: --replay)
//
// An arrive line says that a cell A sent B (KIND: message, exit or down)
// left flight and entered B's mailbox; N is its number among the cells
// A sent B (1 for the first). Only deterministic runs that keep cells in
// flight (runtime/explore) write it; elsewhere a cell arrives when it is
// sent.
//
// Parsing is strict: numbers are canonical decimal (no sign, no leading
// zero, at least 1), separators are single spaces, and anything else is
// a *SyntaxError naming the line, so that Parse(line).String() == line.
package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the kind of a trace line.
type Kind uint8

// The kinds of trace lines; see the package comment for their syntax.
const (
	KindRoot Kind = iota
	KindSpawn
	KindRestart
	KindPort
	KindDiscard
	KindMonitor
	KindDemonitor
	KindLink
	KindUnlink
	KindTrap
	KindExitSignal
	KindDown
	KindRetire
	KindFatal
	KindDeadlock
	KindSend
	KindRecv
	KindArrive
	numKinds
)

// Kinds lists every kind, in declaration order.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

var kindNames = [numKinds]string{
	KindRoot: "spawn root", KindSpawn: "spawn", KindRestart: "spawn supervised restart",
	KindPort: "port", KindDiscard: "discard", KindMonitor: "monitor", KindDemonitor: "demonitor",
	KindLink: "link", KindUnlink: "unlink", KindTrap: "trap", KindExitSignal: "exit signal",
	KindDown: "down", KindRetire: "retire", KindFatal: "fatal", KindDeadlock: "deadlock",
	KindSend: "send", KindRecv: "recv", KindArrive: "arrive",
}

// String is the kind's name: the words that start its lines ("exit
// signal", "spawn root" for "spawn N root").
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// SendStatus is the outcome of a traced send.
type SendStatus uint8

const (
	SendQueued SendStatus = iota // queued in the receiver's mailbox (or written by a host port)
	SendDead                     // " (dead)": the receiver had retired; send returned Err(3)
	SendFull                     // " (full)": a mailbox or memory limit; send returned Err(4)
)

// sendSuffix is what a send line ends with for each status.
var sendSuffix = [...]string{SendQueued: "", SendDead: " (dead)", SendFull: " (full)"}

// CellKind is the kind of cell an arrive line delivers.
type CellKind uint8

const (
	CellMessage CellKind = iota // a user message
	CellExit                    // a trapped exit signal (Process.Exit)
	CellDown                    // a monitor Down
)

var cellNames = [...]string{CellMessage: "message", CellExit: "exit", CellDown: "down"}

func (c CellKind) String() string {
	if int(c) < len(cellNames) {
		return cellNames[c]
	}
	return "CellKind(" + strconv.Itoa(int(c)) + ")"
}

// Event is one trace line. Proc is the first process number of the line
// and Peer the second (0 when the line has one): for spawn the child and
// its parent, for restart the new and the old process, for monitor the
// owner and the target, for exit signal and down the process the signal
// comes from and the one it goes to, for send the sender and the
// receiver, for recv and arrive the receiver and the sender.
type Event struct {
	Line   int // 1-based line number in the trace (0 when not parsed)
	Kind   Kind
	Proc   uint64
	Peer   uint64
	Ref    uint64     // monitor reference (monitor, demonitor)
	Name   string     // entry function (spawn)
	Reason Reason     // exit signal, down, retire, fatal
	Inert  bool       // monitor: a self-monitor, which never fires
	Direct bool       // exit signal: sent with Process.signal_exit
	On     bool       // trap: trapping turned on (false: off)
	Send   SendStatus // send
	Cell   CellKind   // arrive: what arrived
	Seq    uint64     // arrive: the cell's number among those Peer sent Proc
}

// String renders e as the runtime writes it (without the newline).
func (e Event) String() string {
	switch e.Kind {
	case KindRoot:
		return fmt.Sprintf("spawn %d root", e.Proc)
	case KindSpawn:
		if e.Name == "" {
			return fmt.Sprintf("spawn %d by %d", e.Proc, e.Peer)
		}
		return fmt.Sprintf("spawn %d by %d %s", e.Proc, e.Peer, e.Name)
	case KindRestart:
		return fmt.Sprintf("spawn %d supervised restart of %d", e.Proc, e.Peer)
	case KindPort:
		return fmt.Sprintf("port %d", e.Proc)
	case KindDiscard:
		return fmt.Sprintf("discard %d (ResourceLimit)", e.Proc)
	case KindMonitor:
		if e.Inert {
			return fmt.Sprintf("monitor %d -> %d ref %d (self, inert)", e.Proc, e.Peer, e.Ref)
		}
		return fmt.Sprintf("monitor %d -> %d ref %d", e.Proc, e.Peer, e.Ref)
	case KindDemonitor:
		return fmt.Sprintf("demonitor %d ref %d", e.Proc, e.Ref)
	case KindLink:
		return fmt.Sprintf("link %d <-> %d", e.Proc, e.Peer)
	case KindUnlink:
		return fmt.Sprintf("unlink %d <-> %d", e.Proc, e.Peer)
	case KindTrap:
		if e.On {
			return fmt.Sprintf("trap %d on", e.Proc)
		}
		return fmt.Sprintf("trap %d off", e.Proc)
	case KindExitSignal:
		if e.Direct {
			return fmt.Sprintf("exit signal %d -> %d %s (direct)", e.Proc, e.Peer, e.Reason)
		}
		return fmt.Sprintf("exit signal %d -> %d %s", e.Proc, e.Peer, e.Reason)
	case KindDown:
		return fmt.Sprintf("down %d -> %d %s", e.Proc, e.Peer, e.Reason)
	case KindRetire:
		return fmt.Sprintf("retire %d %s", e.Proc, e.Reason)
	case KindFatal:
		return fmt.Sprintf("fatal %d %s", e.Proc, e.Reason)
	case KindDeadlock:
		return "deadlock"
	case KindSend:
		suffix := ""
		if int(e.Send) < len(sendSuffix) {
			suffix = sendSuffix[e.Send]
		}
		return fmt.Sprintf("send %d -> %d%s", e.Proc, e.Peer, suffix)
	case KindRecv:
		return fmt.Sprintf("recv %d <- %d", e.Proc, e.Peer)
	case KindArrive:
		return fmt.Sprintf("arrive %d <- %d %s %d", e.Proc, e.Peer, e.Cell, e.Seq)
	}
	return e.Kind.String()
}

// SyntaxError is a line that is not a trace event.
type SyntaxError struct {
	Line int    // 1-based
	Msg  string // what is wrong
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// MaxLine is the longest line Parse accepts (a reason text is at most
// 4,096 bytes, twice that escaped).
const MaxLine = 1 << 16

// Parse reads a whole trace. It stops at the first line that does not
// parse and returns a *SyntaxError for it (or the reader's error).
func Parse(r io.Reader) ([]Event, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine+2)
	var out []Event
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text() // bufio.ScanLines drops a "\r" before the "\n"
		if line == "" {
			continue
		}
		e, err := ParseLine(line)
		if err != nil {
			return out, &SyntaxError{Line: n, Msg: err.Error()}
		}
		e.Line = n
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return out, &SyntaxError{Line: n + 1, Msg: fmt.Sprintf("line longer than %d bytes", MaxLine)}
		}
		return out, err
	}
	return out, nil
}

// ParseLine parses one line (without its newline). The error says what
// is wrong, without a line number.
func ParseLine(line string) (Event, error) {
	if !utf8.ValidString(line) {
		return Event{}, errors.New("not valid UTF-8")
	}
	p := &lexer{s: line}
	e, err := p.event()
	if err != nil {
		return Event{}, fmt.Errorf("%s: %s", err, quoteShort(line))
	}
	return e, nil
}

// quoteShort quotes a line for an error message, cut to 80 bytes.
func quoteShort(s string) string {
	if len(s) > 80 {
		i := 80
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		return strconv.Quote(s[:i]) + "…"
	}
	return strconv.Quote(s)
}

// lexer walks a line.
type lexer struct {
	s   string
	pos int
}

func (p *lexer) rest() string { return p.s[p.pos:] }

// lit consumes the literal text w.
func (p *lexer) lit(w string) bool {
	if strings.HasPrefix(p.rest(), w) {
		p.pos += len(w)
		return true
	}
	return false
}

// oneOf consumes the first of alts that the line continues with and
// returns its index, or -1 (consuming nothing) when none does.
func (p *lexer) oneOf(alts ...string) int {
	for i, a := range alts {
		if p.lit(a) {
			return i
		}
	}
	return -1
}

func (p *lexer) expect(w string) error {
	if !p.lit(w) {
		return p.errorf("expected %q", w)
	}
	return nil
}

func (p *lexer) errorf(format string, args ...any) error {
	return fmt.Errorf("column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

// end checks that the whole line was consumed.
func (p *lexer) end() error {
	if p.pos != len(p.s) {
		return p.errorf("unexpected %s at the end", quoteShort(p.rest()))
	}
	return nil
}

// num reads a canonical positive decimal number.
func (p *lexer) num(what string) (uint64, error) {
	i := p.pos
	for i < len(p.s) && p.s[i] >= '0' && p.s[i] <= '9' {
		i++
	}
	if i == p.pos {
		return 0, p.errorf("expected %s (a number)", what)
	}
	digits := p.s[p.pos:i]
	if digits[0] == '0' {
		return 0, p.errorf("%s %q: numbers start at 1 and have no leading zero", what, digits)
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, p.errorf("%s %q is too large", what, digits)
	}
	p.pos = i
	return n, nil
}

// pair reads "A SEP B".
func (p *lexer) pair(sep string) (uint64, uint64, error) {
	a, err := p.num("a process")
	if err != nil {
		return 0, 0, err
	}
	if err := p.expect(sep); err != nil {
		return 0, 0, err
	}
	b, err := p.num("a process")
	return a, b, err
}

// word reads a NAME: the rest of the line, one word.
func (p *lexer) word() (string, error) {
	w := p.rest()
	if w == "" || strings.ContainsAny(w, " \t") {
		return "", p.errorf("the entry name %s is not one word", quoteShort(w))
	}
	for _, r := range w {
		if r < 0x20 || r == 0x7f {
			return "", p.errorf("the entry name contains a control character")
		}
	}
	p.pos = len(p.s)
	return w, nil
}

func (p *lexer) event() (Event, error) {
	var e Event
	var err error
	switch {
	case p.lit("spawn "):
		if e.Proc, err = p.num("a process"); err != nil {
			return e, err
		}
		switch {
		case p.lit(" root"):
			e.Kind = KindRoot
		case p.lit(" by "):
			e.Kind = KindSpawn
			if e.Peer, err = p.num("the parent"); err != nil {
				return e, err
			}
			if p.lit(" ") {
				if e.Name, err = p.word(); err != nil {
					return e, err
				}
			}
		case p.lit(" supervised restart of "):
			e.Kind = KindRestart
			if e.Peer, err = p.num("the restarted process"); err != nil {
				return e, err
			}
		default:
			return e, p.errorf(`expected " root", " by P" or " supervised restart of M"`)
		}
	case p.lit("port "):
		e.Kind = KindPort
		e.Proc, err = p.num("a port")
	case p.lit("discard "):
		e.Kind = KindDiscard
		if e.Proc, err = p.num("a process"); err == nil {
			err = p.expect(" (ResourceLimit)")
		}
	case p.lit("monitor "):
		e.Kind = KindMonitor
		if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
			return e, err
		}
		if err = p.expect(" ref "); err != nil {
			return e, err
		}
		if e.Ref, err = p.num("a reference"); err != nil {
			return e, err
		}
		if p.lit(" (self, inert)") {
			if e.Proc != e.Peer {
				return e, p.errorf("an inert self-monitor names two processes")
			}
			e.Inert = true
		}
	case p.lit("demonitor "):
		e.Kind = KindDemonitor
		if e.Proc, err = p.num("a process"); err != nil {
			return e, err
		}
		if err = p.expect(" ref "); err != nil {
			return e, err
		}
		e.Ref, err = p.num("a reference")
	case p.lit("link "):
		e.Kind = KindLink
		e.Proc, e.Peer, err = p.pair(" <-> ")
	case p.lit("unlink "):
		e.Kind = KindUnlink
		e.Proc, e.Peer, err = p.pair(" <-> ")
	case p.lit("trap "):
		e.Kind = KindTrap
		if e.Proc, err = p.num("a process"); err != nil {
			return e, err
		}
		switch {
		case p.lit(" on"):
			e.On = true
		case p.lit(" off"):
		default:
			return e, p.errorf(`expected " on" or " off"`)
		}
	case p.lit("exit signal "):
		e.Kind = KindExitSignal
		if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
			return e, err
		}
		if e.Reason, err = p.reason(); err != nil {
			return e, err
		}
		e.Direct = p.lit(" (direct)")
	case p.lit("down "):
		e.Kind = KindDown
		if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
			return e, err
		}
		e.Reason, err = p.reason()
	case p.lit("retire "):
		e.Kind = KindRetire
		if e.Proc, err = p.num("a process"); err != nil {
			return e, err
		}
		e.Reason, err = p.reason()
	case p.lit("fatal "):
		e.Kind = KindFatal
		if e.Proc, err = p.num("a process"); err != nil {
			return e, err
		}
		if e.Reason, err = p.reason(); err == nil && !e.Reason.IsFault() {
			err = p.errorf("a fatal line carries Fault(C), not %s", e.Reason)
		}
	case p.lit("deadlock"):
		e.Kind = KindDeadlock
	case p.lit("send "):
		e.Kind = KindSend
		if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
			return e, err
		}
		if i := p.oneOf(sendSuffix[SendDead:]...); i >= 0 {
			e.Send = SendDead + SendStatus(i)
		}
	case p.lit("recv "):
		e.Kind = KindRecv
		e.Proc, e.Peer, err = p.pair(" <- ")
	case p.lit("arrive "):
		e.Kind = KindArrive
		if e.Proc, e.Peer, err = p.pair(" <- "); err != nil {
			return e, err
		}
		i := p.oneOf(" message ", " exit ", " down ") // cellNames, in tag order
		if i < 0 {
			return e, p.errorf(`expected " message ", " exit " or " down "`)
		}
		e.Cell = CellKind(i)
		e.Seq, err = p.num("the cell's number")
	default:
		w, _, _ := strings.Cut(p.s, " ")
		return e, fmt.Errorf("unknown event %s", quoteShort(w))
	}
	if err != nil {
		return e, err
	}
	return e, p.end()
}
