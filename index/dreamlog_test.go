package index

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/vaultmem/vaultmem/memory"
)

// dreamLog is a dream log as Dream writes it: about the memories, in their
// words, linking to them.
const dreamLog = "---\ntype: dream-log\ndescription: What vaultmem's Dream pass changed in the memories, one entry per run.\n---\n\n" +
	"# Dream log\n\n## 2026-03-06 02:00 UTC\n\n" +
	"- Merged the release freeze memories into [[project_freeze]] (merge freeze for the mobile release branch)\n" +
	"- Flagged [[feedback_testing]] and [[user_role]] for review: integration tests, real database, mocks, migration\n"

// TestSearchHidesDreamLog: Dream's log (type dream-log) is left out of
// every search mode, though it holds the memories' own words, unless the
// query asks for all notes; it is still a note, listed by its type, its
// links resolve both ways, and it is no memory (MEMORY.md lists the
// memories the index returns). Keyword search ranks with FTS5, or in a
// resident index with the lexicon: both leave it out.
func TestSearchHidesDreamLog(t *testing.T) {
	for _, resident := range []bool{false, true} {
		t.Run(fmt.Sprintf("resident=%v", resident), func(t *testing.T) { searchHidesDreamLog(t, Options{Resident: resident}) })
	}
}

func searchHidesDreamLog(t *testing.T, opts Options) {
	ctx := context.Background()
	tv := newTestVault(t, "memory-folder", opts)
	tv.write("memory/dream-log.md", dreamLog)
	tv.write("notes/howto.md", "# How Dream works\n\nSee the [[dream-log]] for what it changed.\n")
	tv.sync()

	const log = "memory/dream-log.md"
	found := func(q Query) bool {
		t.Helper()
		hits, err := tv.ix.Searcher().Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(hits, func(r Result) bool { return r.Path == log })
	}
	for _, mode := range []Mode{Keyword, Vector, Hybrid} {
		for _, text := range []string{"release freeze merged memories", "integration tests real database mocks migration", "dream log"} {
			q := Query{Text: text, Mode: mode, Limit: 50}
			if found(q) {
				t.Errorf("%s search %q finds the dream log", mode, text)
			}
			if q.All = true; mode == Keyword && !found(q) {
				t.Errorf("%s search %q for all notes misses the dream log", mode, text)
			}
		}
	}

	notes, err := tv.ix.Searcher().List(ctx, Query{Type: DreamLogType})
	if err != nil || len(notes) != 1 || notes[0].Path != log {
		t.Errorf("notes of type %s: %+v %v, want [%s]", DreamLogType, notes, err, log)
	}
	out, err := tv.ix.Graph().Outgoing(ctx, log)
	if err != nil || !slices.Contains(out, "memory/project_freeze.md") {
		t.Errorf("the dream log links to %v %v, want memory/project_freeze.md among them", out, err)
	}
	back, err := tv.ix.Graph().Backlinks(ctx, log)
	if err != nil || !slices.Equal(back, []string{"notes/howto.md"}) {
		t.Errorf("backlinks of the dream log: %v %v, want [notes/howto.md]", back, err)
	}
	memories, err := tv.ix.Kinds().Memories(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(memories, func(m memory.Live) bool { return m.Path == log }) {
		t.Errorf("the dream log is among the memories: %+v", memories)
	}
}
