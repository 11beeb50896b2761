package index

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
)

// TestRefreshReadsOnlyItsPaths: a Refresh in a process that holds no file
// list (a hook's) keeps a list of the paths it looked at alone, not of
// every file of the index, and the index equals a rebuild.
func TestRefreshReadsOnlyItsPaths(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	for i := range 40 {
		tv.write(fmt.Sprintf("n/note%d.md", i), fmt.Sprintf("# Note %d\n\nSee [[note%d]].\n", i, (i+1)%40))
	}
	tv.sync()
	tv.ix.Close()
	tv.ix = tv.open()
	tv.write("n/note3.md", "# Note 3\n\nNow see [[note7]] and [[new]].\n")
	tv.write("new.md", "# New\n\nBack to [[note3]].\n")
	if err := tv.ix.Refresh(context.Background(), os.DirFS(tv.dir), "n/note3.md", "new.md"); err != nil {
		t.Fatal(err)
	}
	c := tv.ix.files
	if c == nil || !c.partial {
		t.Fatalf("file list after a refresh in a new process: %+v, want a partial one", c)
	}
	var held []string
	for p := range c.files {
		held = append(held, p)
	}
	slices.Sort(held)
	if want := []string{"n/note3.md", "new.md"}; !slices.Equal(held, want) {
		t.Errorf("file list holds %q, want %q", held, want)
	}
	tv.assertFresh()
}

// TestNameForms: the lower(name) values the keyed resolver looks a key up
// by, and the keys it cannot look up so.
func TestNameForms(t *testing.T) {
	for _, tc := range []struct {
		key   string
		forms []any
		ok    bool
	}{
		{"note", []any{"note", "note.md"}, true},
		{"img.png", []any{"img.png", "img.png.md"}, true},
		{"key", []any{"key", "key.md", "\u212Aey", "\u212Aey.md"}, true},
		{"kk", []any{"kk", "kk.md", "k\u212A", "k\u212A.md", "\u212Ak", "\u212Ak.md", "\u212A\u212A", "\u212A\u212A.md"}, true},
		{"kkkk", nil, false},
		{"über", nil, false},
	} {
		forms, ok := nameForms(tc.key)
		if ok != tc.ok || !slices.Equal(forms, tc.forms) {
			t.Errorf("nameForms(%q) = %q, %v; want %q, %v", tc.key, forms, ok, tc.forms, tc.ok)
		}
	}
}
