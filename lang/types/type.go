package types

// Type is a Morrow type. The concrete types are *Basic, *Named, *Tuple,
// *Func, *Union, *TVar (an inference variable) and *TParam (a generic
// parameter of a signature or type declaration).
type Type interface {
	String() string
	isType()
}

// BasicKind enumerates the primitive types.
type BasicKind int

// The primitive kinds. Invalid is the type of an expression that already
// produced a diagnostic; it unifies with everything so that follow-on
// errors are suppressed. Never is the bottom type of diverging expressions.
const (
	KInvalid BasicKind = iota
	KInt
	KFloat
	KBool
	KString
	KUnit
	KNever
	KRange
	KProcessID
	KMonitorRef
)

var basicNames = [...]string{"<invalid>", "Int", "Float", "Bool", "String", "()", "Never", "Range", "ProcessId", "MonitorRef"}

// Basic is a primitive type.
type Basic struct{ Kind BasicKind }

func (b *Basic) String() string { return basicNames[b.Kind] }
func (*Basic) isType()          {}

// The primitive type singletons.
var (
	Invalid    = &Basic{KInvalid}
	IntT       = &Basic{KInt}
	FloatT     = &Basic{KFloat}
	BoolT      = &Basic{KBool}
	StringT    = &Basic{KString}
	UnitT      = &Basic{KUnit}
	NeverT     = &Basic{KNever}
	RangeT     = &Basic{KRange}
	ProcessIDT = &Basic{KProcessID}
	MonitorRef = &Basic{KMonitorRef}
)

// Named is an instance of a nominal type: a user sum, record or newtype,
// or a built-in one (List, Option, Result, Pid, Ordering and the Process
// types).
type Named struct {
	Def  *TypeDef
	Args []Type
	closed
}

func (n *Named) String() string { return typeString(n) }
func (*Named) isType()          {}

// Tuple is a tuple type.
type Tuple struct {
	Elems []Type
	closed
}

func (t *Tuple) String() string { return typeString(t) }
func (*Tuple) isType()          {}

// Func is a function type. Labels disappear once a function is a value,
// so a Func has none.
type Func struct {
	Params []Type
	Ret    Type
	closed
}

func (f *Func) String() string { return typeString(f) }
func (*Func) isType()          {}

// Union is an untagged union alias such as `type V = Int | String`.
// Values of a member type are accepted where the union is expected; a
// typed pattern `n: Int` narrows it back.
type Union struct {
	Name string
	Alts []Type
}

func (u *Union) String() string { return u.Name }
func (*Union) isType()          {}

// TVar is a unification variable. Ref is nil while unbound.
type TVar struct {
	ID  int
	Ref Type
}

func (v *TVar) String() string { return typeString(v) }
func (*TVar) isType()          {}

// TParam is a generic type parameter: a lowercase type name in a
// signature or a type declaration. Inside the body that declares it, it
// is rigid (equal only to itself); each use of a generic function
// instantiates its parameters with fresh variables.
type TParam struct {
	Name string
	ID   int
}

func (p *TParam) String() string { return p.Name }
func (*TParam) isType()          {}

// TypeKind classifies a TypeDef.
type TypeKind int

// Kinds of nominal types.
const (
	SumDef TypeKind = iota
	RecordDef
	NewtypeDef
	OpaqueDef // List, Pid: no constructors visible to patterns
)

// TypeDef is a nominal type declaration (user or built-in).
type TypeDef struct {
	Name    string // display name, e.g. "Shape", "Option", "Process.ExitReason"
	Kind    TypeKind
	Params  []*TParam
	Ctors   []*Ctor // sums: variants in tag order; records/newtypes: the single constructor
	Fields  []string
	Derives map[string]bool
	Builtin bool
	Module  string // module name used in Show diagnostics
	// Qualifier is the module of a library type ("Process" for
	// Process.ExitReason): its constructors display qualified
	// (Process.Normal).
	Qualifier string
}

// Ctor is a constructor of a nominal type. Field types mention the
// TypeDef's Params.
type Ctor struct {
	Name       string
	Def        *TypeDef
	Tag        int
	Fields     []Type
	FieldNames []string
}

// QualifiedName is the constructor name prefixed with its type, e.g.
// "Shape.Circle" or "Process.ExitReason.Normal".
func (c *Ctor) QualifiedName() string { return c.Def.Name + "." + c.Name }

// Resolve follows bound type variables at the top of t.
func Resolve(t Type) Type {
	for {
		v, ok := t.(*TVar)
		if !ok || v.Ref == nil {
			return t
		}
		t = v.Ref
	}
}
