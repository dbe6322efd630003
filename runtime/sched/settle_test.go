package sched

import (
	"go/ast"
	"reflect"
	"testing"

	"github.com/morrow-lang/morrow/internal/gosrc"
	"github.com/morrow-lang/morrow/runtime/vm"
)

// noSettle lists the vm.Host operations that do not settle the running
// process's takes first, each with the reason. Every other operation must
// begin with h.settle() (see settle in host.go): a new host operation is
// checked by TestEveryHostOperationSettles until it is either.
var noSettle = map[string]string{
	"Stdout":    "output is not observed by any process",
	"RecvStart": "the receive cursor reads the process's own mailbox; its takes are what settle applies",
	"RecvPeek":  "own mailbox, as RecvStart",
	"RecvTake":  "records a take (settle's input); the scheduler settles after the turn",
	"RecvSkip":  "own mailbox, as RecvStart",
	"RecvWait":  "parking ends the turn, after which the scheduler settles",
	"Self":      "reads the process's own address; no other process learns anything",
}

// TestEveryHostOperationSettles: every method of vm.Host that the
// scheduler's host implements starts with h.settle(), or is listed in
// noSettle with its reason.
func TestEveryHostOperationSettles(t *testing.T) {
	methods := map[string]bool{}
	ht := reflect.TypeOf((*vm.Host)(nil)).Elem()
	for i := 0; i < ht.NumMethod(); i++ {
		methods[ht.Method(i).Name] = true
	}
	for name := range noSettle {
		if !methods[name] {
			t.Errorf("noSettle lists %s, which is not a vm.Host operation", name)
		}
	}
	found := map[string]bool{}
	fset, fns := gosrc.Funcs(t, ".")
	for _, fd := range fns {
		if fd.Recv == nil || !methods[fd.Name.Name] || !isHostRecv(fd.Recv) {
			continue
		}
		found[fd.Name.Name] = true
		if _, exempt := noSettle[fd.Name.Name]; exempt {
			continue
		}
		if !startsWithSettle(fd.Body) {
			t.Errorf("%s: host.%s does not begin with h.settle(); begin it so, or list it in noSettle with the reason", fset.Position(fd.Pos()), fd.Name.Name)
		}
	}
	for m := range methods {
		if !found[m] {
			t.Errorf("found no host.%s in this package: the check above would be vacuous for it", m)
		}
	}
}

func isHostRecv(r *ast.FieldList) bool {
	if len(r.List) != 1 {
		return false
	}
	star, ok := r.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "host"
}

func startsWithSettle(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	es, ok := body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "settle"
}
