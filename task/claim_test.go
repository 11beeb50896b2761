package task_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/task"
)

// TestClaimWinner holds the claim rule to its order: the earlier start,
// then the lower agent id; a side without an agent claims nothing; both
// orders of the two claims pick the same winner.
func TestClaimWinner(t *testing.T) {
	for _, c := range []struct {
		name      string
		a, b      task.Claim
		win       string
		contested bool
	}{
		{"earlier started wins", task.Claim{Agent: "a", Started: "2026-11-23T10:05"}, task.Claim{Agent: "b", Started: "2026-11-23T10:02"}, "b", true},
		{"earlier day wins", task.Claim{Agent: "z", Started: "2026-11-22"}, task.Claim{Agent: "a", Started: "2026-11-23T09:00"}, "z", true},
		{"a date alone is its day's start", task.Claim{Agent: "b", Started: "2026-11-23"}, task.Claim{Agent: "a", Started: "2026-11-23T00:01"}, "b", true},
		{"same started: lower agent id", task.Claim{Agent: "codex", Started: "2026-11-23T10:02"}, task.Claim{Agent: "claude", Started: "2026-11-23T10:02"}, "claude", true},
		{"same day, dates alone: lower agent id", task.Claim{Agent: "b", Started: "2026-11-23"}, task.Claim{Agent: "a", Started: "2026-11-23"}, "a", true},
		{"never started sorts last", task.Claim{Agent: "a"}, task.Claim{Agent: "b", Started: "2026-11-23T10:02"}, "b", true},
		{"space between date and time", task.Claim{Agent: "a", Started: "2026-11-23 10:01"}, task.Claim{Agent: "b", Started: "2026-11-23T10:02"}, "a", true},
		{"one side unclaimed", task.Claim{Agent: ""}, task.Claim{Agent: "b", Started: "2026-11-23T10:02"}, "b", false},
		{"other side unclaimed", task.Claim{Agent: "a", Started: "2026-11-24T10:02"}, task.Claim{}, "a", false},
		{"same agent: not contested", task.Claim{Agent: "default", Started: "2026-11-23T10:05"}, task.Claim{Agent: "default", Started: "2026-11-23T10:02"}, "default", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, order := range [][2]task.Claim{{c.a, c.b}, {c.b, c.a}} {
				win, lose, contested := task.ClaimWinner(order[0], order[1])
				if win.Agent != c.win || contested != c.contested {
					t.Errorf("ClaimWinner(%+v, %+v) = %+v (loser %+v), contested %v; want %s, %v", order[0], order[1], win, lose, contested, c.win, c.contested)
				}
			}
		})
	}
}

// gitMerge is git merge-file, the note driver's text merger.
func gitMerge(base, ours, theirs []byte) ([]byte, bool, error) {
	return gitrepo.MergeFile(context.Background(), base, ours, theirs)
}

