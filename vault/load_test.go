package vault_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/vault"
)

func TestLoadSkipsDotFolders(t *testing.T) {
	v, err := vault.Load(context.Background(), fixtures.Vault("dot-folders"), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Notes) != 1 || v.Notes[0].Path != "notes/Visible.md" {
		var ps []string
		for _, n := range v.Notes {
			ps = append(ps, n.Path)
		}
		t.Errorf("notes %v, want only notes/Visible.md", ps)
	}
	if len(v.Attachments) != 0 {
		t.Errorf("attachments %v", v.Attachments)
	}
}

func TestLoadHostileFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.md", []byte("[[big]] [[loop/x]]"))
	write("binary.md", []byte("\x00\x01\x02\x03"))
	write("big.md", []byte(strings.Repeat("word [[ok]] ", 50<<20/12))) // 50 MB
	write("image.png", []byte("\x89PNG"))
	// A symlink loop, a link to a folder and a link escaping the vault.
	for _, l := range []struct{ target, name string }{
		{"a.md", "b.md"}, {"b.md", "a.md"}, {".", "loop"}, {"/etc/hostname", "escape.md"},
	} {
		if err := os.Symlink(l.target, filepath.Join(dir, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	v, err := vault.Load(context.Background(), root.FS(), vault.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Notes) != 1 || v.Notes[0].Path != "ok.md" {
		t.Errorf("notes: %d", len(v.Notes))
	}
	reasons := map[string]string{}
	for _, err := range v.Skipped {
		var pe *vault.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("skipped error %v is not a *ParseError", err)
		}
		reasons[pe.Path] = pe.Err.Error()
	}
	for p, want := range map[string]string{
		"binary.md": "binary file",
		"big.md":    "over the 10.0 MiB note size limit",
		"a.md":      "symbolic link",
		"b.md":      "symbolic link",
		"loop":      "symbolic link to a folder",
		"escape.md": "symbolic link",
	} {
		if !strings.Contains(reasons[p], want) {
			t.Errorf("%s skipped for %q, want %q", p, reasons[p], want)
		}
	}
	// Unparsed markdown files stay link targets.
	if want := []string{"big.md", "binary.md", "image.png"}; strings.Join(v.Attachments, ",") != strings.Join(want, ",") {
		t.Errorf("attachments %v, want %v", v.Attachments, want)
	}
}

func TestLoadCanceled(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := 0; i < 100; i++ {
		fsys[filepath.ToSlash(filepath.Join("n", string(rune('a'+i%26))+strings.Repeat("x", i)+".md"))] = &fstest.MapFile{Data: []byte("x")}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := vault.Load(ctx, fsys, vault.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestReadNoteNotFound(t *testing.T) {
	_, err := vault.ReadNote(fstest.MapFS{}, "nope.md", 0)
	if !errors.Is(err, vault.ErrNotFound) || !strings.Contains(err.Error(), "nope.md") {
		t.Errorf("err %v", err)
	}
}
