package parser

import "github.com/alecthomas/participle/v2/lexer"

// The grammar, in participle's notation. These structs are a concrete
// syntax tree: they mirror the token stream closely, keep binary
// expressions flat (operands and operators in source order) and are
// lowered once into lang/ast by lower.go, which applies precedence,
// desugars pipes and reinterprets parenthesised groups as lambdas or types
// where the grammar cannot tell.
//
// Every struct that needs a span has a Tokens field, which its matcher
// fills with the tokens the struct consumed.
//
// Every production is matched by hand (exprparse.go, declparse.go,
// braceparse.go); their Parse methods are the entry points. The tags are
// not read by participle: they document
// the grammar the matchers implement, with participle's semantics at
// lookahead 0 (see declparse.go), and the expectations in the matchers'
// errors are written in the same notation. The tests pin the grammar down.

type gDecl struct {
	Tokens  []lexer.Token
	Pub     bool       `parser:"@'pub'?"`
	Fn      *gFn       `parser:"( @@"`
	Type    *gTypeDecl `parser:"| @@"`
	Newtype *gNewtype  `parser:"| @@ )"`
}

type gName struct {
	Tokens []lexer.Token
	Name   string `parser:"@Ident"`
}

type gFn struct {
	Tokens []lexer.Token
	Name   *gName    `parser:"'fn' @@"`
	Params []*gParam `parser:"'(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')'"`
	Arrow  *gExpr    `parser:"( '->' @@ )?"`
	Colon  bool      `parser:"( @':'"`
	Body   *gBody    `parser:"  @@ )?"`
}

type gParam struct {
	Tokens []lexer.Token
	Label  *gName    `parser:"( (?= Ident Ident) @@ )?"`
	Pat    *gPattern `parser:"@@"`
	Type   *gType    `parser:"( ':' @@ )?"`
}

type gTypeDecl struct {
	Tokens []lexer.Token
	Name   *gName       `parser:"'type' @@"`
	Params []string     `parser:"( '(' ( @Ident ( (?! ',' ')') ',' @Ident )* ','? )? ')' )?"`
	Derive []*gName     `parser:"( 'derive' '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')' )?"`
	Alias  *gType       `parser:"( '=' ( Newline Indent @@ Newline Dedent | @@ )"`
	Colon  bool         `parser:"| @':'"`
	Lines  []*gTypeLine `parser:"  ( (?= Newline Indent) Newline Indent @@+ Dedent )? )"`
}

type gTypeLine struct {
	Tokens    []lexer.Token
	Name      *gName     `parser:"@@"`
	FieldType *gType     `parser:"( ':' @@ )?"`
	Paren     bool       `parser:"( @'('"`
	Fields    []*gVField `parser:"  ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')' )? Newline"`
}

type gVField struct {
	Tokens []lexer.Token
	Name   string `parser:"( (?= Ident ':') @Ident ':' )?"`
	Type   *gType `parser:"@@"`
}

type gNewtype struct {
	Tokens []lexer.Token
	Name   *gName   `parser:"'newtype' @@"`
	Params []string `parser:"( '(' ( @Ident ( (?! ',' ')') ',' @Ident )* ','? )? ')' )?"`
	Derive []*gName `parser:"( 'derive' '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')' )?"`
	Ctor   string   `parser:"'=' @Ident"`
	Type   *gType   `parser:"'(' @@ ')'"`
}

// ---------------------------------------------------------------- types

type gType struct {
	Tokens []lexer.Token
	Alts   []*gTypeAtom `parser:"@@ ( '|' @@ )*"`
}

type gTypeAtom struct {
	Tokens []lexer.Token
	Fn     *gFnType    `parser:"  @@"`
	Paren  *gTypeParen `parser:"| @@"`
	Named  *gNamedType `parser:"| @@"`
}

type gFnType struct {
	Tokens []lexer.Token
	Params []*gType   `parser:"'fn' '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')'"`
	Ret    *gTypeAtom `parser:"'->' @@"`
}

type gTypeParen struct {
	Tokens []lexer.Token
	Elems  []*gType   `parser:"'(' ( @@ ( (?! ',' ')') ',' @@ )*"`
	Trail  bool       `parser:"  @','? )? ')'"`
	Ret    *gTypeAtom `parser:"( '->' @@ )?"`
}

type gNamedType struct {
	Tokens []lexer.Token
	Parts  []string `parser:"@Ident ( '.' @Ident )*"`
	Args   []*gType `parser:"( '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')' )?"`
}

// ---------------------------------------------------------------- statements

type gBody struct {
	Tokens []lexer.Token
	Block  *gBlock `parser:"  @@"`
	Defer  *gExpr  `parser:"| 'defer' @@"`
	Expr   *gExpr  `parser:"| @@"`
}

type gBlock struct {
	Tokens []lexer.Token
	Stmts  []*gStmt `parser:"Newline Indent @@+ Dedent"`
}

