package recall

import (
	"context"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
)

// TestGraphFollowsLinksOnlyAlongLinkDimensions: the graph engine searches
// the notes linked to the best hits on routes with a concept, entity or
// relationship dimension; a route whose one dimension is temporal (along
// dates) leaves links alone.
func TestGraphFollowsLinksOnlyAlongLinkDimensions(t *testing.T) {
	ix, _ := NewTestIndex(t, "", map[string]string{
		"release.md": "# Release\n\nThe release train leaves on Friday. See [[freeze]].\n",
		"freeze.md":  "# Freeze\n\nNo release merges during the holiday freeze.\n",
	})
	e := New(ix.Recall(), Options{NoDeadlines: true})
	ctx := context.Background()
	for _, tc := range []struct {
		intent Intent
		want   bool
	}{
		{Causal, true},       // concept, relationship
		{Relationship, true}, // entity, relationship
		{Hybrid, true},
		{Temporal, false}, // temporal only
		{SimpleFact, false},
	} {
		s := newSearch(e, "release train", e.routes[tc.intent], 500, nil)
		hits, err := ix.Searcher().Search(ctx, index.Query{Text: "release train", Mode: index.Keyword, Paths: []string{"release.md"}})
		if err != nil || len(hits) == 0 {
			t.Fatalf("search: %v, %d hits", err, len(hits))
		}
		s.add("exact", hits, 1)
		s.graph(ctx, 3)
		got := false
		for _, c := range s.cands {
			if _, ok := c.votes["graph"]; ok && c.hit.Path == "freeze.md" {
				got = true
			}
		}
		if got != tc.want {
			t.Errorf("%s: the linked note found by the graph engine: %v, want %v", tc.intent, got, tc.want)
		}
	}
}

// TestSemanticWaitsForThePrefetch: the vector ranking started before the
// stages is what the semantic engine adds; a stage whose deadline has
// passed adds nothing and leaves it to a later stage, which waits for it.
func TestSemanticWaitsForThePrefetch(t *testing.T) {
	ix, _ := NewTestIndex(t, "", map[string]string{
		"release.md": "# Release\n\nThe release train leaves on Friday.\n",
		"cooking.md": "# Cooking\n\nBraise the leeks slowly in butter.\n",
	})
	e := New(ix.Recall(), Options{NoDeadlines: true})
	ctx := context.Background()
	s := newSearch(e, "when does the release train leave", e.routes[Causal], 500, nil)
	s.prefetch(ctx)
	gone, cancel := context.WithDeadline(ctx, time.Unix(0, 0))
	defer cancel()
	s.semantic(gone, 10)
	// The prefetch may have finished by now; a passed deadline takes it
	// only if it had.
	if !s.vecDone && len(s.cands) != 0 {
		t.Fatalf("a stage past its deadline added %d candidates without the vector ranking", len(s.cands))
	}
	s.semantic(ctx, 10)
	if !s.vecDone {
		t.Fatal("the vector ranking was not taken")
	}
	want, err := ix.Searcher().Search(ctx, index.Query{Text: s.query, Mode: index.Vector, Limit: s.depth(), NoSnippets: true})
	if err != nil || len(want) == 0 {
		t.Fatalf("vector search: %v, %d hits", err, len(want))
	}
	if len(s.vector) != len(want) {
		t.Fatalf("prefetched %d hits, a vector search gives %d", len(s.vector), len(want))
	}
	for i := range want {
		if s.vector[i].Chunk != want[i].Chunk {
			t.Errorf("hit %d: chunk %d, want %d", i, s.vector[i].Chunk, want[i].Chunk)
		}
	}
	if c := s.cands[want[0].Chunk]; c == nil || c.votes["semantic"] == 0 {
		t.Errorf("the best vector hit has no semantic vote: %+v", c)
	}
}
