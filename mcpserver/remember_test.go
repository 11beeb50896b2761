package mcpserver_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRememberRefusesAnEmptyBody: a memory with no body, or one of blanks
// alone, is refused as the CLI refuses it, and no note is written.
func TestRememberRefusesAnEmptyBody(t *testing.T) {
	cs, _, dir := serve(t, nil, nil)
	for _, body := range []string{"", " \n\t"} {
		msg := mustFail(t, cs, "remember", map[string]any{"type": "user", "name": "Empty", "description": "nothing said", "body": body})
		if want := "invalid memory: body must not be empty"; msg != want {
			t.Errorf("remember with body %q: %q, want %q", body, msg, want)
		}
	}
	if entries, err := os.ReadDir(filepath.Join(dir, "memory")); err == nil && len(entries) > 0 {
		t.Errorf("memory/ holds %v, want no note", entries)
	}
}
