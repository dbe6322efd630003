package ast

import (
	"regexp"
	"strings"
	"sync"
)

// ModuleSep joins a declaration's name and its module in the global name
// the module loader (lang/modules) gives every top-level declaration of a
// module other than the entry: `area·geo/shapes` is `area` of module
// geo.shapes. No source name can contain it.
const ModuleSep = "·"

// mangledName matches a global name. It is compiled on first use: its
// Unicode classes cost more than the rest of the package's
// initialisation, and only a text that holds a ModuleSep needs it.
var mangledName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([\p{L}_][\p{L}\p{N}_]*)` + ModuleSep + `([\p{L}\p{N}_/]+)`)
})

// Qualified shows the global names in a text as module-qualified names
// (`area·geo/shapes` becomes `geo.shapes.area`); other text is unchanged.
func Qualified(s string) string {
	if !strings.Contains(s, ModuleSep) {
		return s
	}
	return mangledName().ReplaceAllStringFunc(s, func(m string) string {
		i := strings.Index(m, ModuleSep)
		return strings.ReplaceAll(m[i+len(ModuleSep):], "/", ".") + "." + m[:i]
	})
}

// PlainName is a global name's source name (`area·geo/shapes` is `area`).
func PlainName(s string) string {
	if i := strings.Index(s, ModuleSep); i >= 0 {
		return s[:i]
	}
	return s
}
