package markdown_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// realVault is the dendron-site vault (1,013 files) of the folder of real
// vaults RealVaultsEnv names; without it the benchmark skips.
func realVault(b *testing.B) fs.FS {
	b.Helper()
	dir := filepath.Join(os.Getenv(markdown.RealVaultsEnv), "dendron-site")
	if _, err := os.Stat(dir); os.Getenv(markdown.RealVaultsEnv) == "" || err != nil {
		b.Skipf("no real vault (set %s to a folder holding dendron-site): %v", markdown.RealVaultsEnv, err)
	}
	return os.DirFS(dir)
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
