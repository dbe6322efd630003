// Package ordering holds two small programs with real ordering bugs and
// their fixed versions, the examples of docs/exploring.md:
//
//   - lost_update.mr: two clients add one to a counter through Get and
//     Put messages; when both read before either writes, an update is
//     lost. lost_update_fixed.mr lets the counter process add.
//   - reply_or_down.mr: a client takes a Down from the server as "no
//     answer is coming", but the answer comes from a worker the server
//     started, so it can arrive after the Down. reply_or_down_fixed.mr
//     has the server pass the answer on itself.
//   - service.mr: clients call an account with a 5-second safety
//     timeout. Explored with timers firing only when nothing else can
//     happen (the default) it has one outcome; with eager timeouts the
//     outcomes in which a call timed out appear (TestServiceTimeouts).
//
// A normal run of each prints the right answer. The test explores 1,000
// schedules of each (as `morrow run --explore 1000` does): the buggy
// versions show the wrong answer among their outcomes, the fixed ones
// have exactly one outcome, the right one.
package ordering

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/morrow-lang/morrow/internal/testrun"
	"github.com/morrow-lang/morrow/runtime/engine"
	"github.com/morrow-lang/morrow/runtime/explore"
)

func TestExplore(t *testing.T) {
	for _, c := range []struct {
		file, good, bad string
	}{
		{"lost_update.mr", "total: 2\n", "total: 1\n"},
		{"lost_update_fixed.mr", "total: 2\n", ""},
		{"reply_or_down.mr", "7 squared is 49\n", "the server died without answering\n"},
		{"reply_or_down_fixed.mr", "7 squared is 49\n", ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			u := testrun.CompileFile(t, c.file)
			if len(u.Diags) > 0 {
				t.Fatalf("does not compile cleanly: %v", u.Diags)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			// A normal run gets it right.
			if code, out, _ := testrun.Run(ctx, u.Program, engine.Options{}); code != 0 || out != c.good {
				t.Fatalf("a normal run: status %d, output %q", code, out)
			}
			rep, err := explore.Explore(ctx, u.Verified, explore.Options{Runs: 1000})
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for _, o := range rep.Outcomes {
				if o.Status != 0 || o.Stderr != "" {
					t.Errorf("outcome with status %d, stderr %q (seed %d)", o.Status, o.Stderr, o.Seed)
				}
				seen[o.Stdout] += o.Count
			}
			if c.bad == "" {
				if len(rep.Outcomes) != 1 || seen[c.good] != 1000 {
					t.Fatalf("the fixed version has outcomes %v, want only %q", seen, c.good)
				}
				return
			}
			if len(rep.Outcomes) != 2 || seen[c.good] == 0 || seen[c.bad] == 0 {
				t.Fatalf("outcomes %v, want both %q and %q", seen, c.good, c.bad)
			}
			t.Logf("%d of 1000 schedules show the bug", seen[c.bad])
		})
	}
}

// TestServiceTimeouts explores service.mr 200 times as `morrow run
// --explore 200` does (one outcome: a safety timeout that a normal run
// never reaches does not fire) and as with --explore-timeouts=eager
// (timeouts race the replies: several outcomes, the normal one among
// them).
func TestServiceTimeouts(t *testing.T) {
	u := testrun.CompileFile(t, "service.mr")
	if len(u.Diags) > 0 {
		t.Fatalf("does not compile cleanly: %v", u.Diags)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const good = "3 of 3 deposits answered\nbalance: 60\n"
	rep, err := explore.Explore(ctx, u.Verified, explore.Options{Runs: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Outcomes) != 1 || rep.Outcomes[0].Stdout != good || rep.Outcomes[0].Status != 0 {
		t.Fatalf("lazy timeouts: %d outcomes, the first %+v; want one, %q", len(rep.Outcomes), rep.Outcomes[0], good)
	}
	rep, err = explore.Explore(ctx, u.Verified, explore.Options{Runs: 200, Timeouts: explore.TimeoutsEager})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range rep.Outcomes {
		found = found || o.Stdout == good
	}
	if len(rep.Outcomes) < 2 || !found {
		t.Fatalf("eager timeouts: %d outcomes (the normal one among them: %v), want several", len(rep.Outcomes), found)
	}
	t.Logf("eager timeouts: %d outcomes", len(rep.Outcomes))
}

// TestDocExcerpts keeps the code excerpts of docs/exploring.md (its
// plain ``` blocks) equal to parts of these programs.
func TestDocExcerpts(t *testing.T) {
	doc := testrun.ReadDoc(t, "exploring.md")
	var sources []string
	for _, f := range []string{"lost_update.mr", "lost_update_fixed.mr", "reply_or_down.mr", "reply_or_down_fixed.mr", "service.mr"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	n := 0
	var blocks []string // bodies of the plain blocks
	in, plain, body := false, false, ""
	for _, line := range strings.SplitAfter(doc, "\n") {
		switch {
		case !in && strings.HasPrefix(line, "```"):
			in, plain, body = true, line == "```\n", ""
		case in && strings.HasPrefix(line, "```"):
			if plain {
				blocks = append(blocks, body)
			}
			in = false
		case in:
			body += line
		}
	}
	for _, block := range blocks {
		if !strings.HasPrefix(block, "fn ") {
			continue // not an excerpt of a program
		}
		n++
		found := false
		for _, s := range sources {
			found = found || strings.Contains(s, block)
		}
		if !found {
			t.Errorf("docs/exploring.md shows code that is in none of the examples:\n%s", block)
		}
	}
	if n < 2 {
		t.Errorf("found %d excerpts in docs/exploring.md", n)
	}
}
