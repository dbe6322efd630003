package types

import "testing"

// TestMailboxKey: equal concrete types render equal keys, different ones
// different keys, and a type with an unresolved or generic variable has
// none.
func TestMailboxKey(t *testing.T) {
	user := &TypeDef{Name: "Msg", Module: "main"}
	bound := &TVar{ID: 1, Ref: IntT}
	for _, c := range []struct {
		t    Type
		want string
		ok   bool
	}{
		{IntT, "Int", true},
		{bound, "Int", true},
		{&Named{Def: user}, "main.Msg", true},
		{&Named{Def: ListDef, Args: []Type{&Tuple{Elems: []Type{StringT, bound}}}}, "List((String, Int))", true},
		{&Tuple{Elems: []Type{UnitT}}, "((),)", true},
		{&Named{Def: PidDef, Args: []Type{&Named{Def: OptionDef, Args: []Type{ProcessIDT}}}}, "Pid(Option(ProcessId))", true},
		{&Named{Def: ListDef, Args: []Type{&TVar{ID: 2}}}, "", false},
		{&Named{Def: PidDef, Args: []Type{&TParam{Name: "m"}}}, "", false},
	} {
		got, ok := MailboxKey(c.t)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("MailboxKey(%s) = %q, %v; want %q, %v", c.t, got, ok, c.want, c.ok)
		}
	}
}
