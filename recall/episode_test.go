package recall_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/session"
)

// episodeTopics are what the memories of TestMemoryOutranksSessionNotes
// say, and what its sessions were about: the question, the memory's
// name and its text.
var episodeTopics = []struct{ question, name, text string }{
	{"how do we deploy the billing service", "billing deploys", "The billing service deploys with make deploy-billing after the canary passes."},
	{"which database do the tests use", "test database", "The tests use a real Postgres started by docker compose, never mocks."},
	{"how are secrets rotated", "secret rotation", "Secrets are rotated every quarter with vault-rotate and the old keys revoked a week later."},
	{"what is the code review rule", "code review rule", "Every change needs one approving review from an owner of the package it touches."},
	{"where do the release notes go", "release notes", "Release notes go in CHANGELOG.md under Unreleased, one line per user-visible change."},
	{"how is the search index rebuilt", "index rebuild", "The search index is rebuilt with vaultmem index --rebuild after a schema change."},
	{"what timezone do the cron jobs use", "cron timezone", "All cron jobs run in UTC, whatever the server's local timezone."},
	{"how do we name feature flags", "feature flag names", "Feature flags are named team.feature.variant in lower case."},
	{"who owns the payments queue", "payments queue owner", "The payments queue is owned by the ledger team; page them for a backlog."},
	{"how long are logs kept", "log retention", "Logs are kept for 30 days in hot storage and a year in the archive bucket."},
	{"what linter settings do we use", "linter settings", "The linter runs golangci-lint with the repository's config and fails on any warning."},
	{"how do we version the API", "API versioning", "The API is versioned in the path, /v2, and a version lives two years after the next."},
	{"where are the runbooks kept", "runbooks", "Runbooks are kept in the ops wiki, one page per alert, linked from the alert."},
	{"what is the branch naming convention", "branch names", "Branches are named after the ticket, like PAY-123-short-title."},
	{"how are database migrations applied", "migrations", "Database migrations run before the deploy, forward only, with goose."},
	{"what monitoring dashboards exist", "dashboards", "The monitoring dashboards live in Grafana under the Services folder, one per service."},
	{"how do we handle an outage postmortem", "postmortems", "An outage gets a blameless postmortem within five working days."},
	{"which cache does the profile service use", "profile cache", "The profile service caches in Redis with a ten minute expiry."},
	{"how is the mobile app released", "mobile releases", "The mobile app is released every second Thursday through a staged rollout."},
	{"what are the on-call hours", "on-call hours", "On-call covers the whole week, handed over on Monday at ten."},
}