type gStmt struct {
	Tokens []lexer.Token
	Let    *gLet  `parser:"( @@"`
	Defer  *gExpr `parser:"| 'defer' @@"`
	Expr   *gExpr `parser:"| @@ )"`
	Cond   *gExpr `parser:"( 'if' @@ )? Newline"`
}

type gLet struct {
	Tokens []lexer.Token
	Pat    *gPattern `parser:"'let' @@"`
	Type   *gType    `parser:"( ':' @@ )?"`
	Value  *gExpr    `parser:"'=' @@"`
	Else   *gBody    `parser:"( 'else' ':' @@ )?"`
}

// ---------------------------------------------------------------- expressions

type gExpr struct {
	Tokens []lexer.Token
	First  *gUnary   `parser:"@@"`
	Rest   []*gBinOp `parser:"@@*"`
}

type gBinOp struct {
	Tokens []lexer.Token
	Op     string  `parser:"@( BinOp | 'and' | 'or' | 'in' )"`
	X      *gUnary `parser:"@@"`
}

type gUnary struct {
	Tokens []lexer.Token
	Ops    []string  `parser:"@( '-' | 'not' | '~~~' )*"`
	X      *gPostfix `parser:"@@"`
}

type gPostfix struct {
	Tokens []lexer.Token
	X      *gPrimary  `parser:"@@"`
	Suf    []*gSuffix `parser:"@@*"`
}

type gSuffix struct {
	Tokens []lexer.Token
	Call   *gCallArgs `parser:"  @@"`
	Field  string     `parser:"| '.' @( Ident | Keyword | Int )"`
	Index  *gExpr     `parser:"| '[' @@ ']'"`
	Try    bool       `parser:"| @'?'"`
}

type gCallArgs struct {
	Tokens []lexer.Token
	Open   bool    `parser:"@'('"`
	Args   []*gArg `parser:"( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')'"`
}

type gArg struct {
	Tokens []lexer.Token
	Label  string `parser:"( (?= Ident ':') @Ident ':' )?"`
	Value  *gExpr `parser:"@@"`
}

type gPrimary struct {
	Tokens   []lexer.Token
	Name     *string    `parser:"  @( Ident | 'spawn' | 'send' )"`
	Int      *string    `parser:"| @Int"`
	Str      *string    `parser:"| @String"`
	Paren    *gParen    `parser:"| @@"`
	List     *gList     `parser:"| @@"`
	True     bool       `parser:"| @'true'"`
	False    bool       `parser:"| @'false'"`
	Float    *string    `parser:"| @Float"`
	If       *gIf       `parser:"| @@"`
	Match    *gMatch    `parser:"| @@"`
	FnLam    *gFnLambda `parser:"| @@"`
	Return   *gReturn   `parser:"| @@"`
	Brace    *gBrace    `parser:"| @@"`
	Recv     *gReceive  `parser:"| @@"`
	For      *gFor      `parser:"| @@"`
	Break    bool       `parser:"| @'break'"`
	Continue bool       `parser:"| @'continue'"`
	With     *gWith     `parser:"| @@"`
}

type gParen struct {
	Tokens []lexer.Token
	Elems  []*gParenElem `parser:"'(' ( @@ ( (?! ',' ')') ',' @@ )*"`
	Trail  bool          `parser:"  @','? )? ')'"`
	Arrow  bool          `parser:"( @'->'"`
	Body   *gBody        `parser:"  @@ )?"`
}

type gParenElem struct {
	Tokens []lexer.Token
	X      *gExpr `parser:"@@"`
	Type   *gType `parser:"( ':' @@ )?"`
}

type gList struct {
	Tokens []lexer.Token
	Elems  []*gExpr `parser:"'[' ( @@ ( (?! ',' ']') ',' @@ )* ','? )? ']'"`
}

type gBrace struct {
	Tokens []lexer.Token
	Open   bool         `parser:"@'%{'"`
	First  *gExpr       `parser:"( @@"`
	Upd    []*gFieldSet `parser:"  ( '|' @@ ( (?! ',' '}') ',' @@ )* ','?"`
	MapV   *gExpr       `parser:"  | ':' @@"`
	More   []*gKV       `parser:"    ( (?! ',' '}') ',' @@ )* ','? ) )? '}'"`
}

type gFieldSet struct {
	Tokens []lexer.Token
	Name   string `parser:"@Ident ':'"`
	Value  *gExpr `parser:"@@"`
}

type gKV struct {
	Tokens []lexer.Token
	Key    *gExpr `parser:"@@ ':'"`
	Value  *gExpr `parser:"@@"`
}

type gFnLambda struct {
	Tokens []lexer.Token
	Params []*gParam `parser:"'fn' '(' ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')'"`
	Body   *gBody    `parser:"'->' @@"`
}

type gIf struct {
	Tokens []lexer.Token
	Cond   *gExpr `parser:"'if' @@ ':'"`
	Then   *gBody `parser:"@@"`
	Else   *gBody `parser:"( 'else' ':' @@ )?"`
}

