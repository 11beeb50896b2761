package lesson_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/lesson/outcomelog"
	"github.com/vaultmem/vaultmem/vault"
)

// cachedStore is a Store over f's vault and index that keeps the outcome
// log's counts in the vault's cache folder, as the app's does.
func cachedStore(t *testing.T, f *fixture) *lesson.Store {
	t.Helper()
	s, err := lesson.NewStore(vault.NewWriter(f.v, vault.WriterOptions{}), f.ix.Stores(),
		lesson.Options{FS: f.v.FS(), Now: f.clock, CacheDir: f.v.Abs(vault.CacheDir)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// outcomeLine is one outcome record of the log, of lesson l.
func outcomeLine(l, outcome string) string {
	return `{"time":"2026-11-01T10:00:00Z","lesson":"` + l + `","outcome":"` + outcome + `"}` + "\n"
}

// TestReviewCachedLogCounts: with a cache folder, Review gives what it
// gives reading the whole log, after each change to the log (a file
// appended to, a new person's file, an older vault's single file, a file
// removed, a line that is no record), and keeps the counts in the cache
// folder.
func TestReviewCachedLogCounts(t *testing.T) {
	f := newFixture(t)
	for _, l := range []string{"a", "b", "c"} {
		f.write("lessons/"+l+".md", "---\ntype: lesson\ntrigger: deploy "+l+"\naction_bias: check "+l+"\nstrength: 0.5\n---\n")
	}
	f.sync()
	cached := cachedStore(t, f)
	ann := vault.StateDir + "/" + lesson.LogName("ann@example.com", f.now)
	bob := vault.StateDir + "/" + lesson.LogName("bob@example.com", f.now)
	old := vault.StateDir + "/" + lesson.LogFile
	appendLog := func(p string, lines ...string) {
		full := filepath.Join(f.dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		fh, err := os.OpenFile(full, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		fh.WriteString(strings.Join(lines, ""))
		if err := fh.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		name    string
		do      func()
		weak    string // the lessons called weak, by path, in Review's order
		wantErr string
	}{
		{"no log", func() {}, "", ""},
		{"two failures are not enough", func() {
			appendLog(ann, outcomeLine("lessons/a.md", "failure"), outcomeLine("lessons/a.md", "failure"))
		}, "", ""},
		{"a third failure appended", func() { appendLog(ann, outcomeLine("lessons/a.md", "failure")) }, "lessons/a.md", ""},
		{"another person's successes", func() {
			appendLog(bob, outcomeLine("lessons/a.md", "success"), outcomeLine("lessons/a.md", "success"), outcomeLine("lessons/a.md", "success"),
				outcomeLine("lessons/b.md", "failure"), outcomeLine("lessons/b.md", "failure"), outcomeLine("lessons/b.md", "success"))
		}, "lessons/b.md", ""},
		{"an older vault's single file", func() {
			appendLog(old, outcomeLine("lessons/c.md", "failure"), outcomeLine("lessons/c.md", "failure"), outcomeLine("lessons/c.md", "failure"))
		}, "lessons/b.md,lessons/c.md", ""},
		{"a person's file removed", func() {
			if err := os.Remove(filepath.Join(f.dir, filepath.FromSlash(bob))); err != nil {
				t.Fatal(err)
			}
		}, "lessons/a.md,lessons/c.md", ""},
		{"a file rewritten, not only appended to", func() {
			f.write(ann, strings.Repeat(outcomeLine("lessons/a.md", "success"), 3)+outcomeLine("lessons/a.md", "failure"))
		}, "lessons/c.md", ""},
		{"a file appended to again", func() {
			appendLog(ann, outcomeLine("lessons/a.md", "failure"), outcomeLine("lessons/a.md", "failure"), outcomeLine("lessons/a.md", "failure"))
		}, "lessons/a.md,lessons/c.md", ""},
		{"a cache whose totals the files file does not go with", func() {
			damaged := `{"version":2,"files":{"` + strings.TrimPrefix(ann, vault.StateDir+"/") + `":{"size":1,"mod_ns":1}},"totals":{"lessons/b.md":[9,0]},"files_sha256":"x"}`
			f.write(vault.CacheDir+"/"+outcomelog.TallyFile, damaged)
		}, "lessons/a.md,lessons/c.md", ""},
		{"a cache that is no JSON", func() { f.write(vault.CacheDir+"/"+outcomelog.TallyFile, "{") }, "lessons/a.md,lessons/c.md", ""},
		{"a line that is no record", func() { appendLog(ann, "not json\n") }, "", ann + ":8: not an outcome record"},
	} {
		step.do()
		got, err := cached.Review(f.ctx, false)
		want, wantErr := f.s.Review(f.ctx, false)      // no cache: the whole log read
		again, againErr := cached.Review(f.ctx, false) // from the cache it just wrote
		if step.wantErr != "" {
			for _, e := range []error{wantErr, err, againErr} {
				if e == nil || !strings.Contains(e.Error(), step.wantErr) {
					t.Errorf("%s: error %v, want %q", step.name, e, step.wantErr)
				}
			}
			continue
		}
		if wantErr != nil || err != nil || againErr != nil {
			t.Fatalf("%s: %v, %v, %v", step.name, wantErr, err, againErr)
		}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(again, want) {
			t.Errorf("%s: cached review\n%+v\nthen\n%+v\nwant\n%+v", step.name, got, again, want)
		}
		var weak []string
		for _, r := range got {
			for _, why := range r.Reasons {
				if strings.HasPrefix(why, "weak:") {
					weak = append(weak, r.Path)
				}
			}
		}
		if strings.Join(weak, ",") != step.weak {
			t.Errorf("%s: weak %v, want %q", step.name, weak, step.weak)
		}
	}
	if _, err := os.Stat(filepath.Join(f.v.Abs(vault.CacheDir), outcomelog.TallyFile)); err != nil {
		t.Errorf("no counts in the cache folder: %v", err)
	}
}

// TestReviewCountsUnchangedFilesFromCache: a log file whose size and time
// are those the cache recorded is not read again. Shown by rewriting one
// behind the cache's back with the same size and time: its cached counts
// stand, while a Store without a cache reads the new lines.
func TestReviewCountsUnchangedFilesFromCache(t *testing.T) {
	f := newFixture(t)
	f.write("lessons/a.md", "---\ntype: lesson\ntrigger: deploy\naction_bias: check\nstrength: 0.5\n---\n")
	f.sync()
	cached := cachedStore(t, f)
	p := vault.StateDir + "/" + lesson.LogName("", f.now)
	f.write(p, strings.Repeat(outcomeLine("lessons/a.md", "failure"), 3))
	if rs, err := cached.Review(f.ctx, false); err != nil || len(rs) != 1 || !strings.HasPrefix(rs[0].Reasons[0], "weak: 0 of 3") {
		t.Fatalf("first review: %+v, %v", rs, err)
	}
	full := filepath.Join(f.dir, filepath.FromSlash(p))
	info, err := os.Stat(full)
	if err != nil {
		t.Fatal(err)
	}
	// "success" is the same length as "failure": the same size.
	f.write(p, strings.Repeat(outcomeLine("lessons/a.md", "success"), 3))
	if err := os.Chtimes(full, time.Time{}, info.ModTime()); err != nil {
		t.Fatal(err)
	}
	if rs, err := cached.Review(f.ctx, false); err != nil || len(rs) != 1 || !strings.HasPrefix(rs[0].Reasons[0], "weak: 0 of 3") {
		t.Errorf("an unchanged file was read again: %+v, %v", rs, err)
	}
	if rs, err := f.s.Review(f.ctx, false); err != nil || len(rs) != 0 {
		t.Errorf("without a cache: %+v, %v", rs, err)
	}
	// A new time makes the file read again.
	if err := os.Chtimes(full, time.Time{}, info.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if rs, err := cached.Review(f.ctx, false); err != nil || len(rs) != 0 {
		t.Errorf("a changed file's counts: %+v, %v", rs, err)
	}
	// So does a new size at the same time (a file system whose times are
	// coarser than two appends).
	f.write(p, strings.Repeat(outcomeLine("lessons/a.md", "success"), 3)+strings.Repeat(outcomeLine("lessons/a.md", "failure"), 4))
	if err := os.Chtimes(full, time.Time{}, info.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if rs, err := cached.Review(f.ctx, false); err != nil || len(rs) != 1 || !strings.HasPrefix(rs[0].Reasons[0], "weak: 3 of 7") {
		t.Errorf("a grown file's counts: %+v, %v", rs, err)
	}
}
