// Package ast is Morrow's syntax tree.
//
// The parser (lang/parser) builds it from its concrete grammar structs,
// so the checker and code generator never see grammar layers.
// Every node records the byte span it came from. The tree is not mutated
// after parsing: the checker records its results in side tables keyed by
// node pointer (types.Info), and codegen reads those. Inspect (walk.go) is
// the one generic traversal: it knows the children of every node kind.
//
// Naming conventions the parser guarantees:
//   - A dotted chain whose first segment starts with an uppercase letter
//     (`List.map`, `Process.Normal`, `Process.ExitReason.Normal`, `Shape.Circle`)
//     is a *Path. A chain that starts with a lowercase name is field access
//     (`user.name` is *FieldAccess{X: *Ident}).
//   - `Process.spawn` is a Path even though `spawn` is a reserved word.
//   - A lone name (`x`, `Some`, `println`, `spawn`) is an *Ident.
//   - Pipes are desugared: `x |> f(a)` becomes Call f(x, a) and
//     `x |> f(a, _)` becomes f(a, x) with Call.Piped set to the index of the
//     piped argument; x is still evaluated first.
//   - Unary minus on an Int or Float literal is folded into the literal.
package ast

import "github.com/morrow-lang/morrow/lang/source"

// Node is anything with a source span.
type Node interface {
	Span() source.Span
}

// Pos is embedded in every node.
type Pos struct {
	S source.Span
}

func (p Pos) Span() source.Span { return p.S }

// File is one parsed source file.
type File struct {
	Pos
	Src   *source.File
	Decls []Decl
}

// ---------------------------------------------------------------- declarations

// Decl is a top-level declaration.
type Decl interface {
	Node
	declNode()
}

// FnDecl is `[pub] fn name(params) [-> Ret]: body` or `fn name(params) -> expr`.
type FnDecl struct {
	Pos
	Pub      bool
	Name     string
	NameSpan source.Span
	Params   []*Param
	Ret      TypeExpr // nil when not written
	Body     Expr     // *Block for block bodies; any expression for inline/arrow bodies
	Arrow    bool     // arrow-body syntax `fn f(x) -> expr`
	Docs     string   // @doc text, if any (ignored by the checker)
}

// Param is one parameter of a function or lambda.
type Param struct {
	Pos
	Label   string   // explicit external label (`label name: T`), or ""
	Name    string   // binding name; "" when Pattern is set
	Pattern Pattern  // destructuring parameter such as `UserId(v): UserId`; nil otherwise
	Type    TypeExpr // nil when not written
}

// ExternalLabel is the label a caller writes for this parameter.
func (p *Param) ExternalLabel() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Name
}

// TypeKind says which body a type declaration has.
type TypeKind int

const (
	SumType    TypeKind = iota // variants
	RecordType                 // fields
	AliasType                  // `type A = T`
)

// TypeDecl is `[pub] type Name(params) [derive(...)]:` with variants or
// fields, or `type Name = T`.
type TypeDecl struct {
	Pos
	Pub      bool
	Name     string
	NameSpan source.Span
	Params   []string // type parameters (lowercase)
	Derives  []Ident
	Kind     TypeKind
	Variants []*Variant // SumType
	Fields   []*Field   // RecordType
	Alias    TypeExpr   // AliasType (may be a *UnionType)
}

// Variant is one constructor of a sum type.
type Variant struct {
	Pos
	Name   string
	Fields []*Field // field names are documentation only; may be ""
}

// Field is a record field or a variant field.
type Field struct {
	Pos
	Name string // "" for positional variant fields
	Type TypeExpr
}

// NewtypeDecl is `newtype Name(params) [derive(...)] = Ctor(T)`.
type NewtypeDecl struct {
	Pos
	Pub      bool
	Name     string
	NameSpan source.Span
	Params   []string
	Derives  []Ident
	Ctor     string
	Type     TypeExpr
}

// UnsupportedDecl is a declaration of an out-of-scope kind (module,
// import, const, trait, impl, foreign). The parser skips its body and the
// checker reports a diagnostic naming Feature.
type UnsupportedDecl struct {
	Pos
	Feature string // e.g. "import", "trait"
}

