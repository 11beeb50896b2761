package recall

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/index"
)

// NewTestIndex indexes a fixture vault ("" for none) plus extra notes (path
// -> text) into a temporary cache, for this package's tests inside and
// outside it; it returns the index and the vault's folder.
func NewTestIndex(t testing.TB, fixture string, extra map[string]string) (*index.Index, string) {
	t.Helper()
	dir := t.TempDir()
	if err := fixtures.CopyTo(dir, fixture); err != nil {
		t.Fatal(err)
	}
	for p, c := range extra {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := index.Open(context.Background(), filepath.Join(dir, ".vaultmem", "cache"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(context.Background(), os.DirFS(dir), nil); err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

// Speaker is speaker, for the table test outside the package.
var Speaker = speaker

// MaxNarrowerTerms is maxNarrowerTerms.
const MaxNarrowerTerms = maxNarrowerTerms
