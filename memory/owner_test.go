package memory_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// as is a Store over ts's vault and index for the person owner, telling a
// shared vault by sharing.
func (ts *testStore) as(owner string, sharing memory.Sharing) *memory.Store {
	clock := func() time.Time { return time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) }
	return memory.NewStore(vault.NewWriter(ts.v, vault.WriterOptions{}), ts.ix.Stores(),
		memory.StoreOptions{Now: clock, Owner: func() string { return owner }, Sharing: sharing})
}

// TestSharingShared: the rule that tells a shared vault, by the user
// memories' owners and the setting.
func TestSharingShared(t *testing.T) {
	ann := memory.Entry{Path: "memory/a.md", Type: memory.User, Owner: "ann@example.com"}
	annUpper := memory.Entry{Path: "memory/a2.md", Type: memory.User, Owner: "Ann@Example.com"}
	bob := memory.Entry{Path: "memory/b.md", Type: memory.User, Owner: "bob@example.com"}
	nobody := memory.Entry{Path: "memory/n.md", Type: memory.User}
	bobFeedback := memory.Entry{Path: "memory/f.md", Type: memory.Feedback, Owner: "bob@example.com"}
	for _, tc := range []struct {
		name    string
		sharing memory.Sharing
		es      []memory.Entry
		want    bool
	}{
		{"no memories", memory.SharedIfOwners, nil, false},
		{"one owner", memory.SharedIfOwners, []memory.Entry{ann, nobody}, false},
		{"one owner, case differs", memory.SharedIfOwners, []memory.Entry{ann, annUpper}, false},
		{"two owners", memory.SharedIfOwners, []memory.Entry{ann, nobody, bob}, true},
		{"an owner on a feedback memory counts not", memory.SharedIfOwners, []memory.Entry{ann, bobFeedback}, false},
		{"set shared", memory.AlwaysShared, []memory.Entry{ann}, true},
		{"set shared, no memories", memory.AlwaysShared, nil, true},
		{"set one person's", memory.NeverShared, []memory.Entry{ann, bob}, false},
	} {
		if got := tc.sharing.Shared(tc.es); got != tc.want {
			t.Errorf("%s: shared %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRememberOwner: a new user memory names the owner the store writes
// for; other kinds, and a store that knows nobody, write none.
func TestRememberOwner(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, owner string
		typ         memory.Type
		want        string // the owner line, "" for none
	}{
		{"user memory of a known person", "ann@example.com", memory.User, "owner: ann@example.com\n"},
		{"user memory of nobody known", "", memory.User, ""},
		{"feedback of a known person", "ann@example.com", memory.Feedback, ""},
		{"project of a known person", "ann@example.com", memory.Project, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t, "")
			ts.sync()
			res, err := ts.as(tc.owner, memory.SharedIfOwners).Remember(ctx, memory.Memory{Type: tc.typ, Name: "Answer language", Description: "French", Body: "Answer in French."}, memory.Options{})
			if err != nil {
				t.Fatal(err)
			}
			note := ts.read(res.Path)
			if tc.want == "" && strings.Contains(note, "owner:") || tc.want != "" && !strings.Contains(note, "\ntype: user\n"+tc.want+"created:") {
				t.Errorf("note:\n%s\nwant owner line %q", note, tc.want)
			}
			if res.Owner != strings.TrimSuffix(strings.TrimPrefix(tc.want, "owner: "), "\n") {
				t.Errorf("result owner %q", res.Owner)
			}
		})
	}
}

// TestRememberTeammatesName: a person remembering a user memory of the
// name a teammate's has gets a note of their own; the teammate's is
// never written over, and an update of one's own still updates it.
func TestRememberTeammatesName(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "")
	ann, bob := ts.as("ann@example.com", memory.SharedIfOwners), ts.as("bob@example.com", memory.SharedIfOwners)
	ts.sync()
	if _, err := ann.Remember(ctx, memory.Memory{Type: memory.User, Name: "Answer language", Description: "French", Body: "Answer in French."}, memory.Options{}); err != nil {
		t.Fatal(err)
	}
	ts.sync()
	annNote := ts.read("memory/answer-language.md")
	res, err := bob.Remember(ctx, memory.Memory{Type: memory.User, Name: "Answer language", Description: "German", Body: "Answer in German."}, memory.Options{Update: true})
	if err != nil || res.Path != "memory/answer-language-2.md" || res.Status != "created" || res.Owner != "bob@example.com" {
		t.Fatalf("bob: %+v %v", res, err)
	}
	if got := ts.read("memory/answer-language.md"); got != annNote {
		t.Errorf("ann's memory changed:\n%s", got)
	}
	ts.sync()
	res, err = ann.Remember(ctx, memory.Memory{Type: memory.User, Name: "Answer language", Description: "Spanish", Body: "Answer in Spanish."}, memory.Options{Update: true})
	if err != nil || res.Path != "memory/answer-language.md" || res.Status != "updated" {
		t.Fatalf("ann's update: %+v %v", res, err)
	}
	if got := ts.read("memory/answer-language-2.md"); !strings.Contains(got, "German") {
		t.Errorf("bob's memory changed:\n%s", got)
	}
}

