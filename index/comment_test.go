package index

import (
	"context"
	"strings"
	"testing"
)

// drawingJSON are strings found only in the drawings' JSON of the
// excalidraw fixture vault.
var drawingJSON = []string{"compressed-json", "N4KAkAR", "strokeColor", "versionNonce", `"type"`, "excalidraw.com"}

func TestSearchLeavesOutDrawingsAndComments(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "excalidraw", Options{NoVectors: true})
	tv.sync()

	res, err := tv.ix.Searcher().Search(ctx, Query{Text: "what is a 51% attack", Mode: Keyword, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, r := range res {
		found[r.Path+" > "+r.Heading] = true
		for _, s := range drawingJSON {
			if strings.Contains(r.Text, s) || strings.Contains(r.Snippet, s) {
				t.Errorf("result %s:%d holds drawing JSON %q: %q", r.Path, r.Line, s, r.Text)
			}
		}
	}
	for _, want := range []string{
		"51% Attack.md > 51% Attack",
		"51% Attack.excalidraw.md > Excalidraw Data > Text Elements",
		"Hashrate Chart.excalidraw.md > Text Elements",
	} {
		if !found[want] {
			t.Errorf("no result from %s; got %v", want, found)
		}
	}

	// Nothing of the drawings' JSON or of a comment is in any chunk.
	rows, err := tv.ix.db.QueryContext(ctx, `SELECT n.path, c.text FROM chunks c JOIN notes n ON n.id = c.note_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var p, text string
		if err := rows.Scan(&p, &text); err != nil {
			t.Fatal(err)
		}
		for _, s := range append(drawingJSON, "Hidden", "TODO", "Switch to EXCALIDRAW VIEW") {
			if strings.Contains(text, s) {
				t.Errorf("a chunk of %s holds %q: %q", p, s, text)
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"hidden inline", "hidden block", "Ethereum Classic", "versionNonce"} {
		res, err := tv.ix.Searcher().Search(ctx, Query{Text: q, Mode: Keyword, AnyWord: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if strings.Contains(strings.ToLower(r.Text), strings.ToLower(strings.Fields(q)[0])) {
				t.Errorf("search %q found %s: %q", q, r.Path, r.Text)
			}
		}
	}
}

func TestCommentsHoldNoLinksOrTags(t *testing.T) {
	ctx := context.Background()
	tv := newTestVault(t, "excalidraw", Options{NoVectors: true})
	tv.sync()
	rows, err := tv.ix.db.QueryContext(ctx, `SELECT e.raw FROM edges e JOIN notes n ON n.id = e.source_id WHERE n.path = ? ORDER BY e.seq`, "Comments.md")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var links []string
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			t.Fatal(err)
		}
		links = append(links, raw)
	}
	if got, want := strings.Join(links, ", "), "Visible Target, After Code, Unclosed Link"; got != want {
		t.Errorf("links of Comments.md: got %s, want %s", got, want)
	}
	for tag, want := range map[string]int{"shown": 1, "hiddeninline": 0, "hiddenblock": 0, "codetag": 0, "todo": 0, "security": 1} {
		notes, err := tv.ix.Searcher().List(ctx, Query{Tag: tag})
		if err != nil {
			t.Fatal(err)
		}
		if len(notes) != want {
			t.Errorf("notes tagged #%s: %v, want %d", tag, notes, want)
		}
	}
	out, err := tv.ix.Graph().Outgoing(ctx, "51% Attack.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0] != "51% Attack.excalidraw.md" {
		t.Errorf("51%% Attack.md links to %v, want only its drawing (the link in its comment is no link)", out)
	}
}
