package bytecode

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/morrow-lang/morrow/runtime/value"
)

// DecodeError is a refusal to decode a .mrb image. Its message is one line.
type DecodeError struct{ Msg string }

// Error returns the one-line message.
func (e *DecodeError) Error() string { return e.Msg }

// ErrTruncated is wrapped by the errors for images that end early.
var ErrTruncated = errors.New("truncated bytecode file")

func decodeErr(format string, args ...any) error {
	return &DecodeError{Msg: fmt.Sprintf(format, args...)}
}

// Decode reads a .mrb image (format in encode.go). It never panics on
// truncated, corrupted or hostile input: every problem is an error with a
// one-line message. Decode does not verify the program; call Verify.
func Decode(b []byte) (p *Program, err error) {
	defer func() {
		// Defence in depth: the decoder checks every bound, but a bug
		// must still not crash the runner.
		if r := recover(); r != nil {
			p, err = nil, decodeErr("corrupted bytecode file (%v)", r)
		}
	}()
	if err := checkImageHeader(b); err != nil {
		return nil, err
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return nil, decodeErr("corrupted or truncated bytecode file (checksum mismatch)")
	}
	r := &reader{buf: body, off: len(Magic) + 2}
	p = &Program{}
	for id := byte(1); id <= numSecs; id++ {
		if err := readSection(r, id, p); err != nil {
			return nil, err
		}
	}
	if r.off != len(r.buf) {
		return nil, decodeErr("corrupted bytecode file: %d unexpected bytes after the last section", len(r.buf)-r.off)
	}
	return p, nil
}

// checkImageHeader checks an image's size limit, magic number, format version
// and that it is long enough for its checksum.
func checkImageHeader(b []byte) error {
	if len(b) > MaxFileBytes {
		return decodeErr("bytecode file is larger than the %d-byte limit", MaxFileBytes)
	}
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		if len(b) < len(Magic) && string(b) == Magic[:len(b)] {
			return ErrTruncated
		}
		return decodeErr("not a Morrow bytecode file (bad magic number)")
	}
	if len(b) < len(Magic)+2 {
		return ErrTruncated
	}
	if v := binary.LittleEndian.Uint16(b[len(Magic):]); v != FormatVersion {
		return decodeErr("bytecode format version %d is not supported (this runtime reads version %d); rebuild the program with morrowc", v, FormatVersion)
	}
	if len(b) < len(Magic)+2+4 {
		return ErrTruncated
	}
	return nil
}

// readSection reads section id (its id byte, length and payload) into p,
// reporting a missing, misplaced, malformed or overlong section.
func readSection(r *reader, id byte, p *Program) error {
	got, ok := r.byte()
	if !ok {
		return decodeErr("bytecode file lacks the %s section", sectionNames[id])
	}
	if got != id {
		if got >= 1 && got <= numSecs {
			return decodeErr("corrupted bytecode file: section %s where %s was expected", sectionNames[got], sectionNames[id])
		}
		return decodeErr("corrupted bytecode file: unknown section %d", got)
	}
	n, ok := r.count()
	if !ok {
		return decodeErr("corrupted bytecode file: %s section longer than the file", sectionNames[id])
	}
	sr := &reader{buf: r.buf[r.off : r.off+n]}
	r.off += n
	if err := decodeSection(sr, id, p); err != nil {
		return err
	}
	if sr.bad {
		return decodeErr("corrupted bytecode file: %s section is malformed", sectionNames[id])
	}
	if sr.off != len(sr.buf) {
		return decodeErr("corrupted bytecode file: %d unexpected bytes at the end of the %s section", len(sr.buf)-sr.off, sectionNames[id])
	}
	return nil
}

// decodeSection reads the payload of section id into p. Read failures
// set r.bad; the caller reports them.
func decodeSection(r *reader, id byte, p *Program) error {
	switch id {
	case secHead:
		decodeHead(r, p)
	case secConst:
		return decodeConsts(r, p)
	case secType:
		return decodeTypes(r, p)
	case secNative:
		n, _ := r.count()
		p.Natives = makeSlice[string](n)
		for i := 0; i < n && !r.bad; i++ {
			p.Natives = append(p.Natives, r.str())
		}
	case secFunc:
		return decodeFuncs(r, p)
	}
	return nil
}

