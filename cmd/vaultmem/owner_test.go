package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// person is the environment of one person's vaultmem processes: their
// own config folder and home (where git finds their user.email).
type person struct {
	name string
	env  []string
}

// newPerson makes a person whose own vaultmem config holds config ("" for
// none) and whose global git config names email ("" for none).
func newPerson(t *testing.T, name, config, email string) person {
	t.Helper()
	home := t.TempDir()
	cfg := filepath.Join(home, ".config")
	if config != "" {
		writeFile(t, filepath.Join(cfg, "vaultmem", "config.yaml"), config)
	}
	if email != "" {
		writeFile(t, filepath.Join(home, ".gitconfig"), "[user]\n\temail = "+email+"\n")
	}
	return person{name, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + cfg, "GIT_CONFIG_NOSYSTEM=1", "VAULTMEM_SERVER=off"}}
}

// run runs vaultmem as p and fails the test unless it exits 0.
func (p person) run(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	r := vaultmemEnv(t, dir, stdin, p.env, args...)
	if r.code != 0 {
		t.Fatalf("%s: vaultmem %v: exit %d\nstderr: %s", p.name, args, r.code, r.stderr)
	}
	return r.stdout
}

// TestTwoPeopleShareAVault: Ann (owner in her own config) and Bob (git's
// user.email) remember user memories in one vault: each note names its
// owner, MEMORY.md lists the shared memories and neither person's, and
// each person's session start and recall give them their own user
// memory and never the other's.
func TestTwoPeopleShareAVault(t *testing.T) {
	vaultDir := t.TempDir()
	ann := newPerson(t, "ann", "owner: ann@example.com\n", "ann-git@example.com")
	bob := newPerson(t, "bob", "", "bob@example.com")
	ann.run(t, vaultDir, "", "init")
	ann.run(t, vaultDir, "", "remember", "--type", "user", "--name", "Answer language", "--description", "answer in French",
		"Always answer Ann in French, whatever language the question is in.")
	bob.run(t, vaultDir, "", "remember", "--type", "user", "--name", "Editor", "--description", "edits with vim",
		"Bob edits with vim; give vim keystrokes, never VS Code menus, whatever the language.")
	bob.run(t, vaultDir, "", "remember", "--type", "feedback", "--name", "Testing rule", "--description", "integration tests hit a real database",
		"Integration tests hit a real database, never mocks.")

	for _, tc := range []struct{ file, owner string }{
		{"memory/answer-language.md", "owner: ann@example.com\n"},
		{"memory/editor.md", "owner: bob@example.com\n"},
	} {
		if note := mustRead(t, filepath.Join(vaultDir, filepath.FromSlash(tc.file))); !strings.Contains(note, tc.owner) {
			t.Errorf("%s does not name %q:\n%s", tc.file, tc.owner, note)
		}
	}
	if note := mustRead(t, filepath.Join(vaultDir, "memory", "testing-rule.md")); strings.Contains(note, "owner:") {
		t.Errorf("a feedback memory names an owner:\n%s", note)
	}
	// A user memory without owner (written before owners were, or by
	// hand) is everyone's: listed, and doctor says how to settle it.
	writeFile(t, filepath.Join(vaultDir, "memory", "team-role.md"), "---\nname: Team role\ndescription: the backend team\ntype: user\n---\nWe are the backend team.\n")
	bob.run(t, vaultDir, "", "index")
	doctor := bob.run(t, vaultDir, "", "doctor")
	if !strings.Contains(doctor, "memory/team-role.md: a user memory without owner: in a shared vault") {
		t.Errorf("doctor does not flag the user memory without owner:\n%s", doctor)
	}
	list := mustRead(t, filepath.Join(vaultDir, "MEMORY.md"))
	if strings.Contains(list, "Answer language") || strings.Contains(list, "Editor") || !strings.Contains(list, "[Testing rule]") ||
		!strings.Contains(list, "- [Team role](memory/team-role.md)") {
		t.Errorf("MEMORY.md of a shared vault:\n%s", list)
	}

	own := map[string]string{"ann": "answer-language.md", "bob": "editor.md"}
	for _, tc := range []struct {
		p           person
		mine, their string
	}{{ann, own["ann"], own["bob"]}, {bob, own["bob"], own["ann"]}} {
		start := tc.p.run(t, vaultDir, hookEvent("s-"+tc.p.name, vaultDir, "SessionStart", map[string]any{"source": "startup"}),
			"--vault", vaultDir, "hook", "--client", "claude-code")
		if !strings.Contains(start, "memory/"+tc.mine) || strings.Contains(start, tc.their) || !strings.Contains(start, "Testing rule") {
			t.Errorf("%s's session start gives:\n%s", tc.p.name, start)
		}
		for _, q := range []string{"which language should the answer be in, French?", "which editor, vim keystrokes or VS Code menus?"} {
			out := tc.p.run(t, vaultDir, "", "recall", "--json", q)
			var res struct {
				Items []struct{ Path string } `json:"items"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("%s: recall --json: %v\n%s", tc.p.name, err, out)
			}
			for _, it := range res.Items {
				if strings.HasSuffix(it.Path, tc.their) {
					t.Errorf("%s's recall of %q gives the teammate's %s", tc.p.name, q, it.Path)
				}
			}
			if wantMine := strings.Contains(q, "vim") == (tc.mine == own["bob"]); wantMine {
				found := false
				for _, it := range res.Items {
					found = found || strings.HasSuffix(it.Path, tc.mine)
				}
				if !found {
					t.Errorf("%s's recall of %q misses their own %s: %v", tc.p.name, q, tc.mine, res.Items)
				}
			}
		}
	}
}

// TestOneOwnerKeepsMemoryList: a vault whose user memories name one
// owner is one person's: MEMORY.md lists them as it always did.
func TestOneOwnerKeepsMemoryList(t *testing.T) {
	vaultDir := t.TempDir()
	ann := newPerson(t, "ann", "", "ann@example.com")
	ann.run(t, vaultDir, "", "init")
	ann.run(t, vaultDir, "", "remember", "--type", "user", "--name", "Answer language", "--description", "answer in French", "Answer in French.")
	list := mustRead(t, filepath.Join(vaultDir, "MEMORY.md"))
	if !strings.Contains(list, "## User\n\n- [Answer language](memory/answer-language.md) — answer in French\n") {
		t.Errorf("MEMORY.md of one person's vault:\n%s", list)
	}
	if _, err := os.Stat(filepath.Join(vaultDir, "memory", "answer-language.md")); err != nil {
		t.Fatal(err)
	}
}

// TestMemoryListFollowsEdits: MEMORY.md follows what a person does in the
// notes, at the next command's sync and through a running watcher: a
// contradiction whose memory's text was edited leaves Needs review (Dream
// flagged it; reviews.yaml keeps it for Dream to check again), a renamed
// memory is listed at its new path with its new description, and a merge
// pulled from another machine (one memory archived into the other, whose
// description changed) lists the survivor's description.
func TestMemoryListFollowsEdits(t *testing.T) {
	const contradiction = "- [Spaces](memory/spaces.md) and [Tabs](memory/tabs.md) may contradict each other"
	steps := []struct {
		name    string
		edit    func(dir string)
		paths   []string // the paths whose events make the change
		want    []string
		wantNot []string
	}{
		{"contradiction settled by an edit", func(dir string) {
			writeFile(t, filepath.Join(dir, "memory", "tabs.md"), "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nIndent Go code as gofmt does.\n")
		}, []string{"memory/tabs.md"}, []string{"- [Tabs](memory/tabs.md) — indentation\n"}, []string{contradiction}},
		{"renamed, description changed", func(dir string) {
			if err := os.Rename(filepath.Join(dir, "memory", "deploys.md"), filepath.Join(dir, "memory", "release.md")); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "memory", "release.md"), "---\nname: Deploys\ndescription: releases go out on Mondays\ntype: project\n---\nReleases go out on Mondays.\n")
		}, []string{"memory/deploys.md", "memory/release.md"}, []string{"- [Deploys](memory/release.md) — releases go out on Mondays\n"}, []string{"memory/deploys.md", "on Tuesdays"}},
		{"merge pulled from another machine", func(dir string) {
			writeFile(t, filepath.Join(dir, "memory", "ci.md"), "---\nname: CI\ndescription: CI runs on every push and nightly\ntype: project\n---\nCI runs on every push.\n\nCI also runs nightly.\n")
			writeFile(t, filepath.Join(dir, "memory", "nightly.md"), "---\nname: Nightly\ndescription: nightly CI\ntype: project\narchived: 2026-03-02\nmerged_into: \"[[ci]]\"\n---\nCI also runs nightly.\n")
		}, []string{"memory/ci.md", "memory/nightly.md"}, []string{"- [CI](memory/ci.md) — CI runs on every push and nightly\n"}, []string{"memory/nightly.md", "— CI runs on every push\n"}},
	}
	setup := func(t *testing.T) string {
		dir := newVault(t)
		ok(t, dir, "remember", "--type", "feedback", "--name", "Tabs", "--description", "indentation", "Always indent Go code with tabs.")
		ok(t, dir, "remember", "--type", "feedback", "--name", "Spaces", "--description", "indentation rule", "Never indent Go code with tabs.")
		ok(t, dir, "remember", "--type", "project", "--name", "Deploys", "--description", "deploys go out on Tuesdays", "Deploys go out on Tuesdays.")
		ok(t, dir, "remember", "--type", "project", "--name", "CI", "--description", "CI runs on every push", "CI runs on every push.")
		ok(t, dir, "remember", "--type", "project", "--name", "Nightly", "--description", "nightly CI", "CI also runs nightly.")
		ok(t, dir, "dream")
		if list := mustRead(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(list, contradiction) {
			t.Fatalf("Dream flagged no contradiction:\n%s", list)
		}
		return dir
	}
	check := func(dir string, want, wantNot []string) string {
		list := mustRead(t, filepath.Join(dir, "MEMORY.md"))
		for _, w := range want {
			if !strings.Contains(list, w) {
				return "lacks " + w
			}
		}
		for _, w := range wantNot {
			if strings.Contains(list, w) {
				return "holds " + w
			}
		}
		return ""
	}

	t.Run("a command's sync", func(t *testing.T) {
		dir := setup(t)
		for _, s := range steps {
			s.edit(dir)
			ok(t, dir, "search", "--mode", "keyword", "indent") // any command that syncs
			if why := check(dir, s.want, s.wantNot); why != "" {
				t.Errorf("%s: MEMORY.md %s:\n%s", s.name, why, mustRead(t, filepath.Join(dir, "MEMORY.md")))
			}
		}
		if flags := mustRead(t, filepath.Join(dir, ".vaultmem", "state", "reviews.yaml")); !strings.Contains(flags, `"a":"memory/spaces.md"`) {
			t.Errorf("reviews.yaml lost the pair before Dream checked it again:\n%s", flags)
		}
	})

	t.Run("a running watcher", func(t *testing.T) {
		dir := setup(t)
		cmd := exec.Command(os.Args[0], "--vault", dir, "watch", "--json")
		cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
		events := make(chan batchEvent, 64)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				var ev batchEvent
				if json.Unmarshal(sc.Bytes(), &ev) == nil {
					events <- ev
				}
			}
			close(events)
		}()
		// waitFor reads the watcher's events until every path has been in
		// one (MEMORY.md is listed again before the event is printed).
		waitFor := func(paths ...string) {
			t.Helper()
			seen := map[string]bool{}
			for len(seen) < len(paths) {
				select {
				case ev, ok := <-events:
					if !ok {
						t.Fatalf("watch ended; stderr: %s", stderr.String())
					}
					for _, p := range ev.Paths {
						if slices.Contains(paths, p) {
							seen[p] = true
						}
					}
				case <-time.After(30 * time.Second): // a hung watcher, not a timing threshold
					t.Fatalf("no event for %v; stderr: %s", paths, stderr.String())
				}
			}
		}
		if ev := <-events; !ev.Rescan {
			t.Fatalf("first event is not the initial sync: %+v", ev)
		}
		for _, s := range steps {
			s.edit(dir)
			waitFor(s.paths...)
			if why := check(dir, s.want, s.wantNot); why != "" {
				t.Errorf("%s: MEMORY.md %s:\n%s", s.name, why, mustRead(t, filepath.Join(dir, "MEMORY.md")))
			}
		}
	})
}

// TestContradictionEditedStillContradicts: an edit takes a contradiction
// out of MEMORY.md at once; when the next Dream finds the edited memories
// still disagree, the pair is listed again.
func TestContradictionEditedStillContradicts(t *testing.T) {
	const contradiction = "- [Spaces](memory/spaces.md) and [Tabs](memory/tabs.md) may contradict each other"
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "feedback", "--name", "Tabs", "--description", "indentation", "Always indent Go code with tabs.")
	ok(t, dir, "remember", "--type", "feedback", "--name", "Spaces", "--description", "indentation rule", "Never indent Go code with tabs.")
	ok(t, dir, "dream")
	listed := func() bool { return strings.Contains(mustRead(t, filepath.Join(dir, "MEMORY.md")), contradiction) }
	if !listed() {
		t.Fatalf("Dream flagged no contradiction:\n%s", mustRead(t, filepath.Join(dir, "MEMORY.md")))
	}
	// The description changes, not what disagrees: Dream's reason for the
	// pair stays the same.
	writeFile(t, filepath.Join(dir, "memory", "tabs.md"), "---\nname: Tabs\ndescription: indentation of Go code\ntype: feedback\n---\nAlways indent Go code with tabs.\n")
	ok(t, dir, "index")
	if listed() {
		t.Errorf("still listed after the edit:\n%s", mustRead(t, filepath.Join(dir, "MEMORY.md")))
	}
	ok(t, dir, "dream")
	if !listed() {
		t.Errorf("Dream found the edited pair still contradicting, but MEMORY.md does not list it:\n%s", mustRead(t, filepath.Join(dir, "MEMORY.md")))
	}
	// The listing after the next write keeps it: Dream vouched for the
	// pair as the notes are now.
	ok(t, dir, "remember", "--type", "project", "--name", "Deploys", "--description", "deploy day", "Deploys go out on Tuesdays.")
	if !listed() {
		t.Errorf("a later listing dropped the pair Dream found again:\n%s", mustRead(t, filepath.Join(dir, "MEMORY.md")))
	}
}

// TestContradictionDreamEditedStaysListed: Dream's own edit of a flagged
// memory (a link to a memory it merged away, rewritten in a later run)
// settles nothing: later listings keep the pair.
func TestContradictionDreamEditedStaysListed(t *testing.T) {
	const contradiction = "- [Spaces](memory/spaces.md) and [Tabs](memory/tabs.md) may contradict each other"
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "project", "--name", "Nightly", "--description", "nightly lint", "The nightly lint job checks indentation.")
	ok(t, dir, "remember", "--type", "feedback", "--name", "Tabs", "--description", "indentation", "Always indent Go code with tabs. See [[Nightly check]] and [[nightly]].")
	ok(t, dir, "remember", "--type", "feedback", "--name", "Spaces", "--description", "indentation rule", "Never indent Go code with tabs.")
	ok(t, dir, "dream")
	ok(t, dir, "remember", "--type", "project", "--name", "Nightly check", "--description", "nightly lint", "The nightly lint job checks indentation.")
	ok(t, dir, "dream") // merges the two, and relinks Tabs
	if note := mustRead(t, filepath.Join(dir, "memory", "tabs.md")); !strings.Contains(note, "[[nightly-check|nightly]]") {
		t.Fatalf("Dream relinked nothing:\n%s", note)
	}
	ok(t, dir, "remember", "--type", "project", "--name", "Deploys", "--description", "deploy day", "Deploys go out on Tuesdays.")
	if list := mustRead(t, filepath.Join(dir, "MEMORY.md")); !strings.Contains(list, contradiction) {
		t.Errorf("the listing after Dream's own edit dropped the pair:\n%s", list)
	}
}

// TestMCPRememberOwner: the MCP remember tool writes a user memory's
// owner from the person's own config, as the CLI does.
func TestMCPRememberOwner(t *testing.T) {
	vaultDir := t.TempDir()
	ann := newPerson(t, "ann", "owner: ann@example.com\n", "")
	ann.run(t, vaultDir, "", "init")
	cmd := exec.Command(os.Args[0], "--vault", vaultDir, "mcp")
	cmd.Env = append(append(os.Environ(), "VAULTMEM_RUN_MAIN=1"), ann.env...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	var res struct {
		Path  string `json:"path"`
		Owner string `json:"owner"`
	}
	if e := call(t, cs, "remember", map[string]any{"type": "user", "name": "Answer language", "description": "answer in French", "body": "Answer in French."}, &res); e != "" {
		t.Fatal(e)
	}
	if note := mustRead(t, filepath.Join(vaultDir, filepath.FromSlash(res.Path))); !strings.Contains(note, "\nowner: ann@example.com\n") {
		t.Errorf("the MCP remember tool wrote no owner:\n%s", note)
	}
}
