//go:build !windows

package localrpc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
)

// maxSocketPath is the longest socket path this code binds: macOS allows
// 103 bytes (Linux 107), and the socket is made under its name plus
// ".PID" first.
const maxSocketPath = 103 - 8

// Address is the socket of the server of the vault in folder dir: in
// private (the vault's own temporary folder) when the path fits a socket
// address and that folder is this user's and closed to others (or not
// made yet), else in a folder of this user's under the system's temporary
// folder, named by a hash of dir. In a vault shared with other local
// users, private may be another's, or open to the group: whoever may
// change it could move a socket of theirs into place.
func Address(dir, private string) string {
	p := filepath.Join(private, "serve.sock")
	if len(p) <= maxSocketPath {
		if err := closedFolder(filepath.Dir(p), 0o022); err == nil || errors.Is(err, fs.ErrNotExist) {
			return p
		}
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(sharedSocketDir(), hex.EncodeToString(sum[:8])+".sock")
}

// sharedSocketDir is this user's folder for sockets under the system's
// temporary folder.
func sharedSocketDir() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("vaultmem-%d", os.Getuid()))
}

// Dial connects to the server listening at addr, waiting at most
// serverWait, and only to a process of this user's: another user's
// process is never taken for the vault's server. The socket's file must
// be this user's, and the kernel must say the process that listens runs
// as this user (on Linux, macOS and FreeBSD; elsewhere the file's owner is
// all there is to go by): whoever can change the socket's folder could
// move their own socket into place between the look at its owner and the
// connection.
func Dial(ctx context.Context, addr string) (net.Conn, error) {
	if _, err := thisUsers(addr); err != nil {
		return nil, err
	}
	d := net.Dialer{Timeout: serverWait}
	c, err := d.DialContext(ctx, "unix", addr)
	if err != nil {
		return nil, err
	}
	if err := servedByThisUser(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return c, nil
}

// servedByThisUser says why the process at the other end of socket c does
// not run as this user, where the kernel tells.
func servedByThisUser(c net.Conn) error {
	uid, known, err := peerUID(c)
	switch {
	case err != nil:
		return err
	case known && uid != os.Getuid():
		return fmt.Errorf("served by another user (%d), not this one", uid)
	}
	return nil
}

// closedFolder says why dir is not a folder (not a link to one) of this
// user's, closed to others: none of the permission bits of open set.
func closedFolder(dir string, open fs.FileMode) error {
	info, err := thisUsers(dir)
	if err != nil {
		return err
	}
	if !info.IsDir() || info.Mode().Perm()&open != 0 {
		return fmt.Errorf("%s is not a folder closed to other users (%v)", dir, info.Mode())
	}
	return nil
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

// Listen listens at addr, owner-only, in place of any socket a
// server that died left there. The socket is made under another name,
// made owner-only, then moved into place: no one ever sees it with wider
// permissions. Its folder must be this user's, and no one else may change
// it (in the system's temporary folder, a folder anyone may make, no one
// else may even look in it), or another user could put a socket in its
// place. Closing the listener removes the socket.
func Listen(addr string) (net.Listener, error) {
	dir := filepath.Dir(addr)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	open := fs.FileMode(0o022)
	if dir == sharedSocketDir() {
		open = 0o077
	}
	if err := closedFolder(dir, open); err != nil {
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
