package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/memory"
)

// writeUserFiles writes the test user's own vaultmem config (userConfig,
// "" for none) and global git config naming gitEmail ("" for none), in
// the HOME and XDG_CONFIG_HOME vaultWithConfig set.
func writeUserFiles(t *testing.T, userConfig, gitEmail string) {
	t.Helper()
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if userConfig != "" {
		p := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "vaultmem", "config.yaml")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(userConfig), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if gitEmail != "" {
		if err := os.WriteFile(filepath.Join(os.Getenv("HOME"), ".gitconfig"), []byte("[user]\n\temail = "+gitEmail+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOwner: who the user is, for a user memory's owner: the user's own
// config, else git's user.email in the vault (the repository's before the
// global one), else nobody.
func TestOwner(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for _, tc := range []struct {
		name                   string
		userConfig, globalMail string
		repoMail               string // the vault is a repository with this user.email; "" for no repository
		want                   string
	}{
		{"your config first", "owner: ann@example.com\n", "global@example.com", "repo@example.com", "ann@example.com"},
		{"the repository's email", "", "global@example.com", "repo@example.com", "repo@example.com"},
		{"your global git email", "", "global@example.com", "", "global@example.com"},
		{"a user config without owner", "hooks:\n  lessons: 2\n", "global@example.com", "", "global@example.com"},
		{"nobody known", "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := vaultWithConfig(t, "")
			writeUserFiles(t, tc.userConfig, tc.globalMail)
			if tc.repoMail != "" {
				for _, args := range [][]string{{"init", "-q"}, {"config", "user.email", tc.repoMail}} {
					cmd := exec.Command("git", args...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("git %v: %v %s", args, err, out)
					}
				}
			}
			a, err := Open(context.Background(), dir, Options{NoIndex: true})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if got := a.Owner(); got != tc.want {
				t.Errorf("owner %q, want %q", got, tc.want)
			}
		})
	}
}

// TestOwnerAndSharedConfig: owner is the user's alone and memory.shared
// the vault's alone; each in the wrong file, or an owner that is no one
// line, is an error naming the file and line.
func TestOwnerAndSharedConfig(t *testing.T) {
	for _, tc := range []struct {
		name, vaultConfig, userConfig string
		wantErr                       string // "" for none
		wantSharing                   memory.Sharing
	}{
		{"nothing set", "", "", "", memory.SharedIfOwners},
		{"vault shared", "memory:\n  shared: true\n", "", "", memory.AlwaysShared},
		{"vault one person's", "memory:\n  shared: false\n", "", "", memory.NeverShared},
		{"owner in your config", "", "owner: ann@example.com\n", "", memory.SharedIfOwners},
		{"owner in the vault's", "hooks:\n  lessons: 2\nowner: ann@example.com\n", "", ".vaultmem/config.yaml:3: owner: only your own config", 0},
		{"shared in your config", "", "memory:\n  shared: true\n", "vaultmem/config.yaml:2: memory.shared: whether a vault is shared is the vault's say", 0},
		{"owner of two lines", "", "owner: \"ann\\nbob\"\n", "vaultmem/config.yaml:1: owner:", 0},
		{"owner with spaces around", "", "owner: \" ann\"\n", "begins or ends with a space", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := vaultWithConfig(t, tc.vaultConfig)
			writeUserFiles(t, tc.userConfig, "")
			c, err := LoadConfig(dir)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatal(err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one holding %q", err, tc.wantErr)
			case tc.wantErr == "" && c.Memory.Sharing() != tc.wantSharing:
				t.Errorf("sharing %v, want %v", c.Memory.Sharing(), tc.wantSharing)
			}
		})
	}
}
