// Package source holds Morrow source files and maps byte offsets to
// human positions.
//
// Every node of the syntax tree carries a Span of byte offsets into one
// File. Offsets are cheap to store and compare; a File turns them into
// 1-based line and column numbers on demand. Columns count Unicode code
// points (what diagnostics show to people); UTF16Column gives the column
// the Language Server Protocol wants.
package source

import (
	"sort"
	"unicode/utf8"
)

// File is one source text with a line table.
type File struct {
	Name  string // path as given by the user, used in diagnostics
	Src   []byte
	lines []int // byte offset of the start of each line
	parts []Part
}

// Part is one file inside a combined program text (Combine): its text
// starts at byte Base of the combined text.
type Part struct {
	Base int
	File *File
}

// Combine joins the texts of several files into one File, so that a tree
// built from all of them (lang/modules) keeps one offset space. Lines and
// positions of the combined file are those of the part an offset falls
// in; Locate maps an offset back to its part. Each part starts at the
// returned base.
func Combine(name string, files []*File) (*File, []int) {
	var src []byte
	bases := make([]int, len(files))
	parts := make([]Part, len(files))
	for i, f := range files {
		bases[i] = len(src)
		parts[i] = Part{Base: len(src), File: f}
		src = append(src, f.Src...)
		src = append(src, '\n')
	}
	c := NewFile(name, src)
	c.parts = parts
	return c, bases
}

// Locate returns the file an offset belongs to and the offset inside it:
// for a combined file, the part holding off; otherwise f itself.
func (f *File) Locate(off int) (*File, int) {
	if len(f.parts) == 0 {
		return f, off
	}
	i := sort.Search(len(f.parts), func(i int) bool { return f.parts[i].Base > off }) - 1
	if i < 0 {
		i = 0
	}
	p := f.parts[i]
	return p.File, p.File.clamp(off - p.Base)
}

// Parts returns the parts of a combined file (nil for an ordinary one).
func (f *File) Parts() []Part { return f.parts }

// NewFile builds a File and its line table.
func NewFile(name string, src []byte) *File {
	f := &File{Name: name, Src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// Span is a half-open byte range [Start, End) in one file.
type Span struct {
	Start, End int
}

// Join returns the smallest span covering both a and b.
func Join(a, b Span) Span {
	if b.Start < a.Start {
		a.Start = b.Start
	}
	if b.End > a.End {
		a.End = b.End
	}
	return a
}

// Position is a resolved location: 1-based line, 1-based column in code
// points, and the byte offset it came from.
type Position struct {
	Offset int
	Line   int
	Column int
}

// clamp keeps an offset inside the file.
func (f *File) clamp(off int) int {
	if off < 0 {
		return 0
	}
	if off > len(f.Src) {
		return len(f.Src)
	}
	return off
}

// Line returns the 1-based line that contains the byte offset.
func (f *File) Line(off int) int {
	if f.parts != nil {
		p, o := f.Locate(off)
		return p.Line(o)
	}
	off = f.clamp(off)
	return sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off })
}

// LineNear is Line for an offset that is probably on line near or a line
// or two after it (a previous result, when offsets are asked in source
// order): then it costs a comparison or two instead of a binary search.
// Any near gives the right line.
func (f *File) LineNear(off, near int) int {
	if f.parts != nil {
		return f.Line(off)
	}
	off = f.clamp(off)
	for l := max(near, 1); l <= len(f.lines) && l < near+3; l++ {
		if f.lines[l-1] > off {
			break
		}
		if l == len(f.lines) || off < f.lines[l] {
			return l
		}
	}
	return f.Line(off)
}

// Position resolves a byte offset.
func (f *File) Position(off int) Position {
	if f.parts != nil {
		p, o := f.Locate(off)
		return p.Position(o)
	}
	off = f.clamp(off)
	line := f.Line(off)
	start := f.lines[line-1]
	return Position{Offset: off, Line: line, Column: utf8.RuneCount(f.Src[start:off]) + 1}
}

// UTF16Column returns the 0-based UTF-16 column of a byte offset, as LSP
// positions count characters.
func (f *File) UTF16Column(off int) int {
	off = f.clamp(off)
	start := f.lines[f.Line(off)-1]
	n := 0
	for _, r := range string(f.Src[start:off]) {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// LineCount is the number of lines (a trailing newline starts an empty one).
func (f *File) LineCount() int { return len(f.lines) }

// LineText returns the text of a 1-based line without its newline.
func (f *File) LineText(line int) string {
	if line < 1 || line > len(f.lines) {
		return ""
	}
	start := f.lines[line-1]
	end := len(f.Src)
	if line < len(f.lines) {
		end = f.lines[line] - 1
	}
	if end > start && f.Src[end-1] == '\r' {
		end--
	}
	return string(f.Src[start:end])
}

// LineStart returns the byte offset where a 1-based line starts.
func (f *File) LineStart(line int) int {
	if line < 1 {
		return 0
	}
	if line > len(f.lines) {
		return len(f.Src)
	}
	return f.lines[line-1]
}