// decodeHead reads the head section: source name, entry and library flag.
func decodeHead(r *reader, p *Program) {
	p.Source = r.str()
	p.Entry = r.int()
	switch lib, _ := r.byte(); lib {
	case 0:
	case 1:
		p.Library = true
	default:
		r.bad = true
	}
}

// decodeConsts reads the constant pool.
func decodeConsts(r *reader, p *Program) error {
	n, _ := r.count()
	p.Consts = makeSlice[value.Value](n)
	for i := 0; i < n && !r.bad; i++ {
		k, _ := r.byte()
		switch value.Kind(k) {
		case value.KInt:
			p.Consts = append(p.Consts, value.Int(r.sint()))
		case value.KFloat:
			p.Consts = append(p.Consts, value.Float(math.Float64frombits(r.u64())))
		case value.KString:
			p.Consts = append(p.Consts, value.String(r.str()))
		default:
			return decodeErr("corrupted bytecode file: constant %d has kind %d", i, k)
		}
	}
	return nil
}

// decodeTypes reads the type table; its first entries must name the
// built-in types, which stand for themselves.
func decodeTypes(r *reader, p *Program) error {
	n, _ := r.count()
	p.Types = makeSlice[*value.TypeInfo](n)
	builtins := BuiltinTypes()
	for i := 0; i < n && !r.bad; i++ {
		t := decodeType(r)
		if t == nil {
			break
		}
		if i < len(builtins) {
			if t.Name != builtins[i].Name {
				return decodeErr("corrupted bytecode file: type %d is %q, want the built-in %s", i, t.Name, builtins[i].Name)
			}
			t = builtins[i]
		}
		p.Types = append(p.Types, t)
	}
	return nil
}

// decodeType reads one type: name, kind, flags and variants. It returns
// nil (and sets r.bad) for an unknown kind or flag.
func decodeType(r *reader) *value.TypeInfo {
	t := &value.TypeInfo{Name: r.str()}
	kind, _ := r.byte()
	flags, _ := r.byte()
	if kind > byte(value.TNewtype) || flags&^(typeShow|typeEq|typeOrd) != 0 {
		r.bad = true
		return nil
	}
	t.Kind = value.TypeKind(kind)
	t.Show, t.Eq, t.Ord = flags&typeShow != 0, flags&typeEq != 0, flags&typeOrd != 0
	nv, _ := r.count()
	t.Variants = makeSlice[value.VariantInfo](nv)
	for j := 0; j < nv && !r.bad; j++ {
		v := value.VariantInfo{Name: r.str()}
		nf, _ := r.count()
		if nf > 0 {
			v.Fields = make([]string, 0, nf)
		}
		for k := 0; k < nf && !r.bad; k++ {
			v.Fields = append(v.Fields, r.str())
		}
		t.Variants = append(t.Variants, v)
	}
	return t
}

// decodeFuncs reads the function table.
func decodeFuncs(r *reader, p *Program) error {
	n, _ := r.count()
	p.Functions = makeSlice[*Function](n)
	for i := 0; i < n && !r.bad; i++ {
		f, err := decodeFunc(r, i)
		if err != nil {
			return err
		}
		p.Functions = append(p.Functions, f)
	}
	return nil
}

// decodeFunc reads function i: its header, code and line table.
func decodeFunc(r *reader, i int) (*Function, error) {
	f := &Function{Name: r.str()}
	f.Params = r.int()
	f.Locals = r.int()
	f.Captures = r.int()
	f.MaxStack = r.int()
	f.Flags = FuncFlags(r.uint32())
	f.Line = r.int()
	if f.Flags&flagFile != 0 {
		f.Flags &^= flagFile
		if f.File = r.str(); f.File == "" {
			r.bad = true
		}
	}
	code, err := decodeCode(r, i)
	if err != nil {
		return nil, err
	}
	f.Code = code
	f.Lines = decodeLines(r)
	return f, nil
}

