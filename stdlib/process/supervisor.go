package process

import (
	"github.com/morrow-lang/morrow/runtime/ptype"

	"sync/atomic"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
)

// The Supervisor module's natives (docs/supervisors.md). The pure ones
// (child_key, worker, branch, id) build and read the module's opaque
// values here; the others decode their arguments into a
// native.SupRequest and hand it to the host (runtime/sched), which runs
// the supervisor processes.
//
// Opaque values: a ptype.ChildKey is Value{K: KOpaque, N: token, R: *ptype.ChildKey},
// a ptype.ChildSpec Value{K: KOpaque, R: *ptype.ChildSpec} and a ptype.Handle
// Value{K: KOpaque, N: generation, R: *ptype.Handle}. Equality compares N and
// the identity of R (stdlib/core), so a key equals only itself, a spec
// only itself, and two handles of one supervisor are equal only when they
// are the same value; the host therefore hands out one ptype.Handle per
// supervisor (HandleValue caches nothing: the host keeps it).

var keyTokens atomic.Uint64

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
		s := ptype.SpecOf(it)
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
		return value.Opaque(value.KOpaque, int64(t), &ptype.ChildKey{Token: t, Name: name}), nil
	})
	reg("Supervisor.worker", []value.Kind{O, value.KFunc, D}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		k := ptype.KeyOf(a[0])
		p, ok := policyOf(a[2])
		if k == nil || !ok {
			return value.Unit, badArgs("Supervisor.worker")
		}
		if err := supervisor.ValidateWorker(k.Name, p); err != nil {
			return ptype.SupErr(err.(supervisor.Error)), nil
		}
		s := supervisor.Spec{Name: k.Name, Kind: supervisor.Worker, Key: k.Token, Policy: p, Template: a[1]}
		return value.Ok(value.Opaque(value.KOpaque, 0, &ptype.ChildSpec{Spec: s})), nil
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
			return ptype.SupErr(err.(supervisor.Error)), nil
		}
		s := supervisor.Spec{Name: name, Kind: supervisor.Branch, Policy: p, Flags: f, Children: cs}
		return value.Ok(value.Opaque(value.KOpaque, 0, &ptype.ChildSpec{Spec: s})), nil
	})
	reg("Supervisor.id", []value.Kind{O}, func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
		h := ptype.HandleOf(a[0])
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
			hd := ptype.HandleOf(a[0])
			r := &native.SupRequest{}
			if hd == nil || !fn(a, r) {
				return value.Unit, badArgs(name)
			}
			r.Handle = hd.ID
			return h.Supervise(r)
		}
	}
	reg("Supervisor.current", []value.Kind{O, O}, onHandle("Supervisor.current", func(a []value.Value, r *native.SupRequest) bool {
		k := ptype.KeyOf(a[1])
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
		s := ptype.SpecOf(a[1])
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