// ModuleDecl is `module a.b`, the optional first declaration naming the
// file's module (docs/modules.md).
type ModuleDecl struct {
	Pos
	Path []string
}

// ImportDecl is `[pub] import a.b [as x]`, `import a.b.{Name, f}` or
// `import a.b.{*}` (docs/modules.md). The module loader (lang/modules)
// resolves imports; the checker never sees them.
type ImportDecl struct {
	Pub bool
	Pos
	Path      []string
	PathSpan  source.Span
	Alias     string        // `as x`; "" when absent
	Selective bool          // the `.{...}` form
	All       bool          // `.{*}`
	Names     []*ImportName // the names of `.{a, B}`
}

// ImportName is one name of a selective import.
type ImportName struct {
	Pos
	Name string
}

// PathString joins an import or module path with dots.
func PathString(p []string) string {
	s := ""
	for i, x := range p {
		if i > 0 {
			s += "."
		}
		s += x
	}
	return s
}

func (*ModuleDecl) declNode()      {}
func (*ImportDecl) declNode()      {}
func (*FnDecl) declNode()          {}
func (*TypeDecl) declNode()        {}
func (*NewtypeDecl) declNode()     {}
func (*UnsupportedDecl) declNode() {}

// ---------------------------------------------------------------- types

// TypeExpr is a type as written in source.
type TypeExpr interface {
	Node
	typeNode()
}

// NamedType is `Int`, `List(Int)`, `Process.ExitReason`, `Pid(Signal)` or a
// lowercase type variable `a`.
type NamedType struct {
	Pos
	Name string // possibly dotted
	Args []TypeExpr
}

// TupleType is `(A, B)` or `(A,)`.
type TupleType struct {
	Pos
	Elems []TypeExpr
}

// UnitType is `()` in a type position (`Unit` is a NamedType).
type UnitType struct{ Pos }

// FuncType is `(A, B) -> C` or `fn(A, B) -> C`.
type FuncType struct {
	Pos
	Params []TypeExpr
	Ret    TypeExpr
}

// UnionType is `Int | String` (only in aliases).
type UnionType struct {
	Pos
	Alts []TypeExpr
}

func (*NamedType) typeNode() {}
func (*TupleType) typeNode() {}
func (*UnitType) typeNode()  {}
func (*FuncType) typeNode()  {}
func (*UnionType) typeNode() {}

// ---------------------------------------------------------------- statements

// Stmt is a statement in a block.
type Stmt interface {
	Node
	stmtNode()
}

// LetStmt is `let PAT [: T] = Value [else: Else]`.
type LetStmt struct {
	Pos
	Pattern Pattern
	Type    TypeExpr // nil when not annotated
	Value   Expr
	Else    Expr // let-else failure body (a *Block or inline expression); nil if absent
}

// DeferStmt is `defer EXPR`.
type DeferStmt struct {
	Pos
	X Expr
}

// ExprStmt is an expression used as a statement, optionally with a
// postfix condition (`stmt if cond`).
type ExprStmt struct {
	Pos
	X    Expr
	Cond Expr // postfix if; nil when absent
}

func (*LetStmt) stmtNode()   {}
func (*DeferStmt) stmtNode() {}
func (*ExprStmt) stmtNode()  {}

// ---------------------------------------------------------------- expressions

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// Block is an indented suite of statements; its value is its last statement's.
type Block struct {
	Pos
	Stmts []Stmt
}

// IntLit is an Int literal (unary minus folded in).
type IntLit struct {
	Pos
	Value int64
	Text  string
}

// FloatLit is a Float literal.
type FloatLit struct {
	Pos
	Value float64
	Text  string
}

// BoolLit is `true` or `false`.
type BoolLit struct {
	Pos
	Value bool
}

// StringLit is a string with no interpolation; Value has escapes resolved.
type StringLit struct {
	Pos
	Value  string
	Triple bool
}

