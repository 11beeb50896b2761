package index

import (
	"context"
	"strings"
	"testing"
)

// TestEnds: the earliest and latest dated chunks of a note (a task's log
// events), whatever order the log is written in; one for a lone event,
// none for a note without dated chunks.
func TestEnds(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	tv.write("tasks/billing.md", "---\ntype: task\nname: Billing migration\nstatus: done\n---\n\nMove billing to the new ledger.\n\n## Log\n\n"+
		"- 2026-03-05 09:00 milestone: ledger schema merged\n"+
		"- 2026-03-01 10:00 note: migration started\n"+
		"- 2026-03-20 17:00 milestone: last account moved\n"+
		"- 2026-03-12 11:00 decision: dual writes for a week\n")
	tv.write("tasks/one.md", "---\ntype: task\nname: One\nstatus: doing\n---\n\n## Log\n\n- 2026-04-01 10:00 note: begun\n")
	tv.write("plain.md", "# Plain\n\nNo dates here.\n")
	tv.sync()
	ctx := context.Background()
	ends, err := tv.ix.Searcher().Ends(ctx, "tasks/billing.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(ends) != 2 || !strings.Contains(ends[0].Text, "migration started") || !strings.Contains(ends[1].Text, "last account moved") ||
		ends[0].Date[:10] != "2026-03-01" || ends[1].Date[:10] != "2026-03-20" {
		t.Errorf("ends of the billing log: %+v", ends)
	}
	if one, err := tv.ix.Searcher().Ends(ctx, "tasks/one.md"); err != nil || len(one) != 1 {
		t.Errorf("a log of one event: %+v %v", one, err)
	}
	for _, p := range []string{"plain.md", "missing.md"} {
		if none, err := tv.ix.Searcher().Ends(ctx, p); err != nil || len(none) != 0 {
			t.Errorf("%s: %+v %v", p, none, err)
		}
	}
}

// TestBulkLoadRestoresAutomerge: a cold index turns FTS5's automerge off
// while it fills the table and back on after, or the one-note syncs after
// it would pile up segments that every query reads.
func TestBulkLoadRestoresAutomerge(t *testing.T) {
	tv := newTestVault(t, "memory-folder", Options{NoVectors: true})
	tv.sync()
	var v string
	if err := tv.ix.db.QueryRow(`SELECT v FROM chunks_fts_config WHERE k = 'automerge'`).Scan(&v); err != nil || v != "4" {
		t.Errorf("automerge after a cold index: %q, %v; want 4", v, err)
	}
	if res, err := tv.ix.Searcher().Search(context.Background(), Query{Text: "freeze", Mode: Keyword}); err != nil || len(res) == 0 {
		t.Errorf("search after the bulk load: %v, %v", res, err)
	}
}