// TestMergeClaims merges, through markdown.MergeNote with task.MergeRules
// and git merge-file, two clones' claims of one task: the merge is clean,
// the same whichever side merges, keeps the winner's assignee, started
// and status, and logs the loser's claim once.
func TestMergeClaims(t *testing.T) {
	base := "---\ntype: task\nname: Ship it\nstatus: todo\npriority: medium\ncreated: 2026-11-20\n---\n\nShip the release.\n\n## Log\n\n- 2026-11-20 09:00 note: planned\n"
	claim := func(agent, started, st, event string) string {
		s := strings.Replace(base, "status: todo", "status: "+st+"\nassignee: "+agent+"\nstarted: "+started, 1)
		return s + event
	}
	for _, c := range []struct {
		name         string
		base         *string // nil: the base above
		ours, theirs string
		want         []string // lines the merge holds
		wantNot      []string
		entries      int // claim events logged
	}{
		{
			name:   "earlier started wins",
			ours:   claim("codex", "2026-11-23T10:05", "doing", "- 2026-11-23 10:06 decision: use the old build\n"),
			theirs: claim("claude", "2026-11-23T10:02", "blocked", "- 2026-11-23 10:03 blocker: waiting for CI\n"),
			want: []string{"assignee: claude\n", "started: 2026-11-23T10:02\n", "status: blocked\n",
				"- 2026-11-23 10:06 decision: use the old build\n", "- 2026-11-23 10:03 blocker: waiting for CI\n",
				"- 2026-11-23 10:05 note: claim settled to claude (started 2026-11-23T10:02): codex's claim (started 2026-11-23T10:05) lost"},
			wantNot: []string{"assignee: codex"},
			entries: 1,
		},
		{
			name:    "same day: lower agent id",
			ours:    claim("bob", "2026-11-23", "doing", ""),
			theirs:  claim("alice", "2026-11-23", "doing", ""),
			want:    []string{"assignee: alice\n", "started: 2026-11-23\n", "status: doing\n", "- 2026-11-23 00:00 note: claim settled to alice (started 2026-11-23): bob's claim"},
			entries: 1,
		},
		{
			name:    "one side left it unclaimed",
			ours:    strings.Replace(base, "Ship the release.", "Ship the release on Friday.", 1),
			theirs:  claim("bob", "2026-11-23T11:00", "doing", ""),
			want:    []string{"assignee: bob\n", "started: 2026-11-23T11:00\n", "Ship the release on Friday."},
			entries: 0,
		},
		{
			name:    "both clones added the task and started it",
			base:    new(string),
			ours:    claim("codex", "2026-11-23T10:05", "doing", ""),
			theirs:  claim("claude", "2026-11-23T10:02", "doing", ""),
			want:    []string{"assignee: claude\n", "started: 2026-11-23T10:02\n", "note: claim settled to claude"},
			entries: 1,
		},
		{
			name:    "same agent on both clones",
			ours:    claim("default", "2026-11-23T10:05", "doing", ""),
			theirs:  claim("default", "2026-11-23T10:02", "doing", ""),
			want:    []string{"assignee: default\n", "started: 2026-11-23T10:02\n"},
			entries: 0,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			var first string
			for i, sides := range [][2]string{{c.ours, c.theirs}, {c.theirs, c.ours}} {
				b := base
				if c.base != nil {
					b = *c.base
				}
				got, clean, err := markdown.MergeNote("tasks/Ship it.md", []byte(b), []byte(sides[0]), []byte(sides[1]), gitMerge, task.MergeRules)
				if err != nil || !clean {
					t.Fatalf("MergeNote (side %d): clean %v, err %v:\n%s", i, clean, err, got)
				}
				for _, w := range c.want {
					if !strings.Contains(string(got), w) {
						t.Errorf("merge (side %d) lacks %q:\n%s", i, w, got)
					}
				}
				for _, w := range c.wantNot {
					if strings.Contains(string(got), w) {
						t.Errorf("merge (side %d) holds %q:\n%s", i, w, got)
					}
				}
				if n := strings.Count(string(got), "note: claim settled to"); n != c.entries {
					t.Errorf("merge (side %d) logs %d claim events, want %d:\n%s", i, n, c.entries, got)
				}
				n := markdown.Parse("tasks/Ship it.md", got)
				if n.Frontmatter == nil || n.Type() != task.Type {
					t.Errorf("merge (side %d) is no task note:\n%s", i, got)
				}
				fm := func(k string) string { v, _ := n.Frontmatter.String(k); return v }
				key := fm("assignee") + "|" + fm("started") + "|" + fm("status")
				if i == 0 {
					first = key
				} else if key != first {
					t.Errorf("the two sides settle to %s and %s", first, key)
				}
			}
		})
	}
}

// TestLostClaimNotice: after a merge settled a task to another agent, the
// loser's focus and context say so; the winner's say nothing.
func TestLostClaimNotice(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "Ship it"})
	must[task.Started](t)(f.s.Start(f.ctx, "codex", a.Path, false))
	// What the merge with a clone where claude started it earlier wrote.
	n := markdown.Parse(a.Path, []byte(f.read(a.Path)))
	codex := task.Claim{Agent: "codex", Started: "2026-11-23T14:02", Status: task.Doing}
	claude := task.Claim{Agent: "claude", Started: "2026-11-23T13:50", Status: task.Doing}
	next := must[[]byte](t)(markdown.SetFrontmatterKeys(a.Path, n.Content, "assignee", "claude", "started", "2026-11-23T13:50"))
	f.write(a.Path, string(markdown.AppendToSection(next, task.LogHeading, task.ClaimEvent(claude, codex))))
	f.sync()

	fc := must[task.Focus](t)(f.s.Focus(f.ctx, "codex"))
	if fc.Task != a.Path || fc.HeldBy != "claude" ||
		!strings.Contains(fc.Notice, "held by agent claude since 2026-11-23T13:50") ||
		!strings.Contains(fc.Notice, "your claim (started 2026-11-23T14:02) was settled to claude") {
		t.Errorf("codex's focus: %+v", fc)
	}
	c := must[task.Context](t)(f.s.Context(f.ctx, "codex", "", 0))
	if c.Notice != fc.Notice || !strings.Contains(c.Context, "**Not yours:** task Ship it") {
		t.Errorf("codex's context: notice %q\n%s", c.Notice, c.Context)
	}
	// claude, focused on it, holds it: nothing to say.
	must[task.Started](t)(f.s.Start(f.ctx, "claude", a.Path, false))
	if fc := must[task.Focus](t)(f.s.Focus(f.ctx, "claude")); fc.HeldBy != "" || fc.Notice != "" {
		t.Errorf("claude's focus: %+v", fc)
	}
	// Nor to its subagent, which reads claude's focus.
	if fc := must[task.Focus](t)(f.s.Focus(f.ctx, "claude/tests")); fc.Task != a.Path || fc.HeldBy != "" || fc.Notice != "" {
		t.Errorf("claude/tests' focus: %+v", fc)
	}
	// Another agent that took the task over on the same machine: said too,
	// without a merge's claim.
	must[task.Started](t)(f.s.Start(f.ctx, "gemini", a.Path, true))
	if fc := must[task.Focus](t)(f.s.Focus(f.ctx, "claude")); fc.HeldBy != "gemini" || strings.Contains(fc.Notice, "settled") {
		t.Errorf("claude's focus after gemini took it: %+v", fc)
	}
}

