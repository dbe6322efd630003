package parser

import (
	"reflect"
	"unsafe"

	"github.com/alecthomas/participle/v2/lexer"
)

// Each declaration chunk, recovered statement and string interpolation is
// parsed from its own participle PeekingLexer. lexer.Upgrade builds one by
// appending the tokens one at a time to a nil slice, which grows it in
// steps (about twice the final size in allocations, and a copy per step);
// that was the largest allocation site of the parser. newPeeking builds the
// same value over a slice we allocate once at its exact size.
//
// PeekingLexer keeps its token slice in an unexported field, so newPeeking
// writes a struct with the identical layout. peekMirrorOK checks that
// layout once through reflection (field names, types and offsets of the
// participle version in go.mod); if a participle upgrade changes it,
// newPeeking falls back to lexer.Upgrade and parsing stays correct.
type peekMirror struct {
	lexer.Checkpoint
	tokens []lexer.Token
	elide  map[lexer.TokenType]bool
}

var peekMirrorOK = func() bool {
	pt := reflect.TypeOf(lexer.PeekingLexer{})
	mt := reflect.TypeOf(peekMirror{})
	if pt.Size() != mt.Size() || pt.NumField() != mt.NumField() {
		return false
	}
	for i := 0; i < pt.NumField(); i++ {
		pf, mf := pt.Field(i), mt.Field(i)
		if pf.Name != mf.Name || pf.Type != mf.Type || pf.Offset != mf.Offset {
			return false
		}
	}
	// the zero checkpoint must mean "at the first token": Upgrade leaves
	// the cursors at 0 when nothing is elided
	ct := reflect.TypeOf(lexer.Checkpoint{})
	for i := 0; i < ct.NumField(); i++ {
		if k := ct.Field(i).Type.Kind(); k != reflect.Int {
			return false
		}
	}
	return true
}()

// newPeeking returns a PeekingLexer over toks followed by eof, as
// lexer.Upgrade(&sliceLexer{toks, eof}) would (no token type is elided).
func newPeeking(toks []lexer.Token, eof lexer.Token) *lexer.PeekingLexer {
	if !peekMirrorOK {
		pl, _ := lexer.Upgrade(&sliceLexer{toks: toks, eof: eof}) // sliceLexer never fails
		return pl
	}
	all := make([]lexer.Token, len(toks)+1)
	copy(all, toks)
	all[len(toks)] = eof
	m := &peekMirror{tokens: all}
	return (*lexer.PeekingLexer)(unsafe.Pointer(m))
}
