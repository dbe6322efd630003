package stdlib_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
	"github.com/morrow-lang/morrow/stdlib"
	"github.com/morrow-lang/morrow/stdlib/builtins"
	"github.com/morrow-lang/morrow/stdlib/core"
)

// offHost offloads as the scheduler's host does: the first call starts
// the work on a goroutine and parks (fault.Park); the call made again
// takes the result.
type offHost struct {
	native.Detached
	ch       chan value.Value
	offloads int
}

func (h *offHost) Offload(work func() value.Value) (value.Value, *fault.Fault, bool) {
	if h.ch != nil {
		v := <-h.ch
		h.ch = nil
		return v, nil, true
	}
	h.ch = make(chan value.Value, 1)
	h.offloads++
	go func() { h.ch <- work() }()
	return value.Unit, fault.NewPark(), true
}

// outcome is what one call gives: its value, fault, work and output.
type outcome struct {
	v    value.Value
	f    *fault.Fault
	work int64
	out  string
}

// callInPlace runs n with a host that computes in place.
func callInPlace(n *native.Native, args []value.Value) outcome {
	var buf bytes.Buffer
	v, f, w := n.CallWork(native.Detached{W: &buf}, args)
	return outcome{v, f, w, buf.String()}
}

// callOffloaded runs n with a host that offloads, calling it again
// while it parks, as the VM does; it also returns how many times the
// work went off the caller.
func callOffloaded(t *testing.T, n *native.Native, args []value.Value) (outcome, int) {
	var buf bytes.Buffer
	h := &offHost{Detached: native.Detached{W: &buf}}
	for range 3 {
		v, f, w := n.CallWork(h, args)
		if f != nil && f.IsPark() {
			continue
		}
		return outcome{v, f, w, buf.String()}, h.offloads
	}
	t.Fatalf("%s parks forever", n.Name)
	return outcome{}, 0
}

// testOffloadMin is the threshold the comparison runs at, so that it
// can try many inputs on either side of it quickly; the code paths are
// those of native.OffloadMin.
const testOffloadMin = 512

// argGen generates random arguments of a signature's types; big makes
// every list, string and count large enough (or just not) to reach
// testOffloadMin.
type argGen struct {
	r    *rand.Rand
	big  bool
	vars map[string]string // generic parameter -> "Int", "String" or "List(Int)"
	// scalar: the generic parameters are Int or String (map keys,
	// List.contains).
	scalar bool
}

func (g *argGen) size() int {
	if g.big {
		if g.r.Intn(4) == 0 { // at the threshold (measures add one or two)
			return testOffloadMin - 2 + g.r.Intn(4)
		}
		return testOffloadMin + g.r.Intn(3*testOffloadMin)
	}
	return g.r.Intn(12)
}

var letters = strings.Split("a b , \n 0 1 2 9 é \t", " ")

func (g *argGen) str() string {
	n := g.size()
	if g.big && n > 20 {
		n *= value.SlotSize // text is measured in slots
	}
	var b strings.Builder
	if g.r.Intn(5) == 0 { // decimal (Int.parse, String.is_decimal)
		for range n {
			b.WriteByte(byte('0' + g.r.Intn(10)))
		}
		return b.String()
	}
	for b.Len() < n {
		b.WriteString(letters[g.r.Intn(len(letters))])
	}
	return b.String()
}

