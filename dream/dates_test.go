package dream

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestRelativeDates(t *testing.T) {
	for _, tt := range []struct {
		body string
		want []string // the phrases found, in order
	}{
		{"Ship it next Thursday.", []string{"next Thursday"}},
		{"Meeting tomorrow with Bob, then yesterday's notes.", []string{"tomorrow", "yesterday"}},
		{"We freeze in two weeks and ship in 3 days.", []string{"in two weeks", "in 3 days"}},
		{"It broke two days ago.", []string{"two days ago"}},
		{"Ship it next Thursday (2026-03-05).", nil},                           // already dated
		{"On Monday we deploy; sunday school.", nil},                           // a bare weekday is a habit
		{"Back in 3 hours, tonight.", nil},                                     // times of day
		{"Run `make release tomorrow` and see [[Plan for next Friday]].", nil}, // code and links
		{"```\ndeploy tomorrow\n```\nand next friday", []string{"next friday"}},
		{"%% tomorrow %%", nil},
		{"Demo the day after tomorrow, review this coming Monday.", []string{"the day after tomorrow", "this coming Monday"}},
		{"Due 10 days from now; last week was calm.", []string{"10 days from now"}}, // a week is no day
		{"明天发布，下周三复盘，三天前定的；上周很忙。", []string{"明天", "下周三", "三天前"}},
		{"## Ship next Friday\n\nShip next Friday.", []string{"next Friday", "next Friday"}}, // a heading (unless a link names it: fixDates)
		{"Ship next Friday\n===\n\ntomorrow", []string{"next Friday", "tomorrow"}},           // a setext heading too
		{`<span title="ship next Friday">x</span> and tomorrow`, []string{"tomorrow"}},       // HTML
		{"<b>next Friday</b>, then tomorrow", []string{"tomorrow"}},
		{"$next Friday$ and $$tomorrow$$ but next Monday", []string{"next Monday"}}, // math
		{"See [ship next Friday](plan.md) tomorrow.", []string{"tomorrow"}},         // link text
	} {
		n := markdown.Parse("m.md", []byte("---\ntype: user\n---\n"+tt.body+"\n"))
		var got []string
		for _, p := range relativeDates(n) {
			got = append(got, p.text)
			if !strings.HasSuffix(string(n.Content[:p.end]), p.text) {
				t.Errorf("%q: %q does not end at %d", tt.body, p.text, p.end)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: found %q, want %q", tt.body, got, tt.want)
		}
	}
}

// TestDatesFromGit: a memory without dates counts from the day git first
// saw it; without git either, it is reported and left alone.
func TestDatesFromGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	tv := newTestVault(t, map[string]string{
		"memory/a.md": memoryNote("A", "project", "x", "", "Release this Friday.\n"),
	})
	rep := tv.run(RunOptions{})
	if len(rep.DatesFixed) != 0 || len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "git has no record") {
		t.Fatalf("no date, no git: fixed %+v, skipped %+v", rep.DatesFixed, rep.Skipped)
	}
	git(t, tv.dir, "init", "-q")
	git(t, tv.dir, "add", "memory/a.md")
	git(t, tv.dir, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a", "--date", "2026-02-10T12:00:00Z")
	rep = tv.run(RunOptions{Full: true})
	if len(rep.DatesFixed) != 1 || rep.DatesFixed[0].To != "2026-02-13" {
		t.Errorf("from git: %+v (skipped %+v)", rep.DatesFixed, rep.Skipped)
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GIT_AUTHOR_DATE=2026-02-10T12:00:00Z", "GIT_COMMITTER_DATE=2026-02-10T12:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestDatesKeepLinksAndDoubt: a heading keeps its words (a link names
// it), and a "next" or "last" weekday that English reads two ways is
// left undated and reported; the phrases that name one day are dated.
func TestDatesKeepLinksAndDoubt(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/plan.md": memoryNote("Plan", "project", "x", "created: 2026-01-08\n", // a Thursday
			"## Ship next Friday\n\nWe ship next Friday, demo this Friday, plan next Monday, review last Friday, retro last Monday.\n"+
				"<span title=\"next Monday\">x</span> $tomorrow$\n"),
		"notes/n.md": "See [[plan#Ship next Friday]].\n",
	})
	rep := tv.run(RunOptions{})
	var fixed []string
	for _, f := range rep.DatesFixed {
		fixed = append(fixed, f.From+" "+f.To)
	}
	if want := []string{"this Friday 2026-01-09", "next Monday 2026-01-12", "last Friday 2026-01-02"}; !reflect.DeepEqual(fixed, want) {
		t.Errorf("fixed %q, want %q", fixed, want)
	}
	var doubts []string
	for _, s := range rep.Skipped {
		doubts = append(doubts, s.Reason)
	}
	if len(doubts) != 2 || !strings.Contains(doubts[0], `"next Friday" said on 2026-01-08, a Thursday, may mean 2026-01-09 or 2026-01-16`) ||
		!strings.Contains(doubts[1], `"last Monday" said on 2026-01-08, a Thursday, may mean 2026-01-05 or 2025-12-29`) {
		t.Errorf("skipped %q", doubts)
	}
	got := tv.read("memory/plan.md")
	if !strings.Contains(got, "## Ship next Friday\n") || !strings.Contains(got, `<span title="next Monday">x</span> $tomorrow$`) {
		t.Errorf("a heading, HTML or math was dated:\n%s", got)
	}
}