// TestSharedVaultList: MEMORY.md of a shared vault lists the shared kinds
// and the user memories without an owner, never a person's; a vault one
// person keeps lists every memory, as it always did.
func TestSharedVaultList(t *testing.T) {
	ctx := context.Background()
	const (
		annLine    = "- [Ann language](memory/ann.md) — French"
		bobLine    = "- [Bob editor](memory/bob.md) — vim"
		nobodyLine = "- [Team role](memory/nobody.md) — backend team"
		ruleLine   = "- [Testing rule](memory/rule.md) — real database"
		// Bob's user memory Dream proposed from his session.
		proposedLine = "- [Bob theme](memory/theme.md) proposed by Dream: accept by removing status: proposed"
	)
	for _, tc := range []struct {
		name    string
		bob     bool // Bob's user memory is in the vault
		sharing memory.Sharing
		want    []string
		wantNot []string
	}{
		{"one owner: one person's vault", false, memory.SharedIfOwners, []string{annLine, nobodyLine, ruleLine, proposedLine}, nil},
		{"two owners: shared", true, memory.SharedIfOwners, []string{nobodyLine, ruleLine}, []string{annLine, bobLine, "## User\n\n- [Ann", proposedLine}},
		{"one owner, memory.shared true", false, memory.AlwaysShared, []string{nobodyLine, ruleLine}, []string{annLine, proposedLine}},
		{"two owners, memory.shared false", true, memory.NeverShared, []string{annLine, bobLine, nobodyLine, ruleLine, proposedLine}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t, "")
			ts.write("memory/ann.md", "---\nname: Ann language\ndescription: French\ntype: user\nowner: ann@example.com\n---\nAnswer in French.\n")
			if tc.bob {
				ts.write("memory/bob.md", "---\nname: Bob editor\ndescription: vim\ntype: user\nowner: bob@example.com\n---\nBob uses vim.\n")
			}
			ts.write("memory/nobody.md", "---\nname: Team role\ndescription: backend team\ntype: user\n---\nThe team does the backend.\n")
			ts.write("memory/rule.md", "---\nname: Testing rule\ndescription: real database\ntype: feedback\n---\nTests hit a real database.\n")
			ts.write("memory/theme.md", "---\nname: Bob theme\ndescription: dark theme\ntype: user\nowner: bob@example.com\nstatus: proposed\n---\nBob likes dark themes.\n")
			ts.sync()
			if _, err := ts.as("ann@example.com", tc.sharing).Relist(ctx); err != nil {
				t.Fatal(err)
			}
			list := ts.read("MEMORY.md")
			for _, w := range tc.want {
				if !strings.Contains(list, w+"\n") {
					t.Errorf("MEMORY.md lacks %q:\n%s", w, list)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(list, w) {
					t.Errorf("MEMORY.md holds %q:\n%s", w, list)
				}
			}
			// Whoever lists it, the committed file is the same.
			if _, err := ts.as("bob@example.com", tc.sharing).Relist(ctx); err != nil {
				t.Fatal(err)
			}
			if again := ts.read("MEMORY.md"); again != list {
				t.Errorf("listed by another person:\n%s\nwant\n%s", again, list)
			}
		})
	}
}

// TestPersonal: in a shared vault each person's own user memories, and
// the teammates' by path; nothing in a vault one person keeps.
func TestPersonal(t *testing.T) {
	ctx := context.Background()
	ts := newTestStore(t, "")
	ts.write("memory/ann.md", "---\nname: Ann language\ndescription: French\ntype: user\nowner: ann@example.com\n---\nAnswer in French.\n")
	ts.write("memory/nobody.md", "---\nname: Team role\ndescription: backend team\ntype: user\n---\nThe team does the backend.\n")
	ts.sync()
	if mine, theirs, shared, err := ts.as("bob@example.com", memory.SharedIfOwners).Personal(ctx); err != nil || shared || mine != nil || len(theirs) != 0 {
		t.Fatalf("one person's vault: %v %v %v %v", mine, theirs, shared, err)
	}
	ts.write("memory/bob.md", "---\nname: Bob editor\ndescription: vim\ntype: user\nowner: Bob@Example.com\n---\nBob uses vim.\n")
	ts.write("memory/theme.md", "---\nname: Bob theme\ndescription: dark theme\ntype: user\nowner: bob@example.com\nstatus: proposed\n---\nBob likes dark themes.\n")
	ts.sync()
	for _, tc := range []struct {
		me         string
		mine       []string
		theirs     map[string]bool
		unownedLen int
	}{
		{"ann@example.com", []string{"memory/ann.md"}, map[string]bool{"memory/bob.md": true, "memory/theme.md": true}, 1},
		{"bob@example.com", []string{"memory/bob.md"}, map[string]bool{"memory/ann.md": true}, 1},
		{"", nil, map[string]bool{"memory/ann.md": true, "memory/bob.md": true, "memory/theme.md": true}, 1},
	} {
		s := ts.as(tc.me, memory.SharedIfOwners)
		mine, theirs, shared, err := s.Personal(ctx)
		if err != nil || !shared {
			t.Fatalf("%q: shared %v, %v", tc.me, shared, err)
		}
		var paths []string
		for _, e := range mine {
			paths = append(paths, e.Path)
		}
		if !reflect.DeepEqual(paths, tc.mine) || !reflect.DeepEqual(theirs, tc.theirs) {
			t.Errorf("%q: mine %v theirs %v; want %v %v", tc.me, paths, theirs, tc.mine, tc.theirs)
		}
		if un, err := s.Unowned(ctx); err != nil || len(un) != tc.unownedLen || un[0].Path != "memory/nobody.md" {
			t.Errorf("%q: unowned %v %v", tc.me, un, err)
		}
	}
}

