package parser

import (
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// TestNewPeeking: the mirror layout matches this participle version, and
// the lexer newPeeking builds walks the same tokens as lexer.Upgrade.
func TestNewPeeking(t *testing.T) {
	if !peekMirrorOK {
		t.Fatal("lexer.PeekingLexer layout changed; newPeeking falls back to lexer.Upgrade (update peekMirror)")
	}
	toks := []lexer.Token{{Type: tIdent, Value: "a"}, {Type: tOp, Value: "+"}, {Type: tInt, Value: "1"}}
	eof := lexer.Token{Type: lexer.EOF}
	a := newPeeking(toks, eof)
	b, err := lexer.Upgrade(&sliceLexer{toks: toks, eof: eof})
	if err != nil {
		t.Fatal(err)
	}
	cp := a.MakeCheckpoint()
	for i := 0; i < 5; i++ {
		if *a.Peek() != *b.Peek() || a.RawCursor() != b.RawCursor() || a.Cursor() != b.Cursor() {
			t.Fatalf("step %d: %v/%d vs %v/%d", i, a.Peek(), a.RawCursor(), b.Peek(), b.RawCursor())
		}
		a.Next()
		b.Next()
	}
	if !a.Peek().EOF() {
		t.Fatal("newPeeking lexer does not end at EOF")
	}
	a.LoadCheckpoint(cp)
	if a.Peek().Value != "a" || len(a.Range(0, 3)) != 3 {
		t.Fatal("checkpoint/range")
	}
}
