package bytecode

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/morrow-lang/morrow/runtime/value"
)

// The .mrb file format, version 1.
//
// All integers are unsigned LEB128 varints ("uvarint") unless marked
// "svarint" (zig-zag signed varint, encoding/binary's Varint) or given a
// fixed width; fixed-width integers are little-endian. A string is a
// uvarint byte length followed by that many bytes (UTF-8 is not
// required; the bytes are copied as they are).
//
//	header   magic      4 bytes  "MRWB"
//	         version    uint16   FormatVersion (= 1)
//	sections, each:
//	         id         1 byte   section identifier (below)
//	         length     uvarint  payload length in bytes
//	         payload    length bytes
//	trailer  checksum   uint32   CRC-32 (IEEE) of every byte before it
//
// Every section appears exactly once, in this order:
//
//	1 HEAD   source string; entry uvarint; library byte (0 or 1)
//	2 CONST  count uvarint; per constant: kind byte then
//	           kind 1 (Int):    svarint
//	           kind 2 (Float):  uint64 IEEE-754 bits
//	           kind 4 (String): string
//	         (kind bytes are runtime/value.Kind numbers)
//	3 TYPE   count uvarint; per type: name string; kind byte (0 sum,
//	           1 record, 2 newtype); flags byte (1 Show, 2 Eq, 4 Ord);
//	           variant count uvarint; per variant: name string, field
//	           count uvarint, field name strings.
//	           The first three types must be the built-in Option, Result
//	           and Ordering (by name); the decoder re-links them to the
//	           runtime's shared TypeInfo values.
//	4 NATIVE count uvarint; per native: qualified name string
//	5 FUNC   count uvarint; per function:
//	           name string; params, locals, captures, maxstack, flags,
//	           line (all uvarint);
//	           code length uvarint; per instruction: opcode byte, then
//	           one svarint per operand the opcode uses (NumOperands);
//	           line-table length uvarint; per entry: pc delta uvarint
//	           (from the previous entry's pc; the first from 0), line
//	           uvarint.
//
// Decode refuses a file whose magic or version differs, whose checksum
// does not match, whose sections are missing, repeated, out of order or
// longer than the file, or which has bytes left over inside a section.
// Counts are bounded by the bytes that remain, so a hostile count cannot
// make the decoder allocate more than the file could describe.
//
// Version history: 1 = the first format.
const (
	// Magic starts every .mrb file.
	Magic = "MRWB"
	// FormatVersion is the version this package writes and the only one
	// it reads.
	FormatVersion = 1
	// MaxFileBytes bounds a .mrb image (256 MiB, far above what a 1 MiB
	// source compiles to). Decode refuses a larger one, and loaders read
	// at most MaxFileBytes+1 bytes of a file, so a device that never ends
	// is refused instead of read until memory runs out.
	MaxFileBytes = 256 << 20
)

// Section identifiers of the .mrb format.
const (
	secHead   = 1
	secConst  = 2
	secType   = 3
	secNative = 4
	secFunc   = 5
	numSecs   = 5
)

var sectionNames = [...]string{"", "HEAD", "CONST", "TYPE", "NATIVE", "FUNC"}

// flagFile, in the flags of a function in the FUNC section, says that
// the function's source file (Function.File) follows its line. It is an
// encoding bit only: Function.Flags never holds it.
const flagFile FuncFlags = 1 << 31

// Type flag bits in the TYPE section.
const (
	typeShow = 1 << iota
	typeEq
	typeOrd
)

