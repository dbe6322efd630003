package parser

import "github.com/morrow-lang/morrow/lang/diag"

// Lexical and layout codes (E0xxx).
var (
	ErrBadChar          = diag.Register("E0001", "a character that Morrow source may not contain (unsupported character '…' in source)")
	ErrBlockComment     = diag.Register("E0002", "a /* block comment */ is never closed, or nests deeper than 128 levels")
	ErrIntRange         = diag.Register("E0003", "an integer literal is outside the signed 64-bit Int range")
	ErrNumSuffix        = diag.Register("E0004", "a numeric literal is followed by letters (unsupported numeric literal suffix)")
	ErrFloatDigits      = diag.Register("E0005", "a decimal point is not followed by digits, as in `1.`")
	ErrNumSeparator     = diag.Register("E0006", "a `_` digit separator is leading, trailing or doubled, or a base prefix has no digits")
	ErrFloatRange       = diag.Register("E0007", "a float literal is not finite (it overflows to infinity)")
	ErrStringEscape     = diag.Register("E0008", "a string contains an escape other than \\n \\r \\t \\\" \\\\ \\{ \\}")
	ErrStringUnclosed   = diag.Register("E0009", "a string literal reaches the end of its line or of the file without a closing quote")
	ErrStringBrace      = diag.Register("E0010", "a lone `}` in a string; literal braces must be escaped")
	ErrInterp           = diag.Register("E0011", "a `{…}` interpolation inside a string is empty, unclosed or nested too deeply")
	ErrStringNUL        = diag.Register("E0012", "a string literal contains a NUL character")
	ErrAttribute        = diag.Register("E0013", "an `@…` attribute other than @doc and @moduledoc, or one without its string")
	ErrMixedIndent      = diag.Register("E0014", "one file indents some lines with tabs and others with spaces")
	ErrInconsistentDent = diag.Register("E0015", "a dedent does not return to any enclosing indentation level")
	ErrUnexpectedIndent = diag.Register("E0016", "a line is indented although no `:` or `->` opened a block (or the first line is indented)")
	ErrUnmatched        = diag.Register("E0017", "a closing bracket has no matching opening bracket, or closes the wrong one")
	ErrUnclosed         = diag.Register("E0018", "an opening bracket is never closed")
	ErrTooLarge         = diag.Register("E0019", "the source file is larger than 1 MiB")
	ErrTooManyTokens    = diag.Register("E0020", "the source file has more than 65,536 tokens")
	ErrBadUTF8          = diag.Register("E0021", "the source file is not valid UTF-8")
	ErrNestingDepth     = diag.Register("E0022", "brackets or string interpolations are nested too deeply")
)

// Syntax codes (E1xxx).
var (
	ErrSyntax         = diag.Register("E1001", "the tokens do not form a declaration, statement or expression here")
	ErrKeywordName    = diag.Register("E1002", "a reserved word is used where a name is expected")
	ErrExpectBlock    = diag.Register("E1003", "a `:` or `->` that ends a line is not followed by an indented block")
	ErrExpectClose    = diag.Register("E1004", "a bracket opened by a call, list, tuple or parameter list is not closed where expected")
	ErrTopLevel       = diag.Register("E1005", "something other than a declaration appears at the top level of the file")
	ErrFnBody         = diag.Register("E1006", "a function has neither a `:` body nor an `->` arrow body")
	ErrRangeChain     = diag.Register("E1007", "range operators are chained, as in `1..2..3`")
	ErrPipeTarget     = diag.Register("E1008", "the right side of `|>` is not a function name or a call, or has several `_` placeholders")
	ErrPlaceholder    = diag.Register("E1009", "`_` is used as a value outside a pipe placeholder or pattern")
	ErrReturnValue    = diag.Register("E1010", "`return` without an expression")
	ErrNotAType       = diag.Register("E1011", "a return type after `->` is not a type")
	ErrBadParam       = diag.Register("E1012", "a lambda parameter is not a name or a pattern")
	ErrMisplacedAnnot = diag.Register("E1013", "a `name: Type` annotation appears inside parentheses that are not lambda parameters")
	ErrBadTypeLine    = diag.Register("E1014", "a type body mixes record fields and variants, or a line is neither")
	ErrPostfixIf      = diag.Register("E1015", "a postfix `if` follows a statement that is not an expression")
	ErrStringPattern  = diag.Register("E1016", "a string pattern contains an interpolation")
)

// ErrRecvTimeout is a receive timeout arm that is not last or not `_ after N`.
var ErrRecvTimeout = diag.Register("E1017", "a receive timeout arm is not the final arm, or is not written '_ after N ->'")

// ErrClauseForm is a form that only multi-clause functions use (out of
// scope): a literal parameter pattern or a guard after the parameters.
var ErrClauseForm = diag.Register("E1018", "a multi-clause function form (a literal parameter pattern or a clause guard), which is not supported")

// ErrImportSyntax is a `module` or `import` line that is not
// `module a.b` or `[pub] import a.b [as x | .{names} | .{*}]`.
var ErrImportSyntax = diag.Register("E7001", "a `module` or `import` line is malformed")
