//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedDotDirNeedsTrust: a .vaultmem (or its config) that others may
// change is refused, as git refuses an unsafe repository, with the
// command that allows it; after 'vaultmem trust' the vault is used, and
// after 'vaultmem trust --remove' refused again. The list is the user's
// own, in $XDG_CONFIG_HOME.
func TestSharedDotDirNeedsTrust(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string // made writable by everyone
	}{
		{".vaultmem", ".vaultmem"},
		{"its config", ".vaultmem/config.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := newVault(t)
			cfg := t.TempDir()
			env := []string{"XDG_CONFIG_HOME=" + cfg}
			if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(tc.path)), 0o777); err != nil {
				t.Fatal(err)
			}
			remember := []string{"remember", "--type", "user", "--name", "Editor", "--description", "The user's editor", "Helix."}
			r := vaultmemEnv(t, dir, "", env, remember...)
			hint := "vaultmem trust --vault " + dir
			if r.code == 0 || !strings.Contains(r.stderr, hint) || !strings.Contains(r.stderr, "can be changed by other users") {
				t.Fatalf("remember with %s open to all: exit %d, %q; want a refusal saying %q", tc.path, r.code, r.stderr, hint)
			}
			for _, args := range [][]string{{"init"}, {"index"}, {"doctor"}} {
				if r := vaultmemEnv(t, dir, "", env, args...); r.code == 0 || !strings.Contains(r.stderr, hint) {
					t.Errorf("%s with %s open to all: exit %d, %q; want the refusal", args[0], tc.path, r.code, r.stderr)
				}
			}

			r = vaultmemEnv(t, dir, "", env, "trust", "--vault", dir, "--json")
			var res trustResult
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 0 {
				t.Fatalf("trust: exit %d, %q %q", r.code, r.stdout, r.stderr)
			}
			file := filepath.Join(cfg, "vaultmem", "trusted")
			if res.Status != "trusted" || res.Vault != dir || res.File != file || len(res.Trusted) != 1 || res.Trusted[0] != dir {
				t.Errorf("trust --json: %+v", res)
			}
			if b := mustRead(t, file); !strings.Contains(b, "\n"+dir+"\n") {
				t.Errorf("%s holds %q, want the vault on a line", file, b)
			}
			if r := vaultmemEnv(t, dir, "", env, remember...); r.code != 0 {
				t.Fatalf("remember in a trusted vault: exit %d, %q", r.code, r.stderr)
			}
			if out := vaultmemEnv(t, dir, "", env, "trust", "--list").stdout; out != dir+"\n" {
				t.Errorf("trust --list: %q", out)
			}
			if r := vaultmemEnv(t, dir, "", env, "trust", "--remove"); r.code != 0 || !strings.Contains(r.stdout, "no longer trusted") {
				t.Errorf("trust --remove: exit %d, %q %q", r.code, r.stdout, r.stderr)
			}
			if r := vaultmemEnv(t, dir, "", env, "search", "helix"); r.code == 0 || !strings.Contains(r.stderr, hint) {
				t.Errorf("search after trust --remove: exit %d, %q; want the refusal", r.code, r.stderr)
			}
		})
	}
}

// TestAnotherUsersDotDir: a .vaultmem another user owns is refused, naming
// that user and the command that allows it, and used once trusted. It
// needs root, to make the user.
func TestAnotherUsersDotDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make another user")
	}
	if _, err := exec.LookPath("useradd"); err != nil {
		t.Skip("no useradd here")
	}
	name := fmt.Sprintf("vmtest%d", rand.IntN(1_000_000))
	if out, err := exec.Command("useradd", "-M", name).CombinedOutput(); err != nil {
		t.Skipf("useradd %s: %v: %s", name, err, out)
	}
	t.Cleanup(func() { exec.Command("userdel", name).Run() })
	dir := newVault(t)
	if out, err := exec.Command("chown", "-R", name, filepath.Join(dir, ".vaultmem")).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v: %s", err, out)
	}
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir()}
	r := vaultmemEnv(t, dir, "", env, "index")
	if r.code == 0 || !strings.Contains(r.stderr, "is owned by "+name) || !strings.Contains(r.stderr, "vaultmem trust --vault "+dir) {
		t.Fatalf("index in a vault of %s: exit %d, %q; want a refusal naming the user and vaultmem trust", name, r.code, r.stderr)
	}
	if r := vaultmemEnv(t, dir, "", env, "trust"); r.code != 0 {
		t.Fatalf("trust: exit %d, %q", r.code, r.stderr)
	}
	if r := vaultmemEnv(t, dir, "", env, "index"); r.code != 0 {
		t.Errorf("index in a trusted vault: exit %d, %q", r.code, r.stderr)
	}
}
