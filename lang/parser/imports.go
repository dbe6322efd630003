package parser

import (
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/diag"
	"github.com/morrow-lang/morrow/lang/source"
)

// moduleOrImportHead reads a chunk's first real tokens without copying
// them: kw is "module" or "import" when they are `module`, `import`,
// `pub module` or `pub import` (pub says which), and "" otherwise.
func moduleOrImportHead(toks []lexer.Token) (kw string, pub bool) {
	for _, t := range toks {
		if synthetic(t.Type) {
			continue
		}
		if t.Type != tKeyword {
			return "", false
		}
		switch t.Value {
		case "pub":
			if pub {
				return "", false
			}
			pub = true
		case "module", "import":
			return t.Value, pub
		default:
			return "", false
		}
	}
	return "", false
}

// moduleOrImport parses a `module a.b` or `[pub] import ...` chunk
// (docs/modules.md). It returns nil, false when the chunk is neither; a
// malformed line is reported (E7001) and yields nil, true.
func moduleOrImport(f *source.File, dl *diag.List, toks []lexer.Token, quiet bool) (ast.Decl, bool) {
	kw, pub := moduleOrImportHead(toks)
	if kw == "" {
		return nil, false
	}
	var real []lexer.Token
	for _, t := range toks {
		if !synthetic(t.Type) {
			real = append(real, t)
		}
	}
	i := 0 // real[i] is kw
	if pub {
		i = 1
	}
	sp := span(toks)
	fail := func(at int, format string, args ...any) (ast.Decl, bool) {
		if !quiet {
			s := sp
			if at < len(real) {
				s = tokSpan(real[at])
			}
			d := dl.Add(f, ErrImportSyntax, s, format, args...)
			if kw == "module" {
				d.Hint = "write `module a.b`: the file's path from the project root, dots between segments"
			} else {
				d.Hint = "write `import a.b`, `import a.b as x`, `import a.b.{Name, f}` or `import a.b.{*}`"
			}
		}
		return nil, true
	}
	if kw == "module" && pub {
		return fail(0, "a module line cannot be pub")
	}
	i++
	isName := func(j int) bool { return j < len(real) && real[j].Type == tIdent }
	isPunct := func(j int, v string) bool { return j < len(real) && real[j].Value == v && real[j].Type != tString }
	if !isName(i) {
		return fail(i, "expected a module name after '%s'", kw)
	}
	var path []string
	pstart := real[i].Pos.Offset
	pend := pstart
	for {
		path = append(path, real[i].Value)
		pend = real[i].Pos.Offset + len(real[i].Value)
		i++
		if isPunct(i, ".") && isName(i+1) {
			i++
			continue
		}
		break
	}
	if kw == "module" {
		if i < len(real) {
			return fail(i, "unexpected %s after the module name", describe(real[i]))
		}
		return &ast.ModuleDecl{Pos: ast.Pos{S: sp}, Path: path}, true
	}
	d := &ast.ImportDecl{Pos: ast.Pos{S: sp}, Pub: pub, Path: path, PathSpan: source.Span{Start: pstart, End: pend}}
	switch {
	case i == len(real):
	case real[i].Type == tKeyword && real[i].Value == "as":
		if !isName(i + 1) {
			return fail(i+1, "expected a name after 'as'")
		}
		d.Alias = real[i+1].Value
		i += 2
	case isPunct(i, ".") && isPunct(i+1, "{"):
		d.Selective = true
		i += 2
		if isPunct(i, "*") {
			d.All = true
			i++
		} else {
			for {
				if !isName(i) {
					return fail(i, "expected a name in the import list")
				}
				t := real[i]
				d.Names = append(d.Names, &ast.ImportName{Pos: ast.Pos{S: tokSpan(t)}, Name: t.Value})
				i++
				if isPunct(i, ",") {
					i++
					if isPunct(i, "}") {
						break
					}
					continue
				}
				break
			}
		}
		if !isPunct(i, "}") {
			return fail(i, "expected '}' to close the import list")
		}
		i++
	default:
		return fail(i, "unexpected %s in an import", describe(real[i]))
	}
	if i < len(real) {
		return fail(i, "unexpected %s after the import", describe(real[i]))
	}
	return d, true
}
