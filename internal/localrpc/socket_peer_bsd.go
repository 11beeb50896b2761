//go:build darwin || freebsd

package localrpc

import "golang.org/x/sys/unix"

// peerCredUID is the user id of the peer of the Unix socket fd, from the
// kernel (LOCAL_PEERCRED).
func peerCredUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
