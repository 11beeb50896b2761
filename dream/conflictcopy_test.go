package dream

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// copyNames are a sync service's copy of memory/Use pnpm.md, one a
// service.
var copyNames = map[string]string{
	"Obsidian Sync": "memory/Use pnpm (conflict 2026-11-29).md",
	"iCloud":        "memory/Use pnpm 2.md",
	"Dropbox":       "memory/Use pnpm (Ann's conflicted copy 2026-11-29).md",
	"Dropbox case":  "memory/Use pnpm (Case Conflict).md",
	"Syncthing":     "memory/Use pnpm.sync-conflict-20261129-101010-ABCDEFG.md",
	"OneDrive":      "memory/Use pnpm-LAPTOP.md",
	"Google Drive":  "memory/Use pnpm (1).md",
	"Nextcloud":     "memory/Use pnpm (conflicted copy 2026-11-29 101010).md",
}

// TestConflictCopies: beside each service's copy of a memory, the
// original stays the memory. A copy with the same text (or less) is merged
// into it, however the names sort and whichever is older; links to the
// copy then point at the original, and MEMORY.md lists the original. A
// copy that says more, or otherwise, is never merged either way: it is a
// possible duplicate under Needs review.
func TestConflictCopies(t *testing.T) {
	const orig = "memory/Use pnpm.md"
	original := memoryNote("Use pnpm", "feedback", "pnpm, not npm", "created: 2026-02-01\n", "Use pnpm, not npm, in every JavaScript project.\n")
	for service, copyPath := range copyNames {
		for _, c := range []struct {
			name, copy string
			merged     bool
		}{
			// The copy is older and has the same text: by the rule for
			// other memories (the older), it would win.
			{"same text", memoryNote("Use pnpm", "feedback", "pnpm, not npm", "created: 2026-01-01\n", "Use pnpm, not npm, in every JavaScript project.\n"), true},
			// One more sentence: by the rule for others (the more
			// complete), the copy would take the original.
			{"says more", memoryNote("Use pnpm", "feedback", "pnpm, not npm", "created: 2026-02-01\n", "Use pnpm, not npm, in every JavaScript project. It is faster on CI.\n"), false},
			{"differs", memoryNote("Use pnpm", "feedback", "pnpm, not npm", "created: 2026-02-01\n", "Use pnpm 9, not npm, in every JavaScript project.\n"), false},
		} {
			t.Run(service+"/"+c.name, func(t *testing.T) {
				copyLink := strings.TrimSuffix(strings.TrimPrefix(copyPath, "memory/"), ".md")
				tv := newTestVault(t, map[string]string{
					orig:           original,
					copyPath:       c.copy,
					"notes/see.md": "See [[" + copyLink + "]] and [[Use pnpm]].\n",
				})
				rep := tv.run(RunOptions{})
				idx := tv.read("MEMORY.md")
				if !strings.Contains(idx, "](memory/Use%20pnpm.md)") && !strings.Contains(idx, "](<memory/Use pnpm.md>)") {
					t.Errorf("MEMORY.md does not list the original:\n%s", idx)
				}
				if strings.Contains(tv.read(orig), "archived") {
					t.Errorf("the original was archived:\n%s", tv.read(orig))
				}
				if !c.merged {
					if len(rep.Merged) != 0 {
						t.Errorf("merged %+v: a copy that differs is for a person", rep.Merged)
					}
					if len(rep.PossibleDuplicates)+len(rep.Contradictions) != 1 {
						t.Fatalf("flagged %+v %+v, want the pair", rep.PossibleDuplicates, rep.Contradictions)
					}
					if f := append(rep.PossibleDuplicates, rep.Contradictions...)[0]; f.Paths != [2]string{min(orig, copyPath), max(orig, copyPath)} || !strings.Contains(f.Reason, "conflict copy") {
						t.Errorf("flagged %+v", f)
					}
					if _, review, _ := strings.Cut(idx, "## Needs review"); !strings.Contains(review, "](memory/Use%20pnpm.md)") {
						t.Errorf("MEMORY.md does not list the pair for review:\n%s", idx)
					}
					return
				}
				if len(rep.Merged) != 1 || rep.Merged[0].Into != orig || len(rep.Merged[0].From) != 1 || rep.Merged[0].From[0] != copyPath {
					t.Fatalf("merged %+v, want %s into %s", rep.Merged, copyPath, orig)
				}
				if got := tv.read(copyPath); !strings.Contains(got, "merged_into: \"[[Use pnpm]]\"") {
					t.Errorf("the copy:\n%s", got)
				}
				if got := tv.read(orig); !strings.Contains(got, "created: 2026-01-01") {
					t.Errorf("the original did not take the older created:\n%s", got)
				}
				if got := tv.read("notes/see.md"); strings.Contains(got, "[["+copyLink+"]]") || !strings.Contains(got, "[[Use pnpm|") {
					t.Errorf("links:\n%s", got)
				}
				if strings.Contains(idx, strings.TrimPrefix(copyPath, "memory/")) {
					t.Errorf("MEMORY.md lists the copy:\n%s", idx)
				}
			})
		}
	}
}

