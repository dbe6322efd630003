package gen

import (
	"strconv"
	"strings"
)

// Mutation sites. While it writes a program the generator wraps some
// fragments in invisible markers and records, for each, a replacement
// that breaks the program in exactly one place (a wrong argument type, a
// dropped Result, a missing match arm, ...). Rendering with no site
// selected gives the well-typed program; rendering with site i selected
// swaps in its replacement. Sites nest: a site inside a replaced fragment
// disappears with it.
//
// Markers: "\x01" + id + "\x02" opens a site, "\x03" closes the innermost
// open one. The bytes 1–3 never occur in generated Morrow text.

const (
	mOpen  = '\x01'
	mMid   = '\x02'
	mClose = '\x03'
)

// exitChanging are the kinds that can change the type of a function
// exit (a final expression, a `?`).
var exitChanging = map[string]bool{mutDropResult: true, mutTryOutside: true, mutLetUnderscore: true}

// site is one place where the program can be broken.
type site struct {
	kind string // the Mutation kind, e.g. "wrong-arg-type"
	alt  string // replacement text (markers allowed)
	note string // what the mutation does, for failure reports
}

// mark wraps text as a new site and returns the marked text.
func (g *gen) mark(kind, text, alt, note string) string {
	if g.noSites > 0 || g.avoid("mut-"+kind) {
		return text
	}
	if g.inUnannotated && exitChanging[kind] {
		// In a function without a return annotation these change the type
		// of an exit, which is not an error when the other exits (if any)
		// agree with the new type: the function's inferred type changes.
		return text
	}
	id := len(g.sites)
	g.sites = append(g.sites, site{kind: kind, alt: alt, note: note})
	return string(mOpen) + strconv.Itoa(id) + string(mMid) + text + string(mClose)
}

// render resolves the markers of raw: every site keeps its original text
// except site sel (-1 for none), which is replaced by its alternative.
func render(raw string, sites []site, sel int) string {
	var b strings.Builder
	b.Grow(len(raw))
	renderInto(&b, raw, sites, sel, 0)
	return b.String()
}

// renderInto copies raw[i:] up to the close marker matching the site
// that is open at i (or to the end) and returns the index after it.
func renderInto(b *strings.Builder, raw string, sites []site, sel int, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case mOpen:
			j := strings.IndexByte(raw[i:], mMid) + i
			id, _ := strconv.Atoi(raw[i+1 : j])
			if id == sel {
				var skip strings.Builder
				i = renderInto(&skip, raw, sites, sel, j+1)
				renderInto(b, sites[id].alt, sites, sel, 0)
			} else {
				i = renderInto(b, raw, sites, sel, j+1)
			}
		case mClose:
			return i + 1
		default:
			b.WriteByte(raw[i])
			i++
		}
	}
	return i
}

// liveSites lists the ids of the sites marked in raw (sites recorded for
// text the generator then discarded are not there), in order.
func liveSites(raw string) []int {
	var ids []int
	seen := map[int]bool{}
	for i := 0; i < len(raw); i++ {
		if raw[i] != mOpen {
			continue
		}
		j := strings.IndexByte(raw[i:], mMid) + i
		id, _ := strconv.Atoi(raw[i+1 : j])
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}
