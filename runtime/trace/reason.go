package trace

import (
	"strconv"
	"strings"
)

// Reason is a Process.ExitReason as the trace shows it (its `show`
// text), validated by the parser.
type Reason string

// reasonNames are the constructors of Process.ExitReason; the ones with
// a payload say which.
var reasonNames = []struct {
	name    string
	payload byte // 0: none, 'n': an Int, 's': a quoted String
}{
	{"Normal", 0}, {"ShutdownDetail", 's'}, {"Shutdown", 0}, {"Fault", 'n'},
	{"Failure", 's'}, {"Killed", 0}, {"Kill", 0}, {"NoProcess", 0},
}

// Tag is the constructor name ("Failure" for `Failure("x")`).
func (r Reason) Tag() string {
	s := string(r)
	if i := strings.IndexByte(s, '('); i >= 0 {
		return s[:i]
	}
	return s
}

// IsNormal reports whether r is Normal.
func (r Reason) IsNormal() bool { return r == "Normal" }

// IsFault reports whether r is Fault(C): a runtime fault (division by
// zero, an internal error as Fault(0), …), as opposed to an exit the
// program asked for.
func (r Reason) IsFault() bool { return r.Tag() == "Fault" }

// Text is the payload text of ShutdownDetail and Failure, unquoted
// ("" for the others).
func (r Reason) Text() string {
	switch r.Tag() {
	case "ShutdownDetail", "Failure":
	default:
		return ""
	}
	s := string(r)
	q := s[strings.IndexByte(s, '(')+1 : len(s)-1]
	var b strings.Builder
	for i := 1; i < len(q)-1; i++ {
		c := q[i]
		if c == '\\' && i+1 < len(q)-1 {
			i++
			switch q[i] {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			default:
				c = q[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// reason reads " REASON".
func (p *lexer) reason() (Reason, error) {
	if err := p.expect(" "); err != nil {
		return "", err
	}
	start := p.pos
	for _, rn := range reasonNames {
		if !p.lit(rn.name) {
			continue
		}
		var err error
		switch rn.payload {
		case 'n':
			err = p.faultCode()
		case 's':
			err = p.textPayload()
		}
		if err != nil {
			return "", err
		}
		return Reason(p.s[start:p.pos]), nil
	}
	return "", p.errorf("expected an exit reason (Normal, Shutdown, ShutdownDetail(\"…\"), Fault(N), Failure(\"…\"), Kill, Killed, NoProcess)")
}

// faultCode reads "(C)", C a canonical Int: Process.signal_exit can
// carry any code, negative ones included.
func (p *lexer) faultCode() error {
	if err := p.expect("("); err != nil {
		return err
	}
	d := p.pos
	if d < len(p.s) && p.s[d] == '-' {
		d++
	}
	i := p.digitsFrom(d)
	if i == d || i-d > 19 || (p.s[d] == '0' && (i-d > 1 || d > p.pos)) {
		return p.errorf("expected a fault code (a canonical Int)")
	}
	if _, err := strconv.ParseInt(p.s[p.pos:i], 10, 64); err != nil {
		return p.errorf("fault code %q is too large", p.s[p.pos:i])
	}
	p.pos = i
	return p.expect(")")
}

// textPayload reads `("TEXT")`.
func (p *lexer) textPayload() error {
	if err := p.expect(`("`); err != nil {
		return err
	}
	if err := p.quoted(); err != nil {
		return err
	}
	return p.expect(")")
}

// quoted reads the rest of a quoted text after its opening quote, up to
// and including the closing one.
func (p *lexer) quoted() error {
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch c {
		case '"':
			p.pos++
			return nil
		case '\\':
			if p.pos+1 >= len(p.s) {
				return p.errorf("unterminated escape")
			}
			switch p.s[p.pos+1] {
			case '"', '\\', 'n', 'r', 't':
				p.pos += 2
			default:
				return p.errorf(`unknown escape \%c`, p.s[p.pos+1])
			}
		default:
			p.pos++
		}
	}
	return p.errorf("unterminated text")
}