// TestContradictionSettledByEdit: a contradiction leaves MEMORY.md's
// Needs review at the next listing once a person edits the text of one of
// its memories, though reviews.yaml keeps it for the next Dream; a change
// to other frontmatter (pinning) settles nothing, nor does a pair written
// without fingerprints (an earlier version's file).
func TestContradictionSettledByEdit(t *testing.T) {
	ctx := context.Background()
	const line = "- [Spaces](memory/spaces.md) and [Tabs](memory/tabs.md) may contradict each other"
	for _, tc := range []struct {
		name      string
		edit      func(ts *testStore)
		oldFormat bool
		listed    bool
	}{
		{"untouched", func(*testStore) {}, false, true},
		{"body edited", func(ts *testStore) {
			ts.write("memory/tabs.md", "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nIndent with spaces after all.\n")
		}, false, false},
		{"description edited", func(ts *testStore) {
			ts.write("memory/spaces.md", "---\nname: Spaces\ndescription: indentation of YAML only\ntype: feedback\n---\nNever indent with tabs.\n")
		}, false, false},
		{"pinned only", func(ts *testStore) {
			ts.write("memory/tabs.md", "---\nname: Tabs\ndescription: indentation\ntype: feedback\npinned: true\n---\nAlways indent with tabs.\n")
		}, false, true},
		{"body edited, pair of an earlier version", func(ts *testStore) {
			ts.write("memory/tabs.md", "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nIndent with spaces after all.\n")
		}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestStore(t, "")
			ts.write("memory/tabs.md", "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nAlways indent with tabs.\n")
			ts.write("memory/spaces.md", "---\nname: Spaces\ndescription: indentation\ntype: feedback\n---\nNever indent with tabs.\n")
			ts.sync()
			flag := memory.Flag{A: "memory/spaces.md", B: "memory/tabs.md", Reason: `"always" vs "never"`}
			if tc.oldFormat {
				ts.write(".vaultmem/state/reviews.yaml", "- a: memory/spaces.md\n  b: memory/tabs.md\n  reason: x\n")
			} else if err := ts.s.SetFlags(ctx, []memory.Flag{flag}, ""); err != nil {
				t.Fatal(err)
			}
			if _, err := ts.s.Relist(ctx); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(ts.read("MEMORY.md"), line) {
				t.Fatalf("not listed at first:\n%s", ts.read("MEMORY.md"))
			}
			tc.edit(ts)
			ts.sync()
			if _, err := ts.s.Relist(ctx); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(ts.read("MEMORY.md"), line); got != tc.listed {
				t.Errorf("listed %v, want %v:\n%s", got, tc.listed, ts.read("MEMORY.md"))
			}
			flags, _, err := ts.s.Flags()
			if err != nil || len(flags) != 1 {
				t.Errorf("reviews.yaml: %v %v (Dream's to settle)", flags, err)
			}
			standing, err := ts.s.Standing(ctx)
			if err != nil || len(standing) == 1 != tc.listed {
				t.Errorf("standing %v %v, want listed %v", standing, err, tc.listed)
			}
		})
	}
}

// TestProposeOwner: a user memory Dream proposes names the owner of the
// store that writes it (whoever runs Dream); other kinds, and a store
// that knows nobody, name none.
func TestProposeOwner(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		owner string
		typ   memory.Type
		want  bool
	}{
		{"ann@example.com", memory.User, true},
		{"ann@example.com", memory.Feedback, false},
		{"", memory.User, false},
	} {
		ts := newTestStore(t, "")
		p, _, err := ts.as(tc.owner, memory.SharedIfOwners).Propose(ctx, memory.Memory{Type: tc.typ, Name: "Terse answers", Description: "terse", Body: "Answer tersely."}, "2026-03-01 1004 claude-code 3f2a9c")
		if err != nil {
			t.Fatal(err)
		}
		note := ts.read(p)
		if got := strings.Contains(note, "\nowner: ann@example.com\n"); got != tc.want {
			t.Errorf("%q %s: owner written %v, want %v:\n%s", tc.owner, tc.typ, got, tc.want, note)
		}
		ts.sync()
		ps, err := ts.ix.Kinds().Proposed(ctx)
		if err != nil || len(ps) != 1 || (ps[0].Owner == "ann@example.com") != tc.want {
			t.Errorf("%q %s: proposals %+v %v", tc.owner, tc.typ, ps, err)
		}
	}
}
