package gen

// Known checker bugs. When the generator or the mutator finds a bug that
// is not fixed at once, a switch here turns off the exact construct
// combination that triggers it (a switch "mut-KIND" stops the generator
// from marking mutations of that kind, for bugs where check accepts a
// broken program); its minimized reproducer is the named file under
// testdata/known/, and TestKnownBugs fails while it still misbehaves, so
// a switch is only added together with a documented reproducer and
// removed (with the reproducer moved to fixtures/) when the fix lands.
//
// Every bug found so far is fixed: the list is empty and the generator
// runs with every construct on (docs/generator.md lists what was found).

// KnownBug describes one switch.
type KnownBug struct {
	Switch string // the Config.Avoid key
	File   string // the reproducer under testdata/known/
}

// KnownBugs lists the switches DefaultAvoid turns on, with their
// reproducers.
var KnownBugs = []KnownBug{}

// DefaultAvoid is the Avoid map the suite uses: every known bug avoided.
func DefaultAvoid() map[string]bool {
	m := map[string]bool{}
	for _, k := range KnownBugs {
		m[k.Switch] = true
	}
	return m
}