// InterpString is a string with `{expr}` parts. Parts alternate freely
// between literal text and expressions.
type InterpString struct {
	Pos
	Parts  []InterpPart
	Triple bool
}

// InterpPart is literal text (X == nil) or an embedded expression.
type InterpPart struct {
	Text string
	X    Expr
}

// UnitLit is `()`.
type UnitLit struct{ Pos }

// Ident is a single name: a local, a function, a constructor (`Some`,
// `None`, `Red`) or a builtin (`println`, `spawn`, `send`).
type Ident struct {
	Pos
	Name string
}

// Path is a qualified name whose first segment is uppercase:
// `List.map`, `Process.Normal`, `Process.ExitReason.Normal`, `Shape.Circle`.
type Path struct {
	Pos
	Parts []string
}

// String joins the parts with dots.
func (p *Path) String() string {
	s := ""
	for i, x := range p.Parts {
		if i > 0 {
			s += "."
		}
		s += x
	}
	return s
}

// FieldAccess is `X.name` (record field access).
type FieldAccess struct {
	Pos
	X    Expr
	Name string
}

// TupleIndex is `X.0`.
type TupleIndex struct {
	Pos
	X     Expr
	Index int
}

// Index is `X[I]`.
type Index struct {
	Pos
	X, I Expr
}

// Arg is one call argument.
type Arg struct {
	Pos
	Label string // "" when positional
	Value Expr   // nil only transiently for a pipe placeholder `_`
}

// Call is `Fn(args)`.
type Call struct {
	Pos
	Fn    Expr
	Args  []*Arg
	Piped int // index in Args of the piped value, or -1 when not a pipe
}

// Unary is `-x`, `not x` or `~~~x`.
type Unary struct {
	Pos
	Op string
	X  Expr
}

// Binary is `L op R`; Op is the operator text (`+`, `and`, `in`, `==`, ...).
// Ranges are *Range, not Binary.
type Binary struct {
	Pos
	Op   string
	L, R Expr
}

// Range is `Lo..Hi` or `Lo..=Hi`.
type Range struct {
	Pos
	Lo, Hi    Expr
	Inclusive bool
}

// Try is `X?`.
type Try struct {
	Pos
	X Expr
}

// Lambda is `(x, y: Int) -> body`, `() -> body` or `fn(x) -> body`.
type Lambda struct {
	Pos
	Params []*Param
	Ret    TypeExpr // rarely written
	Body   Expr
}

// If is `if Cond: Then [else: Else]`; Else is nil without else, or an *If
// for `else: if` chains.
type If struct {
	Pos
	Cond, Then, Else Expr
}

// Arm is one arm of match or receive: `Pattern [if Guard] -> Body`. In a
// condition match (`match:` with no subject), Pattern is nil and Cond
// holds the Bool expression, except for the final `_` arm, whose Pattern
// is *WildcardPat.
type Arm struct {
	Pos
	Pattern Pattern
	Cond    Expr
	Guard   Expr
	Body    Expr
}

// Match is `match Subject:` arms, or a condition match when Subject is nil.
type Match struct {
	Pos
	Subject Expr
	Arms    []*Arm
}

// AfterArm is a receive timeout arm `_ after N -> body` (or `after N ->`
// in receive_event).
type AfterArm struct {
	Pos
	Timeout  Expr
	Body     Expr
	Wildcard bool // written with the leading `_`
}

// Receive is `receive:` or `receive_event:` with message arms and an
// optional final timeout arm.
type Receive struct {
	Pos
	Event bool
	Arms  []*Arm
	After *AfterArm
}

// For is `for PAT in Iter: Body`.
type For struct {
	Pos
	Pattern Pattern
	Iter    Expr
	Body    Expr
}

// Break is `break`.
type Break struct{ Pos }

// Continue is `continue`.
type Continue struct{ Pos }

// Return is `return X` (X is required by the language).
type Return struct {
	Pos
	X Expr
}

// Tuple is `(a, b)` or `(a,)`.
type Tuple struct {
	Pos
	Elems []Expr
}

// ListLit is `[a, b, c]`.
type ListLit struct {
	Pos
	Elems []Expr
}

