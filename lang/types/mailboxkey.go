package types

import (
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
)

// Mailbox keys (the name registry, docs/reference/runtime.md#features-beyond-the-core-language).
//
// The registry stores an address together with its mailbox type, so that
// Process.whereis at another type answers None instead of a wrongly typed
// Pid. Types do not exist at run time, so the code generator passes the
// type of each registry call as a hidden String argument (the builtin
// registry's MailboxKey flag): a canonical rendering of the mailbox type
// M that is equal for equal types. M must therefore be concrete where the
// call is written: a generic Pid(m) has no run-time type, and an M that
// nothing fixes is an error (checkMailbox, ErrMailboxKey).

// MailboxKey renders a mailbox type as its run-time key; ok is false when
// t is not concrete (it contains an unresolved or generic type variable).
func MailboxKey(t Type) (key string, ok bool) {
	var b strings.Builder
	ok = writeKey(&b, t)
	return b.String(), ok
}

func writeKey(b *strings.Builder, t Type) bool {
	ok := true
	list := func(ts []Type) {
		for i, a := range ts {
			if i > 0 {
				b.WriteString(", ")
			}
			if !writeKey(b, a) {
				ok = false
			}
		}
	}
	switch x := Resolve(t).(type) {
	case *Basic:
		b.WriteString(x.String())
	case *Named:
		if x.Def.Module != "" && !x.Def.Builtin {
			b.WriteString(x.Def.Module)
			b.WriteByte('.')
		}
		b.WriteString(x.Def.Name)
		if len(x.Args) > 0 {
			b.WriteByte('(')
			list(x.Args)
			b.WriteByte(')')
		}
	case *Tuple:
		b.WriteByte('(')
		list(x.Elems)
		if len(x.Elems) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *Func:
		b.WriteByte('(')
		list(x.Params)
		b.WriteString(") -> ")
		if !writeKey(b, x.Ret) {
			ok = false
		}
	case *Union:
		b.WriteString(x.Name)
	default: // *TVar, *TParam
		return false
	}
	return ok
}

// keyMailbox returns the mailbox type M of a call of a MailboxKey
// builtin from its instantiated function type: the first Pid(M) among
// its parameters, else in its result (Option(Pid(M)) of whereis).
func keyMailbox(ft Type) Type {
	f, ok := ft.(*Func)
	if !ok {
		return nil
	}
	var find func(t Type) Type
	find = func(t Type) Type {
		n, ok := Resolve(t).(*Named)
		if !ok {
			return nil
		}
		if n.Def == PidDef && len(n.Args) == 1 {
			return n.Args[0]
		}
		for _, a := range n.Args {
			if m := find(a); m != nil {
				return m
			}
		}
		return nil
	}
	for _, p := range f.Params {
		if m := find(p); m != nil {
			return m
		}
	}
	return find(f.Ret)
}

// CallMailboxKey returns the run-time key of the mailbox type of x, a
// checked call of a MailboxKey builtin.
func CallMailboxKey(info *Info, x *ast.Call) (string, bool) {
	if info == nil {
		return "", false
	}
	m := keyMailbox(info.TypeOf(x.Fn))
	if m == nil {
		return "", false
	}
	return MailboxKey(m)
}
