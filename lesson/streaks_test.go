package lesson_test

import (
	"fmt"
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

// TestFailingCachedStreaks: with a cache folder, Failing gives what it
// gives reading the whole log, after each change to the log (a file
// appended to, another person's file whose records interleave in time, an
// older vault's single file, a file removed or rewritten, a line that is
// no record), and keeps its summaries in the cache folder.
func TestFailingCachedStreaks(t *testing.T) {
	f := newFixture(t)
	for _, l := range []string{"a", "b", "c"} {
		f.write("lessons/"+l+".md", "---\ntype: lesson\ntrigger: deploy "+l+"\naction_bias: check "+l+"\nstrength: 0.5\n---\n")
	}
	f.sync()
	cached := cachedStore(t, f)
	ann := vault.StateDir + "/" + lesson.LogName("ann@example.com", f.now)
	bob := vault.StateDir + "/" + lesson.LogName("bob@example.com", f.now)
	old := vault.StateDir + "/" + lesson.LogFile
	minute := 0
	// rec is a record of lesson l at the next minute.
	rec := func(l, outcome string) string {
		minute++
		at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(minute) * time.Minute)
		return fmt.Sprintf(`{"time":%q,"lesson":"lessons/%s.md","outcome":%q,"strength_after":0.%d}`+"\n", at.Format(time.RFC3339), l, outcome, (minute%10+10)%10)
	}
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
		failing string // the lessons failing 3 times in a row, with how many, in Failing's order
		wantErr string
	}{
		{"no log", func() {}, "", ""},
		{"two failures are not three", func() { appendLog(ann, rec("a", "failure"), rec("a", "failure")) }, "", ""},
		{"a third appended", func() { appendLog(ann, rec("a", "failure")) }, "a:3", ""},
		{"another person's success after them, and failures of b", func() {
			appendLog(bob, rec("a", "success"), rec("b", "failure"), rec("b", "failure"), rec("b", "failure"), rec("b", "failure"))
		}, "b:4", ""},
		{"ann fails a again after bob's success", func() {
			appendLog(ann, rec("a", "failure"), rec("a", "failure"), rec("a", "failure"))
		}, "b:4,a:3", ""},
		{"an older vault's single file", func() {
			appendLog(old, rec("c", "failure"), rec("c", "failure"), rec("c", "failure"))
		}, "b:4,a:3,c:3", ""},
		{"bob's file removed: a's success with it", func() {
			if err := os.Remove(filepath.Join(f.dir, filepath.FromSlash(bob))); err != nil {
				t.Fatal(err)
			}
		}, "a:6,c:3", ""},
		{"ann's file rewritten, not only appended to", func() {
			f.write(ann, rec("a", "failure")+rec("a", "success"))
		}, "c:3", ""},
		{"a file appended to out of time order", func() {
			minute -= 100 // a record older than those in the file: a's latest is still the success
			appendLog(ann, rec("a", "failure"), rec("a", "failure"), rec("a", "failure"))
			minute += 100
		}, "c:3", ""},
		{"a cache that is no JSON", func() { f.write(vault.CacheDir+"/"+outcomelog.StreaksFile, "{") }, "c:3", ""},
		{"a line that is no record", func() { appendLog(ann, "not json\n") }, "", ann + ":6: not an outcome record"},
	} {
		step.do()
		got, err := cached.Failing(f.ctx, 3)
		want, wantErr := f.s.Failing(f.ctx, 3)      // no cache: the whole log read
		again, againErr := cached.Failing(f.ctx, 3) // from the cache it just wrote
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
			t.Errorf("%s: cached\n%+v\nthen\n%+v\nwant\n%+v", step.name, got, again, want)
		}
		recs, err := f.s.ReadLog()
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range outcomelog.FailingStreaks(recs, 3) {
			names = append(names, fmt.Sprintf("%s:%d", strings.TrimSuffix(strings.TrimPrefix(s.Path, "lessons/"), ".md"), s.Failures))
		}
		var gotNames []string
		for _, s := range got {
			gotNames = append(gotNames, fmt.Sprintf("%s:%d", strings.TrimSuffix(strings.TrimPrefix(s.Path, "lessons/"), ".md"), s.Failures))
		}
		if strings.Join(gotNames, ",") != step.failing || strings.Join(names, ",") != step.failing {
			t.Errorf("%s: failing %v (from the records %v), want %s", step.name, gotNames, names, step.failing)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, filepath.FromSlash(vault.CacheDir), outcomelog.StreaksFile)); err != nil {
		t.Errorf("no %s in the cache folder: %v", outcomelog.StreaksFile, err)
	}
}
