package picture

// Folding limits: blocks of up to maxPeriod rows repeated at least
// minRepeat times in a row are drawn once.
const (
	maxPeriod = 8
	minRepeat = 3
)

// fold groups d.rows into d.items and maps the lifelines' row indices
// (start, end, trap spans) to the drawn rows.
func (d *diagram) fold() {
	sigs := make([]string, len(d.rows))
	for i := range d.rows {
		sigs[i] = d.rows[i].sig()
	}
	// drawn[i] is the index of the drawn row that stands for row i.
	drawn := make([]int, len(d.rows)+1)
	n := 0
	for i := 0; i < len(d.rows); {
		bestP, bestK := 0, 0
		for p := 1; p <= maxPeriod && i+p*minRepeat <= len(d.rows); p++ {
			k := 1
			for i+(k+1)*p <= len(d.rows) && same(sigs, i, i+k*p, p) {
				k++
			}
			if k >= minRepeat && p*k > bestP*bestK {
				bestP, bestK = p, k
			}
		}
		if bestK == 0 {
			d.items = append(d.items, item{rows: d.rows[i : i+1], count: 1})
			drawn[i] = n
			n++
			i++
			continue
		}
		block := append([]row(nil), d.rows[i:i+bestP]...)
		// The drawn copy lists every repetition's trace lines.
		for r := 1; r < bestK; r++ {
			for j := 0; j < bestP; j++ {
				src := &d.rows[i+r*bestP+j]
				block[j].lines = append(block[j].lines, src.lines...)
			}
		}
		for r := 0; r < bestK; r++ {
			for j := 0; j < bestP; j++ {
				drawn[i+r*bestP+j] = n + j
			}
		}
		d.items = append(d.items, item{rows: block, count: bestK})
		d.st.folded++
		d.st.foldedRows += bestP * (bestK - 1)
		n += bestP
		i += bestP * bestK
	}
	drawn[len(d.rows)] = n
	for _, l := range d.lines {
		if !l.top {
			l.start = drawn[l.start]
		}
		if l.end >= 0 {
			l.end = drawn[l.end]
		}
		for i := range l.trap {
			l.trap[i].from = drawn[l.trap[i].from]
			if l.trap[i].to >= 0 {
				l.trap[i].to = drawn[l.trap[i].to]
			}
		}
	}
}

// same reports whether the p signatures at a and b are equal.
func same(sigs []string, a, b, p int) bool {
	for j := 0; j < p; j++ {
		if sigs[a+j] != sigs[b+j] {
			return false
		}
	}
	return true
}
