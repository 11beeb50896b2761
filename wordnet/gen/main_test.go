package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun makes the table of a small WordNet: senses in order, hyponyms
// and instances down the levels asked, hubs left out, plurals of
// noun.exc given their singular's line.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"data.noun": `  1 This software and database is being provided to you, the LICENSEE, by
00000001 03 n 01 art 0 002 ~ 00000002 n 0000 ~ 00000003 n 0000 | creations
00000002 03 n 01 painting 0 001 ~ 00000004 n 0000 | a picture
00000003 03 n 02 drawing 0 sketch 0 000 | lines on paper
00000004 03 n 01 fresco 0 002 ~ 00000005 n 0000 ~i 00000009 n 0000 | painting on plaster
00000005 03 n 01 mural 0 000 | on a wall
00000006 03 n 01 art 1 001 ~ 00000007 n 0000 | a skill
00000007 03 n 01 craft 0 000 | a skill of the hands
00000008 03 n 01 art 2 001 ~ 00000010 n 0000 | a third sense
00000009 03 n 01 Sistine_Chapel 0 000 | a fresco
00000010 03 n 01 trick 0 000 | cunning
00000011 03 n 04 thing 0 art 3 painting 1 fresco 1 003 ~ 00000001 n 0000 ~ 00000006 n 0000 ~ 00000008 n 0000 | a hub
`,
		"index.noun": `  1 This software and database is being provided to you, the LICENSEE, by
art n 3 1 ~ 3 0 00000001 00000006 00000008
painting n 1 1 ~ 1 0 00000002
drawing n 1 0 1 0 00000003
fresco n 1 1 ~ 1 0 00000004
thing n 1 1 ~ 1 0 00000011
`,
		"noun.exc": "frescoes fresco\nthings thing\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "narrower.tsv")
	if err := run(dir, out, 2, 2, 6); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// art: its first two senses (not "trick", the third), their hyponyms
	// two levels down (fresco, not mural); "sistine_chapel" is no one word
	// of letters; a synonym is a narrower term too (drawing: sketch).
	// thing: more than 6, a hub, known as a noun with none.
	want := strings.Join([]string{
		"art\tcraft drawing fresco painting sketch",
		"drawing\tsketch",
		"fresco\tmural",
		"frescoes\tmural",
		"painting\tfresco mural",
		"thing\t",
		"things\t",
	}, "\n") + "\n"
	if string(got) != want {
		t.Errorf("table:\n%s\nwant:\n%s", got, want)
	}
	if err := run(dir, out, 2, 2, 60); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(out); !strings.Contains(string(got), "thing\tart ") {
		t.Errorf("with a hub of 60, thing has no line:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, "index.noun"), []byte("art n 2 1 ~ 2 0 00000001 00000099\n"), 0o644)
	if err := run(dir, out, 2, 2, 6); err == nil || !strings.Contains(err.Error(), "00000099") {
		t.Errorf("a synset data.noun lacks: %v", err)
	}
}
