package ast

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	goast "go/ast"
)

// nodeKinds has one value of every node type of the package. The test
// below checks it against the struct declarations in the source, so a new
// node type must be added here, and then TestInspectVisitsEveryChild checks
// that Inspect visits every node-holding field of it.
var nodeKinds = []Node{
	&File{}, &FnDecl{}, &Param{}, &TypeDecl{}, &Variant{}, &Field{}, &NewtypeDecl{}, &UnsupportedDecl{},
	&ModuleDecl{}, &ImportDecl{}, &ImportName{},
	&NamedType{}, &TupleType{}, &UnitType{}, &FuncType{}, &UnionType{},
	&LetStmt{}, &DeferStmt{}, &ExprStmt{},
	&Block{}, &IntLit{}, &FloatLit{}, &BoolLit{}, &StringLit{}, &InterpString{}, &UnitLit{}, &Ident{}, &Path{},
	&FieldAccess{}, &TupleIndex{}, &Index{}, &Arg{}, &Call{}, &Unary{}, &Binary{}, &Range{}, &Try{}, &Lambda{},
	&If{}, &Arm{}, &Match{}, &AfterArm{}, &Receive{}, &For{}, &Break{}, &Continue{}, &Return{}, &Tuple{},
	&ListLit{}, &RecordUpdate{}, &MapLit{}, &WithStep{}, &With{}, &Paren{},
	&WildcardPat{}, &BindPat{}, &LitPat{}, &UnitPat{}, &TuplePat{}, &ListPat{}, &CtorPat{}, &TypedPat{},
}

// TestNodeKindsComplete: every struct type of the package that embeds Pos
// (that is, every node type) is in nodeKinds.
func TestNodeKindsComplete(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		goast.Inspect(f, func(n goast.Node) bool {
			ts, ok := n.(*goast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*goast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				if id, ok := fl.Type.(*goast.Ident); ok && len(fl.Names) == 0 && id.Name == "Pos" {
					declared = append(declared, ts.Name.Name)
				}
			}
			return false
		})
	}
	var listed []string
	for _, n := range nodeKinds {
		listed = append(listed, reflect.TypeOf(n).Elem().Name())
	}
	sort.Strings(declared)
	sort.Strings(listed)
	if strings.Join(declared, " ") != strings.Join(listed, " ") {
		t.Fatalf("node types declared:\n%v\nlisted in nodeKinds:\n%v", declared, listed)
	}
}

var nodeType = reflect.TypeOf((*Node)(nil)).Elem()

// leafFor returns a fresh node that can stand in a field of type ft (an
// interface such as Expr, or a pointer to a node struct).
func leafFor(t *testing.T, ft reflect.Type) Node {
	if ft.Kind() == reflect.Pointer {
		return reflect.New(ft.Elem()).Interface().(Node)
	}
	for _, k := range nodeKinds {
		kt := reflect.TypeOf(k)
		if kt.Implements(ft) {
			return reflect.New(kt.Elem()).Interface().(Node)
		}
	}
	t.Fatalf("no node kind implements %v", ft)
	return nil
}

// fill sets every node-holding field of the struct v (two elements for a
// slice) to fresh nodes, and returns them in field order.
func fill(t *testing.T, v reflect.Value) []Node {
	var out []Node
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		fv := v.Field(i)
		if sf.Anonymous && sf.Type == reflect.TypeOf(Pos{}) {
			continue
		}
		switch ft := sf.Type; {
		case ft.Kind() == reflect.Interface && ft.Implements(nodeType), ft.Kind() == reflect.Pointer && ft.Implements(nodeType):
			n := leafFor(t, ft)
			fv.Set(reflect.ValueOf(n))
			out = append(out, n)
		case ft.Kind() == reflect.Slice:
			et := ft.Elem()
			s := reflect.MakeSlice(ft, 2, 2)
			for j := 0; j < 2; j++ {
				ev := s.Index(j)
				switch {
				case et.Kind() == reflect.Interface && et.Implements(nodeType), et.Kind() == reflect.Pointer && et.Implements(nodeType):
					n := leafFor(t, et)
					ev.Set(reflect.ValueOf(n))
					out = append(out, n)
				case et.Kind() == reflect.Struct && reflect.PointerTo(et).Implements(nodeType):
					out = append(out, ev.Addr().Interface().(Node)) // stored by value (derive names)
				case et.Kind() == reflect.Struct:
					out = append(out, fill(t, ev)...) // InterpPart: its nodes are children
				}
			}
			fv.Set(s)
		case ft.Kind() == reflect.Struct:
			out = append(out, fill(t, fv)...)
		}
	}
	return out
}

// TestInspectVisitsEveryChild: for every node kind with all of its
// node-holding fields set, Inspect visits exactly those children, in
// field order, and descends no further when f returns false.
func TestInspectVisitsEveryChild(t *testing.T) {
	for _, k := range nodeKinds {
		root := reflect.New(reflect.TypeOf(k).Elem())
		want := fill(t, root.Elem())
		var got []Node
		Inspect(root.Interface().(Node), func(n Node) bool {
			if n == root.Interface().(Node) {
				return true
			}
			got = append(got, n)
			return false
		})
		name := root.Type().Elem().Name()
		if len(got) != len(want) {
			t.Errorf("%s: Inspect visited %d children, want %d", name, len(got), len(want))
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: child %d is %T, want %T (field order)", name, i, got[i], want[i])
			}
		}
	}
}

// TestInspectSkipsMissing: nil and typed-nil children are skipped, and f
// is never called with nil.
func TestInspectSkipsMissing(t *testing.T) {
	var b *Block
	x := &If{Cond: &Ident{Name: "c"}, Then: b, Else: nil}
	var seen []string
	Inspect(x, func(n Node) bool {
		if n == nil || IsNil(n) {
			t.Fatal("f called with a missing node")
		}
		seen = append(seen, reflect.TypeOf(n).String())
		return true
	})
	if strings.Join(seen, " ") != "*ast.If *ast.Ident" {
		t.Fatalf("visited %v", seen)
	}
	Inspect(nil, func(Node) bool { t.Fatal("called for nil"); return true })
	Inspect(b, func(Node) bool { t.Fatal("called for typed nil"); return true })
}

// TestInspectOrder: a real tree is visited in source order, and returning
// false prunes a subtree.
func TestInspectOrder(t *testing.T) {
	call := &Call{Fn: &Ident{Name: "f"}, Args: []*Arg{{Value: &Ident{Name: "a"}}, {Value: &Lambda{Body: &Ident{Name: "hidden"}}}}}
	body := &Block{Stmts: []Stmt{
		&LetStmt{Pattern: &BindPat{Name: "x"}, Value: call},
		&ExprStmt{X: &Binary{Op: "+", L: &Ident{Name: "x"}, R: &IntLit{Value: 1}}},
	}}
	var names []string
	Inspect(body, func(n Node) bool {
		switch n := n.(type) {
		case *Ident:
			names = append(names, n.Name)
		case *BindPat:
			names = append(names, "let "+n.Name)
		case *Lambda:
			return false
		}
		return true
	})
	if got := strings.Join(names, " "); got != "let x f a x" {
		t.Fatalf("visit order %q", got)
	}
}
