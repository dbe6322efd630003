package process

import (
	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// The Supervisor module's natives (docs/supervisors.md). The pure ones
// (child_key, worker, branch, id) build and read the module's opaque
// values here; the others decode their arguments into a
// native.SupRequest and hand it to the host (runtime/sched), which runs
// the supervisor processes.
//
// Opaque values: a ChildKey is Value{K: KOpaque, N: token, R: *ChildKey},
// a ChildSpec Value{K: KOpaque, R: *ChildSpec} and a Handle
// Value{K: KOpaque, N: generation, R: *Handle}. Equality compares N and
// the identity of R (stdlib/core), so a key equals only itself, a spec
// only itself, and two handles of one supervisor are equal only when they
// are the same value; the host therefore hands out one Handle per
// supervisor (HandleValue caches nothing: the host keeps it).

// ChildKey is the payload of a Supervisor.ChildKey value: a token that no
// other child_key call returns, and the child's name.
type ChildKey struct {
	Token uint64
	Name  string
}

// ChildSpec is the payload of a Supervisor.ChildSpec value.
type ChildSpec struct{ Spec supervisor.Spec }

// Handle is the payload of a Supervisor.Handle value: the supervisor's
// ProcessId.
type Handle struct{ ID value.Value }

var keyTokens atomic.Uint64

// Run-time descriptors of the Supervisor types the runtime builds.
var (
	SupErrorType   = builtins.LookupType("Supervisor.Error").Info()
	ChildInfoType  = builtins.LookupType("Supervisor.ChildInfo").Info()
	ChildStateType = builtins.LookupType("Supervisor.ChildState").Info()
	ChildKindType  = builtins.LookupType("Supervisor.ChildKind").Info()
)

// NewHandle builds the Handle value of the supervisor with ProcessId id.
func NewHandle(id value.Value) value.Value {
	return value.Opaque(value.KOpaque, id.Payload(), &Handle{ID: id})
}

// HandleOf returns the payload of a Handle value, or nil.
func HandleOf(v value.Value) *Handle {
	if v.Kind() != value.KOpaque {
		return nil
	}
	h, _ := v.Ref().(*Handle)
	return h
}

func keyOf(v value.Value) *ChildKey {
	if v.Kind() != value.KOpaque {
		return nil
	}
	k, _ := v.Ref().(*ChildKey)
	return k
}

func specOf(v value.Value) *ChildSpec {
	if v.Kind() != value.KOpaque {
		return nil
	}
	s, _ := v.Ref().(*ChildSpec)
	return s
}

// SupErr is Err(e) for a Supervisor.Error variant without payload.
func SupErr(e supervisor.Error) value.Value {
	return value.Err(value.NewData(SupErrorType, int(e)))
}

// SupResult is the Morrow value of a machine's Result for the operations
// that answer Result((), Supervisor.Error) (and the errors of the
// others): Ok(()) or the Err.
func SupResult(r supervisor.Result) value.Value {
	switch {
	case r.OK:
		return value.Ok(value.Unit)
	case r.Err == supervisor.ErrStartFailed:
		return value.Err(value.NewData(SupErrorType, int(supervisor.ErrStartFailed),
			value.String(r.FailedName), ReasonValue(r.FailedReason)))
	}
	return SupErr(r.Err)
}

// ChildInfoValue is one row of which_children; id is the ProcessId of a
// Running child (ignored otherwise).
func ChildInfoValue(c supervisor.ChildInfo, id value.Value) value.Value {
	var st value.Value
	if c.State == supervisor.Running {
		st = value.NewData(ChildStateType, int(supervisor.Running), id)
	} else {
		st = value.NewData(ChildStateType, int(c.State))
	}
	return value.NewData(ChildInfoType, 0, value.String(c.Name), value.NewData(ChildKindType, int(c.Kind)), st)
}

// ReasonOf converts a Process.ExitReason value.
func ReasonOf(v value.Value) supervisor.Reason {
	d, _ := v.Data()
	if d == nil {
		return supervisor.Reason{Kind: supervisor.ReasonNormal}
	}
	r := supervisor.Reason{Kind: supervisor.ReasonKind(d.Tag)}
	if len(d.Fields) > 0 {
		switch d.Tag {
		case ReasonFault:
			r.Code = d.Fields[0].AsInt()
		case ReasonShutdownDetail, ReasonFailure:
			r.Text = d.Fields[0].AsString()
		}
	}
	return r
}

// ReasonValue converts a reason back to a Process.ExitReason value.
func ReasonValue(r supervisor.Reason) value.Value {
	switch r.Kind {
	case supervisor.ReasonFault:
		return Reason(ReasonFault, value.Int(r.Code))
	case supervisor.ReasonShutdownDetail, supervisor.ReasonFailure:
		return Reason(int(r.Kind), value.String(r.Text))
	}
	return Reason(int(r.Kind), value.Unit)
}

func dataOf(v value.Value, fields int) *value.Data {
	d, _ := v.Data()
	if d == nil || len(d.Fields) != fields {
		return nil
	}
	return d
}

func tagOf(v value.Value) (int, bool) {
	d, _ := v.Data()
	if d == nil {
		return 0, false
	}
	return d.Tag, true
}

// flagsOf decodes a Supervisor.Flags record.
func flagsOf(v value.Value) (supervisor.Flags, bool) {
	d := dataOf(v, 4)
	if d == nil {
		return supervisor.Flags{}, false
	}
	st, ok1 := tagOf(d.Fields[0])
	au, ok2 := tagOf(d.Fields[3])
	if !ok1 || !ok2 || !d.Fields[1].IsInt() || !d.Fields[2].IsInt() {
		return supervisor.Flags{}, false
	}
	return supervisor.Flags{Strategy: supervisor.Strategy(st), Intensity: d.Fields[1].AsInt(),
		PeriodSeconds: d.Fields[2].AsInt(), AutoShutdown: supervisor.AutoShutdown(au)}, true
}

// policyOf decodes a Supervisor.ChildPolicy record.
func policyOf(v value.Value) (supervisor.Policy, bool) {
	d := dataOf(v, 3)
	if d == nil {
		return supervisor.Policy{}, false
	}
	rs, ok1 := tagOf(d.Fields[0])
	sd, _ := d.Fields[1].Data()
	if !ok1 || sd == nil || d.Fields[2].Kind() != value.KBool {
		return supervisor.Policy{}, false
	}
	p := supervisor.Policy{Restart: supervisor.Restart(rs), Shutdown: supervisor.Shutdown{Kind: supervisor.ShutdownKind(sd.Tag)},
		Significant: d.Fields[2].AsBool()}
	if sd.Tag == int(supervisor.Graceful) && len(sd.Fields) == 1 {
		p.Shutdown.Ms = sd.Fields[0].AsInt()
	}
	return p, true
}

// specsOf decodes a List(Supervisor.ChildSpec).
func specsOf(v value.Value) ([]supervisor.Spec, bool) {
	l, _ := v.List()
	if l == nil {
		return nil, false
	}
	out := make([]supervisor.Spec, 0, len(l.Items))
	for _, it := range l.Items {
		s := specOf(it)
		if s == nil {
			return nil, false
		}
		out = append(out, s.Spec)
	}
	return out, true
}

func badArgs(name string) *fault.Fault { return fault.Internalf("%s: malformed arguments", name) }

func init() {
	O := value.KOpaque
	D := value.KData
	reg("Supervisor.child_key", []value.Kind{value.KString}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		name := a[0].AsString()
		if len(name) > supervisor.MaxNameBytes {
			return value.Unit, fault.New(fault.Resource)
		}
		t := keyTokens.Add(1)
		return value.Opaque(value.KOpaque, int64(t), &ChildKey{Token: t, Name: name}), nil
	})
	reg("Supervisor.worker", []value.Kind{O, value.KFunc, D}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		k := keyOf(a[0])
		p, ok := policyOf(a[2])
		if k == nil || !ok {
			return value.Unit, badArgs("Supervisor.worker")
		}
		if err := supervisor.ValidateWorker(k.Name, p); err != nil {
			return SupErr(err.(supervisor.Error)), nil
		}
		s := supervisor.Spec{Name: k.Name, Kind: supervisor.Worker, Key: k.Token, Policy: p, Template: a[1]}
		return value.Ok(value.Opaque(value.KOpaque, 0, &ChildSpec{Spec: s})), nil
	})
	reg("Supervisor.branch", []value.Kind{value.KString, D, value.KList, D}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		f, ok1 := flagsOf(a[1])
		cs, ok2 := specsOf(a[2])
		p, ok3 := policyOf(a[3])
		if !ok1 || !ok2 || !ok3 {
			return value.Unit, badArgs("Supervisor.branch")
		}
		name := a[0].AsString()
		if err := supervisor.ValidateBranch(name, f, cs, p); err != nil {
			return SupErr(err.(supervisor.Error)), nil
		}
		s := supervisor.Spec{Name: name, Kind: supervisor.Branch, Policy: p, Flags: f, Children: cs}
		return value.Ok(value.Opaque(value.KOpaque, 0, &ChildSpec{Spec: s})), nil
	})
	reg("Supervisor.id", []value.Kind{O}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		h := HandleOf(a[0])
		if h == nil {
			return value.Unit, badArgs("Supervisor.id")
		}
		return h.ID, nil
	})
	start := func(op native.SupOp, name string) native.Func {
		return func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
			f, ok1 := flagsOf(a[0])
			cs, ok2 := specsOf(a[1])
			if !ok1 || !ok2 {
				return value.Unit, badArgs(name)
			}
			return h.Supervise(&native.SupRequest{Op: op, Flags: f, Children: cs})
		}
	}
	reg("Supervisor.start", []value.Kind{D, value.KList}, start(native.SupStart, "Supervisor.start"))
	reg("Supervisor.start_link", []value.Kind{D, value.KList}, start(native.SupStartLink, "Supervisor.start_link"))
	onHandle := func(name string, fn func(a []value.Value, r *native.SupRequest) bool) native.Func {
		return func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
			hd := HandleOf(a[0])
			r := &native.SupRequest{}
			if hd == nil || !fn(a, r) {
				return value.Unit, badArgs(name)
			}
			r.Handle = hd.ID
			return h.Supervise(r)
		}
	}
	reg("Supervisor.current", []value.Kind{O, O}, onHandle("Supervisor.current", func(a []value.Value, r *native.SupRequest) bool {
		k := keyOf(a[1])
		if k == nil {
			return false
		}
		r.Op, r.Name, r.Key = native.SupCurrent, k.Name, k.Token
		return true
	}))
	reg("Supervisor.which_children", []value.Kind{O}, onHandle("Supervisor.which_children", func(_ []value.Value, r *native.SupRequest) bool {
		r.Op = native.SupWhichChildren
		return true
	}))
	reg("Supervisor.start_child", []value.Kind{O, O}, onHandle("Supervisor.start_child", func(a []value.Value, r *native.SupRequest) bool {
		s := specOf(a[1])
		if s == nil {
			return false
		}
		r.Op, r.Spec = native.SupStartChild, s.Spec
		return true
	}))
	named := func(op native.SupOp) func(a []value.Value, r *native.SupRequest) bool {
		return func(a []value.Value, r *native.SupRequest) bool {
			r.Op, r.Name = op, a[1].AsString()
			return true
		}
	}
	reg("Supervisor.terminate_child", []value.Kind{O, value.KString}, onHandle("Supervisor.terminate_child", named(native.SupTerminateChild)))
	reg("Supervisor.restart_child", []value.Kind{O, value.KString}, onHandle("Supervisor.restart_child", named(native.SupRestartChild)))
	reg("Supervisor.delete_child", []value.Kind{O, value.KString}, onHandle("Supervisor.delete_child", named(native.SupDeleteChild)))
	reg("Supervisor.stop", []value.Kind{O}, onHandle("Supervisor.stop", func(_ []value.Value, r *native.SupRequest) bool {
		r.Op = native.SupStop
		return true
	}))
	reg("Process.init_ack", nil, func(h native.Host, _ []value.Value) (value.Value, *fault.Fault) {
		return h.Supervise(&native.SupRequest{Op: native.InitAck})
	})
	reg("Process.init_ignore", nil, func(h native.Host, _ []value.Value) (value.Value, *fault.Fault) {
		return h.Supervise(&native.SupRequest{Op: native.InitIgnore})
	})
	reg("Process.init_fail", []value.Kind{D}, func(h native.Host, a []value.Value) (value.Value, *fault.Fault) {
		return h.Supervise(&native.SupRequest{Op: native.InitFail, Reason: a[0]})
	})
}
