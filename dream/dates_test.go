package dream

import (
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/olebedev/when"
	"github.com/vaultmem/vaultmem/vault"
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
	} {
		n := vault.Parse("m.md", []byte("---\ntype: user\n---\n"+tt.body+"\n"))
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
		"memory/a.md": memoryNote("A", "project", "x", "", "Release next Friday.\n"),
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

// TestParseDateAsWhen: parseDate finds and dates what when.Parser, with
// the same rules and options, does.
func TestParseDateAsWhen(t *testing.T) {
	w := when.New(dateOptions)
	w.Add(dateRules()...)
	base := time.Date(2026, 2, 27, 12, 0, 0, 0, time.UTC)
	texts := []string{
		"Ship it next Thursday.", "Meeting tomorrow with Bob", "yesterday's notes", "We freeze in two weeks",
		"and ship in 3 days.", "Review it next Thursday.", "Due next friday at 5pm", "last monday we met",
		"this Wednesday", "coming sunday", "two days ago", "3 weeks ago we decided", "in a few months",
		"within 2 years", "tonight", "on Monday", "no date here", "", "next week", "today and tomorrow",
		"by tomorrow evening", "in 5 minutes", "last year", "next Thursday (2026-03-05)",
	}
	// Two phrases together: one phrase or two, by how far apart they are;
	// applied in the rules' order, not the text's.
	phrases := []string{"tomorrow", "next Friday", "in 3 days", "2 days ago", "last monday", "tonight", "yesterday"}
	for _, a := range phrases {
		for _, b := range phrases {
			for _, sep := range []string{" ", ", ", "  ", " and "} {
				texts = append(texts, a+sep+b)
			}
		}
	}
	for _, text := range texts {
		got, ok, err := parseDate(text, base)
		want, wantErr := w.Parse(text, base)
		switch {
		case (err != nil) != (wantErr != nil):
			t.Errorf("%q: error %v, when's %v", text, err, wantErr)
		case want == nil && ok, want != nil && !ok:
			t.Errorf("%q: found %v, when found %v", text, ok, want)
		case want != nil && (got.index != want.Index || got.text != want.Text || !got.time.Equal(want.Time)):
			t.Errorf("%q: %d %q %v, when's %d %q %v", text, got.index, got.text, got.time, want.Index, want.Text, want.Time)
		}
	}
}
