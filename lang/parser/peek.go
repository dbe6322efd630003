package parser

import "github.com/alecthomas/participle/v2/lexer"

// newPeeking returns a participle PeekingLexer over toks followed by eof.
// lexer.Upgrade, participle's public constructor, copies the tokens.
func newPeeking(toks []lexer.Token, eof lexer.Token) *lexer.PeekingLexer {
	pl, _ := lexer.Upgrade(&sliceLexer{toks: toks, eof: eof}) // sliceLexer never fails
	return pl
}