type gArmPat struct {
	Tokens []lexer.Token
	Pat    *gPattern `parser:"@@"`
	Type   *gType    `parser:"( ':' @@ )?"`
}

type gArm struct {
	Tokens []lexer.Token
	Pat    *gArmPat `parser:"@@"`
	Guard  *gExpr   `parser:"( 'if' @@ )?"`
	Body   *gBody   `parser:"'->' @@"`
}

type gMatch struct {
	Tokens  []lexer.Token
	Cond    *gCondBody `parser:"'match' ( ':' @@"`
	Subject *gExpr     `parser:"| @@ ':'"`
	Arms    []*gArm    `parser:"( Newline Indent ( @@ Newline )+ Dedent"`
	Inline  []*gArm    `parser:"| @@ ( ',' @@ )* ) )"`
}

type gCondArm struct {
	Tokens []lexer.Token
	Cond   *gExpr `parser:"@@"`
	Body   *gBody `parser:"'->' @@"`
}

type gCondBody struct {
	Tokens []lexer.Token
	Arms   []*gCondArm `parser:"( Newline Indent ( @@ Newline )+ Dedent"`
	Inline []*gCondArm `parser:"| @@ ( ',' @@ )* )"`
}

type gRecvArm struct {
	Tokens []lexer.Token
	After  *gExpr   `parser:"( 'after' @@"`
	Pat    *gArmPat `parser:"| @@"`
	After2 *gExpr   `parser:"  ( 'after' @@"`
	Guard  *gExpr   `parser:"  | 'if' @@ )? )"`
	Body   *gBody   `parser:"'->' @@"`
}

type gReceive struct {
	Tokens []lexer.Token
	Kw     string      `parser:"@( 'receive' | 'receive_event' ) ':'"`
	Arms   []*gRecvArm `parser:"( Newline Indent ( @@ Newline )+ Dedent"`
	Inline []*gRecvArm `parser:"| @@ ( ',' @@ )* )"`
}

type gFor struct {
	Tokens []lexer.Token
	Pat    *gPattern `parser:"'for' @@"`
	Iter   *gExpr    `parser:"'in' @@ ':'"`
	Body   *gBody    `parser:"@@"`
}

type gReturn struct {
	Tokens []lexer.Token
	Kw     bool   `parser:"@'return'"`
	X      *gExpr `parser:"@@?"`
}

type gWithStep struct {
	Tokens []lexer.Token
	Pat    *gPattern `parser:"@@ '<-'"`
	X      *gExpr    `parser:"@@"`
}

type gWith struct {
	Tokens []lexer.Token
	Steps  []*gWithStep `parser:"'with' ( Newline Indent @@ ( ',' Newline? @@ )* Newline Dedent"`
	Inline []*gWithStep `parser:"       | @@ ( ',' @@ )* )"`
	Body   *gBody       `parser:"'do' ':'? @@"`
	Else   []*gArm      `parser:"( 'else' ':'? ( Newline Indent ( @@ Newline )+ Dedent | @@ ( ',' @@ )* ) )?"`
}

// ---------------------------------------------------------------- patterns

type gPattern struct {
	Tokens []lexer.Token
	Neg    *gNegLit   `parser:"( @@"`
	Int    *string    `parser:"| @Int"`
	Float  *string    `parser:"| @Float"`
	Str    *string    `parser:"| @String"`
	True   bool       `parser:"| @'true'"`
	False  bool       `parser:"| @'false'"`
	Tuple  *gPatParen `parser:"| @@"`
	List   *gPatList  `parser:"| @@"`
	Ctor   *gPatName  `parser:"| @@ )"`
}

type gNegLit struct {
	Tokens []lexer.Token
	Int    *string `parser:"'-' ( @Int"`
	Float  *string `parser:"| @Float )"`
}

type gPatParen struct {
	Tokens []lexer.Token
	Elems  []*gPattern `parser:"'(' ( @@ ( (?! ',' ')') ',' @@ )*"`
	Trail  bool        `parser:"  @','? )? ')'"`
	// Rest is a trailing `..name`, `.._` or `..`, parsed by gPattern.Parse.
	Rest *gPatElem
}

type gPatList struct {
	Tokens []lexer.Token
	Elems  []*gPatElem `parser:"'[' ( @@ ( (?! ',' ']') ',' @@ )* ','? )? ']'"`
}

type gPatElem struct {
	Tokens []lexer.Token
	Rest   bool      `parser:"( @'..'"`
	Name   string    `parser:"  @Ident?"`
	Pat    *gPattern `parser:"| @@ )"`
}

type gPatName struct {
	Tokens []lexer.Token
	Parts  []string    `parser:"@Ident ( '.' @( Ident | Keyword ) )*"`
	Parens bool        `parser:"( @'('"`
	Args   []*gPattern `parser:"  ( @@ ( (?! ',' ')') ',' @@ )* ','? )? ')' )?"`
}
