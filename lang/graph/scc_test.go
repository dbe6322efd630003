package graph

import (
	"reflect"
	"testing"
)

func TestSCC(t *testing.T) {
	// 0 -> 1 -> 2 -> 0 is a cycle that reaches 3; 3 <-> 4; 5 stands alone
	// with a self edge; 6 reaches the first cycle.
	edges := [][]int{0: {1}, 1: {2}, 2: {0, 3}, 3: {4}, 4: {3}, 5: {5}, 6: {0}}
	got := SCC(len(edges), func(v int) []int { return edges[v] })
	want := [][]int{{4, 3}, {2, 1, 0}, {5}, {6}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SCC = %v, want %v", got, want)
	}
	if got := SCC(0, nil); got != nil {
		t.Fatalf("SCC of the empty graph = %v, want nil", got)
	}
}
