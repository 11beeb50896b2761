package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	list := mustRead(t, filepath.Join(vaultDir, "MEMORY.md"))
	if strings.Contains(list, "Answer language") || strings.Contains(list, "Editor") || !strings.Contains(list, "[Testing rule]") {
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
