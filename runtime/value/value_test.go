package value

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

func ints(ns ...int64) []Value {
	out := make([]Value, len(ns))
	for i, n := range ns {
		out[i] = Int(n)
	}
	return out
}

// TestSizes: the logical size of docs/reference/actors.md#limits, computed at
// construction: 16 bytes per slot plus string bytes, through tuples,
// lists, variants and captured values.
func TestSizes(t *testing.T) {
	cases := []struct {
		v    Value
		want int64
	}{
		{Int(1), 16},
		{String("abc"), 19},
		{NewTuple(Int(1), String("ab")), 16 + 16 + 18},
		{NewList(ints(1, 2, 3)), 16 + 3*16},
		{NewData(OptionType, TagSome, NewList(nil)), 16 + 16},
		{NewClosure(3, []Value{String("xy"), Int(0)}), 16 + 18 + 16},
		{NewRange(1, 5, false), 16},
	}
	for i, c := range cases {
		if got := c.v.Size(); got != c.want {
			t.Errorf("case %d (%s): size %d, want %d", i, c.v.Kind(), got, c.want)
		}
	}
	// Saturation.
	acc := Int(0)
	for i := 0; i < 70; i++ {
		acc = NewTuple(acc, acc)
	}
	if acc.Size() != SizeCap {
		t.Errorf("size of a 2^70-leaf value = %d", acc.Size())
	}
	if AddSize(SizeCap, SizeCap) != SizeCap || AddSize(1, 2) != 3 {
		t.Error("AddSize")
	}
}

// TestDataNodes: NewDataCopy builds variants of every width (one
// object up to four fields) with copied fields and exact sizes; the size
// lives in 48 bits of the header's word, so that the nodes fall in the
// allocator's smaller size classes, and saturates at SizeCap from there.
func TestDataNodes(t *testing.T) {
	if n := unsafe.Sizeof(Data{}); n != 48 {
		t.Errorf("a Data node takes %d bytes, want 48", n)
	}
	if n := unsafe.Sizeof(data2{}); n != 80 {
		t.Errorf("a two-field node takes %d bytes, want 80 (a size class)", n)
	}
	if unsafe.Offsetof(Data{}.h) != 0 {
		t.Error("the header is not the node's first field")
	}
	ty := &TypeInfo{Name: "T", Variants: []VariantInfo{{Name: "V"}}}
	for n := 0; n <= 6; n++ {
		fields := make([]Value, n)
		want := int64(SlotSize)
		for i := range fields {
			fields[i] = NewTuple(Int(int64(i)), String("ab"))
			want += fields[i].Size()
		}
		v := NewDataCopy(ty, 0, fields)
		for i := range fields {
			fields[i] = Int(99) // the caller reuses its slice
		}
		d := v.AsData()
		if d.Type != ty || d.Tag != 0 || len(d.Fields) != n || cap(d.Fields) != n {
			t.Fatalf("%d fields: node %v", n, v)
		}
		for i, f := range d.Fields {
			if f.AsTuple().Elems[0].AsInt() != int64(i) {
				t.Errorf("%d fields: field %d is %v", n, i, f)
			}
		}
		if v.Size() != want || d.Size() != want {
			t.Errorf("%d fields: size %d, want %d", n, v.Size(), want)
		}
	}
	// 2^k + 1 slots for k = 40..62: exact below 2^48-1, the cap from there
	// (never less than the exact size).
	acc := Int(0)
	for k := 1; k <= 62; k++ {
		acc = NewTuple(acc, acc)
		if k < 40 {
			continue
		}
		exact := acc.Size() + SlotSize
		got := NewDataCopy(ty, 0, []Value{acc}).Size()
		switch {
		case exact < dataSizeSat && got != exact:
			t.Errorf("2^%d: size %d, want %d", k, got, exact)
		case exact >= dataSizeSat && got != SizeCap:
			t.Errorf("2^%d: size %d, want the cap", k, got)
		}
	}
}