// Encode serialises a program to the .mrb format. The program should be
// verified; Encode itself never fails (nil fields encode as empty).
func Encode(p *Program) []byte {
	if p == nil {
		p = &Program{}
	}
	var out []byte
	out = append(out, Magic...)
	out = binary.LittleEndian.AppendUint16(out, FormatVersion)

	var w writer
	w.head(p)
	out = w.section(out, secHead)
	w.consts(p.Consts)
	out = w.section(out, secConst)
	w.types(p.Types)
	out = w.section(out, secType)
	w.uint(uint64(len(p.Natives)))
	for _, n := range p.Natives {
		w.str(n)
	}
	out = w.section(out, secNative)
	w.uint(uint64(len(p.Functions)))
	for _, f := range p.Functions {
		w.function(f)
	}
	out = w.section(out, secFunc)

	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// head writes the head section: source name, entry and library flag.
func (w *writer) head(p *Program) {
	w.str(p.Source)
	w.uint(uint64(nonneg(p.Entry)))
	if p.Library {
		w.byte(1)
	} else {
		w.byte(0)
	}
}

// consts writes the constant pool.
func (w *writer) consts(cs []value.Value) {
	w.uint(uint64(len(cs)))
	for _, c := range cs {
		w.byte(byte(c.Kind()))
		switch c.Kind() {
		case value.KInt:
			w.sint(c.AsInt())
		case value.KFloat:
			w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(c.AsFloat()))
		case value.KString:
			w.str(c.AsString())
		}
	}
}

// types writes the type table (a nil type as an empty one).
func (w *writer) types(ts []*value.TypeInfo) {
	w.uint(uint64(len(ts)))
	for _, t := range ts {
		if t == nil {
			t = &value.TypeInfo{}
		}
		w.str(t.Name)
		w.byte(byte(t.Kind))
		w.byte(typeFlags(t))
		w.uint(uint64(len(t.Variants)))
		for _, v := range t.Variants {
			w.str(v.Name)
			w.uint(uint64(len(v.Fields)))
			for _, f := range v.Fields {
				w.str(f)
			}
		}
	}
}

// typeFlags are a type's derived traits as the format's flag byte.
func typeFlags(t *value.TypeInfo) byte {
	var flags byte
	if t.Show {
		flags |= typeShow
	}
	if t.Eq {
		flags |= typeEq
	}
	if t.Ord {
		flags |= typeOrd
	}
	return flags
}

// function writes one function (nil as an empty one): header, code and
// line table.
func (w *writer) function(f *Function) {
	if f == nil {
		f = &Function{}
	}
	w.str(f.Name)
	w.uint(uint64(nonneg(f.Params)))
	w.uint(uint64(nonneg(f.Locals)))
	w.uint(uint64(nonneg(f.Captures)))
	w.uint(uint64(nonneg(f.MaxStack)))
	flags := f.Flags
	if f.File != "" {
		flags |= flagFile
	}
	w.uint(uint64(flags))
	w.uint(uint64(nonneg(f.Line)))
	if f.File != "" {
		w.str(f.File)
	}
	w.uint(uint64(len(f.Code)))
	for _, in := range f.Code {
		w.byte(byte(in.Op))
		switch in.Op.NumOperands() {
		case 2:
			w.sint(int64(in.A))
			w.sint(int64(in.B))
		case 1:
			w.sint(int64(in.A))
		}
	}
	w.uint(uint64(len(f.Lines)))
	prev := int32(0)
	for _, e := range f.Lines {
		w.uint(uint64(uint32(e.PC - prev)))
		w.uint(uint64(uint32(e.Line)))
		prev = e.PC
	}
}

func nonneg(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// writer accumulates one section's payload.
type writer struct{ buf []byte }

func (w *writer) byte(b byte)   { w.buf = append(w.buf, b) }
func (w *writer) uint(n uint64) { w.buf = binary.AppendUvarint(w.buf, n) }
func (w *writer) sint(n int64)  { w.buf = binary.AppendVarint(w.buf, n) }
func (w *writer) str(s string)  { w.uint(uint64(len(s))); w.buf = append(w.buf, s...) }
func (w *writer) reset()        { w.buf = w.buf[:0] }

// section appends the section header and payload to out and resets w.
func (w *writer) section(out []byte, id byte) []byte {
	out = append(out, id)
	out = binary.AppendUvarint(out, uint64(len(w.buf)))
	out = append(out, w.buf...)
	w.reset()
	return out
}
