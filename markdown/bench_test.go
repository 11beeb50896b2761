package markdown_test

import (
	"io/fs"
	"os"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// dendronVault is the 1,012-note vault of ../shared/data (absent from a
// user's clone: benchmarks that need it skip).
const dendronVault = "../../shared/data/vaults/dendron-site"

func realVault(b *testing.B) fs.FS {
	b.Helper()
	if _, err := os.Stat(dendronVault); err != nil {
		b.Skipf("real vault not present: %v", err)
	}
	return os.DirFS(dendronVault)
}

// BenchmarkParse measures parse throughput (MB/s) over the notes of a real
// 1,000-note vault, read into memory first.
func BenchmarkParse(b *testing.B) {
	fsys := realVault(b)
	var files [][]byte
	var total int64
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && markdown.IsNotePath(p) {
			data, _ := fs.ReadFile(fsys, p)
			files = append(files, data)
			total += int64(len(data))
		}
		return nil
	})
	b.SetBytes(total)
	b.ResetTimer()
	for b.Loop() {
		for _, f := range files {
			markdown.Parse("n.md", f)
		}
	}
}
