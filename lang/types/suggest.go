package types

import "strings"

// "Did you mean" hints for unknown names, types and builtin members.
//
// A hint compares the unknown name with every candidate in scope and keeps
// the closest one within edit distance 2 (distance 1 for names of one or
// two characters), ties broken by the smaller name, so the result does not
// depend on map order. Two things keep the work bounded:
//
//   - Each comparison is a banded Levenshtein distance with limit 2: a
//     length difference above the limit costs nothing, otherwise only the
//     five diagonals around the main one are filled, and names over 64
//     bytes are never close. One comparison is O(min(len)).
//   - One Check call makes at most suggestBudget comparisons in all. A
//     hint whose candidate set no longer fits in what is left is not
//     given (the error itself is still reported), so 8,000 unknown names
//     among 8,000 functions cost 2^20 comparisons instead of 64 million.
//     Whether a hint is given depends only on the source, never on timing.

// suggestBudget is the number of candidate comparisons one Check call
// may spend on hints.
const suggestBudget = 1 << 20

// suggestLimit is the largest edit distance a hint may have.
const suggestLimit = 2

// suggestState is the hint budget of one Check call.
type suggestState struct {
	spent    int // candidate comparisons reserved
	compared int // comparisons made (at most spent)
}

// closest returns the candidate nearest to name (within suggestLimit, and
// within 1 for names of at most two bytes), or "" when none is close or
// the n candidates that each would yield do not fit in the budget.
func (c *Checker) closest(name string, n int, each func(try func(cand string))) string {
	if n > suggestBudget-c.sugg.spent {
		return ""
	}
	c.sugg.spent += n
	limit := suggestLimit
	if len(name) <= 2 {
		limit = 1
	}
	best, bestD := "", limit+1
	seen := 0
	each(func(cand string) {
		seen++
		if seen > n || cand == name || cand == "_" {
			return // a candidate the count did not reserve is not compared
		}
		c.sugg.compared++
		d := boundedDistance(name, cand, bestD)
		if d < bestD || d == bestD && d <= limit && cand < best {
			best, bestD = cand, d
		}
	})
	if bestD > limit {
		return ""
	}
	return best
}

// boundedDistance is the Levenshtein distance of a and b when it is at
// most limit, and limit+1 otherwise.
func boundedDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit + 1
	}
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	const inf = 1 << 20
	// prev and cur hold row i of the table for columns j in
	// [i-limit, i+limit]; column j is at index j-i+limit.
	w := 2*limit + 1
	prev := make([]int, w)
	cur := make([]int, w)
	for k := range prev {
		j := k - limit
		if j >= 0 && j <= len(b) {
			prev[k] = j
		} else {
			prev[k] = inf
		}
	}
	for i := 1; i <= len(a); i++ {
		rowMin := inf
		for k := 0; k < w; k++ {
			j := i + k - limit
			if j < 0 || j > len(b) {
				cur[k] = inf
				continue
			}
			if j == 0 {
				cur[k] = i
				rowMin = min(rowMin, i)
				continue
			}
			// Row i-1, column j-1 is at index k in prev; column j at k+1.
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := prev[k] + cost
			if k+1 < w {
				v = min(v, prev[k+1]+1)
			}
			if k > 0 {
				v = min(v, cur[k-1]+1)
			}
			cur[k] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	d := prev[len(b)-len(a)+limit]
	if d > limit {
		return limit + 1
	}
	return d
}

// suggest finds a visible name close to name, for a "did you mean" hint.
func (c *Checker) suggest(name string) string {
	n := len(c.funcs) + len(c.ctors) + len(plainBuiltins)
	if c.fn != nil {
		for s := c.fn.scope; s != nil; s = s.parent {
			n += len(s.names)
		}
	}
	return c.closest(name, n, func(try func(string)) {
		if c.fn != nil {
			for s := c.fn.scope; s != nil; s = s.parent {
				for n := range s.names {
					try(n)
				}
			}
		}
		for n := range c.funcs {
			try(n)
		}
		for n := range c.ctors {
			try(n)
		}
		for _, n := range plainBuiltins {
			try(n)
		}
	})
}

// suggestType finds a declared or builtin type close to name.
func (c *Checker) suggestType(name string) string {
	basics := []string{"Int", "Float", "Bool", "String", "Unit", "Range", "ProcessId", "MonitorRef"}
	return c.closest(name, len(c.types)+len(builtinTypeDefs)+len(basics), func(try func(string)) {
		for n := range c.types {
			try(n)
		}
		for n := range builtinTypeDefs {
			try(n)
		}
		for _, n := range basics {
			try(n)
		}
	})
}

// suggestMember finds a builtin of the same module (List.mpa -> List.map).
func (c *Checker) suggestMember(name string) string {
	i := strings.LastIndex(name, ".")
	if i <= 0 {
		return ""
	}
	var cands []string
	for n := range builtinSigs {
		if strings.HasPrefix(n, name[:i+1]) {
			cands = append(cands, n)
		}
	}
	return c.closest(name, len(cands), func(try func(string)) {
		for _, n := range cands {
			try(n)
		}
	})
}

// plainBuiltins are the builtin function names without a module prefix.
var plainBuiltins = func() []string {
	var out []string
	for n := range builtinSpecs {
		if !strings.Contains(n, ".") {
			out = append(out, n)
		}
	}
	return out
}()
