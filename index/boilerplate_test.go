package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/session"
)

// hubFooter is the footer the Obsidian Hub ends nearly every note with:
// the same words, links to the note's own address.
func hubFooter(name string) string {
	u := strings.ReplaceAll(name, " ", "%20")
	return "\n%% Hub footer: Please don't edit anything below this line %%\n\n# This note in GitHub\n\n" +
		`<span class="git-footer">[Edit In GitHub](https://github.dev/obsidian-community/obsidian-hub/blob/main/` + u + `.md "git-hub-edit-note") | ` +
		`[Copy this note](https://raw.githubusercontent.com/obsidian-community/obsidian-hub/main/` + u + `.md "git-hub-copy-note") | ` +
		`[Download this vault](https://github.com/obsidian-community/obsidian-hub/archive/refs/heads/main.zip "git-hub-download-vault") </span>` + "\n"
}

func TestShapeOf(t *testing.T) {
	base := shapeOf("This note in GitHub", `[Edit In GitHub](https://github.dev/a/Plugins.md "x") | [Copy this note](https://raw/a.md)`)
	for _, tc := range []struct {
		name          string
		heading, text string
		same          bool
	}{
		{"other link targets", "This note in GitHub", `[Edit In GitHub](https://github.dev/b/Sync%20with%20git.md "y") | [Copy this note](https://raw/b.md)`, true},
		{"case and spacing", "this note in github", "[Edit  in GitHub](z)\n|\n[copy THIS note](w)", true},
		{"a word more", "This note in GitHub", `[Edit In GitHub](https://github.dev/a.md) | [Copy this note](https://raw/a.md) today`, false},
		{"another heading", "Links", `[Edit In GitHub](https://github.dev/a.md) | [Copy this note](https://raw/a.md)`, false},
		{"bare URL left out", "This note in GitHub", "Edit In GitHub https://example.com/x?y=1 Copy this note", true},
	} {
		if got := shapeOf(tc.heading, tc.text) == base; got != tc.same {
			t.Errorf("%s: same shape %v, want %v", tc.name, got, tc.same)
		}
	}
	if shapeOf("", "  --- | ") != 0 {
		t.Error("a chunk without a word has a shape")
	}
}

func TestBoilerplateNotes(t *testing.T) {
	for _, tc := range []struct{ notes, want int }{{0, 10}, {5, 10}, {500, 10}, {550, 11}, {6591, 131}, {13400, 268}} {
		if got := boilerplateNotes(tc.notes); got != tc.want {
			t.Errorf("boilerplateNotes(%d) = %d, want %d", tc.notes, got, tc.want)
		}
	}
}

