package core

import (
	"github.com/morrow-lang/morrow/runtime/fault"
	"github.com/morrow-lang/morrow/runtime/native"
	"github.com/morrow-lang/morrow/runtime/value"
)

// The Map and Set natives (docs/maps.md). The structure is
// runtime/value's persistent map; the natives whose work grows with their
// arguments report it (one unit per entry visited or built). The
// higher-order functions (Map.update, fold, map_values, filter) are
// prelude code.

// mapLimit is value.MaxMapEntries; tests lower it to exercise the limit.
var mapLimit = value.MaxMapEntries

// mapPut is m.Put with the size limit as a fault.
func mapPut(m *value.Map, k, v value.Value) (*value.Map, *fault.Fault) {
	if m.Len() >= mapLimit && !m.Has(k) {
		return m, fault.New(fault.MapSize)
	}
	r, ok := m.Put(k, v)
	if !ok {
		return m, fault.New(fault.MapSize)
	}
	return r, nil
}

// putAll puts the entries of r into m in r's order, each by put (which
// may keep m's entry): the result, a fault (the size limit) and the work,
// one unit per entry of r (one when m is empty: the result is r).
func putAll(m, r *value.Map, put func(m *value.Map, k, v value.Value) (*value.Map, *fault.Fault)) (value.Value, *fault.Fault, int64) {
	if m.Len() == 0 {
		return r.Value(), nil, 1
	}
	var f *fault.Fault
	r.Each(func(k, v value.Value) bool {
		m, f = put(m, k, v)
		return f == nil
	})
	return m.Value(), f, int64(r.Len())
}

var (
	emptyMap = value.EmptyMap(false)
	emptySet = value.EmptyMap(true)
)

func init() {
	M, S, L, A := value.KMap, value.KSet, value.KList, native.KAny
	register(
		fn("Map.new", kinds(), func(_ native.Host, _ []value.Value) (value.Value, *fault.Fault) {
			return ok(emptyMap)
		}),
		fn("Map.get", kinds(M, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			if v, found := a[0].AsMap().Get(a[1]); found {
				return ok(value.Some(v))
			}
			return ok(value.None())
		}),
		fn("Map.put", kinds(M, A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			m, f := mapPut(a[0].AsMap(), a[1], a[2])
			return m.Value(), f
		}),
		fn("Map.delete", kinds(M, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(a[0].AsMap().Delete(a[1]).Value())
		}),
		fn("Map.len", kinds(M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(int64(a[0].AsMap().Len())))
		}),
		fn("Map.is_empty", kinds(M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(a[0].AsMap().Len() == 0))
		}),
		fn("Map.contains", kinds(M, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(a[0].AsMap().Has(a[1])))
		}),
		fnWork("Map.keys", kinds(M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			m := a[0].AsMap()
			return value.NewList(m.Keys()), nil, int64(m.Len())
		}),
		fnWork("Map.values", kinds(M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			m := a[0].AsMap()
			return value.NewList(m.Values()), nil, int64(m.Len())
		}),
		fnWork("Map.to_list", kinds(M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			m := a[0].AsMap()
			return value.NewList(m.Pairs()), nil, int64(m.Len())
		}),
		fnWork("Map.from_list", kinds(L), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			xs := listItems(a[0])
			m := emptyMap.AsMap()
			for i, x := range xs {
				t := x.AsTuple()
				var f *fault.Fault
				if m, f = mapPut(m, t.Elems[0], t.Elems[1]); f != nil {
					return value.Unit, f, int64(i)
				}
			}
			return m.Value(), nil, int64(len(xs))
		}),
		fn("Map.get_or", kinds(M, A, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			if v, found := a[0].AsMap().Get(a[1]); found {
				return ok(v)
			}
			return ok(a[2])
		}),
		fnWork("Map.merge", kinds(M, M), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			return putAll(a[0].AsMap(), a[1].AsMap(), mapPut)
		}),

		fn("Set.new", kinds(), func(_ native.Host, _ []value.Value) (value.Value, *fault.Fault) {
			return ok(emptySet)
		}),
		fnWork("Set.from_list", kinds(L), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			xs := listItems(a[0])
			s := emptySet.AsMap()
			for i, x := range xs {
				if s.Has(x) {
					continue
				}
				var f *fault.Fault
				if s, f = mapPut(s, x, value.Unit); f != nil {
					return value.Unit, f, int64(i)
				}
			}
			return s.Value(), nil, int64(len(xs))
		}),
		fnWork("Set.to_list", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s := a[0].AsMap()
			return value.NewList(s.Keys()), nil, int64(s.Len())
		}),
		fn("Set.insert", kinds(S, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			s := a[0].AsMap()
			if s.Has(a[1]) {
				return ok(a[0])
			}
			r, f := mapPut(s, a[1], value.Unit)
			return r.Value(), f
		}),
		fn("Set.delete", kinds(S, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(a[0].AsMap().Delete(a[1]).Value())
		}),
		fn("Set.contains", kinds(S, A), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(a[0].AsMap().Has(a[1])))
		}),
		fn("Set.len", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Int(int64(a[0].AsMap().Len())))
		}),
		fn("Set.is_empty", kinds(S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault) {
			return ok(value.Bool(a[0].AsMap().Len() == 0))
		}),
		fnWork("Set.union", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			return putAll(a[0].AsMap(), a[1].AsMap(), func(s *value.Map, k, _ value.Value) (*value.Map, *fault.Fault) {
				if s.Has(k) {
					return s, nil
				}
				return mapPut(s, k, value.Unit)
			})
		}),
		fnWork("Set.intersection", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, r := a[0].AsMap(), a[1].AsMap()
			out := s
			s.Each(func(k, _ value.Value) bool {
				if !r.Has(k) {
					out = out.Delete(k)
				}
				return true
			})
			return out.Value(), nil, int64(s.Len())
		}),
		fnWork("Set.difference", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, r := a[0].AsMap(), a[1].AsMap()
			out := s
			s.Each(func(k, _ value.Value) bool {
				if r.Has(k) {
					out = out.Delete(k)
				}
				return true
			})
			return out.Value(), nil, int64(s.Len())
		}),
		fnWork("Set.is_subset", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			s, r := a[0].AsMap(), a[1].AsMap()
			sub := s.Len() <= r.Len()
			if sub {
				s.Each(func(k, _ value.Value) bool {
					sub = r.Has(k)
					return sub
				})
			}
			return value.Bool(sub), nil, int64(s.Len())
		}),
		fnWork("Set.equal", kinds(S, S), func(_ native.Host, a []value.Value) (value.Value, *fault.Fault, int64) {
			eq, work := EqualWork(a[0], a[1])
			return value.Bool(eq), nil, work
		}),
	)
}