// TestConflictCopyLookalike: a memory whose name only looks like a copy's
// ("Use pnpm 2" with no "Use pnpm") is merged as any other.
func TestConflictCopyLookalike(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/Use pnpm 2.md": memoryNote("Use pnpm 2", "feedback", "pnpm", "", "Use pnpm, not npm, in every JavaScript project. It is faster on CI.\n"),
		"memory/pnpm.md":       memoryNote("pnpm", "feedback", "pnpm", "", "Use pnpm, not npm, in every JavaScript project.\n"),
	})
	rep := tv.run(RunOptions{})
	if len(rep.Merged) != 1 || rep.Merged[0].Into != "memory/Use pnpm 2.md" {
		t.Errorf("merged %+v, want pnpm into the more complete Use pnpm 2", rep.Merged)
	}
}

// TestSurvivorIndependentOfOrder: the survivor of a group depends on its
// notes alone, never on the order a run meets them in: every order of one
// group gives one survivor (an original before its sync copy, then the
// most words, the older created, the path).
func TestSurvivorIndependentOfOrder(t *testing.T) {
	const same = "Always use tabs for indentation.\n"
	for _, c := range []struct {
		name  string
		notes map[string]string // path: extra frontmatter
		want  string
	}{
		{"older created", map[string]string{"memory/a.md": "created: 2026-02-02\n", "memory/b.md": "created: 2026-02-01\n", "memory/c.md": ""}, "memory/b.md"},
		{"path", map[string]string{"memory/c.md": "created: 2026-02-01\n", "memory/b.md": "created: 2026-02-01\n", "memory/d.md": "created: 2026-02-01\n"}, "memory/b.md"},
		{"original before copy", map[string]string{"memory/X 2.md": "created: 2026-01-01\n", "memory/X.md": "created: 2026-02-01\n", "memory/X (1).md": "created: 2026-01-01\n"}, "memory/X.md"},
		{"a copy older than another memory", map[string]string{"memory/X 2.md": "created: 2026-01-01\n", "memory/X.md": "created: 2026-02-01\n", "memory/Z.md": "created: 2026-01-15\n"}, "memory/Z.md"},
	} {
		var paths []string
		for p := range c.notes {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for perm := range permutations(paths) {
			var ms []*mem
			for _, p := range perm {
				n := markdown.Parse(p, []byte(memoryNote("Tabs", "feedback", "tabs", c.notes[p], same)))
				ms = append(ms, &mem{Memory: &similar.Memory{Path: p, Kind: memory.Feedback, Name: "Tabs", Note: n, Changed: true}})
			}
			pl := &plan{fresh: map[pair]bool{}}
			(&Dreamer{}).duplicatesOf(context.Background(), pl, &Report{}, ms)
			if len(pl.merges) != 1 || pl.merges[0].winner.Path != c.want || len(pl.merges[0].losers) != len(perm)-1 {
				var got []string
				for _, mg := range pl.merges {
					got = append(got, mg.winner.Path)
				}
				t.Errorf("%s, order %v: survivors %v, want %s", c.name, perm, got, c.want)
			}
		}
	}
}

// permutations yields every order of s.
func permutations(s []string) func(func([]string) bool) {
	return func(yield func([]string) bool) {
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == len(s) {
				return yield(slices.Clone(s))
			}
			for i := k; i < len(s); i++ {
				s[k], s[i] = s[i], s[k]
				ok := rec(k + 1)
				s[k], s[i] = s[i], s[k]
				if !ok {
					return false
				}
			}
			return true
		}
		rec(0)
	}
}

// TestConflictCopyIncremental: a copy that appears after a run, under
// another name and in other words, is compared with its original by the
// next incremental run and listed for review.
func TestConflictCopyIncremental(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/Deploys.md": memoryNote("Deploys", "project", "when we deploy", "", "Deploys go out on Tuesdays after the standup.\n"),
		"memory/Other.md":   memoryNote("Other", "project", "other", "", "The staging database is reset every night.\n"),
	})
	tv.run(RunOptions{})
	tv.write("memory/Deploys 2.md", memoryNote("Release day", "project", "release", "", "We ship on Thursdays now, never on Mondays.\n"))
	rep := tv.run(RunOptions{})
	if rep.Examined != 1 || len(rep.PossibleDuplicates)+len(rep.Contradictions) != 1 {
		t.Fatalf("examined %d, flagged %+v %+v: want the copy and its original", rep.Examined, rep.PossibleDuplicates, rep.Contradictions)
	}
	f := append(rep.PossibleDuplicates, rep.Contradictions...)[0]
	if f.Paths != [2]string{"memory/Deploys 2.md", "memory/Deploys.md"} || !strings.Contains(f.Reason, "conflict copy (iCloud)") {
		t.Errorf("flagged %+v", f)
	}
}
