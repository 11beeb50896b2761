package dream

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// killed is what a killer panics with to stop a run.
type killed struct{}

// killer is the writer of a run killed after its first left writes: it
// lets them through, and stops the run right after the last of them (at
// once when left is 0) with a panic that runKilled recovers. Nothing the
// run would have written after is written, as when the process is killed;
// the run's deferred calls release its locks, as the kernel would. Every
// call that may write counts, one that wrote nothing too (an Update of a
// log not yet there): a kill point more.
// (MEMORY.md and the flagged pairs, which the memory store writes, are
// not counted: they say nothing of what the log holds.)
type killer struct {
	noteWriter
	left  int
	wrote []string // what the run wrote, in order
}

func (k *killer) before() {
	if k.left == 0 {
		panic(killed{})
	}
}

func (k *killer) after(what string) {
	k.wrote = append(k.wrote, what)
	if k.left--; k.left == 0 {
		panic(killed{})
	}
}

func (k *killer) Write(ctx context.Context, p string, content []byte, expected string) (string, error) {
	k.before()
	defer k.after(p)
	return k.noteWriter.Write(ctx, p, content, expected)
}

func (k *killer) Update(ctx context.Context, p string, fn func([]byte) ([]byte, error)) (string, error) {
	k.before()
	defer k.after(p)
	return k.noteWriter.Update(ctx, p, fn)
}

func (k *killer) WriteState(ctx context.Context, name string, content []byte, expected string) (string, error) {
	k.before()
	defer k.after(name)
	return k.noteWriter.WriteState(ctx, name, content, expected)
}

func (k *killer) RemoveState(ctx context.Context, name, expected string) error {
	k.before()
	defer k.after("remove " + name)
	return k.noteWriter.RemoveState(ctx, name, expected)
}

func (k *killer) AppendState(ctx context.Context, name string, line []byte) error {
	k.before()
	defer k.after(name)
	return k.noteWriter.AppendState(ctx, name, line)
}

// runKilled syncs the index and runs Dream, killing the run after its
// first k writes; died says it was killed (else it finished with fewer),
// wrote what it wrote.
func (tv *testVault) runKilled(k int) (wrote []string, died bool) {
	tv.t.Helper()
	tv.sync()
	kw := &killer{noteWriter: tv.d.w, left: k}
	d := *tv.d
	d.w = kw
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(killed); !ok {
				panic(r)
			}
			wrote, died = kw.wrote, true
		}
	}()
	if _, err := d.Run(context.Background(), RunOptions{}); err != nil {
		tv.t.Fatalf("run killed after %d writes: %v", k, err)
	}
	return kw.wrote, false
}

// TestKilledResumeLogsEachMergeOnce: a run killed after any of its writes
// (k1), then the run that finishes it killed after any of its own (k2),
// then a run to the end: the dream log holds each merge and each date of
// the first run exactly once, no journal is left, every duplicate is
// archived, and one more run changes nothing. The duplicates are exact
// (same type, same body), so that which one wins does not matter. With
// -short, the first run is killed after its journal only.
func TestKilledResumeLogsEachMergeOnce(t *testing.T) {
	files := map[string]string{
		"memory/a1.md": memoryNote("Billing deploys", "project", "x", "", "Deploys of the billing service go out on Tuesdays after the standup.\n"),
		"memory/a2.md": memoryNote("Billing deploy day", "project", "x", "", "Deploys of the billing service go out on Tuesdays after the standup.\n"),
		"memory/b1.md": memoryNote("Search freeze", "project", "x", "", "The search index freezes during the quarterly reindex of the catalogue.\n"),
		"memory/b2.md": memoryNote("Search index freeze", "project", "x", "", "The search index freezes during the quarterly reindex of the catalogue.\n"),
		"memory/c.md":  memoryNote("Release", "project", "x", "created: 2026-03-01\n", "The mobile release goes out tomorrow.\n"),
		"notes/n.md":   "See [[a1]], [[a2]], [[b1]] and [[b2]].\n",
	}
	// What the first run plans, and every line its work puts in the log.
	plan := newTestVault(t, files).run(RunOptions{DryRun: true})
	if len(plan.Merged) != 2 || len(plan.DatesFixed) != 1 {
		t.Fatalf("the plan merges %+v and dates %+v: want 2 merges and 1 date", plan.Merged, plan.DatesFixed)
	}
	link := func(p string) string { return regexp.QuoteMeta("[[" + strings.TrimSuffix(p, markdown.Ext) + "|") }
	var want []*regexp.Regexp
	for _, mg := range plan.Merged {
		want = append(want, regexp.MustCompile(`(?m)^- Merged `+link(mg.From[0])+`[^\]]*\]\] into `+link(mg.Into)))
	}
	for _, f := range plan.DatesFixed {
		want = append(want, regexp.MustCompile(`(?m)^- Dated "`+f.From+`" in `+link(f.Path)))
	}

	scenarios := 0
	for k1 := 1; ; k1++ {
		tv := newTestVault(t, files)
		first, died := tv.runKilled(k1)
		if !died || testing.Short() && k1 > 1 {
			break // the first run makes fewer writes: every k1 is done
		}
		for k2 := 0; ; k2++ {
			tv := newTestVault(t, files)
			tv.runKilled(k1)
			second, died := tv.runKilled(k2)
			scenarios++
			where := fmt.Sprintf("first run killed after %d writes %q, the next after %d %q", k1, first, k2, second)
			tv.run(RunOptions{})
			checkLogOnce(t, tv, where, want)
			if !died {
				break
			}
		}
	}
	t.Logf("%d kill scenarios", scenarios)
}

// checkLogOnce checks the vault after the killed runs and one to the end:
// each of want in the log once, the journal gone, the duplicates
// archived, and nothing left for one more run to do.
func checkLogOnce(t *testing.T, tv *testVault, where string, want []*regexp.Regexp) {
	t.Helper()
	log := tv.read("memory/dream-log.md")
	for _, re := range want {
		if n := len(re.FindAllString(log, -1)); n != 1 {
			t.Errorf("%s: the log holds %s %d times:\n%s", where, re, n, log)
		}
	}
	if got := strings.Count(log, "\n- Merged "); got != 2 {
		t.Errorf("%s: %d merges in the log, want 2:\n%s", where, got, log)
	}
	if _, err := os.Stat(filepath.Join(tv.dir, vault.StateDir, JournalFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: the journal is left (%v)", where, err)
	}
	archived := 0
	for _, p := range []string{"memory/a1.md", "memory/a2.md", "memory/b1.md", "memory/b2.md"} {
		if strings.Contains(tv.read(p), "merged_into:") {
			archived++
		}
	}
	if archived != 2 {
		t.Errorf("%s: %d duplicates archived, want 2", where, archived)
	}
	if again := tv.run(RunOptions{}); len(again.Changed) != 0 {
		t.Errorf("%s: one more run changed %v", where, again.Changed)
	}
}
