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
	"syscall"

	"github.com/vaultmem/vaultmem/vault"
)

// maxSocketPath is the longest socket path this code binds: macOS allows
// 103 bytes (Linux 107), and the socket is made under its name plus
// ".PID" first.
const maxSocketPath = 103 - 8

// serverAddress is the socket of vault dir's server: in .vaultmem/tmp when
// the path fits a socket address, else in a folder of this user's under
// the system's temporary folder, named by a hash of dir.
func serverAddress(dir string) string {
	p := filepath.Join(dir, filepath.FromSlash(vault.TmpDir), "serve.sock")
	if len(p) <= maxSocketPath {
		return p
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(sharedSocketDir(), hex.EncodeToString(sum[:8])+".sock")
}

// sharedSocketDir is this user's folder for sockets under the system's
// temporary folder.
func sharedSocketDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("vaultmem-%d", os.Getuid()))
}

// dialServer connects to the server listening at addr, waiting at most
// serverWait: only to a socket of this user's (another user's process is
// not taken for the vault's server).
func dialServer(ctx context.Context, addr string) (net.Conn, error) {
	if _, err := thisUsers(addr); err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: serverWait}
	return d.DialContext(ctx, "unix", addr)
}

// thisUsers says why the file at p does not belong to this user; info is
// what Lstat says of it.
func thisUsers(p string) (info os.FileInfo, err error) {
	if info, err = os.Lstat(p); err != nil {
		return nil, err
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return nil, fmt.Errorf("%s belongs to user %d, not this one", p, st.Uid)
	}
	return info, nil
}

// listenServer listens at addr, owner-only, in place of any socket a
// server that died left there. The socket is made under another name,
// made owner-only, then moved into place: no one ever sees it with wider
// permissions. Closing the listener removes the socket.
func listenServer(addr string) (net.Listener, error) {
	dir := filepath.Dir(addr)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if dir == sharedSocketDir() {
		// A folder anyone may make: it must be this user's, and closed
		// to others, or another user could put a socket in its place.
		info, err := thisUsers(dir)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() || info.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("%s is not a folder closed to other users", dir)
		}
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
	info, err := os.Lstat(addr)
	if err != nil {
		l.Close()
		return nil, err
	}
	return socketListener{l, addr, info}, nil
}

// socketListener removes its socket when closed, before it stops
// accepting (once Accept has failed, the socket is gone), unless another
// server's socket has taken its place meanwhile.
type socketListener struct {
	net.Listener
	path string
	info os.FileInfo
}

func (l socketListener) Close() error {
	if now, err := os.Lstat(l.path); err == nil && os.SameFile(now, l.info) {
		os.Remove(l.path)
	}
	return l.Listener.Close()
}