// searchHits returns "path|heading" of every hit of query in mode.
func searchHits(t *testing.T, ix *Index, query string, mode Mode) []string {
	t.Helper()
	res, err := ix.Searcher().Search(context.Background(), Query{Text: query, Mode: mode, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		out = append(out, r.Path+"|"+r.Heading)
	}
	return out
}

// TestFooterInEveryNoteMatchesNothing: in a vault whose every note ends
// with the same footer, a search for the footer's words finds no footer,
// by keyword or by vector, and still finds the notes that use those words
// in their own text; the notes' own text is found as before.
func TestFooterInEveryNoteMatchesNothing(t *testing.T) {
	for _, resident := range []bool{false, true} {
		t.Run(fmt.Sprintf("resident=%v", resident), func(t *testing.T) {
			tv := newTestVault(t, "", Options{Resident: resident})
			topics := []string{"daily notes", "canvas", "dataview", "templater", "graph view", "backlinks", "kanban", "calendar",
				"excalidraw", "outliner", "tasks plugin", "periodic notes", "quickadd", "omnisearch", "spaced repetition",
				"mind map", "zotero", "pandoc", "slides", "publish", "themes", "snippets", "hotkeys", "vim mode", "bookmarks"}
			for i, topic := range topics {
				name := fmt.Sprintf("Plugins/%s", topic)
				body := fmt.Sprintf("# %s\n\nHow the %s plugin helps: it shows item %d of the community list.\n", topic, topic, i)
				tv.write(name+".md", body+hubFooter(name))
			}
			// Notes that use the footer's words in their own text, once.
			tv.write("Guides/Sync with git.md", "# Sync with git\n\nTo sync your vault, commit it with git and push it to GitHub; edit a note on any machine.\n"+hubFooter("Guides/Sync with git"))
			tv.write("Guides/Copy a vault.md", "# Copy a vault\n\nDownload this vault as a zip, or copy this note by hand.\n"+hubFooter("Guides/Copy a vault"))
			tv.sync()
			for _, mode := range []Mode{Keyword, Vector, Hybrid} {
				for _, q := range []string{"edit in github", "how to sync obsidian with git", "download this vault", "copy this note"} {
					hits := searchHits(t, tv.ix, q, mode)
					for _, h := range hits {
						if strings.HasSuffix(h, "|This note in GitHub") {
							t.Errorf("%s %q: a footer matched: %v", mode, q, hits)
							break
						}
					}
					if mode == Vector {
						continue // the vector ranking is not held to find a word
					}
					want := map[string]string{"edit in github": "Guides/Sync with git.md", "how to sync obsidian with git": "Guides/Sync with git.md",
						"download this vault": "Guides/Copy a vault.md", "copy this note": "Guides/Copy a vault.md"}[q]
					if len(hits) == 0 || !strings.HasPrefix(hits[0], want+"|") {
						t.Errorf("%s %q: first hit is not %s: %v", mode, q, want, hits)
					}
				}
			}
			if hits := searchHits(t, tv.ix, "templater", Hybrid); len(hits) == 0 || !strings.HasPrefix(hits[0], "Plugins/templater.md|") {
				t.Errorf("a note's own text is not found: %v", hits)
			}
		})
	}
}

// TestSharedLineOfASmallVaultStays: a line all five notes of a small
// vault share is under the floor and stays searchable.
func TestSharedLineOfASmallVaultStays(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	for i := range 5 {
		tv.write(fmt.Sprintf("n%d.md", i), fmt.Sprintf("# Note %d\n\nOwn text %d.\n\n## Owner\n\nAsk Priya about the quarterly report.\n", i, i))
	}
	tv.sync()
	if hits := searchHits(t, tv.ix, "quarterly report", Keyword); len(hits) != 5 {
		t.Errorf("the shared line is found in %d notes, want 5: %v", len(hits), hits)
	}
}

// TestBoilerplateIsIncremental: as notes gain and lose a footer, are
// added and removed, in syncs and refreshes, the boilerplate marks are
// always those a rebuild makes (assertFresh compares every chunk's shape
// and mark), and the footer matches exactly when it is in no more notes
// than the threshold allows, or is all a note holds.
func TestBoilerplateIsIncremental(t *testing.T) {
	tv := newTestVault(t, "", Options{NoVectors: true})
	ctx := context.Background()
	r := rand.New(rand.NewPCG(39, 2))
	hasFooter := map[int]bool{}
	footerOnly := map[int]bool{} // a stub: nothing but the footer
	present := map[int]bool{}
	for step := range 60 {
		var changed []string
		for range 1 + r.IntN(6) {
			i := r.IntN(30)
			p := fmt.Sprintf("n%02d.md", i)
			changed = append(changed, p)
			switch {
			case present[i] && r.IntN(4) == 0:
				tv.remove(p)
				delete(present, i)
				delete(hasFooter, i)
				delete(footerOnly, i)
			default:
				body := fmt.Sprintf("# Note %d\n\nStep %d wrote note %d.\n", i, step, i)
				hasFooter[i] = r.IntN(3) > 0
				footerOnly[i] = hasFooter[i] && r.IntN(6) == 0
				if footerOnly[i] {
					body = ""
				}
				if hasFooter[i] {
					body += hubFooter(fmt.Sprintf("n%02d", i))
				}
				tv.write(p, body)
				present[i] = true
			}
		}
		if step%2 == 0 {
			tv.sync()
		} else if err := tv.ix.Refresh(ctx, os.DirFS(tv.dir), changed...); err != nil {
			t.Fatal(err)
		}
		tv.assertFresh()
		footers, stubs := 0, 0
		for i := range hasFooter {
			if hasFooter[i] && present[i] {
				footers++
				if footerOnly[i] {
					stubs++
				}
			}
		}
		found := 0
		for _, h := range searchHits(t, tv.ix, "edit in github", Keyword) {
			if strings.HasSuffix(h, "|This note in GitHub") {
				found++
			}
		}
		want := footers
		if footers > boilerplateNotes(len(present)) {
			want = stubs // a stub's one chunk stays, to find the note by
		}
		if found != want {
			t.Fatalf("step %d: %d of %d notes have the footer: %d footers found, want %d", step, footers, len(present), found, want)
		}
	}
}

// TestSessionNoteChunksLeaveOutPrompts: a session note, as the hooks
// write it, is chunked without its Prompts section: what the session did
// is searchable, what the user typed is not.
func TestSessionNoteChunksLeaveOutPrompts(t *testing.T) {
	st := testSession()
	src := string(st.Render(func(string) string { return "" }))
	if !strings.Contains(src, "## "+session.PromptsHeading) {
		t.Fatalf("the note has no prompts section:\n%s", src)
	}
	got := strings.Join(chunkTexts(st.NotePath("sessions"), src), "\n~\n")
	for _, gone := range []string{"rotate the signing key", "which flag"} {
		if strings.Contains(got, gone) {
			t.Errorf("a prompt is in the chunks: %q\n%s", gone, got)
		}
	}
	for _, kept := range []string{"Files changed", "deploy/keys.go", "Session of"} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q is not in the chunks:\n%s", kept, got)
		}
	}
	// Any other note keeps a section named Prompts.
	if got := chunkTexts("n.md", "# Ideas\n\n## Prompts\n\nrotate the signing key\n"); len(got) != 1 || !strings.Contains(got[0], "rotate") {
		t.Errorf("a plain note's Prompts section was left out: %q", got)
	}
}

// testSession is a session as the hooks keep it: prompts, a file changed.
func testSession() *session.State {
	start := time.Date(2026, 11, 27, 10, 4, 0, 0, time.UTC)
	return &session.State{ID: "5d41402a-demo", Client: "claude-code", Agent: "claude", Started: start, Ended: start.Add(time.Hour),
		Prompts: []session.Prompt{{Time: start, Text: "rotate the signing key"}, {Time: start.Add(time.Minute), Text: "which flag does the deploy take?"}},
		Files:   []string{"deploy/keys.go"}}
}
