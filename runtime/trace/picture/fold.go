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
		p, k := bestRepeat(sigs, i)
		if k == 0 {
			d.items = append(d.items, item{rows: d.rows[i : i+1], count: 1})
			drawn[i] = n
			n++
			i++
			continue
		}
		d.foldBlock(i, p, k, n, drawn)
		n += p
		i += p * k
	}
	drawn[len(d.rows)] = n
	for _, l := range d.lines {
		l.remap(drawn)
	}
}

// bestRepeat finds the block of up to maxPeriod rows at i repeated at
// least minRepeat times that covers the most rows: its period and count
// (0, 0 when there is none).
func bestRepeat(sigs []string, i int) (bestP, bestK int) {
	for p := 1; p <= maxPeriod && i+p*minRepeat <= len(sigs); p++ {
		k := 1
		for i+(k+1)*p <= len(sigs) && same(sigs, i, i+k*p, p) {
			k++
		}
		if k >= minRepeat && p*k > bestP*bestK {
			bestP, bestK = p, k
		}
	}
	return bestP, bestK
}

// foldBlock adds the item for the p rows at i repeated k times, drawn
// from row n on, and records where each of its rows is drawn.
func (d *diagram) foldBlock(i, p, k, n int, drawn []int) {
	block := append([]row(nil), d.rows[i:i+p]...)
	// The drawn copy lists every repetition's trace lines.
	for r := 1; r < k; r++ {
		for j := 0; j < p; j++ {
			src := &d.rows[i+r*p+j]
			block[j].lines = append(block[j].lines, src.lines...)
		}
	}
	for r := 0; r < k; r++ {
		for j := 0; j < p; j++ {
			drawn[i+r*p+j] = n + j
		}
	}
	d.items = append(d.items, item{rows: block, count: k})
	d.st.folded++
	d.st.foldedRows += p * (k - 1)
}

// remap maps a lifeline's row indices (start, end, trap spans) to the
// drawn rows.
func (l *lifeline) remap(drawn []int) {
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

// same reports whether the p signatures at a and b are equal.
func same(sigs []string, a, b, p int) bool {
	for j := 0; j < p; j++ {
		if sigs[a+j] != sigs[b+j] {
			return false
		}
	}
	return true
}
