package obsidian

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteKeepsWhatIsNoFile: a folder or a symbolic link where a base
// goes is a person's, kept and said so; the other bases are written and
// recorded all the same, so that later runs keep them current.
func TestWriteKeepsWhatIsNoFile(t *testing.T) {
	tv := newTestVault(t)
	files := []File{{"Memories.base", []byte("views: v1\n")}, {"Tasks.base", []byte("views: t1\n")}, {"Lessons.base", []byte("views: l1\n")}}
	if err := os.MkdirAll(filepath.Join(tv.dir, "views", "Tasks.base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("elsewhere.base", filepath.Join(tv.dir, "views", "Lessons.base")); err != nil {
		t.Fatal(err)
	}
	got, err := Write(tv.ctx, tv.w, "views", files)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, w := range got {
		status[w.Path] = w.Status
		if w.Status == Kept && !strings.Contains(w.Reason, "not a file vaultmem writes") {
			t.Errorf("%s kept for %q", w.Path, w.Reason)
		}
	}
	if status["views/Memories.base"] != Created || status["views/Tasks.base"] != Kept || status["views/Lessons.base"] != Kept {
		t.Fatalf("first run: %+v", got)
	}
	// The person moves the folder away; vaultmem's own base is still its.
	if err := os.Remove(filepath.Join(tv.dir, "views", "Tasks.base")); err != nil {
		t.Fatal(err)
	}
	files[0].Content = []byte("views: v2\n")
	got, err = Write(tv.ctx, tv.w, "views", files)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Status != Updated || got[1].Status != Created {
		t.Errorf("second run: %+v, want Memories.base updated and Tasks.base created", got)
	}
	if b, _ := os.ReadFile(filepath.Join(tv.dir, "views", "Memories.base")); string(b) != "views: v2\n" {
		t.Errorf("Memories.base holds %q", b)
	}
}