// RecordUpdate is `%{ X | field: v, ... }`.
type RecordUpdate struct {
	Pos
	X      Expr
	Fields []*Arg // Label is the field name
}

// MapLit is `%{k: v}`; maps are out of scope, so the checker reports it.
type MapLit struct {
	Pos
	Keys, Values []Expr
}

// WithStep is `PAT <- expr` inside a with chain.
type WithStep struct {
	Pos
	Pattern Pattern
	X       Expr
}

// With is a `with` chain (optional feature, docs/reference/syntax.md#result-propagation).
type With struct {
	Pos
	Steps    []*WithStep
	Body     Expr
	ElseArms []*Arm
}

// Paren is a parenthesised expression kept only for spans; the parser may
// drop it.
type Paren struct {
	Pos
	X Expr
}

func (*Block) exprNode()        {}
func (*IntLit) exprNode()       {}
func (*FloatLit) exprNode()     {}
func (*BoolLit) exprNode()      {}
func (*StringLit) exprNode()    {}
func (*InterpString) exprNode() {}
func (*UnitLit) exprNode()      {}
func (*Ident) exprNode()        {}
func (*Path) exprNode()         {}
func (*FieldAccess) exprNode()  {}
func (*TupleIndex) exprNode()   {}
func (*Index) exprNode()        {}
func (*Call) exprNode()         {}
func (*Unary) exprNode()        {}
func (*Binary) exprNode()       {}
func (*Range) exprNode()        {}
func (*Try) exprNode()          {}
func (*Lambda) exprNode()       {}
func (*If) exprNode()           {}
func (*Match) exprNode()        {}
func (*Receive) exprNode()      {}
func (*For) exprNode()          {}
func (*Break) exprNode()        {}
func (*Continue) exprNode()     {}
func (*Return) exprNode()       {}
func (*Tuple) exprNode()        {}
func (*ListLit) exprNode()      {}
func (*RecordUpdate) exprNode() {}
func (*MapLit) exprNode()       {}
func (*With) exprNode()         {}
func (*Paren) exprNode()        {}

// ---------------------------------------------------------------- patterns

// Pattern is a match, let, for or receive pattern.
type Pattern interface {
	Node
	patNode()
}

// WildcardPat is `_`.
type WildcardPat struct{ Pos }

// BindPat is a lowercase name that binds.
type BindPat struct {
	Pos
	Name string
}

// LitPat is a literal: Value is *IntLit (sign folded), *FloatLit,
// *StringLit or *BoolLit.
type LitPat struct {
	Pos
	Value Expr
}

// UnitPat is `()`.
type UnitPat struct{ Pos }

// TuplePat is `(p, q)`, or with a rest `(p, ..rest)` / `(p, .._)` /
// `(p, ..)`: Rest matches the tuple of the remaining elements.
type TuplePat struct {
	Pos
	Elems   []Pattern
	HasRest bool
	Rest    Pattern // *BindPat or *WildcardPat when HasRest; nil for bare `..`
}

// ListPat is `[p, q]` or `[p, ..rest]` / `[p, .._]` / `[p, ..]`.
type ListPat struct {
	Pos
	Elems   []Pattern
	HasRest bool
	Rest    Pattern // *BindPat or *WildcardPat when HasRest; nil for bare `..`
}

// CtorPat is a constructor pattern: `None`, `Some(p)`, `Process.Down(r, id, _)`.
// Name is the full dotted name as written.
type CtorPat struct {
	Pos
	Name   string
	Args   []Pattern
	Parens bool // written with parentheses (even if empty)
}

// TypedPat is union narrowing `n: Int`.
type TypedPat struct {
	Pos
	Name string // binding name, or "_"
	Type TypeExpr
}

func (*WildcardPat) patNode() {}
func (*BindPat) patNode()     {}
func (*LitPat) patNode()      {}
func (*UnitPat) patNode()     {}
func (*TuplePat) patNode()    {}
func (*ListPat) patNode()     {}
func (*CtorPat) patNode()     {}
func (*TypedPat) patNode()    {}
