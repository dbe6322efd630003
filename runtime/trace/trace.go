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
	case KindRoot, KindSpawn, KindRestart, KindPort, KindDiscard, KindTrap, KindRetire, KindFatal, KindDeadlock:
		return e.lifeString()
	case KindMonitor, KindDemonitor, KindLink, KindUnlink, KindExitSignal, KindDown:
		return e.relationString()
	case KindSend, KindRecv, KindArrive:
		return e.messageString()
	}
	return e.Kind.String()
}

// spawnString renders the three spawn lines.
func (e Event) spawnString() string {
	switch {
	case e.Kind == KindRoot:
		return fmt.Sprintf("spawn %d root", e.Proc)
	case e.Kind == KindRestart:
		return fmt.Sprintf("spawn %d supervised restart of %d", e.Proc, e.Peer)
	case e.Name == "":
		return fmt.Sprintf("spawn %d by %d", e.Proc, e.Peer)
	}
	return fmt.Sprintf("spawn %d by %d %s", e.Proc, e.Peer, e.Name)
}

// lifeString renders the lines about one process's life: spawn, port,
// discard, trap, retire, fatal and deadlock.
func (e Event) lifeString() string {
	switch e.Kind {
	case KindPort:
		return fmt.Sprintf("port %d", e.Proc)
	case KindDiscard:
		return fmt.Sprintf("discard %d (ResourceLimit)", e.Proc)
	case KindTrap:
		if e.On {
			return fmt.Sprintf("trap %d on", e.Proc)
		}
		return fmt.Sprintf("trap %d off", e.Proc)
	case KindRetire:
		return fmt.Sprintf("retire %d %s", e.Proc, e.Reason)
	case KindFatal:
		return fmt.Sprintf("fatal %d %s", e.Proc, e.Reason)
	case KindDeadlock:
		return "deadlock"
	}
	return e.spawnString()
}

// relationString renders the lines between two processes: monitor,
// demonitor, link, unlink, exit signal and down.
func (e Event) relationString() string {
	switch e.Kind {
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
	case KindExitSignal:
		if e.Direct {
			return fmt.Sprintf("exit signal %d -> %d %s (direct)", e.Proc, e.Peer, e.Reason)
		}
		return fmt.Sprintf("exit signal %d -> %d %s", e.Proc, e.Peer, e.Reason)
	}
	return fmt.Sprintf("down %d -> %d %s", e.Proc, e.Peer, e.Reason)
}

