package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// pull is what one git pull does to a vault in BenchmarkSyncAfterPull:
// rewrites teammates' edits of existing notes, adds their new notes and
// deletes the notes they removed; 500 notes in all.
const (
	pullRewrites = 400
	pullAdds     = 50
	pullDeletes  = 50
)

// BenchmarkSyncAfterPull is issue 38's "first sync after a pull of 500
// changed notes on a 13k-note vault": a generated 13,000-note vault indexed
// cold (vectors on, as `vaultmem index` does), then, each round, 500 notes
// changed as a pull changes them (400 rewritten, 50 added, 50 deleted,
// every one with a fresh modification time) and the incremental sync timed.
// The vault is its own copy in a temporary folder: the cached benchmark
// vaults are never changed.
func BenchmarkSyncAfterPull(b *testing.B) {
	const notes = 13000
	dir := b.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: notes}); err != nil {
		b.Fatal(err)
	}
	var paths []string
	past := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if filepath.Ext(p) == ".md" {
			paths = append(paths, p)
		}
		return os.Chtimes(p, past, past) // no file racily clean
	})
	if err != nil {
		b.Fatal(err)
	}
	sort.Strings(paths)
	cache := b.TempDir()
	coldIndex(b, dir, cache, Options{})
	ctx := context.Background()
	ix, err := Open(ctx, cache, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	fsys := os.DirFS(dir)
	// Deleted notes come from the end of the list, rewritten ones from the
	// start, so that no round rewrites a note an earlier one deleted.
	deleted, round := 0, 0
	var st Stats
	for b.Loop() {
		b.StopTimer()
		if deleted+pullDeletes+pullRewrites > len(paths) {
			b.Fatalf("round %d: the vault has too few notes left to delete", round)
		}
		for k := range pullRewrites {
			p := paths[(round*pullRewrites+k)%(len(paths)-deleted-pullDeletes)]
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				_, err = fmt.Fprintf(f, "\n\nA teammate's edit %d-%d: the pulled paragraph about qz%dpull and its build.\n", round, k, round)
				err = errors.Join(err, f.Close())
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		for k := range pullAdds {
			p := filepath.Join(dir, "pulled", fmt.Sprintf("round %d note %d.md", round, k))
			os.MkdirAll(filepath.Dir(p), 0o755)
			body := fmt.Sprintf("---\ntype: project\nname: pulled %d %d\n---\n\nA teammate's new note about qz%dpull, linking [[%s]].\n",
				round, k, round, filepath.Base(paths[k]))
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		for range pullDeletes {
			deleted++
			if err := os.Remove(paths[len(paths)-deleted]); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		st, err = ix.Sync(ctx, fsys, nil)
		if err != nil {
			b.Fatal(err)
		}
		if st.Parsed < pullRewrites+pullAdds || st.Removed < pullDeletes {
			b.Fatalf("round %d: the sync after a pull read %d notes and removed %d, want at least %d and %d",
				round, st.Parsed, st.Removed, pullRewrites+pullAdds, pullDeletes)
		}
		round++
	}
	b.ReportMetric(float64(st.Parsed), "parsed")
	b.ReportMetric(float64(st.Removed), "removed")
	b.ReportMetric(float64(st.Embedded), "embedded")
}
