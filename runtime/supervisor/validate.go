package supervisor

// Bounds of docs/supervisors.md.
const (
	MaxIntensity     = 1024
	MaxPeriodSeconds = 86400
	MaxGracefulMs    = 600000
	MaxChildren      = 1024 // per supervisor
	MaxDepth         = 64   // supervisor levels in one tree, the top one included
	MaxNameBytes     = 4096
	MaxQueued        = 64 // requests waiting while the supervisor is busy
)

// ValidateFlags checks a supervisor's flags: intensity 0..1,024 and period
// 1..86,400 seconds, and enum values in range (only the ABI can break
// those). Failure is ErrInvalidOptions.
func ValidateFlags(f Flags) error {
	if f.Intensity < 0 || f.Intensity > MaxIntensity ||
		f.PeriodSeconds < 1 || f.PeriodSeconds > MaxPeriodSeconds ||
		f.Strategy > RestForOne || f.AutoShutdown > AllSignificant {
		return ErrInvalidOptions
	}
	return nil
}

// ValidatePolicy checks one child's policy on its own (Supervisor.worker
// and Supervisor.branch): Graceful(ms) needs 0 <= ms <= 600,000, and a
// significant child cannot be Permanent. Failure is ErrInvalidOptions.
func ValidatePolicy(p Policy) error {
	if p.Restart > Temporary || p.Shutdown.Kind > Immediate {
		return ErrInvalidOptions
	}
	if p.Shutdown.Kind == Graceful && (p.Shutdown.Ms < 0 || p.Shutdown.Ms > MaxGracefulMs) {
		return ErrInvalidOptions
	}
	if p.Significant && p.Restart == Permanent {
		return ErrInvalidOptions
	}
	return nil
}

// ValidateName checks a child name: at most 4,096 UTF-8 bytes
// (ErrInvalidOptions). Supervisor.child_key faults (code 9) on a longer
// name before it gets here; Supervisor.branch answers InvalidOptions.
func ValidateName(name string) error {
	if len(name) > MaxNameBytes {
		return ErrInvalidOptions
	}
	return nil
}

// ValidateWorker checks what Supervisor.worker can check on its own.
func ValidateWorker(name string, p Policy) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	return ValidatePolicy(p)
}

// ValidateBranch checks what Supervisor.branch can check: the name, the
// branch's own policy, its flags and its children, as a supervisor whose
// subtree must fit in MaxDepth levels by itself.
func ValidateBranch(name string, f Flags, children []Spec, p Policy) error {
	if err := ValidateName(name); err != nil {
		return err
	}
	if err := ValidatePolicy(p); err != nil {
		return err
	}
	return Validate(f, children, 1)
}

// Validate checks a supervisor about to start at nesting level level (1
// for a top-level supervisor, one more for each branch above it) with
// flags f and children specs, the checks of Supervisor.start, start_link
// and branch, in this order:
//
//   - the flags (ErrInvalidOptions);
//   - more than 1,024 children (ErrResourceLimit);
//   - the tree deeper than 64 supervisor levels (ErrResourceLimit);
//   - each child in order: its name and policy (ErrInvalidOptions),
//     significant under a supervisor whose auto_shutdown is Never
//     (ErrInvalidOptions), a branch's own flags, children and names
//     recursively (the same checks);
//   - two children with one name (ErrDuplicateName).
//
// Nothing is started when it fails.
func Validate(f Flags, specs []Spec, level int) error {
	if err := ValidateFlags(f); err != nil {
		return err
	}
	if len(specs) > MaxChildren {
		return ErrResourceLimit
	}
	if level < 1 || level+maxDepth(specs) > MaxDepth {
		return ErrResourceLimit
	}
	return validateChildren(f, specs)
}

// validateChildren checks the children of a supervisor with flags f whose
// depth has been checked already.
func validateChildren(f Flags, specs []Spec) error {
	for i := range specs {
		if err := validateChild(f, &specs[i]); err != nil {
			return err
		}
	}
	seen := make(map[string]bool, len(specs))
	for i := range specs {
		if seen[specs[i].Name] {
			return ErrDuplicateName
		}
		seen[specs[i].Name] = true
	}
	return nil
}

// validateStartChild checks a spec given to start_child of a supervisor
// with flags f at level level.
func validateStartChild(f Flags, s *Spec, level int) error {
	if s.Kind == Branch && level+1+maxDepth(s.Children) > MaxDepth {
		return ErrResourceLimit
	}
	return validateChild(f, s)
}

// validateChild checks one spec as a child of a supervisor with flags f.
// The recursion into branches is bounded by the depth check done first.
func validateChild(f Flags, s *Spec) error {
	if err := ValidateName(s.Name); err != nil {
		return err
	}
	if s.Kind > Branch {
		return ErrInvalidOptions
	}
	if err := ValidatePolicy(s.Policy); err != nil {
		return err
	}
	if s.Policy.Significant && f.AutoShutdown == Never {
		return ErrInvalidOptions
	}
	if s.Kind == Branch {
		if err := ValidateFlags(s.Flags); err != nil {
			return err
		}
		if len(s.Children) > MaxChildren {
			return ErrResourceLimit
		}
		return validateChildren(s.Flags, s.Children)
	}
	return nil
}

// maxDepth is the number of supervisor levels below a supervisor with these
// children: 0 for workers only, 1 + the branch's own for each branch.
// Iterative, so a deep spec cannot overflow the Go stack.
func maxDepth(specs []Spec) int {
	type frame struct {
		specs []Spec
		depth int
	}
	best := 0
	stack := []frame{{specs, 0}}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for i := range fr.specs {
			if fr.specs[i].Kind == Branch {
				d := fr.depth + 1
				if d > best {
					best = d
				}
				stack = append(stack, frame{fr.specs[i].Children, d})
			}
		}
	}
	return best
}
