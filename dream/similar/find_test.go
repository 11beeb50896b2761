package similar

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// memoryAt is a memory of type typ at vault path p named name, with the
// frontmatter lines extra and body body, changed since the last run, as a
// run reads it.
func memoryAt(p, name, typ, extra, body string) *Memory {
	n := markdown.Parse(p, []byte("---\nname: "+name+"\ndescription: d\ntype: "+typ+"\n"+extra+"---\n"+body+"\n"))
	return &Memory{Path: p, Kind: memory.Type(n.Type()), Name: name, Note: n, Changed: true}
}

// found says what Find found, in short: each group as "winner < losers
// (reason)", then how many pairs it found opposed and listed.
func found(f Found) string {
	var out []string
	for _, g := range f.Groups {
		var losers []string
		for _, l := range g.Losers {
			losers = append(losers, l.Path)
		}
		out = append(out, fmt.Sprintf("%s < %s (%s)", g.Winner.Path, strings.Join(losers, ", "), g.Reason))
	}
	return fmt.Sprintf("%s; opposed %d; listed %d", strings.Join(out, "; "), len(f.Opposed), len(f.Similar))
}

// TestFind: the provably same merge into the more complete (the same
// text, one held in the other); memories of opposite meaning are opposed;
// alike memories are listed for review unless the judge says they are the
// same (merged) or not (left to it), or a person settled them apart; a
// pair neither of which changed is not compared.
func TestFind(t *testing.T) {
	const (
		limit1 = "The export API returns at most 50 rows a page."
		limit2 = "Exports are capped at 50 rows per page for every client."
	)
	for _, tt := range []struct {
		name      string
		a, b      *Memory
		verdict   Verdict
		unchanged bool
		want      string
	}{
		{name: "the same text",
			a:    memoryAt("memory/a.md", "Deploys", "project", "", "Deploys go out on Tuesdays after the standup."),
			b:    memoryAt("memory/b.md", "Deploy day", "project", "", "deploys go out on tuesdays after the standup"),
			want: "memory/a.md < memory/b.md (same text); opposed 0; listed 0"},
		{name: "one held in the other",
			a:    memoryAt("memory/a.md", "Deploy day", "project", "", "Deploys go out on Tuesdays."),
			b:    memoryAt("memory/b.md", "Deploys", "project", "", "Deploys go out on Tuesdays.\n\nThe on-call engineer watches the dashboards."),
			want: "memory/b.md < memory/a.md (contained); opposed 0; listed 0"},
		{name: "opposite",
			a:    memoryAt("memory/a.md", "Pool sizing", "project", "", "Raise the connection pool size before the launch."),
			b:    memoryAt("memory/b.md", "Launch prep", "project", "", "Lower the connection pool size before the launch."),
			want: "; opposed 1; listed 0"},
		{name: "alike, unjudged",
			a:    memoryAt("memory/a.md", "Export limits", "project", "", limit1),
			b:    memoryAt("memory/b.md", "Export limits", "project", "", limit2),
			want: "; opposed 0; listed 1"},
		{name: "alike, judged the same",
			a:       memoryAt("memory/a.md", "Export limits", "project", "", limit1),
			b:       memoryAt("memory/b.md", "Export limits", "project", "", limit2),
			verdict: JudgedSame,
			want:    "memory/b.md < memory/a.md (judged the same by the LLM); opposed 0; listed 0"},
		{name: "alike, judged other",
			a:       memoryAt("memory/a.md", "Export limits", "project", "", limit1),
			b:       memoryAt("memory/b.md", "Export limits", "project", "", limit2),
			verdict: JudgedOther,
			want:    "; opposed 0; listed 0"},
		{name: "settled apart by a person",
			a:    memoryAt("memory/a.md", "Export limits", "project", "", limit1),
			b:    memoryAt("memory/b.md", "Export limits", "project", "not_same_as: \"[[a]]\"\n", limit2),
			want: "; opposed 0; listed 0"},
		{name: "neither changed",
			a:         memoryAt("memory/a.md", "Deploys", "project", "", "Deploys go out on Tuesdays after the standup."),
			b:         memoryAt("memory/b.md", "Deploy day", "project", "", "deploys go out on tuesdays after the standup"),
			unchanged: true,
			want:      "; opposed 0; listed 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.unchanged {
				tt.a.Changed, tt.b.Changed = false, false
			}
			asked := 0
			f := Find([]*Memory{tt.a, tt.b}, func(Pair) Verdict { asked++; return tt.verdict })
			if got := found(f); got != tt.want {
				t.Errorf("found %q, want %q", got, tt.want)
			}
			if tt.verdict != Unjudged && asked != 1 {
				t.Errorf("the judge asked %d times, want once", asked)
			}
		})
	}
}
