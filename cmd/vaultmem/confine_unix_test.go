//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree is every file and folder under dir (a link as "-> target"), by
// slash path: what a test compares before and after, byte for byte.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "/"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree fails the test when dir no longer holds what before did.
func sameTree(t *testing.T, what, dir string, before map[string]string) {
	t.Helper()
	after := tree(t, dir)
	for p, b := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s: %s outside the vault was deleted", what, p)
		} else if a != b {
			t.Errorf("%s: %s outside the vault changed: %q, was %q", what, p, a, b)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s was made outside the vault", what, p)
		}
	}
}

// TestSharedVaultLinks: in a shared vault every file may be someone
// else's, a symbolic link among them. Wherever such a link leads (out of
// the vault, to another user's folder or file, or to another place in the
// vault), vaultmem's commands never write, create or delete through it:
// they refuse, naming the link, and what it leads to stays byte for byte
// as it was.
func TestSharedVaultLinks(t *testing.T) {
	const victim = "# the victim's shell startup\nexport PATH=$HOME/bin:$PATH\n"
	for _, tc := range []struct {
		name string
		// fresh leaves the vault without init (its .vaultmem is the link).
		fresh bool
		// link is the vault path made a link, target where it leads,
		// outside the vault (or, with inside set, in the vault).
		link, target string
		inside       bool
		// kept says the runs report the link and go on (init keeps a view
		// it cannot write, as it keeps a person's).
		kept bool
		// prepare makes what the link leads to, in the outside folder.
		prepare func(t *testing.T, out string)
		runs    [][]string
	}{
		{name: ".gitattributes", link: ".gitattributes", target: "bashrc",
			runs: [][]string{{"init"}}},
		{name: ".vaultmem", fresh: true, link: ".vaultmem", target: "theirs",
			prepare: func(t *testing.T, out string) { writeFile(t, filepath.Join(out, "theirs", "keep.txt"), "theirs\n") },
			runs:    [][]string{{"init"}, {"index"}, {"remember", "--type", "user", "--name", "Editor", "--description", "d", "Helix."}}},
		{name: ".vaultmem/cache", link: ".vaultmem/cache", target: "cache",
			// Not a SQLite file: a cache vaultmem would rebuild, deleting it.
			prepare: func(t *testing.T, out string) {
				writeFile(t, filepath.Join(out, "cache", "index.db"), "not a database\n")
			},
			runs: [][]string{{"index"}, {"search", "helix"}, {"remember", "--type", "user", "--name", "Editor", "--description", "d", "Helix."}}},
		{name: ".vaultmem/cache inside the vault", link: ".vaultmem/cache", target: "memory/cache", inside: true,
			runs: [][]string{{"index"}}},
		{name: ".vaultmem/config.yaml", link: ".vaultmem/config.yaml", target: "config.yaml",
			prepare: func(t *testing.T, out string) {
				writeFile(t, filepath.Join(out, "config.yaml"), "folders:\n  memory: memory\n")
			},
			runs: [][]string{{"init"}, {"remember", "--type", "user", "--name", "Editor", "--description", "d", "Helix."}}},
		{name: "the views folder", link: "views", target: "views", kept: true,
			prepare: func(t *testing.T, out string) { writeFile(t, filepath.Join(out, "views", "Mine.base"), "views: []\n") },
			runs:    [][]string{{"init"}}},
		{name: "the views folder, for the canvas", link: "views", target: "views",
			prepare: func(t *testing.T, out string) { writeFile(t, filepath.Join(out, "views", "Mine.base"), "views: []\n") },
			runs:    [][]string{{"task", "tree", "--canvas"}}},
		{name: "the canvas file", link: "views/Tasks.canvas", target: "plan.canvas",
			prepare: func(t *testing.T, out string) {
				writeFile(t, filepath.Join(out, "plan.canvas"), `{"nodes":[],"edges":[]}`)
			},
			runs: [][]string{{"task", "tree", "--canvas"}}},
		{name: ".vaultmem/lock", link: ".vaultmem/lock", target: "bashrc",
			runs: [][]string{{"remember", "--type", "user", "--name", "Editor", "--description", "d", "Helix."}}},
		{name: "a state file", link: ".vaultmem/state/focus/default.yaml", target: "bashrc",
			runs: [][]string{{"task", "start", "Ship"}, {"task", "focus"}}},
		{name: ".vaultmem/state inside the vault", link: ".vaultmem/state", target: "memory", inside: true,
			runs: [][]string{{"task", "start", "Ship"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			writeFile(t, filepath.Join(out, "bashrc"), victim)
			if tc.prepare != nil {
				tc.prepare(t, out)
			}
			dir := t.TempDir()
			if !tc.fresh {
				ok(t, dir, "init")
				ok(t, dir, "task", "add", "Ship")
			}
			at := filepath.Join(dir, filepath.FromSlash(tc.link))
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(at); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(out, filepath.FromSlash(tc.target))
			if tc.inside {
				target = filepath.Join(dir, filepath.FromSlash(tc.target))
			}
			if err := os.Symlink(target, at); err != nil {
				t.Fatal(err)
			}
			watched := out
			if tc.inside {
				watched = target
				if err := os.MkdirAll(target, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			before := tree(t, watched)
			for _, args := range tc.runs {
				r := vaultmem(t, dir, "", args...)
				what := strings.Join(args, " ")
				said := r.stderr
				if tc.kept {
					said += r.stdout
				}
				if r.code == 0 && !tc.kept {
					t.Errorf("vaultmem %s with %s a link: exit 0, want a refusal\nstdout: %s", what, tc.link, r.stdout)
				} else if !strings.Contains(said, "is a symbolic link; vaultmem does not write through links in a vault") {
					t.Errorf("vaultmem %s with %s a link: %q, want it to name the link", what, tc.link, said)
				}
				sameTree(t, what, watched, before)
			}
			if b := mustRead(t, filepath.Join(out, "bashrc")); b != victim {
				t.Errorf("the victim's file is now %q", b)
			}
		})
	}
}

// TestInitMakesNoFolderOutside: a config naming a folder outside the vault
// (folders.memory: ../../x) never has init make it, whatever else checks
// the config's values.
func TestInitMakesNoFolderOutside(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "a", "vault")
	writeFile(t, filepath.Join(dir, ".vaultmem", "config.yaml"), "folders:\n  memory: ../../outside/x\n  tasks: /"+strings.TrimPrefix(filepath.ToSlash(top), "/")+"/abs\n")
	r := vaultmem(t, dir, "", "init")
	if r.code == 0 {
		t.Errorf("init with folders outside the vault: exit 0, want a refusal\n%s", r.stdout)
	}
	for _, p := range []string{filepath.Join(top, "outside"), filepath.Join(top, "abs")} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("init made %s, outside the vault", p)
		}
	}
}
