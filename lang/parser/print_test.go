package parser

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/morrow-lang/morrow/lang/ast"
	"github.com/morrow-lang/morrow/lang/source"
)

// sexpr prints an AST node as a compact S-expression for tests: the node
// type name followed by its non-empty fields in declaration order. Spans,
// source files and Text fields are left out.
func sexpr(n any) string {
	var b strings.Builder
	printValue(&b, reflect.ValueOf(n))
	return b.String()
}

var skipFields = map[string]bool{"Pos": true, "Src": true, "NameSpan": true, "Docs": true}

func printValue(b *strings.Builder, v reflect.Value) {
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		printValue(b, v.Elem())
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(source.Span{}) {
			return
		}
		b.WriteString("(" + v.Type().Name())
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			fv := v.Field(i)
			if skipFields[f.Name] || fv.IsZero() {
				continue
			}
			if f.Name == "Text" && (v.Type().Name() == "IntLit" || v.Type().Name() == "FloatLit") {
				continue
			}
			if f.Name == "Piped" && fv.Int() == -1 {
				continue
			}
			b.WriteString(" " + f.Name + "=")
			printValue(b, fv)
		}
		b.WriteString(")")
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(" ")
			}
			printValue(b, v.Index(i))
		}
		b.WriteString("]")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

var _ = ast.File{}