// messageString renders the message lines: send, recv and arrive.
func (e Event) messageString() string {
	switch e.Kind {
	case KindSend:
		suffix := ""
		if int(e.Send) < len(sendSuffix) {
			suffix = sendSuffix[e.Send]
		}
		return fmt.Sprintf("send %d -> %d%s", e.Proc, e.Peer, suffix)
	case KindRecv:
		return fmt.Sprintf("recv %d <- %d", e.Proc, e.Peer)
	}
	return fmt.Sprintf("arrive %d <- %d %s %d", e.Proc, e.Peer, e.Cell, e.Seq)
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
	i := p.digitsFrom(p.pos)
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

// digitsFrom returns the end of the decimal digits starting at i.
func (p *lexer) digitsFrom(i int) int {
	for i < len(p.s) && p.s[i] >= '0' && p.s[i] <= '9' {
		i++
	}
	return i
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

// eventSyntax lists the line kinds by their leading word, in the order
// they are tried; parse reads the rest of the line after the word (the
// spawn kinds set their own Kind).
var eventSyntax = []struct {
	word  string
	kind  Kind
	parse func(*lexer, *Event) error
}{
	{"spawn ", KindSpawn, (*lexer).spawn},
	{"port ", KindPort, (*lexer).port},
	{"discard ", KindDiscard, (*lexer).discard},
	{"monitor ", KindMonitor, (*lexer).monitor},
	{"demonitor ", KindDemonitor, (*lexer).demonitor},
	{"link ", KindLink, (*lexer).linkPair},
	{"unlink ", KindUnlink, (*lexer).linkPair},
	{"trap ", KindTrap, (*lexer).trap},
	{"exit signal ", KindExitSignal, (*lexer).exitSignal},
	{"down ", KindDown, (*lexer).down},
	{"retire ", KindRetire, (*lexer).retire},
	{"fatal ", KindFatal, (*lexer).fatal},
	{"deadlock", KindDeadlock, nil},
	{"send ", KindSend, (*lexer).send},
	{"recv ", KindRecv, (*lexer).fromPeer},
	{"arrive ", KindArrive, (*lexer).arrive},
}

// event parses one line.
func (p *lexer) event() (Event, error) {
	var e Event
	for _, k := range eventSyntax {
		if !p.lit(k.word) {
			continue
		}
		e.Kind = k.kind
		if k.parse != nil {
			if err := k.parse(p, &e); err != nil {
				return e, err
			}
		}
		return e, p.end()
	}
	w, _, _ := strings.Cut(p.s, " ")
	return e, fmt.Errorf("unknown event %s", quoteShort(w))
}

// spawn reads "N root", "N by P [NAME]" or "N supervised restart of M".
func (p *lexer) spawn(e *Event) (err error) {
	if e.Proc, err = p.num("a process"); err != nil {
		return err
	}
	switch {
	case p.lit(" root"):
		e.Kind = KindRoot
	case p.lit(" by "):
		e.Kind = KindSpawn
		if e.Peer, err = p.num("the parent"); err != nil {
			return err
		}
		if p.lit(" ") {
			e.Name, err = p.word()
		}
		return err
	case p.lit(" supervised restart of "):
		e.Kind = KindRestart
		e.Peer, err = p.num("the restarted process")
		return err
	default:
		return p.errorf(`expected " root", " by P" or " supervised restart of M"`)
	}
	return nil
}

// port reads "N".
func (p *lexer) port(e *Event) (err error) {
	e.Proc, err = p.num("a port")
	return err
}

// discard reads "N (ResourceLimit)".
func (p *lexer) discard(e *Event) (err error) {
	if e.Proc, err = p.num("a process"); err != nil {
		return err
	}
	return p.expect(" (ResourceLimit)")
}

// monitor reads "A -> B ref R [(self, inert)]".
func (p *lexer) monitor(e *Event) (err error) {
	if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
		return err
	}
	if err = p.expect(" ref "); err != nil {
		return err
	}
	if e.Ref, err = p.num("a reference"); err != nil {
		return err
	}
	if p.lit(" (self, inert)") {
		if e.Proc != e.Peer {
			return p.errorf("an inert self-monitor names two processes")
		}
		e.Inert = true
	}
	return nil
}

// demonitor reads "A ref R".
func (p *lexer) demonitor(e *Event) (err error) {
	if e.Proc, err = p.num("a process"); err != nil {
		return err
	}
	if err = p.expect(" ref "); err != nil {
		return err
	}
	e.Ref, err = p.num("a reference")
	return err
}

// linkPair reads "A <-> B" (link, unlink).
func (p *lexer) linkPair(e *Event) (err error) {
	e.Proc, e.Peer, err = p.pair(" <-> ")
	return err
}

// fromPeer reads "B <- A" (recv).
func (p *lexer) fromPeer(e *Event) (err error) {
	e.Proc, e.Peer, err = p.pair(" <- ")
	return err
}

// trap reads "N on" or "N off".
func (p *lexer) trap(e *Event) (err error) {
	if e.Proc, err = p.num("a process"); err != nil {
		return err
	}
	switch {
	case p.lit(" on"):
		e.On = true
	case p.lit(" off"):
	default:
		return p.errorf(`expected " on" or " off"`)
	}
	return nil
}

// exitSignal reads "A -> B REASON [(direct)]".
func (p *lexer) exitSignal(e *Event) error {
	if err := p.down(e); err != nil {
		return err
	}
	e.Direct = p.lit(" (direct)")
	return nil
}

// down reads "A -> B REASON".
func (p *lexer) down(e *Event) (err error) {
	if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
		return err
	}
	e.Reason, err = p.reason()
	return err
}

// retire reads "N REASON".
func (p *lexer) retire(e *Event) (err error) {
	if e.Proc, err = p.num("a process"); err != nil {
		return err
	}
	e.Reason, err = p.reason()
	return err
}

// fatal reads "N Fault(C)".
func (p *lexer) fatal(e *Event) error {
	if err := p.retire(e); err != nil {
		return err
	}
	if !e.Reason.IsFault() {
		return p.errorf("a fatal line carries Fault(C), not %s", e.Reason)
	}
	return nil
}

// send reads "A -> B [(dead)|(full)]".
func (p *lexer) send(e *Event) (err error) {
	if e.Proc, e.Peer, err = p.pair(" -> "); err != nil {
		return err
	}
	if i := p.oneOf(sendSuffix[SendDead:]...); i >= 0 {
		e.Send = SendDead + SendStatus(i)
	}
	return nil
}

// arrive reads "B <- A KIND N".
func (p *lexer) arrive(e *Event) (err error) {
	if err = p.fromPeer(e); err != nil {
		return err
	}
	i := p.oneOf(" message ", " exit ", " down ") // cellNames, in tag order
	if i < 0 {
		return p.errorf(`expected " message ", " exit " or " down "`)
	}
	e.Cell = CellKind(i)
	e.Seq, err = p.num("the cell's number")
	return err
}
