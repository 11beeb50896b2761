//go:build !windows

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/vaultmem/vaultmem/vault"
)

// serverAddress is the socket of vault dir's server: in .vaultmem/tmp when
// the path fits a socket address, else in a folder of this user's under
// the system's temporary folder, named by a hash of dir.
func serverAddress(dir string) string {
	p := filepath.Join(dir, filepath.FromSlash(vault.TmpDir), "serve.sock")
	if len(p) < 100 {
		return p
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(os.TempDir(), fmt.Sprintf("vaultmem-%d", os.Getuid()), hex.EncodeToString(sum[:8])+".sock")
}

// dialServer connects to the server listening at addr, waiting at most
// serverWait.
func dialServer(ctx context.Context, addr string) (net.Conn, error) {
	d := net.Dialer{Timeout: serverWait}
	return d.DialContext(ctx, "unix", addr)
}

// listenServer listens at addr, owner-only, in place of any socket a
// server that died left there. The socket is made under another name,
// made owner-only, then moved into place: no one ever sees it with wider
// permissions. Closing the listener removes the socket.
func listenServer(addr string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(addr), 0o700); err != nil {
		return nil, err
	}
	tmp := fmt.Sprintf("%s.%d", addr, os.Getpid())
	os.Remove(tmp)
	l, err := net.Listen("unix", tmp)
	if err != nil {
		return nil, err
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	if err := os.Chmod(tmp, 0o600); err != nil {
		l.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, addr); err != nil {
		l.Close()
		os.Remove(tmp)
		return nil, err
	}
	return socketListener{l, addr}, nil
}

// socketListener removes its socket when closed, before it stops
// accepting: once Accept has failed, the socket is gone.
type socketListener struct {
	net.Listener
	path string
}

func (l socketListener) Close() error {
	os.Remove(l.path)
	return l.Listener.Close()
}
