// Package graph holds the graph algorithms the front end shares: the
// checker orders function bodies by it, and the program generator groups
// functions into modules with it.
package graph

// SCC returns the strongly connected components of the graph with nodes
// 0 to n-1 and the edges that succ gives (Tarjan's algorithm). Nodes are
// visited in order and their successors in the order succ returns them,
// once per node. The components come in reverse topological order (a
// component comes after every component it reaches); the nodes of one
// come in the order they leave the stack, the component's root last.
func SCC(n int, succ func(v int) []int) [][]int {
	idx := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range idx {
		idx[i] = -1
	}
	var stack []int
	var out [][]int
	counter := 0
	var visit func(v int)
	visit = func(v int) {
		idx[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		on[v] = true
		for _, w := range succ(v) {
			if idx[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], idx[w])
			}
		}
		if low[v] == idx[v] {
			var comp []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for v := 0; v < n; v++ {
		if idx[v] < 0 {
			visit(v)
		}
	}
	return out
}