// TestWindowSizes: Drop, Take and Append keep list sizes exact from
// either side, also for lists whose size is past SizeCap (a list of
// shared values), where a saturated sum could not be undone.
func TestWindowSizes(t *testing.T) {
	l := NewList([]Value{String("a"), String("bb"), String("ccc"), String("dddd")}).AsList()
	for n := 0; n <= 4; n++ {
		d := l.Drop(n).AsList()
		if want := sumSizes(d.Items); d.Size() != want {
			t.Errorf("Drop(%d) size %d, want %d", n, d.Size(), want)
		}
		k := l.Take(n).AsList()
		if want := sumSizes(k.Items); k.Size() != want {
			t.Errorf("Take(%d) size %d, want %d", n, k.Size(), want)
		}
		if cap(k.Items) != n {
			t.Errorf("Take(%d) keeps capacity %d", n, cap(k.Items))
		}
	}
	acc := Int(0)
	for i := 0; i < 70; i++ {
		acc = NewTuple(acc, acc)
	}
	// 1,000 saturated elements, then two ints: every tail is exact.
	items := make([]Value, 1002)
	for i := range items {
		items[i] = acc
	}
	items[1000], items[1001] = Int(1), Int(2)
	sat := NewList(items).AsList()
	if sat.Size() != SizeCap {
		t.Fatalf("size of a list of shared values = %d", sat.Size())
	}
	for i := 0; i < 1000; i++ {
		sat = sat.Drop(1).AsList()
		if i < 999 && sat.Size() != SizeCap {
			t.Fatalf("after %d drops: size %d", i+1, sat.Size())
		}
	}
	if got := sat.Size(); got != 48 {
		t.Errorf("tail of a saturated list: size %d, want 48", got)
	}
	big := NewList(items).AsList()
	if got := big.Take(1001).AsList().Drop(1000).Size(); got != 32 {
		t.Errorf("take and drop of a saturated list: size %d, want 32", got)
	}
	if got := big.Append(acc).Size(); got != SizeCap {
		t.Errorf("Append to a saturated list: size %d", got)
	}
}

// TestAppendClaimsOnce: two lists ending at the same slot of one array
// cannot both extend it in place; the second copies. Run under -race, the
// concurrent part checks that appends from several goroutines (processes
// sharing a list received in messages) never race.
func TestAppendClaimsOnce(t *testing.T) {
	base := NewList(nil).AsList().Append(Int(1)).AsList().Append(Int(2)).AsList()
	a := base.Append(Int(3)).AsList()
	b := base.Append(Int(4)).AsList()
	if &a.Items[0] != &base.Items[0] {
		t.Error("the first append did not extend the array in place")
	}
	if &b.Items[0] == &base.Items[0] {
		t.Error("the second append wrote into a claimed slot")
	}
	if a.Items[2].AsInt() != 3 || b.Items[2].AsInt() != 4 || len(base.Items) != 2 {
		t.Errorf("lists changed: %v %v %v", a.Items, b.Items, base.Items)
	}
	tail := base.Drop(1).AsList().Append(Int(5)).AsList()
	if tail.Items[1].AsInt() != 5 || a.Items[2].AsInt() != 3 {
		t.Error("append to a dropped window changed another list")
	}

	shared := NewList(nil).AsList()
	for i := 0; i < 10; i++ {
		shared = shared.Append(Int(int64(i))).AsList()
	}
	var wg sync.WaitGroup
	results := make([]*List, 8)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := shared
			for i := 0; i < 1000; i++ {
				l = l.Append(Int(int64(g))).AsList()
			}
			results[g] = l
		}()
	}
	wg.Wait()
	for g, l := range results {
		if len(l.Items) != 1010 {
			t.Fatalf("goroutine %d: %d items", g, len(l.Items))
		}
		for i, v := range l.Items {
			want := int64(g)
			if i < 10 {
				want = int64(i)
			}
			if v.AsInt() != want {
				t.Fatalf("goroutine %d: item %d is %d, want %d", g, i, v.AsInt(), want)
			}
		}
		if l.Size() != 16+1010*16 {
			t.Fatalf("goroutine %d: size %d", g, l.Size())
		}
	}
}

