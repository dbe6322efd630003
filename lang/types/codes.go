package types

import "github.com/morrow-lang/morrow/lang/diag"

// Diagnostic codes reported by the checker. E2xxx names, E3xxx types,
// E4xxx patterns, E5xxx Result obligations, E6xxx actor contexts, E9xxx
// unsupported features. Each has an error fixture under fixtures/.
var (
	// Names.
	ErrUnknownName      = diag.Register("E2001", "a name is not a local, function, constructor or builtin in scope")
	ErrUnknownType      = diag.Register("E2002", "a type name is not declared")
	ErrDuplicateDecl    = diag.Register("E2003", "a function, type or constructor is declared twice")
	ErrDuplicateParam   = diag.Register("E2004", "a function or lambda declares the same parameter name twice")
	ErrReservedName     = diag.Register("E2005", "a declaration takes a name reserved for a builtin, constructor or module")
	ErrUnknownCtor      = diag.Register("E2006", "a constructor pattern or qualified constructor names no constructor")
	ErrUnknownProcessOp = diag.Register("E2007", "Process.X names no process operation or constructor")
	ErrUnknownMember    = diag.Register("E2008", "a builtin module has no member of that name (List.nope)")
	ErrNoMain           = diag.Register("E2009", "an executable has no main function and no library start function")
	ErrUnknownTypeVar   = diag.Register("E2010", "a lowercase type variable in a type declaration is not one of its parameters")

	// Types.
	ErrMismatch         = diag.Register("E3001", "two types that must be equal differ (CONTEXT: expected X, found Y)")
	ErrMainParams       = diag.Register("E3002", "main declares parameters")
	ErrMainReturn       = diag.Register("E3003", "main returns something other than Int, Unit or Result(Unit, E)")
	ErrPubAnnotation    = diag.Register("E3004", "a pub fn leaves a parameter or return type unannotated")
	ErrTypeArgCount     = diag.Register("E3005", "a type is applied to the wrong number of type arguments")
	ErrPositionalAfter  = diag.Register("E3006", "a positional argument follows a labeled one")
	ErrUnknownLabel     = diag.Register("E3007", "a call uses a label that names no parameter")
	ErrDuplicateLabel   = diag.Register("E3008", "a call repeats an argument label")
	ErrPositionSupplied = diag.Register("E3009", "a labeled argument names a parameter already given positionally")
	ErrMissingArg       = diag.Register("E3010", "a call omits a parameter")
	ErrTooManyArgs      = diag.Register("E3011", "a call passes more arguments than the callee takes")
	ErrLabelRequired    = diag.Register("E3012", "a Bool parameter, or one whose type repeats another's, is passed without its label")
	ErrStableLabel      = diag.Register("E3013", "a parameter that needs a label cannot supply one (pattern parameter without label)")
	ErrPositionalOnly   = diag.Register("E3014", "a builtin, constructor or function value is called with a label")
	ErrCtorArity        = diag.Register("E3015", "a constructor is called with the wrong number of arguments")
	ErrBinaryOperands   = diag.Register("E3016", "a binary operator is applied to operand types it does not support")
	ErrInterpType       = diag.Register("E3017", "an interpolated value is not Int, Float, Bool or String")
	ErrPrintArg         = diag.Register("E3018", "print/println/show is given Unit, a function, a Pid or an unnarrowed union")
	ErrNoShow           = diag.Register("E3019", "a named type without derive(Show) is printed or shown")
	ErrTryContext       = diag.Register("E3020", "? is used in a function that does not return Result")
	ErrTryOperand       = diag.Register("E3021", "? is applied to a value that is not a Result")
	ErrTryErrType       = diag.Register("E3022", "? is applied to a Result whose error type differs from the function's")
	ErrDeferType        = diag.Register("E3023", "a defer expression is not of type Unit")
	ErrDeferExit        = diag.Register("E3024", "a defer body uses return or ?")
	ErrUnreachable      = diag.Register("E3025", "a statement follows one that always exits")
	ErrLoopControl      = diag.Register("E3026", "break or continue outside a for loop")
	ErrLetElseDiverge   = diag.Register("E3027", "the else branch of let-else can complete normally")
	ErrCannotInfer      = diag.Register("E3028", "a binding's type has an unresolved part (empty list, None) and needs an annotation")
	ErrNotCallable      = diag.Register("E3029", "a call's target is not a function")
	ErrNoField          = diag.Register("E3030", "field access or record update names no field of the record")
	ErrTupleIndex       = diag.Register("E3031", "a tuple index is out of range or applied to a non-tuple")
	ErrNotIterable      = diag.Register("E3032", "a for loop iterates over something that is not a List or Range")
	ErrEmptyType        = diag.Register("E3033", "a type declaration has no fields or variants")
	ErrDeriveTrait      = diag.Register("E3034", "derive names an unsupported trait, or Ord without Eq")
	ErrRecursiveAlias   = diag.Register("E3035", "a type alias refers to itself")
	ErrContainsScalar   = diag.Register("E3036", "List.contains or `in` is used on non-scalar elements")
	ErrNoOrd            = diag.Register("E3037", "List.sort is used on elements without Ord")
	ErrSpawnEntry       = diag.Register("E3038", "spawn is given something other than a zero-argument Unit function")
	ErrSendPid          = diag.Register("E3039", "send or Process.id is given something other than a typed Pid")
	ErrProcessArity     = diag.Register("E3040", "a Process operation is called with the wrong number of arguments")
	ErrFieldInfer       = diag.Register("E3041", "field or index access on a value whose type is not yet known")
	ErrUnionPosition    = diag.Register("E3042", "a union type is written outside a type alias")
	ErrNotIndexable     = diag.Register("E3043", "indexing applied to a value that is not a List")
	ErrTooManyParams    = diag.Register("E3044", "a function or lambda declares more than 255 parameters")

	// Patterns.
	ErrNonExhaustive  = diag.Register("E4001", "a match does not cover every value of its subject")
	ErrUnreachableArm = diag.Register("E4002", "a match or receive arm is covered by earlier unguarded arms")
	ErrDupBinding     = diag.Register("E4003", "a pattern binds one name twice")
	ErrPatArity       = diag.Register("E4004", "a constructor pattern has the wrong number of fields")
	ErrRefutableLet   = diag.Register("E4005", "a let without else uses a pattern that can fail")
	ErrLiteralLet     = diag.Register("E4006", "a let without else uses a literal pattern")
	ErrCondMatchLast  = diag.Register("E4007", "a condition match does not end with a `_` arm")
	ErrTypedPattern   = diag.Register("E4008", "a typed pattern `n: T` names a type that is not a member of the subject's union")

	// Result obligations.
	ErrResultDiscarded = diag.Register("E5001", "a Result value is discarded without being handled")
	ErrResultUnusedLet = diag.Register("E5002", "a let binding of a Result is never used")
	ErrResultUnusedPar = diag.Register("E5003", "a Result parameter is never used")
	ErrResultCapture   = diag.Register("E5004", "a closure captures a Result-bearing local")
	ErrResultWildcard  = diag.Register("E5005", "a match on a Result has only wildcard or binding arms, so it never tests the tag")
	ErrResultPayload   = diag.Register("E5006", "a `_` inside a pattern discards a nested Result")

	// Actor contexts.
	ErrReceiveInMain = diag.Register("E6001", "main uses receive or receive_event")
	ErrActorOnly     = diag.Register("E6002", "an actor-only Process operation is called from main")
	ErrSelfContext   = diag.Register("E6003", "Process.self is called without a mailbox")
	ErrDeferProcess  = diag.Register("E6004", "a Process, actor or receive operation appears inside a defer")
	ErrActorCall     = diag.Register("E6005", "main (or the library start function) calls a function that needs a mailbox")
	ErrMailboxInfer  = diag.Register("E6006", "a spawn site's mailbox type is fixed neither by the entry nor by an annotation")
	ErrNotSendable   = diag.Register("E6007", "a mailbox type contains a Result or a function")

	// Unsupported features.
	ErrUnsupportedDecl = diag.Register("E9001", "a declaration of an out-of-scope kind (import, trait, const, ...)")
	ErrUnsupportedExpr = diag.Register("E9002", "an out-of-scope expression (map literal, with chain)")
	ErrMultiClause     = diag.Register("E9003", "a function is declared with several clauses")
	ErrUnsupportedType = diag.Register("E9004", "an out-of-scope type (Map, Set)")
)
