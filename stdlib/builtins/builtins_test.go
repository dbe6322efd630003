package builtins

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// TestReference: docs/stdlib.md holds exactly the generated reference
// between its markers. GOLDIE_UPDATE=1 rewrites it.
func TestReference(t *testing.T) {
	const path = "../../docs/stdlib.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, ReferenceBegin)
	end := strings.Index(doc, ReferenceEnd)
	if start < 0 || end < start {
		t.Fatalf("%s has no generated reference section (markers %q … %q)", path, ReferenceBegin, ReferenceEnd)
	}
	end += len(ReferenceEnd) + 1
	want := Reference()
	if doc[start:end] == want {
		return
	}
	if os.Getenv("GOLDIE_UPDATE") != "" {
		if err := os.WriteFile(path, []byte(doc[:start]+want+doc[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the builtin reference in %s is stale: regenerate it with GOLDIE_UPDATE=1 go test ./stdlib/builtins", path)
}

// TestReferenceListsEverything: every entry and type has its row.
func TestReferenceListsEverything(t *testing.T) {
	ref := Reference()
	for _, e := range All() {
		if !strings.Contains(ref, "| `"+e.Name+"` | `") {
			t.Errorf("the reference has no row for %s", e.Name)
		}
	}
	for _, ty := range Types() {
		if !strings.Contains(ref, "| `"+ty.docHead()+"` |") {
			t.Errorf("the reference has no row for %s", ty.Name)
		}
	}
	if !strings.Contains(ref, "| `eq` | `(left: a, right: a) -> Bool` |") {
		t.Error("labels are not written into eq's signature")
	}
}

// TestSignaturesAreCanonical: every signature is written as ParseType
// prints it, so the reference, the checker and the table agree on the
// text.
func TestSignaturesAreCanonical(t *testing.T) {
	for _, e := range All() {
		if got := e.Type().String(); got != e.Sig {
			t.Errorf("%s: signature %q prints back as %q", e.Name, e.Sig, got)
		}
	}
}

func TestParseType(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"Int", "Int"},
		{"()", "Unit"},
		{"(Int)", "Int"},
		{"(Int, a)", "(Int, a)"},
		{"(List(a), (a) -> b) -> List(b)", "(List(a), (a) -> b) -> List(b)"},
		{"() -> Pid(m)", "() -> Pid(m)"},
		{"(Process.ExitReason) -> Never", "(Process.ExitReason) -> Never"},
		{"(List(a)) -> List((Int, a))", "(List(a)) -> List((Int, a))"},
	} {
		ty, err := ParseType(c.in)
		if err != nil {
			t.Errorf("ParseType(%q): %v", c.in, err)
			continue
		}
		if got := ty.String(); got != c.out {
			t.Errorf("ParseType(%q) prints %q, want %q", c.in, got, c.out)
		}
	}
	for _, bad := range []string{"", "(Int", "(Int,)", "Int)", "->", "(a) ->"} {
		if _, err := ParseType(bad); err == nil {
			t.Errorf("ParseType(%q) succeeded", bad)
		}
	}
}

// TestValidateRejects: each malformed entry or type is refused.
func TestValidateRejects(t *testing.T) {
	ok := func() *Entry { return &Entry{Name: "X.f", Sig: "(Int) -> Int", Impl: ImplNative, Doc: "d"} }
	for name, e := range map[string]*Entry{
		"unknown type":       {Name: "X.f", Sig: "(Intt) -> Int", Impl: ImplNative, Doc: "d"},
		"type arity":         {Name: "X.f", Sig: "(List) -> Int", Impl: ImplNative, Doc: "d"},
		"not a function":     {Name: "X.f", Sig: "Int", Impl: ImplNative, Doc: "d"},
		"labels":             {Name: "X.f", Sig: "(Int) -> Int", Labels: []string{"a", "b"}, Impl: ImplNative, Doc: "d"},
		"no impl":            {Name: "X.f", Sig: "(Int) -> Int", Doc: "d"},
		"prelude, no fn":     {Name: "X.f", Sig: "(Int) -> Int", Impl: ImplPrelude, Doc: "d"},
		"opcode, no lower":   {Name: "X.f", Sig: "(Int) -> Int", Impl: ImplOpcode, Doc: "d"},
		"native lowered":     {Name: "X.f", Sig: "(Int) -> Int", Impl: ImplNative, Lower: LowerSend, Doc: "d"},
		"no doc":             {Name: "X.f", Sig: "(Int) -> Int", Impl: ImplNative},
		"req, no generic":    {Name: "X.f", Sig: "(Int) -> Int", Impl: ImplNative, Req: Ordered, Doc: "d"},
		"rule, no arg":       {Name: "X.f", Sig: "() -> Int", Impl: ImplNative, Rule: SpawnEntry, Doc: "d"},
		"bad name":           {Name: "X.f.g", Sig: "(Int) -> Int", Impl: ImplNative, Doc: "d"},
		"spawn, no mailbox":  {Name: "X.f", Sig: "(() -> Unit) -> Pid(m)", Impl: ImplNative, Rule: SpawnEntry, Doc: "d"},
		"mailbox not in sig": {Name: "X.f", Sig: "(() -> Unit) -> Pid(m)", Impl: ImplNative, Rule: SpawnEntry, Mailbox: "q", Doc: "d"},
		"mailbox, no rule":   {Name: "X.f", Sig: "(Pid(m)) -> Int", Impl: ImplNative, Mailbox: "m", Doc: "d"},
	} {
		if err := Validate([]*Entry{e}, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if err := Validate([]*Entry{ok(), ok()}, nil); err == nil {
		t.Error("a name listed twice is accepted")
	}
	if err := Validate([]*Entry{ok()}, nil); err != nil {
		t.Errorf("a good entry is refused: %v", err)
	}
	for name, ty := range map[string]*TypeDecl{
		"unqualified":     {Name: "T", Kind: Sum, Variants: []Variant{{Name: "A"}}, Doc: "d"},
		"empty sum":       {Name: "M.T", Kind: Sum, Doc: "d"},
		"opaque ctors":    {Name: "M.T", Kind: Opaque, Variants: []Variant{{Name: "A"}}, Doc: "d"},
		"unnamed field":   {Name: "M.T", Kind: Record, Variants: []Variant{{Name: "T", Fields: positional("Int")}}, Doc: "d"},
		"named variant":   {Name: "M.T", Kind: Sum, Variants: []Variant{{Name: "A", Fields: []Field{{"x", "Int"}}}}, Doc: "d"},
		"free parameter":  {Name: "M.T", Kind: Sum, Variants: []Variant{{Name: "A", Fields: positional("a")}}, Doc: "d"},
		"bad capability":  {Name: "M.T", Kind: Opaque, Derives: []string{"Json"}, Doc: "d"},
		"unknown field":   {Name: "M.T", Kind: Sum, Variants: []Variant{{Name: "A", Fields: positional("M.U")}}, Doc: "d"},
		"uppercase param": {Name: "M.T", Kind: Opaque, Params: []string{"M"}, Doc: "d"},
	} {
		if err := Validate(nil, []*TypeDecl{ty}); err == nil {
			t.Errorf("type %s: accepted", name)
		}
	}
}

// TestPlannedBuiltins: the registry can describe builtins beyond today's
// table (shaped like docs/supervisors.md's and docs/reference/runtime.md#features-beyond-the-core-language's): opaque generic types whose
// parameter comes from the expected type, Never-returning operations,
// and root-or-actor operations that park (lowered to instructions,
// since a native cannot park).
func TestPlannedBuiltins(t *testing.T) {
	types := append(slices.Clone(typeTable),
		&TypeDecl{Name: "Planned.Handle", Kind: Opaque, Params: []string{"m"}, Derives: []string{"Eq"}, Doc: "a planned handle"},
		&TypeDecl{Name: "Planned.CallError", Kind: Sum, Derives: allCapabilities, Doc: "why a call failed",
			Variants: []Variant{{Name: "CallTimeout"}, {Name: "CallDown", Fields: positional("Process.ExitReason")}, {Name: "CallRejected", Fields: positional("Int")}}},
	)
	entries := []*Entry{
		{Name: "Planned.whereis", Sig: "(String) -> Option(Pid(m))", Impl: ImplNative, Context: RootOrActor, Flags: NoDefer, Doc: "d"},
		{Name: "Planned.register", Sig: "(String, Pid(m)) -> Result(Unit, Process.Error)", Impl: ImplNative, Context: RootOrActor, Flags: NoDefer, Rule: TypedPid, Doc: "d"},
		{Name: "Planned.call", Sig: "(Pid(m), (Pid(r)) -> m, Int) -> Result(r, Planned.CallError)", Impl: ImplOpcode, Lower: LowerSend,
			Context: ActorOnly, Flags: NoDefer | Effect, Rule: TypedPid, Reply: "r", Doc: "d"},
		{Name: "Planned.key", Sig: "(String) -> Planned.Handle(m)", Impl: ImplNative, Doc: "d"},
		{Name: "Planned.worker", Sig: "(Supervisor.ChildKey(m), () -> Unit, Supervisor.Error) -> Result(Supervisor.ChildSpec, Supervisor.Error)",
			Impl: ImplNative, Rule: SpawnEntry, Mailbox: "m", Doc: "d"},
		{Name: "Planned.start", Sig: "(List(Supervisor.ChildSpec)) -> Result(Supervisor.Handle, Supervisor.Error)", Impl: ImplOpcode, Lower: LowerSpawn,
			Context: RootOrActor, Flags: NoDefer | Effect, Doc: "d"},
	}
	if err := Validate(entries, types); err != nil {
		t.Fatal(err)
	}
	if h := types[len(typeTable)]; h.Info() != nil {
		t.Error("an opaque type has a run-time descriptor")
	}
	if LookupType("Planned.Handle") != nil {
		t.Error("validating a table registered its types")
	}
}

// TestLookups: the indexes agree with the table.
func TestLookups(t *testing.T) {
	if len(All()) != len(table) || !slices.IsSortedFunc(All(), func(a, b *Entry) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("All is not the table, sorted")
	}
	for _, e := range table {
		if Lookup(e.Name) != e {
			t.Errorf("Lookup(%s)", e.Name)
		}
		if e.Module() != "" && !slices.Contains(Modules(), e.Module()) {
			t.Errorf("module %s of %s is not listed", e.Module(), e.Name)
		}
	}
	if Lookup("List.nope") != nil {
		t.Error("Lookup finds a missing name")
	}
	if got := Lookup("eq"); got.Module() != "" || got.Member() != "eq" || got.Arity() != 2 {
		t.Errorf("eq: module %q member %q arity %d", got.Module(), got.Member(), got.Arity())
	}
	if got := Lookup("Process.self"); !got.CallOnly() || got.Arity() != 0 || got.Module() != ProcessModule {
		t.Error("Process.self")
	}
	for _, c := range []struct {
		name, typ string
		tag       int
	}{
		{"Process.Normal", "Process.ExitReason", 0},
		{"Process.ExitReason.NoProcess", "Process.ExitReason", 7},
		{"Process.InvalidOptions", "Process.Error", 4},
		{"Process.Event.Exit", "Process.Event", 2},
		{"Process.DemonitorOptions", "Process.DemonitorOptions", 0},
	} {
		ty, tag, ok := FindCtor(c.name)
		if !ok || ty.Name != c.typ || tag != c.tag {
			t.Errorf("FindCtor(%s) = %v %d %v", c.name, ty, tag, ok)
		}
	}
	for _, bad := range []string{"Process.Nope", "Process.Error.Normal", "List.Normal", "Normal"} {
		if _, _, ok := FindCtor(bad); ok {
			t.Errorf("FindCtor(%s) found a constructor", bad)
		}
	}
	ti := LookupType("Process.DemonitorOptions").Info()
	if ti == nil || !slices.Equal(ti.Variants[0].Fields, []string{"flush", "info"}) || !ti.Show || !ti.Ord {
		t.Errorf("DemonitorOptions descriptor %+v", ti)
	}
	if LookupType("Process.Event").Info() != LookupType("Process.Event").Info() {
		t.Error("a type has two descriptors")
	}
}