// TestNoStructLiterals keeps struct literals of the compound node types
// out of the module's non-test code: a node built without its
// constructor would carry no logical size, and a message holding it
// would be measured by walking it.
func TestNoStructLiterals(t *testing.T) {
	root := filepath.Join("..", "..")
	banned := map[string]bool{"Tuple": true, "List": true, "Data": true, "Closure": true}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		inValue := f.Name.Name == "value"
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			name := ""
			switch ty := lit.Type.(type) {
			case *ast.SelectorExpr:
				if x, ok := ty.X.(*ast.Ident); ok && x.Name == "value" {
					name = ty.Sel.Name
				}
			case *ast.Ident:
				if inValue {
					name = ty.Name
				}
			}
			if banned[name] && !(inValue && len(lit.Elts) > 0 && hasSize(lit)) {
				t.Errorf("%s: struct literal of value.%s; use its constructor", fset.Position(lit.Pos()), name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// hasSize reports whether a keyed literal sets the size field.
func hasSize(lit *ast.CompositeLit) bool {
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "size" {
				return true
			}
		}
	}
	return false
}

// TestRepresentation: a Value is two words, its kind comes from its
// pointer, the zero Value is Unit, and each accessor answers only for
// its own kind.
func TestRepresentation(t *testing.T) {
	if n := unsafe.Sizeof(Value{}); n != 16 {
		t.Fatalf("a Value takes %d bytes, want 16", n)
	}
	ref := &struct{ x int }{1}
	cases := []struct {
		v    Value
		kind Kind
	}{
		{Value{}, KUnit}, {Unit, KUnit},
		{Int(-7), KInt}, {Float(2.5), KFloat}, {Bool(true), KBool}, {Bool(false), KBool},
		{String(""), KString}, {String("ab"), KString},
		{NewTuple(Int(1)), KTuple}, {NewList(nil), KList}, {None(), KData},
		{NewClosure(2, nil), KFunc}, {NewNative(3, "n"), KFunc}, {NewRange(1, 2, true), KRange},
		{Opaque(KPid, 4, ref), KPid}, {Opaque(KProcID, 4, ref), KProcID},
		{Opaque(KMonRef, 5, ref), KMonRef}, {Opaque(KOpaque, 0, nil), KOpaque},
	}
	for i, c := range cases {
		v := c.v
		if v.Kind() != c.kind {
			t.Errorf("case %d: kind %s, want %s", i, v.Kind(), c.kind)
		}
		if v.IsInt() != (c.kind == KInt) {
			t.Errorf("case %d (%s): IsInt %v", i, c.kind, v.IsInt())
		}
		if _, ok := v.Str(); ok != (c.kind == KString) {
			t.Errorf("case %d (%s): Str ok %v", i, c.kind, ok)
		}
		if _, ok := v.Tuple(); ok != (c.kind == KTuple) {
			t.Errorf("case %d (%s): Tuple ok %v", i, c.kind, ok)
		}
		if _, ok := v.List(); ok != (c.kind == KList) {
			t.Errorf("case %d (%s): List ok %v", i, c.kind, ok)
		}
		if _, ok := v.Data(); ok != (c.kind == KData) {
			t.Errorf("case %d (%s): Data ok %v", i, c.kind, ok)
		}
		if _, ok := v.Range(); ok != (c.kind == KRange) {
			t.Errorf("case %d (%s): Range ok %v", i, c.kind, ok)
		}
		_, isClosure := v.Closure()
		_, isNative := v.NativeFunc()
		if isClosure && isNative || (isClosure || isNative) != (c.kind == KFunc) {
			t.Errorf("case %d (%s): Closure %v, NativeFunc %v", i, c.kind, isClosure, isNative)
		}
		if (v.Node() != nil) != (c.kind >= KTuple) {
			t.Errorf("case %d (%s): Node %v", i, c.kind, v.Node())
		}
		if v.String() == "" {
			t.Errorf("case %d (%s): empty debug text", i, c.kind)
		}
	}
	if Int(-7).AsInt() != -7 || Float(2.5).AsFloat() != 2.5 || !Bool(true).AsBool() || Bool(false).AsBool() {
		t.Error("scalar payloads")
	}
	if String("ab").AsString() != "ab" || Int(1).AsString() != "" {
		t.Error("AsString")
	}
	p := Opaque(KPid, 4, ref)
	if p.Payload() != 4 || p.Ref() != any(ref) || Int(4).Ref() != nil {
		t.Error("handle payload and reference")
	}
	// Identity: the same node, or equal scalars; equal strings are two
	// boxes.
	tup := NewTuple(Int(1))
	if !Same(tup, tup) || Same(tup, NewTuple(Int(1))) || !Same(Int(3), Int(3)) || Same(Int(3), Bool(true)) {
		t.Error("Same")
	}
	if Same(String("ab"), String("ab")) {
		t.Error("two boxed strings are the same value")
	}
}

// TestWrongKindPanics: the object accessors refuse a value of another
// kind (the interpreter recovers the panic as an internal error) rather
// than reading it as the wrong type.
func TestWrongKindPanics(t *testing.T) {
	for i, f := range []func(){
		func() { Int(1).AsTuple() },
		func() { String("x").AsList() },
		func() { NewTuple().AsData() },
		func() { NewClosure(0, nil).AsRange() },
		func() { Value{}.AsTuple() },
		func() { (&Handle{}).Value(0) },
		func() { NewHandle(KInt, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("case %d: no panic", i)
				}
			}()
			f()
		}()
	}
}

// TestHandleEmbedding: a runtime object that embeds its Handle hands out
// values without allocating.
func TestHandleEmbedding(t *testing.T) {
	type proc struct {
		h  Handle
		id int
	}
	p := &proc{id: 9}
	p.h.Init(KPid, p)
	allocs := testing.AllocsPerRun(100, func() {
		v := p.h.Value(9)
		if v.Ref().(*proc) != p || v.Payload() != 9 || v.Kind() != KPid {
			t.Fatal("handle value")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per value", allocs)
	}
}
