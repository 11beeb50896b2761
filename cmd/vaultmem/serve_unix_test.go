//go:build !windows

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ownerOnly says why the socket at addr is not for its owner alone.
func ownerOnly(addr string) error {
	info, err := os.Stat(addr)
	if err != nil {
		return err
	}
	if info.Mode().Perm() != 0o600 {
		return fmt.Errorf("socket %s: %v, want owner-only", addr, info.Mode())
	}
	return nil
}

// TestStaleSocket: a socket left by a server that died is not answered;
// commands answer in process, and the next server takes its place.
func TestStaleSocket(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "user", "--name", "Editor", "--description", "The user's editor", "Helix.")
	sock := serverAddress(dir)
	os.MkdirAll(filepath.Dir(sock), 0o700)
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := vaultmem(t, dir, "", "search", "helix"); r.code != 0 || !strings.Contains(r.stdout, "editor") {
		t.Errorf("with a stale socket: %+v", r)
	}
	startWatch(t, dir)
	for i := 0; ; i++ {
		if r := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "helix"); r.code == 0 {
			break
		}
		if i == 300 {
			t.Fatal("the new server never answered")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
