package index

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures/gen"
	"github.com/vaultmem/vaultmem/text"
)

// lexiconQueries are queries over a generated vault: words of note titles
// and of chunk text (common and rare ones, one to six words), and a few
// that match nothing or only stop words.
func lexiconQueries(t *testing.T, ix *Index) []string {
	t.Helper()
	qs := []string{"the", "zzzzqx", "what is the", "Running paints painted", "café naïve", "数据库", "数"}
	cjk := 0
	rows, err := ix.db.Query(`SELECT n.title, c.text FROM chunks c JOIN notes n ON n.id = c.note_id ORDER BY c.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		var title, body string
		if err := rows.Scan(&title, &body); err != nil {
			t.Fatal(err)
		}
		if i%8 == 0 && i < 200 {
			qs = append(qs, "What is "+title+"?")
		}
		if w := strings.Fields(body); i%13 == 0 && i < 200 && len(w) > 12 {
			qs = append(qs, strings.Join(w[i%6:i%6+1+i%6], " "))
		}
		// Chinese and Japanese: a phrase of bigrams, a one-character
		// prefix, and either with English words.
		if runs := text.CJKRuns(body); len(runs) > 0 && len(runs[0]) >= 3 && cjk < 12 {
			r := runs[0]
			qs = append(qs, string(r[:3]), string(r[len(r)-2:]), string(r[:1]), "what is "+string(r[1:3])+" "+title)
			cjk++
		}
	}
	if cjk == 0 {
		t.Fatal("no Chinese or Japanese text in the generated vault")
	}
	return qs
}

// sameRanking fails unless two rankings hold the same chunks with the
// same scores (to rounding) in the same order; chunks tied at the cut-off
// score may differ.
func sameRanking(t *testing.T, q string, want, got []Result) {
	t.Helper()
	if len(want) != len(got) {
		t.Errorf("%q: %d results, want %d", q, len(got), len(want))
		return
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(a)) }
	for i := range want {
		if !close(want[i].Score, got[i].Score) {
			t.Errorf("%q #%d: score %v (%s), want %v (%s)", q, i, got[i].Score, got[i].Path, want[i].Score, want[i].Path)
			return
		}
		cut := want[len(want)-1].Score
		if want[i].Chunk != got[i].Chunk && !close(want[i].Score, cut) && !tied(want, i) {
			t.Errorf("%q #%d: %s (chunk %d), want %s (chunk %d)", q, i, got[i].Path, got[i].Chunk, want[i].Path, want[i].Chunk)
			return
		}
	}
}

// tied reports whether result i has the score of a neighbour.
func tied(rs []Result, i int) bool {
	eq := func(j int) bool {
		return j >= 0 && j < len(rs) && math.Abs(rs[j].Score-rs[i].Score) <= 1e-9*math.Abs(rs[i].Score)
	}
	return eq(i-1) || eq(i+1)
}

func keywordSearch(t *testing.T, ix *Index, q string, limit int) []Result {
	t.Helper()
	return filteredSearch(t, ix, Query{Text: q, Mode: Keyword, Limit: limit})
}

func filteredSearch(t *testing.T, ix *Index, q Query) []Result {
	t.Helper()
	rs, err := ix.Searcher().Search(context.Background(), q)
	if err != nil {
		t.Fatalf("%q: %v", q.Text, err)
	}
	return rs
}

// TestLexiconRanksAsFTS5 checks the in-memory keyword index against FTS5
// on a generated vault (English, Chinese and Japanese notes), before and
// after syncs of the resident process and of another one.
func TestLexiconRanksAsFTS5(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: 120}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cache := filepath.Join(dir, ".vaultmem", "cache")
	open := func(resident bool) *Index {
		ix, err := Open(ctx, cache, Options{NoVectors: true, Resident: resident})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix
	}
	fts, lex := open(false), open(true)
	sync := func(ix *Index) {
		if _, err := ix.Sync(ctx, os.DirFS(dir), nil); err != nil {
			t.Fatal(err)
		}
	}
	var somePaths []string
	// compare runs every query after the first sync, and a third of them
	// (the race detector makes each slow) after the later ones.
	first := true
	compare := func(stage string) {
		t.Helper()
		qs := lexiconQueries(t, fts)
		notes, err := fts.Searcher().List(ctx, Query{})
		if err != nil {
			t.Fatal(err)
		}
		somePaths = somePaths[:0]
		for i, n := range notes {
			if i%40 == 0 {
				somePaths = append(somePaths, n.Path)
			}
		}
		for i, q := range qs {
			if !first && i%3 != 0 {
				continue
			}
			for _, limit := range []int{5, 60} {
				sameRanking(t, stage+": "+q, keywordSearch(t, fts, q, limit), keywordSearch(t, lex, q, limit))
				// Filtered to a few notes, as recall's graph and temporal
				// engines restrict a search: their chunks may rank far
				// below the limit in the whole vault.
				fq := Query{Text: q, Mode: Keyword, Limit: limit, Paths: somePaths}
				sameRanking(t, stage+" (filtered): "+q, filteredSearch(t, fts, fq), filteredSearch(t, lex, fq))
			}
		}
		if lex.lex == nil {
			t.Fatalf("%s: the resident index keeps no lexicon", stage)
		}
		first = false
	}
	sync(lex)
	compare("first sync")

	// A sync catches the lexicon up in place: the changed notes only.
	before := lex.lex
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.md"))
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(files[0], "# Rewritten\n\nAn entirely new paragraph about zebras painting murals.\n")
	if err := os.Remove(files[1]); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, "New note.md"), "---\naliases: [Fresh]\ntags: [wildlife]\n---\n# Zebras\n\nZebras paint stripes.\n")
	sync(lex)
	compare("after own sync")
	if lex.lex != before {
		t.Error("own sync loaded the lexicon anew instead of catching up")
	}
	if got := keywordSearch(t, lex, "zebras", 10); len(got) != 2 {
		t.Errorf("zebras: %d results, want the rewritten and the new note", len(got))
	}

	// Another process's sync: caught up the same way.
	write(filepath.Join(dir, "Other.md"), "# Other\n\nGiraffes paint too.\n")
	sync(fts)
	compare("after another process's sync")
	if got := keywordSearch(t, lex, "giraffes", 10); len(got) != 1 {
		t.Errorf("giraffes: %d results, want 1", len(got))
	}
	if lex.lex != before {
		t.Error("another process's sync loaded the lexicon anew instead of catching up")
	}

	// Most notes rewritten: loaded anew.
	for _, f := range files[2:] {
		write(f, "# Same\n\nEvery note says the same thing about okapis.\n")
	}
	sync(fts)
	compare("after most notes changed")
	if lex.lex == before {
		t.Error("after most notes changed, the lexicon caught up note by note instead of loading anew")
	}
}

// TestLexiconUnderConcurrentSyncs searches a resident index from several
// goroutines while another handle keeps syncing new notes: every search
// must succeed, and once the syncs stop every note is found.
func TestLexiconUnderConcurrentSyncs(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: 40}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cache := filepath.Join(dir, ".vaultmem", "cache")
	writer, err := Open(ctx, cache, Options{NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	resident, err := Open(ctx, cache, Options{NoVectors: true, Resident: true})
	if err != nil {
		t.Fatal(err)
	}
	defer resident.Close()
	const notes = 12
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(done)
		for i := range notes {
			p := filepath.Join(dir, fmt.Sprintf("added %d.md", i))
			if err := os.WriteFile(p, []byte(fmt.Sprintf("# Added\n\nokapi%d lives here.\n", i)), 0o644); err != nil {
				errs <- err
				return
			}
			if _, err := writer.Sync(ctx, os.DirFS(dir), nil); err != nil {
				errs <- err
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if _, err := resident.Searcher().Search(ctx, Query{Text: fmt.Sprintf("okapi%d", (g+i)%notes), Mode: Keyword}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	for i := range notes {
		if got := keywordSearch(t, resident, fmt.Sprintf("okapi%d", i), 5); len(got) != 1 {
			t.Errorf("okapi%d: %d results after the syncs, want 1", i, len(got))
		}
	}
}

// FuzzCJKText checks that the cjk column of a chunk, made from its note's
// fields and its text apart, is what it would be of them joined by
// spaces.
func FuzzCJKText(f *testing.F) {
	f.Add("数据", "库 db", "がっこう")
	f.Add("", "plain", "한국어 text")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		if got, want := cjkText(a, b, c), cjkText(a+" "+b+" "+c); got != want {
			t.Errorf("cjkText(%q, %q, %q) = %q, want %q", a, b, c, got, want)
		}
	})
}

// TestFrequencies counts the chunks holding words as keyword search
// analyzes them, the same through FTS5 and the lexicon, up to a bound.
func TestFrequencies(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.md": "# A\n\nThe boutique opened.\n",
		"b.md": "# B\n\nTwo boutiques, one bakery.\n",
		"c.md": "# C\n\nA bakery that bakes. 书店在这里。\n",
	}
	for i := range 120 { // enough chunks for the bound to matter
		files[fmt.Sprintf("n%03d.md", i)] = fmt.Sprintf("# N%d\n\nThe bakery's day %d.\n", i, i)
	}
	for p, body := range files {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	cache := filepath.Join(dir, ".vaultmem", "cache")
	for _, resident := range []bool{false, true} {
		ix, err := Open(ctx, cache, Options{NoVectors: true, Resident: resident})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		if _, err := ix.Sync(ctx, os.DirFS(dir), nil); err != nil {
			t.Fatal(err)
		}
		words := []string{"boutique", "Boutiques", "bakery", "bakes", "absent", "书店", "two words", `quo"te`, ""}
		got, err := ix.Searcher().Frequencies(ctx, words, 50)
		if err != nil {
			t.Fatal(err)
		}
		want := []int{2, 2, 50, 1, 0, 0, 0, 0, 0} // "bakery": 122 chunks, counted up to 50
		if !slices.Equal(got, want) {
			t.Errorf("resident %v: Frequencies(%q) = %v, want %v", resident, words, got, want)
		}
	}
}
