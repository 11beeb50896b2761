package vault_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

func TestWriteCacheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "model.bin")
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := vault.WriteCacheFile(p, write("first")); err != nil {
		t.Fatal(err)
	}
	if err := vault.WriteCacheFile(p, write("second")); err != nil {
		t.Fatal(err)
	}
	// A write that fails half way leaves the old file and no temp file.
	boom := errors.New("boom")
	err := vault.WriteCacheFile(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("failed write returned %v, want boom", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "second" {
		t.Errorf("file holds %q, want the last whole write", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left in the folder: %v", entries)
	}
	if err := vault.WriteCacheFile(filepath.Join(dir, "missing", "x"), write("x")); err == nil {
		t.Error("write into a missing folder succeeded")
	}
}
