package ptype

import (
	"github.com/morrow-lang/morrow/runtime/supervisor"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib/builtins"
)

// The Supervisor module's values that the runtime builds or reads.
//
// Opaque values: a ChildKey is Value{K: KOpaque, N: token, R: *ChildKey},
// a ChildSpec Value{K: KOpaque, R: *ChildSpec} and a Handle
// Value{K: KOpaque, N: generation, R: *Handle}. Equality compares N and
// the identity of R (stdlib/core), so a key equals only itself, a spec
// only itself, and two handles of one supervisor are equal only when they
// are the same value.

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

// KeyOf returns the payload of a Supervisor.ChildKey value, or nil.
func KeyOf(v value.Value) *ChildKey {
	if v.Kind() != value.KOpaque {
		return nil
	}
	k, _ := v.Ref().(*ChildKey)
	return k
}

// SpecOf returns the payload of a Supervisor.ChildSpec value, or nil.
func SpecOf(v value.Value) *ChildSpec {
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
