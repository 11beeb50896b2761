package vault_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// TestWriterMove: a move renames the note, creating the folders of the
// new path, under the Writer's rules: the note must be as it was read,
// the new path a valid new note that does not exist, not even in
// another case.
func TestWriterMove(t *testing.T) {
	for _, tc := range []struct {
		name     string
		setup    map[string]string // files to write first
		from, to string
		hash     string // "" for the note's own
		want     error  // nil: moved
	}{
		{"into a new folder", nil, "a.md", "x/y/b.md", "", nil},
		{"any hash", nil, "a.md", "b.md", vault.AnyHash, nil},
		{"no hash", nil, "a.md", "b.md", "-", nil},
		{"stale hash", nil, "a.md", "b.md", "0000", vault.ErrConflict},
		{"to an existing note", map[string]string{"b.md": "b\n"}, "a.md", "b.md", "", vault.ErrExists},
		{"to a name differing in case", map[string]string{"B.md": "b\n"}, "a.md", "b.md", "", vault.ErrExists},
		{"to an invalid name", nil, "a.md", "b?.md", "", vault.ErrInvalidPath},
		{"from a missing note", nil, "c.md", "b.md", vault.AnyHash, vault.ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, w := newVault(t)
			writeFile(t, filepath.Join(dir, "a.md"), "a\n")
			for name, content := range tc.setup {
				writeFile(t, filepath.Join(dir, name), content)
			}
			hash := tc.hash
			switch hash {
			case "":
				hash = markdown.Hash([]byte("a\n"))
			case "-":
				hash = ""
			}
			err := w.Move(context.Background(), tc.from, tc.to, hash)
			switch {
			case tc.hash == "-":
				if err == nil {
					t.Fatal("Move with no expected hash: no error")
				}
				return
			case tc.want == nil && err != nil:
				t.Fatal(err)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("Move: %v, want %v", err, tc.want)
			case tc.want != nil:
				if _, err := os.Stat(filepath.Join(dir, "a.md")); err != nil && tc.from == "a.md" {
					t.Errorf("a.md gone after a refused move: %v", err)
				}
				return
			}
			if got := readFile(t, filepath.Join(dir, filepath.FromSlash(tc.to))); got != "a\n" {
				t.Errorf("%s holds %q", tc.to, got)
			}
			if _, err := os.Stat(filepath.Join(dir, "a.md")); !os.IsNotExist(err) {
				t.Errorf("a.md still there: %v", err)
			}
		})
	}
}

// refusing is an Obsidian that makes no change and says so, recording
// what it was asked.
type refusing struct{ asked []string }

func (r *refusing) Create(_ context.Context, p string, _ []byte) error {
	r.asked = append(r.asked, "create "+p)
	return errors.New("refused")
}

func (r *refusing) Append(_ context.Context, p string, _ []byte) error {
	r.asked = append(r.asked, "append "+p)
	return errors.New("refused")
}

func (r *refusing) SetProperty(_ context.Context, p, name string, _ any) error {
	r.asked = append(r.asked, "property "+p+" "+name)
	return errors.New("refused")
}

func (r *refusing) Move(_ context.Context, from, to string) error {
	r.asked = append(r.asked, "move "+from+" "+to)
	return errors.New("refused")
}

// TestWriterObsidianAsks: the Writer asks Obsidian only for the changes
// it can make to notes (not a rewrite, not two keys, not vaultmem's own
// state or views), and when Obsidian leaves the note as it was, writes it
// itself.
func TestWriterObsidianAsks(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "vault")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	o := &refusing{}
	w, err := openWriter(t, dir, vault.WriterOptions{Obsidian: o})
	if err != nil {
		t.Fatal(err)
	}
	h, err := w.Write(ctx, "n.md", []byte("a\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if h, err = w.Write(ctx, "n.md", []byte("a\nb\n"), h); err != nil { // an append
		t.Fatal(err)
	}
	if h, err = w.Update(ctx, "n.md", func(b []byte) ([]byte, error) { return append(b, "c\n"...), nil }); err != nil { // an append
		t.Fatal(err)
	}
	if h, err = w.Write(ctx, "n.md", []byte("c\n"), h); err != nil { // a rewrite
		t.Fatal(err)
	}
	if _, err = w.Apply(ctx, "n.md", vault.Edit{Frontmatter: map[string]any{"k": "v"}, ExpectedHash: h}); err != nil {
		t.Fatal(err)
	}
	res, err := w.Apply(ctx, "n.md", vault.Edit{Frontmatter: map[string]any{"k": "w", "j": 1.0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Move(ctx, "n.md", "m.md", res.Hash); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteState(ctx, "s.yaml", []byte("x: 1\n"), ""); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteView(ctx, "v.base", []byte("views: []\n"), ""); err != nil {
		t.Fatal(err)
	}
	want := []string{"create n.md", "append n.md", "append n.md", "property n.md k", "move n.md m.md"}
	if len(o.asked) != len(want) {
		t.Fatalf("asked %q, want %q", o.asked, want)
	}
	for i := range want {
		if o.asked[i] != want[i] {
			t.Fatalf("asked %q, want %q", o.asked, want)
		}
	}
	if got := readFile(t, filepath.Join(dir, "m.md")); got != "---\nk: w\nj: 1\n---\nc\n" {
		t.Errorf("m.md holds %q", got)
	}
}
