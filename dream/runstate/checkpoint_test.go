package runstate

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

// checkpointIn is the Writer of a vault in a new folder whose checkpoint
// is content.
func checkpointIn(t *testing.T, content []byte) *vault.Writer {
	t.Helper()
	dir := t.TempDir()
	full := filepath.Join(dir, vault.StateDir, CheckpointFile)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, content, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return vault.NewWriter(v, vault.WriterOptions{})
}

// TestMergeCheckpoint: the merge keeps the memories both sides list with
// the same hash and the later run time, is read back as a checkpoint, and names the file, the side and the line of a version that
// does not parse.
func TestMergeCheckpoint(t *testing.T) {
	file := path.Join(vault.StateDir, CheckpointFile)
	cp := func(run string, kv ...string) string {
		s := checkpointHeader + "last_run: " + run + "\nmemories:"
		if len(kv) == 0 {
			return s + " {}\n"
		}
		s += "\n"
		for i := 0; i+1 < len(kv); i += 2 {
			s += "  " + kv[i] + ": " + kv[i+1] + "\n"
		}
		return s
	}
	for _, tt := range []struct {
		name         string
		ours, theirs string
		wantRun      string
		want         map[string]string
		err          string
	}{
		{name: "agreeing entries stay, the others go",
			ours:    cp("2026-03-01T09:00:00Z", "memory/a.md", "aaaa", "memory/b.md", "bbbb", "memory/c.md", "cccc"),
			theirs:  cp("2026-03-02T09:00:00Z", "memory/a.md", "aaaa", "memory/b.md", "b2b2", "memory/d.md", "dddd"),
			wantRun: "2026-03-02T09:00:00Z", want: map[string]string{"memory/a.md": "aaaa"}},
		{name: "ours ran later",
			ours:    cp("2026-03-03T09:00:00Z", "memory/a.md", "aaaa"),
			theirs:  cp("2026-03-02T09:00:00Z", "memory/b.md", "bbbb"),
			wantRun: "2026-03-03T09:00:00Z", want: map[string]string{}},
		{name: "a run time that is no time",
			ours:    cp("yesterday", "memory/a.md", "aaaa"),
			theirs:  cp("2026-03-02T09:00:00Z", "memory/a.md", "aaaa"),
			wantRun: "2026-03-02T09:00:00Z", want: map[string]string{"memory/a.md": "aaaa"}},
		{name: "ours does not parse",
			ours:   checkpointHeader + "last_run: 2026-03-02T09:00:00Z\nmemories:\n  memory/a.md: aaaa\n<<<<<<< ours\n  memory/b.md: bbbb\n",
			theirs: cp("2026-03-02T09:00:00Z"),
			err:    file + " (ours):6: does not parse: "},
		{name: "theirs has no memories",
			ours:   cp("2026-03-02T09:00:00Z"),
			theirs: checkpointHeader + "last_run: 2026-03-02T09:00:00Z\n",
			err:    file + " (theirs): does not parse: no memories key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := MergeCheckpoint(file, []byte(tt.ours), []byte(tt.theirs))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("got error %v, want one holding %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _, problem, err := ReadCheckpoint(checkpointIn(t, out))
			if err != nil || problem != nil {
				t.Fatalf("reading the merge back: %v, %v:\n%s", err, problem, out)
			}
			if got.LastRun != tt.wantRun || !maps.Equal(got.Memories, tt.want) {
				t.Errorf("got %s %v, want %s %v", got.LastRun, got.Memories, tt.wantRun, tt.want)
			}
			if !strings.HasPrefix(string(out), checkpointHeader) {
				t.Errorf("no header:\n%s", out)
			}
		})
	}
}
