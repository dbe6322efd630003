package builtins

import (
	"fmt"
	"strings"
)

// ReferenceBegin and ReferenceEnd delimit the generated reference in
// docs/stdlib.md.
const (
	ReferenceBegin = "<!-- BEGIN generated builtin reference (stdlib/builtins); regenerate with GOLDIE_UPDATE=1 go test ./stdlib/builtins -->"
	ReferenceEnd   = "<!-- END generated builtin reference -->"
)

// Reference renders the reference of every builtin function and library
// type as Markdown, between ReferenceBegin and ReferenceEnd: one table
// per module, one row per entry, in table order.
func Reference() string {
	index() // the table is valid
	var b strings.Builder
	b.WriteString(ReferenceBegin + "\n\n")
	b.WriteString(referenceLegend)
	var mod string
	for i, e := range table {
		if i == 0 || e.Module() != mod {
			mod = e.Module()
			title := mod
			if title == "" {
				title = "Top level"
			}
			fmt.Fprintf(&b, "\n#### %s\n\n| function | signature | how | what it does |\n|---|---|---|---|\n", title)
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", e.Name, e.docSig(), strings.Join(e.notes(), ", "), escapeCell(e.Doc))
	}
	b.WriteString("\n#### Library types\n\n| type | constructors, in tag order | what it is |\n|---|---|---|\n")
	for _, t := range typeTable {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", t.docHead(), t.docCtors(), escapeCell(t.Doc))
	}
	b.WriteString("\n" + ReferenceEnd + "\n")
	return b.String()
}

const referenceLegend = `How each builtin is implemented, and the rules the checker adds to its signature:

- *native*: a Go function of ` + "`stdlib/core` or `stdlib/process`" + `; *prelude*: Morrow code in
  ` + "`stdlib/core/prelude.mr`" + `; *instructions*: compiled to VM instructions, so it has no function
  value and may only be called.
- *actor*: needs a mailbox, so ` + "`main`" + ` may not call it and a function that does becomes an actor
  function; *root or actor*: a process operation that ` + "`main`" + ` may call too.
- *no defer*: refused in a ` + "`defer`" + ` body; *spawns/sends*: an actor effect (docs/reference/checks.md#guards-and-defer);
  *callbacks without actor*: its function arguments run without an actor context; *length only*:
  passing Results to it does not handle them; *needs …*: what the generic ` + "`a`" + ` must support;
  *off the schedulers when large*: a call on large arguments (from 65,536 slots: a list of 65,536
  Ints, 1 MiB of text) runs off the schedulers and parks only its caller (docs/architecture.md#long-natives).
- Labeled parameters (` + "`left:`" + `) must be written with their labels; all others are positional.
`

// docSig is Sig with the labels written in.
func (e *Entry) docSig() string {
	if e.Labels == nil {
		return e.Sig
	}
	ps := make([]string, len(e.Labels))
	for i, l := range e.Labels {
		ps[i] = l + ": " + e.typ.Args[i].String()
	}
	return "(" + strings.Join(ps, ", ") + ") -> " + e.typ.Ret.String()
}

func (e *Entry) notes() []string {
	var out []string
	switch e.Impl {
	case ImplPrelude:
		out = append(out, "prelude")
	default:
		out = append(out, e.Impl.String())
	}
	if e.Context != Anywhere {
		out = append(out, e.Context.String())
	}
	for _, f := range []struct {
		flag Flags
		text string
	}{{NoDefer, "no defer"}, {Effect, "spawns/sends"}, {RootCallbacks, "callbacks without actor"}, {MetadataRead, "length only"}, {MailboxKey, "typed by the expected Pid(m)"}, {Long, "off the schedulers when large"}} {
		if e.Has(f.flag) && (f.flag != RootCallbacks || e.takesFunction()) {
			out = append(out, f.text)
		}
	}
	switch e.Req {
	case Printable:
		out = append(out, "needs a scalar or Show")
	case Showable:
		out = append(out, "needs Show")
	case Equatable:
		out = append(out, "needs Eq")
	case Ordered:
		out = append(out, "needs Ord")
	case Scalar:
		out = append(out, "needs a scalar")
	}
	return out
}

// takesFunction reports whether a parameter is a function: only then
// does RootCallbacks make a difference worth printing.
func (e *Entry) takesFunction() bool {
	for _, a := range e.typ.Args {
		if a.Ret != nil {
			return true
		}
	}
	return false
}

func (t *TypeDecl) docHead() string {
	if len(t.Params) == 0 {
		return t.Name
	}
	return t.Name + "(" + strings.Join(t.Params, ", ") + ")"
}

func (t *TypeDecl) docCtors() string {
	if t.Kind == Opaque {
		return "opaque"
	}
	var vs []string
	for _, v := range t.Variants {
		s := "`" + v.Name
		if len(v.Fields) > 0 {
			var fs []string
			for _, f := range v.Fields {
				if f.Name != "" {
					fs = append(fs, f.Name+": "+f.Type)
				} else {
					fs = append(fs, f.Type)
				}
			}
			s += "(" + strings.Join(fs, ", ") + ")"
		}
		vs = append(vs, s+"`")
	}
	return strings.Join(vs, ", ")
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