// TestStartedAndBlockedBy: start writes started to the minute, as
// Obsidian's date-and-time property; block on a task no one holds makes
// the blocking agent its holder (the Blocked view's "Held by"), and
// leaves a holder as it is.
func TestStartedAndBlockedBy(t *testing.T) {
	f := newFixture(t)
	a := f.add(task.New{Title: "Ship it"})
	b := f.add(task.New{Title: "Wait for CI"})
	must[task.Started](t)(f.s.Start(f.ctx, "claude", a.Path, false))
	if got := f.read(a.Path); !strings.Contains(got, "\nstarted: 2026-11-23T14:03\n") {
		t.Errorf("started:\n%s", got)
	}
	must[task.Logged](t)(f.s.Block(f.ctx, "codex", b.Path, "CI is down"))
	if got := f.read(b.Path); !strings.Contains(got, "status: blocked\n") || !strings.Contains(got, "assignee: codex\n") || strings.Contains(got, "started:") {
		t.Errorf("blocked before started:\n%s", got)
	}
	must[task.Logged](t)(f.s.Block(f.ctx, "codex", a.Path, "CI is down"))
	if got := f.read(a.Path); !strings.Contains(got, "assignee: claude\n") {
		t.Errorf("blocked while held:\n%s", got)
	}
	if tk, _, _ := f.ix.Kinds().Task(f.ctx, b.Path); tk.Assignee != "codex" {
		t.Errorf("index: %+v", tk)
	}
}

// TestThreeClaimsConverge: three clones claim one task; merged in any
// order, the holder is the same (the earliest start), and each loser's
// claim is logged once.
func TestThreeClaimsConverge(t *testing.T) {
	base := "---\ntype: task\nname: Ship it\nstatus: todo\n---\n\n## Log\n"
	side := func(agent, started string) []byte {
		return []byte(strings.Replace(base, "status: todo", "status: doing\nassignee: "+agent+"\nstarted: "+started, 1))
	}
	sides := map[string][]byte{"a": side("codex", "2026-11-23T10:05"), "b": side("claude", "2026-11-23T10:07"), "c": side("gemini", "2026-11-23T10:03")}
	merge := func(ours, theirs []byte) []byte {
		got, clean, err := markdown.MergeNote("tasks/Ship it.md", []byte(base), ours, theirs, gitMerge, task.MergeRules)
		if err != nil || !clean {
			t.Fatalf("MergeNote: clean %v, err %v:\n%s", clean, err, got)
		}
		return got
	}
	for _, order := range [][3]string{{"a", "b", "c"}, {"c", "a", "b"}, {"b", "c", "a"}, {"c", "b", "a"}} {
		got := string(merge(merge(sides[order[0]], sides[order[1]]), sides[order[2]]))
		if !strings.Contains(got, "assignee: gemini\n") || !strings.Contains(got, "started: 2026-11-23T10:03\n") ||
			strings.Count(got, "codex's claim") != 1 || strings.Count(got, "claude's claim") != 1 || strings.Contains(got, "gemini's claim") {
			t.Errorf("merged in the order %v:\n%s", order, got)
		}
	}
}
