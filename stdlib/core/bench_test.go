package core

import (
	"testing"

	"github.com/morrow-lang/morrow/runtime/value"
)

func BenchmarkEqualInt(b *testing.B) {
	x, y := I(1), I(1)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Equal(x, y)
	}
}

func BenchmarkCompareNewtype(b *testing.B) {
	x, y := userID(1), userID(2)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Compare(x, y)
	}
}

func BenchmarkEqualRecord(b *testing.B) {
	x, y := user("Ada", 36), user("Ada", 36)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Equal(x, y)
	}
}

func BenchmarkSortInts(b *testing.B) {
	items := make([]value.Value, 10000)
	for i := range items {
		items[i] = I(int64((i * 7919) % 10007))
	}
	xs := value.NewList(items)
	n, _ := Lookup("List.sort")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		n.Call(&testCtx{}, []value.Value{xs})
	}
}

func BenchmarkPush(b *testing.B) {
	n, _ := Lookup("List.push")
	b.ReportAllocs()
	xs := L()
	args := make([]value.Value, 2)
	for i := 0; i < b.N; i++ {
		args[0], args[1] = xs, I(int64(i))
		xs, _ = n.Call(&testCtx{}, args)
	}
}

func BenchmarkShowList(b *testing.B) {
	xs := Ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		Show(xs)
	}
}
