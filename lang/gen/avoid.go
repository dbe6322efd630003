package gen

// Known checker bugs. Each switch turns off the exact construct
// combination that triggers one (a switch "mut-KIND" stops the generator
// from marking mutations of that kind, for bugs where check accepts a
// broken program); its reproducer is the named file under
// testdata/known/, and TestKnownBugs reports whether it still misbehaves.
// Remove a switch (and its entry in DefaultAvoid) once the checker is
// fixed and TestKnownBugs passes for its file.
const (
	// avoidUnannotatedResult: Result functions without a return
	// annotation (§4.2 unannotated return types).
	avoidUnannotatedResult = "unannotated-result-fn"
	// avoidUnannotatedMutual: unannotated mutually recursive functions.
	avoidUnannotatedMutual = "unannotated-mutual-recursion"
	// avoidTypeParamRequirements: operators and interpolation on type
	// parameters (§4.2 requirements).
	avoidTypeParamRequirements = "type-param-requirements"
	// avoidParenCondMatch: a condition match in parentheses,
	// `(match: c -> a, _ -> b)`, is parsed as a lambda parameter list.
	avoidParenCondMatch = "paren-condition-match"
	// avoidDeferLocals: a match inside a defer expression (the deferred
	// body's locals overlap its operand stack at run time).
	avoidDeferLocals = "defer-closure-locals"
	// avoidDeferredShape: a tuple projection or a non-unique field access
	// on an unannotated parameter before the evidence that fixes its type.
	avoidDeferredShape = "deferred-shape-inference"
	// avoidTripleQuotedLineStart: a line that starts with a multi-line
	// triple-quoted string.
	avoidTripleQuotedLineStart = "triple-quoted-line-start"
	// avoidNeverOperand: `return …` or `Process.exit(…)` as an operand.
	avoidNeverOperand = "never-operand"
	// avoidTupleRest: tuple rest patterns `(h, ..t)`.
	avoidTupleRest = "tuple-rest-pattern"
	// avoidResultWalk: a recursive walk over a record with a Result field
	// and a list of itself.
	avoidResultWalk = "recursive-result-walk"
	// avoidGenericMutual: unannotated mutually recursive functions used at
	// several types.
	avoidGenericMutual = "generic-mutual-recursion"
	// avoidMutInWith: mutations inside the do block of a with chain.
	avoidMutInWith = "mut-in-with-body"
)

// KnownBug describes one switch.
type KnownBug struct {
	Switch string // the Config.Avoid key
	File   string // the reproducer under testdata/known/
}

// KnownBugs lists the switches DefaultAvoid turns on, with their
// reproducers.
var KnownBugs = []KnownBug{
	{avoidParenCondMatch, "paren_condition_match.mr"},
	{avoidTypeParamRequirements, "type_param_requirements.mr"},
	{avoidDeferLocals, "defer_closure_locals.mr"},
	{avoidDeferredShape, "deferred_shape_inference.mr"},
	{avoidTripleQuotedLineStart, "triple_quoted_statement.mr"},
	{avoidNeverOperand, "never_operand.mr"},
	{avoidTupleRest, "tuple_rest_pattern.mr"},
	{avoidResultWalk, "recursive_result_walk.mr"},
	{avoidGenericMutual, "generic_mutual_recursion.mr"},
	// The mutator's Result-in-container kinds that check accepts.
	{"mut-" + mutResultLoop, "result_list_wildcard_loop.mr"},
	{"mut-" + mutResultHeadOnly, "result_list_head_only.mr"},
	{"mut-" + mutResultHeadMeta, "result_list_head_metadata.mr"},
	{"mut-" + mutResultOption, "result_option_dropped.mr"},
	{"mut-" + mutResultNested, "result_nested_is_ok.mr"},
	{"mut-" + mutResultCallback, "result_callback_metadata.mr"},
	{"mut-" + mutUnannotatedRet, "unannotated_return_mismatch.mr"},
	{avoidMutInWith, "with_body_obligations.mr"},
}

// DefaultAvoid is the Avoid map the suite uses: every known bug avoided.
func DefaultAvoid() map[string]bool {
	m := map[string]bool{}
	for _, k := range KnownBugs {
		m[k.Switch] = true
	}
	return m
}