// decodeCode reads the instructions of function i.
func decodeCode(r *reader, i int) ([]Instr, error) {
	nc, _ := r.count()
	code := makeSlice[Instr](nc)
	for j := 0; j < nc && !r.bad; j++ {
		op, _ := r.byte()
		if Opcode(op) >= OpcodeCount {
			return nil, decodeErr("corrupted bytecode file: function %d has unknown opcode %d", i, op)
		}
		in := Instr{Op: Opcode(op)}
		switch in.Op.NumOperands() {
		case 2:
			in.A = r.i32()
			in.B = r.i32()
		case 1:
			in.A = r.i32()
		}
		code = append(code, in)
	}
	return code, nil
}

// decodeLines reads a function's line table (pc deltas and lines).
func decodeLines(r *reader) []LineEntry {
	nl, _ := r.count()
	var lines []LineEntry
	if nl > 0 {
		lines = make([]LineEntry, 0, nl)
	}
	pc := int64(0)
	for j := 0; j < nl && !r.bad; j++ {
		pc += int64(r.uint32())
		line := r.uint32()
		if pc > math.MaxInt32 || line > math.MaxInt32 {
			r.bad = true
			break
		}
		lines = append(lines, LineEntry{PC: int32(pc), Line: int32(line)})
	}
	return lines
}

// reader reads the primitive encodings of encode.go from a byte slice.
// Any failure sets bad and returns a zero value, so decoding code can read
// a whole record and check once.
type reader struct {
	buf []byte
	off int
	bad bool
}

func (r *reader) byte() (byte, bool) {
	if r.bad || r.off >= len(r.buf) {
		r.bad = true
		return 0, false
	}
	b := r.buf[r.off]
	r.off++
	return b, true
}

func (r *reader) uvarint() uint64 { return varint(r, binary.Uvarint) }

func (r *reader) sint() int64 { return varint(r, binary.Varint) }

// varint reads one varint with read (binary.Uvarint or binary.Varint);
// a truncated or overlong one makes r bad.
func varint[T uint64 | int64](r *reader, read func([]byte) (T, int)) T {
	if r.bad {
		return 0
	}
	v, n := read(r.buf[r.off:])
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.off += n
	return v
}

// i32 reads an svarint that must fit an int32 operand.
func (r *reader) i32() int32 { return within[int32](r, r.sint(), math.MinInt32, math.MaxInt32) }

// uint32 reads a uvarint that must fit 32 bits.
func (r *reader) uint32() uint32 { return within[uint32](r, r.uvarint(), 0, math.MaxUint32) }

// int reads a uvarint that must fit a non-negative int32 (sizes, indexes).
func (r *reader) int() int { return within[int](r, r.uvarint(), 0, math.MaxInt32) }

// within converts v, read as a varint, to T if it lies in lo..hi;
// otherwise it makes r bad and returns 0.
func within[T int32 | uint32 | int, V int64 | uint64](r *reader, v, lo, hi V) T {
	if v < lo || v > hi {
		r.bad = true
		return 0
	}
	return T(v)
}

// count reads an element count or byte length; it must not exceed the
// bytes left (every element takes at least one byte), which bounds every
// allocation by the input size.
func (r *reader) count() (int, bool) {
	v := r.uvarint()
	if r.bad || v > uint64(len(r.buf)-r.off) {
		r.bad = true
		return 0, false
	}
	return int(v), true
}

func (r *reader) u64() uint64 {
	if r.bad || len(r.buf)-r.off < 8 {
		r.bad = true
		return 0
	}
	v := binary.LittleEndian.Uint64(r.buf[r.off:])
	r.off += 8
	return v
}

func (r *reader) str() string {
	n, ok := r.count()
	if !ok {
		return ""
	}
	s := string(r.buf[r.off : r.off+n])
	r.off += n
	return s
}

// makeSlice returns an empty slice with capacity n, or nil when n is 0, so
// decoded programs compare equal to freshly built ones.
func makeSlice[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, 0, n)
}