// TestDatesOnlyInProse: a run dates a relative date in prose, and never
// one where the date would change what the text does (code, links, URLs,
// tags, HTML, comments, math, the frontmatter). Each row is a memory
// written on Sunday 2026-03-01 ("tomorrow" is 2026-03-02), its body and
// its body after a run; most hold a "tomorrow" in prose too, so that a row
// whose other "tomorrow" is left alone still shows the run dated the note.
func TestDatesOnlyInProse(t *testing.T) {
	const day = " (2026-03-02)"
	for _, tt := range []struct {
		name  string
		extra string            // frontmatter lines
		body  string            // the memory's body
		want  string            // its body after a run; "" for unchanged
		notes map[string]string // other notes of the vault
	}{
		// Never dated.
		{name: "double backtick code", body: "Run ``deploy tomorrow`` and ship tomorrow.\n",
			want: "Run ``deploy tomorrow`` and ship tomorrow" + day + ".\n"},
		{name: "code after an escaped backtick", body: "A \\` then `deploy tomorrow` and ship tomorrow.\n",
			want: "A \\` then `deploy tomorrow` and ship tomorrow" + day + ".\n"},
		{name: "fenced code in a list item", body: "- step one\n\n  ```\n  deploy tomorrow\n  ```\n- ship tomorrow\n",
			want: "- step one\n\n  ```\n  deploy tomorrow\n  ```\n- ship tomorrow" + day + "\n"},
		{name: "fenced code in a quote", body: "> ```\n> deploy tomorrow\n> ```\n> ship tomorrow\n",
			want: "> ```\n> deploy tomorrow\n> ```\n> ship tomorrow" + day + "\n"},
		{name: "fenced code in a callout", body: "> [!note] Plan\n> ~~~\n> deploy tomorrow\n> ~~~\n\nShip tomorrow.\n",
			want: "> [!note] Plan\n> ~~~\n> deploy tomorrow\n> ~~~\n\nShip tomorrow" + day + ".\n"},
		{name: "indented code", body: "Intro.\n\n    deploy tomorrow\n\nShip tomorrow.\n",
			want: "Intro.\n\n    deploy tomorrow\n\nShip tomorrow" + day + ".\n"},
		{name: "bare URL", body: "See https://example.com/launch-tomorrow and ship tomorrow.\n",
			want: "See https://example.com/launch-tomorrow and ship tomorrow" + day + ".\n"},
		{name: "autolink", body: "See <https://example.com/tomorrow> and ship tomorrow.\n",
			want: "See <https://example.com/tomorrow> and ship tomorrow" + day + ".\n"},
		{name: "link destination", body: "See [plan](https://example.com/tomorrow) and ship tomorrow.\n",
			want: "See [plan](https://example.com/tomorrow) and ship tomorrow" + day + ".\n"},
		{name: "link text", body: "See [ship tomorrow](plan.md), then ship tomorrow.\n",
			want: "See [ship tomorrow](plan.md), then ship tomorrow" + day + ".\n"},
		{name: "wikilink", body: "See [[Meeting tomorrow]] and ship tomorrow.\n",
			want: "See [[Meeting tomorrow]] and ship tomorrow" + day + ".\n"},
		{name: "wikilink label", body: "See [[plan|tomorrow]] and ship tomorrow.\n",
			want: "See [[plan|tomorrow]] and ship tomorrow" + day + ".\n"},
		{name: "tag", body: "Tagged #tomorrow, ship tomorrow.\n",
			want: "Tagged #tomorrow, ship tomorrow" + day + ".\n"},
		{name: "frontmatter", extra: "plan: deploy tomorrow\n", body: "Ship tomorrow.\n",
			want: "Ship tomorrow" + day + ".\n"},
		{name: "inline HTML", body: "<b>deploy tomorrow</b> and ship tomorrow.\n",
			want: "<b>deploy tomorrow</b> and ship tomorrow" + day + ".\n"},
		{name: "HTML attribute", body: "<span title=\"deploy tomorrow\">x</span> and ship tomorrow.\n",
			want: "<span title=\"deploy tomorrow\">x</span> and ship tomorrow" + day + ".\n"},
		{name: "HTML block", body: "<div>\ndeploy tomorrow\n</div>\n\nShip tomorrow.\n",
			want: "<div>\ndeploy tomorrow\n</div>\n\nShip tomorrow" + day + ".\n"},
		{name: "comment", body: "%% deploy tomorrow %% Ship tomorrow.\n",
			want: "%% deploy tomorrow %% Ship tomorrow" + day + ".\n"},
		{name: "comment over lines", body: "%%\ndeploy tomorrow\n%%\n\nShip tomorrow.\n",
			want: "%%\ndeploy tomorrow\n%%\n\nShip tomorrow" + day + ".\n"},
		{name: "HTML comment", body: "Ship tomorrow <!-- deploy tomorrow -->.\n",
			want: "Ship tomorrow" + day + " <!-- deploy tomorrow -->.\n"},
		{name: "HTML comment block", body: "<!--\ndeploy tomorrow\n-->\n"},
		{name: "inline math", body: "$deploy tomorrow$ and ship tomorrow.\n",
			want: "$deploy tomorrow$ and ship tomorrow" + day + ".\n"},
		{name: "double dollar math", body: "Ship tomorrow, $$deploy tomorrow$$.\n",
			want: "Ship tomorrow" + day + ", $$deploy tomorrow$$.\n"},
		{name: "math block", body: "$$\ndeploy tomorrow\n$$\n\nShip tomorrow.\n",
			want: "$$\ndeploy tomorrow\n$$\n\nShip tomorrow" + day + ".\n"},
		{name: "linked heading", body: "## Ship tomorrow\n\nDetails.\n",
			notes: map[string]string{"notes/n.md": "See [[m#Ship tomorrow]].\n"}},
		{name: "only code", body: "```\ndeploy tomorrow\n```\n"},

		// Dated: prose.
		{name: "paragraph", body: "Ship tomorrow.\n", want: "Ship tomorrow" + day + ".\n"},
		{name: "list item", body: "- ship tomorrow\n- then rest\n", want: "- ship tomorrow" + day + "\n- then rest\n"},
		{name: "quote", body: "> ship tomorrow\n", want: "> ship tomorrow" + day + "\n"},
		{name: "callout", body: "> [!note]\n> ship tomorrow\n", want: "> [!note]\n> ship tomorrow" + day + "\n"},
		{name: "heading no link names", body: "## Ship tomorrow\n\nDetails.\n", want: "## Ship tomorrow" + day + "\n\nDetails.\n"},
		{name: "table cell", body: "| when | what |\n|---|---|\n| tomorrow | ship |\n",
			want: "| when | what |\n|---|---|\n| tomorrow" + day + " | ship |\n"},
		{name: "after a code span", body: "Run `make` tomorrow.\n", want: "Run `make` tomorrow" + day + ".\n"},
		{name: "emphasis", body: "Ship **tomorrow**.\n", want: "Ship **tomorrow" + day + "**.\n"},
		{name: "after a comment", body: "Ship %%soon%% tomorrow.\n", want: "Ship %%soon%% tomorrow" + day + ".\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"memory/m.md": memoryNote("M", "project", "x", "created: 2026-03-01\n"+tt.extra, tt.body)}
			for p, c := range tt.notes {
				files[p] = c
			}
			tv := newTestVault(t, files)
			rep := tv.run(RunOptions{})
			want := tt.want
			if want == "" {
				want = tt.body
			}
			if got := tv.read("memory/m.md"); got != memoryNote("M", "project", "x", "created: 2026-03-01\n"+tt.extra, want) {
				t.Errorf("after a run:\n%s\nwant body:\n%s", got, want)
			}
			if n := strings.Count(want, day); len(rep.DatesFixed) != n {
				t.Errorf("dates fixed %+v, want %d", rep.DatesFixed, n)
			}
		})
	}
}
