package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestFilesListsAsIOFSWalks: the vault's own file system is listed (on
// Linux by getdents and fstatat, several folders at once) exactly as a
// walk through io/fs lists it: the same files in the same order, with
// the same sizes and times, hidden files and editors' temporary files
// left out, symbolic links listed and not followed, on a tree of odd
// names, case clashes, nesting 300 folders deep and many folders.
func TestFilesListsAsIOFSWalks(t *testing.T) {
	dir := t.TempDir()
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"a.md", "B.md", "b.md", "100% done?.md", "note #1.md", "emoji 🚀.md", "space name.md",
		"Ünïcode/ñ.md", "drawing.excalidraw.md", "image.png", ".hidden.md", ".obsidian/app.json", "x.md~", "x.md.swp",
		"#autosave#", "4913", "deep/a/b/c/d/e/f/g/h/i/j/n.md", "deep/a/z.md", ".git/objects/ab/cd"} {
		write(p, "content of "+p)
	}
	write(strings.Repeat("n/", 300)+"bottom.md", "pathological nesting") // 300 folders deep
	for i := range 40 {
		for j := range 5 {
			write(fmt.Sprintf("folder %02d/note %d.md", i, j), fmt.Sprint(i*j))
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		for link, target := range map[string]string{"link.md": "a.md", "dirlink": "deep", "loop": "loop", "escape.md": "/etc/hostname", "dangling.md": "gone.md"} {
			if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
				t.Fatal(err)
			}
		}
	}
	v, err := Open(dir, Folders{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ctx := context.Background()
	got, err := Files(ctx, v.FS())
	if err != nil {
		t.Fatal(err)
	}
	want, err := walkFiles(ctx, v.root.FS())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range max(len(got), len(want)) {
			var g, w File
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Errorf("file %d: %+v, io/fs gives %+v", i, g, w)
			}
		}
	}
	wantN := 213 // 10 at the top, 3 deep, 200 in folders
	if runtime.GOOS != "windows" {
		wantN += 5 // the links
	}
	if len(got) != wantN {
		var paths []string
		for _, f := range got {
			paths = append(paths, f.Path)
		}
		t.Errorf("%d files listed: %q", len(got), paths)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Files(cancelled, v.FS()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}