func (g *argGen) gen(t *builtins.Type) value.Value {
	if t.IsVar() {
		if g.vars[t.Name] == "" {
			choice := []string{"Int", "String", "List(Int)"}
			switch {
			case g.scalar:
				choice = choice[:2]
			case g.big: // a large value, for the natives measured by it
				choice = choice[1:]
			}
			g.vars[t.Name] = choice[g.r.Intn(len(choice))]
		}
		vt, err := builtins.ParseType(g.vars[t.Name])
		if err != nil {
			panic(err)
		}
		return g.gen(vt)
	}
	switch t.Name {
	case "Int":
		if g.big {
			switch g.r.Intn(3) {
			case 0: // just above the threshold (a count into a big list)
				return value.Int(int64(testOffloadMin + g.r.Intn(64)))
			case 1:
				return value.Int(int64(testOffloadMin + g.r.Intn(2*testOffloadMin)))
			}
		}
		return value.Int(int64(g.r.Intn(30)) - 5)
	case "Bool":
		return value.Bool(g.r.Intn(2) == 0)
	case "String":
		return value.String(g.str())
	case "":
		elems := make([]value.Value, len(t.Args))
		for i, a := range t.Args {
			elems[i] = g.gen(a)
		}
		return value.NewTuple(elems...)
	case "List":
		items := make([]value.Value, g.size())
		small := &argGen{r: g.r, vars: g.vars, scalar: g.scalar} // the elements are small
		for i := range items {
			items[i] = small.gen(t.Args[0])
		}
		return value.NewList(items)
	case "Map", "Set":
		// Distinct keys, so that a big map is big.
		items := make([]value.Value, g.size())
		base := g.r.Intn(100)
		kt := g.vars[t.Args[0].Name]
		if kt == "" {
			kt = []string{"Int", "String"}[g.r.Intn(2)]
			g.vars[t.Args[0].Name] = kt
		}
		small := &argGen{r: g.r, vars: g.vars, scalar: true}
		for i := range items {
			k := value.Int(int64(base + i))
			if kt == "String" {
				k = value.String(fmt.Sprint(base + i))
			}
			items[i] = k
			if t.Name == "Map" {
				items[i] = value.NewTuple(k, small.gen(t.Args[1]))
			}
		}
		xs := value.NewList(items)
		n, _ := core.Lookup(t.Name + ".from_list")
		v, f := n.Call(native.Detached{}, []value.Value{xs})
		if f != nil {
			panic(f.Msg)
		}
		return v
	case "Option":
		if g.r.Intn(4) == 0 {
			return value.None()
		}
		return value.Some(g.gen(t.Args[0]))
	case "Result":
		if g.r.Intn(2) == 0 {
			return value.Err(g.gen(t.Args[1]))
		}
		return value.Ok(g.gen(t.Args[0]))
	}
	panic("no generator for " + t.String())
}

// TestLongNativesSameBothWays: every long native (builtins.Long) gives
// the same value, fault, work and output whether it runs in place or off
// the schedulers, on random arguments below and above the threshold
// (lowered to testOffloadMin); and it goes off exactly when its measure
// reaches the threshold.
func TestLongNativesSameBothWays(t *testing.T) {
	t.Cleanup(native.SetOffloadMinForTest(testOffloadMin))
	r := rand.New(rand.NewSource(28))
	tab := stdlib.Natives()
	rounds := 15
	if testing.Short() {
		rounds = 5
	}
	for _, e := range builtins.All() {
		if !e.Has(builtins.Long) {
			continue
		}
		n, _ := tab.Lookup(e.Name)
		if n == nil || n.Size == nil {
			t.Errorf("%s is long but has no measure in the native table", e.Name)
			continue
		}
		offloaded := 0
		for round := range 2 * rounds {
			g := &argGen{r: r, big: round%2 == 1, vars: map[string]string{},
				scalar: e.Req == builtins.MapKey || e.Req == builtins.Scalar}
			seed := r.Int63()
			args := make([]value.Value, len(e.Type().Args))
			for i, a := range e.Type().Args {
				if i > 0 && a.String() == e.Type().Args[0].String() && r.Intn(3) == 0 {
					// The same value again, built anew: equal arguments.
					g.r = rand.New(rand.NewSource(seed))
					args[i] = g.gen(a)
					continue
				}
				if i == 0 {
					g.r = rand.New(rand.NewSource(seed))
				}
				args[i] = g.gen(a)
			}
			want := callInPlace(n, args)
			got, offs := callOffloaded(t, n, args)
			if (offs > 0) != (n.Size(args) >= testOffloadMin) {
				t.Errorf("%s: measure %d, offloaded %d times", e.Name, n.Size(args), offs)
			}
			offloaded += offs
			if !sameOutcome(want, got) {
				t.Errorf("%s (measure %d): in place %s, offloaded %s", e.Name, n.Size(args), describe(want), describe(got))
			}
		}
		if offloaded == 0 && !testing.Short() {
			t.Errorf("%s never went off the schedulers", e.Name)
		}
	}
}

func sameOutcome(a, b outcome) bool {
	if (a.f == nil) != (b.f == nil) || a.work != b.work || a.out != b.out {
		return false
	}
	if a.f != nil {
		return a.f.Code == b.f.Code && a.f.Msg == b.f.Msg && a.f.Internal == b.f.Internal
	}
	return a.v.Kind() == b.v.Kind() && core.Equal(a.v, b.v)
}

func describe(o outcome) string {
	if o.f != nil {
		return "fault " + o.f.Msg
	}
	s, _ := core.RenderShow(o.v)
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return fmt.Sprintf("%s (work %d, output %d bytes)", s, o.work, len(o.out))
}