// TestMemoryOutranksSessionNotes: a vault of 50 session notes written as
// the hooks write them (their prompts asking the questions, a checkpoint
// and a file that name the topic as the memory's name does) and the 20
// memories they led to: for each question the memory comes before every
// session note, and no prompt of a session comes back.
func TestMemoryOutranksSessionNotes(t *testing.T) {
	notes := map[string]string{}
	for i, tp := range episodeTopics {
		notes[fmt.Sprintf("memory/topic-%02d.md", i)] = fmt.Sprintf("---\nname: %s\ndescription: %s\ntype: %s\n---\n\n%s\n",
			tp.name, tp.name, []string{"project", "feedback", "reference", "user"}[i%4], tp.text)
	}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for s := range 50 {
		st := &session.State{ID: fmt.Sprintf("session-%02d", s), Client: "claude-code", Agent: "claude",
			Started: start.Add(time.Duration(s) * 7 * time.Hour)}
		st.Ended = st.Started.Add(time.Hour)
		for k := range 12 {
			tp := episodeTopics[(s+k)%len(episodeTopics)]
			st.Prompts = append(st.Prompts, session.Prompt{Time: st.Started.Add(time.Duration(k) * time.Minute),
				Text: tp.question + "? " + tp.question + ", again, " + tp.name})
		}
		tp := episodeTopics[s%len(episodeTopics)]
		st.Files = []string{"docs/" + strings.ReplaceAll(tp.name, " ", "-") + ".md"}
		st.Checkpoint = &session.Checkpoint{Time: st.Ended, Text: "Focused task: " + tp.name + ", with its log and its subtasks."}
		notes[st.NotePath(session.DefaultFolder)] = string(st.Render(func(string) string { return "" }))
	}
	ix, _ := testIndex(t, "", notes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for i, tp := range episodeTopics {
		res, err := e.Recall(context.Background(), recall.Request{Query: tp.question, Budget: 600})
		if err != nil {
			t.Fatal(err)
		}
		memory, firstSession := -1, -1
		for k, it := range res.Items {
			if it.Path == fmt.Sprintf("memory/topic-%02d.md", i) && memory < 0 {
				memory = k
			}
			if it.Kind == session.Type && firstSession < 0 {
				firstSession = k
			}
			if strings.Contains(it.Heading, session.PromptsHeading) {
				t.Errorf("%q: a session's prompts came back: %s %q", tp.question, it.Path, it.Text)
			}
		}
		if memory < 0 || firstSession >= 0 && firstSession < memory {
			t.Errorf("%q: the memory is item %d, the first session note item %d:\n%s", tp.question, memory, firstSession, res.Context)
		}
		if strings.Contains(res.Context, ", again, ") {
			t.Errorf("%q: a prompt is in the context:\n%s", tp.question, res.Context)
		}
	}
}

// TestWhyFindsTheTaskDecision: "why did we choose FTS5" gives the task's
// logged decision, though earlier sessions asked the same question dozens
// of times (their prompt lists once filled the budget and pushed the
// decision out), and other notes mention FTS5 more often.
func TestWhyFindsTheTaskDecision(t *testing.T) {
	notes := map[string]string{
		"tasks/search.md": "---\ntype: task\nname: Full-text search\nstatus: done\ncreated: 2026-11-20\n---\n\nAdd full-text search to the index.\n\n## Log\n\n" +
			"- 2026-11-23 14:02 decision: chose FTS5 over bleve\n  because it ships with SQLite\n" +
			"- 2026-11-23 15:10 milestone: tokenizer passes its tests\n",
		"docs/search.md": "# Search\n\nThe index uses SQLite FTS5 with BM25 ranking. FTS5 tables hold every chunk.\n",
		"memory/fts.md":  "---\nname: fts5 columns\ndescription: columns of the FTS5 table\ntype: reference\n---\n\nFTS5 columns are name, aliases, description, tags, heading, text.\n",
	}
	for i := range 3 {
		st := &session.State{ID: fmt.Sprint("s", i), Client: "claude-code", Agent: "claude", Started: time.Date(2026, 11, 24+i, 10, 0, 0, 0, time.UTC)}
		for j := range 36 {
			st.Prompts = append(st.Prompts, session.Prompt{Time: st.Started.Add(time.Duration(j) * time.Minute),
				Text: fmt.Sprintf("why did we choose FTS5 for search step %d, and does the tokenizer work", j)})
		}
		st.Tasks = []string{"tasks/search.md"}
		notes[st.NotePath(session.DefaultFolder)] = string(st.Render(func(string) string { return "" }))
	}
	ix, _ := testIndex(t, "", notes)
	e := recall.New(ix.Recall(), recall.Options{NoDeadlines: true})
	for _, budget := range []int{200, 600} {
		res, err := e.Recall(context.Background(), recall.Request{Query: "why did we choose FTS5", Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Items) == 0 || res.Items[0].Path != "tasks/search.md" || !strings.Contains(res.Items[0].Text, "chose FTS5 over bleve") {
			t.Errorf("budget %d: the decision is not the first item: %+v", budget, res.Items)
		}
		if !strings.Contains(res.Context, "chose FTS5 over bleve\n  because it ships with SQLite") {
			t.Errorf("budget %d: the decision line is not in the context:\n%s", budget, res.Context)
		}
	}
}
